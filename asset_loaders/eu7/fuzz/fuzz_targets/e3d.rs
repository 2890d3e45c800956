//! E3D models from arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = iron3d_eu7::e3d::E3dModel::read(data, Some("fuzz.e3d"));
});
