//! Registry formats: unit `.dat`, `BuildDat.lst` and `ObjectRef64` payloads.
#![no_main]

use iron3d_formats::registry::{BuildDat, UnitDat, objects};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(dat) = UnitDat::parse(data) {
        assert_eq!(dat.to_bytes(), data);
        let _ = dat.component_keys();
    }
    let _ = BuildDat::parse(data);
    if let Ok(refs) = objects::parse_refs(data) {
        assert_eq!(objects::write_refs(&refs), data);
    }
});
