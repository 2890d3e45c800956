//! The terrain of [`LoadedMission`]: `<land path>.msh` as one entity per material layer,
//! under reading A of `docs/reference/world.md` §2.4. A face's low selector picks its base layer's
//! row of `<land path>2.wea`; without that table (or while its textures are missing)
//! each base layer gets a stable earth tone by selector. A high selector other than
//! `0xFF` picks a row of `<land path>1.wea`: the overlay, drawn over the same faces with
//! its MAT0 (blend mode or alpha test as for models; an opaque MAT0 is alpha-blended
//! too, so that the loader's vertex coverage fades every overlay out at its border) and
//! a depth bias so that it wins against its base layer. The engine's blend equation is
//! unknown; overlays without a table or material are not drawn.

use crate::MissionRenderSystems;
use crate::RenderStats;
use crate::fast_shading::FastShaded;
use crate::materials::{AnimatedMaterial, MaterialSources, is_animated, standard_material};
use bevy::asset::RecursiveDependencyLoadState;
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_assets::{GameData, LandAsset, Mat0Asset, WearAsset};
use iron3d_core::AppState;
use iron3d_mission::LoadedMission;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TerrainView>().register_type::<TerrainView>().add_systems(
        Update,
        (request_terrain.in_set(MissionRenderSystems::Request), attach_terrain.in_set(MissionRenderSystems::Attach)),
    );
}

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
    /// Drawn faces (base layers).
    pub faces: usize,
    /// Drawn overlay faces (drawn a second time over their base layer).
    pub overlay_faces: usize,
    #[reflect(ignore)]
    land: Option<Handle<LandAsset>>,
    /// `Land2.wea` (base layers).
    #[reflect(ignore)]
    bases: Option<Handle<WearAsset>>,
    /// `Land1.wea` (overlays).
    #[reflect(ignore)]
    overlays: Option<Handle<WearAsset>>,
    #[reflect(ignore)]
    root: Option<Entity>,
}

impl TerrainView {
    /// True once the requested terrain is drawn or has failed (logged).
    pub fn settled(&self) -> bool {
        self.root.is_some() || (!self.path.is_empty() && self.land.is_none())
    }
}

/// Earth tones for untextured layers, by selector.
const LAYER_TONES: [[f32; 3]; 6] = [
    [0.42, 0.52, 0.28],
    [0.55, 0.50, 0.34],
    [0.36, 0.44, 0.24],
    [0.60, 0.56, 0.45],
    [0.45, 0.40, 0.32],
    [0.30, 0.38, 0.30],
];

/// Depth bias of overlays (constant units of the depth buffer): enough to beat the
/// coplanar base layer, far below the height of anything standing on the ground.
const OVERLAY_DEPTH_BIAS: f32 = 64.0;

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
    let table = |suffix: &str| {
        let wear = format!("{land}{suffix}");
        let present = game.as_ref().is_some_and(|g| g.0.read(&wear).is_ok());
        present.then(|| server.load(format!("game://{wear}")))
    };
    view.bases = table("2.wea");
    view.overlays = table("1.wea");
    view.land = Some(server.load(path.clone()));
    view.path = path;
}

/// A settled terrain table: `None` when it failed (logged).
fn table<'a>(server: &AssetServer, wears: &'a Assets<WearAsset>, handle: &Handle<WearAsset>) -> Option<&'a WearAsset> {
    if let RecursiveDependencyLoadState::Failed(e) = server.recursive_dependency_load_state(handle) {
        warn!("render: terrain materials: {e}");
        return None;
    }
    wears.get(handle)
}

/// The MAT0 of a WEAR row.
fn handle_of(wear: Option<&WearAsset>, row: u8) -> Option<&Handle<Mat0Asset>> {
    wear.and_then(|w| w.materials.get(usize::from(row)))
}

/// Animated layer materials (flowing water) follow game time like model materials; the
/// animator lives under the terrain root and goes with it.
fn animate(
    commands: &mut Commands,
    mats: &Assets<Mat0Asset>,
    root: Entity,
    material: &Handle<StandardMaterial>,
    mat0: Option<&Handle<Mat0Asset>>,
) {
    if let Some(h) = mat0.filter(|h| mats.get(*h).is_some_and(is_animated)) {
        commands.spawn((
            Name::new("Animated terrain material"),
            AnimatedMaterial { material: material.clone(), mat0: h.clone() },
            ChildOf(root),
        ));
    }
}

pub(crate) fn attach_terrain(
    mut commands: Commands,
    mut view: ResMut<TerrainView>,
    server: Res<AssetServer>,
    lands: Res<Assets<LandAsset>>,
    wears: Res<Assets<WearAsset>>,
    mut sources: MaterialSources,
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
    let tables = [view.bases.as_ref(), view.overlays.as_ref()];
    let settled = |h: &Handle<WearAsset>| {
        matches!(
            server.recursive_dependency_load_state(h),
            RecursiveDependencyLoadState::Loaded | RecursiveDependencyLoadState::Failed(_)
        )
    };
    if !tables.iter().flatten().all(|h| settled(h)) {
        return;
    }
    let [bases, overlays] = tables.map(|t| t.and_then(|h| table(&server, &wears, h)));
    let Some(land) = lands.get(&handle) else { return };
    let (mats, images, materials) = (&*sources.mats, &*sources.images, &mut sources.materials);
    let mat0 = |wear: Option<&WearAsset>, row: u8| handle_of(wear, row).and_then(|h| mats.get(h));
    let root = commands
        .spawn((
            TerrainRoot,
            Name::new("Terrain"),
            Transform::default(),
            Visibility::default(),
            DespawnOnExit(AppState::InGame),
        ))
        .id();
    for layer in &land.layers {
        let mut material = standard_material(mat0(bases, layer.selector), images);
        if material.base_color_texture.is_none() {
            let [r, g, b] = LAYER_TONES[usize::from(layer.selector) % LAYER_TONES.len()];
            material.base_color = Color::srgb(r, g, b);
        }
        material.perceptual_roughness = 0.95;
        let material = materials.add(material);
        animate(&mut commands, mats, root, &material, handle_of(bases, layer.selector));
        commands.spawn((
            Name::new(format!("Terrain layer {}", layer.selector)),
            Mesh3d(layer.mesh.clone()),
            FastShaded { full: material.clone() },
            MeshMaterial3d(material),
            ChildOf(root),
        ));
    }
    let (mut overlay_faces, mut drawn_overlays) = (0, 0);
    for layer in &land.overlays {
        let Some(mat0) = mat0(overlays, layer.selector) else { continue };
        let mut material = StandardMaterial {
            perceptual_roughness: 0.95,
            depth_bias: OVERLAY_DEPTH_BIAS,
            ..standard_material(Some(mat0), images)
        };
        if material.alpha_mode == AlphaMode::Opaque {
            material.alpha_mode = AlphaMode::Blend;
        }
        let material = materials.add(material);
        animate(&mut commands, mats, root, &material, handle_of(overlays, layer.selector));
        commands.spawn((
            Name::new(format!("Terrain overlay {}", layer.selector)),
            Mesh3d(layer.mesh.clone()),
            FastShaded { full: material.clone() },
            MeshMaterial3d(material),
            ChildOf(root),
        ));
        (overlay_faces, drawn_overlays) = (overlay_faces + layer.faces, drawn_overlays + 1);
    }
    let [lo, hi] = land.bounds;
    let (a, b) = (Vec3::from(to_bevy(lo)), Vec3::from(to_bevy(hi)));
    view.bounds = Some([a.min(b), a.max(b)]);
    view.faces = land.layers.iter().map(|l| l.faces).sum();
    view.overlay_faces = overlay_faces;
    stats.terrain_faces = view.faces;
    stats.terrain_overlay_faces = overlay_faces;
    info!(target: "render", "terrain drawn: {} faces in {} layers, {overlay_faces} overlay faces in {drawn_overlays} overlays", view.faces, land.layers.len());
    view.root = Some(root);
}
