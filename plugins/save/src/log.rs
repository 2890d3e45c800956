//! [`CommandLog`]: every command from outside the simulation (the player, the network,
//! an orders file, a mission's standing orders) with the tick it was applied at, taken
//! in `SimSystems::Input` once the tick's commands are stamped and before any system of
//! the simulation queues its own (the strategic layer's orders are re-derived, never
//! logged).

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, CommandQueue, GameClock, InputPhase, SimCommand, SimSystems};

/// The external commands applied so far: `(tick applied, command as queued)`.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct CommandLog(pub Vec<(u32, SimCommand)>);

/// Keeps the [`CommandLog`] (add with `SimPlugins`; the log starts empty with each
/// mission).
#[derive(Debug, Default)]
pub struct SavePlugin;

impl Plugin for SavePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CommandLog>()
            .add_systems(OnEnter(AppState::Loading), |mut log: ResMut<CommandLog>| log.0.clear())
            .add_systems(FixedUpdate, record.after(InputPhase::Commands).in_set(SimSystems::Input));
    }
}

/// Logs the commands due this tick (at a tick's input stage the queue holds only
/// external commands: the simulation's own are queued and taken within one tick).
fn record(queue: Res<CommandQueue>, clock: Res<GameClock>, mut log: ResMut<CommandLog>) {
    let mut due: Vec<&SimCommand> = queue.pending.iter().filter(|c| c.tick <= clock.tick).collect();
    due.sort_by(|a, b| a.cmp_stable(b));
    log.0.extend(due.into_iter().map(|c| (clock.tick, c.clone())));
}
