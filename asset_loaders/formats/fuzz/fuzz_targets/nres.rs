//! NRes: parse in both modes, look up every name, and check that a lossless save of
//! anything that parses reproduces the input.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::nres::{Nres, NresDocument};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(archive) = Nres::parse(data, options) {
            for e in archive.entries() {
                assert!(archive.find(e.name()).is_some());
            }
            let saved = NresDocument::from_archive(&archive).save().expect("save");
            assert_eq!(saved, data);
        }
    }
});
