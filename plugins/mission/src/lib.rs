//! Mission loading as a state machine of Bevy states (spec `world.md` §5): the
//! [`MissionLoadPhase`] sub-states of `AppState::Loading` each run once on entry and
//! advance to the next. Data is prepared by a [`MissionBackend`]; objects are spawned
//! in a pending form and join the world only at registration. A failure in any phase
//! despawns everything the load created, publishes no gameplay message, returns to the
//! main menu and leaves the error chain in [`LoadError`].

mod backend;
pub mod campaign;
pub mod catalogue;
mod difficulty;
mod game_backend;
mod objects;
mod phases;
mod progress;
mod rules;
mod spawn;

pub use backend::{MissionBackend, ObjectExtras, Prepared, PreparedObject};
pub use catalogue::{Catalogue, MISSIONS_DIR, MissionEntry, MissionKind, MissionName};
pub use game_backend::{GameMissionBackend, MissionState, data_layers};
pub use objects::{
    MissionObject, MissionObjectRegistered, ObjectComponent, Pending, PlacedRecord, Registered, ResolvedPrototype,
};
pub use phases::{FOLLOW_PATH_PROPERTY, PATROL_PATH_PROPERTY};
pub use progress::{LoadError, LoadProgress, PhaseProgress};
pub use rules::game_rules;
pub use spawn::{resolve_object, spawn_object, spawn_object_on};

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, MissionLoadPhase};
use std::sync::Arc;

/// What to load and with which backend. Insert it, then enter `AppState::Loading`.
#[derive(Resource, Clone)]
pub struct MissionRequest {
    /// Mission name (any form [`MissionName::parse`] reads).
    pub mission: String,
    /// Prepares the mission data.
    pub backend: Arc<dyn MissionBackend>,
}

/// The mission in the world: inserted at registration (removed when a load fails), so
/// presentation knows which terrain to draw.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, bevy_reflect::Reflect)]
#[reflect(Resource)]
pub struct LoadedMission {
    /// Mission name as every tool prints it (`single.01`, `campaign.01/mission.02`).
    pub name: String,
    /// The mission's folder as a game path (`MISSIONS/...`; empty for a name that is no
    /// mission name).
    pub folder: String,
    /// Land path from the mission file (`DATA\MAPS\x\Land`, no extension; empty when
    /// the backend has no terrain).
    pub land_path: String,
}

/// Loads `mission` from `game` through [`GameMissionBackend`] in a headless app that has
/// `StatesPlugin`, `iron3d_core::CorePlugin` and [`MissionPlugin`]: enters
/// `AppState::Loading` and updates until the mission is in the game (bounded: one
/// update per phase and a few more). For benches, tests and tools.
///
/// # Errors
/// The [`LoadError`] of a failed phase, or one saying the load did not finish.
pub fn load_headless(app: &mut App, game: &Arc<iron3d_vfs::GameDir>, mission: &str) -> Result<(), LoadError> {
    let backend = GameMissionBackend::new(Arc::clone(game));
    app.insert_resource(MissionRequest { mission: mission.into(), backend: Arc::new(backend) });
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
    for _ in 0..12 {
        app.update();
        if *app.world().resource::<State<AppState>>().get() == AppState::InGame {
            return Ok(());
        }
        if let Some(e) = app.world().get_resource::<LoadError>().filter(|e| e.mission == mission) {
            return Err(e.clone());
        }
    }
    let phase = app.world().get_resource::<State<MissionLoadPhase>>().map_or(MissionLoadPhase::Context, |p| *p.get());
    Err(LoadError { mission: mission.into(), phase, message: "the load did not finish".into() })
}

/// Test and developer hook: make the named phase fail with an injected error.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LoadFault(pub Option<MissionLoadPhase>);

/// Installs the loading state machine (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Default)]
pub struct MissionPlugin;

impl Plugin for MissionPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<iron3d_terrain::TerrainPlugin>() {
            app.add_plugins(iron3d_terrain::TerrainPlugin);
        }
        app.init_resource::<LoadProgress>()
            .init_resource::<LoadFault>()
            .init_resource::<Prepared>()
            .add_message::<MissionObjectRegistered>()
            .register_type::<LoadProgress>()
            .register_type::<LoadError>()
            .register_type::<MissionObject>()
            .register_type::<PlacedRecord>()
            .register_type::<Pending>()
            .register_type::<Registered>()
            .register_type::<LoadedMission>()
            .add_systems(OnEnter(AppState::Loading), phases::begin)
            .add_systems(OnExit(AppState::InGame), phases::close_mission);
        for phase in MissionLoadPhase::ALL {
            app.add_systems(OnEnter(phase), phases::run_phase);
        }
    }
}

#[cfg(test)]
mod campaign_tests;
#[cfg(test)]
mod tests;
