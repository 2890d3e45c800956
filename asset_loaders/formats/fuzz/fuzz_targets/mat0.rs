//! The `mat0` target: [`iron3d_formats::fuzzing::mat0`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::mat0(data));
