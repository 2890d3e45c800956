//! The body of the `reader` fuzz target (`fuzz/fuzz_targets/reader.rs`), so `cargo test`
//! replays every committed input (`fuzz/regressions/reader/`, `fuzz/seeds/reader/`)
//! through the same code: any bytes are read as a save and as a replay, refused or
//! read, never a panic; what is read encodes to a file that reads back the same.

use crate::{FileKind, Record};
use iron3d_formats::fuzzing::Target;

/// The targets of `fuzz/Cargo.toml`.
pub const TARGETS: &[Target] = &[("reader", reader)];

/// The save and replay reader: total, and what it reads round-trips.
pub fn reader(data: &[u8]) {
    for kind in [FileKind::Save, FileKind::Replay] {
        if let Ok(record) = Record::decode(data, kind) {
            let bytes = record.encode().expect("a record read encodes");
            let again = Record::decode(&bytes, kind).expect("an encoded record reads");
            // Compared as text: a NaN in an order is not equal to itself.
            assert_eq!(format!("{again:?}"), format!("{record:?}"));
        }
    }
}
