//! EU7B module: parse in both profiles, decode every PACK section, and check that a
//! module that parses writes back byte for byte.
#![no_main]

use iron3d_eu7::{Module, ReadOptions, SectionIndex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for opts in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(m) = Module::read(data.to_vec(), &opts) {
            assert_eq!(m.write().expect("write"), data);
            if let Ok(index) = SectionIndex::new(&m) {
                for i in 0..index.entries.len() {
                    let _ = index.decode(&m, i, opts.strict);
                }
            }
        }
    }
});
