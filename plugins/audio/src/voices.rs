//! Voices: every sound currently sounding (one per played cue: a source per event,
//! `docs/reference/runtime.md` §10.1), with its logical state — place, volume, bus, playback time,
//! paused — kept whether or not a device plays it. Each frame a voice with an owner
//! follows it, playback time advances (a finished one-shot ends), and the mix (listener
//! distance, bus and master volume, mute) is applied to its kira instance when it
//! changed. Mute is a gain of 0: places and playback times run on. Pausing the game
//! pauses the world's voices (effects, ambient, voice buses); resuming continues them
//! where they were; music and interface sounds play on.

use crate::AudioSystems;
use crate::listener::Listener;
use crate::settings::AudioSettings;
use bevy::prelude::*;
use bevy_kira_audio::{AudioInstance, AudioTween};
use iron3d_core::{AppState, ObjectTable, OriginalObjectId, Pause, SimTransform, SoundBus, SoundCue, SoundKey};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Voices>()
        .register_type::<Voices>()
        .add_systems(OnExit(AppState::InGame), stop_all)
        .add_systems(OnEnter(Pause::Paused), pause)
        .add_systems(OnExit(Pause::Paused), resume)
        .add_systems(PostUpdate, (follow_owners, advance_and_mix, apply_to_kira).chain().in_set(AudioSystems::Mix));
}

/// The buses a paused game holds.
pub const PAUSED_BUSES: [SoundBus; 3] = [SoundBus::Effects, SoundBus::Ambient, SoundBus::Voice];

/// What was last sent to a voice's kira instance.
#[derive(Debug, Clone, Copy, PartialEq, Reflect)]
pub struct Applied {
    /// Gain.
    pub gain: f32,
    /// Pan.
    pub pan: f32,
    /// Paused.
    pub paused: bool,
}

/// One sounding sample.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct Voice {
    /// The sample (library resolved).
    pub key: SoundKey,
    /// Its bus.
    pub bus: SoundBus,
    /// The loop id (`None`: a one-shot).
    pub loop_id: Option<u64>,
    /// Where it sounds (game space).
    pub at: Option<[f32; 3]>,
    /// The object it follows.
    pub owner: Option<OriginalObjectId>,
    /// Its own volume (0..1).
    pub volume: f32,
    /// Hearing range (game units).
    pub range: (f32, f32),
    /// Playback rate.
    pub rate: f32,
    /// Sample length at its rate (seconds).
    pub length: f32,
    /// Seconds played (loops keep counting; the position is this modulo the length;
    /// both are playback time, at the voice's rate).
    pub played: f32,
    /// Held by a paused game.
    pub paused: bool,
    /// Output gain of the last mix (distance × own volume × bus × master, 0 muted).
    pub gain: f32,
    /// Pan of the last mix.
    pub pan: f32,
    /// The kira instance (`None` without a device).
    #[reflect(ignore)]
    pub instance: Option<Handle<AudioInstance>>,
    /// What the instance last received.
    pub applied: Option<Applied>,
}

impl Voice {
    /// The voice a cue starts (`key` resolved, `seconds`: the sample's length at rate
    /// 1); a rate that is not positive plays at 1.
    pub fn start(cue: &SoundCue, key: SoundKey, loop_id: Option<u64>, seconds: f32) -> Self {
        let rate = cue.frequency_ratio;
        let rate = if rate.is_finite() && rate > 0.0 { rate } else { 1.0 };
        Self {
            key,
            bus: cue.bus,
            loop_id,
            at: cue.at,
            owner: cue.owner,
            volume: cue.volume,
            range: cue.range,
            rate,
            length: seconds / rate,
            played: 0.0,
            paused: false,
            gain: 0.0,
            pan: 0.0,
            instance: None,
            applied: None,
        }
    }

    /// Recomputes gain and pan.
    pub fn mix(&mut self, listener: &Listener, settings: &AudioSettings) {
        let (distance, pan) = listener.hear(self.at, self.range);
        self.gain = distance * self.volume.clamp(0.0, 1.0) * settings.gain(self.bus);
        self.pan = pan;
    }
}

/// The sounding voices, in start order.
#[derive(Resource, Debug, Default, Reflect)]
#[reflect(Resource)]
pub struct Voices {
    /// The voices.
    pub list: Vec<Voice>,
    /// Instances to stop (ended or stopped voices), drained by the kira step.
    #[reflect(ignore)]
    pub(crate) stopping: Vec<Handle<AudioInstance>>,
}

impl Voices {
    /// The running loop `id`.
    pub fn looping(&mut self, id: u64) -> Option<&mut Voice> {
        self.list.iter_mut().find(|v| v.loop_id == Some(id))
    }

    /// Ends the loop `id`; whether it ran.
    pub fn stop_loop(&mut self, id: u64) -> bool {
        let Some(i) = self.list.iter().position(|v| v.loop_id == Some(id)) else { return false };
        let voice = self.list.remove(i);
        self.stopping.extend(voice.instance);
        true
    }

    /// Ends every voice.
    pub fn stop_all(&mut self) {
        let ended: Vec<_> = self.list.drain(..).filter_map(|v| v.instance).collect();
        self.stopping.extend(ended);
    }

    /// Advances playback time by `dt` seconds; one-shots that reached their end leave.
    pub fn advance(&mut self, dt: f32) {
        for v in self.list.iter_mut().filter(|v| !v.paused) {
            v.played += dt;
        }
        let (ended, live): (Vec<_>, Vec<_>) =
            self.list.drain(..).partition(|v| v.loop_id.is_none() && v.played >= v.length);
        self.list = live;
        self.stopping.extend(ended.into_iter().filter_map(|v| v.instance));
    }

    /// Holds (or releases) the voices of the [`PAUSED_BUSES`].
    pub fn set_paused(&mut self, paused: bool) {
        for v in self.list.iter_mut().filter(|v| PAUSED_BUSES.contains(&v.bus)) {
            v.paused = paused;
        }
    }

    /// Recomputes every voice's mix.
    pub fn mix(&mut self, listener: &Listener, settings: &AudioSettings) {
        for v in &mut self.list {
            v.mix(listener, settings);
        }
    }
}

/// Amplitude (0..1) in kira's decibels (-60 dB is silence).
pub fn decibels(gain: f32) -> f32 {
    if gain <= 0.001 { kira::Decibels::SILENCE.0 } else { 20.0 * gain.log10() }
}

/// Voices with an owner sound where it stands.
pub(crate) fn follow_owners(mut voices: ResMut<Voices>, table: Res<ObjectTable>, objects: Query<&SimTransform>) {
    for v in voices.list.iter_mut().filter(|v| v.at.is_some()) {
        let Some(owner) = v.owner else { continue };
        if let Some(t) = table.entity_of(owner.0).and_then(|e| objects.get(e).ok()) {
            v.at = Some(t.position);
        }
    }
}

/// Playback time and the mix of this frame.
pub(crate) fn advance_and_mix(
    time: Res<Time>,
    mut voices: ResMut<Voices>,
    listener: Res<Listener>,
    settings: Res<AudioSettings>,
) {
    voices.advance(time.delta_secs());
    voices.mix(&listener, &settings);
}

/// Sends each kira instance what changed (gain, pan, pause) and stops ended ones.
pub(crate) fn apply_to_kira(mut voices: ResMut<Voices>, instances: Option<ResMut<Assets<AudioInstance>>>) {
    let Some(mut instances) = instances else {
        voices.stopping.clear();
        return;
    };
    let now = AudioTween::default();
    for handle in std::mem::take(&mut voices.stopping) {
        if let Some(mut i) = instances.get_mut(&handle) {
            i.stop(now.clone());
        }
    }
    for v in &mut voices.list {
        let Some(mut instance) = v.instance.as_ref().and_then(|h| instances.get_mut(h)) else { continue };
        let next = Applied { gain: v.gain, pan: v.pan, paused: v.paused };
        let last = v.applied.replace(next);
        if last.is_none_or(|l| (l.gain, l.pan) != (next.gain, next.pan)) {
            instance.set_decibels(decibels(next.gain), now.clone());
            instance.set_panning(next.pan, now.clone());
        }
        if last.is_none_or(|l| l.paused != next.paused) {
            if next.paused {
                instance.pause(now.clone());
            } else {
                instance.resume(now.clone());
            }
        }
    }
}

pub(crate) fn pause(mut voices: ResMut<Voices>) {
    voices.set_paused(true);
}

pub(crate) fn resume(mut voices: ResMut<Voices>) {
    voices.set_paused(false);
}

pub(crate) fn stop_all(mut voices: ResMut<Voices>) {
    voices.stop_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voice(bus: SoundBus, loop_id: Option<u64>, at: Option<[f32; 3]>) -> Voice {
        Voice::start(&SoundCue::play(SoundKey::parse("A.WAV"), bus, at), SoundKey::parse("A.WAV"), loop_id, 1.0)
    }

    #[test]
    fn mute_keeps_positions_and_playback_time_and_unmute_restores_the_mix() {
        let mut voices = Voices::default();
        voices.list.push(voice(SoundBus::Effects, Some(1), Some([800.0, 0.0, 0.0])));
        voices.list.push(voice(SoundBus::Music, None, None));
        let listener = Listener { right: [1.0, 0.0, 0.0], ..Listener::default() };
        let mut settings = AudioSettings::default();
        voices.mix(&listener, &settings);
        let heard: Vec<_> = voices.list.iter().map(|v| (v.gain, v.pan)).collect();
        assert_eq!(heard, [(0.5, 1.0), (0.8, 0.0)]);
        settings.muted = true;
        voices.advance(0.25);
        voices.mix(&listener, &settings);
        assert!(voices.list.iter().all(|v| v.gain == 0.0), "silent");
        assert_eq!(
            voices.list.iter().map(|v| (v.at, v.played)).collect::<Vec<_>>(),
            [(Some([800.0, 0.0, 0.0]), 0.25), (None, 0.25)]
        );
        settings.muted = false;
        voices.mix(&listener, &settings);
        assert_eq!(voices.list.iter().map(|v| (v.gain, v.pan)).collect::<Vec<_>>(), heard);
    }

    #[test]
    fn pause_holds_the_worlds_loops_and_resume_continues_them() {
        let mut voices = Voices::default();
        voices.list.push(voice(SoundBus::Effects, Some(7), None));
        voices.list.push(voice(SoundBus::Music, Some(8), None));
        voices.advance(0.5);
        voices.set_paused(true);
        voices.advance(3.0);
        assert_eq!(voices.list.iter().map(|v| (v.paused, v.played)).collect::<Vec<_>>(), [(true, 0.5), (false, 3.5)]);
        voices.set_paused(false);
        voices.advance(0.75);
        assert_eq!(voices.looping(7).unwrap().played, 1.25, "continues where it was, not from the start");
        assert_eq!(voices.list.len(), 2, "loops outlive their length");
    }

    #[test]
    fn a_one_shot_ends_with_its_sample_and_a_stopped_loop_is_gone() {
        let mut voices = Voices::default();
        let fast =
            SoundCue { frequency_ratio: 2.0, ..SoundCue::play(SoundKey::parse("A.WAV"), SoundBus::Effects, None) };
        voices.list.push(Voice::start(&fast, SoundKey::parse("A.WAV"), None, 0.6));
        voices.list.push(voice(SoundBus::Ambient, Some(2), None));
        voices.advance(0.2);
        assert_eq!(voices.list.len(), 2);
        voices.advance(0.2);
        assert_eq!(voices.list.iter().map(|v| v.loop_id).collect::<Vec<_>>(), [Some(2)]);
        assert!(voices.stop_loop(2) && !voices.stop_loop(2));
        assert!(voices.list.is_empty());
        assert_eq!((decibels(1.0), decibels(0.0)), (0.0, -60.0));
        assert!((decibels(0.1) + 20.0).abs() < 1e-4);
    }
}
