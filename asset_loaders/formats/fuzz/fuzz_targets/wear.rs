//! WEAR: strict parses re-serialise identically; compatible parses re-serialise to a
//! strictly valid table.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::model::wear::Wear;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(w) = Wear::parse(data, ReadOptions::strict()) {
        assert_eq!(w.to_bytes(), data);
    }
    if let Ok(w) = Wear::parse(data, ReadOptions::compatible()) {
        assert!(Wear::parse(&w.to_bytes(), ReadOptions::strict()).is_ok());
    }
});
