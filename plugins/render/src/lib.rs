//! Rendering of the loaded mission (issue 6): models of registered mission objects
//! (prototype → MSH + WEAR → MAT0 → Texm, components assembled into one transform
//! hierarchy posed by the CTLD, shared meshes and materials), the terrain of
//! [`iron3d_mission::LoadedMission`] and a default environment (sun, ambient light, sky
//! colour, distance fog, exposure), and combat on screen: the FXID effects the combat
//! rules name ([`effects`], records planned by [`effect_plan`]) with their stand-ins
//! ([`combat`]: shells, beams, the fallback fireball). Everything loads through `game://` (see `iron3d_assets`); the
//! Z-up → Y-up conversion lives in `iron3d_assets::axes`.

pub mod combat;
pub mod effect_plan;
pub mod effects;
mod environment;
pub mod fast_shading;
mod lod;
mod materials;
mod models;
mod placement;
mod software;
mod terrain;
pub mod turret;

pub use effects::{EffectLibrary, EffectLight, EffectSprite, PlayingEffect};
pub use environment::{AMBIENT_BRIGHTNESS, Environment, Sun};
pub use fast_shading::{FastMaterial, FastShaded, Shading};
pub use lod::LodDistances;
pub use materials::{AnimatedMaterial, MaterialCache};
pub use models::{AnimatedPiece, ComponentModel, ModelPart, ModelPiece, ModelState, ObjectModel, PrototypeCache};
pub use software::SoftwareBatchingPlugin;
pub use terrain::{TerrainRoot, TerrainView};
pub use turret::{ControlPointAt, TurretPiece};

use bevy::prelude::*;
use iron3d_core::{AppState, FrameSystems, MissionStart};

/// Draw statistics for the debug overlay: draw calls scale with distinct mesh/material
/// pairs, not with object count.
#[derive(Resource, Reflect, Default, Clone)]
#[reflect(Resource)]
pub struct RenderStats {
    /// Mission objects with at least one drawn part.
    pub objects: usize,
    /// Component models (one per object component with a mesh).
    pub instances: usize,
    /// Component models still waiting for their assets.
    pub pending: usize,
    /// Component models whose model, materials or control description failed to load.
    pub failed: usize,
    /// Objects drawn merged at rest (no piece hierarchy).
    pub merged: usize,
    /// Drawn part entities (mesh + material) of the most detailed level.
    pub parts: usize,
    /// Part entities of coarser levels of detail (drawn in their distance range).
    pub coarser_parts: usize,
    /// Parts drawn with a lightmap.
    pub lightmapped: usize,
    /// Distinct meshes.
    pub meshes: usize,
    /// Distinct materials.
    pub materials: usize,
    /// Distinct (mesh, material) pairs.
    pub pairs: usize,
    /// Terrain faces drawn (base layers).
    pub terrain_faces: usize,
    /// Terrain overlay faces drawn over their base layer.
    pub terrain_overlay_faces: usize,
    #[reflect(ignore)]
    seen: models::SeenSets,
}

impl RenderStats {
    /// True once models were requested and none is still waiting for its assets.
    pub fn settled(&self) -> bool {
        self.instances > 0 && self.pending == 0
    }
}

impl std::fmt::Debug for RenderStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} objects, {} instances ({} pending, {} failed), {} parts ({} lightmapped), {} meshes, {} materials, {} mesh/material pairs, {} terrain faces ({} overlaid)",
            self.objects,
            self.instances,
            self.pending,
            self.failed,
            self.parts,
            self.lightmapped,
            self.meshes,
            self.materials,
            self.pairs,
            self.terrain_faces,
            self.terrain_overlay_faces
        )
    }
}

/// System sets of the mission renderer in `Update`, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum MissionRenderSystems {
    /// Resolve prototypes of newly registered objects and request their assets.
    Request,
    /// Attach meshes and materials once assets are loaded.
    Attach,
    /// Animate materials and cycling pieces.
    Animate,
}

/// The mission renderer (models, terrain, environment of the loaded mission; named apart
/// from Bevy's own `RenderPlugin`, which it needs). Needs `DefaultPlugins` (or the PBR stack), the asset plugins of
/// `iron3d_assets` and `iron3d_mission::MissionPlugin`.
#[derive(Debug, Default)]
pub struct MissionRenderPlugin;

impl Plugin for MissionRenderPlugin {
    fn build(&self, app: &mut App) {
        fast_shading::plugin(app);
        app.init_resource::<RenderStats>()
            .init_resource::<PrototypeCache>()
            .init_resource::<MaterialCache>()
            .init_resource::<TerrainView>()
            .init_resource::<Environment>()
            .init_resource::<LodDistances>()
            .register_type::<LodDistances>()
            .register_type::<RenderStats>()
            .register_type::<ObjectModel>()
            .register_type::<ModelPiece>()
            .register_type::<AnimatedPiece>()
            .register_type::<TurretPiece>()
            .register_type::<ControlPointAt>()
            .register_type::<ModelPart>()
            .register_type::<TerrainView>()
            .register_type::<Environment>()
            .init_resource::<effects::EffectLibrary>()
            .register_type::<effects::EffectLibrary>()
            .register_type::<effects::PlayingEffect>()
            .register_type::<effects::EffectSprite>()
            .register_type::<effects::EffectLight>()
            .register_type::<combat::Fireball>()
            .register_type::<combat::Beam>()
            .configure_sets(
                Update,
                (MissionRenderSystems::Request, MissionRenderSystems::Attach, MissionRenderSystems::Animate).chain(),
            )
            .add_systems(Startup, (environment::setup, combat::setup, effects::setup))
            .add_systems(OnEnter(AppState::InGame), effects::preload.in_set(MissionStart::Present))
            .add_systems(OnExit(AppState::InGame), (close, effects::reset, fast_shading::forget))
            .add_systems(PostUpdate, placement::interpolate.in_set(FrameSystems::Place))
            .add_systems(
                Update,
                (
                    (placement::place_new, models::request_models, terrain::request_terrain)
                        .in_set(MissionRenderSystems::Request),
                    (models::attach_models, terrain::attach_terrain, environment::configure_cameras)
                        .in_set(MissionRenderSystems::Attach),
                    environment::apply.run_if(resource_changed::<Environment>).after(MissionRenderSystems::Attach),
                    (
                        (materials::animate_materials, fast_shading::shade).chain(),
                        fast_shading::cluster_views,
                        models::pose_pieces,
                        turret::aim_turrets,
                    )
                        .in_set(MissionRenderSystems::Animate),
                    (
                        combat::shells,
                        combat::spawn_beams,
                        effects::play_combat_effects,
                        effects::age_effects,
                        effects::animate_effects,
                        combat::age_stand_ins,
                    )
                        .chain()
                        .in_set(MissionRenderSystems::Animate),
                ),
            );
    }
}

/// Closing the game forgets the mission's draw state (its entities despawn by
/// `DespawnOnExit`).
fn close(mut commands: Commands) {
    commands.insert_resource(RenderStats::default());
    commands.insert_resource(PrototypeCache::default());
    commands.insert_resource(MaterialCache::default());
    commands.insert_resource(TerrainView::default());
}

#[cfg(test)]
mod tests;
