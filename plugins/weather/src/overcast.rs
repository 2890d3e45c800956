//! An overcast sky (the project's own look): rain and snow darken the renderer's
//! [`Environment`] — sky and fog colour towards the schedule's overcast colour, the
//! camera exposure towards its light factor (so lightmapped surfaces darken too) — in
//! proportion to the stronger of the two intensities. The clear-sky environment is kept and restored when the mission closes.

use crate::WeatherSystems;
use crate::mission::MissionWeather;
use crate::schedule::Overcast;
use bevy::prelude::*;
use iron3d_core::{AppState, MissionStart};
use iron3d_render::Environment;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ClearSky>()
        .register_type::<ClearSky>()
        .add_systems(OnEnter(AppState::InGame), open.after(crate::particles::spawn).in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), close.after(crate::sound::close))
        .add_systems(PostUpdate, update.in_set(WeatherSystems::Weather));
}

/// The environment before the weather touched it, and the darkness last applied.
#[derive(Resource, Reflect, Debug, Clone, Default)]
#[reflect(Resource)]
pub struct ClearSky {
    /// The clear-sky environment (`None`: no mission weather).
    pub environment: Option<Environment>,
    /// The darkness applied last (`0..=1`).
    pub darkness: f32,
}

/// `clear` darkened by `darkness` (`0..=1`) towards `overcast`.
pub fn darken(clear: &Environment, overcast: &Overcast, darkness: f32) -> Environment {
    let k = darkness.clamp(0.0, 1.0);
    let light = 1.0 - k * (1.0 - overcast.light);
    let [r, g, b] = overcast.sky;
    Environment {
        sky: clear.sky.mix(&Color::linear_rgb(r, g, b), k),
        // Exposure is logarithmic: `light` times the brightness is −log2(light) EV more.
        exposure: clear.exposure - light.max(1e-3).log2(),
        ..clear.clone()
    }
}

/// Keeps the clear sky when a mission with weather opens.
pub(crate) fn open(mut commands: Commands, weather: Res<MissionWeather>, env: Res<Environment>) {
    let environment = weather.schedule.as_ref().map(|_| env.clone());
    commands.insert_resource(ClearSky { environment, darkness: 0.0 });
}

/// Darkens the sky with this frame's rain and snow.
pub(crate) fn update(weather: Res<MissionWeather>, mut clear: ResMut<ClearSky>, mut env: ResMut<Environment>) {
    let (Some(schedule), Some(base)) = (&weather.schedule, &clear.environment) else { return };
    let darkness = weather.intensity.rain.max(weather.intensity.snow);
    if (darkness - clear.darkness).abs() > 1e-3 || darkness == 0.0 && clear.darkness != 0.0 {
        *env = darken(base, &schedule.look.overcast, darkness);
        clear.darkness = darkness;
    }
}

/// Restores the clear sky when the mission closes.
pub(crate) fn close(mut clear: ResMut<ClearSky>, mut env: ResMut<Environment>) {
    if let Some(base) = clear.environment.take() {
        *env = base;
    }
    clear.darkness = 0.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rain_darkens_the_sky_in_proportion() {
        let clear = Environment::default();
        let overcast = Overcast { sky: [0.2, 0.2, 0.2], light: 0.4 };
        let same = darken(&clear, &overcast, 0.0);
        assert_eq!((same.sky, same.exposure, same.sun_illuminance), (clear.sky, clear.exposure, clear.sun_illuminance));
        let full = darken(&clear, &overcast, 1.0);
        let sky = full.sky.to_linear();
        assert!([sky.red, sky.green, sky.blue].iter().all(|c| (c - 0.2).abs() < 1e-4), "{sky:?}");
        // 0.4 times the light: exp2(−Δev) = 0.4.
        assert!(((clear.exposure - full.exposure).exp2() - 0.4).abs() < 1e-4);
        let half = darken(&clear, &overcast, 0.5);
        assert!(((clear.exposure - half.exposure).exp2() - 0.7).abs() < 1e-4, "{}", half.exposure);
    }
}
