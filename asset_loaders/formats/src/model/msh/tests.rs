//! MSH tests on a hand-built two-node fixture (every stream written field by field).

use super::*;
use crate::error::ErrorKind;
use crate::nres::NresWriter;

pub(crate) fn w16(out: &mut Vec<u8>, v: &[u16]) {
    v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
}
pub(crate) fn wf(out: &mut Vec<u8>, v: &[f32]) {
    v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
}
fn w32(out: &mut Vec<u8>, v: &[u32]) {
    v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
}

/// Streams of the fixture: (type, attrs, payload).
pub(crate) fn fixture_streams() -> Vec<(u32, [u32; 3], Vec<u8>)> {
    let mut nodes = Vec::new();
    // node 0: root, no map, fallback key 0, slot 0 at cell (0,0)
    w16(&mut nodes, &[0x0040, 0xFFFF, 0xFFFF, 0, 0]);
    w16(&mut nodes, &[0xFFFF; 14]);
    // node 1: parent 0, map at 0, fallback key 3, slot 1 at (0,0)
    w16(&mut nodes, &[0, 0, 0, 3, 1]);
    w16(&mut nodes, &[0xFFFF; 14]);
    let mut slots = Vec::new();
    wf(&mut slots, &[0.0; 35]);
    for (tri, batch) in [(0u16, 0u16), (1, 1)] {
        w16(&mut slots, &[tri, 1, batch, 1]);
        wf(&mut slots, &[0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.5, 0.0, 0.8, 1.0, 0.0]);
        w32(&mut slots, &[0xAABB_CCDD, 0, 7]);
    }
    let mut pos = Vec::new();
    wf(&mut pos, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
    let normals = [0u8, 0, 127, 9].repeat(4);
    let mut uvs = Vec::new();
    w16(&mut uvs, &[0, 0, 1024, 0, 1024, 1024, 0, 0xFC00]); // last v = -1.0
    let mut idx = Vec::new();
    w16(&mut idx, &[0, 1, 2, 0, 2, 3]);
    let mut tris = Vec::new();
    for _ in 0..2 {
        w16(&mut tris, &[1, 0xFFFF, 0xFFFF, 0xFFFF, 0, 0, 32767, 0x3F]);
    }
    let mut batches = Vec::new();
    for (i, lo) in [(0u32, 1u8), (3, 2)] {
        w16(&mut batches, &[0x0002, 7]);
        batches.extend_from_slice(&[lo, 0]);
        w16(&mut batches, &[0, 3]);
        w32(&mut batches, &[i]);
        w16(&mut batches, &[4]);
        w32(&mut batches, &[0]);
    }
    let mut keys = Vec::new();
    let s = (0.5f32).sqrt();
    let qz90 = [0i16, 0, (s * 32767.0).round() as i16, (s * 32767.0).round() as i16];
    for (t, time, q) in [
        ([0.0, 0.0, 0.0], 0.0, [0i16, 0, 0, 32767]),
        ([0.0, 0.0, 0.0], 0.0, [0, 0, 0, 32767]),
        ([0.0, 0.0, 10.0], 1.0, [0, 0, 0, 32767]),
        ([5.0, 0.0, 0.0], 0.0, qz90),
    ] {
        wf(&mut keys, &t);
        wf(&mut keys, &[time]);
        w16(&mut keys, &q.map(|v| v as u16));
    }
    let mut map = Vec::new();
    w16(&mut map, &[1, 1]);
    let mut names = Vec::new();
    w32(&mut names, &[4]);
    names.extend_from_slice(b"root\0");
    w32(&mut names, &[0]);
    vec![
        (1, [2, 0, 38], nodes),
        (2, [2, 0, 68], slots),
        (3, [4, 0, 12], pos),
        (4, [4, 0, 4], normals),
        (5, [4, 0, 4], uvs),
        (13, [2, 0, 20], batches),
        (6, [6, 0, 2], idx),
        (7, [2, 0, 16], tris),
        (8, [4, 0, 4], keys),
        (19, [2, 2, 2], map),
        (9, [0, 0, 0], vec![1, 2, 3]),
        (10, [2, 0, 0], names),
    ]
}

pub(crate) fn archive(streams: &[(u32, [u32; 3], Vec<u8>)]) -> Vec<u8> {
    let mut w = NresWriter::new();
    for (i, (t, a, p)) in streams.iter().enumerate() {
        w.add(*t, *a, format!("s{i}").as_bytes(), p.clone()).unwrap();
    }
    w.to_bytes().unwrap()
}

pub(crate) fn fixture() -> Vec<u8> {
    archive(&fixture_streams())
}

fn rule(e: Error) -> &'static str {
    match e.kind {
        ErrorKind::Invalid { rule, .. } => rule,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn parses_every_stream_of_the_fixture() {
    let m = Msh::parse(&fixture(), ReadOptions::strict()).unwrap();
    assert_eq!(m.nodes.len(), 2);
    assert_eq!(m.nodes[1].parent(), Some(0));
    assert_eq!(m.nodes[0].slot(0, 0), Some(0));
    assert_eq!(m.nodes[0].slot(0, 1), None);
    assert_eq!(m.slots[1].batch_start, 1);
    assert_eq!(m.slots[0].tail, [0xAABB_CCDD, 0, 7]);
    assert_eq!(m.positions[2], [1.0, 1.0, 0.0]);
    assert_eq!(decode_normal(m.normals.as_ref().unwrap()[0]), [0.0, 0.0, 1.0]);
    assert_eq!(decode_uv(m.uvs.as_ref().unwrap()[3]), [0.0, -1.0]);
    assert_eq!(m.batches[1].material(MaterialField::Lo), 2);
    assert_eq!(m.batches[1].material(MaterialField::Hi), 7);
    assert_eq!(m.triangles.as_ref().unwrap()[0].selector(0), None);
    assert_eq!(m.keys.as_ref().unwrap()[2].translation, [0.0, 0.0, 10.0]);
    assert_eq!(m.frame_count(), 2);
    assert_eq!(m.node_name(0), Some(&b"root"[..]));
    assert_eq!(m.node_name(1), None);
    assert_eq!(m.streams.iter().filter(|s| s.raw.is_some()).count(), 1);
}

#[test]
fn unedited_model_saves_byte_for_byte_and_edits_are_kept() {
    let bytes = fixture();
    let mut m = Msh::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(m.to_bytes().unwrap(), bytes);
    m.positions[0] = [9.0, 8.0, 7.0];
    let edited = Msh::parse(&m.to_bytes().unwrap(), ReadOptions::strict()).unwrap();
    assert_eq!(edited.positions[0], [9.0, 8.0, 7.0]);
    assert_eq!(edited.to_bytes().unwrap(), m.to_bytes().unwrap());
}

#[test]
fn every_truncated_prefix_is_an_error() {
    let bytes = fixture();
    for n in 0..bytes.len() {
        assert!(Msh::parse(&bytes[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
}

fn with(edit: impl FnOnce(&mut Vec<(u32, [u32; 3], Vec<u8>)>)) -> Result<Msh> {
    let mut s = fixture_streams();
    edit(&mut s);
    Msh::parse(&archive(&s), ReadOptions::strict())
}

#[test]
fn malformed_streams_are_located_errors() {
    assert_eq!(rule(with(|s| s.retain(|x| x.0 != 13)).unwrap_err()), "msh_missing_stream");
    assert_eq!(rule(with(|s| s.push((3, [0, 0, 12], vec![0; 12]))).unwrap_err()), "msh_duplicate_stream");
    assert_eq!(rule(with(|s| s[2].2.push(0)).unwrap_err()), "msh_stride");
    assert_eq!(rule(with(|s| s[0].1[2] = 30).unwrap_err()), "msh_node_stride");
    // lying attr1 count on the key stream (strict only)
    assert_eq!(rule(with(|s| s[8].1[0] = 99).unwrap_err()), "msh_attr1_count");
    // index 3 + base 0 fine; make index 9 out of range
    assert_eq!(rule(with(|s| s[6].2[10] = 9).unwrap_err()), "msh_batch_vertex");
    // batch 1 index_start 5 -> 5..8 past 6 indices
    assert_eq!(rule(with(|s| s[5].2[30] = 5).unwrap_err()), "msh_batch_indices");
    // node 1 slot -> 5 (only 2 slots)
    assert_eq!(rule(with(|s| s[0].2[38 + 8] = 5).unwrap_err()), "msh_node_slot");
    // node 0 parent -> 1 (child after parent rule)
    assert_eq!(rule(with(|s| s[0].2[2..4].copy_from_slice(&[1, 0])).unwrap_err()), "msh_node_parent");
    // node 1 fallback key 4 of 4
    assert_eq!(rule(with(|s| s[0].2[38 + 6] = 4).unwrap_err()), "msh_fallback_key");
    // frame map block past the end: map start 1 + 2 frames > 2 entries
    assert_eq!(rule(with(|s| s[0].2[38 + 4] = 1).unwrap_err()), "msh_frame_map");
    // name without NUL terminator
    assert_eq!(rule(with(|s| s[11].2[8] = b'x').unwrap_err()), "msh_name_terminator");
    // 1 name for 2 nodes
    assert_eq!(rule(with(|s| s[11].2.truncate(9)).unwrap_err()), "msh_name_count");
    // slot AABB min > max (strict)
    assert_eq!(
        rule(with(|s| s[1].2[0x8C + 8..0x8C + 12].copy_from_slice(&5f32.to_le_bytes())).unwrap_err()),
        "msh_slot_aabb"
    );
    // index count not a multiple of 3 is strict-only
    let mut s = fixture_streams();
    s[5].2[8] = 2;
    assert_eq!(rule(Msh::parse(&archive(&s), ReadOptions::strict()).unwrap_err()), "msh_batch_index_count");
    assert!(Msh::parse(&archive(&s), ReadOptions::compatible()).is_ok());
}

#[test]
fn short_node_variant_is_copied_through() {
    let mut s = fixture_streams();
    let mut nodes = Vec::new();
    w16(&mut nodes, &[0, 0xFFFF, 0xFFFF, 0, 0, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF]);
    w16(&mut nodes, &[0, 0, 0, 3, 1, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF]);
    s[0] = (1, [2, 0, 24], nodes);
    let bytes = archive(&s);
    let m = Msh::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(m.node_stride, 24);
    assert_eq!(m.nodes[1].slots.len(), 8);
    assert_eq!(m.to_bytes().unwrap(), bytes);
}

mod builder_tests {
    use super::*;
    use proptest::prelude::*;

    pub(crate) fn quad(material: u8, z: f32) -> MeshData {
        MeshData {
            lightmap_uvs: Vec::new(),
            positions: vec![[0.0, 0.0, z], [1.0, 0.0, z], [1.0, 1.0, z], [0.0, 1.0, z]],
            normals: vec![[0.0, 0.0, 1.0]; 4],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
            batches: vec![MeshBatch { material, lightmap: 0, flags: 0, indices: vec![0, 1, 2, 0, 2, 3] }],
        }
    }

    #[test]
    fn built_robot_round_trips_and_validates() {
        let mut b = ModelBuilder::new();
        let body = b.add_node("body", None, 0).unwrap();
        let turret = b.add_node("turret", Some(body), 0x40).unwrap();
        b.set_mesh(body, 0, 0, quad(0, 0.0)).unwrap();
        b.set_mesh(body, 1, 0, quad(0, 0.0)).unwrap();
        b.set_mesh(turret, 0, 0, quad(1, 2.0)).unwrap();
        let rest = AnimKey::new([0.0, 0.0, 1.0], 0.0, [0.0, 0.0, 0.0, 1.0]);
        let track = vec![
            AnimKey::new([0.0; 3], 0.0, [0.0, 0.0, 0.0, 1.0]),
            AnimKey::new([0.0, 0.0, 4.0], 4.0, [0.0, 0.0, 0.0, 1.0]),
        ];
        b.set_animation(turret, NodeAnimation { rest, track }).unwrap();
        assert!(b.add_node("bad", Some(7), 0).is_err());
        let m = b.build().unwrap();
        assert_eq!(m.slots.len(), 3);
        assert_eq!(m.frame_count(), 5);
        assert_eq!(m.frame_map.as_ref().unwrap().len(), 5);
        let bytes = m.to_bytes().unwrap();
        let back = Msh::parse(&bytes, ReadOptions::strict()).unwrap();
        assert_eq!(back.to_bytes().unwrap(), bytes);
        assert_eq!(back.nodes, m.nodes);
        assert_eq!(back.node_name(1), Some(&b"turret"[..]));
        // header bounds cover the turret at its rest height (z 2 + 1)
        let corners = back.header.corners();
        assert_eq!(corners[4][2], 3.0);
        assert_eq!(corners[0][2], 0.0);
    }

    #[test]
    fn builder_rejects_bad_tracks_and_cells() {
        let mut b = ModelBuilder::new();
        let n = b.add_node("n", None, 0).unwrap();
        let k = |t: f32| AnimKey::new([0.0; 3], t, [0.0, 0.0, 0.0, 1.0]);
        assert!(b.set_animation(n, NodeAnimation { rest: k(0.0), track: vec![k(0.0)] }).is_err());
        assert!(b.set_animation(n, NodeAnimation { rest: k(0.0), track: vec![k(0.0), k(0.5)] }).is_err());
        assert!(b.set_animation(n, NodeAnimation { rest: k(0.0), track: vec![k(1.0), k(2.0)] }).is_err());
        assert!(b.set_mesh(n, 3, 0, quad(0, 0.0)).is_err());
        let mut bad = quad(0, 0.0);
        bad.batches[0].indices.push(9);
        assert!(b.set_mesh(n, 0, 0, bad).is_err());
    }

    proptest! {
        #[test]
        fn write_read_write_identity(
            zs in proptest::collection::vec(-100.0f32..100.0, 1..5),
            mats in proptest::collection::vec(0u8..8, 1..5),
            frames in 2u32..6,
        ) {
            let mut b = ModelBuilder::new();
            for (i, z) in zs.iter().enumerate() {
                let n = b.add_node(&format!("n{i}"), i.checked_sub(1), 0).unwrap();
                b.set_mesh(n, 0, i % 5, quad(mats[i % mats.len()], *z)).unwrap();
                let k = |t: f32| AnimKey::new([0.0, 0.0, t], t, [0.0, 0.0, 0.0, 1.0]);
                let track = (0..frames).map(|f| k(f as f32)).collect();
                b.set_animation(n, NodeAnimation { rest: k(0.0), track }).unwrap();
            }
            let bytes = b.build().unwrap().to_bytes().unwrap();
            let back = Msh::parse(&bytes, ReadOptions::strict()).unwrap();
            prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        }
    }
}
