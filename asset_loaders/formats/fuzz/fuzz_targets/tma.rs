//! The `tma` target: [`iron3d_formats::fuzzing::tma`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::tma(data));
