use super::*;
use crate::ReadOptions;
use crate::error::ErrorKind;
use proptest::prelude::*;

fn w(o: &mut Vec<u8>, v: u32) {
    o.extend_from_slice(&v.to_le_bytes());
}

fn record(o: &mut Vec<u8>, words: [u32; 5], ops: &[u32], trailer: u32) {
    for x in words {
        w(o, x);
    }
    w(o, ops.len() as u32);
    for r in ops {
        w(o, *r);
    }
    w(o, trailer);
}

const NONE: u32 = 0xFFFF_FFFF;

/// Two handlers written field by field plus two trailing bytes: `Init` is
/// `fn19(224, 225, 226)`; the second holds an `if`, a formula statement and a constant.
fn package() -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, 73);
    w(&mut o, 2);
    w(&mut o, 4);
    o.extend_from_slice(b"Init\0");
    w(&mut o, 0);
    w(&mut o, 1);
    record(&mut o, [19, NONE, NONE, NONE, 6], &[224, 225, 226], NONE);
    w(&mut o, 7);
    o.extend_from_slice(b"Mis\0ion\0"); // inner NUL kept raw
    w(&mut o, 1);
    w(&mut o, 3);
    record(&mut o, [NONE, NONE, NONE, 0, 5], &[10, 11], NONE);
    record(&mut o, [NONE, 30, NONE, NONE, 6], &[], 2);
    record(&mut o, [NONE, 12, 0x8000_0003, 6, 6], &[], 0xDEAD);
    o.extend_from_slice(b"XY");
    o
}

#[test]
fn scr_framing_node_meaning_and_round_trip() {
    let bytes = package();
    let p = ScrPackage::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(p.function_count, 73);
    assert_eq!(p.events.len(), 2);
    assert_eq!(p.events[1].name, b"Mis\0ion");
    assert_eq!(p.events[1].c_name(), b"Mis");
    assert_eq!(p.events[1].index, 1);
    let call = &p.events[0].records[0];
    assert_eq!(
        (call.kind(), call.function(), call.dest(), call.formula()),
        (NodeKind::Statement, Some(19), None, None)
    );
    assert_eq!(call.ops, [224, 225, 226]);
    let [cmp, formula, constant] = &p.events[1].records[..] else { panic!() };
    assert_eq!((cmp.kind(), cmp.relation(), cmp.function()), (NodeKind::If, Some(Relation::NotEqual), None));
    assert_eq!((formula.kind(), formula.dest(), formula.formula()), (NodeKind::Statement, Some(30), Some(2)));
    assert_eq!(
        (constant.kind(), constant.dest(), constant.source()),
        (NodeKind::Constant, Some(12), Some(0x8000_0003))
    );
    assert_eq!(constant.trailer, 0xDEAD, "every word is kept");
    assert_eq!(call.encoded_len(), 40);
    assert_eq!(p.trailing, b"XY");
    assert_eq!(p.to_bytes().unwrap(), bytes);
    assert!(p.check_version(73).is_ok());
    assert!(matches!(p.check_version(59).unwrap_err().kind, ErrorKind::UnsupportedVersion(73)));
    assert_eq!(NodeKind::from_word(9), NodeKind::Unknown(9));
    assert_eq!(Relation::from_word(6), None);
    assert!(Relation::LessEqual.holds(2, 2) && !Relation::Less.holds(2, 2) && Relation::NotEqual.holds(1.0, f64::NAN));
}

#[test]
fn authored_nodes_carry_the_original_meaning() {
    let mut p = ScrPackage::new();
    let nodes = vec![
        Record::call(31, Some(5), vec![1, 2]),
        Record::copy(6, 5),
        Record::formula_into(7, 0),
        Record::compare(5, Relation::Equal, 0),
        Record::constant(8, 4094),
        Record::of_kind(NodeKind::End, vec![]),
    ];
    p.add_event("Init", vec![]).unwrap();
    p.add_event("Mission", nodes).unwrap();
    let back = ScrPackage::parse(&p.to_bytes().unwrap(), ReadOptions::strict()).unwrap();
    assert_eq!(back, p);
    let m = &back.events[1];
    assert_eq!(m.index, 1, "the index word is the position");
    let kinds: Vec<_> = m.records.iter().map(Record::kind).collect();
    use NodeKind::*;
    assert_eq!(kinds, [Statement, Statement, Statement, If, Constant, End]);
    assert_eq!((m.records[1].source(), m.records[1].function(), m.records[1].formula()), (Some(5), None, None));
    assert_eq!(m.records[0].relation, 6);
    assert!(p.add_event("a\0b", vec![]).is_err());
}

#[test]
fn scr_malformed_input() {
    let bytes = package();
    // Prefixes that cut inside a handler fail; a cut exactly after the last handler
    // only loses trailing bytes, which the format allows.
    for n in 0..bytes.len() - 2 {
        assert!(ScrPackage::parse(&bytes[..n], ReadOptions::strict()).is_err(), "prefix {n}");
    }
    let mut nul = bytes.clone();
    nul[16] = b'!'; // "Init" terminator
    assert!(matches!(
        ScrPackage::parse(&nul, ReadOptions::strict()).unwrap_err().kind,
        ErrorKind::Invalid { rule: "scr_event_name_nul", .. }
    ));
    let mut many = bytes.clone();
    many[4..8].copy_from_slice(&100_000u32.to_le_bytes());
    assert!(matches!(
        ScrPackage::parse(&many, ReadOptions::strict()).unwrap_err().kind,
        ErrorKind::Invalid { rule: "scr_limit", .. }
    ));
    let mut lying = bytes.clone();
    lying[8..12].copy_from_slice(&3000u32.to_le_bytes()); // name length past the end
    assert!(ScrPackage::parse(&lying, ReadOptions::strict()).is_err());
    let mut sel = bytes;
    sel[25..29].copy_from_slice(&80u32.to_le_bytes()); // head0 of the Init node
    let e = ScrPackage::parse(&sel, ReadOptions::strict()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "scr_function", .. }), "{e}");
    assert_eq!(e.offset, Some(25));
    let p = ScrPackage::parse(&sel, ReadOptions::compatible()).unwrap();
    assert_eq!(p.events[0].records[0].function(), Some(80), "kept in compatible mode");
}

#[test]
fn anchor_readings_differ_as_the_spec_describes() {
    // Reading B worked example: -0.6 -> -1 -> 0xFFFFFFFF -> 2^32 as float -> low word 0.
    assert_eq!(convert_anchor(-0.6, AnchorRule::RoundHalfEven).unwrap(), init::Anchor { word: 0, warning: true });
    // Reading A truncates -0.6 to 0.
    assert_eq!(convert_anchor(-0.6, AnchorRule::Truncate).unwrap().word, 0);
    // 10001: rejected by A, warning under B.
    assert!(convert_anchor(10001.0, AnchorRule::Truncate).is_err());
    assert_eq!(
        convert_anchor(10001.0, AnchorRule::RoundHalfEven).unwrap(),
        init::Anchor { word: 10001, warning: true }
    );
    assert!(convert_anchor(-1.5, AnchorRule::Truncate).is_err(), "unsigned compare rejects negatives");
    assert_eq!(convert_anchor(2.5, AnchorRule::RoundHalfEven).unwrap().word, 2);
    assert_eq!(convert_anchor(2.9, AnchorRule::Truncate).unwrap().word, 2);
    assert_eq!(convert_anchor(728.5, AnchorRule::RoundHalfEven).unwrap().word, 728, "ties go to even");
}

const VARSET: &[u8] = b"// shared table \xC0\xC1\r\nVAR(float, fSpeed, 1.5)\r\nVAR(DWORD, ST_SOLVING, 1) // state\r\n\r\nSTRING(sName, \"x\")\r\nVAR( DWORD , TARGET_BY_PLACE , 0x0202 )\r\nFUNCTION(f)\r\nVAR(DWORD, dNeg, -1)";

#[test]
fn varset_grammar_and_indices() {
    let v = Varset::parse(VARSET).unwrap();
    assert_eq!(v.to_bytes(), VARSET);
    let counted = v.declarations(StringIndexing::Counted);
    assert_eq!(counted.len(), 5);
    let skipped = v.declarations(StringIndexing::Skipped);
    assert_eq!(skipped.len(), 4);
    assert_eq!(v.index_of("TARGET_BY_PLACE", StringIndexing::Counted), Some(3));
    assert_eq!(v.index_of("TARGET_BY_PLACE", StringIndexing::Skipped), Some(2));
    let d = v.get(2, StringIndexing::Skipped).unwrap();
    assert_eq!((d.ty, d.initial_word(), d.default_raw.as_slice()), (VarType::Dword, 0x0202, &b"0x0202"[..]));
    assert_eq!(v.get(0, StringIndexing::Counted).unwrap().initial_word(), 1.5f32.to_bits());
    assert_eq!(v.get(3, StringIndexing::Skipped).unwrap().initial_word(), u32::MAX);
    assert!(v.get(2, StringIndexing::Counted).is_none(), "the STRING slot has no numeric declaration");
}

/// Lines shaped as the shipped `varset.var` writes them (gameplay.md §2.3): tab
/// alignment, a `;` after eleven declarations, trailing comments in CP1251, comment
/// continuation lines indented with tabs.
const SHIPPED_SHAPES: &[u8] = b"VAR( DWORD, dCurrentProblem,\t0)\t\t\t// changed from CPP\r\n\
VAR( float, fHazard, 0.5)\t\t\t\t\t\t\t// \xf0\xe8\xf1\xea\r\n\
\t\t\t\t\t\t\t\t// continued comment\r\n\
VAR( DWORD, FREE_UNITS,\t\t\t\t0x0);\r\n\
VAR( DWORD, ClanBaseX, 950);\r\n\
VAR( DWORD, ClanID, 0) ;\t// spaced\r\n";

#[test]
fn varset_reads_the_shipped_files_shapes_with_their_positions_as_indices() {
    let v = Varset::parse(SHIPPED_SHAPES).unwrap();
    assert_eq!(v.to_bytes(), SHIPPED_SHAPES, "lossless");
    let names: Vec<&[u8]> =
        v.declarations(StringIndexing::Counted).iter().map(|(_, d)| d.unwrap().name.as_slice()).collect();
    assert_eq!(names, [&b"dCurrentProblem"[..], b"fHazard", b"FREE_UNITS", b"ClanBaseX", b"ClanID"]);
    assert_eq!(v.index_of("ClanBaseX", StringIndexing::Counted), Some(3));
    assert_eq!(v.get(3, StringIndexing::Counted).unwrap().initial_word(), 950);
    assert_eq!(v.get(1, StringIndexing::Counted).unwrap().initial_word(), 0.5f32.to_bits());
    for bad in [&b"VAR( DWORD, x, 0);;"[..], b"VAR( DWORD, x, 0); y", b";"] {
        let e = Varset::parse(bad).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Invalid { rule: "varset_syntax", .. }), "{e}");
    }
}

#[test]
fn a_declaration_may_end_with_a_stray_semicolon() {
    let text = b"VAR( DWORD, FREE_UNITS,\t\t\t\t0x0);\r\nVAR( DWORD, ClanBaseX, 950); // base\r\nVAR(float, f1, 1)";
    let v = Varset::parse(text).unwrap();
    assert_eq!(v.to_bytes(), text);
    let names: Vec<_> = v.declarations(StringIndexing::Counted).iter().map(|(_, d)| d.unwrap().name.clone()).collect();
    assert_eq!(names, [b"FREE_UNITS".to_vec(), b"ClanBaseX".to_vec(), b"f1".to_vec()], "no index shifts");
    assert_eq!(v.get(1, StringIndexing::Counted).unwrap().initial_word(), 950);
    assert!(Varset::parse(b"VAR(DWORD, x, 1);;").is_err(), "one semicolon only");
}

#[test]
fn varset_errors_and_authoring() {
    for bad in [&b"VAR(int, x, 1)"[..], b"VAR(DWORD, x)", b"VAR(DWORD, x, abc)", b"hello", b"VAR(float, a b, 1)"] {
        let e = Varset::parse(bad).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Invalid { rule: "varset_syntax", .. }), "{e}");
    }
    let e = Varset::parse(b"// ok\r\nVAR(DWORD, x, ?)").unwrap_err();
    assert_eq!(e.offset, Some(7));
    let mut v = Varset::parse(b"// t").unwrap();
    assert_eq!(v.push_var(VarType::Dword, "ClanBaseX", "0").unwrap(), 0);
    assert_eq!(v.push_var(VarType::Float, "fK", "0.5").unwrap(), 1);
    assert_eq!(v.to_bytes(), b"// t\r\nVAR(DWORD, ClanBaseX, 0)\r\nVAR(float, fK, 0.5)\r\n");
    assert!(v.push_var(VarType::Dword, "bad name", "0").is_err());
}

fn varbin_fixture() -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, 2);
    for (ty, val, name) in [(3u32, 2.5f32.to_bits(), &b"speed"[..]), (7, 9, b"odd")] {
        w(&mut o, 4);
        w(&mut o, ty);
        w(&mut o, 0);
        w(&mut o, name.len() as u32);
        o.extend_from_slice(name);
        w(&mut o, 0);
        for t in [val, 2, 3, 4] {
            w(&mut o, t);
        }
    }
    o
}

#[test]
fn binary_variable_set() {
    let bytes = varbin_fixture();
    let v = VarBin::parse(&bytes).unwrap();
    assert_eq!(v.items[0].typed(), VarValue::Float(2.5), "the value is the first of the four words after the name");
    assert_eq!(v.get("speed").and_then(VarValue::number), Some(2.5));
    assert_eq!(v.items[0].name, b"speed");
    assert_eq!(v.items[1].typed(), VarValue::Opaque(7, 9));
    assert_eq!(v.items[1].values, [9, 2, 3, 4]);
    assert_eq!(v.to_bytes().unwrap(), bytes);
    for n in 0..bytes.len() {
        assert!(VarBin::parse(&bytes[..n]).is_err(), "prefix {n}");
    }
    let mut neg = bytes;
    neg[0..4].copy_from_slice(&(-1i32).to_le_bytes());
    assert!(matches!(VarBin::parse(&neg).unwrap_err().kind, ErrorKind::Invalid { rule: "varbin_count", .. }));
}

#[test]
fn fml_is_kept_verbatim() {
    let data = b"F1 = a + b\r\n\xC0\n";
    let f = FmlText::parse(data);
    assert_eq!(f.to_bytes(), data);
    assert_eq!(f.display_lines()[1], "А");
    let set = FmlText::parse(
        b"//FormulaSet export file\r\n\r\nFUNCTION( , fTemp + 0.00001,  )\r\nfunction( , 20 + 55*fDifficulty, )\r\n",
    );
    let formulas = set.function_lines();
    assert_eq!(formulas.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [2, 3], "formula n is the nth FUNCTION line");
    assert!(formulas[1].1.contains("55*fDifficulty"));
}

fn arb_package() -> impl Strategy<Value = ScrPackage> {
    let rec = (
        prop_oneof![0u32..73, Just(u32::MAX)],
        any::<[u32; 4]>(),
        proptest::collection::vec(any::<u32>(), 0..4),
        any::<u32>(),
    )
        .prop_map(|(f, ws, ops, trailer)| Record { head: [f, ws[0], ws[1], ws[2]], relation: ws[3], ops, trailer });
    let ev = (proptest::collection::vec(any::<u8>(), 0..8), any::<u32>(), proptest::collection::vec(rec, 0..4))
        .prop_map(|(name, index, records)| Event { name, index, records });
    (proptest::collection::vec(ev, 0..4), proptest::collection::vec(any::<u8>(), 0..4))
        .prop_map(|(events, trailing)| ScrPackage { function_count: 73, events, trailing })
}

proptest! {
    #[test]
    fn varbin_write_read_write_identity(items in proptest::collection::vec((any::<i32>(), any::<u32>(), proptest::collection::vec(any::<u8>(), 0..6), any::<[u32; 4]>()), 0..4)) {
        let v = VarBin { items: items.into_iter().map(|(t, reserved, name, values)| VarItem {
            value_length: 4, value_type: t, reserved, name, string2: Vec::new(), values,
        }).collect() };
        let bytes = v.to_bytes().unwrap();
        prop_assert_eq!(VarBin::parse(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }

    #[test]
    fn scr_write_read_write_identity(p in arb_package()) {
        let bytes = p.to_bytes().unwrap();
        let back = ScrPackage::parse(&bytes, ReadOptions::strict()).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn varset_parse_keeps_bytes(lines in proptest::collection::vec(prop_oneof![
        Just("VAR(DWORD, a, 1)".to_string()), Just("// c".to_string()), Just(String::new()),
        "[a-z]{1,5}".prop_map(|n| format!("VAR(float, {n}, 0.25)")),
    ], 0..6), crlf in any::<bool>()) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let text = lines.join(eol).into_bytes();
        let v = Varset::parse(&text).unwrap();
        prop_assert_eq!(v.to_bytes(), text);
    }
}
