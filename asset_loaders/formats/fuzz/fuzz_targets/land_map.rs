//! The `land_map` target: [`iron3d_formats::fuzzing::land_map`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::land_map(data));
