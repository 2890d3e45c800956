//! Owners mutate their own state (issue 42): every place a crate's sources take a
//! component or resource of the simulation state (what the crates declare to the state
//! registry) owned by another crate mutably (`&mut T`, `Mut<T>`, `ResMut<T>`, `get_mut::<T>`,
//! `resource_mut::<T>`) must be a writer the ownership table of ARCHITECTURE.md names for
//! `T`. The test lists every such writer it finds and fails on any the table does not
//! document (tests, inline test modules, benches and examples are not scanned).
#![allow(clippy::unwrap_used, clippy::panic, reason = "a failed unwrap is a failed test")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The simulation and presentation crates (`plugins/<name>`), with their non-test
/// sources.
fn crates() -> BTreeMap<String, Vec<(PathBuf, String)>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("plugins")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        out.insert(name, files);
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // An inline test module ends the file's own code.
            let code = text.split("\n#[cfg(test)]\nmod ").next().unwrap_or_default().to_string();
            out.push((path.clone(), code));
        }
    }
}

/// The simulation state and its owners: each type a crate declares to the state
/// registry (`save_component::<T>("crate.name", ..)`, `save_resource::<T>(..)`), owned by
/// the crate its tag names.
fn owners(crates: &BTreeMap<String, Vec<(PathBuf, String)>>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (_, text) in crates.values().flatten() {
        for call in ["save_component::<", "save_resource::<"] {
            for (at, _) in text.match_indices(call) {
                let rest = &text[at + call.len()..];
                let ty: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let tag = rest.split('"').nth(1).unwrap_or_default();
                if let Some((owner, _)) = tag.split_once('.') {
                    out.insert(ty, owner.to_string());
                }
            }
        }
    }
    out
}

/// Whether `text` takes `ty` mutably.
fn writes(text: &str, ty: &str) -> bool {
    let bounded = |at: usize| text[at..].chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
    // `&'a mut T`: a reference with a lifetime before `mut`.
    let after_lifetime = |at: usize| {
        let before = text[..at].trim_end();
        let word = before.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
        word.ends_with("&'")
    };
    let direct = ["&mut ", "ResMut<", "ResMut<'w, ", "ResMut<'_, ", "get_mut::<", "resource_mut::<", " Mut<", "<Mut<"];
    let found = |p: &str| text.match_indices(p).any(|(at, _)| bounded(at + p.len()));
    direct.iter().any(|d| found(&format!("{d}{ty}")))
        || text.match_indices(&format!("mut {ty}")).any(|(at, m)| bounded(at + m.len()) && after_lifetime(at))
}

/// The ownership table of ARCHITECTURE.md: each type named (in backticks) in a row's
/// first cell, with the row's "Written by" cell.
fn table() -> Vec<(BTreeSet<String>, String)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = text.find("## Ownership of simulation data").expect("the ownership table");
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| Data"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let types = cells.first()?.split('`').skip(1).step_by(2).map(|t| t.to_string()).collect();
            Some((types, cells.get(1)?.to_string()))
        })
        .collect()
}

#[test]
fn no_crate_writes_another_crates_state_but_where_the_ownership_table_says() {
    let crates = crates();
    let owners = owners(&crates);
    let table = table();
    assert!(table.len() > 20, "the table is read: {} rows", table.len());
    let mut writers = Vec::new();
    let mut undocumented = Vec::new();
    for (writer, files) in &crates {
        for (ty, owner) in &owners {
            if owner == writer {
                continue;
            }
            let Some((file, _)) = files.iter().find(|(_, text)| writes(text, ty)) else { continue };
            let documented =
                table.iter().any(|(types, written)| types.contains(ty.as_str()) && written.contains(writer.as_str()));
            let file = file.strip_prefix(root()).unwrap().display().to_string();
            writers.push(format!("{writer} writes {owner}'s {ty} ({file})"));
            if !documented {
                undocumented.push(format!("{writer} writes {owner}'s {ty} ({file})"));
            }
        }
    }
    eprintln!("cross-crate writers:\n  {}", writers.join("\n  "));
    for known in [
        "behavior writes combat's Radar",
        "control writes core's SimTransform",
        "net writes production's ResearchBoard",
    ] {
        assert!(writers.iter().any(|w| w.starts_with(known)), "the scan finds {known}: {writers:?}");
    }
    assert!(undocumented.is_empty(), "writers the ownership table does not name:\n  {}", undocumented.join("\n  "));
}

/// Schedule steps are named after the crate that runs in them (issue 42): a crate that
/// puts systems into a step of a phase enum (`InputPhase::Combat`, ...) is the phase's
/// own crate (`InputPhase` is `input`'s) or the crate the step is named after.
#[test]
fn every_phase_step_a_crate_runs_in_is_its_phases_or_named_after_it() {
    let phases = [
        ("InputPhase", "input"),
        ("SuperAiPhase", "superai"),
        ("ProductionPhase", "production"),
        ("BehaviorPhase", "behavior"),
        ("ControlPhase", "control"),
        ("World3dPhase", "world3d"),
    ];
    let mut misnamed = BTreeSet::new();
    let mut seen = 0;
    for (name, files) in crates() {
        if name == "core" {
            continue;
        }
        for (path, text) in &files {
            for (phase, own) in phases {
                let call = format!(".in_set({phase}::");
                for (at, _) in text.match_indices(&call) {
                    let step: String = text[at + call.len()..].chars().take_while(|c| c.is_alphanumeric()).collect();
                    seen += 1;
                    if name != own && step.to_lowercase() != name {
                        misnamed.insert(format!("{name} runs in {phase}::{step} ({})", path.display()));
                    }
                }
            }
        }
    }
    assert!(seen > 10, "the scan finds the crates' steps ({seen})");
    assert!(misnamed.is_empty(), "steps not named after the crate that runs in them:\n  {}", {
        let lines: Vec<String> = misnamed.into_iter().collect();
        lines.join("\n  ")
    });
}
