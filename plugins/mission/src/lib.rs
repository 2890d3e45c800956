//! Mission loading as a state machine of Bevy states (`docs/reference/world.md` §5): the
//! [`MissionLoadPhase`] sub-states of `AppState::Loading` each run once on entry and
//! advance to the next. Data is prepared by a [`MissionBackend`]; objects are spawned
//! in a pending form and join the world only at registration. A failure in any phase
//! despawns everything the load created, publishes no gameplay message, returns to the
//! main menu and leaves the error chain in [`LoadError`]. A mission is started only with
//! [`StartMission`]; the running mission is [`LoadedMission`].

mod backend;
pub mod campaign;
pub mod catalogue;
mod combat_sheet;
mod difficulty;
mod game_backend;
pub mod names;
mod objects;
mod parts;
mod phases;
mod profiles;
mod progress;
mod rules;
mod spawn;
mod start;

pub use backend::{MissionBackend, ObjectExtras, Prepared, PreparedObject};
pub use catalogue::{Catalogue, MISSIONS_DIR, MissionEntry, MissionKind, MissionName};
pub use game_backend::{GameMissionBackend, GameScriptFiles, data_layers, placed_objects};
pub use objects::{
    MissionObject, MissionObjectRegistered, ObjectComponent, Pending, PlacedRecord, Registered, ResolvedPrototype,
};
pub use parts::PartLabels;
pub use phases::{FOLLOW_PATH_PROPERTY, PATROL_PATH_PROPERTY};
pub use profiles::{FILE as PROFILES_FILE, read as behaviour_profiles};
pub use progress::{LoadError, LoadProgress, PhaseProgress};
pub use rules::game_rules;
pub use spawn::{resolve_object, running_backend, spawn_object, spawn_object_on, spawn_resolved};
pub use start::{LoadedMission, MissionRequest, StartMission, load_headless, load_headless_at};

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, Hashing, MissionLoadPhase, StateApp};

/// Test and developer hook: make the named phase fail with an injected error.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LoadFault(pub Option<MissionLoadPhase>);

/// Installs the loading state machine (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Default)]
pub struct MissionPlugin;

/// Why how an object was placed is saved but not hashed.
const PLACED: &str = "how the object was placed or built, to make it again on load";

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
            .save_component::<MissionObject>("mission.object", Hashing::Not(PLACED))
            .save_component::<PlacedRecord>("mission.record", Hashing::Not(PLACED))
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
