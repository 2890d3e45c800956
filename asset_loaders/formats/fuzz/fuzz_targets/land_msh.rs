//! The `land_msh` target: [`iron3d_formats::fuzzing::land_msh`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::land_msh(data));
