//! The canonical writer against hand-built expected bytes: chunk order, interning order,
//! flag recomputation, batched terrain, half/snorm encoding, PACK sectioning.

use crate::bytes::{B, header, read_back};
use iron3d_eu7::canonical::{PackOptions, PackOptionsEq, Scene};
use iron3d_eu7::logic::MemCell;
use iron3d_eu7::model::ModelRecord;
use iron3d_eu7::node::{PackedVertex, SlimNode, TaggedLighting};
use iron3d_eu7::shape::{LineShape, Shape};
use iron3d_eu7::track::{Track, TrackVisibility};
use iron3d_eu7::{SectionFormat, SectionIndex, Sid};

fn small_scene() -> Scene {
    let tri = |uv: [f32; 2]| {
        vec![
            PackedVertex::from_floats([0.0, 0.0, 0.0], [0.0, -1.0, 0.0], uv),
            PackedVertex::from_floats([2.0, 0.0, 0.0], [0.0, -1.0, 0.0], uv),
            PackedVertex::from_floats([1.0, 0.0, -3.0], [0.0, -1.0, 0.0], uv),
        ]
    };
    Scene {
        strings: vec![b"rail".to_vec(), b"t1".to_vec(), b"grass".to_vec(), b"unused".to_vec()],
        tracks: vec![Track {
            // Non-canonical raw flags: bit 7 set; the writer recomputes them.
            node: SlimNode { flags: 0x81, name: Sid(1), ..SlimNode::default() },
            track_type: 1,
            category: 1,
            has_visibility: 1,
            visibility: TrackVisibility { material1: Sid(0), material2: Sid::EMPTY, ..TrackVisibility::default() },
            ..Track::default()
        }],
        shapes: vec![Shape {
            material: Sid(2),
            lighting: TaggedLighting::default(),
            vertices: tri([1.9999, 0.49999]),
            ..Shape::default()
        }],
        memcells: vec![MemCell {
            node: SlimNode::default(),
            text: Sid(1),
            value1: 0.0,
            value2: 0.0,
            track_name: Sid::EMPTY,
        }],
        first_init: 3,
        ..Scene::default()
    }
}

#[test]
fn canonical_bytes_of_a_small_scene() {
    let got = small_scene().write().unwrap_or_default();
    // STRS in first-use order: track name "t1", track material "rail", terrain "grass";
    // the memory cell's "t1" reuses id 0 and "unused" is dropped.
    let strs = B::new().u32(3).u32(2).raw(b"t1").u32(4).raw(b"rail").u32(5).raw(b"grass");
    let trak = B::new()
        .u32(1)
        .u8(0x01)
        .u32(0) // flags recomputed: name only
        .u8(1)
        .u8(1)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(0)
        .u32(0)
        .u8(0)
        .u8(1)
        .u32(1)
        .f32(0.0)
        .u32(0xFFFF_FFFF)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(0)
        .u32(0);
    // Centroid (1, 0, -1): sx = floor(0.001 + 250) = 250, sz = floor(-0.001 + 250) = 249.
    let mut terr = B::new().u8(4).u32(2).u32(1).u32(250).u32(249).u32(3);
    for p in [[0.0f32, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.0, -3.0]] {
        // normal (0, -1, 0) -> 0x8001; uv 1.9999 -> 0x3C00 and 0.49999 -> 0x3400 (quirk).
        terr = terr.v3(p[0], p[1], p[2]).u16(0).u16(0x8001).u16(0).u16(0x3C00).u16(0x3400);
    }
    let memc = B::new().u32(1).u8(0).u32(0).f32(0.0).f32(0.0).u32(0xFFFF_FFFF);
    let want = header(6)
        .chunk(b"STRS", strs)
        .chunk(b"INCL", B::new().u32(0))
        .chunk(b"TRAK", trak)
        .chunk(b"TERR", terr)
        .chunk(b"MEMC", memc)
        .chunk(b"FINT", B::new().u32(3));
    assert_eq!(got, want.0);
    // And the result is a fixed point of read -> scene -> canonical write.
    let m = read_back(&got);
    let again = Scene::from_module(&m).and_then(|s| s.write()).unwrap_or_default();
    assert_eq!(again, got);
}

#[test]
fn non_terrain_shape_forces_mesh_and_plac_lines_models_order() {
    let mut s = small_scene();
    s.shapes.push(Shape {
        subtype: 2,
        material: Sid(2),
        vertices: vec![PackedVertex::default(); 3],
        ..Shape::default()
    });
    s.lines.push(LineShape { line_width: 1.0, ..LineShape::default() });
    s.models.push(ModelRecord { model_file: Sid(3), scale: [1.0; 3], ..ModelRecord::default() });
    s.placement = [0, 0, 0, 1];
    let m = read_back(&s.write().unwrap_or_default());
    let order: Vec<String> = m.chunks.iter().map(|c| String::from_utf8_lossy(&c.id).into_owned()).collect();
    assert_eq!(order, ["STRS", "INCL", "PLAC", "TRAK", "MESH", "LINE", "MODL", "MEMC", "FINT"]);
    assert_eq!(m.version, 6);
}

#[test]
fn pack_sectioning_prototypes_and_order() {
    let model = |file: u32, x: f32, z: f32, lit: bool| ModelRecord {
        node: SlimNode { flags: 0x08, radius: 1.0, ..SlimNode::default() },
        transition: 1,
        location: [x, 0.0, z],
        scale: [1.0; 3],
        model_file: Sid(file),
        texture_file: Sid::EMPTY,
        light_states: if lit { vec![1.0] } else { Vec::new() },
        ..ModelRecord::default()
    };
    let scene = Scene {
        strings: vec![b"lamp.e3d".to_vec(), b"tree.e3d".to_vec()],
        // Section (250, 250) has centre (500, 500): the tree at (600, 600) is 141 m away, the one at (100, 100) 566 m.
        models: vec![
            model(1, 100.0, 100.0, false),
            model(0, 500.0, 500.0, true),
            model(1, 600.0, 600.0, false),
            model(1, -10.0, 5.0, false),
        ],
        pack: Some(PackOptionsEq(PackOptions { format: SectionFormat::V8, resolve_texture: None })),
        ..Scene::default()
    };
    let m = read_back(&scene.write().unwrap_or_default());
    assert_eq!(m.version, 9);
    // Pack-model strings in input order: "tree.e3d" first, then "lamp.e3d".
    assert_eq!(m.strings(), &[b"tree.e3d".to_vec(), b"lamp.e3d".to_vec()]);
    // Sections sorted by Z then X: (250, 249) holds the model at x = -10 first.
    let pidx = m.pidx();
    assert_eq!(
        pidx.iter().map(|e| (e.row, e.column, e.model_count)).collect::<Vec<_>>(),
        vec![(250, 249, 1), (250, 250, 3)]
    );
    // "tree" occurs three times in total -> one prototype, pack_flags 2 (transition set).
    assert_eq!(m.prototypes().len(), 1);
    assert_eq!(m.prototypes()[0].tail.map(|t| (t.pack_flags, t.baked_range_max)), Some((2, -1.0)));
    let index = SectionIndex::new(&m).unwrap_or_default();
    let sec = index.decode(&m, 1, true).ok();
    let sec = sec.as_ref();
    // Lit lamp is solo; the trees are instances ordered by distance to the centre.
    assert_eq!(sec.map(|s| (s.format, s.solo.len(), s.inst.len())), Some((SectionFormat::V8, 1, 2)));
    assert_eq!(sec.map(|s| [s.inst[0].location[0], s.inst[1].location[0]]), Some([600.0, 100.0]));
    let lone = index.decode(&m, 0, true).ok();
    assert_eq!(lone.map(|s| s.inst.len()), Some(1), "prototype shared across sections");
}
