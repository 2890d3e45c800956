//! Weather sounds as [`SoundCue`]s on the ambient bus (`docs/reference/runtime.md` §8.2): the rain loop
//! starts when rain begins, follows the interpolated rain intensity with a volume
//! change whenever it changes, and stops when rain ends; a strike plays the thunder
//! sample at the strike (hearing range 100..1500, frequency ratio 1, §8.3). The loop
//! plays at the listener (rain falls all around it), so it has no position; its volume
//! is the rain intensity (the project's mapping).

use crate::WeatherSystems;
use crate::mission::MissionWeather;
use crate::schedule::Sounds;
use bevy::prelude::*;
use iron3d_core::{AppState, SoundAction, SoundBus, SoundCue, SoundKey};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RainLoop>()
        .register_type::<RainLoop>()
        .add_systems(OnExit(AppState::InGame), close)
        .add_systems(PostUpdate, rain_loop.in_set(WeatherSystems::Weather));
}

/// The loop id of the rain loop (one weather loop per game).
pub const RAIN_LOOP_ID: u64 = 0x5745_4154_4845_5201;
/// The thunder's hearing range (game units): full volume within 100, silent beyond 1500.
pub const THUNDER_RANGE: (f32, f32) = (100.0, 1500.0);

/// The rain loop's state as last told to the audio plugin.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default, Reflect)]
#[reflect(Resource)]
pub struct RainLoop {
    /// A `StartLoop` was sent and no `StopLoop` since.
    pub playing: bool,
    /// The volume last sent.
    pub volume: f32,
}

impl RainLoop {
    /// The loop action for this frame's rain intensity, if any.
    pub fn update(&mut self, rain: f32) -> Option<SoundAction> {
        let rain = rain.clamp(0.0, 1.0);
        let action = match (self.playing, rain > 0.0) {
            (false, true) => SoundAction::StartLoop(RAIN_LOOP_ID),
            (true, true) if rain != self.volume => SoundAction::SetLoopVolume(RAIN_LOOP_ID, rain),
            (true, false) => SoundAction::StopLoop(RAIN_LOOP_ID),
            _ => return None,
        };
        self.playing = rain > 0.0;
        self.volume = rain;
        Some(action)
    }

    /// The action that silences a playing loop (the mission closes).
    pub fn stop(&mut self) -> Option<SoundAction> {
        self.update(0.0)
    }
}

/// The cue of a rain loop action.
pub fn rain_cue(sounds: &Sounds, action: SoundAction, volume: f32) -> SoundCue {
    SoundCue {
        key: SoundKey::parse(&sounds.rain),
        bus: SoundBus::Ambient,
        action,
        at: None,
        volume,
        range: SoundCue::RANGE,
        frequency_ratio: 1.0,
        owner: None,
    }
}

/// The thunder of a strike at `at` (game space), if the schedule names one.
pub fn thunder_cue(sounds: &Sounds, at: [f32; 3]) -> Option<SoundCue> {
    Some(SoundCue {
        key: SoundKey::parse(sounds.thunder.as_deref()?),
        bus: SoundBus::Ambient,
        action: SoundAction::Play,
        at: Some(at),
        volume: 1.0,
        range: THUNDER_RANGE,
        frequency_ratio: 1.0,
        owner: None,
    })
}

/// Tells the audio plugin what the rain loop does this frame.
pub(crate) fn rain_loop(weather: Res<MissionWeather>, mut state: ResMut<RainLoop>, mut cues: MessageWriter<SoundCue>) {
    let Some(schedule) = &weather.schedule else { return };
    if let Some(action) = state.update(weather.intensity.rain) {
        cues.write(rain_cue(&schedule.sounds, action, state.volume));
    }
}

/// Stops the rain loop when the mission closes.
pub(crate) fn close(weather: Res<MissionWeather>, mut state: ResMut<RainLoop>, mut cues: MessageWriter<SoundCue>) {
    if let (Some(schedule), Some(action)) = (&weather.schedule, state.stop()) {
        cues.write(rain_cue(&schedule.sounds, action, 0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_rain_curve_starts_follows_and_stops_the_loop() {
        let curve = [0.0, 0.0, 0.3, 0.3, 0.5, 0.5, 0.0, 0.0, 0.2];
        let mut state = RainLoop::default();
        let actions: Vec<Option<SoundAction>> = curve.iter().map(|&i| state.update(i)).collect();
        let id = RAIN_LOOP_ID;
        assert_eq!(
            actions,
            vec![
                None,
                None,
                Some(SoundAction::StartLoop(id)),
                None,
                Some(SoundAction::SetLoopVolume(id, 0.5)),
                None,
                Some(SoundAction::StopLoop(id)),
                None,
                Some(SoundAction::StartLoop(id)),
            ]
        );
        assert_eq!(state.stop(), Some(SoundAction::StopLoop(id)));
        assert_eq!(state.stop(), None, "nothing to stop twice");
    }

    #[test]
    fn cues_name_the_schedules_samples_on_the_ambient_bus() {
        let sounds = Sounds { rain: "ATM_RAIN1.WAV".into(), thunder: Some("sounds.lib/ATM_THUND1.WAV".into()) };
        let rain = rain_cue(&sounds, SoundAction::StartLoop(RAIN_LOOP_ID), 0.4);
        assert_eq!(
            (rain.bus, rain.key.library.as_str(), rain.key.name.as_str()),
            (SoundBus::Ambient, "", "ATM_RAIN1.WAV")
        );
        assert_eq!(rain.volume, 0.4);
        let thunder = thunder_cue(&sounds, [1.0, 2.0, 3.0]).unwrap();
        assert_eq!(thunder.key, SoundKey { library: "sounds.lib".into(), name: "ATM_THUND1.WAV".into() });
        assert_eq!(
            (thunder.action, thunder.at, thunder.range),
            (SoundAction::Play, Some([1.0, 2.0, 3.0]), (100.0, 1500.0))
        );
        assert_eq!((thunder.bus, thunder.frequency_ratio), (SoundBus::Ambient, 1.0));
    }
}
