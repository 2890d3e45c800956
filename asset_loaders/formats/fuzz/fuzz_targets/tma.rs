//! `data.tma`: parse in both modes; whatever parses writes back byte for byte.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::world::Tma;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(t) = Tma::parse(data, options) {
            assert_eq!(t.to_bytes().ok().as_deref(), Some(data));
        }
    }
});
