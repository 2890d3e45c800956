//! The game's sound (`docs/reference/runtime.md` §9, §10, §15), on kira through
//! `bevy_kira_audio`: [`SoundCue`](iron3d_core::SoundCue) messages become voices of
//! SWAV samples decoded once by the formats crate, positioned around a listener that
//! follows the camera, mixed on buses by [`AudioSettings`], recorded in the
//! [`SoundEventLog`]. Without an audio device everything but the output still runs.
//!
//! Frame order (§7.3): the simulation producers run in `FixedPostUpdate` after each
//! tick; in `PostUpdate`, after transforms propagated (the camera has moved), the
//! listener is placed, then the cues of the frame are played, then voices are mixed,
//! all before `bevy_kira_audio` plays its queue and before rendering.

mod ambient;
mod cues;
mod device;
mod fx;
mod listener;
mod log;
mod music;
mod producers;
mod samples;
mod settings;
mod voices;

pub use ambient::SkyBaseColour;
pub use device::{CueOutcome, DeviceChoice};
pub use fx::{effect_sound_cues, sound_cue};
pub use log::{SoundEvent, SoundEventLog};
pub use producers::{VOICES, voice};
pub use settings::AudioSettings;

use bevy::prelude::*;
use device::AudioDevice;
use iron3d_core::FrameSystems;

/// The audio steps of a frame, in order (`PostUpdate`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum AudioSystems {
    /// The listener takes the camera's place.
    Listener,
    /// Interface producers and the music, then the frame's cues are played.
    Cues,
    /// Owners followed, playback time advanced, voices mixed and sent to kira.
    Mix,
}

/// The game's sound. `device` picks the output ([`DeviceChoice::Disabled`] for tests
/// and servers); with no working output the game runs silent and every start of a
/// sound answers [`CueOutcome::NoDevice`].
#[derive(Debug, Default)]
pub struct GameAudioPlugin {
    /// The output to use.
    pub device: DeviceChoice,
}

impl Plugin for GameAudioPlugin {
    fn build(&self, app: &mut App) {
        let device = AudioDevice::probe(self.device);
        match &device {
            AudioDevice::Ready => {
                app.add_plugins(bevy_kira_audio::AudioPlugin);
            }
            AudioDevice::NoDevice { reason } => info!(target: "audio", "sound off: {reason}"),
        }
        app.insert_resource(device)
            .register_type::<AudioDevice>()
            .configure_sets(
                PostUpdate,
                (AudioSystems::Listener, AudioSystems::Cues, AudioSystems::Mix)
                    .chain()
                    .in_set(FrameSystems::Audio)
                    .before(bevy_kira_audio::AudioSystemSet::PlayTypedChannels),
            )
            .add_plugins((
                settings::plugin,
                listener::plugin,
                samples::plugin,
                voices::plugin,
                log::plugin,
                ambient::plugin,
                producers::plugin,
                cues::plugin,
            ));
    }
}

#[cfg(test)]
mod tests;
