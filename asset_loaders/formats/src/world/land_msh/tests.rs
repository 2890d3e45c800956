use super::*;
use crate::error::ErrorKind;
use crate::nres::NresWriter;
use proptest::prelude::*;

fn le16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn le32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Streams of a unit square (4 vertices, 2 faces) written field by field.
fn streams() -> Vec<(u32, [u32; 3], Vec<u8>)> {
    let mut node = vec![0u8; 38];
    node[2..4].copy_from_slice(&[0xFF, 0xFF]);
    let mut slots = vec![0x11u8; 0x8C];
    let mut slot = vec![0u8; 68];
    slot[2] = 2; // face count
    slot[0x38] = 0x5A; // opaque tail
    slots.extend_from_slice(&slot);
    let mut pos = Vec::new();
    for p in [[0.0f32, 0.0, 1.0], [10.0, 0.0, 1.0], [10.0, 10.0, 3.0], [0.0, 10.0, 3.0]] {
        p.iter().for_each(|f| le32(&mut pos, f.to_bits()));
    }
    let normals = [0u8, 0, 127, 9].repeat(4); // +Z, opaque 4th byte 9
    let mut uv = Vec::new();
    for (u, v) in [(0i16, 0i16), (1024, 0), (1024, 2048), (0, -512)] {
        le16(&mut uv, u as u16);
        le16(&mut uv, v as u16);
    }
    let micro = [1u8, 2, 3, 4].repeat(4);
    let aux = [0u8; 16].to_vec();
    let mut shading = Vec::new();
    le32(&mut shading, 0x0010_0005);
    le32(&mut shading, 0x0000_0006);
    let mut faces = Vec::new();
    for (verts, nb) in [([0u16, 1, 2], [NO_FACE, NO_FACE, 1]), ([0, 2, 3], [0, NO_FACE, NO_FACE])] {
        le32(&mut faces, 0x0002_0400);
        faces.extend_from_slice(&[0x02, 0xFF]);
        le16(&mut faces, 0xFFFF);
        verts.iter().chain(&nb).for_each(|&w| le16(&mut faces, w));
        faces.extend_from_slice(&[1, 0, 2, 0, 3, 0, 0xEE, 0xDD]);
    }
    vec![
        (1, [1, 7, 38], node),
        (2, [1, 0, 0], slots),
        (3, [4, 0, 12], pos),
        (4, [4, 0, 4], normals),
        (5, [4, 0, 4], uv),
        (18, [4, 0, 4], micro),
        (14, [4, 0, 4], aux),
        (11, [2, 0, 4], shading),
        (21, [2, 0, 28], faces),
    ]
}

fn archive(streams: &[(u32, [u32; 3], Vec<u8>)]) -> Vec<u8> {
    let mut w = NresWriter::new();
    for (i, (t, attrs, payload)) in streams.iter().enumerate() {
        w.add(*t, *attrs, format!("s{i}").as_bytes(), payload.clone()).unwrap();
    }
    w.to_bytes().unwrap()
}

#[test]
fn hand_written_terrain_decodes_and_round_trips() {
    let bytes = archive(&streams());
    let t = LandMsh::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(t.positions.len(), 4);
    assert_eq!(t.faces.len(), 2);
    assert_eq!(t.slots[0].face_count(), 2);
    assert_eq!(t.normal(1), Some([0.0, 0.0, 1.0]));
    assert_eq!(t.uv(2), Some([1.0, 2.0]));
    assert_eq!(t.uv(3), Some([0.0, -0.5]));
    let f = t.faces[1];
    assert_eq!(f.vertices, [0, 2, 3]);
    assert_eq!(f.neighbours, [0, NO_FACE, NO_FACE]);
    assert_eq!(f.material_tag(), 0xFF02);
    assert_eq!(f.overlay(), None);
    assert_eq!(TerrainFace28 { material_high: 1, ..f }.overlay(), Some(1));
    assert_eq!(f.packed_normal(), [1, 2, 3]);
    assert_eq!(f.edge_selector(), 0xDDEE);
    assert_eq!(f.surface().compact, 0x0280);
    assert_eq!(t.shading(0, ShadingReading::LookupKeyFlags), Some(FaceShading::Lookup { key: 5, flags: 0x10 }));
    assert_eq!(
        t.shading(0, ShadingReading::MaterialTriangle),
        Some(FaceShading::Material { material: 5, triangle: 0x10 })
    );
    assert_eq!(t.to_bytes().unwrap(), bytes);
}

#[test]
fn edits_keep_the_rest_of_the_file() {
    let bytes = archive(&streams());
    let mut t = LandMsh::parse(&bytes, ReadOptions::strict()).unwrap();
    t.positions[2][2] = 5.0;
    let edited = t.to_bytes().unwrap();
    assert_eq!(edited.len(), bytes.len());
    let back = LandMsh::parse(&edited, ReadOptions::strict()).unwrap();
    assert_eq!(back.positions[2][2], 5.0);
    assert_eq!(back.rows[0].attr2, 7, "raw attr2 kept");
}

#[test]
fn every_prefix_fails_cleanly() {
    let bytes = archive(&streams());
    for n in 0..bytes.len() {
        assert!(LandMsh::parse(&bytes[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
}

fn expect_rule(streams: &[(u32, [u32; 3], Vec<u8>)], rule: &str) {
    let e = LandMsh::parse(&archive(streams), ReadOptions::compatible()).unwrap_err();
    assert!(matches!(&e.kind, ErrorKind::Invalid { rule: r, .. } if *r == rule), "{rule}: {e}");
    assert!(e.offset.is_some());
}

#[test]
fn structural_violations_are_located() {
    let mut s = streams();
    s.swap(5, 6);
    expect_rule(&s, "land_msh_streams");
    let mut s = streams();
    s[2].1[2] = 16;
    expect_rule(&s, "stream_stride");
    let mut s = streams();
    s[2].1[0] = 5;
    expect_rule(&s, "stream_count");
    let mut s = streams();
    s[3].2.push(0);
    expect_rule(&s, "stream_count");
    let mut s = streams();
    s[1].1[0] = 2;
    expect_rule(&s, "slot_count");
    let mut s = streams();
    s[1].2.truncate(0x8B);
    expect_rule(&s, "slot_header");
    let mut s = streams();
    s[8].2[8] = 4; // vertex index 4 of 4 positions
    expect_rule(&s, "face_vertex");
    let mut s = streams();
    s[8].2[14] = 2; // neighbour 2 of 2 faces
    expect_rule(&s, "face_neighbour");
}

#[test]
fn builder_computes_neighbours_and_survives_reparse() {
    let t = TerrainBuilder::height_field(3, 2, 10.0, |x, y| x * 0.1 + y).unwrap();
    assert_eq!(t.positions.len(), 12);
    assert_eq!(t.faces.len(), 12);
    // Every interior diagonal is shared; the two faces of a cell see each other.
    assert_eq!(t.faces[0].neighbours[2], 1);
    assert_eq!(t.faces[0].neighbours[1], 3);
    assert_eq!(t.faces[1].neighbours[0], 0);
    let bytes = t.to_bytes().unwrap();
    let back = LandMsh::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(back.faces, t.faces);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    let n = back.normal(5).unwrap();
    assert!(n[2] > 0.5, "up-facing normal {n:?}");
}

proptest! {
    #[test]
    fn write_read_write_is_identity(heights in proptest::collection::vec(-100f32..100.0, 16), flags in any::<u32>(), tail in any::<[u8; 8]>()) {
        let mut t = TerrainBuilder::height_field(3, 3, 4.0, |x, y| heights[((x / 4.0) as usize + 4 * (y / 4.0) as usize) % 16]).unwrap();
        t.faces[0].flags = flags;
        t.faces[1].tail = tail;
        let bytes = t.to_bytes().unwrap();
        let back = LandMsh::parse(&bytes, ReadOptions::strict()).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}

proptest! {
    #[test]
    fn mutated_fixture_never_panics_and_round_trips_when_accepted(at in 0usize..2000, byte in any::<u8>()) {
        let mut bytes = archive(&streams());
        let i = at % bytes.len();
        bytes[i] = byte;
        if let Ok(t) = LandMsh::parse(&bytes, ReadOptions::compatible()) {
            prop_assert_eq!(t.to_bytes().unwrap(), bytes.clone());
            let q = crate::world::TerrainQuery::new(&t);
            let _ = q.height_at(5.0, 5.0);
            let _ = q.ray_cast([5.0, 5.0, 50.0], [0.1, 0.0, -1.0], 1e3);
        }
    }
}
