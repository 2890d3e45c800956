//! The body of the `gmsg` fuzz target (`fuzz/fuzz_targets/gmsg.rs`), so `cargo test`
//! replays every committed input (`fuzz/regressions/gmsg/`, `fuzz/seeds/gmsg/`)
//! through the same code: decoding never panics, and a sequence that decodes encodes
//! back to the same bytes.

use crate::schema;
use iron3d_formats::fuzzing::Target;

/// The targets of `fuzz/Cargo.toml`.
pub const TARGETS: &[Target] = &[("gmsg", gmsg)];

/// The message decoder: total and lossless.
pub fn gmsg(data: &[u8]) {
    if let Ok(messages) = schema::decode(data) {
        assert_eq!(schema::encode(&messages).as_deref(), Ok(data));
    }
}
