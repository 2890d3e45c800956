//! One PACK section decoded from arbitrary bytes (the on-demand decoder).
#![no_main]

use iron3d_eu7::Section;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&count, bytes)) = data.split_first() {
        for strict in [true, false] {
            let _ = Section::decode(bytes, 0, u32::from(count), strict);
        }
    }
});
