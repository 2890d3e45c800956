//! EU7B scenery viewer as Bevy plugins.
//!
//! * [`scene`]: static geometry (`TERR`, `MESH`, `LINE`, tracks from their Bézier paths,
//!   traction wires) turned into meshes at startup.
//! * [`streaming`]: PACK sections decoded on `AsyncComputeTaskPool` workers around the
//!   camera, one section applied per frame, unloaded outside a keep ring. The decisions
//!   come from the Bevy-free [`planner`]; decoding and model files from the Bevy-free
//!   [`data`].
//! * [`models`]: `.e3d` meshes cached per model, shared mesh and material handles per
//!   model part so Bevy batches the instances; a labelled placeholder cube for missing files.
//! * [`textures`]: DDS/TGA/BMP/PNG textures of models, terrain and shapes from the scenery's
//!   folders, a checker fallback and one warning per missing name.
//! * [`railway`]: logic records as clickable markers with an inspector, and the ride
//!   camera over the Bevy-free track network of [`ride`].
//! * [`camera`]: free-fly camera. [`overlay`]: egui overlay with the section grid, counts
//!   and streaming stats.
//!
//! World frame: the scenery's Y-up frame is used as is (docs/reference/eu7.md §1: right-handed, inferred),
//! so a scenery point (x, y, z) is the Bevy point (x, y, z).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

pub mod camera;
pub mod data;
pub mod models;
pub mod overlay;
pub mod planner;
pub mod railway;
pub mod ride;
pub mod scene;
pub mod streaming;
pub mod terrain;
pub mod textures;

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

pub use planner::{SectionId, StreamingConfig};
pub use streaming::{StreamingPlugin, StreamingStats};

/// The loaded scenery shared by the plugins (`None` if the file could not be read).
#[derive(Resource, Reflect, Default)]
#[reflect(Resource)]
pub struct LoadedScenery {
    /// The scenery data.
    #[reflect(ignore)]
    pub data: Option<Arc<data::Scenery>>,
}

/// What the overlay shows about the file.
#[derive(Resource, Reflect, Debug, Clone, Default)]
#[reflect(Resource)]
pub struct SceneryInfo {
    /// The file.
    pub file: String,
    /// File version (0 if not loaded).
    pub version: u32,
    /// Why the file could not be loaded.
    pub error: Option<String>,
    /// Terrain triangles.
    pub terrain_triangles: usize,
    /// `MESH` shapes.
    pub shapes: usize,
    /// `LINE` shapes.
    pub lines: usize,
    /// Tracks.
    pub tracks: usize,
    /// Traction wires.
    pub traction: usize,
    /// `MODL` models (drawn at startup, not streamed).
    pub static_models: usize,
    /// PIDX sections with models.
    pub sections: usize,
    /// Models over all sections.
    pub section_models: u64,
    /// Prototypes.
    pub prototypes: usize,
    /// Modules loaded (the root and its includes).
    pub modules: usize,
    /// Missing or damaged includes, located.
    pub include_warnings: Vec<String>,
}

impl SceneryInfo {
    fn of(file: &std::path::Path, s: Result<&data::Scenery, &str>) -> Self {
        let mut info = Self { file: file.display().to_string(), ..Self::default() };
        let s = match s {
            Ok(s) => s,
            Err(e) => {
                info.error = Some(e.to_string());
                return info;
            }
        };
        use iron3d_eu7::ChunkBody as B;
        info.version = s.module().version;
        for (i, c) in s.tree.modules.iter().enumerate().flat_map(|(i, m)| m.module.chunks.iter().map(move |c| (i, c))) {
            match &c.body {
                B::Terr(t) => info.terrain_triangles += t.triangle_count(),
                B::Mesh(v) => info.shapes += v.len(),
                B::Line(v) => info.lines += v.len(),
                B::Trak(v) => info.tracks += v.len(),
                B::Trac(v) => info.traction += v.len(),
                B::Modl(v) if s.draws_static_models(i) => info.static_models += v.len(),
                _ => {}
            }
        }
        info.sections = s.sections().len();
        info.section_models = s.index.total_models();
        info.prototypes = s.module().prototypes().len();
        info.modules = s.tree.modules.len();
        info.include_warnings = s.tree.warnings.iter().map(ToString::to_string).collect();
        info
    }
}

/// The whole viewer: loads `file` and adds the scene, models, streaming, camera and
/// overlay plugins. Needs `DefaultPlugins` and `bevy_egui::EguiPlugin`.
#[derive(Debug, Clone)]
pub struct Eu7ViewerPlugin {
    /// The `.eu7` scenery.
    pub file: PathBuf,
    /// Streaming tunables.
    pub streaming: StreamingConfig,
}

impl Plugin for Eu7ViewerPlugin {
    fn build(&self, app: &mut App) {
        let loaded = data::Scenery::open(&self.file);
        match &loaded {
            Err(e) => error!("cannot open the scenery: {e}"),
            Ok(s) => s.tree.warnings.iter().for_each(|w| warn!("include skipped: {w}")),
        }
        let info = SceneryInfo::of(&self.file, loaded.as_ref().map_err(String::as_str));
        let dir = self.file.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        let bases = [Some(dir.clone()), dir.parent().map(std::path::Path::to_path_buf)].into_iter().flatten().collect();
        app.insert_resource(textures::TextureLibrary::new(bases));
        app.register_type::<LoadedScenery>()
            .register_type::<SceneryInfo>()
            .insert_resource(LoadedScenery { data: loaded.ok().map(Arc::new) })
            .insert_resource(info)
            .add_plugins((
                scene::SceneryPlugin,
                models::ModelsPlugin,
                StreamingPlugin { config: self.streaming },
                camera::FlyCameraPlugin,
                overlay::OverlayPlugin,
                railway::RailwayPlugin,
            ));
    }
}
