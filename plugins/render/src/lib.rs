//! Rendering of the loaded mission (issue 6): models of registered mission objects
//! (prototype → MSH + WEAR → MAT0 → Texm, components assembled into one transform
//! hierarchy posed by the CTLD, shared meshes and materials), the terrain of
//! [`iron3d_mission::LoadedMission`] and a default environment (sun, ambient light, sky
//! colour, distance fog, exposure), and combat on screen: the FXID effects the combat
//! rules name (`effects.rs`, records planned by `effect_plan.rs`) with their stand-ins
//! (`combat.rs`: shells, beams, the fallback fireball), and the cockpit panels' views of a
//! unit (`unit_views.rs`), the warbot designer's previews (`previews.rs`) and the model a
//! building is placed by (`site_model.rs`). Everything loads through `game://` (see `iron3d_assets`); the
//! Z-up → Y-up conversion lives in `iron3d_assets::axes`.

mod combat;
mod effect_plan;
mod effects;
mod environment;
mod fast_shading;
mod lod;
mod materials;
mod model_view;
mod models;
mod placement;
mod previews;
mod site_model;
mod sites;
mod software;
mod terrain;
mod turret;
mod unit_views;

pub use environment::{AMBIENT_BRIGHTNESS, Environment};
pub use fast_shading::{FastShaded, Shading};
pub use previews::{DESTINATION_PREVIEW, ModelPreviews, PROJECT_PREVIEW, SOURCE_PREVIEW, Subject};
pub use site_model::{SiteAsk, SiteModels};
pub use software::SoftwareBatchingPlugin;
pub use terrain::TerrainView;
pub use unit_views::{OWN_VIEW, TARGET_VIEW, UnitViews};

use bevy::prelude::*;
use iron3d_core::AppState;
use materials::MaterialCache;
use models::PrototypeCache;

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
enum MissionRenderSystems {
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
        app.init_resource::<RenderStats>()
            .register_type::<RenderStats>()
            .configure_sets(
                Update,
                (MissionRenderSystems::Request, MissionRenderSystems::Attach, MissionRenderSystems::Animate).chain(),
            )
            .add_systems(OnExit(AppState::InGame), close)
            .add_plugins((
                fast_shading::plugin,
                lod::plugin,
                materials::plugin,
                models::plugin,
                terrain::plugin,
                turret::plugin,
                environment::plugin,
                placement::plugin,
                effects::plugin,
                combat::plugin,
                sites::plugin,
                unit_views::plugin,
                previews::plugin,
                site_model::plugin,
            ));
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
