//! build_mesh on the hand-built MSH fixture: both disputed readings, poses, sampling.

use super::*;
use crate::model::msh::Msh;
use crate::options::ReadOptions;

fn model() -> Msh {
    Msh::parse(&crate::model::msh::tests::fixture(), ReadOptions::strict()).unwrap()
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() < 1e-3)
}

#[test]
fn material_field_switch_groups_batches_differently() {
    let m = model();
    let lo = build_mesh(&m, 0, 0, Pose::Unposed, MeshOptions::default()).unwrap();
    assert_eq!(lo.parts.iter().map(|p| p.material).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(lo.triangle_count(), 2);
    assert!(lo.parts[0].two_sided);
    let hi =
        build_mesh(&m, 0, 0, Pose::Unposed, MeshOptions { material_field: MaterialField::Hi, ..Default::default() })
            .unwrap();
    assert_eq!(hi.parts.len(), 1);
    assert_eq!(hi.parts[0].material, 7);
    assert_eq!(hi.parts[0].indices.len(), 6);
}

#[test]
fn rest_pose_applies_fallback_key_in_both_quaternion_senses() {
    let m = model();
    // node 1 fallback: translate (5,0,0), stored quaternion = +90 degrees about Z.
    // Its batch uses vertices 0, 2, 3; vertex 2 (1,1,0) is the second part's vertex range 0..=3.
    let conj = build_mesh(&m, 0, 0, Pose::Rest, MeshOptions::default()).unwrap();
    let p = &conj.parts[1];
    // vertex (1,0,0) (index 1 of range 0..=3) rotated by -90 degrees -> (0,-1,0) + (5,0,0)
    assert!(close(p.positions[1], [5.0, -1.0, 0.0]), "{:?}", p.positions[1]);
    let direct =
        build_mesh(&m, 0, 0, Pose::Rest, MeshOptions { quaternion: QuaternionSense::Direct, ..Default::default() })
            .unwrap();
    assert!(close(direct.parts[1].positions[1], [5.0, 1.0, 0.0]), "{:?}", direct.parts[1].positions[1]);
    // normals rotate too but (0,0,1) is on the axis
    assert!(close(p.normals[0], [0.0, 0.0, 1.0]));
    // node 0 keeps its geometry (identity key)
    assert!(close(conj.parts[0].positions[1], [1.0, 0.0, 0.0]));
    assert_eq!(conj.parts[0].uvs[1], [1.0, 0.0]);
}

#[test]
fn sampled_frames_interpolate_mapped_keys_and_fall_back_outside() {
    let m = model();
    let s = QuaternionSense::default();
    assert!(close(sample_node(&m, 1, 0.5, s).unwrap().translation, [0.0, 0.0, 5.0]));
    // t == k1.time returns the key exactly (frame round_even(0.5) = 0 -> key 1, k1 = key 2)
    assert!(close(sample_node(&m, 1, 1.0, s).unwrap().translation, [0.0, 0.0, 10.0]));
    // beyond the frame count: fallback key
    assert!(close(sample_node(&m, 1, 7.0, s).unwrap().translation, [5.0, 0.0, 0.0]));
    assert!(close(sample_node(&m, 1, -3.0, s).unwrap().translation, [5.0, 0.0, 0.0]));
    // node without a map always uses its fallback key
    assert!(close(sample_node(&m, 0, 0.5, s).unwrap().translation, [0.0; 3]));
    let built = build_mesh(&m, 0, 0, Pose::Frame(0.5), MeshOptions::default()).unwrap();
    assert!(close(built.parts[1].positions[0], [0.0, 0.0, 5.0]));
}

#[test]
fn hierarchy_composes_parent_first_and_rejects_bad_parents() {
    let parent = Transform { translation: [1.0, 0.0, 0.0], rotation: [0.0, 0.0, 0.5f32.sqrt(), 0.5f32.sqrt()] };
    let child = Transform { translation: [1.0, 0.0, 0.0], rotation: [0.0, 0.0, 0.0, 1.0] };
    let g = parent.then(&child);
    assert!(close(g.translation, [1.0, 1.0, 0.0]));
    let m4 = g.matrix();
    assert!((m4[3] - 1.0).abs() < 1e-6 && (m4[7] - 1.0).abs() < 1e-6 && m4[15] == 1.0);
    let mut m = model();
    m.nodes[0].parent = 1; // parent after child: whole pose falls back to unposed
    assert_eq!(node_transforms(&m, Pose::Rest, QuaternionSense::default()), vec![Transform::IDENTITY; 2]);
}

#[test]
fn shortest_path_blend_negates_the_far_quaternion() {
    let q = blend_quat([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -1.0], 0.5);
    assert!((q[3].abs() - 1.0).abs() < 1e-6);
}

#[test]
fn missing_normals_use_face_normals_and_cells_are_checked() {
    let mut m = model();
    m.normals = None;
    let built = build_mesh(&m, 0, 0, Pose::Unposed, MeshOptions::default()).unwrap();
    assert_eq!(built.parts[0].positions.len(), 3);
    assert!(close(built.parts[0].normals[0], [0.0, 0.0, 1.0]));
    assert!(build_mesh(&m, 3, 0, Pose::Unposed, MeshOptions::default()).is_err());
    let empty = build_mesh(&m, 0, 1, Pose::Unposed, MeshOptions::default()).unwrap();
    assert!(empty.parts.is_empty());
    let fb = build_mesh(&m, 0, 1, Pose::Unposed, MeshOptions { slot_fallback: true, ..Default::default() }).unwrap();
    assert_eq!(fb.triangle_count(), 2);
}

#[test]
fn node_meshes_are_node_local_and_pose_to_the_baked_mesh() {
    let m = model();
    let nodes = build_node_meshes(&m, 0, 0, MeshOptions::default()).unwrap();
    assert_eq!(nodes.len(), 2);
    // node 1's part is stored untransformed; its global rest transform gives the baked result
    let local = &nodes[1][0];
    assert!(close(local.positions[1], [1.0, 0.0, 0.0]), "{:?}", local.positions[1]);
    let rest = node_transforms(&m, Pose::Rest, QuaternionSense::default());
    let baked = build_mesh(&m, 0, 0, Pose::Rest, MeshOptions::default()).unwrap();
    for (p, b) in local.positions.iter().zip(&baked.parts[1].positions) {
        assert!(close(rest[1].apply(*p), *b));
    }
    assert!(build_node_meshes(&m, 0, 7, MeshOptions::default()).is_err());
    assert!(hierarchy_valid(&m));
    let mut bad = m.clone();
    bad.nodes[0].parent = 1;
    assert!(!hierarchy_valid(&bad));
}

#[test]
fn lightmap_coordinates_come_from_stream_15_for_flagged_batches_only() {
    use crate::model::msh::{LIGHTMAP_FLAG, MeshBatch, MeshData, ModelBuilder};
    let mut b = ModelBuilder::new();
    let node = b.add_node("wall", None, 0).unwrap();
    let mesh = MeshData {
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 3],
        uvs: vec![[0.0; 2]; 3],
        lightmap_uvs: vec![[0.0, 0.0], [0.5, 0.25], [0.0, 1.0]],
        batches: vec![
            MeshBatch { material: 0, lightmap: 0, flags: LIGHTMAP_FLAG, indices: vec![0, 1, 2] },
            MeshBatch { material: 0, lightmap: 0, flags: 0, indices: vec![0, 2, 1] },
        ],
    };
    b.set_mesh(node, 0, 0, mesh).unwrap();
    let m = Msh::parse(&b.build().unwrap().to_bytes().unwrap(), ReadOptions::strict()).unwrap();
    assert_eq!(m.lightmap_uv(1), Some([0.5, 0.25]));
    let on = MeshOptions { lightmap_uv: true, ..Default::default() };
    let parts = build_mesh(&m, 0, 0, Pose::Unposed, on).unwrap().parts;
    assert_eq!(
        parts.iter().map(|p| (p.lightmapped, p.lightmap_uvs.len())).collect::<Vec<_>>(),
        [(true, 3), (false, 0)]
    );
    assert_eq!(parts[0].lightmap_uvs[1], [0.5, 0.25]);
    let off = build_mesh(&m, 0, 0, Pose::Unposed, MeshOptions::default()).unwrap().parts;
    assert_eq!(off.len(), 1, "without the reading both batches share one part");
    let mut short = m.clone();
    short.positions.push([0.0; 3]);
    assert_eq!(short.lightmap_uv(0), None, "a stream 15 not covering every vertex is not read");
}
