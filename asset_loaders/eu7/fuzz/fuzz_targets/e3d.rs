//! The `e3d` target: [`iron3d_eu7::fuzzing::e3d`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_eu7::fuzzing::e3d(data));
