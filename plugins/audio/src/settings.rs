//! The player's sound settings: one volume per bus under the master, and mute. Applied
//! live (every frame's mix reads them); the settings screen persists them with serde.
//! Mute silences the output only: every voice keeps its place and playback time
//! (`docs/reference/runtime.md` §10.1, `niMuteSound`).

use bevy::prelude::*;
use iron3d_core::SoundBus;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AudioSettings>().register_type::<AudioSettings>();
}

/// Bus volumes (0..1) and mute.
#[derive(Resource, Debug, Clone, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Resource)]
#[serde(default)]
pub struct AudioSettings {
    /// Scales every bus.
    pub master: f32,
    /// Weapons, explosions, engines, FX sounds.
    pub effects: f32,
    /// Weather loops and thunder.
    pub ambient: f32,
    /// Unit responses.
    pub voice: f32,
    /// The ambient music theme and its variations.
    pub music: f32,
    /// Interface clicks.
    pub interface: f32,
    /// Silences the output without stopping anything.
    pub muted: bool,
}

impl Default for AudioSettings {
    fn default() -> Self {
        Self { master: 1.0, effects: 1.0, ambient: 1.0, voice: 1.0, music: 0.8, interface: 1.0, muted: false }
    }
}

impl AudioSettings {
    /// The volume setting of `bus` (before the master).
    pub fn bus(&self, bus: SoundBus) -> f32 {
        match bus {
            SoundBus::Effects => self.effects,
            SoundBus::Ambient => self.ambient,
            SoundBus::Voice => self.voice,
            SoundBus::Music => self.music,
            SoundBus::Interface => self.interface,
        }
    }

    /// What `bus` is scaled by at the output: master × bus (each clamped to 0..1, a
    /// non-finite setting counts as 0), or 0 when muted.
    pub fn gain(&self, bus: SoundBus) -> f32 {
        let unit = |v: f32| if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 };
        if self.muted { 0.0 } else { unit(self.master) * unit(self.bus(bus)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bus_plays_at_master_times_its_own_volume_and_mute_silences_all() {
        let mut s = AudioSettings { master: 0.5, voice: 0.4, ..AudioSettings::default() };
        assert_eq!(s.gain(SoundBus::Voice), 0.2);
        assert_eq!(s.gain(SoundBus::Effects), 0.5);
        s.effects = f32::NAN;
        s.interface = 3.0;
        assert_eq!((s.gain(SoundBus::Effects), s.gain(SoundBus::Interface)), (0.0, 0.5));
        s.muted = true;
        assert_eq!(s.gain(SoundBus::Voice), 0.0);
    }

    #[test]
    fn settings_round_trip_through_ron_and_missing_fields_take_defaults() {
        let s = AudioSettings { music: 0.25, muted: true, ..AudioSettings::default() };
        let text = ron::to_string(&s).unwrap();
        assert_eq!(ron::from_str::<AudioSettings>(&text).unwrap(), s);
        let partial: AudioSettings = ron::from_str("(voice: 0.5)").unwrap();
        assert_eq!(partial, AudioSettings { voice: 0.5, ..AudioSettings::default() });
    }
}
