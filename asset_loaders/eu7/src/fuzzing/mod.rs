//! The bodies of the `cargo fuzz` targets (`fuzz/fuzz_targets/<name>.rs` calls the
//! function of the same name), so `cargo test` replays every committed input — crash
//! inputs in `fuzz/regressions/<target>/`, seeds in `fuzz/seeds/<target>/` — through
//! the very same code.

use crate::{Module, ReadOptions, Section, SectionIndex};

/// A fuzz target: its name and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target of `fuzz/Cargo.toml`, by name.
pub const TARGETS: &[Target] = &[("e3d", e3d), ("module", module), ("section", section)];

/// E3D models from arbitrary bytes.
pub fn e3d(data: &[u8]) {
    let _ = crate::e3d::E3dModel::read(data, Some("fuzz.e3d"));
}

/// EU7B module: parse in both profiles, decode every PACK section, and check that a
/// module that parses writes back byte for byte.
pub fn module(data: &[u8]) {
    for opts in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(m) = Module::read(data.to_vec(), &opts) {
            assert_eq!(m.write().ok().as_deref(), Some(data));
            if let Ok(index) = SectionIndex::new(&m) {
                for i in 0..index.entries.len() {
                    let _ = index.decode(&m, i, opts.strict);
                }
            }
        }
    }
}

/// One PACK section decoded from arbitrary bytes (the on-demand decoder); the first
/// byte is the record count.
pub fn section(data: &[u8]) {
    if let Some((&count, bytes)) = data.split_first() {
        for strict in [true, false] {
            let _ = Section::decode(bytes, 0, u32::from(count), strict);
        }
    }
}

#[cfg(test)]
mod seeds;

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn fuzz_targets_and_committed_inputs() {
        let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
        let failures = iron3d_formats::fuzzing::verify(&fuzz, super::TARGETS);
        assert!(failures.is_empty(), "fuzz crate check failed:\n{}", failures.join("\n"));
    }
}
