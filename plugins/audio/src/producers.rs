//! The game's own sound producers, turning simulation and interface events into
//! [`SoundCue`]s with the samples of the data's cue table (`iron3d.cues.ron`, by event
//! and the object's class, with a fallback per event): an engine loop per moving unit (started
//! and stopped with its motion, following the unit), a unit's response when the player
//! orders it (voice bus), interface clicks, and the original's mission voices
//! (`voices.lib`: `VOICE_MISSION_COMPLETE` / `VOICE_MISSION_FAIL`, `docs/reference/runtime.md`
//! §3.5) when the player's clan gets its outcome, and its acknowledgements when the
//! player's order rows are given (`VOICE_ACKNOWLEDGE` … `VOICE_EXECUTE`, `_S` for size
//! classes 1 and 2, `_B` for 4 and 5, never the same twice running); the bot the
//! player's hero boards says `VOICE_SELECTED` in its set's voice, a building the player
//! selects plain `VOICE_SELECTED`, and a robot built for the player `VOICE_UNIT_READY`
//! (openparkan `docs/39-boarding.md`, `docs/36-factory.md`, read). The engine producer runs once per tick
//! after the simulation, in id order. Shots and explosions sound through their FXID
//! effects (`iron3d_render`'s effect playback sends the cues of their opcode-2 records,
//! or the cue table's samples when an effect has none).

use crate::AudioSystems;
use bevy::prelude::*;
use iron3d_core::{
    AppState, BuildingSelected, GameMessage, GameMessageKind, GameRules, InterfaceClick, Kinematics, MissionClans,
    MissionStart, Movable, ObjectTable, OrderAcknowledged, OriginalObjectId, Outcome, Owner, Pause, ProductionEvent,
    RISK_AREA, SimTransform, SizeClass, SoundAction, SoundBus, SoundCue, SoundKey, UnitClass, UnitResponse,
};
use iron3d_rules::{CueEvent, Cues, Rules};
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    match Rules::shipped() {
        Ok(rules) => {
            app.insert_resource(SoundTable::new(&rules, Default::default()));
        }
        Err(e) => error!(target: "audio", "no game sounds: {e}"),
    }
    app.init_resource::<ProducerState>()
        .register_type::<ProducerState>()
        .register_type::<SoundTable>()
        .add_systems(OnEnter(AppState::MainMenu), menu_table)
        .add_systems(OnEnter(AppState::InGame), adopt_rules.in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), reset)
        .add_systems(
            FixedPostUpdate,
            (
                engines.run_if(in_state(Pause::Running).and_then(resource_exists::<SoundTable>)),
                outcome_voices,
                player_voices,
            ),
        )
        .add_systems(
            PostUpdate,
            (responses, clicks).chain().run_if(resource_exists::<SoundTable>).in_set(AudioSystems::Cues),
        )
        .add_systems(PostUpdate, (acknowledgements, selection_voices).in_set(AudioSystems::Cues));
}

/// What the producers play: the engine's numbers from the rules, the samples from the
/// data's cue table.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct SoundTable {
    /// An engine loop's volume.
    pub engine_volume: f32,
    /// The speed from which a unit hums.
    pub engine_min_speed: f32,
    /// The cue table (events to samples).
    #[reflect(ignore)]
    pub cues: Arc<Cues>,
}

impl SoundTable {
    /// The table of a rules file and a cue table.
    pub fn new(rules: &Rules, cues: Arc<Cues>) -> Self {
        Self { engine_volume: rules.sound.engine_volume, engine_min_speed: rules.sound.engine_min_speed, cues }
    }

    /// The first sample of `event` for an object of `class`.
    pub fn first_sample(&self, event: CueEvent, class: Option<u32>) -> Option<SoundKey> {
        self.cues.pick(event, class, None)?.samples.first().map(|s| SoundKey::parse(s))
    }

    /// The samples of `event` for an object of `class`.
    pub fn samples(&self, event: CueEvent, class: Option<u32>) -> Vec<SoundKey> {
        self.cues
            .pick(event, class, None)
            .map_or_else(Vec::new, |c| c.samples.iter().map(|s| SoundKey::parse(s)).collect())
    }
}

/// The menu's table: the game data's rules and cue table (a broken one is logged and
/// keeps the table it has).
pub(crate) fn menu_table(game: Option<Res<iron3d_assets::GameData>>, mut commands: Commands) {
    let Some(game) = game else { return };
    match iron3d_mission::game_rules(&game.0) {
        Ok(g) => commands.insert_resource(SoundTable::new(&g.rules, g.cues)),
        Err(e) => warn!(target: "audio", "menu sounds: {e}"),
    }
}

/// Takes the sound section of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<GameRules>>, mut commands: Commands) {
    if let Some(game) = game {
        commands.insert_resource(SoundTable::new(&game.rules, Arc::clone(&game.cues)));
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
    /// Humming units (ascending ids) with their engine sample.
    pub humming: Vec<(u32, SoundKey)>,
    /// Index of the next response sample.
    pub next_response: usize,
    /// The acknowledgement voice last played (its index in [`ACKNOWLEDGEMENTS`]).
    pub last_acknowledgement: Option<usize>,
    /// The acknowledgement pick's 16-bit xorshift pair.
    pub acknowledgement_random: (u16, u16),
}

/// Starts an engine loop when a unit starts moving and stops it when it stops or leaves
/// (a unit whose class has no engine sample stays silent).
pub(crate) fn engines(
    units: Query<(&OriginalObjectId, &Kinematics, &SimTransform, Option<&UnitClass>), With<Movable>>,
    sounds: Res<SoundTable>,
    mut state: ResMut<ProducerState>,
    mut cues: MessageWriter<SoundCue>,
) {
    let mut moving: Vec<(OriginalObjectId, [f32; 3], SoundKey)> = units
        .iter()
        .filter(|(_, k, _, _)| k.speed.abs() >= sounds.engine_min_speed)
        .filter_map(|(id, _, t, class)| {
            let key = sounds.first_sample(CueEvent::Engine, class.map(|c| c.0))?;
            Some((*id, t.position, key))
        })
        .collect();
    moving.sort_by_key(|(id, _, _)| *id);
    let cue = |id: OriginalObjectId, key: SoundKey, at: Option<[f32; 3]>, action| {
        SoundCue { volume: sounds.engine_volume, ..SoundCue::play(key, SoundBus::Effects, at) }
            .owned_by(id)
            .with_action(action)
    };
    let now: Vec<(u32, SoundKey)> = moving.iter().map(|(id, _, key)| (id.0, key.clone())).collect();
    let hums = |list: &[(u32, SoundKey)], id: u32| list.binary_search_by_key(&id, |(i, _)| *i).is_ok();
    for (gone, key) in state.humming.iter().filter(|(id, _)| !hums(&now, *id)) {
        let id = OriginalObjectId(*gone);
        cues.write(cue(id, key.clone(), None, SoundAction::StopLoop(engine_loop(id))));
    }
    for (id, at, key) in moving.into_iter().filter(|(id, _, _)| !hums(&state.humming, id.0)) {
        cues.write(cue(id, key, Some(at), SoundAction::StartLoop(engine_loop(id))));
    }
    state.humming = now;
}

/// A unit's response to the player's order (its class's samples in turn), where it stands.
pub(crate) fn responses(
    mut orders: MessageReader<UnitResponse>,
    sounds: Res<SoundTable>,
    table: Res<ObjectTable>,
    objects: Query<(&SimTransform, Option<&UnitClass>)>,
    mut state: ResMut<ProducerState>,
    mut cues: MessageWriter<SoundCue>,
) {
    for r in orders.read() {
        let found = table.entity_of(r.unit.0).and_then(|e| objects.get(e).ok());
        let samples = sounds.samples(CueEvent::Response, found.and_then(|(_, c)| c).map(|c| c.0));
        let Some(key) = samples.get(state.next_response % samples.len().max(1)) else { continue };
        state.next_response = state.next_response.wrapping_add(1);
        let at = found.map(|(t, _)| t.position);
        cues.write(SoundCue::play(key.clone(), SoundBus::Voice, at).owned_by(r.unit));
    }
}

/// Interface clicks.
pub(crate) fn clicks(
    mut clicks: MessageReader<InterfaceClick>,
    sounds: Res<SoundTable>,
    mut cues: MessageWriter<SoundCue>,
) {
    if clicks.is_empty() {
        return;
    }
    let Some(key) = sounds.first_sample(CueEvent::Click, None) else { return };
    for _ in clicks.read() {
        cues.write(SoundCue::play(key.clone(), SoundBus::Interface, None));
    }
}

/// The library of the original's voices.
pub const VOICES: &str = "voices.lib";

/// A cue playing voice `name` of [`VOICES`] on the voice bus, not positioned.
pub fn voice(name: impl Into<String>) -> SoundCue {
    SoundCue::play(SoundKey { library: VOICES.into(), name: name.into() }, SoundBus::Voice, None)
}

/// The five acknowledgement voices of a set (openparkan `docs/31-packages.md`, read).
pub const ACKNOWLEDGEMENTS: [&str; 5] =
    ["VOICE_ACKNOWLEDGE", "VOICE_AFFIRMATIVE", "VOICE_YES_SIR", "VOICE_OK", "VOICE_EXECUTE"];

/// The voice set of a unit's size class: `_S` for 1 and 2, `_B` for 4 and 5, the plain
/// voices otherwise (read).
pub fn voice_set(size: Option<u8>) -> &'static str {
    match size {
        Some(1 | 2) => "_S",
        Some(4 | 5) => "_B",
        _ => "",
    }
}

/// The original's 16-bit xorshift pair (`x ← 2x xor y`, then `y ← (y >> 1) xor x`; the
/// result is `y`, read); its seed is the project's.
fn xorshift((x, y): &mut (u16, u16)) -> u16 {
    *x = x.wrapping_shl(1) ^ *y;
    *y = (*y >> 1) ^ *x;
    *y
}

/// The xorshift's seed, and its seed again should it ever fall to zero (the project's).
const ACKNOWLEDGEMENT_SEED: (u16, u16) = (0x2f6b, 0x91c3);

/// The next acknowledgement voice: a random one of the five, never the last again (read;
/// after 16 draws of the last one, the next in turn).
pub fn next_acknowledgement(state: &mut (u16, u16), last: Option<usize>) -> usize {
    let n = ACKNOWLEDGEMENTS.len();
    for _ in 0..16 {
        if *state == (0, 0) {
            *state = ACKNOWLEDGEMENT_SEED;
        }
        let pick = usize::from(xorshift(state)) % n;
        if Some(pick) != last {
            return pick;
        }
    }
    last.map_or(0, |l| (l + 1) % n)
}

/// The unit an order row was given to acknowledges in its size class's voice, queued on
/// the voice bus (a data set without `voices.lib` or the sample plays nothing).
pub(crate) fn acknowledgements(
    mut read: MessageReader<OrderAcknowledged>,
    table: Res<ObjectTable>,
    sizes: Query<&SizeClass>,
    mut state: ResMut<ProducerState>,
    mut cues: MessageWriter<SoundCue>,
) {
    for a in read.read() {
        let size = table.entity_of(a.unit.0).and_then(|e| sizes.get(e).ok()).map(|s| s.0);
        let last = state.last_acknowledgement;
        let pick = next_acknowledgement(&mut state.acknowledgement_random, last);
        state.last_acknowledgement = Some(pick);
        let name = format!("{}{}", ACKNOWLEDGEMENTS[pick], voice_set(size));
        cues.write(voice(name).owned_by(a.unit));
    }
}
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
        cues.write(voice(name));
    }
}

/// The voice of an object selected: a bot boarded by the player's hero, a building.
pub const VOICE_SELECTED: &str = "VOICE_SELECTED";
/// The voice of a robot built for the player.
pub const VOICE_UNIT_READY: &str = "VOICE_UNIT_READY";
/// The voice of the hero's landing refused.
pub const VOICE_RISK_AREA: &str = "VOICE_RISK_AREA";

/// The player's clan's voices of the simulation's events: the bot the player's hero
/// boards is selected and says so in its size class's voice (`VOICE_SELECTED_B` for the
/// large bots a hero boards), a robot a factory made for the player says
/// `VOICE_UNIT_READY`, and the hero whose landing is refused `VOICE_RISK_AREA` (read).
pub(crate) fn player_voices(
    mut messages: MessageReader<GameMessage>,
    clans: Option<Res<MissionClans>>,
    table: Res<ObjectTable>,
    units: Query<(&Owner, Option<&SizeClass>)>,
    mut cues: MessageWriter<SoundCue>,
) {
    let player = clans.and_then(|c| c.player()).and_then(|p| i32::try_from(p).ok());
    let of = |id: u32| table.entity_of(id).and_then(|e| units.get(e).ok());
    let players = |id: u32| player.is_some() && of(id).map(|(o, _)| o.clan) == player;
    for m in messages.read() {
        let GameMessageKind::Production { event, ids, detail } = &m.kind else { continue };
        let (name, speaker) = match (event, &ids[..]) {
            (ProductionEvent::Boarded, &[hero, bot]) if players(hero) => {
                let size = of(bot).and_then(|(_, s)| s).map(|s| s.0);
                (format!("{VOICE_SELECTED}{}", voice_set(size)), bot)
            }
            (ProductionEvent::Produced, &[_, robot]) if players(robot) => (VOICE_UNIT_READY.to_string(), robot),
            (ProductionEvent::Rejected, &[hero, _]) if players(hero) && detail == RISK_AREA => {
                (VOICE_RISK_AREA.to_string(), hero)
            }
            _ => continue,
        };
        cues.write(voice(name).owned_by(OriginalObjectId(speaker)));
    }
}

/// A building the player selects says `VOICE_SELECTED` (read).
pub(crate) fn selection_voices(mut read: MessageReader<BuildingSelected>, mut cues: MessageWriter<SoundCue>) {
    for s in read.read() {
        cues.write(voice(VOICE_SELECTED).owned_by(s.building));
    }
}

/// Forgets the humming units (a mission closed).
pub(crate) fn reset(mut state: ResMut<ProducerState>) {
    state.humming.clear();
}
