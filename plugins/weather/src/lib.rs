//! Weather (`docs/reference/runtime.md` §8): rain and snow particles in a volume in front of the
//! camera, lightning bolts with a point light flash, the mission's sky (its colour, sun
//! and ambient from the first `sky.wea` material, see [`sky`]; its base colour chooses
//! the day or night music), an overcast sky (the renderer's `Environment` darkened with
//! the intensity), and the rain loop and thunder as
//! [`iron3d_core::SoundCue`]s, driven by the mission's weather schedule — the project's
//! own `weather.ron` beside `sky.wea` (see [`schedule`]; the original's `sky.ske` is
//! undocumented and never read). Everything runs on game time (virtual time, frozen
//! while paused).
//!
//! Pure rules live in [`schedule`], [`volume`], [`lightning`] and [`sound`]; the systems
//! read the camera in `PostUpdate` (in `iron3d_core::FrameSystems::Weather`: after the
//! camera moved, before transforms propagate) in the order of [`WeatherSystems`].

mod bolts;
mod frame;
pub mod lightning;
mod mission;
mod overcast;
mod particles;
pub mod schedule;
pub mod sky;
pub mod sound;
pub mod volume;

pub use bolts::{BOLT_DESCRIPTOR, BOLT_SHAPE_STREAM, Flash, LIGHTNING_STREAM, Lightning, rand15};
pub use frame::EnvironmentFrame;
pub use mission::{MissionWeather, read_schedule};
pub use overcast::{ClearSky, darken};
pub use particles::{Kind, PARTICLE_STREAM, Particle, Precipitation};
pub use sky::{MissionSky, SkyLook, read_sky};
pub use sound::RainLoop;

use bevy::prelude::*;
use iron3d_core::{AppState, FrameSystems, MissionStart};

/// The weather's systems in `PostUpdate`, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum WeatherSystems {
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
        app.init_resource::<MissionWeather>()
            .init_resource::<EnvironmentFrame>()
            .init_resource::<Lightning>()
            .init_resource::<RainLoop>()
            .init_resource::<ClearSky>()
            .init_resource::<MissionSky>()
            .init_resource::<iron3d_audio::SkyBaseColour>()
            .register_type::<MissionWeather>()
            .register_type::<EnvironmentFrame>()
            .register_type::<Lightning>()
            .register_type::<RainLoop>()
            .register_type::<ClearSky>()
            .register_type::<MissionSky>()
            .register_type::<Precipitation>()
            .register_type::<Flash>()
            .configure_sets(
                PostUpdate,
                (WeatherSystems::Clock, WeatherSystems::Frame, WeatherSystems::Weather)
                    .chain()
                    .in_set(FrameSystems::Weather)
                    .run_if(in_state(AppState::InGame)),
            )
            .add_systems(
                OnEnter(AppState::InGame),
                (mission::open, sky::open, bolts::open, particles::spawn, overcast::open)
                    .chain()
                    .in_set(MissionStart::Present),
            )
            .add_systems(OnExit(AppState::InGame), (sound::close, overcast::close, sky::close, mission::close).chain())
            .add_systems(
                PostUpdate,
                (
                    mission::advance.in_set(WeatherSystems::Clock),
                    frame::update.in_set(WeatherSystems::Frame),
                    (
                        particles::simulate,
                        (bolts::strike, bolts::fade).chain(),
                        sound::rain_loop,
                        (overcast::update, sky::publish).chain(),
                    )
                        .in_set(WeatherSystems::Weather),
                ),
            );
    }
}

#[cfg(test)]
mod tests;
