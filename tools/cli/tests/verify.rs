//! `iron3d-cli verify` end to end: every check passes on the generated demo and on its
//! original-like copy; on a copy damaged one way, the check that owns the damage fails and
//! its failure names the damaged file. The demo is generated once per test binary and
//! written to a scratch directory per test.
#![allow(clippy::unwrap_used, reason = "test helpers: a failed unwrap is a failed test")]

use iron3d_demo::DemoTree;
use iron3d_formats::ReadOptions;
use iron3d_formats::nres::{Nres, NresWriter};
use iron3d_formats::world::Tma;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The checks, in the order `verify` runs them.
const CHECKS: [&str; 10] = [
    "archives",
    "textures",
    "missions",
    "objects",
    "scripts",
    "research",
    "clans",
    "profiles",
    "controls",
    "interface",
];

fn demo() -> &'static DemoTree {
    static DEMO: OnceLock<DemoTree> = OnceLock::new();
    DEMO.get_or_init(|| iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap())
}

/// A tree written to a fresh scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str, tree: &DemoTree) -> Self {
        let root = std::env::temp_dir().join(format!("iron3d-verify-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        tree.write_to(&root).unwrap();
        Self(root)
    }

    fn file(&self, path: &str) -> PathBuf {
        self.0.join(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d-cli")).args(args).output().unwrap()
}

/// `verify --json` on `root`: the exit status and the report.
fn verify(root: &Path) -> (Option<i32>, Value) {
    let o = run(&["verify", root.to_str().unwrap(), "--json"]);
    let report = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    });
    (o.status.code(), report)
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{name}: {report}"))
}

/// Every check of the report passed, with something counted.
fn assert_all_pass(code: Option<i32>, report: &Value) {
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["passed"], true);
    let names: Vec<&str> = report["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, CHECKS);
    for name in CHECKS {
        let c = check(report, name);
        assert_eq!((&c["passed"], c["failures"].as_array().map(Vec::len)), (&Value::Bool(true), Some(0)), "{c}");
        assert!(c["count"].as_u64().unwrap() > 0, "{c}");
    }
}

/// Damages a copy of the demo, verifies it: exit status 1, check `failing` failed, and
/// every one of its failures names `file` (case-insensitively); `intact` checks still
/// pass. Returns the failing check's errors.
fn damaged(tag: &str, damage: impl FnOnce(&Scratch), failing: &str, file: &str, intact: &[&str]) -> Vec<String> {
    let tree = Scratch::new(tag, demo());
    damage(&tree);
    let (code, report) = verify(&tree.0);
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(report["passed"], false);
    let c = check(&report, failing);
    assert_eq!(c["passed"], false, "{report:#}");
    let failures = c["failures"].as_array().unwrap();
    assert!(!failures.is_empty());
    for f in failures {
        assert!(f["file"].as_str().unwrap().eq_ignore_ascii_case(file), "{failing} names {file}: {f}");
    }
    for name in intact {
        assert_eq!(check(&report, name)["passed"], true, "{name} is untouched by the damage: {report:#}");
    }
    failures.iter().map(|f| f["error"].as_str().unwrap().to_string()).collect()
}

/// Rewrites an NRes archive entry by entry: `edit` returns the new payload, or `None`
/// to drop the entry.
fn rewrite_nres(path: &Path, edit: impl Fn(&str, &[u8]) -> Option<Vec<u8>>) {
    let bytes = std::fs::read(path).unwrap();
    let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
    let mut out = NresWriter::new();
    for (i, e) in nres.entries().iter().enumerate() {
        if let Some(payload) = edit(&e.display_name(), nres.payload(i).unwrap()) {
            out.add(e.type_id, [e.attr1, e.attr2, e.attr3], e.display_name().as_bytes(), payload).unwrap();
        }
    }
    std::fs::write(path, out.to_bytes().unwrap()).unwrap();
}

fn rewrite_tma(path: &Path, edit: impl FnOnce(&mut Tma)) {
    let mut tma = Tma::parse(&std::fs::read(path).unwrap(), ReadOptions::strict()).unwrap();
    edit(&mut tma);
    std::fs::write(path, tma.to_bytes().unwrap()).unwrap();
}

fn truncate(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    std::fs::write(path, &bytes[..bytes.len() / 2]).unwrap();
}

const SINGLE: &str = "MISSIONS/single.01/data.tma";

#[test]
fn verify_passes_on_the_demo_and_on_an_original_like_tree() {
    let plain = Scratch::new("demo", demo());
    let (code, report) = verify(&plain.0);
    assert_all_pass(code, &report);
    assert_eq!(check(&report, "missions")["count"], 6, "campaign, single and tutorial missions");
    assert_eq!(check(&report, "clans")["count"], 24, "four clans in each mission");
    assert!(report["layers"].as_array().unwrap().iter().any(|l| l["name"] == "game"), "{}", report["layers"]);
    let table = run(&["verify", plain.0.to_str().unwrap()]);
    assert!(table.status.success());
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.lines().count() == CHECKS.len() && text.contains("PASS  archives  25 archives parse and round-trip"),
        "{text}"
    );

    let original_like = Scratch::new("original-like", &iron3d_demo::original_like::rewrite(demo()).unwrap());
    assert!(original_like.file("UNITS/ROBOTS/W_M_TNK1.DAT").exists(), "the schemes are renamed");
    let (code, renamed) = verify(&original_like.0);
    assert_all_pass(code, &renamed);
    for name in CHECKS {
        assert_eq!(check(&renamed, name)["count"], check(&report, name)["count"], "{name}: the same data, renamed");
    }
}

#[test]
fn verify_is_documented() {
    let help = run(&["verify", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success() && text.contains("Usage: iron3d-cli verify"), "{text}");
    for word in CHECKS.iter().chain(&["--json", "--mod", "the bug report"]) {
        assert!(text.contains(word), "--help names {word}: {text}");
    }
    assert_eq!(run(&["verify"]).status.code(), Some(2), "no game directory");
    assert_eq!(run(&["verify", "/no/such/game"]).status.code(), Some(1));
}

#[test]
fn a_truncated_archive_fails_archives() {
    let errors =
        damaged("truncated-archive", |t| truncate(&t.file("bases.rlb")), "archives", "bases.rlb", &["missions"]);
    assert!(errors[0].contains("bases.rlb"), "{errors:?}");
}

#[test]
fn a_corrupt_texture_entry_fails_textures() {
    let lib = Nres::parse(demo().get("Textures.lib").unwrap(), ReadOptions::strict()).unwrap();
    let first = lib.entries()[0].display_name();
    let corrupt = |t: &Scratch| {
        rewrite_nres(&t.file("Textures.lib"), |name, payload| {
            let mut p = payload.to_vec();
            if name == first {
                p[28..32].copy_from_slice(&0xDEADu32.to_le_bytes()); // the pixel format word
            }
            Some(p)
        });
    };
    let errors = damaged("texture", corrupt, "textures", "Textures.lib", &["archives", "missions", "objects"]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains(&format!("entry {first}")), "{errors:?}");
}

#[test]
fn a_truncated_mission_file_fails_missions() {
    let errors = damaged("truncated-tma", |t| truncate(&t.file(SINGLE)), "missions", SINGLE, &["archives"]);
    assert!(errors[0].starts_with("mission single.01: "), "{errors:?}");
}

#[test]
fn a_deleted_map_fails_missions() {
    let map = "DATA/MAPS/Tut_1/land.map";
    let errors = damaged("no-map", |t| std::fs::remove_file(t.file(map)).unwrap(), "missions", map, &["objects"]);
    assert!(errors.iter().any(|e| e.starts_with("mission tutorial.01: ")), "{errors:?}");
}

#[test]
fn a_model_missing_from_its_archive_fails_objects() {
    let drop =
        |t: &Scratch| rewrite_nres(&t.file("static.rlb"), |name, p| (name != "s_rock_0_01.msh").then(|| p.to_vec()));
    let errors = damaged("no-model", drop, "objects", "static.rlb", &["archives", "missions"]);
    assert!(errors.iter().all(|e| e.contains("s_rock_0_01.msh")), "{errors:?}");
}

#[test]
fn a_prototype_missing_from_the_registry_fails_objects() {
    let drop = |t: &Scratch| rewrite_nres(&t.file("objects.rlb"), |name, p| (name != "s_rock_01").then(|| p.to_vec()));
    let errors = damaged("no-prototype", drop, "objects", "objects.rlb", &["archives", "missions"]);
    assert!(errors.iter().all(|e| e.contains("prototype s_rock_01")), "{errors:?}");
}

#[test]
fn a_cut_round_explosion_fails_objects() {
    let cut = |name: &str, p: &[u8]| Some(if name == "rd_cannon.exp" { p[..700].to_vec() } else { p.to_vec() });
    let errors =
        damaged("cut-exp", |t| rewrite_nres(&t.file("weapon.rlb"), cut), "objects", "weapon.rlb", &["missions"]);
    assert!(errors.iter().all(|e| e.contains("rd_cannon.exp") && e.contains("round rd_cannon")), "{errors:?}");
}

#[test]
fn a_corrupt_script_package_fails_scripts() {
    let scr = "MISSIONS/SCRIPTS/default.scr";
    let errors = damaged("scr", |t| truncate(&t.file(scr)), "scripts", scr, &["research", "clans"]);
    assert!(errors[0].starts_with("clan "), "the clan naming it: {errors:?}");
}

#[test]
fn a_corrupt_research_tree_fails_research() {
    let trf = "MISSIONS/SCRIPTS/default.trf";
    damaged("trf", |t| truncate(&t.file(trf)), "research", trf, &["scripts", "clans"]);
}

#[test]
fn a_damaged_or_missing_behaviour_profile_fails_profiles() {
    let res = "behpsp.res";
    let half =
        |name: &str, p: &[u8]| Some(if name == "prof_mine.var" { p[..p.len() / 2].to_vec() } else { p.to_vec() });
    let errors = damaged("profile", |t| rewrite_nres(&t.file(res), half), "profiles", res, &["archives", "clans"]);
    assert!(errors[0].contains("prof_mine.var"), "the member: {errors:?}");
    let errors = damaged("no-profiles", |t| std::fs::remove_file(t.file(res)).unwrap(), "profiles", res, &["clans"]);
    assert!(errors[0].contains("not found"), "{errors:?}");
}

#[test]
fn a_binding_or_row_naming_what_the_engine_does_not_know_fails_controls() {
    let edit = |path: PathBuf, from: &str, to: &str| {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    };
    let man = "addition.man";
    let damage = |t: &Scratch| edit(t.file(man), "CMD_PAGER SCAN_NULL SCAN_F2", "CMD_PAGER SCAN_NULL SCAN_F13");
    let errors = damaged("man-key", damage, "controls", man, &["profiles"]);
    assert!(errors.len() == 1 && errors[0].ends_with("the engine knows no key `SCAN_F13`"), "{errors:?}");
    let damage = |t: &Scratch| edit(t.file("Command.dsc"), "CMD_PAGER\tPager\r\n", "");
    let errors = damaged("dsc-command", damage, "controls", man, &[]);
    assert!(errors.len() == 1 && errors[0].ends_with("`CMD_PAGER` is not in Command.dsc"), "{errors:?}");
    let tbl = "m2.tbl";
    let damage = |t: &Scratch| edit(t.file(tbl), "MCMD_UP 1.0", "MCMD_UP 1.0 7");
    let errors = damaged("tbl-fields", damage, "controls", tbl, &[]);
    assert!(errors[0].contains("12 fields, a row has 11"), "{errors:?}");
    let errors = damaged("no-tbl", |t| std::fs::remove_file(t.file(tbl)).unwrap(), "controls", tbl, &["profiles"]);
    assert!(errors[0].contains("the original ships it"), "{errors:?}");
}

#[test]
fn a_page_that_is_not_there_or_a_sprite_off_its_page_fails_interface() {
    let edit = |path: PathBuf, from: &str, to: &str| {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    };
    let resources = "ui/game_resources.cfg";
    let damage = |t: &Scratch| edit(t.file(resources), "page9 = 4", "page9 = 9");
    let errors = damaged("ui-page", damage, "interface", "ui/ui.lib", &["controls", "archives"]);
    assert!(
        errors.len() == 1 && errors[0].contains("entry 9 (page page9)") && errors[0].contains("has 5 entries"),
        "{errors:?}"
    );
    let damage = |t: &Scratch| edit(t.file("ui/hq.cfg"), "OFFSET_Y = 82", "OFFSET_Y = 200");
    let errors = damaged("ui-sprite", damage, "interface", resources, &["controls"]);
    assert!(
        errors.len() == 1
            && errors[0].contains("sprite targeter_back: (0, 200) 150 × 174 is not inside page ui_menu3 (256 × 256)"),
        "{errors:?}"
    );
    let damage = |t: &Scratch| std::fs::remove_file(t.file("ui/compaund.cfg")).unwrap();
    let errors = damaged("ui-no-skin", damage, "interface", "ui/compaund.cfg", &["controls"]);
    assert!(errors[0].contains("ui/compaund.cfg"), "{errors:?}");
}

#[test]
fn a_relation_naming_a_missing_clan_fails_clans() {
    let damage = |t: &Scratch| rewrite_tma(&t.file(SINGLE), |tma| tma.clans[1].relations[0].0 = "Nobody".into());
    let errors = damaged("relation-name", damage, "clans", SINGLE, &["missions", "objects"]);
    assert!(errors[0].contains("`Nobody`, which is no clan of the mission"), "{errors:?}");
}

#[test]
fn a_relation_word_out_of_range_fails_clans() {
    let damage = |t: &Scratch| rewrite_tma(&t.file(SINGLE), |tma| tma.clans[2].relations[0].1 = 3);
    let errors = damaged("relation-word", damage, "clans", SINGLE, &["missions", "objects"]);
    assert!(errors[0].contains("has the word 3"), "{errors:?}");
}

#[test]
fn an_object_of_a_missing_clan_fails_clans() {
    let damage = |t: &Scratch| rewrite_tma(&t.file(SINGLE), |tma| tma.objects[0].raw_after_resource = 4);
    let errors = damaged("object-clan", damage, "clans", SINGLE, &["missions"]);
    assert!(errors.iter().any(|e| e.contains("placed object 0") && e.contains("clan index 4")), "{errors:?}");
}

#[test]
fn a_mod_is_verified_over_the_game() {
    let game = Scratch::new("mod-game", demo());
    let m = std::env::temp_dir().join(format!("iron3d-verify-mod-{}/broken", std::process::id()));
    std::fs::create_dir_all(m.join("missions/scripts")).unwrap();
    let trf = m.join("missions/scripts/DEFAULT.TRF");
    std::fs::copy(game.file("MISSIONS/SCRIPTS/default.trf"), &trf).unwrap();
    truncate(&trf);
    let o = run(&["verify", game.0.to_str().unwrap(), "--json", "--mod", m.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let failures = check(&report, "research")["failures"].as_array().unwrap().clone();
    assert_eq!(failures.len(), 1, "{report:#}");
    assert_eq!(
        (&failures[0]["file"], &failures[0]["layer"]),
        (&"missions/scripts/DEFAULT.TRF".into(), &"mod:broken".into())
    );
    let layers: Vec<&str> = report["layers"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(layers.last(), Some(&"mod:broken"));
    let _ = std::fs::remove_dir_all(m.parent().unwrap());
    let (code, alone) = verify(&game.0);
    assert_all_pass(code, &alone);
}
