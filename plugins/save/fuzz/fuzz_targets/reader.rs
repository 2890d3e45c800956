//! The `reader` target: [`iron3d_save::fuzzing::reader`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_save::fuzzing::reader(data));
