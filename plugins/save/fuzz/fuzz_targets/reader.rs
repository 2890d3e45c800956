//! Any bytes, read as a save and as a replay: refused with a located error or read,
//! never a panic; what is read re-encodes to a file that reads back the same.
#![no_main]

use iron3d_save::{FileKind, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for kind in [FileKind::Save, FileKind::Replay] {
        if let Ok(record) = Record::decode(data, kind) {
            let bytes = record.encode().expect("a record read encodes");
            let again = Record::decode(&bytes, kind).expect("an encoded record reads");
            assert_eq!(format!("{again:?}"), format!("{record:?}"));
        }
    }
});
