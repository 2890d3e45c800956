//! The `script` target: [`iron3d_formats::fuzzing::script`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::script(data));
