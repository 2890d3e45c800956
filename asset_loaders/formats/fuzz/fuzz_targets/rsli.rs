//! The `rsli` target: [`iron3d_formats::fuzzing::rsli`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_formats::fuzzing::rsli(data));
