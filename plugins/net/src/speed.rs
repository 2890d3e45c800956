//! The host's pace: [`HostSettings::speed`] ticks per 64 ms of wall time
//! (`iron3d-server --speed K`): the virtual clock the fixed 64 ms tick runs on goes K
//! times as fast as the wall clock. Clients follow the host's clock: each tick's event
//! batch carries its tick ([`crate::events`]).

use crate::HostSettings;
use bevy_ecs::prelude::*;
use bevy_time::{Time, Virtual};

/// Fastest pace.
pub const MAX_SPEED: u8 = 8;

/// The virtual clock's rate for `speed` (clamped to 1..=[`MAX_SPEED`]).
pub fn rate(speed: u8) -> f32 {
    f32::from(speed.clamp(1, MAX_SPEED))
}

/// Sets the virtual clock to the host's pace.
pub(crate) fn pace(settings: Res<HostSettings>, mut time: ResMut<Time<Virtual>>) {
    let relative = rate(settings.speed);
    if time.relative_speed() != relative {
        time.set_relative_speed(relative);
    }
}
