use super::*;
use crate::ReadOptions;
use crate::error::ErrorKind;
use proptest::prelude::*;

fn w(o: &mut Vec<u8>, v: u32) {
    o.extend_from_slice(&v.to_le_bytes());
}

fn record(o: &mut Vec<u8>, words: [u32; 5], refs: &[u32], w6: u32) {
    for x in words {
        w(o, x);
    }
    w(o, refs.len() as u32);
    for r in refs {
        w(o, *r);
    }
    w(o, w6);
}

/// Two events written field by field plus two trailing bytes.
fn package() -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, 73);
    w(&mut o, 2);
    w(&mut o, 4);
    o.extend_from_slice(b"Init\0");
    w(&mut o, 0);
    w(&mut o, 1);
    record(&mut o, [19, 1, 2, 3, 4], &[224, 225, 226], 6);
    w(&mut o, 7);
    o.extend_from_slice(b"Mis\0ion\0"); // inner NUL kept raw
    w(&mut o, 5);
    w(&mut o, 2);
    record(&mut o, [0xFFFF_FFFF, 0, 0, 0, 0], &[], 0);
    record(&mut o, [30, 9, 9, 9, 9], &[10, 11], 0xDEAD);
    o.extend_from_slice(b"XY");
    o
}

#[test]
fn scr_framing_and_round_trip() {
    let bytes = package();
    let p = ScrPackage::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(p.handler_count, 73);
    assert_eq!(p.events.len(), 2);
    assert_eq!(p.events[1].name, b"Mis\0ion");
    assert_eq!(p.events[1].c_name(), b"Mis");
    assert_eq!(p.events[1].records[0].selector(), Selector::Sentinel);
    assert_eq!(p.events[1].records[1].selector(), Selector::Handler(30));
    assert_eq!(p.events[1].records[1].w6, 0xDEAD);
    assert_eq!(p.events[0].records[0].encoded_len(), 40);
    assert_eq!(p.trailing, b"XY");
    assert_eq!(p.to_bytes().unwrap(), bytes);
    assert!(p.check_version(73).is_ok());
    assert!(matches!(p.check_version(59).unwrap_err().kind, ErrorKind::UnsupportedVersion(73)));
}

#[test]
fn scr_malformed_input() {
    let bytes = package();
    // Prefixes that cut inside an event fail; a cut exactly after the last event only
    // loses trailing bytes, which the format allows.
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
    sel[25..29].copy_from_slice(&80u32.to_le_bytes()); // selector of the Init record
    assert!(matches!(
        ScrPackage::parse(&sel, ReadOptions::strict()).unwrap_err().kind,
        ErrorKind::Invalid { rule: "scr_selector", .. }
    ));
    let p = ScrPackage::parse(&sel, ReadOptions::compatible()).unwrap();
    assert_eq!(p.events[0].records[0].selector(), Selector::Unknown(80));
    assert_eq!(
        plan_init(&p, 1.0, 1.0, 0, AnchorRule::Truncate).unwrap(),
        InitPlan::Unsupported { record: 0, selector: Selector::Unknown(80) }
    );
}

#[test]
fn init_plan_and_handler19() {
    let p = ScrPackage::parse(&package(), ReadOptions::strict()).unwrap();
    let plan = plan_init(&p, 500.2857, 752.0, 0, AnchorRule::Truncate).unwrap();
    assert_eq!(plan, InitPlan::Writes(vec![(224, 500), (225, 752), (226, 0)]));
    let b = plan_init(&p, 728.5, 449.5, 1, AnchorRule::RoundHalfEven).unwrap();
    assert_eq!(b, InitPlan::Writes(vec![(224, 728), (225, 450), (226, 1)]), "ties go to even");
    let mut no_init = p.clone();
    no_init.events[0].name = b"init".to_vec(); // case-sensitive lookup
    assert_eq!(plan_init(&no_init, 0.0, 0.0, 0, AnchorRule::Truncate).unwrap(), InitPlan::NoInit);
    let mut empty = p;
    empty.events[0].records.clear();
    assert_eq!(plan_init(&empty, 0.0, 0.0, 0, AnchorRule::Truncate).unwrap(), InitPlan::Writes(vec![]));
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
}

#[test]
fn unit_package_authoring() {
    let p = unit_package().unwrap();
    let bytes = p.to_bytes().unwrap();
    let back = ScrPackage::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(back, p);
    assert_eq!(back.event("Init").unwrap().records[0].refs, vec![224, 225, 226]);
    // 8 header + (4 + 5 + 4 + 4) event + 40 record
    assert_eq!(bytes.len(), 8 + 17 + 40);
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
        w(&mut o, val);
        w(&mut o, name.len() as u32);
        o.extend_from_slice(name);
        w(&mut o, 0);
        for t in [1, 2, 3, 4] {
            w(&mut o, t);
        }
    }
    o
}

#[test]
fn binary_variable_set() {
    let bytes = varbin_fixture();
    let v = VarBin::parse(&bytes).unwrap();
    assert_eq!(v.items[0].typed(), VarValue::Float(2.5));
    assert_eq!(v.items[0].name, b"speed");
    assert_eq!(v.items[1].typed(), VarValue::Opaque(7, 9));
    assert_eq!(v.items[1].tail, [1, 2, 3, 4]);
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
}

fn arb_package() -> impl Strategy<Value = ScrPackage> {
    let rec = (
        prop_oneof![0u32..73, Just(u32::MAX)],
        any::<[u32; 4]>(),
        proptest::collection::vec(any::<u32>(), 0..4),
        any::<u32>(),
    )
        .prop_map(|(s, ws, refs, w6)| Record { words: [s, ws[0], ws[1], ws[2], ws[3]], refs, w6 });
    let ev = (proptest::collection::vec(any::<u8>(), 0..8), any::<u32>(), proptest::collection::vec(rec, 0..4))
        .prop_map(|(name, event_word, records)| Event { name, event_word, records });
    (proptest::collection::vec(ev, 0..4), proptest::collection::vec(any::<u8>(), 0..4))
        .prop_map(|(events, trailing)| ScrPackage { handler_count: 73, events, trailing })
}

proptest! {
    #[test]
    fn varbin_write_read_write_identity(items in proptest::collection::vec((any::<i32>(), any::<u32>(), proptest::collection::vec(any::<u8>(), 0..6), any::<[u32; 4]>()), 0..4)) {
        let v = VarBin { items: items.into_iter().map(|(t, value, name, tail)| VarItem {
            value_length: 4, value_type: t, value, name, string2: Vec::new(), tail,
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
