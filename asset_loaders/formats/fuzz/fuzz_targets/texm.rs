//! The `texm` target: [`iron3d_formats::fuzzing::texm`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::texm(data));
