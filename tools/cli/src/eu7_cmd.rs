//! `iron3d-cli eu7 ...`: inspect, decode, verify, generate and bake MaSzyna EU7B sceneries.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::output::{ensure_identical, print_json};
use anyhow::Context;
use iron3d_eu7::bake::BakeOptions;
use iron3d_eu7::generate::{self, GenConfig};
use iron3d_eu7::include::{DiskFiles, IncludeNode, IncludeTree, resolve_includes};
use iron3d_eu7::section::SectionFormat;
use iron3d_eu7::{Module, ReadOptions, SectionIndex};
use serde::Serialize;

/// EU7B subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Eu7Command {
    /// Version, chunk table, record counts, sections and models per section.
    Info {
        /// The `.eu7` file.
        file: PathBuf,
        /// Also resolve the `INCL` tree (each include's file or error, its record counts).
        #[arg(long)]
        includes: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Decode one PACK section (row = Z index, col = X index).
    Section {
        /// The `.eu7` file.
        file: PathBuf,
        /// Section row (Z).
        row: u32,
        /// Section column (X).
        col: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Parse the whole file and every PACK section; check that writing reproduces it.
    Verify {
        /// The `.eu7` file.
        file: PathBuf,
        /// Strict profile (exact payloads, no unknown chunks, no quirks).
        #[arg(long)]
        strict: bool,
        /// Print the result of a valid file as JSON (failures go to standard error).
        #[arg(long)]
        json: bool,
    },
    /// Bake a MaSzyna text scenery (`.scn`, `.scm`, `.inc`) into one EU7B module: every
    /// node kind into its record, each include into an INCL record (with --tree its file
    /// is baked too, into the `.eu7` the record names). A token the grammar does not
    /// expect is a warning (file, line, token) on standard error; a file that ends inside
    /// a node is an error naming its line.
    Bake {
        /// The text scenery.
        scenery: PathBuf,
        /// Output `.eu7` path.
        #[arg(short, long)]
        out: PathBuf,
        /// File version, 6 to 9 (default 6, or 9 with --pack; 7 to 9 with --pack).
        #[arg(long, value_parser = clap::value_parser!(u32).range(6..=9))]
        version: Option<u32>,
        /// Models into 1 km PACK sections with PIDX and PROT (section format 6 in version
        /// 9, 5 in version 8, flat in version 7) instead of MODL.
        #[arg(long)]
        pack: bool,
        /// Also bake every file it includes (any depth, each once, found in any letter case
        /// under the scenery's folder) beside its text, as version-6 modules; an include
        /// that names no file is a warning.
        #[arg(long)]
        tree: bool,
        /// Print the result as JSON (warnings included) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a deterministic synthetic scenery, the module it includes beside it, and
    /// optionally its E3D models.
    Generate {
        /// Output `.eu7` path.
        out: PathBuf,
        /// Model instances.
        #[arg(long, default_value_t = 10_000)]
        instances: usize,
        /// PRNG seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Side of the area in km.
        #[arg(long, default_value_t = 10.0)]
        extent_km: f64,
        /// Also write the generated `.e3d` models and their TGA textures under the output's
        /// directory.
        #[arg(long)]
        models: bool,
        /// How models are stored: `modl` (a flat MODL chunk, version 6), `flat` (headerless
        /// PACK sections, version 7) or a PACK section format 1 to 6 (version 9).
        #[arg(long, default_value = "6", value_parser = section_format)]
        format: Layout,
        /// Models' nodes carry a name only (no bounds, no ranges), so a flat section starts
        /// with a format marker's value, as MaSzyna's first v7 writer wrote them.
        #[arg(long)]
        bare_nodes: bool,
        /// Write an empty PROT as its chunk header alone, as MaSzyna's tree bake writes a
        /// root without models (with `--instances 0`).
        #[arg(long)]
        bare_tables: bool,
    },
}

/// How `eu7 generate` stores models: `None` in a MODL chunk, else in PACK sections.
#[derive(Debug, Clone, Copy)]
pub struct Layout(Option<SectionFormat>);

fn section_format(s: &str) -> Result<Layout, String> {
    match s {
        "modl" => Ok(Layout(None)),
        "flat" => Ok(Layout(Some(SectionFormat::Flat))),
        _ => s
            .parse::<u8>()
            .ok()
            .and_then(SectionFormat::from_marker)
            .map(|f| Layout(Some(f)))
            .ok_or_else(|| format!("{s}: not modl, flat or a section format 1 to 6")),
    }
}

#[derive(Serialize)]
struct ChunkRow {
    id: String,
    offset: u64,
    records: usize,
}

#[derive(Serialize)]
struct SectionRow {
    row: u16,
    col: u16,
    models: u32,
    offset: u64,
    bytes: u64,
}

#[derive(Serialize)]
struct Info {
    file: String,
    version: u32,
    chunks: Vec<ChunkRow>,
    counts: Vec<(String, usize)>,
    strings: usize,
    prototypes: usize,
    sections: Vec<SectionRow>,
    total_section_models: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    includes: Option<Vec<IncludeJson>>,
}

/// One include of `info --includes`.
#[derive(Serialize)]
struct IncludeJson {
    binary_path: String,
    /// The file loaded (or loaded before, for a duplicate); `None` if none was.
    file: Option<String>,
    error: Option<String>,
    duplicate: bool,
    counts: Vec<(String, usize)>,
    children: Vec<IncludeJson>,
}

impl IncludeJson {
    fn of(n: &IncludeNode, tree: &IncludeTree) -> Self {
        let module = n.module.and_then(|i| tree.modules.get(i));
        Self {
            binary_path: n.binary_path.clone(),
            file: n.file.clone(),
            error: n.error.clone(),
            duplicate: n.duplicate,
            counts: module.map(|m| counts(&m.module)).unwrap_or_default(),
            children: n.children.iter().map(|c| Self::of(c, tree)).collect(),
        }
    }

    fn print(&self, out: &mut impl Write, depth: usize) -> std::io::Result<()> {
        let pad = "  ".repeat(depth + 1);
        let what = match (&self.file, &self.error) {
            (_, Some(e)) => format!("MISSING: {e}"),
            (Some(f), None) if self.duplicate => format!("{f} (already loaded)"),
            (Some(f), None) => f.clone(),
            (None, None) => String::new(),
        };
        let counts: Vec<String> = self.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(out, "{pad}{} -> {what} [{}]", self.binary_path, counts.join(", "))?;
        self.children.iter().try_for_each(|c| c.print(out, depth + 1))
    }
}

fn counts(m: &Module) -> Vec<(String, usize)> {
    m.record_counts().iter().map(|(k, n)| (id(k), *n)).collect()
}

#[derive(Serialize)]
struct ModelJson {
    name: String,
    model_file: String,
    texture_file: String,
    location: [f32; 3],
    angles: [f32; 3],
    scale: [f32; 3],
    lights: usize,
}

#[derive(Serialize)]
struct SectionJson {
    row: u32,
    col: u32,
    format: String,
    solo: usize,
    instances: usize,
    chunks: usize,
    unique_meshes: Vec<String>,
    models: Vec<ModelJson>,
}

fn id(f: &[u8; 4]) -> String {
    String::from_utf8_lossy(f).into_owned()
}

fn load(file: &PathBuf, strict: bool) -> anyhow::Result<Module> {
    let data = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let opts = ReadOptions { strict, file: Some(file.display().to_string()) };
    Ok(Module::read(data, &opts)?)
}

/// Runs one EU7B subcommand.
pub fn run(cmd: Eu7Command) -> anyhow::Result<()> {
    match cmd {
        Eu7Command::Info { file, includes, json } => info(&file, includes, json),
        Eu7Command::Section { file, row, col, json } => section(&file, row, col, json),
        Eu7Command::Verify { file, strict, json } => verify(&file, strict, json),
        Eu7Command::Bake { scenery, out, version, pack, tree, json } => {
            bake(&scenery, &out, BakeOptions { pack, version }, tree, json)
        }
        Eu7Command::Generate { out: path, instances, seed, extent_km, models, format, bare_nodes, bare_tables } => {
            let mut out = std::io::stdout().lock();
            let cfg = GenConfig {
                seed,
                instances,
                extent_m: extent_km * 1000.0,
                format: format.0,
                bare_nodes,
                bare_tables,
                ..GenConfig::default()
            };
            let bytes = generate::scenery(&cfg)?;
            std::fs::write(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
            let dir = path.parent().map(PathBuf::from).unwrap_or_default();
            let inc = dir.join(generate::INCLUDE_FILE);
            std::fs::write(&inc, generate::include_module(&cfg)?)
                .with_context(|| format!("writing {}", inc.display()))?;
            if models {
                for (path, data) in generate::models(cfg.model_kinds).into_iter().chain(generate::textures()) {
                    let p = dir.join(&path);
                    if let Some(parent) = p.parent() {
                        std::fs::create_dir_all(parent)?;
                    }
                    std::fs::write(&p, data).with_context(|| format!("writing {}", p.display()))?;
                }
            }
            writeln!(out, "wrote {} ({} bytes, {instances} instances, seed {seed})", path.display(), bytes.len())?;
            Ok(())
        }
    }
}

fn info(file: &PathBuf, with_includes: bool, json: bool) -> anyhow::Result<()> {
    let m = load(file, false)?;
    let index = SectionIndex::new(&m)?;
    let includes = if with_includes {
        let tree = resolve_includes(&file.display().to_string(), &DiskFiles, &ReadOptions::compatible())?;
        Some(tree.includes.iter().map(|n| IncludeJson::of(n, &tree)).collect::<Vec<_>>())
    } else {
        None
    };
    let info = Info {
        file: file.display().to_string(),
        version: m.version,
        chunks: m
            .chunks
            .iter()
            .map(|c| ChunkRow { id: id(&c.id), offset: c.offset, records: c.record_count() })
            .collect(),
        counts: counts(&m),
        strings: m.strings().len(),
        prototypes: m.prototypes().len(),
        sections: index
            .entries
            .iter()
            .zip(&index.lengths)
            .map(|(e, len)| SectionRow {
                row: e.row,
                col: e.column,
                models: e.model_count,
                offset: e.pack_offset,
                bytes: *len,
            })
            .collect(),
        total_section_models: index.total_models(),
        includes,
    };
    if json {
        return print_json(&info);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}: EU7B version {}", info.file, info.version)?;
    writeln!(out, "chunks:")?;
    for c in &info.chunks {
        writeln!(out, "  {} at {:>10}  {:>8} records", c.id, c.offset, c.records)?;
    }
    writeln!(out, "counts:")?;
    for (k, n) in &info.counts {
        writeln!(out, "  {k}: {n}")?;
    }
    writeln!(out, "strings: {}, prototypes: {}", info.strings, info.prototypes)?;
    writeln!(out, "sections: {} ({} models)", info.sections.len(), info.total_section_models)?;
    for s in info.sections.iter().take(50) {
        writeln!(out, "  ({:>3}, {:>3}) {:>7} models {:>9} bytes", s.row, s.col, s.models, s.bytes)?;
    }
    if info.sections.len() > 50 {
        writeln!(out, "  ... {} more (use --json)", info.sections.len() - 50)?;
    }
    if let Some(includes) = &info.includes {
        writeln!(out, "includes:")?;
        for n in includes {
            n.print(&mut out, 0)?;
        }
    }
    Ok(())
}

fn section(file: &PathBuf, row: u32, col: u32, json: bool) -> anyhow::Result<()> {
    let m = load(file, false)?;
    let index = SectionIndex::new(&m)?;
    let i = index.find(row, col).ok_or_else(|| {
        iron3d_eu7::Error::new(iron3d_eu7::ErrorKind::SectionNotFound { row, col }).in_file(file.display().to_string())
    })?;
    let sec = index.decode(&m, i, false)?;
    let models = sec.models(m.prototypes())?;
    let s = |id| String::from_utf8_lossy(m.string(id)).into_owned();
    let view = SectionJson {
        row,
        col,
        format: format!("{:?}", sec.format),
        solo: sec.solo.len() + sec.solo_v13.len(),
        instances: sec.inst.len(),
        chunks: sec.header.chunks.len(),
        unique_meshes: sec.header.unique_meshes.iter().map(|&i| s(i)).collect(),
        models: models
            .iter()
            .map(|r| ModelJson {
                name: s(r.node.name),
                model_file: s(r.model_file),
                texture_file: s(r.texture_file),
                location: r.location,
                angles: r.angles,
                scale: r.scale,
                lights: r.light_states.len(),
            })
            .collect(),
    };
    if json {
        return print_json(&view);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "section ({row}, {col}): {} — {} solo, {} instances, {} chunks",
        view.format, view.solo, view.instances, view.chunks
    )?;
    for r in &view.models {
        writeln!(out, "  {} {:?} {}", r.model_file, r.location, r.name)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct Verified {
    file: String,
    mode: &'static str,
    version: u32,
    chunks: usize,
    sections: usize,
    section_models: usize,
}

fn verify(file: &PathBuf, strict: bool, json: bool) -> anyhow::Result<()> {
    let data = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let opts = ReadOptions { strict, file: Some(file.display().to_string()) };
    let m = Module::read(data.clone(), &opts)?;
    let index = SectionIndex::new(&m)?;
    let mut models = 0usize;
    for i in 0..index.entries.len() {
        let sec = index.decode(&m, i, strict)?;
        models += sec.models(m.prototypes())?.len();
    }
    let rewritten = m.write()?;
    ensure_identical(&rewritten, &data, &format!("{}: the lossless rewrite", file.display()))?;
    let v = Verified {
        file: file.display().to_string(),
        mode: if strict { "strict" } else { "compatible" },
        version: m.version,
        chunks: m.chunks.len(),
        sections: index.entries.len(),
        section_models: models,
    };
    if json {
        return print_json(&v);
    }
    println!(
        "{}: OK (version {}, {} chunks, {} sections, {} section models, {})",
        v.file, v.version, v.chunks, v.sections, v.section_models, v.mode
    );
    Ok(())
}

#[derive(Serialize)]
struct WarningJson {
    file: String,
    line: u32,
    token: String,
    message: String,
}

impl WarningJson {
    fn of(file: &str, w: &iron3d_eu7::bake::Warning) -> Self {
        Self { file: file.to_string(), line: w.line, token: w.token.clone(), message: w.message.clone() }
    }
}

#[derive(Serialize)]
struct Baked {
    scenery: String,
    out: String,
    version: u32,
    bytes: usize,
    counts: Vec<(String, usize)>,
    warnings: Vec<WarningJson>,
}

/// The bake of a tree: the root's, then each included file's, and the includes that name
/// no file.
#[derive(Serialize)]
struct BakedTree {
    #[serde(flatten)]
    root: Baked,
    tree: Vec<Baked>,
    missing: Vec<WarningJson>,
}

/// Writes `baked` (of the text `scenery`) to `out` as `opts` asks, reads it back strictly.
fn write_bake(scenery: &Path, baked: &iron3d_eu7::bake::Baked, out: &Path, opts: BakeOptions) -> anyhow::Result<Baked> {
    let name = scenery.display().to_string();
    let bytes = baked.write(opts).with_context(|| format!("writing the bake of {name}"))?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    let m = Module::read(bytes.clone(), &ReadOptions::strict().with_file(out.display().to_string()))?;
    Ok(Baked {
        warnings: baked.warnings.iter().map(|w| WarningJson::of(&name, w)).collect(),
        scenery: name,
        out: out.display().to_string(),
        version: m.version,
        bytes: bytes.len(),
        counts: counts(&m),
    })
}

fn bake(scenery: &Path, out: &Path, opts: BakeOptions, tree: bool, json: bool) -> anyhow::Result<()> {
    let (root, files, missing) = if tree {
        let t = iron3d_eu7::bake::tree(scenery, out)?;
        let mut files = t.files.iter();
        let root = files.next().context("the tree holds its root")?;
        let root = write_bake(&root.text, &root.baked, out, opts)?;
        let files = files
            .map(|f| write_bake(&f.text, &f.baked, &f.module, BakeOptions::default()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let missing = t.missing.iter().map(|(file, w)| WarningJson::of(&file.display().to_string(), w)).collect();
        (root, files, missing)
    } else {
        let name = scenery.display().to_string();
        let text = std::fs::read(scenery).with_context(|| format!("reading {name}"))?;
        (write_bake(scenery, &iron3d_eu7::bake::bake(&text, &name)?, out, opts)?, Vec::new(), Vec::new())
    };
    if json {
        return if tree { print_json(&BakedTree { root, tree: files, missing }) } else { print_json(&root) };
    }
    let mut err = std::io::stderr().lock();
    for w in std::iter::once(&root).chain(&files).flat_map(|b| &b.warnings).chain(&missing) {
        writeln!(err, "warning: {}:{}: {}: {}", w.file, w.line, w.token, w.message)?;
    }
    let mut o = std::io::stdout().lock();
    for b in std::iter::once(&root).chain(&files) {
        writeln!(
            o,
            "{} -> {}: version {}, {} bytes, {} warnings",
            b.scenery,
            b.out,
            b.version,
            b.bytes,
            b.warnings.len()
        )?;
        for (k, n) in &b.counts {
            writeln!(o, "  {k}: {n}")?;
        }
    }
    Ok(())
}
