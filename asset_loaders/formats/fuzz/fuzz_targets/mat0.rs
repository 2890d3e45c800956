//! MAT0: for every version, anything that parses re-serialises identically and every
//! block selects a phase without panicking.
#![no_main]

use iron3d_formats::model::mat0::Material;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for version in [1, 2, 3, 6] {
        if let Ok(m) = Material::parse(data, 0, version) {
            assert_eq!(m.to_bytes().expect("save"), data);
            for block in 0..m.anims.len() {
                if let Ok(sel) = m.select(block, 12_345, 7, &mut || 99) {
                    let _ = m.colors(block, &sel);
                }
            }
        }
    }
});
