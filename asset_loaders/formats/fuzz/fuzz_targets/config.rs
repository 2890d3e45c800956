//! The `config` target: [`iron3d_formats::fuzzing::config`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::config(data));
