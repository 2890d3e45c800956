use super::*;
use proptest::prelude::*;

use crate::world::fixture_bytes::B;

/// A complete version-10 mission: one path, a mode-0 and a mode-1 clan with a
/// relation, one object with a duplicated property, a description with CP1251 and a
/// NUL, one extra record.
fn fixture() -> Vec<u8> {
    B::default()
        .u32(1)
        .u32(1) // paths
        .i32(7)
        .u32(2)
        .f32(1.0)
        .f32(2.0)
        .f32(3.0)
        .f32(4.0)
        .f32(5.0)
        .f32(6.0)
        .u32(6)
        .u32(2) // clans
        .lp(b"Nature")
        .i32(-1)
        .f32(0.0)
        .f32(0.0)
        .u32(0)
        .lp(b"")
        .u32(1) // zones
        .u32(1) // zone kind
        .u32(0)
        .f32(10.0)
        .f32(20.0)
        .f32(30.0)
        .f32(1.5)
        .lp(b"")
        .i32(0)
        .u32(0) // relations
        .lp(b"Player")
        .i32(1)
        .f32(500.2857)
        .f32(752.0)
        .u32(1)
        .lp(b"MISSIONS\\SCRIPTS\\default")
        .i32(0)
        .lp(b"MISSIONS\\SCRIPTS\\auto.trf")
        .i32(3)
        .u32(1)
        .lp(b"Nature")
        .i32(1)
        .u32(10)
        .u32(1) // objects
        .u32(1)
        .u32(0x8000_0002)
        .lp(b"UNITS\\UNITS\\HERO\\hero_t.dat")
        .u32(2)
        .u32(9)
        .f32(418.10318)
        .f32(717.433)
        .f32(3.0409389)
        .f32(0.0)
        .f32(0.0)
        .f32(1.6262363)
        .f32(1.0)
        .f32(1.0)
        .f32(1.0)
        .lp(b"")
        .u32(0)
        .i32(-1)
        .i32(-1)
        .u32(1)
        .u32(3)
        .u32(0)
        .f32(250.0)
        .u32(0xAAAA)
        .u32(0xBBBB)
        .lp(b"CurrentOre")
        .u32(1)
        .u32(4)
        .u32(0)
        .u32(0)
        .lp(b"ClanID")
        .u32(0)
        .f32(999.0)
        .u32(0)
        .u32(0)
        .lp(b"CurrentOre")
        .lp(b"DATA\\MAPS\\Tut_1\\land")
        .u32(5)
        .lp(b"\xcf\xf0\xe8\0x")
        .u32(1)
        .u32(1)
        .f32(1.0)
        .f32(2.0)
        .f32(3.0)
        .i32(-2)
        .u32(0x10)
        .f32(0.5)
        .i32(4)
        .0
}

#[test]
fn hand_written_fixture_reads_every_field_and_round_trips() {
    let bytes = fixture();
    let t = Tma::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(t.paths.len(), 1);
    assert_eq!(t.paths[0].path_id, 7, "path id is kept, not the index");
    assert_eq!(t.paths[0].points[1], [4.0, 5.0, 6.0]);
    assert_eq!(t.clans.len(), 2);
    assert_eq!(t.clans[0].zones, [Zone { kind: 1, centre: [0.0, 10.0, 20.0], inner: 30.0, outer: 1.5 }]);
    let player = &t.clans[1];
    assert!(player.zones.is_empty());
    assert_eq!(player.script.as_bytes(), b"MISSIONS\\SCRIPTS\\default");
    assert_eq!(player.research_tree.as_bytes(), b"MISSIONS\\SCRIPTS\\auto.trf");
    assert_eq!(player.minds(), 3);
    assert_eq!(t.clans[1].relations, vec![(LpString::from("Nature"), 1)]);
    let o = &t.objects[0];
    assert!(o.is_unit_reference());
    assert_eq!(o.position, [418.10318, 717.433, 3.0409389]);
    assert_eq!(o.properties.len(), 3, "duplicates kept");
    assert_eq!(o.properties[0].raw_value[2], 0xAAAA, "raw words kept");
    assert_eq!(o.current_ore(), Some(PropertyValue::Float(250.0)), "first exact match wins");
    assert_eq!(o.clan_id(), Some(PropertyValue::Int(4)));
    assert_eq!(o.first_property("currentore"), None, "case-sensitive");
    assert_eq!(o.maximum_ore(), None);
    assert_eq!(t.land_path.as_bytes(), b"DATA\\MAPS\\Tut_1\\land");
    assert_eq!(t.mission_flag, 5);
    assert_eq!(t.description_text(), "\u{41f}\u{440}\u{438}\0x");
    assert_eq!(t.extras[0].lode(), (-2, 0x10, 0.5, 4));
    assert!(t.diagnostics.is_empty());
    assert_eq!(t.to_bytes().unwrap(), bytes);
}

#[test]
fn every_prefix_and_any_tail_is_a_located_error() {
    let bytes = fixture();
    for n in 0..bytes.len() {
        let e = Tma::parse(&bytes[..n], ReadOptions::compatible()).unwrap_err();
        assert!(e.offset.is_some(), "prefix {n}: {e}");
    }
    let mut tail = bytes.clone();
    tail.push(0);
    let e = Tma::parse(&tail, ReadOptions::strict()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "trailing_bytes", .. }));
    assert_eq!(e.offset, Some(bytes.len() as u64));
}

#[test]
fn lying_counts_fail_before_allocation() {
    let mut bytes = fixture();
    bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = Tma::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
    assert_eq!(e.offset, Some(8));
    let mut short = B::default().u32(1).u32(0).u32(6).u32(0).u32(10).u32(1).u32(0).u32(0).lp(b"xyz").0;
    short.extend_from_slice(&[0; 40]);
    let e = Tma::parse(&short, ReadOptions::strict()).unwrap_err();
    assert!(e.to_string().contains("placed object 0"), "{e}");
}

#[test]
fn strict_checks_versions_and_compatible_keeps_them_with_diagnostics() {
    let mut bytes = fixture();
    bytes[0] = 2;
    let e = Tma::parse(&bytes, ReadOptions::strict()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnsupportedVersion(2));
    let t = Tma::parse(&bytes, ReadOptions::compatible()).unwrap();
    assert_eq!(t.format_version, 2);
    assert_eq!(t.diagnostics.len(), 1);
    assert_eq!(t.diagnostics[0].offset, 0);
    assert_eq!(t.to_bytes().unwrap(), bytes);
    // A clan section version outside 1..6 is refused by the loader in both modes.
    let t = Tma::parse(&fixture(), ReadOptions::strict()).unwrap();
    let mut seven = t.clone();
    seven.clan_section_version = 7;
    assert!(Tma::parse(&seven.to_bytes().unwrap(), ReadOptions::compatible()).is_err());
}

#[test]
fn older_section_versions_follow_the_engine_gates() {
    let t = Tma::parse(&fixture(), ReadOptions::strict()).unwrap();
    for (cv, ov) in [(1, 1), (2, 2), (3, 4), (4, 6), (5, 8), (6, 9)] {
        let mut old = t.clone();
        old.clan_section_version = cv;
        old.object_section_version = ov;
        let bytes = old.to_bytes().unwrap();
        assert!(Tma::parse(&bytes, ReadOptions::strict()).is_err());
        let back = Tma::parse(&bytes, ReadOptions::compatible()).unwrap();
        assert!(!back.diagnostics.is_empty());
        assert_eq!(back.to_bytes().unwrap(), bytes, "clan {cv} object {ov}");
        assert_eq!(back.objects[0].scale, [1.0; 3]);
        assert_eq!(back.extras.is_empty(), ov <= 4);
    }
}

#[test]
fn strict_rejects_class_flags_clan_types_and_non_finite_transforms() {
    let t = Tma::parse(&fixture(), ReadOptions::strict()).unwrap();
    let mut bad = t.clone();
    bad.objects[0].class_or_flags = 1;
    let bytes = bad.to_bytes().unwrap();
    assert!(matches!(
        Tma::parse(&bytes, ReadOptions::strict()).unwrap_err().kind,
        ErrorKind::Invalid { rule: "object_class_flags", .. }
    ));
    assert!(Tma::parse(&bytes, ReadOptions::compatible()).is_ok());
    let mut bad = t.clone();
    bad.clans[1].mode = 4;
    let bytes = bad.to_bytes().unwrap();
    assert!(matches!(
        Tma::parse(&bytes, ReadOptions::strict()).unwrap_err().kind,
        ErrorKind::Invalid { rule: "clan_mode", .. }
    ));
    assert_eq!(Tma::parse(&bytes, ReadOptions::compatible()).unwrap().diagnostics[0].rule, "clan_mode");
    let mut bad = t;
    bad.objects[0].orientation[1] = f32::NAN;
    let e = Tma::parse(&bad.to_bytes().unwrap(), ReadOptions::compatible()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "non_finite_transform", .. }), "{e}");
}

#[test]
fn generated_mission_round_trips() {
    let mut t = Tma::new("DATA\\MAPS\\Gen\\land");
    t.clans.push(Clan::new("Nature", 0, [0.0; 2], "", "", 0));
    t.clans.push(Clan::new("Player", 1, [100.0, 200.0], "MISSIONS\\SCRIPTS\\default", "", 5));
    t.objects.push(PlacedObject::new(0, "r_h_01", [1.0, 2.0, 3.0]).with_property(Property::int("LogicalID", 3)));
    let bytes = t.to_bytes().unwrap();
    let back = Tma::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.objects[0].logical_id(), Some(PropertyValue::Int(3)));
    assert_eq!(land_file_paths("A\\land")[2], "A\\land1.wea");
}

fn lp() -> impl Strategy<Value = LpString> {
    proptest::collection::vec(any::<u8>(), 0..6).prop_map(LpString)
}

fn finite3() -> impl Strategy<Value = [f32; 3]> {
    [-1e6f32..1e6, -1e6f32..1e6, -1e6f32..1e6]
}

fn object() -> impl Strategy<Value = PlacedObject> {
    (any::<u32>(), lp(), finite3(), finite3(), proptest::collection::vec((any::<[u32; 4]>(), lp()), 0..4)).prop_map(
        |(kind, name, pos, rot, props)| {
            let mut o = PlacedObject::new(kind, "", pos);
            o.resource_name = name;
            o.orientation = rot;
            o.properties = props.into_iter().map(|(raw_value, name)| Property { raw_value, name }).collect();
            o
        },
    )
}

fn clan() -> impl Strategy<Value = Clan> {
    (lp(), 0u32..4, any::<i32>(), proptest::collection::vec((any::<u32>(), finite3(), finite3()), 0..3), lp()).prop_map(
        |(name, mode, tag, zones, res)| {
            let mut c = Clan::new("", mode, [0.0; 2], "", "", tag);
            c.name = name;
            c.script = res.clone();
            c.research_tree = res;
            c.zones =
                zones.into_iter().map(|(kind, centre, r)| Zone { kind, centre, inner: r[0], outer: r[1] }).collect();
            c.relations = vec![(LpString::from("x"), tag)];
            c
        },
    )
}

proptest! {
    #[test]
    fn write_read_write_is_identity(
        objects in proptest::collection::vec(object(), 0..4),
        clans in proptest::collection::vec(clan(), 0..3),
        desc in lp(),
        extras in proptest::collection::vec(any::<[u32; 7]>(), 0..3),
    ) {
        let mut t = Tma::new("land");
        t.objects = objects;
        t.clans = clans;
        t.description_raw = desc;
        t.paths.push(PathRecord { path_id: -5, points: vec![[1.0, 2.0, 3.0]] });
        t.extras = extras.iter().map(|w| ExtraRecord28 { position: [f32::from_bits(w[0]), 0.0, 1.0], words: [w[1], w[2], w[3], w[4]] }).collect();
        let bytes = t.to_bytes().unwrap();
        let back = Tma::parse(&bytes, ReadOptions::compatible()).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}

proptest! {
    #[test]
    fn mutated_fixture_never_panics_and_round_trips_when_accepted(at in 0usize..400, byte in any::<u8>(), cut in 0usize..8) {
        let mut bytes = fixture();
        let i = at % bytes.len();
        bytes[i] = byte;
        bytes.truncate(bytes.len() - cut);
        for options in [ReadOptions::strict(), ReadOptions::compatible()] {
            if let Ok(t) = Tma::parse(&bytes, options) {
                prop_assert_eq!(t.to_bytes().unwrap(), bytes.clone());
            }
        }
    }
}

#[test]
fn relation_words_an_older_demo_wrote_for_war_are_located_findings() {
    let mut t = Tma::new("DATA\\MAPS\\Gen\\land");
    t.clans.push(Clan::new("Nature", ClanType::NATURE, [0.0; 2], "", "", 0));
    t.clans.push(Clan::new("Player", ClanType::PLAYER, [0.0; 2], "s", "", 5));
    t.clans.push(Clan::new("Enemy", ClanType::ENEMY, [0.0; 2], "s", "", 5));
    t.clans[1].relations = vec![("Enemy".into(), 1)];
    t.clans[2].relations = vec![("Nature".into(), 1), ("Player".into(), 1)];
    let bytes = t.to_bytes().unwrap();
    let found = Tma::parse(&bytes, ReadOptions::strict()).unwrap().diagnostics;
    assert_eq!(found.len(), 2, "{found:?}");
    for d in &found {
        assert_eq!(d.rule, "relation_convention");
        let at = d.offset as usize;
        assert_eq!(bytes[at..at + 4], 1u32.to_le_bytes(), "the offset is the word's");
    }
    assert!(found[0].detail.contains("\"Player\" gives \"Enemy\" word 1"), "{}", found[0].detail);
    // The original's tables name every clan, themselves included: no finding.
    for clan in 0..3 {
        let names = ["Nature", "Player", "Enemy"];
        t.clans[clan].relations = names.iter().enumerate().map(|(i, n)| ((*n).into(), i32::from(i == clan))).collect();
    }
    assert!(Tma::parse(&t.to_bytes().unwrap(), ReadOptions::strict()).unwrap().diagnostics.is_empty());
}
