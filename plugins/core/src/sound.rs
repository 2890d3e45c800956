//! Sound cues: every sound the game wants heard (simulation events, weather, the
//! interface) is a [`SoundCue`] message; the audio plugin plays them, or records them
//! when there is no device, so the simulation never depends on sound.

use crate::ids::OriginalObjectId;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// A sample's identity (`docs/reference/runtime.md` §10.1): the sound library (an archive path of
/// the game directory, e.g. `sounds.lib`; empty = the mission's library) and the entry
/// name in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Reflect)]
pub struct SoundKey {
    /// Library archive (empty: the mission's sound library).
    pub library: String,
    /// Entry name (e.g. `atm_rain1.wav`).
    pub name: String,
}

impl SoundKey {
    /// Parses `archive/name` (archive given) or a bare `name` (the mission's library).
    pub fn parse(text: &str) -> Self {
        match text.rsplit_once(['/', '\\']) {
            Some((library, name)) => Self { library: library.to_string(), name: name.to_string() },
            None => Self { library: String::new(), name: text.to_string() },
        }
    }
}

/// The mixer bus a sound plays on (each has its own volume setting under the master).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Reflect)]
pub enum SoundBus {
    /// Weapons, explosions, engines, FX sounds.
    #[default]
    Effects,
    /// Weather loops and thunder.
    Ambient,
    /// Unit responses.
    Voice,
    /// The ambient music theme and its variations.
    Music,
    /// Interface clicks.
    Interface,
}

/// What to do with a sample.
#[derive(Debug, Clone, Copy, PartialEq, Reflect)]
pub enum SoundAction {
    /// Play once on a new source.
    Play,
    /// Start a loop known by this id (a second start of a running id is ignored).
    StartLoop(u64),
    /// Set the volume (0..1) of a running loop (and move it to the cue's `at`, when
    /// given).
    SetLoopVolume(u64, f32),
    /// Stop a loop.
    StopLoop(u64),
}

/// A request to the audio plugin.
#[derive(Message, Debug, Clone, PartialEq, Reflect)]
pub struct SoundCue {
    /// The sample.
    pub key: SoundKey,
    /// The bus.
    pub bus: SoundBus,
    /// Play, or a loop operation.
    pub action: SoundAction,
    /// Where it sounds, in game space (`None`: not positioned, e.g. music and clicks).
    pub at: Option<[f32; 3]>,
    /// The object making the sound (`None`: the world, the interface). A positioned
    /// sound with an owner follows the owner while it lives (an engine loop moves
    /// with its unit).
    pub owner: Option<OriginalObjectId>,
    /// Volume, 0..1.
    pub volume: f32,
    /// Full volume within `range.0`, silent beyond `range.1` (game units).
    pub range: (f32, f32),
    /// Playback rate (1 = as recorded).
    pub frequency_ratio: f32,
}

impl SoundCue {
    /// The default hearing range of a positioned sound (game units).
    pub const RANGE: (f32, f32) = (100.0, 1500.0);

    /// Plays `key` once on `bus` at full volume, positioned at `at`.
    pub fn play(key: SoundKey, bus: SoundBus, at: Option<[f32; 3]>) -> Self {
        Self {
            key,
            bus,
            action: SoundAction::Play,
            at,
            owner: None,
            volume: 1.0,
            range: Self::RANGE,
            frequency_ratio: 1.0,
        }
    }

    /// The same cue made by `owner`.
    pub fn owned_by(self, owner: OriginalObjectId) -> Self {
        Self { owner: Some(owner), ..self }
    }

    /// The same cue with another action (a loop operation).
    pub fn with_action(self, action: SoundAction) -> Self {
        Self { action, ..self }
    }
}

/// The player's order rows (the wingman menu, the commander's rows) were given: the
/// last unit ordered acknowledges in the original's voice for its size class (openparkan
/// `docs/31-packages.md`, read). The interface sends it; nothing in the simulation
/// depends on it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct OrderAcknowledged {
    /// The unit that acknowledges.
    pub unit: OriginalObjectId,
}

/// The player selected a building of his clan that was not selected: the original says
/// `VOICE_SELECTED` (openparkan `docs/36-factory.md`, read). The interface sends it;
/// nothing in the simulation depends on it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct BuildingSelected {
    /// The building.
    pub building: OriginalObjectId,
}

/// The player gave `unit` an order: the unit answers (the audio plugin picks the
/// response sample of the rules and plays it on the voice bus where the unit stands).
/// The interface sends it; nothing in the simulation depends on it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct UnitResponse {
    /// The unit that answers.
    pub unit: OriginalObjectId,
}

/// An interface element was clicked (the audio plugin plays the rules' click sample on
/// the interface bus).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub struct InterfaceClick;
