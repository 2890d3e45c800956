//! FXID: anything that parses re-serialises identically.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::model::fxid::Effect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(e) = Effect::parse(data, options) {
            assert_eq!(e.to_bytes(), data);
            for c in &e.commands {
                let _ = (c.reference(), c.sound());
            }
        }
    }
});
