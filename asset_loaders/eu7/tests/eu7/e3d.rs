//! E3D reader against a hand-built model and the generator's models.

use crate::bytes::B;
use iron3d_eu7::e3d::E3dModel;

fn sub(kind: i32, vertex_count: i32, texture: i32, index_count: i32) -> B {
    let mut b = B::new().i32(-1).i32(-1).i32(kind).i32(0).i32(0).u32(0x10).i32(0).i32(vertex_count).i32(0).i32(texture);
    b = b.raw(&[0; 4]).f32(0.0); // unused, light threshold
    b = b.f32(0.1).f32(0.1).f32(0.1).f32(1.0); // ambient at 48
    b = b.f32(0.9).f32(0.8).f32(0.7).f32(1.0); // diffuse at 64
    b = b.raw(&[0; 156 - 80]).i32(index_count).i32(0).f32(1.0);
    assert_eq!(b.len(), 168);
    b.raw(&[0xAB; 256 - 168])
}

fn model(vnt: B, vnt_id: &[u8; 4]) -> Vec<u8> {
    let mut tra = B::new();
    for k in 0..16 {
        tra = tra.f32(if k % 5 == 0 {
            1.0
        } else if k == 12 {
            7.0
        } else {
            0.0
        });
    }
    let body = B::new()
        .chunk(b"SUB0", sub(4, 3, -1, 3))
        .chunk(vnt_id, vnt)
        .chunk(b"IDX2", B::new().u16(2).u16(1).u16(0))
        .chunk(b"TRA0", tra)
        .chunk(b"TEX0", B::new().raw(b"\0brick\0"))
        .chunk(b"NAM0", B::new().raw(b"body\0"))
        .chunk(b"XTRA", B::new().raw(&[1, 2]));
    B::new().chunk(b"E3D0", body).0
}

#[test]
fn hand_built_vnt0_model() {
    let mut vnt = B::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        vnt = vnt.v3(p[0], p[1], p[2]).v3(0.0, 0.0, 1.0).f32(p[0]).f32(p[1]);
    }
    let m = E3dModel::read(&model(vnt, b"VNT0"), Some("a.e3d"));
    let m = match m {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(m.submodels.len(), 1);
    let s = &m.submodels[0];
    assert_eq!((s.kind, s.vertex_count, s.index_count, s.diffuse), (4, 3, 3, [0.9, 0.8, 0.7, 1.0]));
    assert_eq!(s.skin_slot(), Some(1));
    assert_eq!(m.texture_of(0, b"skin1"), b"skin1");
    assert_eq!(m.textures, vec![b"".to_vec(), b"brick".to_vec()]);
    assert_eq!(m.names, vec![b"body".to_vec()]);
    assert_eq!(m.matrices[0][12], 7.0, "column-major translation at element 12");
    assert_eq!(m.indices, vec![2, 1, 0]);
    let tris = m.triangles(0);
    assert_eq!(tris.len(), 1);
    assert_eq!(tris[0][0].position, [0.0, 1.0, 0.0], "indices select vertices");
    assert_eq!(m.other.len(), 1, "unknown chunk kept");
    assert_eq!(s.raw.len(), 256);
}

#[test]
fn hand_built_vnt1_half_vertices() {
    let mut vnt = B::new();
    for (x, y) in [(0x0000u16, 0x0000u16), (0x3C00, 0x0000), (0x0000, 0x4000)] {
        // half position x y z w, normal 10-10-10-2 (0, 0, 511), half uv, tangent
        vnt = vnt.u16(x).u16(y).u16(0).u16(0x3C00).u32(511 << 20).u16(0x3800).u16(0).u32(0);
    }
    let m = E3dModel::read(&model(vnt, b"VNT1"), None).ok();
    let v = m.map(|m| m.vertices).unwrap_or_default();
    assert_eq!(v.len(), 3);
    assert_eq!(v[2].position, [0.0, 2.0, 0.0]);
    assert_eq!(v[0].normal, [0.0, 0.0, 1.0]);
    assert_eq!(v[1].uv, [0.5, 0.0]);
}

#[test]
fn e3d_truncations_and_bad_ranges_fail() {
    let mut vnt = B::new();
    for _ in 0..3 {
        vnt = vnt.raw(&[0; 32]);
    }
    let full = model(vnt, b"VNT0");
    for n in 0..full.len() {
        assert!(E3dModel::read(&full[..n], None).is_err(), "prefix {n}");
    }
    // Vertex count beyond VNT.
    let bad =
        B::new().chunk(b"E3D0", B::new().chunk(b"SUB0", sub(4, 9, 0, 0)).chunk(b"VNT0", B::new().raw(&[0; 32]))).0;
    assert!(E3dModel::read(&bad, None).is_err());
    assert!(E3dModel::read(b"E3D1\x08\0\0\0", None).is_err());
}

#[test]
fn generated_models_read_back() {
    for (path, bytes) in iron3d_eu7::generate::models(3) {
        let m = E3dModel::read(&bytes, Some(&path)).ok();
        assert_eq!(m.map(|m| m.triangles(0).len()), Some(4), "{path}: a four-sided pyramid");
    }
}
