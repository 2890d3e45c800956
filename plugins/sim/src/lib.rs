//! The headless simulation: [`SimPlugins`] groups World3D, SuperAI, the economy,
//! the strategic layer, production, Behavior, Wizard, Control and combat
//! (each a plugin of its own crate, ordered only by `SimSystems`) with the fixed
//! 64 ms tick, the per-tick [`StateHash`] and the [`EventLog`]. The game, the CLI's
//! `sim run`, the tests, the benches and the future dedicated server all use it.
//! [`headless_app`] builds an app without windows or rendering in which one `update()`
//! is one tick.

mod events;
mod hash;
pub mod testing;

pub use events::{EventKind, EventLog, SimEvent};
pub use hash::{StateHash, state_hash};

use bevy_app::{App, FixedPostUpdate, Plugin, PluginGroup, PluginGroupBuilder};
use bevy_ecs::prelude::*;
use bevy_state::app::StatesPlugin;
use bevy_state::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use iron3d_core::{AppState, CorePlugin, Hashing, Pause, StateApp, TICK_MS};
use std::time::Duration;

/// The simulation subsystems and their bookkeeping (needs `CorePlugin`, `StatesPlugin`
/// and a `TimePlugin`).
pub struct SimPlugins;

impl PluginGroup for SimPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(iron3d_world3d::World3dPlugin)
            .add(iron3d_superai::SuperAiPlugin::default())
            .add(iron3d_economy::EconomyPlugin::shipped())
            .add(iron3d_production::ProductionPlugin)
            .add(iron3d_behavior::BehaviorPlugin)
            .add(iron3d_wizard::WizardPlugin)
            .add(iron3d_control::ControlPlugin)
            .add(iron3d_combat::CombatPlugin::shipped())
            .add(iron3d_strategy::StrategyPlugin::shipped())
            .add(SimRecordPlugin)
    }
}

/// The fixed tick, the state hash and the event log.
#[derive(Debug, Default)]
pub struct SimRecordPlugin;

impl Plugin for SimRecordPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(u64::from(TICK_MS))))
            .init_resource::<StateHash>()
            .init_resource::<EventLog>()
            .register_type::<StateHash>()
            .save_resource::<EventLog>("sim.events", Hashing::Not("what happened, not what happens next"))
            .save_resource::<StateHash>("sim.hashes", Hashing::Not("the hashes themselves"))
            .add_systems(OnEnter(AppState::Loading), reset)
            .add_systems(FixedPostUpdate, (events::record, hash::record).chain().run_if(in_state(Pause::Running)));
    }
}

fn reset(mut hash: ResMut<StateHash>, mut log: ResMut<EventLog>) {
    *hash = StateHash::default();
    *log = EventLog::default();
}

/// A headless app with the core, the states, the fixed clock and [`SimPlugins`], in
/// which every `update()` advances exactly one 64 ms tick, its schedules run on one
/// thread ([`run_on_one_thread`]). Add the mission loader (or build a world by hand) on top.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((TimePlugin, StatesPlugin, CorePlugin, SimPlugins))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(u64::from(TICK_MS))));
    run_on_one_thread(&mut app);
    app
}

/// Runs every schedule the app has at its first update on the calling thread. The
/// simulation is a long chain of small systems: on two cores, handing each one to a
/// thread pool costs more than running them in order (the book's *Test time*,
/// `docs/src/test-time.md`); the state hash does not change, since the set order decides
/// everything. The tick bench's one-core figures come from this too. Schedules added
/// after the first update keep Bevy's default executor.
pub fn run_on_one_thread(app: &mut App) {
    app.add_systems(bevy_app::PreStartup, |world: &mut World| {
        for (_, schedule) in world.resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        }
    });
}
