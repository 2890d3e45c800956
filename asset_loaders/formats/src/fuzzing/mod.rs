//! The bodies of the `cargo fuzz` targets (`fuzz/fuzz_targets/<name>.rs` calls the
//! function of the same name), so `cargo test` replays every committed input — crash
//! inputs in `fuzz/regressions/<target>/`, seeds in `fuzz/seeds/<target>/` — through
//! the very same code. Each function panics on
//! a defect: a reader panic, or a lossless save that differs from its input.

use crate::ReadOptions;
use crate::config::{BehaviorIni, BlockCfg, IniFile};
use crate::helpers::{Base, Ctld, Ctpt, Expl, Ndpr, RowLayout};
use crate::model::fxid::Effect;
use crate::model::mat0::Material;
use crate::model::mesh_build::{MeshOptions, Pose, build_mesh};
use crate::model::msh::Msh;
use crate::model::palette::{Palette, palette_slot};
use crate::model::texm::{DecodeOptions, Texm};
use crate::model::wear::Wear;
use crate::nres::{Nres, NresDocument};
use crate::registry::{BuildDat, UnitDat, objects};
use crate::rsli::{Rsli, RsliDocument};
use crate::script::{ScrPackage, VarBin, Varset};
use crate::sound::{RiffWave, SoundLoad};
use crate::world::{ArealMap, ArealQuery, LandMsh, TerrainQuery, Tma};
use std::path::Path;

/// A fuzz target: its name and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target of `fuzz/Cargo.toml`, by name.
pub const TARGETS: &[Target] = &[
    ("config", config),
    ("fxid", fxid),
    ("helpers", helpers),
    ("land_map", land_map),
    ("land_msh", land_msh),
    ("mat0", mat0),
    ("msh", msh),
    ("nres", nres),
    ("palette", palette),
    ("registry", registry),
    ("rsli", rsli),
    ("script", script),
    ("sound", sound),
    ("texm", texm),
    ("tma", tma),
    ("wear", wear),
];

const BOTH_MODES: [ReadOptions; 2] = [ReadOptions::strict(), ReadOptions::compatible()];

/// Text configuration: INI files and object-block `.cfg` files round-trip losslessly.
pub fn config(data: &[u8]) {
    let ini = IniFile::parse(data);
    assert_eq!(ini.to_bytes(), data);
    let _ = BehaviorIni::from_ini(&ini);
    if let Ok(cfg) = BlockCfg::parse(data) {
        assert_eq!(cfg.to_bytes(), data);
    }
}

/// FXID: anything that parses re-serialises identically.
pub fn fxid(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(e) = Effect::parse(data, options) {
            assert_eq!(e.to_bytes(), data);
            for c in &e.commands {
                let _ = (c.reference(), c.sound());
            }
        }
    }
}

/// Helper formats: CTPT, CTLD (both row layouts), NDPR, EXPL, BASE — each parsed
/// payload writes back byte for byte.
pub fn helpers(data: &[u8]) {
    if let Ok(c) = Ctpt::parse(data) {
        assert_eq!(c.to_bytes().ok().as_deref(), Some(data));
    }
    for layout in [RowLayout::Native36, RowLayout::Decompiled48] {
        if let Ok(c) = Ctld::parse_with(data, layout) {
            assert_eq!(c.to_bytes().ok().as_deref(), Some(data));
            let _ = (c.initial_pose(), c.typed_items(), c.effect_rows());
        }
    }
    if let Ok(n) = Ndpr::parse(data) {
        assert_eq!(n.to_bytes().ok().as_deref(), Some(data));
    }
    if let Ok(e) = Expl::parse(data) {
        assert_eq!(e.to_bytes(), data);
    }
    if let Ok(b) = Base::parse(data) {
        assert_eq!(b.to_bytes().ok().as_deref(), Some(data));
    }
}

/// `Land.map`: parse, round trip, and run areal queries on whatever parses.
pub fn land_map(data: &[u8]) {
    if let Ok(m) = ArealMap::parse(data, ReadOptions::compatible()) {
        assert_eq!(m.to_bytes().ok().as_deref(), Some(data));
        let q = ArealQuery::new(&m);
        let _ = q.area_at(1.0, 2.0);
        if let Some(r) = q.route(0, m.areals.len().saturating_sub(1)) {
            let _ = q.corridor(&r);
        }
    }
}

/// `Land.msh`: parse, round trip, and run surface queries on whatever parses.
pub fn land_msh(data: &[u8]) {
    if let Ok(t) = LandMsh::parse(data, ReadOptions::compatible()) {
        assert_eq!(t.to_bytes().ok().as_deref(), Some(data));
        let q = TerrainQuery::new(&t);
        let _ = q.height_at(1.0, 2.0);
        let _ = q.ray_cast([0.0, 0.0, 100.0], [0.3, 0.2, -1.0], 1e6);
    }
}

/// MAT0: for every version, anything that parses re-serialises identically and every
/// block selects a phase.
pub fn mat0(data: &[u8]) {
    for version in [1, 2, 3, 6] {
        if let Ok(m) = Material::parse(data, 0, version) {
            assert_eq!(m.to_bytes().ok().as_deref(), Some(data));
            for block in 0..m.anims.len() {
                if let Ok(sel) = m.select(block, 12_345, 7, &mut || 99) {
                    let _ = m.colors(block, &sel);
                }
            }
        }
    }
}

/// MSH: parse in both modes; anything that parses saves byte for byte and builds a
/// mesh in every pose.
pub fn msh(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(m) = Msh::parse(data, options) {
            assert_eq!(m.to_bytes().ok().as_deref(), Some(data));
            for pose in [Pose::Unposed, Pose::Rest, Pose::Frame(1.5)] {
                let _ = build_mesh(&m, 0, 0, pose, MeshOptions::default());
            }
        }
    }
}

/// NRes: parse in both modes, look up every name, and check that a lossless save of
/// anything that parses reproduces the input.
pub fn nres(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(archive) = Nres::parse(data, options) {
            for e in archive.entries() {
                assert!(archive.find(e.name()).is_some());
            }
            let saved = NresDocument::from_archive(&archive).save();
            assert_eq!(saved.ok().as_deref(), Some(data));
        }
    }
}

/// PAL and the palette-slot rule of texture names.
pub fn palette(data: &[u8]) {
    if let Ok(p) = Palette::parse(data) {
        assert_eq!(p.to_bytes(), data);
    }
    if let Ok(Some(slot)) = palette_slot(data) {
        assert!(slot < 286);
    }
}

/// Registry formats: unit `.dat`, `BuildDat.lst` and `ObjectRef64` payloads.
pub fn registry(data: &[u8]) {
    if let Ok(dat) = UnitDat::parse(data) {
        assert_eq!(dat.to_bytes(), data);
        let _ = dat.component_keys();
    }
    let _ = BuildDat::parse(data);
    if let Ok(refs) = objects::parse_refs(data) {
        assert_eq!(objects::write_refs(&refs), data);
    }
}

/// RsLi: parse in both modes, decode every entry (errors are fine), and check the
/// lossless save.
pub fn rsli(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(lib) = Rsli::parse(data, options) {
            for i in 0..lib.len() {
                let _ = lib.decode(i);
            }
            if let Ok(doc) = RsliDocument::from_library(&lib) {
                assert_eq!(doc.save().ok().as_deref(), Some(data));
            }
        }
    }
}

/// Scripts: `.scr` packages (strict and compatible), varset text, binary variable sets.
pub fn script(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(p) = ScrPackage::parse(data, options) {
            assert_eq!(p.to_bytes().ok().as_deref(), Some(data));
        }
    }
    if let Ok(v) = Varset::parse(data) {
        assert_eq!(v.to_bytes(), data);
    }
    if let Ok(v) = VarBin::parse(data) {
        assert_eq!(v.to_bytes().ok().as_deref(), Some(data));
    }
}

/// SWAV sounds: RIFF framing round trip and PCM / MS ADPCM decoding.
pub fn sound(data: &[u8]) {
    if let Ok(w) = RiffWave::parse(data) {
        assert_eq!(w.to_bytes(), data);
    }
    let _ = SoundLoad::from_lookup(Some(data));
}

/// Texm: anything that parses re-serialises identically and decodes every level.
pub fn texm(data: &[u8]) {
    if let Ok(t) = Texm::parse(data) {
        assert_eq!(t.to_bytes(), data);
        for level in 0..t.mips.len() {
            let _ = t.decode_level(level, DecodeOptions::default());
        }
        let _ = t.page_uvs();
    }
}

/// `data.tma`: parse in both modes; whatever parses writes back byte for byte.
pub fn tma(data: &[u8]) {
    for options in BOTH_MODES {
        if let Ok(t) = Tma::parse(data, options) {
            assert_eq!(t.to_bytes().ok().as_deref(), Some(data));
        }
    }
}

/// WEAR: strict parses re-serialise identically; compatible parses re-serialise to a
/// strictly valid table.
pub fn wear(data: &[u8]) {
    if let Ok(w) = Wear::parse(data, ReadOptions::strict()) {
        assert_eq!(w.to_bytes(), data);
    }
    if let Ok(w) = Wear::parse(data, ReadOptions::compatible()) {
        assert!(Wear::parse(&w.to_bytes(), ReadOptions::strict()).is_ok());
    }
}

/// Checks a fuzz crate: every `[[bin]]` of `fuzz_dir/Cargo.toml` is one of `targets`
/// and back, and every committed input (`fuzz_dir/{regressions,seeds}/<target>/*`)
/// runs through its target without a panic. Returns one line per failure, so a test
/// can report them all.
pub fn verify(fuzz_dir: &Path, targets: &[Target]) -> Vec<String> {
    let mut failures = Vec::new();
    let manifest = fuzz_dir.join("Cargo.toml");
    match std::fs::read_to_string(&manifest) {
        Ok(text) => {
            let bins: Vec<&str> =
                text.lines().filter_map(|l| l.strip_prefix("path = \"fuzz_targets/")?.strip_suffix(".rs\"")).collect();
            for bin in &bins {
                if !targets.iter().any(|(name, _)| name == bin) {
                    failures.push(format!("{}: target {bin} has no body in `targets`", manifest.display()));
                }
            }
            for (name, _) in targets {
                if !bins.contains(name) {
                    failures.push(format!("{}: no target {name}", manifest.display()));
                }
            }
        }
        Err(e) => failures.push(format!("{}: {e}", manifest.display())),
    }
    // A missing folder holds nothing yet.
    let corpora = ["regressions", "seeds"].map(|corpus| std::fs::read_dir(fuzz_dir.join(corpus)));
    for folder in corpora.into_iter().flatten().flatten().flatten() {
        let name = folder.file_name().to_string_lossy().into_owned();
        let Some(&(_, run)) = targets.iter().find(|(target, _)| *target == name) else {
            failures.push(format!("{}: no fuzz target of that name", folder.path().display()));
            continue;
        };
        let mut inputs: Vec<_> = std::fs::read_dir(folder.path()).into_iter().flatten().flatten().collect();
        inputs.sort_by_key(|input| input.file_name());
        for input in inputs {
            let path = input.path();
            let outcome = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|data| std::panic::catch_unwind(|| run(&data)).map_err(|_| "panicked".to_owned()));
            if let Err(why) = outcome {
                failures.push(format!("{}: {why}", path.display()));
            }
        }
    }
    failures
}

/// One seed input: target, file name, bytes.
pub type Seed = (&'static str, String, Vec<u8>);

/// Replaces the seed corpus `fuzz_dir/seeds/` with `seeds` (file names are reduced to
/// `[A-Za-z0-9._-]`); fails on a seed for a target not in `targets`.
pub fn write_seeds(fuzz_dir: &Path, targets: &[Target], seeds: Vec<Seed>) -> std::io::Result<()> {
    let root = fuzz_dir.join("seeds");
    if root.exists() {
        std::fs::remove_dir_all(&root)?;
    }
    for (target, name, bytes) in seeds {
        if !targets.iter().any(|(t, _)| *t == target) {
            return Err(std::io::Error::other(format!("seed {name} for unknown target {target}")));
        }
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        let name: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect();
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod seeds;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_targets_and_committed_inputs() {
        let failures = verify(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz"), TARGETS);
        assert!(failures.is_empty(), "fuzz crate check failed:\n{}", failures.join("\n"));
    }
}
