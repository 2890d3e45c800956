//! The `msh` target: [`iron3d_formats::fuzzing::msh`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::msh(data));
