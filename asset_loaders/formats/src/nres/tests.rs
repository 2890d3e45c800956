//! NRes tests: hand-made byte fixtures, writer round trips and malformed input.

use super::*;
use crate::error::ErrorKind;
use proptest::prelude::*;

/// One directory row built by hand, field by field (independent of `DirEntry::to_bytes`).
#[expect(clippy::too_many_arguments, reason = "one argument per field of a directory row")]
fn row(type_id: &[u8; 4], a1: u32, a2: u32, size: u32, a3: u32, name: &[u8], off: u32, sort: u32) -> Vec<u8> {
    let mut r = Vec::new();
    r.extend_from_slice(type_id);
    for w in [a1, a2, size, a3] {
        r.extend_from_slice(&w.to_le_bytes());
    }
    let mut field = [0u8; 36];
    field[..name.len()].copy_from_slice(name);
    r.extend_from_slice(&field);
    r.extend_from_slice(&off.to_le_bytes());
    r.extend_from_slice(&sort.to_le_bytes());
    r
}

/// A two-entry archive: "Zeta" (5 bytes at 0x10, 3 zero pad bytes), then a non-zero
/// 8-byte unindexed region at 0x18, then "alpha" (4 bytes at 0x20, 4 pad bytes).
/// Sorted order is alpha (index 1), Zeta (index 0) -> sort_index column [1, 0].
fn fixture() -> Vec<u8> {
    let mut f = Vec::new();
    f.extend_from_slice(b"NRes");
    f.extend_from_slice(&0x100u32.to_le_bytes());
    f.extend_from_slice(&2i32.to_le_bytes());
    f.extend_from_slice(&(0x28u32 + 128).to_le_bytes());
    f.extend_from_slice(b"hello\0\0\0"); // 0x10
    f.extend_from_slice(b"UNINDEXD"); // 0x18
    f.extend_from_slice(b"abcd\0\0\0\0"); // 0x20
    f.extend(row(b"MAT0", 7, 6, 5, 0, b"Zeta", 0x10, 1));
    f.extend(row(b"Texm", 0, 0, 4, 0, b"alpha", 0x20, 0));
    assert_eq!(f.len(), 0x28 + 128);
    f
}

#[test]
fn reads_hand_made_fixture() {
    let bytes = fixture();
    let a = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(a.entries()[0].type_id, u32::from_le_bytes(*b"MAT0"));
    assert_eq!((a.entries()[0].attr1, a.entries()[0].attr2), (7, 6));
    assert_eq!(a.payload(0).unwrap(), b"hello");
    assert_eq!(a.payload(1).unwrap(), b"abcd");
    assert_eq!(a.directory_offset(), 0x28);
    assert_eq!(a.lookup_mode(), LookupMode::SortMap);
}

#[test]
fn lookup_is_case_insensitive_and_returns_original_entry() {
    let bytes = fixture();
    let a = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(a.find(b"ALPHA"), Some(1));
    assert_eq!(a.find(b"zeta"), Some(0));
    assert_eq!(a.get(b"ZeTa").unwrap().0.name(), b"Zeta");
    assert_eq!(a.find(b"beta"), None);
    assert_eq!(a.sort_position(1), Some(0));
}

#[test]
fn payloads_are_borrowed_from_input() {
    let bytes = fixture();
    let a = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
    let p = a.payload(0).unwrap();
    assert_eq!(p.as_ptr(), bytes[0x10..].as_ptr());
}

#[test]
fn untouched_document_saves_byte_identical_with_unindexed_region() {
    let bytes = fixture();
    let doc = NresDocument::from_archive(&Nres::parse(&bytes, ReadOptions::strict()).unwrap());
    assert_eq!(doc.save().unwrap(), bytes);
}

#[test]
fn editing_a_payload_recomputes_only_derived_fields() {
    let bytes = fixture();
    let mut doc = NresDocument::from_archive(&Nres::parse(&bytes, ReadOptions::strict()).unwrap());
    doc.set_payload(0, b"hello world!".to_vec()).unwrap();
    let out = doc.save().unwrap();
    let a = Nres::parse(&out, ReadOptions::strict()).unwrap();
    assert_eq!(a.payload(0).unwrap(), b"hello world!");
    assert_eq!(a.payload(1).unwrap(), b"abcd");
    // The edited payload is re-padded to 8 bytes (0x10 + 12 -> 0x20); the unindexed
    // region follows unchanged, then the untouched payload.
    assert_eq!(&out[0x1C..0x20], &[0; 4]);
    assert_eq!(&out[0x20..0x28], b"UNINDEXD");
    assert_eq!(a.entries()[1].data_offset, 0x28);
    // Attributes, names and the sort map are untouched.
    assert_eq!((a.entries()[0].attr1, a.entries()[0].attr2), (7, 6));
    assert_eq!([a.entries()[0].sort_index, a.entries()[1].sort_index], [1, 0]);
}

#[test]
fn name_tail_bytes_survive_a_save() {
    let mut bytes = fixture();
    let name_field = 0x28 + 0x14;
    bytes[name_field + 10] = 0xAB; // after "Zeta\0"
    let doc = NresDocument::from_archive(&Nres::parse(&bytes, ReadOptions::strict()).unwrap());
    assert_eq!(doc.save().unwrap(), bytes);
}

#[test]
fn canonical_repack_drops_unindexed_region_and_is_canonical() {
    let bytes = fixture();
    let doc = NresDocument::from_archive(&Nres::parse(&bytes, ReadOptions::strict()).unwrap());
    let packed = doc.canonical_repack().unwrap();
    assert_eq!(packed.len(), bytes.len() - 8);
    let a = Nres::parse(&packed, ReadOptions::strict()).unwrap();
    assert_eq!(a.entries()[1].data_offset, 0x18);
    assert!(a.entries().iter().all(|e| e.data_offset % 8 == 0));
    assert_eq!(a.payload(1).unwrap(), b"abcd");
}

#[test]
fn rename_rebuilds_sort_map() {
    let bytes = fixture();
    let mut doc = NresDocument::from_archive(&Nres::parse(&bytes, ReadOptions::strict()).unwrap());
    doc.rename(0, b"aaa").unwrap();
    let out = doc.save().unwrap();
    let a = Nres::parse(&out, ReadOptions::strict()).unwrap();
    assert_eq!([a.entries()[0].sort_index, a.entries()[1].sort_index], [0, 1]);
    assert_eq!(a.find(b"AAA"), Some(0));
}

#[test]
fn broken_sort_map_is_a_strict_error_and_a_compatible_linear_lookup() {
    let mut bytes = fixture();
    // Swap the sort column to [0, 1]: a permutation, but out of name order.
    bytes[0x28 + 0x3C] = 0;
    bytes[0x28 + 64 + 0x3C] = 1;
    let err = Nres::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::QuirkRejected { quirk: "nres_linear_lookup", .. }));
    let a = Nres::parse(&bytes, ReadOptions::compatible()).unwrap();
    assert_eq!(a.lookup_mode(), LookupMode::Linear);
    assert_eq!(a.find(b"alpha"), Some(1));
    assert_eq!(a.find(b"zeta"), Some(0));
}

#[test]
fn duplicate_names_resolve_to_first_in_directory_order() {
    let mut w = NresWriter::new();
    w.add(1, [0; 3], b"b", vec![1]).unwrap();
    w.add(1, [0; 3], b"DUP", vec![2]).unwrap();
    w.add(1, [0; 3], b"a", vec![3]).unwrap();
    w.add(1, [0; 3], b"dup", vec![4]).unwrap();
    let bytes = w.to_bytes().unwrap();
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        let a = Nres::parse(&bytes, options).unwrap();
        assert_eq!(a.find(b"Dup"), Some(1));
    }
}

#[test]
fn writer_rejects_bad_names() {
    let mut w = NresWriter::new();
    assert!(w.add(1, [0; 3], b"", vec![]).is_err());
    assert!(w.add(1, [0; 3], b"a\0b", vec![]).is_err());
    assert!(w.add(1, [0; 3], &[b'x'; 36], vec![]).is_err());
    assert!(w.add(1, [0; 3], &[b'x'; 35], vec![]).is_ok());
}

fn rule_of(bytes: &[u8]) -> &'static str {
    match Nres::parse(bytes, ReadOptions::compatible()).unwrap_err().kind {
        ErrorKind::Invalid { rule, .. } => rule,
        ErrorKind::BadMagic { .. } => "magic",
        ErrorKind::UnsupportedVersion(_) => "version",
        ErrorKind::Truncated { .. } => "truncated",
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn malformed_headers_and_entries_are_located_errors() {
    let good = fixture();
    let patch = |at: usize, bytes: &[u8]| {
        let mut f = good.clone();
        f[at..at + bytes.len()].copy_from_slice(bytes);
        f
    };
    assert_eq!(rule_of(&patch(0, b"NReZ")), "magic");
    assert_eq!(rule_of(&patch(4, &0x101u32.to_le_bytes())), "version");
    assert_eq!(rule_of(&patch(8, &(-1i32).to_le_bytes())), "entry_count");
    assert_eq!(rule_of(&patch(8, &i32::MAX.to_le_bytes())), "directory_offset");
    assert_eq!(rule_of(&patch(12, &999u32.to_le_bytes())), "total_size");
    assert_eq!(rule_of(&patch(0x28 + 0x38, &0x24u32.to_le_bytes())), "entry_bounds");
    assert_eq!(rule_of(&patch(0x28 + 0x38, &8u32.to_le_bytes())), "entry_bounds");
    assert_eq!(rule_of(&patch(0x28 + 0x0C, &u32::MAX.to_le_bytes())), "entry_bounds");
    assert_eq!(rule_of(&patch(0x28 + 64 + 0x38, &0x10u32.to_le_bytes())), "entry_overlap");
    assert_eq!(rule_of(&patch(0x28 + 0x14, &[b'x'; 36])), "name_nul");
    assert_eq!(rule_of(&patch(0x28 + 0x14, &[0])), "name_empty");
    let err = Nres::parse(&patch(0x28 + 64 + 0x38, &0x25u32.to_le_bytes()), ReadOptions::strict()).unwrap_err();
    assert_eq!(err.offset, Some(0x28 + 64 + 0x38));
}

#[test]
fn every_truncation_is_an_error() {
    let good = fixture();
    for n in 0..good.len() {
        assert!(Nres::parse(&good[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
}

fn arb_entries() -> impl Strategy<Value = Vec<(u32, [u32; 3], Vec<u8>, Vec<u8>)>> {
    proptest::collection::vec(
        (any::<u32>(), any::<[u32; 3]>(), "[A-Za-z0-9_.]{1,35}", proptest::collection::vec(any::<u8>(), 0..40)),
        0..12,
    )
    .prop_map(|v| v.into_iter().map(|(t, a, n, p)| (t, a, n.into_bytes(), p)).collect())
}

proptest! {
    #[test]
    fn writer_output_round_trips(entries in arb_entries(), edit in any::<proptest::sample::Index>(), new in proptest::collection::vec(any::<u8>(), 0..30)) {
        let mut w = NresWriter::new();
        for (t, a, n, p) in &entries {
            w.add(*t, *a, n, p.clone()).unwrap();
        }
        let bytes = w.to_bytes().unwrap();
        let a = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        for (i, (_, _, n, p)) in entries.iter().enumerate() {
            prop_assert_eq!(a.payload(i).unwrap(), &p[..]);
            let found = a.find(n).unwrap();
            prop_assert!(crate::bytes::eq_ci(a.entries()[found].name(), n));
        }
        let mut doc = NresDocument::from_archive(&a);
        prop_assert_eq!(&doc.save().unwrap(), &bytes);
        prop_assert_eq!(&doc.canonical_repack().unwrap(), &bytes);
        if !entries.is_empty() {
            let i = edit.index(entries.len());
            doc.set_payload(i, new.clone()).unwrap();
            let saved = doc.save().unwrap();
            let b = Nres::parse(&saved, ReadOptions::strict()).unwrap();
            prop_assert_eq!(b.payload(i).unwrap(), &new[..]);
            // A canonical archive stays canonical after an edit (padding re-derived).
            prop_assert_eq!(&saved, &doc.canonical_repack().unwrap());
        }
    }
}
