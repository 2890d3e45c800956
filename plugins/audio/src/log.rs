//! The sound event log (`docs/reference/runtime.md` §15, trace "sound"): one entry per cue
//! handled, with the tick, the sample key, the owner, the position, the bus, the
//! listener and what happened. Tests compare these events, never waveforms. Cleared
//! when a mission starts loading; keeps the latest [`SoundEventLog::CAPACITY`] entries.

use crate::device::CueOutcome;
use bevy::prelude::*;
use iron3d_core::{AppState, OriginalObjectId, SoundAction, SoundBus, SoundKey};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SoundEventLog>()
        .register_type::<SoundEventLog>()
        .add_systems(OnEnter(AppState::Loading), clear);
}

/// One handled cue.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct SoundEvent {
    /// The simulation tick when the cue was handled (the frame's last tick).
    pub tick: u32,
    /// The sample (library resolved: a bare name shows the mission's library).
    pub key: SoundKey,
    /// What was asked.
    pub action: SoundAction,
    /// The object making the sound.
    pub owner: Option<OriginalObjectId>,
    /// Where (game space).
    pub at: Option<[f32; 3]>,
    /// The bus.
    pub bus: SoundBus,
    /// The listener's position then (game space).
    pub listener: [f32; 3],
    /// The result.
    pub outcome: CueOutcome,
}

/// Every handled cue, oldest first.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct SoundEventLog {
    /// The entries.
    pub events: Vec<SoundEvent>,
}

impl SoundEventLog {
    /// Entries kept (older ones are dropped).
    pub const CAPACITY: usize = 8192;

    /// Appends an entry, dropping the oldest beyond the capacity.
    pub fn push(&mut self, event: SoundEvent) {
        if self.events.len() >= Self::CAPACITY {
            self.events.drain(..Self::CAPACITY / 4);
        }
        self.events.push(event);
    }

    /// The entries of `tick`.
    pub fn at_tick(&self, tick: u32) -> impl Iterator<Item = &SoundEvent> {
        self.events.iter().filter(move |e| e.tick == tick)
    }
}

pub(crate) fn clear(mut log: ResMut<SoundEventLog>) {
    log.events.clear();
}
