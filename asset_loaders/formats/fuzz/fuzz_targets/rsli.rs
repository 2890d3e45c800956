//! RsLi: parse in both modes and decode every entry (errors are fine, panics are not).
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::rsli::{Rsli, RsliDocument};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(lib) = Rsli::parse(data, options) {
            for i in 0..lib.len() {
                let _ = lib.decode(i);
            }
            if let Ok(doc) = RsliDocument::from_library(&lib) {
                assert_eq!(doc.save().expect("save"), data);
            }
        }
    }
});
