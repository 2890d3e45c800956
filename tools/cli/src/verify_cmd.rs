//! `iron3d-cli verify GAME_DIR [--json] [--mod DIR]...`: the invariants a player's copy of
//! the game must hold, re-derived from its files through the libraries the game loads
//! them with, one named check each: `archives` (every archive of every layer parses and
//! saves byte-identical), `textures` (every Texm entry decodes, every mip level),
//! `missions` (every listed mission's `data.tma` parses to its end and its land files
//! parse), `objects` (every placed object resolves as the mission load resolves it),
//! `scripts` (every clan's script package loads against its variable table), `research`
//! (every clan's research tree reads), `clans` (relations and owners in range), `profiles`
//! (the behaviour profiles), `controls` (the input layer's files, every name known) and
//! `interface` (the cockpit's art: the pages and sprites).
//! Every failure names its file (as the tree spells it) and the located error.

mod controls;
mod interface;

use crate::archive_cmd::lossless_save;
use crate::layers::{LayerArchive, Mods, layer_archives, layers_json};
use crate::output::{ensure_identical, print_json, print_text, progress};
use anyhow::bail;
use clap::Args;
use iron3d_formats::model::texm::{self, DecodeOptions, Texm};
use iron3d_formats::nres::Nres;
use iron3d_formats::registry::BuildDat;
use iron3d_formats::world::{ArealMap, LandMsh, PropertyValue, Tma};
use iron3d_formats::{Frame, ReadOptions};
use iron3d_mission::{Catalogue, GameMissionBackend, GameScriptFiles, MissionBackend, MissionName, placed_objects};
use iron3d_superai::{LoadMode, package};
use iron3d_vfs::{GameDir, fold_path};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

/// What `--help` adds after the options.
pub const AFTER_HELP: &str = "\
Checks, in order: archives (every NRes and RsLi archive of every layer parses and saves back \
byte-identical), textures (every Texm entry decodes, every mip level), missions (every listed mission's \
data.tma parses to its end; its Land.msh, Land.map and BuildDat.lst exist and parse), objects (every placed \
object resolves through its unit scheme and objects.rlb to its models, as the mission load does), scripts \
(every clan's script package, .scr with its .var or the folder's varset.var, loads), research (every \
research tree a clan names reads), clans (every relation names a clan of the mission with the word 0 \
hostile, 1 neutral or 2 allied; every placed object's clan, and its ClanID, is a clan of the mission), \
profiles (behpsp.res is there and every behaviour profile in it reads), controls (ScanCode.dsc, Command.dsc, table_1.man, table_2.man, hero.man, addition.man, hero.tbl, m1.tbl and m2.tbl are there and read; every command, key, movement command and state they name is known to the engine, and every command and key a binding or row names is in its descriptor), interface (ui/game_resources.cfg's \
textures block, every page it names in its library decodes, ui/compaund.cfg and ui/hq.cfg read, every \
sprite cut from one of those pages lies inside it).

With --json: {\"checks\": [{\"name\", \"passed\", \"count\", \"failures\": [{\"file\", \"error\", \"layer\"}]}], \
\"passed\", \"layers\"}. Exit status 0 when every check holds, 1 when any fails.

Found a bug? Run verify on your copy of the game first (with the mods you play with) and attach its --json \
output to the bug report.";

/// Arguments of `verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Game directory.
    game_dir: PathBuf,
    /// Print one JSON object (with the layers).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    mods: Mods,
}

/// One failed item of a check.
#[derive(Serialize)]
struct Failure {
    /// The file at fault, as its layer spells it (or as the data names it when missing).
    file: String,
    /// The located error.
    error: String,
    /// The layer serving the file (none for a missing file).
    #[serde(skip_serializing_if = "Option::is_none")]
    layer: Option<String>,
}

/// One named check.
#[derive(Serialize)]
struct Check {
    name: &'static str,
    passed: bool,
    /// Items checked.
    count: usize,
    failures: Vec<Failure>,
    /// What the count counts and what holds of each (the table's text).
    #[serde(skip)]
    what: &'static str,
}

impl Check {
    fn new(name: &'static str, what: &'static str) -> Self {
        Self { name, passed: true, count: 0, failures: Vec::new(), what }
    }

    /// Counts one item, and its failure.
    fn item<T>(&mut self, result: Result<T, Failure>) -> Option<T> {
        self.count += 1;
        result.map_err(|f| self.failures.push(f)).ok()
    }

    fn done(mut self) -> Self {
        self.passed = self.failures.is_empty();
        self
    }
}

#[derive(Serialize)]
struct Report {
    checks: Vec<Check>,
    passed: bool,
    layers: serde_json::Value,
}

/// A mission whose file parsed.
struct Mission {
    name: MissionName,
    /// Its `data.tma` as a game path.
    file: String,
    tma: Tma,
}

/// The tree under check.
struct Tree {
    game: Arc<GameDir>,
}

/// The innermost file of a located error.
fn file_of(e: &iron3d_formats::Error) -> Option<&str> {
    e.chain.iter().find_map(|f| match f {
        Frame::File(path) => Some(path.as_str()),
        _ => None,
    })
}

/// Runs one item; a panic of a reader on damaged data becomes the item's failure
/// (naming `file`), never the command's.
fn guarded<T>(tree: &Tree, file: &str, item: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(item)).unwrap_or_else(|panic| {
        let why =
            panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
        Err(tree.failure(file, format!("internal error: a reader panicked ({})", why.unwrap_or_default())))
    })
}

impl Tree {
    /// A failure of `file` (a game path): named as the layer serving it spells it.
    fn failure(&self, file: &str, error: impl Display) -> Failure {
        let real = self.game.resolve(file).and_then(|real| {
            self.game
                .layers()
                .iter()
                .rev()
                .find_map(|l| real.strip_prefix(&l.root).ok().map(|r| r.display().to_string()))
        });
        let layer = real.as_ref().and_then(|_| self.game.layer_of(file));
        Failure { file: real.unwrap_or_else(|| file.replace('\\', "/")), error: error.to_string(), layer }
    }

    /// A loose file's bytes; a missing or unreadable one is a failure naming it.
    fn read(&self, file: &str, context: &str) -> Result<Vec<u8>, Failure> {
        self.game.read_file(file).map_err(|e| self.failure(file, format!("{context}: {e}")))
    }

    /// `archives` and `textures`, in one pass over every layer's archives.
    fn archives(&self, archives: &[LayerArchive]) -> (Check, Check) {
        let mut checked = Check::new("archives", "archives parse and round-trip");
        let mut textures = Check::new("textures", "textures decode");
        let bar = progress(archives.len() as u64, "archives");
        for a in archives {
            let failure =
                |e: &dyn Display| Failure { file: a.name.clone(), error: e.to_string(), layer: Some(a.layer.clone()) };
            let bytes = checked.item(guarded(self, &a.name, || {
                let bytes = std::fs::read(&a.path).map_err(|e| failure(&e))?;
                let saved = lossless_save(&bytes, &a.name).map_err(|e| failure(&format!("{e:#}")))?;
                ensure_identical(&saved, &bytes, &format!("{}: the lossless save", a.name)).map_err(|e| failure(&e))?;
                Ok(bytes)
            }));
            let Some(nres) = bytes.as_deref().and_then(|b| Nres::parse(b, ReadOptions::compatible()).ok()) else {
                bar.inc(1);
                continue;
            };
            for (i, entry) in nres.entries().iter().enumerate().filter(|(_, e)| e.type_id == texm::MAGIC) {
                let located = |e: &dyn Display| failure(&format!("entry {}: {e}", entry.display_name()));
                textures.item(guarded(self, &a.name, || {
                    let t = Texm::parse(nres.payload(i).unwrap_or_default()).map_err(|e| located(&e))?;
                    (0..t.mips.len()).try_for_each(|level| {
                        let rgba = t.decode_level(level, DecodeOptions::default()).map_err(|e| located(&e))?;
                        let (w, h) = t.level_dims(level as u32);
                        if rgba.len() as u64 == u64::from(w) * u64::from(h) * 4 {
                            Ok(())
                        } else {
                            Err(located(&format!("mip level {level} decodes to {} bytes for {w}x{h}", rgba.len())))
                        }
                    })
                }));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        (checked.done(), textures.done())
    }

    /// `missions`: every listed mission's file and land files; the missions that parsed.
    fn missions(&self, catalogue: &Catalogue) -> (Check, Vec<Mission>) {
        let mut check = Check::new("missions", "missions parse, with their maps");
        let mut lands: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut parsed = Vec::new();
        for entry in &catalogue.missions {
            let name = &entry.name;
            let file = name.file("data.tma");
            let context = format!("mission {name}");
            let loaded = guarded(self, &file, || {
                let tma = Tma::parse(&self.read(&file, &context)?, ReadOptions::compatible())
                    .map_err(|e| self.failure(&file, format!("{context}: {e}")))?;
                let land = tma.land_path.display();
                let dir = land.rsplit_once(['\\', '/']).map_or("", |(d, _)| d);
                for path in [format!("{land}.msh"), format!("{land}.map"), format!("{dir}/BuildDat.lst")] {
                    let error = lands.entry(fold_path(&path)).or_insert_with(|| self.land_file(&path).err());
                    if let Some(error) = error {
                        return Err(self.failure(&path, format!("{context}: its land file: {error}")));
                    }
                }
                Ok(tma)
            });
            if let Some(tma) = check.item(loaded) {
                parsed.push(Mission { name: name.clone(), file, tma });
            }
        }
        (check.done(), parsed)
    }

    /// Reads and parses one land file by its extension.
    fn land_file(&self, path: &str) -> Result<(), String> {
        let bytes = self.game.read_file(path).map_err(|e| e.to_string())?;
        let options = ReadOptions::compatible();
        let lower = path.to_ascii_lowercase();
        let parsed = if lower.ends_with(".msh") {
            LandMsh::parse(&bytes, options).map(drop)
        } else if lower.ends_with(".map") {
            ArealMap::parse(&bytes, options).map(drop)
        } else {
            BuildDat::parse(&bytes).map(drop)
        };
        parsed.map_err(|e| e.to_string())
    }

    /// `objects`: every placed object through the mission load's resolution (its
    /// geometry and its combat parts: node tables, guns and their rounds).
    fn objects(&self, missions: &[Mission]) -> Check {
        let mut check = Check::new("objects", "placed objects resolve to geometry and combat parts");
        let backend = GameMissionBackend::new(Arc::clone(&self.game));
        let bar = progress(missions.iter().map(|m| m.tma.objects.len() as u64).sum(), "objects");
        for m in missions {
            let objects = match placed_objects(&m.tma) {
                Ok(objects) => objects,
                Err(e) => {
                    check.item::<()>(Err(self.failure(&m.file, format!("mission {}: {e}", m.name))));
                    continue;
                }
            };
            for mut o in objects {
                check.item(guarded(self, &m.file, || {
                    backend
                        .prepare_object(&mut o)
                        .map_err(|e| self.failure(file_of(&e).unwrap_or(&m.file), format!("mission {}: {e}", m.name)))
                }));
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
        check.done()
    }

    /// Each clan record's file of one kind (script bundle or research tree), once per
    /// folded path, with the first clan naming it.
    fn clan_files(missions: &[Mission], pick: fn(&iron3d_formats::world::Clan) -> String) -> Vec<(String, String)> {
        let mut seen = BTreeSet::new();
        missions
            .iter()
            .flat_map(|m| m.tma.clans.iter().map(move |c| (m, c)))
            .map(|(m, c)| (pick(c), format!("clan {} of mission {}", c.name.display(), m.name)))
            .filter(|(path, _)| !path.is_empty() && seen.insert(fold_path(path)))
            .collect()
    }

    /// `scripts`: every clan's package, loaded as SuperAI loads it.
    fn scripts(&self, missions: &[Mission]) -> Check {
        let mut check = Check::new("scripts", "script packages load against their varsets");
        let files = GameScriptFiles(Arc::clone(&self.game));
        for (bundle, clan) in Self::clan_files(missions, |c| c.script.display()) {
            let scr =
                if bundle.to_ascii_lowercase().ends_with(".scr") { bundle.clone() } else { format!("{bundle}.scr") };
            check.item(guarded(self, &scr, || {
                package::load(&files, &bundle, LoadMode::Compatible)
                    .map_err(|e| self.failure(file_of(&e).unwrap_or(&scr), format!("{clan}: {e}")))
            }));
        }
        check.done()
    }

    /// `research`: every clan's research tree, read as production reads it.
    fn research(&self, missions: &[Mission]) -> Check {
        let mut check = Check::new("research", "research trees read");
        for (path, clan) in Self::clan_files(missions, |c| c.research_tree.display()) {
            check.item(guarded(self, &path, || {
                let bytes = self.read(&path, &clan)?;
                iron3d_production::ResearchTree::parse(&path, &bytes)
                    .map_err(|e| self.failure(&path, format!("{clan}: {e}")))
            }));
        }
        check.done()
    }

    /// `profiles`: `behpsp.res`, every behaviour profile read as the mission load reads
    /// it (the original ships one; a tree without it fails).
    fn profiles(&self) -> Check {
        let mut check = Check::new("profiles", "behaviour profiles read");
        let file = iron3d_mission::PROFILES_FILE;
        let read = guarded(self, file, || match iron3d_mission::behaviour_profiles(&self.game) {
            Ok(p) if p.source.is_some() => Ok(p.profiles.len()),
            Ok(_) => Err(self.failure(file, "not found (the original ships it)")),
            Err(e) => Err(self.failure(file, e)),
        });
        match read {
            Ok(n) => check.count += n,
            Err(f) => _ = check.item::<()>(Err(f)),
        }
        check.done()
    }

    /// `clans`: relations and owners in range, per clan record.
    fn clans(&self, missions: &[Mission]) -> Check {
        let mut check = Check::new("clans", "clans with relations and owners in range");
        for m in missions {
            let clans = &m.tma.clans;
            let named = |name: &[u8]| clans.iter().any(|c| c.name.as_bytes().eq_ignore_ascii_case(name));
            for (i, clan) in clans.iter().enumerate() {
                let at = format!("mission {}: clan {i} ({})", m.name, clan.name.display());
                let problems = clan.relations.iter().filter_map(|(other, word)| {
                    let other_name = other.display();
                    if !named(other.as_bytes()) {
                        Some(format!("{at}: a relation names `{other_name}`, which is no clan of the mission"))
                    } else if !RELATION_WORDS.contains(word) {
                        Some(format!("{at}: the relation towards `{other_name}` has the word {word} (0 hostile, 1 neutral, 2 allied)"))
                    } else {
                        None
                    }
                });
                check.count += 1;
                check.failures.extend(problems.map(|p| self.failure(&m.file, p)));
            }
            for (i, o) in m.tma.objects.iter().enumerate() {
                let at = format!("mission {}: placed object {i} ({})", m.name, o.resource_name.display());
                let owner = usize::try_from(o.raw_after_resource).ok().filter(|&c| c < clans.len());
                if owner.is_none() {
                    let why = format!(
                        "{at}: its clan index {} is no clan of the mission ({} clans)",
                        o.raw_after_resource,
                        clans.len()
                    );
                    check.failures.push(self.failure(&m.file, why));
                }
                if let Some(PropertyValue::Int(id)) = o.clan_id()
                    && !usize::try_from(id).is_ok_and(|c| c < clans.len())
                {
                    let why = format!("{at}: its ClanID {id} is no clan of the mission ({} clans)", clans.len());
                    check.failures.push(self.failure(&m.file, why));
                }
            }
        }
        check.done()
    }
}

/// The relation words: 0 hostile, 1 neutral, 2 allied (`docs/reference/world.md` §1.4,
/// the original's convention).
const RELATION_WORDS: [i32; 3] = [0, 1, 2];

/// Runs the checks; fails (after printing) when any check fails.
pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let tree = Tree { game: Arc::new(args.mods.open(&args.game_dir)?) };
    let (archives, textures) = tree.archives(&layer_archives(&tree.game));
    let (missions, parsed) = tree.missions(&Catalogue::discover(&tree.game));
    let checks = vec![
        archives,
        textures,
        missions,
        tree.objects(&parsed),
        tree.scripts(&parsed),
        tree.research(&parsed),
        tree.clans(&parsed),
        tree.profiles(),
        tree.controls(),
        tree.interface(),
    ];
    let failed: Vec<&str> = checks.iter().filter(|c| !c.passed).map(|c| c.name).collect();
    let report = Report { passed: failed.is_empty(), layers: layers_json(&tree.game)?, checks };
    if args.json {
        print_json(&report)?;
    } else {
        print_text(&table(&report.checks))?;
    }
    if !failed.is_empty() {
        bail!("verification failed: {}", failed.join(", "));
    }
    Ok(())
}

/// One `PASS`/`FAIL` line per check, then each failure's check, file and error.
fn table(checks: &[Check]) -> String {
    let mut out = String::new();
    for c in checks {
        let status = if c.passed { "PASS" } else { "FAIL" };
        let failed = if c.passed { String::new() } else { format!(" ({} failed)", c.failures.len()) };
        out += &format!("{status}  {:<9} {} {}{failed}\n", c.name, c.count, c.what);
    }
    for c in checks {
        for f in &c.failures {
            out += &format!("  {:<9} {}: {}\n", c.name, f.file, f.error);
        }
    }
    out
}
