//! The `wear` target: [`iron3d_formats::fuzzing::wear`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::wear(data));
