//! Game time: the tick counter and the World3D queue clock in milliseconds.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// The simulation clock, advanced by [`crate::TICK_MS`] at the start of every tick.
/// Queue time wraps like the engine's 32-bit millisecond counter.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct GameClock {
    /// Ticks run since the mission started (the first tick is 1).
    pub tick: u32,
    /// Queue time in milliseconds (wrapping).
    pub time_ms: u32,
}

impl GameClock {
    /// Whether `deadline` (queue time) has been reached, wrapping-aware.
    pub fn reached(&self, deadline: u32) -> bool {
        self.time_ms.wrapping_sub(deadline) < u32::MAX / 2
    }
}
