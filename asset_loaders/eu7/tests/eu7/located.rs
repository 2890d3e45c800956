//! Located errors: every message names the file, the chunk or PACK section (row and
//! column), the record, the absolute byte offset and the rule.

use crate::bytes::{B, header, strs};
use iron3d_eu7::{Module, ReadOptions, SectionIndex};

/// A version-9 module whose one section (PIDX row 3, column 4; format 1) holds a single
/// instance of prototype 7 while PROT has 2 entries. Returns the bytes and the absolute
/// offset of the instance record.
fn bad_prototype_module() -> (Vec<u8>, usize) {
    let proto = || {
        B::new()
            .u8(0x08)
            .v3(0.0, 0.0, 0.0)
            .f32(3.0)
            .u8(0)
            .u8(1)
            .u32(0)
            .none()
            .u32(0)
            .u32(0)
            .none()
            .u8(2)
            .u32(0)
            .f32(0.0)
            .f32(-1.0)
    };
    let prot = B::new().u32(2).raw(&proto().0).raw(&proto().0);
    let inst = B::new().u32(7).v3(300.0, 0.0, 900.0).v3(0.0, 0.0, 0.0).v3(1.0, 1.0, 1.0).none();
    let section = B::new().u8(1).u32(0).u32(1).raw(&inst.0);
    let pidx = B::new().u32(1).u16(3).u16(4).u32(1).u64(0);
    let bytes = header(9)
        .chunk(b"STRS", strs(&["tree.e3d"]))
        .chunk(b"PIDX", pidx)
        .chunk(b"PROT", prot)
        .chunk(b"PACK", section)
        .0;
    let pack_payload = bytes.windows(4).rposition(|w| w == b"PACK").expect("PACK chunk") + 8;
    (bytes, pack_payload + 9)
}

#[test]
fn out_of_range_prototype_names_file_section_record_offset_and_rule() {
    let (bytes, record_at) = bad_prototype_module();
    let m = Module::read(bytes, &ReadOptions::compatible().with_file("scenery/bad.eu7")).expect("module loads");
    let index = SectionIndex::new(&m).expect("index builds");
    let want = format!(
        "file scenery/bad.eu7 -> chunk PACK -> section row 3 column 4 -> instance record 0 -> \
         at offset {record_at:#x}: prototype_range: prototype id 7 out of range (PROT has 2)"
    );
    let decoded = index.decode(&m, 0, true).expect("section decodes");
    assert_eq!(decoded.models(m.prototypes()).expect_err("expansion fails").to_string(), want);
    assert_eq!(index.models(&m, 3, 4, true).expect_err("expansion fails").to_string(), want);
}

#[test]
fn chunk_level_count_names_file_chunk_and_offset() {
    let bytes = header(6).chunk(b"MODL", B::new().u32(9)).0;
    let e = Module::read(bytes, &ReadOptions::compatible().with_file("x.eu7")).expect_err("lying count");
    assert_eq!(
        e.to_string(),
        "file x.eu7 -> chunk MODL -> at offset 0x10: count_bounds: \
         count 9 of 55-byte elements exceeds the 0 remaining bytes"
    );
}

#[test]
fn chunk_record_error_names_the_record() {
    // Two MODL records; the second claims 4096 light states.
    let rec = |lights: u32| {
        B::new()
            .u8(0x09)
            .u32(0)
            .v3(0.0, 0.0, 0.0)
            .f32(1.0)
            .u8(0)
            .u8(1)
            .v3(1.0, 2.0, 3.0)
            .v3(0.0, 0.0, 0.0)
            .v3(1.0, 1.0, 1.0)
            .u32(0)
            .none()
            .u32(lights)
            .f32(1.0)
            .u32(0)
    };
    let first = rec(1);
    let bytes = header(6).chunk(b"MODL", B::new().u32(2).raw(&first.0).raw(&rec(4096).0)).0;
    let lights_at = 8 + 8 + 4 + first.len() + first.len() - 12;
    let e = Module::read(bytes, &ReadOptions::strict().with_file("y.eu7")).expect_err("lying light count");
    assert_eq!(
        e.to_string(),
        format!(
            "file y.eu7 -> chunk MODL -> record 1 -> at offset {lights_at:#x}: count_bounds: \
             count 4096 of 4-byte elements exceeds the 8 remaining bytes"
        )
    );
}

#[test]
fn section_decoding_error_names_the_section_and_record() {
    let (mut bytes, record_at) = bad_prototype_module();
    // Cut the instance record short: PACK keeps 9 header bytes and 20 record bytes.
    let cut = record_at + 20;
    bytes.truncate(cut);
    let pack_chunk = bytes.windows(4).rposition(|w| w == b"PACK").expect("PACK chunk");
    let size = (cut - pack_chunk) as u32;
    bytes[pack_chunk + 4..pack_chunk + 8].copy_from_slice(&size.to_le_bytes());
    let m = Module::read(bytes, &ReadOptions::compatible().with_file("cut.eu7")).expect("module loads");
    let index = SectionIndex::new(&m).expect("index builds");
    let e = index.decode(&m, 0, false).expect_err("cut record");
    assert_eq!(
        e.to_string(),
        format!(
            "file cut.eu7 -> chunk PACK -> section row 3 column 4 -> at offset {record_at:#x}: \
             count_bounds: count 1 of 44-byte elements exceeds the 20 remaining bytes"
        )
    );
}
