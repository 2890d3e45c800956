//! The output device. The game must run without one (`docs/reference/runtime.md` §10.1: "3D Sound
//! was not initialized"; missing audio never breaks the simulation): the plugin probes
//! kira's default backend once, and only with a device does it add
//! `bevy_kira_audio`. Without a device `bevy_kira_audio` would keep every play command
//! queued forever (its output has no manager and never drains its channels), so the
//! plugin does not hand it any: cues are still looked up, decoded, tracked and logged,
//! and starting one answers [`CueOutcome::NoDevice`].

use bevy::prelude::*;
use iron3d_formats::sound::DecodedSample;
use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};
use kira::{AudioManager, AudioManagerSettings, DefaultBackend, Frame};
use std::sync::Arc;

/// Which device the plugin uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum DeviceChoice {
    /// The system's default output, when there is one.
    #[default]
    Default,
    /// None (the original's `DisableDSound`; tests and servers).
    Disabled,
}

/// Whether sound reaches a device.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub enum AudioDevice {
    /// kira plays on the default output.
    Ready,
    /// No output: sounds are tracked and logged, not heard.
    NoDevice {
        /// Why (disabled, or the backend's error).
        reason: String,
    },
}

impl AudioDevice {
    /// Opens `choice` once to see whether it works (the probe's manager is dropped;
    /// `bevy_kira_audio` opens its own).
    pub fn probe(choice: DeviceChoice) -> Self {
        match choice {
            DeviceChoice::Disabled => Self::NoDevice { reason: "sound disabled".into() },
            DeviceChoice::Default => match AudioManager::<DefaultBackend>::new(AudioManagerSettings::default()) {
                Ok(_) => Self::Ready,
                Err(e) => Self::NoDevice { reason: format!("no audio output: {e}") },
            },
        }
    }

    /// Whether sounds are heard.
    pub fn ready(&self) -> bool {
        matches!(self, Self::Ready)
    }
}

/// What handling one cue did (the explicit result of every sound call).
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub enum CueOutcome {
    /// A new source plays.
    Played,
    /// The sample is ready and tracked, but there is no device to play it on.
    NoDevice,
    /// A running loop took the change (volume, stop).
    Applied,
    /// A loop of that id already runs (a second start is ignored).
    AlreadyRunning,
    /// No loop of that id runs.
    NoSuchLoop,
    /// The sample cannot be played (`result` is the load result name, `message` the
    /// error with its lookup chain).
    Failed {
        /// `entry_missing`, `entry_empty`, `wave_invalid`, ...
        result: String,
        /// The full message.
        message: String,
    },
}

/// A decoded sample as a kira sound (16-bit to float; mono on both sides, stereo kept,
/// further channels dropped).
pub fn kira_sound(sample: &DecodedSample) -> StaticSoundData {
    let channels = usize::from(sample.channels.max(1));
    let value = |s: i16| f32::from(s) / 32_768.0;
    let frames: Arc<[Frame]> = sample
        .samples
        .chunks_exact(channels)
        .map(|f| {
            let left = value(f[0]);
            Frame { left, right: f.get(1).map_or(left, |r| value(*r)) }
        })
        .collect();
    StaticSoundData { sample_rate: sample.sample_rate, frames, settings: StaticSoundSettings::default(), slice: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_device_is_no_device_and_samples_become_kira_frames() {
        assert!(!AudioDevice::probe(DeviceChoice::Disabled).ready());
        let mono = DecodedSample { sample_rate: 22_050, channels: 1, samples: vec![0, 16_384, -32_768], format_tag: 1 };
        let sound = kira_sound(&mono);
        assert_eq!(sound.sample_rate, 22_050);
        assert_eq!(
            sound.frames.iter().map(|f| (f.left, f.right)).collect::<Vec<_>>(),
            [(0.0, 0.0), (0.5, 0.5), (-1.0, -1.0)]
        );
        let stereo = DecodedSample { channels: 2, samples: vec![16_384, -16_384], ..mono };
        assert_eq!(kira_sound(&stereo).frames.iter().map(|f| (f.left, f.right)).collect::<Vec<_>>(), [(0.5, -0.5)]);
    }
}
