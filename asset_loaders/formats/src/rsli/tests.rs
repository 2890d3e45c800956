//! RsLi tests: hand-built libraries, every method, quirks, lossless save, bad input.

use super::document::encode_payload;
use super::*;
use proptest::prelude::*;

struct Row<'a> {
    name: &'a [u8],
    flags: i16,
    cell: i16,
    unpacked: u32,
    offset: u32,
    packed: u32,
}

/// Builds a library by hand: header fields, rows encrypted as one stream, then `data`.
fn library(count: i16, presorted: bool, seed: u16, rows: &[Row<'_>], data: &[u8]) -> Vec<u8> {
    let mut header = [0u8; 32];
    header[..4].copy_from_slice(b"NL\0\x01");
    header[4..6].copy_from_slice(&count.to_le_bytes());
    header[6..14].copy_from_slice(b"opaque!!");
    if presorted {
        header[0x0E..0x10].copy_from_slice(&0xABBAu16.to_le_bytes());
    }
    header[0x14..0x16].copy_from_slice(&seed.to_le_bytes());
    header[0x16..0x18].copy_from_slice(&[0x55, 0x66]); // unused high seed bits
    let mut table = Vec::new();
    for r in rows {
        let mut name = [0u8; 12];
        name[..r.name.len()].copy_from_slice(r.name);
        table.extend_from_slice(&name);
        table.extend_from_slice(b"SRVC");
        table.extend_from_slice(&r.flags.to_le_bytes());
        table.extend_from_slice(&r.cell.to_le_bytes());
        table.extend_from_slice(&r.unpacked.to_le_bytes());
        table.extend_from_slice(&r.offset.to_le_bytes());
        table.extend_from_slice(&r.packed.to_le_bytes());
    }
    cipher::XorStream::new(seed).apply_all(&mut table);
    let mut out = header.to_vec();
    out.extend(table);
    out.extend_from_slice(data);
    out
}

/// Two LZSS entries from the spec vectors, not presorted (the map is rebuilt), with a
/// 3-byte unindexed gap between the payloads.
fn lzss_fixture() -> Vec<u8> {
    let data_start = 32 + 64;
    let rows = [
        Row { name: b"SPACES", flags: 0x40, cell: 77, unpacked: 4, offset: data_start, packed: 3 },
        Row { name: b"ABC", flags: 0x40 | 0x1, cell: -5, unpacked: 3, offset: data_start + 6, packed: 4 },
    ];
    library(2, false, 0x1234, &rows, &[0x00, 0xFF, 0xF1, 0xEE, 0xEE, 0xEE, 0x07, b'A', b'B', b'C'])
}

#[test]
fn reads_hand_built_lzss_library() {
    let bytes = lzss_fixture();
    let lib = Rsli::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(lib.len(), 2);
    assert_eq!(lib.entries()[1].name(), b"ABC");
    assert_eq!(lib.entries()[1].service, *b"SRVC");
    assert_eq!(lib.entries()[1].flags, 0x41, "non-method flag bits are kept");
    assert_eq!(&*lib.decode(0).unwrap(), b"    ");
    assert_eq!(&*lib.decode(1).unwrap(), b"ABC");
    assert!(lib.map_rebuilt());
    assert_eq!(lib.map(), &[1, 0]);
    assert_eq!(lib.find(b"abc"), Some(1));
    assert_eq!(lib.find(b"spaces"), Some(0));
    assert_eq!(lib.find(b"nope"), None);
}

#[test]
fn xor_key_is_the_rebuilt_map_cell_of_the_own_row() {
    // Not presorted: stored cells (9, 9) are garbage; rebuilt map is [1, 0] because
    // "B" < "Z"... entry 0 "ZED" gets key 1, entry 1 "BEE" gets key 0.
    let plain0 = b"zed payload";
    let plain1 = b"bee";
    let p0 = encode_payload(Method::Xor, plain0, 1).unwrap();
    let p1 = encode_payload(Method::XorLzss, plain1, 0).unwrap();
    let start = 32 + 64;
    let rows = [
        Row { name: b"ZED", flags: 0x20, cell: 9, unpacked: 11, offset: start, packed: p0.len() as u32 },
        Row {
            name: b"BEE",
            flags: 0x60,
            cell: 9,
            unpacked: 3,
            offset: start + p0.len() as u32,
            packed: p1.len() as u32,
        },
    ];
    let bytes = library(2, false, 7, &rows, &[p0, p1].concat());
    let lib = Rsli::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(lib.key(0), Some(1));
    assert_eq!(&*lib.decode(0).unwrap(), plain0);
    assert_eq!(&*lib.decode(1).unwrap(), plain1);
}

#[test]
fn presorted_map_must_be_a_sorted_permutation_in_strict_mode() {
    let start = 32 + 64;
    let rows = [
        Row { name: b"A", flags: 0, cell: 1, unpacked: 1, offset: start, packed: 1 },
        Row { name: b"B", flags: 0, cell: 0, unpacked: 1, offset: start + 1, packed: 1 },
    ];
    let bytes = library(2, true, 3, &rows, b"ab");
    let err = Rsli::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::QuirkRejected { quirk: "rsli_presorted_rebuild", .. }));
    // Row 1 ("A" after "B") is the first out of order.
    assert_eq!(err.offset, Some(32 + 32 + 0x12));
    let lib = Rsli::parse(&bytes, ReadOptions::compatible()).unwrap();
    assert!(lib.map_rebuilt());
    assert_eq!(lib.map(), &[0, 1]);
    assert_eq!(lib.find(b"B"), Some(1));
}

#[test]
fn ao_trailer_shifts_offsets_only_when_the_quirk_is_on() {
    let rows = [Row { name: b"X", flags: 0, cell: 0, unpacked: 2, offset: 0, packed: 2 }];
    let mut bytes = library(1, true, 1, &rows, b"hi");
    bytes.extend_from_slice(b"AO");
    bytes.extend_from_slice(&64u32.to_le_bytes());
    let err = Rsli::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::QuirkRejected { quirk: "rsli_ao_overlay", .. }));
    let lib = Rsli::parse(&bytes, ReadOptions::compatible()).unwrap();
    assert_eq!(lib.overlay(), Some(64));
    assert_eq!(&*lib.decode(0).unwrap(), b"hi");
    let doc = RsliDocument::from_library(&lib).unwrap();
    assert_eq!(doc.save().unwrap(), bytes);
}

fn deflate_eof_fixture(name: &[u8], flags: i16) -> Vec<u8> {
    let packed = encode_payload(Method::Deflate, b"interface sprite bytes", 0).unwrap();
    let rows = [Row { name, flags, cell: 0, unpacked: 22, offset: 64, packed: packed.len() as u32 + 1 }];
    library(1, true, 1, &rows, &packed)
}

#[test]
fn deflate_eof_plus_one_only_for_the_registered_deflate_entry() {
    let bytes = deflate_eof_fixture(b"INTERF8.TEX", 0x100);
    let err = Rsli::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::QuirkRejected { quirk: "deflate_eof_plus_one", .. }));
    let lib = Rsli::parse(&bytes, ReadOptions::compatible()).unwrap();
    assert_eq!(&*lib.decode(0).unwrap(), b"interface sprite bytes");
    assert_eq!(RsliDocument::from_library(&lib).unwrap().save().unwrap(), bytes);
    for (name, flags) in [(&b"OTHER.TEX"[..], 0x100), (&b"INTERF8.TEX"[..], 0x40)] {
        let err = Rsli::parse(&deflate_eof_fixture(name, flags), ReadOptions::compatible()).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Invalid { rule: "entry_bounds", .. }), "{name:?}");
    }
}

#[test]
fn unknown_method_is_unsupported() {
    let rows = [Row { name: b"Q", flags: 0x1E0, cell: 0, unpacked: 1, offset: 64, packed: 1 }];
    let bytes = library(1, true, 1, &rows, b"q");
    assert!(matches!(Rsli::parse(&bytes, ReadOptions::strict()).unwrap_err().kind, ErrorKind::Unsupported(_)));
    let lib = Rsli::parse(&bytes, ReadOptions::compatible()).unwrap();
    let err = lib.decode(0).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unsupported(_)));
    assert_eq!(err.chain, vec![crate::error::Frame::Entry("Q".into())]);
}

#[test]
fn output_must_be_exactly_unpacked_size() {
    let packed = encode_payload(Method::Deflate, b"12345", 0).unwrap();
    for declared in [4u32, 6] {
        let rows =
            [Row { name: b"D", flags: 0x100, cell: 0, unpacked: declared, offset: 64, packed: packed.len() as u32 }];
        let lib_bytes = library(1, true, 1, &rows, &packed);
        let lib = Rsli::parse(&lib_bytes, ReadOptions::strict()).unwrap();
        assert!(matches!(lib.decode(0).unwrap_err().kind, ErrorKind::Corrupt(_)), "declared {declared}");
    }
}

#[test]
fn implausible_sizes_and_corrupt_streams_are_errors_not_allocations() {
    let rows = [Row { name: b"L", flags: 0x40, cell: 0, unpacked: u32::MAX, offset: 64, packed: 2 }];
    let bytes = library(1, true, 1, &rows, &[0xFF, 0x41]);
    let lib = Rsli::parse(&bytes, ReadOptions::strict()).unwrap();
    assert!(matches!(lib.decode(0).unwrap_err().kind, ErrorKind::Corrupt(_)));
    let rows = [Row { name: b"D", flags: 0x100, cell: 0, unpacked: 10, offset: 64, packed: 4 }];
    let bytes = library(1, true, 1, &rows, &[0xFF, 0xFF, 0xFF, 0xFF]);
    let err = Rsli::parse(&bytes, ReadOptions::strict()).unwrap().decode(0).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Corrupt(_)));
    assert_eq!(err.offset, Some(64));
}

#[test]
fn malformed_headers_and_ranges_are_errors() {
    let good = lzss_fixture();
    let patched = |at: usize, b: &[u8]| {
        let mut f = good.clone();
        f[at..at + b.len()].copy_from_slice(b);
        Rsli::parse(&f, ReadOptions::compatible()).unwrap_err().kind
    };
    assert!(matches!(patched(0, b"NX"), ErrorKind::BadMagic { .. }));
    assert!(matches!(patched(2, &[1]), ErrorKind::Invalid { rule: "reserved_byte", .. }));
    assert!(matches!(patched(3, &[2]), ErrorKind::UnsupportedVersion(2)));
    assert!(matches!(patched(4, &(-1i16).to_le_bytes()), ErrorKind::Invalid { rule: "entry_count", .. }));
    assert!(matches!(patched(4, &i16::MAX.to_le_bytes()), ErrorKind::Truncated { .. }));
    for n in 0..good.len() {
        assert!(Rsli::parse(&good[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
}

#[test]
fn lossless_save_keeps_gaps_header_and_service_bytes() {
    let bytes = lzss_fixture();
    let lib = Rsli::parse(&bytes, ReadOptions::strict()).unwrap();
    let mut doc = RsliDocument::from_library(&lib).unwrap();
    assert_eq!(doc.save().unwrap(), bytes);
    doc.set_data(0, b"a longer text than before").unwrap();
    let saved = doc.save().unwrap();
    let again = Rsli::parse(&saved, ReadOptions::strict()).unwrap();
    assert_eq!(&*again.decode(0).unwrap(), b"a longer text than before");
    assert_eq!(&*again.decode(1).unwrap(), b"ABC");
    assert_eq!(&saved[..32], &bytes[..32]);
    let gap_at = again.effective_offset(1).unwrap() - 3;
    assert_eq!(&saved[gap_at..gap_at + 3], &[0xEE; 3]);
    assert_eq!(again.entries()[1].sort_cell, -5, "stored map cells are preserved");
}

proptest! {
    #[test]
    fn writer_round_trips_every_method(
        entries in proptest::collection::vec(("[A-Z0-9_]{1,12}", 0usize..7, proptest::collection::vec(0u8..6, 0..300)), 0..8),
        seed in any::<u16>(),
    ) {
        let mut w = RsliWriter::new(seed);
        for (name, m, data) in &entries {
            w.add(NewEntry { name: name.clone().into_bytes(), method: Method::ALL[*m], data: data.clone() });
        }
        let bytes = w.to_bytes().unwrap();
        let lib = Rsli::parse(&bytes, ReadOptions::strict()).unwrap();
        for (i, (name, m, data)) in entries.iter().enumerate() {
            prop_assert_eq!(lib.entries()[i].method(), Some(Method::ALL[*m]));
            prop_assert_eq!(&*lib.decode(i).unwrap(), &data[..]);
            let found = lib.find(name.as_bytes()).unwrap();
            prop_assert_eq!(lib.entries()[found].name(), name.as_bytes());
        }
        prop_assert_eq!(RsliDocument::from_library(&lib).unwrap().save().unwrap(), bytes);
    }
}
