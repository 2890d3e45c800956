//! Texm: anything that parses re-serialises identically and decodes every level.
#![no_main]

use iron3d_formats::model::texm::{DecodeOptions, Texm};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = Texm::parse(data) {
        assert_eq!(t.to_bytes(), data);
        for level in 0..t.mips.len() {
            let _ = t.decode_level(level, DecodeOptions::default());
        }
        let _ = t.page_uvs();
    }
});
