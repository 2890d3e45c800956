//! The `sound` target: [`iron3d_formats::fuzzing::sound`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::sound(data));
