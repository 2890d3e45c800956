//! The `palette` target: [`iron3d_formats::fuzzing::palette`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::palette(data));
