//! Shared vocabulary of the iron3d plugins: the application states, the ordered
//! simulation system sets, and the identity of original mission objects.
//! Only Bevy sub-crates are used, so this crate tests headless in minutes.

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_state::app::AppExtStates;
use bevy_state::prelude::*;

/// Top-level application state.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Reflect)]
pub enum AppState {
    /// Main menu with the mission list.
    #[default]
    MainMenu,
    /// A mission is being loaded.
    Loading,
    /// A mission runs.
    InMission,
    /// A mission is paused.
    Paused,
}

/// The phases of mission loading (spec `world.md` §5.2), a sub-state of
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

/// The simulation subsystems, run in this order every fixed tick. Subsystem crates
/// only say `.in_set(SimSystems::X)`; this crate owns the order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// Tick-stamped player and network commands are applied.
    Input,
    /// Strategic AI.
    SuperAi,
    /// Per-object behaviour.
    Behavior,
    /// Wizard (scripted helpers and tasks).
    Wizard,
    /// Unit control (movement, weapons).
    Control,
    /// World3D: event queue, ownership, deferred deletion.
    World3d,
}

/// The identity of an object from the mission file (scripts, network, saves);
/// separate from `Entity` and the key of every stable ordering.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflect)]
#[reflect(Component)]
pub struct OriginalObjectId(pub u32);

/// Installs the states, the simulation set order and the shared types.
#[derive(Debug, Default)]
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<AppState>()
            .add_sub_state::<MissionLoadPhase>()
            .register_type::<AppState>()
            .register_type::<MissionLoadPhase>()
            .register_type::<OriginalObjectId>()
            .configure_sets(
                FixedUpdate,
                (
                    SimSystems::Input,
                    SimSystems::SuperAi,
                    SimSystems::Behavior,
                    SimSystems::Wizard,
                    SimSystems::Control,
                    SimSystems::World3d,
                )
                    .chain()
                    .run_if(in_state(AppState::InMission)),
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_state::app::StatesPlugin;

    #[derive(Resource, Default)]
    struct Trace(Vec<&'static str>);

    #[test]
    fn sim_sets_run_in_order_only_in_mission() {
        let mut app = App::new();
        app.add_plugins((StatesPlugin, CorePlugin)).init_resource::<Trace>();
        // Registered in reverse to prove the order comes from the sets.
        app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("world3d")).in_set(SimSystems::World3d));
        app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("control")).in_set(SimSystems::Control));
        app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("behavior")).in_set(SimSystems::Behavior));
        app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("superai")).in_set(SimSystems::SuperAi));
        app.update();
        app.world_mut().run_schedule(FixedUpdate);
        assert!(app.world().resource::<Trace>().0.is_empty(), "no simulation in the menu");
        app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InMission);
        app.update();
        app.world_mut().run_schedule(FixedUpdate);
        assert_eq!(app.world().resource::<Trace>().0, ["superai", "behavior", "control", "world3d"]);
    }
}
