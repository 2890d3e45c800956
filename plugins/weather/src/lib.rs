//! Weather (`docs/reference/runtime.md` §8): rain and snow particles in a volume in front of the
//! camera, lightning bolts with a point light flash, the mission's sky (its colour, sun
//! and ambient from the first `sky.wea` material, see `sky.rs`; its base colour chooses
//! the day or night music), an overcast sky (the renderer's `Environment` darkened with
//! the intensity), and the rain loop and thunder as
//! [`iron3d_core::SoundCue`]s, driven by the mission's weather schedule — the project's
//! own `weather.ron` beside `sky.wea` (see `schedule.rs`; the original's `sky.ske` is
//! undocumented and never read). Everything runs on game time (virtual time, frozen
//! while paused).
//!
//! Pure rules live in `schedule.rs`, `volume.rs`, `lightning.rs` and `sound.rs`; each file
//! registers its own systems. They read the camera in `PostUpdate` (in
//! `iron3d_core::FrameSystems::Weather`: after the camera moved, before transforms
//! propagate) in the order of `WeatherSystems`. Entering a mission opens its schedule, sky,
//! lightning, particles and overcast in that order; leaving closes the rain loop, overcast,
//! sky and schedule in that order.

mod bolts;
mod frame;
mod lightning;
mod mission;
mod overcast;
mod particles;
mod schedule;
mod sky;
mod sound;
mod volume;

use bevy::prelude::*;
use iron3d_core::{AppState, FrameSystems};

/// The weather's systems in `PostUpdate`, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
enum WeatherSystems {
    /// Advance the game-time clock and sample the schedule.
    Clock,
    /// Take the camera (the environment frame).
    Frame,
    /// Move and draw particles, strike lightning, fade flashes, send sound cues, darken
    /// the sky and publish its colour for the music.
    Weather,
}

/// The weather of the open mission. Needs the PBR stack (`DefaultPlugins`), the asset
/// source of `iron3d_assets`, `iron3d_core::CorePlugin` and the mission plugin.
#[derive(Debug, Default)]
pub struct WeatherPlugin;

impl Plugin for WeatherPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            PostUpdate,
            (WeatherSystems::Clock, WeatherSystems::Frame, WeatherSystems::Weather)
                .chain()
                .in_set(FrameSystems::Weather)
                .run_if(in_state(AppState::InGame)),
        )
        .add_plugins((
            mission::plugin,
            frame::plugin,
            bolts::plugin,
            particles::plugin,
            sound::plugin,
            overcast::plugin,
            sky::plugin,
        ));
    }
}

#[cfg(test)]
mod tests;
