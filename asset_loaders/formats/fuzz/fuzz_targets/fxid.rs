//! The `fxid` target: [`iron3d_formats::fuzzing::fxid`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::fxid(data));
