//! One integration test per model/terrain loader: a temporary game tree built with the
//! format crate's writers, loaded through `game://` until settled (bounded), and the
//! axis conversion of `docs/reference/world.md` §1.5.

use crate::axes::{game_rotation, placement, to_bevy};
use crate::tests::{app, settle};
use crate::*;
use bevy_asset::{AssetServer, Assets, Handle, LoadState};
use bevy_image::Image;
use bevy_math::{Mat3, Vec3};
use bevy_mesh::{Mesh, VertexAttributeValues};
use iron3d_formats::model::mat0::{Material, Phase};
use iron3d_formats::model::msh::{AnimKey, MeshBatch, MeshData, ModelBuilder, NodeAnimation};
use iron3d_formats::model::texm::{DecodeOptions, PixelFormat, Texm};
use iron3d_formats::model::wear::Wear;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::world::TerrainBuilder;

const MAT0: u32 = u32::from_le_bytes(*b"MAT0");

/// A tree with `Textures.lib` (CHECKER, 4×4 8888 with mips), `Material.lib` (RED with
/// CHECKER, DEFAULT), `models.lib` (wedge.msh, wedge.wea naming RED and a missing row),
/// a broken model and a 2×2-cell terrain.
fn model_tree(tag: &str) -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("iron3d-models-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("DATA/MAPS/Flat")).unwrap();
    let level = |n: usize, v: u8| (0..n * n).flat_map(|i| [v, (i * 40) as u8, 0, 255]).collect::<Vec<u8>>();
    let texm = Texm::encode(
        4,
        4,
        PixelFormat::Argb8888,
        &[level(4, 200), level(2, 100), level(1, 50)],
        None,
        DecodeOptions::default(),
    )
    .unwrap();
    let mut lib = NresWriter::new();
    lib.add(0, [0; 3], b"CHECKER", texm.to_bytes()).unwrap();
    std::fs::write(root.join("Textures.lib"), lib.to_bytes().unwrap()).unwrap();

    let phase = |tex: &[u8]| Phase::new([10; 4], [255, 0, 0, 255], [0; 4], [0; 4], 0, 0, tex).unwrap();
    let mut lib = NresWriter::new();
    lib.add(MAT0, [0, 6, 0], b"RED", Material::new(0, vec![phase(b"CHECKER")], vec![]).to_bytes().unwrap()).unwrap();
    lib.add(MAT0, [0, 6, 0], b"DEFAULT", Material::new(0, vec![phase(b"")], vec![]).to_bytes().unwrap()).unwrap();
    std::fs::write(root.join("Material.lib"), lib.to_bytes().unwrap()).unwrap();

    let mut b = ModelBuilder::new();
    let node = b.add_node("hull", None, 0).unwrap();
    let mesh = MeshData {
        lightmap_uvs: Vec::new(),
        positions: vec![[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0]],
        normals: vec![[0.0, 0.0, 1.0]; 4],
        uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        batches: vec![
            MeshBatch { material: 0, lightmap: 0, flags: 0, indices: vec![0, 1, 2] },
            MeshBatch { material: 1, lightmap: 0, flags: 2, indices: vec![0, 1, 3, 0, 3, 2] },
        ],
    };
    b.set_mesh(node, 0, 0, mesh).unwrap();
    let rest = AnimKey::new([0.0, 0.0, 0.0], 0.0, [0.0, 0.0, 0.0, 1.0]);
    b.set_animation(node, NodeAnimation { rest, track: vec![] }).unwrap();
    let wear = Wear::new(&[b"RED", b"NO_SUCH"], &[]).unwrap();
    let mut lib = NresWriter::new();
    lib.add(0, [0; 3], b"wedge.msh", b.build().unwrap().to_bytes().unwrap()).unwrap();
    lib.add(0, [0; 3], b"tower.msh", tower().to_bytes().unwrap()).unwrap();
    lib.add(0, [0; 3], b"levels.msh", levels().to_bytes().unwrap()).unwrap();
    lib.add(0, [0; 3], b"broken.msh", b"NRes".to_vec()).unwrap();
    lib.add(0, [0; 3], b"wedge.wea", wear.to_bytes()).unwrap();
    std::fs::write(root.join("models.lib"), lib.to_bytes().unwrap()).unwrap();

    let land = TerrainBuilder::height_field(2, 2, 10.0, |x, _| x * 0.5).unwrap();
    std::fs::write(root.join("DATA/MAPS/Flat/Land.msh"), land.to_bytes().unwrap()).unwrap();
    root
}

/// Two nodes: a base and, 2 up, a head at rest turned +90° about Z (stored
/// quaternion), animated over 4 frames from 0° to 180°.
fn tower() -> iron3d_formats::model::msh::Msh {
    let mut b = ModelBuilder::new();
    let base = b.add_node("base", None, 0).unwrap();
    let head = b.add_node("head", Some(base), 0).unwrap();
    let square = |z: f32| MeshData {
        lightmap_uvs: Vec::new(),
        positions: vec![[0.0, 0.0, z], [1.0, 0.0, z], [1.0, 1.0, z]],
        normals: vec![[0.0, 0.0, 1.0]; 3],
        uvs: vec![[0.0, 0.0]; 3],
        batches: vec![MeshBatch { material: 0, lightmap: 0, flags: 0, indices: vec![0, 1, 2] }],
    };
    b.set_mesh(base, 0, 0, square(0.0)).unwrap();
    b.set_mesh(head, 0, 0, square(0.5)).unwrap();
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let key = |t: f32, q: [f32; 4]| AnimKey::new([0.0, 0.0, 2.0], t, q);
    b.set_animation(base, NodeAnimation { rest: AnimKey::new([0.0; 3], 0.0, [0.0, 0.0, 0.0, 1.0]), track: vec![] })
        .unwrap();
    let track = vec![key(0.0, [0.0, 0.0, 0.0, 1.0]), key(4.0, [0.0, 0.0, 1.0, 0.0])];
    b.set_animation(head, NodeAnimation { rest: key(0.0, [0.0, 0.0, s, s]), track }).unwrap();
    b.build().unwrap()
}

/// One node with geometry at slot rows 0 (two triangles) and 1 (one), none at row 2.
fn levels() -> iron3d_formats::model::msh::Msh {
    let mut b = ModelBuilder::new();
    let node = b.add_node("hull", None, 0).unwrap();
    let mesh = |indices: Vec<u16>| MeshData {
        lightmap_uvs: Vec::new(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 4],
        uvs: vec![[0.0, 0.0]; 4],
        batches: vec![MeshBatch { material: 0, lightmap: 0, flags: 0, indices }],
    };
    b.set_mesh(node, 0, 0, mesh(vec![0, 1, 2, 1, 3, 2])).unwrap();
    b.set_mesh(node, 1, 0, mesh(vec![0, 1, 2])).unwrap();
    b.build().unwrap()
}

fn load<A: bevy_asset::Asset>(app: &bevy_app::App, path: &str) -> Handle<A> {
    app.world().resource::<AssetServer>().load(path.to_string())
}

pub(crate) fn positions(mesh: &Mesh) -> Vec<[f32; 3]> {
    match mesh.attribute(Mesh::ATTRIBUTE_POSITION) {
        Some(VertexAttributeValues::Float32x3(p)) => p.clone(),
        other => panic!("positions: {other:?}"),
    }
}

#[test]
fn msh_loader_builds_one_mesh_per_material_in_bevy_axes() {
    let root = model_tree("msh");
    let mut app = app(&root);
    let handle: Handle<MshAsset> = load(&app, "game://MODELS.LIB::Wedge.msh");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let model = app.world().resource::<Assets<MshAsset>>().get(&handle).unwrap().clone();
    let parts: Vec<&MshPart> = model.parts().collect();
    assert_eq!(
        parts.iter().map(|p| (p.material, p.triangles, p.two_sided)).collect::<Vec<_>>(),
        [(0, 1, false), (1, 2, true)]
    );
    let meshes = app.world().resource::<Assets<Mesh>>();
    let first = positions(meshes.get(&parts[0].mesh).unwrap());
    // Game (2, 0, 0) stays on +X, game (0, 1, 0) (ground, "north") becomes Bevy −Z.
    assert_eq!(first, [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, -1.0]]);
    // Game height (0, 0, 3) becomes Bevy +Y.
    assert!(positions(meshes.get(&parts[1].mesh).unwrap()).contains(&[0.0, 3.0, 0.0]));
    let broken: Handle<MshAsset> = load(&app, "game://models.lib::broken.msh");
    let LoadState::Failed(e) = settle(&mut app, &broken) else { panic!("must fail") };
    assert!(e.to_string().contains("broken.msh"), "{e}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn msh_loader_keeps_the_node_hierarchy_with_local_meshes_and_poses() {
    let root = model_tree("nodes");
    let mut app = app(&root);
    let handle: Handle<MshAsset> = load(&app, "game://models.lib::tower.msh");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let model = app.world().resource::<Assets<MshAsset>>().get(&handle).unwrap().clone();
    let shape: Vec<_> = model.nodes.iter().map(|n| (n.name.as_str(), n.parent, n.parts.len())).collect();
    assert_eq!(shape, [("base", None, 1), ("head", Some(0), 1)]);
    assert!(model.posed);
    // The head's mesh stays node-local (game z 0.5 → Bevy y 0.5); its rest pose lifts it
    // 2 up (Bevy +Y) and turns it −90° about game Z (conjugate sense) = about Bevy +Y.
    let meshes = app.world().resource::<Assets<Mesh>>();
    assert_eq!(positions(meshes.get(&model.nodes[1].parts[0].mesh).unwrap())[1], [1.0, 0.5, 0.0]);
    let rest = model.nodes[1].rest;
    assert_close(rest.translation, [0.0, 2.0, 0.0]);
    // Game +X turned −90° about game Z is game −Y = Bevy +Z.
    assert_close(rest.rotation * Vec3::X, to_bevy([0.0, -1.0, 0.0]));
    // Sampled halfway (frame 2): 90° of the 180° track.
    assert_close(model.pose(1, 2.0).rotation * Vec3::X, to_bevy([0.0, -1.0, 0.0]));
    assert_close(model.pose(1, 0.0).rotation * Vec3::X, [1.0, 0.0, 0.0]);
    assert_close(model.pose(1, 99.0).rotation * Vec3::X, to_bevy([0.0, -1.0, 0.0]));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn texm_loader_decodes_rgba_with_mips_through_the_hint() {
    let root = model_tree("texm");
    let mut app = app(&root);
    let handle: Handle<Image> = load(&app, "game://textures.lib::checker.texm");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let images = app.world().resource::<Assets<Image>>();
    let image = images.get(&handle).unwrap();
    assert_eq!((image.width(), image.height(), image.texture_descriptor.mip_level_count), (4, 4, 3));
    let data = image.data.as_ref().unwrap();
    assert_eq!(data.len(), (16 + 4 + 1) * 4);
    assert_eq!(&data[..4], &[200, 0, 0, 255], "first texel of the base level");
    let missing: Handle<Image> = load(&app, "game://textures.lib::nothing.texm");
    assert!(matches!(settle(&mut app, &missing), LoadState::Failed(_)));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn wear_and_mat0_loaders_resolve_materials_with_fallback_and_textures() {
    let root = model_tree("wear");
    let mut app = app(&root);
    let handle: Handle<WearAsset> = load(&app, "game://models.lib::wedge.wea");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    for _ in 0..500 {
        if app.world().resource::<AssetServer>().is_loaded_with_dependencies(&handle) {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(app.world().resource::<AssetServer>().is_loaded_with_dependencies(&handle));
    let wear = app.world().resource::<Assets<WearAsset>>().get(&handle).unwrap().clone();
    let mats = app.world().resource::<Assets<Mat0Asset>>();
    let names: Vec<&str> = wear.materials.iter().map(|h| mats.get(h).unwrap().name.as_str()).collect();
    assert_eq!(names, ["RED", "DEFAULT"], "a missing row falls back to DEFAULT");
    let red = mats.get(&wear.materials[0]).unwrap();
    assert_eq!(red.material.phases[0].colors().diffuse, [1.0, 0.0, 0.0, 1.0]);
    assert!(red.textures[0].is_some() && mats.get(&wear.materials[1]).unwrap().textures[0].is_none());
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_read_mode_is_a_loader_setting_strict_rejects_a_quirk_compatible_accepts() {
    // wedge.wea names NO_SUCH, which only the `material_fallback` quirk resolves.
    let path = "game://models.lib::wedge.wea";
    let root = model_tree("read-mode");
    let load_as = |app: &bevy_app::App, quirk: Option<bool>| -> Handle<WearAsset> {
        app.world()
            .resource::<AssetServer>()
            .load_builder()
            .with_settings(move |s: &mut ReadSettings| {
                *s = ReadSettings::strict();
                s.quirks.material_fallback = quirk;
            })
            .load(path)
    };
    let mut strict_app = app(&root);
    let strict = load_as(&strict_app, None);
    match settle(&mut strict_app, &strict) {
        LoadState::Failed(e) => assert!(e.to_string().contains("NO_SUCH"), "{e}"),
        other => panic!("a strict load of a quirky WEAR must fail: {other:?}"),
    }
    let mut quirk_app = app(&root);
    let one_quirk = load_as(&quirk_app, Some(true));
    assert!(matches!(settle(&mut quirk_app, &one_quirk), LoadState::Loaded), "strict with the one quirk switched on");
    let mut compatible_app = app(&root);
    let compatible: Handle<WearAsset> = load(&compatible_app, path);
    assert!(matches!(settle(&mut compatible_app, &compatible), LoadState::Loaded), "compatible is the default");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn land_loader_groups_faces_by_selector_in_bevy_axes() {
    let root = model_tree("land");
    let mut app = app(&root);
    let handle: Handle<LandAsset> = load(&app, "game://data/maps/flat/land.msh");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let land = app.world().resource::<Assets<LandAsset>>().get(&handle).unwrap().clone();
    let faces: usize = land.layers.iter().map(|l| l.faces).sum();
    assert_eq!(faces, land.land.faces.len());
    assert_eq!(land.bounds[0][2], 0.0);
    let meshes = app.world().resource::<Assets<Mesh>>();
    let p = positions(meshes.get(&land.layers[0].mesh).unwrap());
    // Height (game Z = x / 2) is Bevy Y.
    assert!(p.iter().all(|v| (v[1] - v[0] * 0.5).abs() < 1e-5), "{p:?}");
    let _ = std::fs::remove_dir_all(root);
}

fn assert_close(a: Vec3, b: [f32; 3]) {
    assert!((a - Vec3::from(b)).length() < 1e-4, "{a:?} vs {b:?}");
}

/// Game-space image of `p_local` by the spec's formula, computed by hand from the
/// Rz·Ry·Rx matrices (not through glam's quaternions).
fn spec_world(position: [f32; 3], o: [f32; 3], scale: [f32; 3], p: [f32; 3]) -> [f32; 3] {
    let (sx, cx, sy, cy, sz, cz) = (o[0].sin(), o[0].cos(), o[1].sin(), o[1].cos(), o[2].sin(), o[2].cos());
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    let mul = |m: [[f32; 3]; 3], v: [f32; 3]| [0, 1, 2].map(|r| m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2]);
    let s = [p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]];
    let r = mul(rz, mul(ry, mul(rx, s)));
    [0, 1, 2].map(|i| position[i] + r[i])
}

#[test]
fn placement_maps_local_axes_like_the_spec() {
    // The spec's example: a pure yaw of 1.6262363 rad.
    let m = Mat3::from_quat(game_rotation([0.0, 0.0, 1.6262363]));
    assert!((m.y_axis.x - -0.99846).abs() < 1e-4 && (m.x_axis.x - -0.05541).abs() < 1e-4, "{m:?}");
    let triples = [
        [0.0, 0.0, 1.6262363],
        [0.3, 0.0, 0.0],
        [0.0, -0.7, 0.0],
        [0.4, 1.1, -2.5],
        [std::f32::consts::FRAC_PI_2, 0.0, std::f32::consts::FRAC_PI_2],
    ];
    for o in triples {
        let (position, scale) = ([100.0, 200.0, 5.0], [1.0, 2.0, 3.0]);
        let (t, r, s) = placement(position, o, scale);
        let xf = bevy_transform::components::Transform { translation: t, rotation: r, scale: s };
        for axis in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.5, -2.0, 0.25]] {
            let bevy = xf.transform_point(Vec3::from(to_bevy(axis)));
            assert_close(bevy, to_bevy(spec_world(position, o, scale, axis)));
        }
    }
    // Yaw +90°: the model's +X (its "forward" in the test scene) points at game +Y,
    // i.e. Bevy −Z; its height stays Bevy +Y.
    let (_, r, _) = placement([0.0; 3], [0.0, 0.0, std::f32::consts::FRAC_PI_2], [1.0; 3]);
    assert_close(r * Vec3::X, [0.0, 0.0, -1.0]);
    assert_close(r * Vec3::Y, [0.0, 1.0, 0.0]);
    // Roll +90° about game X: the model's game +Y (left) points up.
    let (_, r, _) = placement([0.0; 3], [std::f32::consts::FRAC_PI_2, 0.0, 0.0], [1.0; 3]);
    assert_close(r * Vec3::from(to_bevy([0.0, 1.0, 0.0])), [0.0, 1.0, 0.0]);
}

#[test]
fn msh_loader_builds_the_coarser_levels_and_the_model_merged_at_rest() {
    let root = model_tree("levels");
    let mut app = app(&root);
    let handle: Handle<MshAsset> = load(&app, "game://models.lib::levels.msh");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let model = app.world().resource::<Assets<MshAsset>>().get(&handle).unwrap().clone();
    let node = &model.nodes[0];
    assert_eq!(node.parts[0].triangles, 2);
    // Row 1 is present, row 2 is not (that level keeps row 1).
    assert_eq!(node.coarser.iter().map(|l| (l.level, l.parts[0].triangles)).collect::<Vec<_>>(), [(1, 1)]);
    assert_eq!(model.merged.iter().map(|l| l[0].triangles).collect::<Vec<_>>(), [2, 1]);
    // Merged at rest, the tower's head stands 2 up and turned as its rest pose says:
    // node-local (1, 0, 0.5) turned to game (0, -1, 0.5), lifted to (0, -1, 2.5).
    let tower: Handle<MshAsset> = load(&app, "game://models.lib::tower.msh");
    assert!(matches!(settle(&mut app, &tower), LoadState::Loaded));
    let tower = app.world().resource::<Assets<MshAsset>>().get(&tower).unwrap().clone();
    assert!(tower.nodes.iter().all(|n| n.coarser.is_empty()), "no coarser rows");
    let meshes = app.world().resource::<Assets<Mesh>>();
    let merged = positions(meshes.get(&tower.merged[0][0].mesh).unwrap());
    assert_eq!(merged.len(), 6, "both nodes in one part");
    let head = Vec3::from(to_bevy([0.0, -1.0, 2.5]));
    assert!(merged.iter().any(|p| Vec3::from(*p).distance(head) < 1e-5), "{merged:?}");
    let _ = std::fs::remove_dir_all(root);
}
