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
pub mod music;
mod producers;
mod samples;
mod settings;
mod voices;

pub use ambient::{AmbientMusic, SkyBaseColour, THEME_LOOP};
pub use cues::CuePlayer;
pub use device::{AudioDevice, CueOutcome, DeviceChoice, kira_sound};
pub use fx::{effect_sound_cues, sound_cue};
pub use listener::{Listener, attenuation};
pub use log::{SoundEvent, SoundEventLog};
pub use producers::{ENGINE_LOOPS, ProducerState, SoundTable, engine_loop};
pub use samples::{LookupChain, MISSION_SOUND_LIBRARY, Sample, SampleCache, SampleError};
pub use settings::AudioSettings;
pub use voices::{Applied, PAUSED_BUSES, Voice, Voices};

use bevy::prelude::*;
use iron3d_core::{AppState, FrameSystems, MissionStart, Pause, SoundAction, SoundBus, SoundKey};

/// The audio steps of a frame, in order (`PostUpdate`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AudioSystems {
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
        match iron3d_rules::Rules::shipped() {
            Ok(rules) => {
                app.insert_resource(SoundTable::new(&rules, Default::default()));
            }
            Err(e) => error!(target: "audio", "no game sounds: {e}"),
        }
        app.insert_resource(device)
            .init_resource::<AudioSettings>()
            .init_resource::<Listener>()
            .init_resource::<SampleCache>()
            .init_resource::<Voices>()
            .init_resource::<SoundEventLog>()
            .init_resource::<AmbientMusic>()
            .init_resource::<SkyBaseColour>()
            .init_resource::<ProducerState>()
            .register_type::<AudioDevice>()
            .register_type::<AudioSettings>()
            .register_type::<Listener>()
            .register_type::<SampleCache>()
            .register_type::<Voices>()
            .register_type::<SoundEventLog>()
            .register_type::<AmbientMusic>()
            .register_type::<SkyBaseColour>()
            .register_type::<ProducerState>()
            .register_type::<SoundTable>()
            .register_type::<SoundKey>()
            .register_type::<SoundBus>()
            .register_type::<SoundAction>()
            .configure_sets(
                PostUpdate,
                (AudioSystems::Listener, AudioSystems::Cues, AudioSystems::Mix)
                    .chain()
                    .in_set(FrameSystems::Audio)
                    .before(bevy_kira_audio::AudioSystemSet::PlayTypedChannels),
            )
            .add_systems(OnEnter(AppState::MainMenu), producers::menu_table)
            .add_systems(OnEnter(AppState::Loading), (log::clear, samples::clear))
            .add_systems(
                OnEnter(AppState::InGame),
                (ambient::open, producers::adopt_rules).in_set(MissionStart::Present),
            )
            .add_systems(OnExit(AppState::InGame), (ambient::close, voices::stop_all, producers::reset))
            .add_systems(OnEnter(Pause::Paused), voices::pause)
            .add_systems(OnExit(Pause::Paused), voices::resume)
            .add_systems(
                FixedPostUpdate,
                (
                    producers::engines.run_if(in_state(Pause::Running).and_then(resource_exists::<SoundTable>)),
                    producers::outcome_voices,
                ),
            )
            .add_systems(PostUpdate, listener::follow_camera.in_set(AudioSystems::Listener))
            .add_systems(
                PostUpdate,
                (
                    (producers::responses, producers::clicks).chain().run_if(resource_exists::<SoundTable>),
                    ambient::vary.run_if(in_state(Pause::Running)),
                    cues::handle_cues,
                )
                    .chain()
                    .in_set(AudioSystems::Cues),
            )
            .add_systems(
                PostUpdate,
                (voices::follow_owners, voices::advance_and_mix, voices::apply_to_kira)
                    .chain()
                    .in_set(AudioSystems::Mix),
            );
    }
}

#[cfg(test)]
mod tests;
