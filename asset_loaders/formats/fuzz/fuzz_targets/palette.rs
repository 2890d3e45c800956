//! PAL and the palette-slot rule of texture names.
#![no_main]

use iron3d_formats::model::palette::{Palette, palette_slot};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Palette::parse(data) {
        assert_eq!(p.to_bytes(), data);
    }
    if let Ok(Some(slot)) = palette_slot(data) {
        assert!(slot < 286);
    }
});
