use super::*;
use crate::error::ErrorKind;
use crate::nres::NresWriter;
use proptest::prelude::*;

use crate::world::fixture_bytes::B;

impl B {
    /// Prefix with the given class/logic words and counts.
    fn prefix(self, class: u32, vc: u32, pc: u32) -> Self {
        self.v3([1.0, 2.0, 3.0])
            .u32(0xDEAD)
            .f32(50.0)
            .v3([0.0, 0.0, 1.0])
            .u32(7)
            .u32(0xBEEF)
            .u32(class)
            .u32(0)
            .u32(vc)
            .u32(pc)
    }
}

/// Two triangles sharing the edge (10,0)-(0,10); links (areal 0 edge 1) <-> (areal 1 edge 2).
fn areals(link_a: (i32, i32)) -> B {
    B::default()
        .prefix(1, 3, 0)
        .v3([0.0, 0.0, 0.0])
        .v3([10.0, 0.0, 0.0])
        .v3([0.0, 10.0, 0.0])
        .i32(-1)
        .i32(-1)
        .i32(link_a.0)
        .i32(link_a.1)
        .i32(-1)
        .i32(-1)
        .prefix(2, 3, 0)
        .v3([10.0, 0.0, 0.0])
        .v3([10.0, 10.0, 0.0])
        .v3([0.0, 10.0, 0.0])
        .i32(-1)
        .i32(-1)
        .i32(-1)
        .i32(-1)
        .i32(0)
        .i32(1)
}

fn payload(link_a: (i32, i32), grid_ids: [u16; 3]) -> Vec<u8> {
    areals(link_a).u32(2).u32(1).u16(2).u16(grid_ids[0]).u16(grid_ids[1]).u16(1).u16(grid_ids[2]).0
}

fn archive(payload: Vec<u8>, count: u32) -> Vec<u8> {
    let mut w = NresWriter::new();
    w.add(12, [count, 3, 4], b"land.map", payload).unwrap();
    w.to_bytes().unwrap()
}

fn fixture() -> Vec<u8> {
    archive(payload((1, 2), [0, 1, 1]), 2)
}

#[test]
fn hand_written_map_decodes_and_round_trips() {
    let bytes = fixture();
    let m = ArealMap::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(m.areals.len(), 2);
    let a = &m.areals[0];
    assert_eq!(a.prefix.reserved_12, 0xDEAD);
    assert_eq!(a.prefix.reserved_36, 0xBEEF);
    assert_eq!(a.prefix.logic_flag, 7);
    assert_eq!(a.links[1], EdgeLink8 { area_ref: 1, edge_ref: 2 });
    assert_eq!(m.areals[1].links[2].target(), Some(0));
    assert_eq!((m.cells_x, m.cells_y), (2, 1));
    assert_eq!(m.cell(0), &[0, 1]);
    assert_eq!(m.cell(1), &[1]);
    assert_eq!(m.packed_cell(1), Some((1 << 22) | 2), "10-bit count, 22-bit pool start");
    assert_eq!(m.max_candidates(), 2);
    assert_eq!(m.vertex_count(), 6);
    assert_eq!(m.to_bytes().unwrap(), bytes);
}

#[test]
fn every_prefix_fails_cleanly() {
    let bytes = fixture();
    for n in 0..bytes.len() {
        assert!(ArealMap::parse(&bytes[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
    let p = payload((1, 2), [0, 1, 1]);
    for n in 0..p.len() {
        let e = ArealMap::parse_payload(&p[..n], 0, 2).unwrap_err();
        assert!(e.offset.is_some(), "payload prefix {n}: {e}");
    }
}

fn rule(bytes: &[u8]) -> &'static str {
    match ArealMap::parse(bytes, ReadOptions::compatible()).unwrap_err().kind {
        ErrorKind::Invalid { rule, .. } => rule,
        ErrorKind::Truncated { .. } => "truncated",
        other => panic!("{other:?}"),
    }
}

#[test]
fn references_and_grid_are_range_checked() {
    assert_eq!(rule(&archive(payload((2, 0), [0, 1, 1]), 2)), "edge_link");
    assert_eq!(rule(&archive(payload((-1, 0), [0, 1, 1]), 2)), "edge_link");
    assert_eq!(rule(&archive(payload((1, 3), [0, 1, 1]), 2)), "edge_link");
    assert_eq!(rule(&archive(payload((1, 2), [0, 2, 1]), 2)), "grid_area_id");
    let e = ArealMap::parse(&archive(payload((2, 0), [0, 1, 1]), 2), ReadOptions::strict()).unwrap_err();
    assert!(e.to_string().contains("areal 0 link 1"), "{e}");
    assert_eq!(e.offset, Some(16 + 56 + 36 + 8), "offset of the bad link");
    assert_eq!(rule(&archive(areals((1, 2)).u32(0).u32(5).0, 2)), "grid_size");
    let mut big = areals((1, 2)).u32(1).u32(1).u16(1024);
    for _ in 0..1024 {
        big = big.u16(0);
    }
    assert_eq!(rule(&archive(big.0, 2)), "grid_pack");
    let mut tail = payload((1, 2), [0, 1, 1]);
    tail.extend_from_slice(&[0, 0]);
    assert_eq!(rule(&archive(tail, 2)), "trailing_bytes");
    assert_eq!(rule(&archive(payload((1, 2), [0, 1, 1]), 3)), "truncated", "attr1 lies about the areal count");
    let mut w = NresWriter::new();
    w.add(11, [2, 0, 0], b"x", payload((1, 2), [0, 1, 1])).unwrap();
    assert_eq!(rule(&w.to_bytes().unwrap()), "land_map_type");
    w.add(12, [2, 0, 0], b"y", payload((1, 2), [0, 1, 1])).unwrap();
    assert_eq!(rule(&w.to_bytes().unwrap()), "land_map_entries");
    let huge = B::default().prefix(0, u32::MAX, u32::MAX).0;
    assert_eq!(rule(&archive(huge, 1)), "truncated", "huge counts fail before allocation");
}

#[test]
fn polygon_blocks_are_framed_and_kept() {
    let mut p = B::default().prefix(0, 1, 1).v3([0.0; 3]);
    for _ in 0..4 {
        p = p.i32(-1).i32(-1);
    }
    let p = p.u32(1).u32(0xA1).u32(0xA2).u32(0xA3).u32(0xA4).u32(1).u32(1).u16(1).u16(0).0;
    let bytes = archive(p, 1);
    let m = ArealMap::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(m.areals[0].links.len(), 4, "vertex_count + 3 * poly_count");
    assert_eq!(m.areals[0].polys[0].block.len(), 16);
    assert_eq!(m.to_bytes().unwrap(), bytes);
}

proptest! {
    #[test]
    fn write_read_write_is_identity(cells in 1u32..4, heights in proptest::collection::vec(-10f32..10.0, 9), class in any::<u32>()) {
        let mut b = ArealMapBuilder::new();
        for j in 0..3 {
            for i in 0..3 {
                let (x, y, z) = (i as f32, j as f32, heights[j * 3 + i]);
                b.add_polygon(vec![[x, y, z], [x + 1.0, y, z], [x + 1.0, y + 1.0, z], [x, y + 1.0, z]], class, 0).unwrap();
            }
        }
        let m = b.build(cells, cells + 1).unwrap();
        let bytes = m.to_bytes().unwrap();
        let back = ArealMap::parse(&bytes, ReadOptions::strict()).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        prop_assert_eq!(back.areals, m.areals);
    }
}

proptest! {
    #[test]
    fn mutated_fixture_never_panics_and_round_trips_when_accepted(at in 0usize..1000, byte in any::<u8>()) {
        let mut bytes = fixture();
        let i = at % bytes.len();
        bytes[i] = byte;
        if let Ok(m) = ArealMap::parse(&bytes, ReadOptions::compatible()) {
            prop_assert_eq!(m.to_bytes().unwrap(), bytes.clone());
            let q = crate::world::ArealQuery::new(&m);
            let _ = q.area_at(5.0, 1.0);
            if let Some(r) = q.route(0, m.areals.len().saturating_sub(1)) {
                let _ = q.corridor(&r);
            }
        }
    }
}
