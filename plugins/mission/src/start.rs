//! Starting a mission, the one way, and the running mission. [`StartMission`] (a
//! command, for a system's `Commands` or a `World`) records the [`MissionRequest`] and
//! enters `AppState::Loading`; the load publishes [`LoadedMission`] at registration and
//! drops the request when it ends. [`load_headless`] starts one and updates until it is
//! in the game.

use crate::backend::MissionBackend;
use crate::game_backend::GameMissionBackend;
use crate::progress::LoadError;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, Difficulty, DifficultyLevel, MissionLoadPhase};
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// Starts loading a mission: inserts its [`MissionRequest`], sets the difficulty level
/// it was asked at (`Difficulty::level`; without one the level stays) and enters
/// `AppState::Loading`. The menu, the network game, [`load_headless`] and the examples
/// all start missions with it: `commands.queue(StartMission::from_game(&game, "single.01"))`
/// in a system, `StartMission::from_game(&game, "single.01").apply(world)` on a `World`.
pub struct StartMission(MissionRequest, Option<DifficultyLevel>);

impl StartMission {
    /// Starts `mission` (any form [`MissionName::parse`](crate::MissionName::parse)
    /// reads) prepared by `backend`.
    pub fn new(mission: impl Into<String>, backend: Arc<dyn MissionBackend>) -> Self {
        Self(MissionRequest { mission: mission.into(), backend }, None)
    }

    /// The same mission at difficulty `level`.
    pub fn at(self, level: DifficultyLevel) -> Self {
        Self(self.0, Some(level))
    }

    /// Starts `mission` of a game directory ([`GameMissionBackend`]).
    pub fn from_game(game: &Arc<GameDir>, mission: impl Into<String>) -> Self {
        Self::new(mission, Arc::new(GameMissionBackend::new(Arc::clone(game))))
    }
}

impl Command for StartMission {
    type Out = ();

    fn apply(self, world: &mut World) {
        if let Some(level) = self.1 {
            world.get_resource_or_init::<Difficulty>().level = level;
        }
        world.insert_resource(self.0);
        world.resource_mut::<NextState<AppState>>().set(AppState::Loading);
    }
}

/// The mission being loaded, as [`StartMission`] asked: present from the start until
/// the end of its load (in the game, or back in the menu with a [`LoadError`]).
#[derive(Resource, Clone)]
pub struct MissionRequest {
    /// Mission name (any form [`MissionName::parse`](crate::MissionName::parse) reads).
    pub mission: String,
    /// Prepares the mission data.
    pub(crate) backend: Arc<dyn MissionBackend>,
}

/// The running mission: inserted at registration (removed when a load fails and when
/// the game closes), so presentation knows which terrain to draw and objects made at
/// run time resolve through the backend that loaded it.
#[derive(Resource, Clone, Default, bevy_reflect::Reflect)]
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
    /// The backend that loaded it (`None` only in a default value).
    #[reflect(ignore)]
    pub backend: Option<Arc<dyn MissionBackend>>,
}

impl std::fmt::Debug for LoadedMission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedMission")
            .field("name", &self.name)
            .field("folder", &self.folder)
            .field("land_path", &self.land_path)
            .finish_non_exhaustive()
    }
}

/// Loads `mission` from `game` through [`GameMissionBackend`] in a headless app that has
/// `StatesPlugin`, `iron3d_core::CorePlugin` and [`MissionPlugin`](crate::MissionPlugin):
/// starts it with [`StartMission`] and updates until the mission is in the game
/// (bounded: one update per phase and a few more). For benches, tests and tools.
///
/// # Errors
/// The [`LoadError`] of a failed phase, or one saying the load did not finish.
pub fn load_headless(app: &mut App, game: &Arc<GameDir>, mission: &str) -> Result<(), LoadError> {
    load(app, StartMission::from_game(game, mission), mission)
}

/// [`load_headless`] at difficulty `level`.
///
/// # Errors
/// As [`load_headless`].
pub fn load_headless_at(
    app: &mut App,
    game: &Arc<GameDir>,
    mission: &str,
    level: DifficultyLevel,
) -> Result<(), LoadError> {
    load(app, StartMission::from_game(game, mission).at(level), mission)
}

fn load(app: &mut App, start: StartMission, mission: &str) -> Result<(), LoadError> {
    app.update();
    start.apply(app.world_mut());
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
