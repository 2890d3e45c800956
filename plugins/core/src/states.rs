//! The application states: the menu, loading (with its phase sub-states) and the game,
//! whose pause is a sub-state of its own so resuming never re-enters the game.

use bevy_reflect::Reflect;
use bevy_state::prelude::*;

/// Top-level application state.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Reflect)]
pub enum AppState {
    /// Main menu with the mission list.
    #[default]
    MainMenu,
    /// A mission is being loaded.
    Loading,
    /// A mission is open (running or paused, see [`Pause`]). Everything a mission spawns
    /// carries `DespawnOnExit(AppState::InGame)`.
    InGame,
}

/// Whether the open mission runs, a sub-state of [`AppState::InGame`]: entering and
/// leaving [`Pause::Paused`] never leaves `InGame`, so nothing respawns on resume.
#[derive(SubStates, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Reflect)]
#[source(AppState = AppState::InGame)]
pub enum Pause {
    /// The simulation ticks.
    #[default]
    Running,
    /// The simulation is frozen; presentation keeps drawing.
    Paused,
}

/// The phases of mission loading (`docs/reference/world.md` §5.2), a sub-state of
/// [`AppState::Loading`]. Each phase runs on entering it and advances to the next.
#[derive(SubStates, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Reflect)]
#[source(AppState = AppState::Loading)]
pub enum MissionLoadPhase {
    /// Pick the mission directory, read its configuration, identify the map.
    #[default]
    Context,
    /// Terrain, areal map and building categories.
    Foundation,
    /// The mission file: paths, clans, placed objects (nothing published).
    Description,
    /// Direct keys and unit schemes expanded into components and prototypes.
    Prototypes,
    /// Archives opened; models, materials, textures validated.
    Resources,
    /// Objects created in a pending form.
    Construction,
    /// Pending objects become part of the world.
    Registration,
    /// Scripts and AI attached; the first tick is enabled.
    ScenarioStart,
}

impl MissionLoadPhase {
    /// Every phase in order.
    pub const ALL: [MissionLoadPhase; 8] = [
        Self::Context,
        Self::Foundation,
        Self::Description,
        Self::Prototypes,
        Self::Resources,
        Self::Construction,
        Self::Registration,
        Self::ScenarioStart,
    ];

    /// The phase after this one.
    pub fn next(self) -> Option<Self> {
        let i = Self::ALL.iter().position(|p| *p == self)?;
        Self::ALL.get(i + 1).copied()
    }

    /// Human-readable name for progress displays.
    pub fn label(self) -> &'static str {
        match self {
            Self::Context => "mission context",
            Self::Foundation => "world foundation",
            Self::Description => "mission description",
            Self::Prototypes => "prototype resolution",
            Self::Resources => "resource preparation",
            Self::Construction => "instance construction",
            Self::Registration => "registration",
            Self::ScenarioStart => "scenario start",
        }
    }
}
