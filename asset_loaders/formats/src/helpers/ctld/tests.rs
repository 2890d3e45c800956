use super::*;
use crate::error::ErrorKind;
use proptest::prelude::*;

fn w(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn f(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_bits().to_le_bytes());
}

/// An item written field by field: tag, key, zeros to `+0x18`, link, zeros to
/// `+0x2C`, coefficient, zeros to `+0xAC`, bindings, name.
fn item(tag: u32, link: i32, coef: f32, bindings: &[u32], name: &[u8]) -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, tag);
    w(&mut o, 7);
    o.resize(0x18, 0);
    w(&mut o, link as u32);
    o.resize(0x2C, 0);
    f(&mut o, coef);
    o.resize(0xAC, 0xEE); // opaque parameters, non-zero to prove they survive
    w(&mut o, bindings.len() as u32);
    for b in bindings {
        w(&mut o, *b);
    }
    w(&mut o, name.len() as u32);
    if !name.is_empty() {
        o.extend_from_slice(name);
        o.push(0);
    }
    o
}

/// The common 392-byte file with counts (0, 0, 0, 1, 0).
fn common_392() -> Vec<u8> {
    let mut o = Vec::new();
    for c in [0, 0, 0, 1, 0] {
        w(&mut o, c);
    }
    o.extend((0..108).map(|i| i as u8)); // root parameters
    o.extend_from_slice(&item(2, -1, 0.0, &[], b""));
    for _ in 0..21 {
        w(&mut o, u32::MAX);
    }
    o
}

fn row36(out: &mut Vec<u8>, node: i32, a: f32, b: f32, blend: f32, flags: u32) {
    w(out, node as u32);
    f(out, a);
    f(out, b);
    f(out, blend);
    out.extend_from_slice(&[0xAB; 16]);
    w(out, flags);
}

/// Counts (1, 1, 4, 1, 2): one state with one link slot, four rows, a tag-26 item,
/// hook 0 -> list 1, list 0 empty, list 1 one opcode-4 command.
fn rich() -> Vec<u8> {
    let mut o = Vec::new();
    for c in [1, 1, 4, 1, 2] {
        w(&mut o, c);
    }
    o.extend_from_slice(&[0; 108]);
    o.extend_from_slice(&[0x11; 172]); // state: 156 + 16·1
    f(&mut o, 0.5); // 1×1 matrix
    assert_eq!(o.len(), 304); // 128 + 172 + 4
    row36(&mut o, 3, 0.0, 10.0, 0.25, 0);
    row36(&mut o, 3, 0.0, 10.0, 1.5, FLAG_WRAP);
    row36(&mut o, 4, -1.0, -1.0, 0.0, pose::FLAG_SKIP_POSE);
    row36(&mut o, 5, 1.0, 7.0, -0.5, pose::FLAG_INVERT);
    o.extend_from_slice(&item(26, 2, 1.25, &[0, 3], b"gen"));
    w(&mut o, 1);
    for _ in 1..21 {
        w(&mut o, u32::MAX);
    }
    w(&mut o, 0);
    w(&mut o, 1);
    for word in [1u32, 2, 3, 4, 104, 105, 106, 0, 0] {
        w(&mut o, word);
    }
    let mut name = [0u8; 32];
    name[..9].copy_from_slice(b"effects.r");
    o.extend_from_slice(&name);
    let mut res = [0u8; 32];
    res[..14].copy_from_slice(b"f_smalllight_y");
    res[20] = 0x5A; // tail byte after NUL
    o.extend_from_slice(&res);
    o
}

use pose::FLAG_WRAP;

#[test]
fn row_start_formula_matches_the_spec_examples() {
    assert_eq!(row_start(14, 0), Some(3096)); // fr_l_plant.ctl counts [14, 0, 5, 11, 13]
    assert_eq!(row_start(0, 0), Some(128));
    assert_eq!(row_start(1, 1), Some(304));
    assert_eq!(row_start(u32::MAX, u32::MAX), None, "overflow is reported, not wrapped");
}

#[test]
fn common_392_byte_file_parses_and_round_trips() {
    let bytes = common_392();
    assert_eq!(bytes.len(), 392);
    let c = Ctld::parse(&bytes).unwrap();
    assert_eq!(c.counts, [0, 0, 0, 1, 0]);
    assert_eq!(c.items[0].tag(), 2);
    assert_eq!(c.items[0].link_index(), -1);
    assert_eq!(c.hooks, [-1; 21]);
    assert_eq!(c.typed_items(), TypedItems::Supported(vec![ItemKind::Weapon]));
    assert_eq!(c.to_bytes().unwrap(), bytes);
}

#[test]
fn rich_file_views() {
    let bytes = rich();
    let c = Ctld::parse(&bytes).unwrap();
    assert_eq!(c.row_start(), 304);
    assert_eq!(c.rows.len(), 4);
    assert_eq!(c.items[0].bindings, vec![0, 3]);
    assert_eq!(c.items[0].name, b"gen");
    assert_eq!(c.items[0].kind(), ItemKind::ResourceMultiplier { coefficient: 1.25 });
    assert_eq!(c.hooks[0], 1);
    let rows = c.effect_rows();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].list, rows[0].row), (1, 0));
    assert_eq!(rows[0].command.args(), [104, 105, 106, 0, 0]);
    assert_eq!(rows[0].command.resource(), b"f_smalllight_y");
    assert_eq!(rows[0].command.condition(), [1, 2, 3]);
    assert_eq!(c.to_bytes().unwrap(), bytes, "opaque bytes and string tails survive");
}

#[test]
fn initial_pose_applies_blend_rules_and_last_row_wins() {
    let c = Ctld::parse(&rich()).unwrap();
    let pose = c.initial_pose();
    // node 3: row 0 gives 2.5, row 1 wraps 1.5 -> 0.5 -> 5.0 and wins (last enabled row).
    // node 4: flag 0x4 skipped. node 5: -0.5 clamps to 0, inverted to 1 -> frame = b = 7.
    assert_eq!(pose, vec![PoseEntry { node: 3, frame: 5.0, row: 1 }, PoseEntry { node: 5, frame: 7.0, row: 3 }]);
    assert_eq!(pose::normalise(-0.25, FLAG_WRAP | pose::FLAG_INVERT), 0.25);
    assert_eq!(pose::normalise(2.5, FLAG_WRAP), 1.5, "wraps only once");
    assert!(pose::normalise(f32::NAN, 0).is_nan());
}

#[test]
fn both_row_layouts_are_selectable() {
    // One 48-byte row: a 0, b 8, anim-2 pair, blend 0.75 at +0x14, flags 0x2 at +0x2C.
    let mut o = Vec::new();
    for c in [0, 0, 1, 0, 0] {
        w(&mut o, c);
    }
    o.extend_from_slice(&[0; 108]);
    w(&mut o, 9);
    for v in [0.0f32, 8.0, 100.0, 200.0, 0.75, 0.0] {
        f(&mut o, v);
    }
    for v in [1u32, 2, 0, 0, pose::FLAG_INVERT] {
        w(&mut o, v);
    }
    for _ in 0..21 {
        w(&mut o, u32::MAX);
    }
    let c = Ctld::parse_with(&o, RowLayout::Decompiled48).unwrap();
    assert_eq!(c.initial_pose(), vec![PoseEntry { node: 9, frame: 2.0, row: 0 }]); // 1 - 0.75 = 0.25 -> 2.0
    assert_eq!(c.to_bytes().unwrap(), o);
    // The 36-byte reading of the same bytes leaves 12 bytes over.
    assert!(Ctld::parse(&o).is_err());
}

#[test]
fn unknown_tag_is_an_explicit_unsupported_section() {
    let mut bytes = common_392();
    bytes[128..132].copy_from_slice(&0x77u32.to_le_bytes());
    let c = Ctld::parse(&bytes).unwrap();
    assert_eq!(c.typed_items(), TypedItems::Unsupported { index: 0, tag: 0x77 });
    assert!(matches!(c.typed_items().into_result().unwrap_err().kind, ErrorKind::Unsupported(_)));
    assert_eq!(c.to_bytes().unwrap(), bytes, "raw item still round-trips");
}

#[test]
fn malformed_input_is_rejected_with_location() {
    for bytes in [common_392(), rich()] {
        for n in 0..bytes.len() {
            assert!(Ctld::parse(&bytes[..n]).is_err(), "prefix {n}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(Ctld::parse(&extra).is_err());
    }
    let mut lying = common_392();
    lying[12..16].copy_from_slice(&u32::MAX.to_le_bytes()); // I
    assert!(matches!(Ctld::parse(&lying).unwrap_err().kind, ErrorKind::Truncated { .. }));
    let mut huge = common_392();
    huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes()); // S
    assert!(Ctld::parse(&huge).is_err());
    let mut hook = common_392();
    hook[308..312].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(Ctld::parse(&hook).unwrap_err().kind, ErrorKind::Invalid { rule: "ctld_hook_index", .. }));
    let mut name = rich();
    let pos = name.windows(4).position(|x| x == b"gen\0").unwrap();
    name[pos + 3] = b'!'; // terminator missing
    assert!(Ctld::parse(&name).is_err());
}

#[test]
fn authoring_an_initial_pose() {
    let c = Ctld::with_pose(vec![BindingRow::new(2, 0.0, 4.0, 0.5, 0).unwrap()]).unwrap();
    let bytes = c.to_bytes().unwrap();
    assert_eq!(bytes.len(), 128 + 36 + 84);
    let back = Ctld::parse(&bytes).unwrap();
    assert_eq!(back.initial_pose(), vec![PoseEntry { node: 2, frame: 2.0, row: 0 }]);
    assert!(BindingRow::new(0, f32::NAN, 0.0, 0.0, 0).is_err());
}

fn arb_ctld() -> impl Strategy<Value = Ctld> {
    let row = proptest::collection::vec(any::<u8>(), 36).prop_map(|raw| BindingRow { raw });
    let item =
        (any::<u32>(), proptest::collection::vec(any::<u32>(), 0..3), proptest::collection::vec(1u8..=255, 0..5))
            .prop_map(|(tag, bindings, name)| {
                let mut fixed = [0u8; 0xAC];
                fixed[..4].copy_from_slice(&tag.to_le_bytes());
                items::ItemRecord { fixed, bindings, name }
            });
    let cmd = any::<[u32; 9]>().prop_map(|ws| {
        let mut raw = [0u8; 100];
        for (i, v) in ws.iter().enumerate() {
            raw[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
        Command { raw }
    });
    let list = proptest::collection::vec(cmd, 0..3).prop_map(|commands| CommandList { commands });
    (
        0u32..3,
        0u32..3,
        proptest::collection::vec(row, 0..4),
        proptest::collection::vec(item, 0..3),
        proptest::collection::vec(list, 1..3),
    )
        .prop_map(|(s, m, rows, items, lists)| {
            let len = (row_start(s, m).unwrap() - 128) as usize;
            let mut hooks = [-1; HOOKS];
            hooks[0] = lists.len() as i32 - 1;
            Ctld {
                counts: [s, m, rows.len() as u32, items.len() as u32, lists.len() as u32],
                root: [3; ROOT_SIZE],
                states_raw: vec![9; len],
                layout: RowLayout::Native36,
                rows,
                items,
                hooks,
                lists,
            }
        })
}

proptest! {
    #[test]
    fn ctld_write_read_write_identity(c in arb_ctld()) {
        let bytes = c.to_bytes().unwrap();
        let back = Ctld::parse(&bytes).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}

#[test]
fn motion_parameters_sit_at_their_root_offsets_and_round_trip() {
    let mut data = common_392();
    // File +0x14 + root offset: the forward (y) top speed at +0x1C (file +48, the stat
    // panel's "Max speed"), angular Z at +0x2C, slope at +0x5C, payload at +0x68 (+124).
    data[0x14 + 0x1C..0x14 + 0x20].copy_from_slice(&12.5f32.to_le_bytes());
    data[0x14 + 0x2C..0x14 + 0x30].copy_from_slice(&2.0f32.to_le_bytes());
    data[0x14 + 0x5C..0x14 + 0x60].copy_from_slice(&0.5f32.to_le_bytes());
    data[0x14 + 0x68..0x14 + 0x6C].copy_from_slice(&4250.0f32.to_le_bytes());
    let mut c = Ctld::parse(&data).unwrap();
    let m = c.motion();
    assert_eq!((m.max_speed[1], m.max_angular_speed[2], m.slope_limit, m.payload), (12.5, 2.0, 0.5, 4250.0));
    assert_eq!(m.max_acceleration[0], f32::from_le_bytes([0, 1, 2, 3]));
    let written = MotionParameters { max_acceleration: [0.0, 4.0, 0.0], slope_limit: 0.75, payload: 9000.0, ..m };
    c.set_motion(&written);
    let back = Ctld::parse(&c.to_bytes().unwrap()).unwrap();
    assert_eq!(back.motion(), written);
    // The other root bytes are untouched.
    assert_eq!(back.root[0x0C..0x18], Ctld::parse(&data).unwrap().root[0x0C..0x18]);
}
