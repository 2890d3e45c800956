//! The terrain of [`LoadedMission`]: `<land path>.msh` as one entity per material layer.
//! Reading A of spec `world.md` §2.4: the face's low selector picks a row of
//! `<land path>2.wea`; without that table (or while its textures are missing) each layer
//! gets a stable earth tone by selector. Overlays (high selector) are not drawn.

use crate::materials::standard_material;
use crate::RenderStats;
use bevy::asset::RecursiveDependencyLoadState;
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_assets::{GameData, LandAsset, Mat0Asset, WearAsset};
use iron3d_mission::LoadedMission;

/// Marks the terrain root entity.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct TerrainRoot;

/// The current terrain's load handles and, once drawn, its Bevy-space bounds.
#[derive(Resource, Reflect, Debug, Default, Clone)]
#[reflect(Resource)]
pub struct TerrainView {
    /// `game://` path of the `Land.msh`.
    pub path: String,
    /// Bevy-space AABB `[min, max]` once the terrain is drawn.
    pub bounds: Option<[Vec3; 2]>,
    /// Drawn faces.
    pub faces: usize,
    #[reflect(ignore)]
    land: Option<Handle<LandAsset>>,
    #[reflect(ignore)]
    wear: Option<Handle<WearAsset>>,
    #[reflect(ignore)]
    root: Option<Entity>,
}

/// Earth tones for untextured layers, by selector.
const LAYER_TONES: [[f32; 3]; 6] =
    [[0.42, 0.52, 0.28], [0.55, 0.50, 0.34], [0.36, 0.44, 0.24], [0.60, 0.56, 0.45], [0.45, 0.40, 0.32], [0.30, 0.38, 0.30]];

pub(crate) fn request_terrain(
    mut commands: Commands,
    mission: Option<Res<LoadedMission>>,
    game: Option<Res<GameData>>,
    server: Res<AssetServer>,
    mut view: ResMut<TerrainView>,
) {
    let Some(mission) = mission.filter(|m| m.is_changed()) else { return };
    let land = mission.land_path.replace('\\', "/");
    let path = format!("game://{land}.msh");
    if view.path == path && view.root.is_some() {
        return;
    }
    if let Some(root) = view.root.take() {
        commands.entity(root).despawn();
    }
    *view = TerrainView::default();
    if land.is_empty() {
        return;
    }
    let wear = format!("{land}2.wea");
    let has_wear = game.is_some_and(|g| g.0.read(&wear).is_ok());
    view.wear = has_wear.then(|| server.load(format!("game://{wear}")));
    view.land = Some(server.load(path.clone()));
    view.path = path;
}

pub(crate) fn attach_terrain(
    mut commands: Commands,
    mut view: ResMut<TerrainView>,
    server: Res<AssetServer>,
    lands: Res<Assets<LandAsset>>,
    wears: Res<Assets<WearAsset>>,
    mats: Res<Assets<Mat0Asset>>,
    images: Res<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut stats: ResMut<RenderStats>,
) {
    let Some(handle) = view.land.clone().filter(|_| view.root.is_none()) else { return };
    match server.recursive_dependency_load_state(&handle) {
        RecursiveDependencyLoadState::Loaded => {}
        RecursiveDependencyLoadState::Failed(e) => {
            warn!("render: terrain {}: {e}", view.path);
            view.land = None;
            return;
        }
        _ => return,
    }
    let wear = match &view.wear {
        None => None,
        Some(w) => match server.recursive_dependency_load_state(w) {
            RecursiveDependencyLoadState::Loaded => wears.get(w),
            RecursiveDependencyLoadState::Failed(e) => {
                warn!("render: terrain materials: {e}");
                None
            }
            _ => return,
        },
    };
    let Some(land) = lands.get(&handle) else { return };
    let root = commands.spawn((TerrainRoot, Name::new("Terrain"), Transform::default(), Visibility::default())).id();
    for layer in &land.layers {
        let mat0 = wear.and_then(|w| w.materials.get(usize::from(layer.selector))).and_then(|h| mats.get(h));
        let mut material = standard_material(mat0, &images);
        if material.base_color_texture.is_none() {
            let [r, g, b] = LAYER_TONES[usize::from(layer.selector) % LAYER_TONES.len()];
            material.base_color = Color::srgb(r, g, b);
        }
        material.perceptual_roughness = 0.95;
        commands.spawn((Name::new(format!("Terrain layer {}", layer.selector)), Mesh3d(layer.mesh.clone()), MeshMaterial3d(materials.add(material)), ChildOf(root)));
    }
    let [lo, hi] = land.bounds;
    let (a, b) = (Vec3::from(to_bevy(lo)), Vec3::from(to_bevy(hi)));
    view.bounds = Some([a.min(b), a.max(b)]);
    view.faces = land.layers.iter().map(|l| l.faces).sum();
    stats.terrain_faces = view.faces;
    view.root = Some(root);
}
