//! The terrain loader's overlays (reading A of `docs/reference/world.md` §2.4): faces grouped by high
//! selector, drawn again over their base layer, fading out at their border.

use crate::model_tests::positions;
use crate::tests::{app, settle};
use crate::*;
use bevy_asset::{AssetServer, Assets, Handle, LoadState};
use bevy_mesh::{Mesh, VertexAttributeValues};
use iron3d_formats::world::TerrainBuilder;

/// A 2 × 1-cell terrain: base selectors 1, 1, 2, 2; high selectors none, 3, 3, 0.
fn overlay_tree() -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("iron3d-land-overlays-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("DATA/MAPS/Road")).unwrap();
    let mut b = TerrainBuilder::new();
    for j in 0..2u16 {
        for i in 0..3u16 {
            let (x, y) = (f32::from(i) * 10.0, f32::from(j) * 10.0);
            b.vertex([x, y, x * 0.1], [x / 10.0, y / 10.0]).unwrap();
        }
    }
    let faces = [([0, 1, 4], [1, 0xFF]), ([0, 4, 3], [1, 3]), ([1, 2, 5], [2, 3]), ([1, 5, 4], [2, 0])];
    for (vertices, material) in faces {
        b.face(vertices, 0x400, material).unwrap();
    }
    std::fs::write(root.join("DATA/MAPS/Road/Land.msh"), b.build().unwrap().to_bytes().unwrap()).unwrap();
    root
}

#[test]
fn land_loader_groups_overlays_by_high_selector_over_their_base_faces() {
    let root = overlay_tree();
    let mut app = app(&root);
    let handle: Handle<LandAsset> = app.world().resource::<AssetServer>().load("game://DATA/MAPS/Road/land.msh");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let land = app.world().resource::<Assets<LandAsset>>().get(&handle).unwrap().clone();
    let summary = |layers: &[LandLayer]| layers.iter().map(|l| (l.selector, l.faces)).collect::<Vec<_>>();
    assert_eq!(summary(&land.layers), [(1, 2), (2, 2)], "every face in its base layer");
    assert_eq!(summary(&land.overlays), [(0, 1), (3, 2)], "0xFF is no overlay, 0 is a row");
    let meshes = app.world().resource::<Assets<Mesh>>();
    let mesh = |h: &Handle<Mesh>| positions(meshes.get(h).unwrap());
    let (base1, base2, road) = (mesh(&land.layers[0].mesh), mesh(&land.layers[1].mesh), mesh(&land.overlays[1].mesh));
    // Overlay 3 repeats the second face of layer 1 and the first of layer 2 exactly.
    assert_eq!(road[..3], base1[3..]);
    assert_eq!(road[3..], base2[..3]);
    // Coverage: vertex 3 (only face 1) and 2 (only face 2) are inside overlay 3; the
    // others are shared with uncovered faces (share <= 1/2) and fade out.
    let Some(VertexAttributeValues::Float32x4(colors)) =
        meshes.get(&land.overlays[1].mesh).unwrap().attribute(Mesh::ATTRIBUTE_COLOR)
    else {
        panic!("overlay colours")
    };
    assert_eq!(colors.iter().map(|c| c[3]).collect::<Vec<_>>(), [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
    assert!(
        meshes.get(&land.layers[0].mesh).unwrap().attribute(Mesh::ATTRIBUTE_COLOR).is_none(),
        "base layers are opaque"
    );
    let label = app.world().resource::<AssetServer>().get_handle::<Mesh>("game://DATA/MAPS/Road/land.msh#overlay3");
    assert_eq!(label.as_ref().map(Handle::id), Some(land.overlays[1].mesh.id()), "labelled overlay{{selector}}");
    let _ = std::fs::remove_dir_all(root);
}
