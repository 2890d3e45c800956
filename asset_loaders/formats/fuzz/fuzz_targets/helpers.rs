//! The `helpers` target: [`iron3d_formats::fuzzing::helpers`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::helpers(data));
