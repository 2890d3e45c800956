//! The game's own sound producers, turning simulation and interface events into
//! [`SoundCue`]s with the samples of the rules file (the project's table: `sound` names
//! the engine, the responses and the click): an engine loop per moving unit (started
//! and stopped with its motion, following the unit), a unit's response when the player
//! orders it (voice bus), interface clicks, and the original's mission voices
//! (`voices.lib`: `VOICE_MISSION_COMPLETE` / `VOICE_MISSION_FAIL`, spec `runtime.md`
//! §3.5) when the player's clan gets its outcome. The engine producer runs once per tick
//! after the simulation, in id order. Shots and explosions sound through their FXID
//! effects (`iron3d_render`'s effect playback sends the cues of their opcode-2 records,
//! or the combat rules' samples when an effect has none).

use bevy::prelude::*;
use iron3d_core::{
    GameMessage, GameMessageKind, GameRules, InterfaceClick, Kinematics, MissionClans, Movable, ObjectTable,
    OriginalObjectId, Outcome, SimTransform, SoundAction, SoundBus, SoundCue, SoundKey, UnitResponse,
};
use iron3d_rules::Rules;

/// The samples the producers use, from the rules.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct SoundTable {
    /// A moving unit's loop.
    pub engine: SoundKey,
    /// Its volume.
    pub engine_volume: f32,
    /// The speed from which a unit hums.
    pub engine_min_speed: f32,
    /// Unit responses, in turn.
    pub responses: Vec<SoundKey>,
    /// An interface click.
    pub click: SoundKey,
}

impl SoundTable {
    /// The table of a rules file.
    pub fn from_rules(rules: &Rules) -> Self {
        let s = &rules.sound;
        Self {
            engine: SoundKey::parse(&s.engine_hum),
            engine_volume: s.engine_volume,
            engine_min_speed: s.engine_min_speed,
            responses: s.responses.iter().map(|r| SoundKey::parse(r)).collect(),
            click: SoundKey::parse(&s.click),
        }
    }
}

/// Takes the sound section of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<GameRules>>, mut commands: Commands) {
    if let Some(game) = game {
        commands.insert_resource(SoundTable::from_rules(&game.rules));
    }
}

/// Base of the engine loop ids (above the theme's, `crate::ambient::THEME_LOOP`).
pub const ENGINE_LOOPS: u64 = 2 << 40;

/// The loop id of unit `id`'s engine.
pub fn engine_loop(id: OriginalObjectId) -> u64 {
    ENGINE_LOOPS | u64::from(id.0)
}

/// Producer state: the units whose engine runs (ascending ids) and the next response.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct ProducerState {
    /// Ids of humming units.
    pub humming: Vec<u32>,
    /// Index of the next response sample.
    pub next_response: usize,
}

fn position(table: &ObjectTable, objects: &Query<&SimTransform>, id: OriginalObjectId) -> Option<[f32; 3]> {
    table.entity_of(id.0).and_then(|e| objects.get(e).ok()).map(|t| t.position)
}

/// Starts an engine loop when a unit starts moving and stops it when it stops or leaves.
pub(crate) fn engines(
    units: Query<(&OriginalObjectId, &Kinematics, &SimTransform), With<Movable>>,
    sounds: Res<SoundTable>,
    mut state: ResMut<ProducerState>,
    mut cues: MessageWriter<SoundCue>,
) {
    let mut moving: Vec<(OriginalObjectId, [f32; 3])> = units
        .iter()
        .filter(|(_, k, _)| k.speed.abs() >= sounds.engine_min_speed)
        .map(|(id, _, t)| (*id, t.position))
        .collect();
    moving.sort_by_key(|(id, _)| *id);
    let cue = |id: OriginalObjectId, at: Option<[f32; 3]>, action| {
        SoundCue { volume: sounds.engine_volume, ..SoundCue::play(sounds.engine.clone(), SoundBus::Effects, at) }
            .owned_by(id)
            .with_action(action)
    };
    let now: Vec<u32> = moving.iter().map(|(id, _)| id.0).collect();
    for &gone in state.humming.iter().filter(|id| now.binary_search(id).is_err()) {
        let id = OriginalObjectId(gone);
        cues.write(cue(id, None, SoundAction::StopLoop(engine_loop(id))));
    }
    for &(id, at) in moving.iter().filter(|(id, _)| state.humming.binary_search(&id.0).is_err()) {
        cues.write(cue(id, Some(at), SoundAction::StartLoop(engine_loop(id))));
    }
    state.humming = now;
}

/// A unit's response to the player's order, in turn, where it stands.
pub(crate) fn responses(
    mut orders: MessageReader<UnitResponse>,
    sounds: Res<SoundTable>,
    table: Res<ObjectTable>,
    objects: Query<&SimTransform>,
    mut state: ResMut<ProducerState>,
    mut cues: MessageWriter<SoundCue>,
) {
    for r in orders.read() {
        let Some(key) = sounds.responses.get(state.next_response % sounds.responses.len().max(1)) else { return };
        state.next_response = state.next_response.wrapping_add(1);
        cues.write(SoundCue::play(key.clone(), SoundBus::Voice, position(&table, &objects, r.unit)).owned_by(r.unit));
    }
}

/// Interface clicks.
pub(crate) fn clicks(
    mut clicks: MessageReader<InterfaceClick>,
    sounds: Res<SoundTable>,
    mut cues: MessageWriter<SoundCue>,
) {
    for _ in clicks.read() {
        cues.write(SoundCue::play(sounds.click.clone(), SoundBus::Interface, None));
    }
}

/// The library of the original's voices.
pub const VOICES: &str = "voices.lib";
/// The voice of a completed mission (host callback `(0, 0, 1)`).
pub const VOICE_COMPLETE: &str = "VOICE_MISSION_COMPLETE";
/// The voice of a failed mission (host callback `(0, 0, 0)`).
pub const VOICE_FAIL: &str = "VOICE_MISSION_FAIL";

/// The player's clan's outcome says so in the original's voice (a data set without
/// `voices.lib` or the sample plays nothing; the cue's failure is logged once).
pub(crate) fn outcome_voices(
    mut messages: MessageReader<GameMessage>,
    clans: Option<Res<MissionClans>>,
    mut cues: MessageWriter<SoundCue>,
) {
    let player = clans.and_then(|c| c.player());
    for m in messages.read() {
        let GameMessageKind::Outcome { clan, outcome } = &m.kind else { continue };
        if Some(*clan) != player {
            continue;
        }
        let name = if *outcome == Outcome::Completed { VOICE_COMPLETE } else { VOICE_FAIL };
        let key = SoundKey { library: VOICES.into(), name: name.into() };
        cues.write(SoundCue::play(key, SoundBus::Voice, None));
    }
}

/// Forgets the humming units (a mission closed).
pub(crate) fn reset(mut state: ResMut<ProducerState>) {
    state.humming.clear();
}
