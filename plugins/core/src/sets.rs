//! The orders this crate owns: one fixed tick of [`TICK_MS`] runs the [`SimSystems`] sets
//! in order, only while a mission runs unpaused; one frame runs the [`FrameSystems`] sets
//! in order in `PostUpdate`.

use crate::states::{AppState, Pause};
use bevy_app::{App, FixedUpdate, PostUpdate};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use bevy_transform::TransformSystems;

/// Length of one simulation tick in milliseconds (the World3D queue clock step).
pub const TICK_MS: u32 = 64;

/// Length of one simulation tick in seconds (`dt` of every per-tick rate).
pub const TICK_SECONDS: f32 = TICK_MS as f32 / 1000.0;

/// The simulation subsystems, run in this order every fixed tick. Subsystem crates
/// only say `.in_set(SimSystems::X)`; this crate owns the order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// The clock advances; tick-stamped player, network and replay commands are applied.
    Input,
    /// Strategic AI (one per clan).
    SuperAi,
    /// Production and research (the project's own rules): takes the build and research
    /// orders due, advances the queues, constructs finished robots.
    Production,
    /// Per-object behaviour: orders, global path (areals), local path (corridor).
    Behavior,
    /// Short-horizon trajectory correction around nearby obstacles, inside the corridor.
    Wizard,
    /// The physical step: limits, terrain following, collision, final transform.
    Control,
    /// World3D: message queue, ownership, deferred deletion (applied last).
    World3d,
}

/// The presentation steps of a frame in `PostUpdate`, in this order (`docs/reference/runtime.md`
/// §7.3): moving objects are placed, then the camera, then the weather reads the camera;
/// Bevy propagates transforms; then the sound listener takes the camera and the frame's
/// sounds play. Presentation crates only say `.in_set(FrameSystems::X)`; this crate owns
/// the order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameSystems {
    /// Moving objects are placed between their last two ticks (`iron3d_render`).
    Place,
    /// The camera rig is placed (following or riding a unit) and published
    /// (`iron3d_camera`).
    Camera,
    /// The weather's clock, frame, particles, lightning and sky (`iron3d_weather`).
    Weather,
    /// After propagation: the listener, the frame's cues and the mix (`iron3d_audio`).
    Audio,
}

/// What the simulation publishes for the interface after each tick (`FixedPostUpdate`):
/// the economy's board of every clan's ore and power. A joined game gates it off (its
/// own clan's figures come from the host).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SimSummaries;

/// The three steps inside [`SimSystems::Input`]: the clock advances, then the commands
/// sampled from the player (and the network) are stamped with the new tick, then the
/// objects that joined since the last tick are armed.
///
/// In every phase enum a step that another crate than the phase's own runs is named
/// after that crate (`tests/ownership.rs` checks it).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputPhase {
    /// The tick counter and queue time advance (`iron3d_world3d`).
    World3d,
    /// Frame input becomes tick-stamped commands (`iron3d_input`).
    Commands,
    /// Objects that joined (production's robots) get their hit points and weapons
    /// (`iron3d_combat`).
    Combat,
}

/// The steps of starting a mission (`OnEnter(AppState::InGame)`), in this order: the
/// subsystems read their configuration, then the objects and clans get their
/// subsystem state, then presentation and services open on the started mission.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MissionStart {
    /// Behavior, Wizard and Control read their configuration.
    Config,
    /// Combat arms the objects and sets the clans' relations, the economy builds the
    /// ore properties and distributors.
    Objects,
    /// Production builds the clans' research trees and what each clan can build.
    Clans,
    /// The camera, weather, sound, interface, renderer and network open.
    Present,
}

/// The two steps inside [`SimSystems::SuperAi`]: the clans' scripts run first, then the
/// project's strategic layer (computer clans, the defeat rule) sees their effects.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SuperAiPhase {
    /// Script events (the VM of `iron3d_superai`).
    Scripts,
    /// Computer clans' decisions and the outcome rules.
    Strategy,
}

/// The steps inside [`SimSystems::Production`]: ore income first (mines fill their
/// stores, `iron3d_economy`), then the build and research orders pay from the stores
/// (`iron3d_production`), then the step's events reach those who keep track of them in
/// the same tick (the strategic memory), so nothing waits in the message queue across
/// a save.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProductionPhase {
    /// Mining (`iron3d_economy`).
    Economy,
    /// Build and research orders, queues, finished robots (`iron3d_production`).
    Orders,
    /// Readers of this tick's production events (`iron3d_strategy`).
    Strategy,
}

/// The four steps inside [`SimSystems::Behavior`]: the orders due this tick are taken,
/// then the economy's distributors step, then units act on their orders (haulage moves
/// ore the distributors left, radar, paths), then the building sites builders reached
/// are raised.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BehaviorPhase {
    /// Orders become active; the due commands are applied.
    Orders,
    /// New ore holders get their ore property; the distributors step (`iron3d_economy`).
    Economy,
    /// Haul orders, radar targets, global and local paths.
    Units,
    /// Builders that arrived this tick raise or start upgrading their buildings
    /// (`iron3d_production`).
    Production,
}

/// The two steps inside [`SimSystems::Control`]: objects move first, then weapons aim
/// and fire from where they now stand (so combat never races the physical step).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlPhase {
    /// Limits, terrain following, collision, final transform, piece animation.
    Motion,
    /// Radars scan, turrets aim, weapons fire, projectiles fly, damage is applied
    /// (`iron3d_combat`).
    Combat,
}

/// The two steps inside [`SimSystems::World3d`]: ownership changes (network players
/// joining and leaving), then the deferred deletions (so a departure's deletions apply
/// in the same tick).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum World3dPhase {
    /// Objects change hands (`iron3d_net`).
    Net,
    /// Requested deletions are applied.
    Deletions,
}

impl SimSystems {
    /// The sets in the order every fixed tick runs them.
    pub const ORDER: [Self; 7] =
        [Self::Input, Self::SuperAi, Self::Production, Self::Behavior, Self::Wizard, Self::Control, Self::World3d];
}

/// Chains the sets in `FixedUpdate`, gated by a running (unpaused) mission, and the
/// frame's sets in `PostUpdate` around transform propagation.
pub(crate) fn configure(app: &mut App) {
    app.configure_sets(
        PostUpdate,
        (FrameSystems::Place, FrameSystems::Camera, FrameSystems::Weather).chain().before(TransformSystems::Propagate),
    )
    .configure_sets(PostUpdate, FrameSystems::Audio.after(TransformSystems::Propagate));
    for set in SimSystems::ORDER {
        app.configure_sets(FixedUpdate, set.run_if(in_state(Pause::Running)));
    }
    for pair in SimSystems::ORDER.windows(2) {
        app.configure_sets(FixedUpdate, pair[1].after(pair[0]));
    }
    app.configure_sets(
        FixedUpdate,
        (SuperAiPhase::Scripts, SuperAiPhase::Strategy).chain().in_set(SimSystems::SuperAi),
    )
    .configure_sets(
        FixedUpdate,
        (InputPhase::World3d, InputPhase::Commands, InputPhase::Combat).chain().in_set(SimSystems::Input),
    )
    .configure_sets(
        OnEnter(AppState::InGame),
        (MissionStart::Config, MissionStart::Objects, MissionStart::Clans, MissionStart::Present).chain(),
    )
    .configure_sets(
        FixedUpdate,
        (ProductionPhase::Economy, ProductionPhase::Orders, ProductionPhase::Strategy)
            .chain()
            .in_set(SimSystems::Production),
    )
    .configure_sets(
        FixedUpdate,
        (BehaviorPhase::Orders, BehaviorPhase::Economy, BehaviorPhase::Units, BehaviorPhase::Production)
            .chain()
            .in_set(SimSystems::Behavior),
    )
    .configure_sets(FixedUpdate, (ControlPhase::Motion, ControlPhase::Combat).chain().in_set(SimSystems::Control))
    .configure_sets(FixedUpdate, (World3dPhase::Net, World3dPhase::Deletions).chain().in_set(SimSystems::World3d));
}
