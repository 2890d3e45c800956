//! The `module` target: [`iron3d_eu7::fuzzing::module`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_eu7::fuzzing::module(data));
