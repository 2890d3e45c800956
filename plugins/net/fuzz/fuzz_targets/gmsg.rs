//! The `gmsg` target: [`iron3d_net::fuzzing::gmsg`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iron3d_net::fuzzing::gmsg(data));
