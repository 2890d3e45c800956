//! The `registry` target: [`iron3d_formats::fuzzing::registry`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::registry(data));
