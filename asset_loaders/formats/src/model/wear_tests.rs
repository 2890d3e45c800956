//! WEAR tests: hand-written texts, the blank-separator quirk, fallbacks.

use super::*;
use crate::nres::NresWriter;
use proptest::prelude::*;

const RETAIL_LIKE: &[u8] = b"2\r\n0 BODY_1\r\n1 \xc1\xd0\xce\xcd\xdf\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_BASE\r\n";

#[test]
fn parses_rows_by_position_and_round_trips() {
    let w = Wear::parse(RETAIL_LIKE, ReadOptions::strict()).unwrap();
    assert_eq!(w.rows.len(), 2);
    assert_eq!(w.material(0), Some(&b"BODY_1"[..]));
    assert_eq!(display_name(w.material(1).unwrap()), "БРОНЯ");
    assert_eq!(w.lightmap(0), Some(&b"LM_BASE"[..]));
    assert_eq!(w.to_bytes(), RETAIL_LIKE);
    // LF-only and trailing blank/NUL lines survive too; legacy ids are kept, not keys
    let lf = b"1\n7 A b\n\n\0";
    let w = Wear::parse(lf, ReadOptions::strict()).unwrap();
    assert_eq!(w.rows[0].row(), Some((7, &b"A b"[..])));
    assert_eq!(w.to_bytes(), lf);
}

#[test]
fn missing_blank_before_lightmaps_is_a_quirk() {
    let text = b"1\r\n0 A\r\nLIGHTMAPS\r\n1\r\n0 L\r\n";
    let e = Wear::parse(text, ReadOptions::strict()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::QuirkRejected { quirk: "wear_blank_before_lightmaps", .. }));
    let w = Wear::parse(text, ReadOptions::compatible()).unwrap();
    // the writer always emits the separator
    assert_eq!(w.to_bytes(), b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n1\r\n0 L\r\n");
}

#[test]
fn malformed_tables_are_errors() {
    let rule = |t: &[u8]| match Wear::parse(t, ReadOptions::compatible()).unwrap_err().kind {
        ErrorKind::Invalid { rule, .. } => rule,
        k => panic!("{k:?}"),
    };
    assert_eq!(rule(b"0\r\n"), "wear_count");
    assert_eq!(rule(b"x\r\n"), "wear_count");
    assert_eq!(rule(b"2\r\n0 A\r\n"), "wear_truncated");
    assert_eq!(rule(b"1\r\nA\r\n"), "wear_row");
    assert_eq!(rule(b"1\r\n0 A\r\nextra\r\n"), "wear_trailing_text");
    assert_eq!(rule(b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n0\r\n"), "wear_lightmap_count");
    assert_eq!(rule(b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n1\r\n0 L\r\nmore\r\n"), "wear_trailing_text");
    for n in 0..RETAIL_LIKE.len() {
        // every prefix either fails or parses and round-trips
        if let Ok(w) = Wear::parse(&RETAIL_LIKE[..n], ReadOptions::compatible()) {
            assert!(w.to_bytes().starts_with(&RETAIL_LIKE[..n.min(12)]));
        }
    }
}

#[test]
fn authoring_emits_crlf_and_separator_and_edits_keep_ids() {
    let mut w = Wear::new(&[b"BODY", b"GLASS"], &[b"LM1"]).unwrap();
    assert_eq!(w.to_bytes(), b"2\r\n0 BODY\r\n1 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM1\r\n");
    w.set_material(1, b"STEEL").unwrap();
    assert_eq!(Wear::parse(&w.to_bytes(), ReadOptions::strict()).unwrap().material(1), Some(&b"STEEL"[..]));
    assert!(Wear::new(&[], &[]).is_err());
    assert!(Wear::new(&[b"two words"], &[]).is_err());
}

#[test]
fn material_and_lightmap_fallbacks_follow_the_quirks() {
    let mut lib = NresWriter::new();
    lib.add(0x3054_414D, [0, 6, 0], b"FIRST", vec![]).unwrap();
    lib.add(0x3054_414D, [0, 6, 0], b"DEFAULT", vec![]).unwrap();
    lib.add(0x3054_414D, [0, 6, 0], b"body", vec![]).unwrap();
    let bytes = lib.to_bytes().unwrap();
    let lib = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
    let (s, c) = (ReadOptions::strict(), ReadOptions::compatible());
    assert_eq!(resolve_material(&lib, b"BODY", s).unwrap(), MaterialMatch::Exact(2));
    assert!(matches!(resolve_material(&lib, b"nope", s).unwrap_err().kind, ErrorKind::NotFound(_)));
    assert_eq!(resolve_material(&lib, b"nope", c).unwrap(), MaterialMatch::Default(1));
    let mut only = NresWriter::new();
    only.add(0x3054_414D, [0, 6, 0], b"FIRST", vec![]).unwrap();
    let only_bytes = only.to_bytes().unwrap();
    let only = Nres::parse(&only_bytes, s).unwrap();
    assert_eq!(resolve_material(&only, b"nope", c).unwrap().index(), 0);

    let wear = Wear::parse(RETAIL_LIKE, s).unwrap();
    assert!(resolve_lightmap(&wear, 0, &lib, s).is_err());
    assert_eq!(resolve_lightmap(&wear, 0, &lib, c).unwrap(), None);
    assert_eq!(resolve_lightmap(&wear, 5, &lib, c).unwrap(), None);
    let mut lm = NresWriter::new();
    lm.add(0x6D78_6554, [0; 3], b"lm_base", vec![]).unwrap();
    let lm_bytes = lm.to_bytes().unwrap();
    let lm = Nres::parse(&lm_bytes, s).unwrap();
    assert_eq!(resolve_lightmap(&wear, 0, &lm, s).unwrap(), Some(0));
}

proptest! {
    #[test]
    fn wear_write_read_write_identity(names in proptest::collection::vec("[A-Z_][A-Z0-9_]{0,12}", 1..6), lm in 0usize..3) {
        let m: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        let w = Wear::new(&m, &m[..lm.min(m.len())]).unwrap();
        let bytes = w.to_bytes();
        let back = Wear::parse(&bytes, ReadOptions::strict()).unwrap();
        prop_assert_eq!(&back, &w);
        prop_assert_eq!(back.to_bytes(), bytes);
    }
}
