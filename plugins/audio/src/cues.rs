//! Handling [`SoundCue`]s: look the sample up (cached), start a voice (a kira source
//! with a device), change or stop a loop, and log the event with its result. Runs once
//! per frame after the listener was placed, before `bevy_kira_audio` plays its queue.

use crate::AudioSystems;
use crate::device::{AudioDevice, CueOutcome, kira_sound};
use crate::listener::Listener;
use crate::log::{SoundEvent, SoundEventLog};
use crate::samples::{self, SampleCache};
use crate::settings::AudioSettings;
use crate::voices::{Voice, Voices, decibels};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_kira_audio::{Audio, AudioControl, AudioSource};
use iron3d_assets::GameData;
use iron3d_core::{GameClock, SoundAction, SoundBus, SoundCue, SoundKey};
use iron3d_mission::LoadedMission;

pub(super) fn plugin(app: &mut App) {
    app.register_type::<SoundKey>()
        .register_type::<SoundBus>()
        .register_type::<SoundAction>()
        .add_systems(PostUpdate, handle_cues.after(crate::ambient::vary).in_set(AudioSystems::Cues));
}

/// Everything playing a cue touches.
#[derive(SystemParam)]
pub struct CuePlayer<'w> {
    device: Res<'w, AudioDevice>,
    cache: ResMut<'w, SampleCache>,
    voices: ResMut<'w, Voices>,
    log: ResMut<'w, SoundEventLog>,
    listener: Res<'w, Listener>,
    settings: Res<'w, AudioSettings>,
    clock: Res<'w, GameClock>,
    game: Option<Res<'w, GameData>>,
    mission: Option<Res<'w, LoadedMission>>,
    kira: Option<Res<'w, Audio>>,
    sources: Option<ResMut<'w, Assets<AudioSource>>>,
}

impl CuePlayer<'_> {
    /// Handles one cue, logs it and returns what happened.
    pub fn handle(&mut self, cue: &SoundCue) -> CueOutcome {
        let outcome = match cue.action {
            SoundAction::Play => self.start(cue, None),
            SoundAction::StartLoop(id) if self.voices.looping(id).is_some() => CueOutcome::AlreadyRunning,
            SoundAction::StartLoop(id) => self.start(cue, Some(id)),
            SoundAction::SetLoopVolume(id, volume) => match self.voices.looping(id) {
                Some(v) => {
                    v.volume = if volume.is_finite() { volume.clamp(0.0, 1.0) } else { 0.0 };
                    v.at = cue.at.or(v.at);
                    CueOutcome::Applied
                }
                None => CueOutcome::NoSuchLoop,
            },
            SoundAction::StopLoop(id) if self.voices.stop_loop(id) => CueOutcome::Applied,
            SoundAction::StopLoop(_) => CueOutcome::NoSuchLoop,
        };
        self.log.push(SoundEvent {
            tick: self.clock.tick,
            key: samples::resolve(&cue.key),
            action: cue.action,
            owner: cue.owner,
            at: cue.at,
            bus: cue.bus,
            listener: self.listener.position,
            outcome: outcome.clone(),
        });
        outcome
    }

    fn start(&mut self, cue: &SoundCue, loop_id: Option<u64>) -> CueOutcome {
        let mission = self.mission.as_ref().map_or("", |m| m.name.as_str());
        let game = self.game.as_ref().map(|g| g.0.as_ref());
        let failed_before = self.cache.failed;
        let sources = self.sources.as_deref_mut().filter(|_| self.device.ready());
        let sample = self.cache.get_or_load(
            &cue.key,
            || samples::load(game, &cue.key, mission),
            |decoded| sources.map(|s| s.add(AudioSource { sound: kira_sound(decoded) })),
        );
        let sample = match sample {
            Ok(s) => s,
            Err(e) => {
                if self.cache.failed > failed_before {
                    warn!(target: "audio", "{e}");
                }
                return CueOutcome::Failed { result: e.name().into(), message: e.to_string() };
            }
        };
        let mut voice = Voice::start(cue, samples::resolve(&cue.key), loop_id, sample.decoded.seconds() as f32);
        voice.mix(&self.listener, &self.settings);
        let outcome = match (&self.kira, &sample.source) {
            (Some(kira), Some(source)) if self.device.ready() => {
                let mut play = kira.play(source.clone());
                play.with_volume(decibels(voice.gain))
                    .with_panning(voice.pan)
                    .with_playback_rate(f64::from(voice.rate));
                if loop_id.is_some() {
                    play.looped();
                }
                voice.instance = Some(play.handle());
                CueOutcome::Played
            }
            _ => CueOutcome::NoDevice,
        };
        self.voices.list.push(voice);
        outcome
    }
}

/// Plays the cues of this frame.
pub(crate) fn handle_cues(mut cues: MessageReader<SoundCue>, mut player: CuePlayer) {
    for cue in cues.read() {
        player.handle(cue);
    }
}
