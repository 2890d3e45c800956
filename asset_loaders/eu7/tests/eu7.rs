//! Integration tests of `iron3d_eu7` (one test binary; submodules under `tests/eu7/`).

#[path = "eu7/bad_input.rs"]
mod bad_input;
#[path = "eu7/bytes.rs"]
mod bytes;
#[path = "eu7/canonical.rs"]
mod canonical;
#[path = "eu7/e3d.rs"]
mod e3d;
#[path = "eu7/golden_chunks.rs"]
mod golden_chunks;
#[path = "eu7/golden_pack.rs"]
mod golden_pack;
#[path = "eu7/include.rs"]
mod include;
#[path = "eu7/located.rs"]
mod located;
#[path = "eu7/roundtrip.rs"]
mod roundtrip;
