use super::*;
use crate::error::ErrorKind;
use crate::nres::NresWriter;
use proptest::prelude::*;

fn w(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn f(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_bits().to_le_bytes());
}

/// Two points written field by field: records first, then the parallel names.
fn cpt_two() -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, 2);
    w(&mut o, 0);
    w(&mut o, 1);
    w(&mut o, u32::MAX);
    for v in [1.0, 2.0, 3.0, 0.0, 0.0, 1.0] {
        f(&mut o, v);
    }
    w(&mut o, 0x8000_0000);
    w(&mut o, 4);
    w(&mut o, 5);
    for v in [-1.5, 0.0, 0.25, 1.0, 0.0, 0.0] {
        f(&mut o, v);
    }
    let mut n1 = [0u8; 32];
    n1[..12].copy_from_slice(b"TurretCenter");
    n1[20] = 0x33; // tail after NUL
    o.extend_from_slice(&n1);
    let mut n2 = [0u8; 32];
    n2[..5].copy_from_slice(b"Sfx_1");
    o.extend_from_slice(&n2);
    o
}

#[test]
fn ctpt_reads_typed_views_and_round_trips() {
    let bytes = cpt_two();
    assert_eq!(bytes.len(), 4 + 2 * 68);
    let c = Ctpt::parse(&bytes).unwrap();
    assert_eq!(c.points[0].name(), b"TurretCenter");
    assert_eq!(c.points[0].owner_piece(), 1);
    assert_eq!(c.points[0].target_piece(), -1);
    assert_eq!(c.points[0].position(), [1.0, 2.0, 3.0]);
    assert_eq!(c.points[1].flags_raw(), 0x8000_0000);
    assert_eq!(c.points[1].direction(), [1.0, 0.0, 0.0]);
    assert_eq!(c.find("sfx_1").map(|(i, _)| i), Some(1));
    assert_eq!(c.to_bytes().unwrap(), bytes);
}

#[test]
fn ctpt_rejects_bad_sizes_and_non_finite_floats() {
    let bytes = cpt_two();
    for n in 0..bytes.len() {
        assert!(Ctpt::parse(&bytes[..n]).is_err(), "prefix {n}");
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(matches!(Ctpt::parse(&extra).unwrap_err().kind, ErrorKind::Invalid { rule: "ctpt_size", .. }));
    let mut nan = bytes.clone();
    nan[4 + 0x10..4 + 0x14].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
    let e = Ctpt::parse(&nan).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "non_finite_float", .. }), "{e}");
    let mut lying = bytes;
    lying[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Ctpt::parse(&lying).is_err());
}

#[test]
fn ctpt_authoring() {
    let p = ControlPoint::new("CameraCenter", 0, 2, -1, [0.0, 1.0, 2.0], [0.0, 0.0, 1.0]).unwrap();
    let c = Ctpt { points: vec![p] };
    let back = Ctpt::parse(&c.to_bytes().unwrap()).unwrap();
    assert_eq!(back, c);
    assert!(ControlPoint::new("x", 0, 0, 0, [f32::INFINITY, 0.0, 0.0], [0.0; 3]).is_err());
    assert!(ControlPoint::new(&"n".repeat(32), 0, 0, 0, [0.0; 3], [0.0; 3]).is_err());
}

#[test]
fn ndpr_records() {
    let mut o = Vec::new();
    w(&mut o, 1);
    w(&mut o, 0x10);
    f(&mut o, 100.0);
    f(&mut o, 0.5);
    let mut a = [0u8; 32];
    a[..10].copy_from_slice(b"system.rlb");
    o.extend_from_slice(&a);
    let mut r = [0u8; 32];
    r[..13].copy_from_slice(b"explode_1.exp");
    o.extend_from_slice(&r);
    let n = Ndpr::parse(&o).unwrap();
    let rec = n.records[0];
    assert_eq!((rec.flags(), rec.hit_points(), rec.density()), (0x10, 100.0, 0.5));
    assert_eq!((rec.archive(), rec.resource()), (&b"system.rlb"[..], &b"explode_1.exp"[..]));
    assert_eq!(n.to_bytes().unwrap(), o);
    for k in 0..o.len() {
        assert!(Ndpr::parse(&o[..k]).is_err());
    }
}

fn bas_fixture() -> Vec<u8> {
    let mut o = Vec::new();
    w(&mut o, 1); // inner_count
    w(&mut o, 2); // n
    for v in [0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 10.0, 0.0] {
        f(&mut o, v);
    }
    for v in [7, 8, 0, 2] {
        w(&mut o, v); // a[2], b[2]
    }
    w(&mut o, 1); // outer_count
    w(&mut o, 0); // n = 0 -> one point
    for v in [1.0, 2.0, 3.0] {
        f(&mut o, v);
    }
    o
}

#[test]
fn base_contours() {
    let bytes = bas_fixture();
    let b = Base::parse(&bytes).unwrap();
    assert_eq!(b.inner[0].points.len(), 3);
    assert_eq!((b.inner[0].a.clone(), b.inner[0].b.clone()), (vec![7, 8], vec![0, 2]));
    assert_eq!(b.outer, vec![vec![[1.0, 2.0, 3.0]]]);
    assert_eq!(b.to_bytes().unwrap(), bytes);
    for k in 0..bytes.len() {
        assert!(Base::parse(&bytes[..k]).is_err(), "prefix {k}");
    }
    let mut lying = bytes;
    lying[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Base::parse(&lying).is_err());
    let fp = Base::footprint(vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]).unwrap();
    assert_eq!(Base::parse(&fp.to_bytes().unwrap()).unwrap(), fp);
}

#[test]
fn expl_and_opaque_resources() {
    let e = Expl::new(HitKind::Blast, 200.0, 10.0, Some(("effects.rlb", "exp_m_mis")));
    let mut bytes = e.to_bytes();
    assert_eq!(bytes.len(), 792);
    bytes[0x0C] ^= 1; // an unread float survives the round trip
    let back = Expl::parse(&bytes).unwrap();
    assert_eq!((back.kind(), back.damage(), back.radius(), back.placement()), (HitKind::Blast, 200.0, 10.0, 0));
    assert_eq!(back.effect(0), Some((&b"effects.rlb"[..], &b"exp_m_mis"[..])));
    assert_eq!(back.effect(12), None);
    assert_eq!(back.to_bytes(), bytes);
    bytes[0] = 5;
    assert!(Expl::parse(&bytes).unwrap_err().to_string().contains("hit kind 5"));
    assert!(Expl::parse(&bytes[..791]).unwrap_err().to_string().contains("792"));
    let s = Sund::parse(b"\x01\x02sun");
    assert_eq!(s.to_bytes(), b"\x01\x02sun");
}

#[test]
fn trf_nodes_and_strings() {
    let mut node = Vec::new();
    f(&mut node, 100.0);
    f(&mut node, 30.0);
    f(&mut node, 1.0);
    f(&mut node, 2.0);
    for off in [0u32, 4, 0, 0] {
        w(&mut node, off);
    }
    node.extend_from_slice(&[1, 0, 1, 2, 3, 4, 5, 6]);
    let mut a = NresWriter::new();
    a.add(trf::type_id(b'0'), [1, 0, 0], b"nodes", node).unwrap();
    a.add(trf::type_id(b'1'), [1, 0, 0], b"state", vec![7]).unwrap();
    a.add(trf::type_id(b'6'), [0, 0, 0], b"parts", b"e_tur_bb_01\0e_tur_bt_01\0".to_vec()).unwrap();
    a.add(trf::type_id(b'7'), [0, 0, 0], b"short", b"Gun\0Tank\0".to_vec()).unwrap();
    // Two parts researched by item 0 (a turret's two mountings).
    a.add(trf::type_id(b'B'), [2, 0, 4], b"map", vec![0, 0, 0, 0, 12, 0, 0, 0]).unwrap();
    let bytes = a.to_bytes().unwrap();
    let opts = crate::ReadOptions::strict();
    let t = Trf::parse(&bytes, opts).unwrap();
    let costs = t.nodes[0].costs();
    let read = [costs.research_energy, costs.research_ore, costs.build_energy, costs.build_ore];
    assert_eq!(read, [100.0, 30.0, 1.0, 2.0], "research energy, research ore, build energy, build ore");
    assert_eq!((t.nodes[0].part_entry(), t.nodes[0].type_bytes()), (1, [1, 2, 3, 4, 5, 6]));
    assert_eq!(t.parts(opts), Some(vec![(b"e_tur_bb_01".to_vec(), 0), (b"e_tur_bt_01".to_vec(), 0)]));
    assert_eq!(t.string(b'7', t.nodes[0].string_offsets()[1], opts), Some(b"Tank".to_vec()));
    assert_eq!(t.initial_states(opts), Some(vec![7]));
    assert_eq!(t.relation(b'2', b'3', opts), Some(vec![Vec::new()]), "no tables: no relation");
    assert_eq!(t.to_bytes(), bytes);
}

#[test]
fn trf_relations_split_the_flat_list_by_counts() {
    let mut a = NresWriter::new();
    a.add(trf::type_id(b'0'), [2, 0, 40], b"nodes", vec![0; 80]).unwrap();
    let (mut counts, mut list) = (Vec::new(), Vec::new());
    [0u32, 2].iter().for_each(|c| w(&mut counts, *c));
    [0u32, 1].iter().for_each(|c| w(&mut list, *c));
    a.add(trf::type_id(b'2'), [2, 0, 4], b"pre", counts).unwrap();
    a.add(trf::type_id(b'3'), [2, 0, 4], b"list", list.clone()).unwrap();
    a.add(trf::type_id(b'4'), [1, 0, 4], b"bad", vec![5, 0, 0, 0]).unwrap();
    a.add(trf::type_id(b'5'), [2, 0, 4], b"list", list).unwrap();
    let bytes = a.to_bytes().unwrap();
    let opts = crate::ReadOptions::strict();
    let t = Trf::parse(&bytes, opts).unwrap();
    assert_eq!(t.relation(b'2', b'3', opts), Some(vec![vec![], vec![0, 1]]));
    assert_eq!(t.relation(b'4', b'5', opts), None, "one count for two nodes");
    assert_eq!(t.parts(opts), Some(Vec::new()), "no TRFB: no parts");
    let mut a = NresWriter::new();
    a.add(trf::type_id(b'6'), [0, 0, 0], b"parts", b"x\0".to_vec()).unwrap();
    a.add(trf::type_id(b'B'), [1, 0, 4], b"map", vec![9, 0, 0, 0]).unwrap();
    let t = Trf::parse(&a.to_bytes().unwrap(), opts).unwrap();
    assert_eq!(t.parts(opts), None, "an offset outside TRF6");
}

proptest! {
    #[test]
    fn ndpr_write_read_write_identity(records in proptest::collection::vec(any::<[u8; 19]>(), 0..4)) {
        let n = Ndpr { records: records.iter().map(|seed| {
            let mut raw = [0u8; ndpr::RECORD_SIZE];
            for (i, b) in raw.iter_mut().enumerate() {
                *b = seed[i % 19];
            }
            ndpr::NdprRecord { raw }
        }).collect() };
        let bytes = n.to_bytes().unwrap();
        prop_assert_eq!(Ndpr::parse(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }

    #[test]
    fn ctpt_write_read_write_identity(points in proptest::collection::vec((any::<[u8; 12]>(), -1e6f32..1e6, any::<[u8; 32]>()), 0..5)) {
        let points: Vec<ControlPoint> = points.into_iter().map(|(head, v, name_raw)| {
            let mut raw = [0u8; 36];
            raw[..12].copy_from_slice(&head);
            for k in 0..6 {
                raw[12 + 4 * k..16 + 4 * k].copy_from_slice(&(v * k as f32).to_le_bytes());
            }
            ControlPoint { raw, name_raw }
        }).collect();
        let c = Ctpt { points };
        let bytes = c.to_bytes().unwrap();
        prop_assert_eq!(Ctpt::parse(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }

    #[test]
    fn base_write_read_write_identity(polys in proptest::collection::vec(proptest::collection::vec(any::<u32>(), 1..4), 0..3)) {
        let inner = polys.iter().map(|ws| base::InnerPolygon {
            points: ws.iter().map(|&x| [f32::from_bits(x), 0.0, 1.0]).collect(),
            a: ws[1..].to_vec(),
            b: ws[1..].iter().map(|x| x ^ 1).collect(),
        }).collect();
        let b = Base { inner, outer: vec![vec![[0.5; 3]]] };
        let bytes = b.to_bytes().unwrap();
        prop_assert_eq!(Base::parse(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }
}
