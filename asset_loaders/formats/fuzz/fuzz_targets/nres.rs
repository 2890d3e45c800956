//! The `nres` target: [`iron3d_formats::fuzzing::nres`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::nres(data));
