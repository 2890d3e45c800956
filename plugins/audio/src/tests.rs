//! The plugin headless, without a device, over the bundled demo: cues are looked up,
//! tracked and logged; a drive produces the sound events its simulation facts
//! call for, tick by tick; pause, mute, the listener and the music.

use super::*;
use crate::ambient::{AmbientMusic, THEME_LOOP};
use crate::listener::Listener;
use crate::producers::{SoundTable, engine_loop};
use crate::samples::SampleCache;
use crate::voices::Voices;
use bevy::state::app::StatesPlugin;
use iron3d_assets::GameData;
use iron3d_core::{
    CommandQueue, GameClock, Kinematics, Order, OriginalObjectId, Pause, SimCommand, SimTransform, SoundAction,
    SoundBus, SoundCue, SoundKey, UnitResponse,
};
use iron3d_sim::testing::{enter_game, publish_map, spawn_unit};
use iron3d_vfs::GameDir;
use std::sync::Arc;

fn demo() -> Arc<GameDir> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    Arc::new(GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
}

/// The headless simulation (one update = one tick) with the plugin, no device, the
/// demo as game data, on a flat 120 × 120 map, in the game.
fn game() -> App {
    let mut app = iron3d_sim::headless_app();
    app.add_plugins(GameAudioPlugin { device: DeviceChoice::Disabled }).insert_resource(GameData(demo()));
    publish_map(app.world_mut(), 12, 10.0, |_, _| 0.0, |_, _| false).unwrap();
    enter_game(&mut app);
    app
}

fn cue(app: &mut App, cue: SoundCue) {
    app.world_mut().write_message(cue);
}

fn log(app: &App) -> Vec<SoundEvent> {
    app.world().resource::<SoundEventLog>().events.clone()
}

fn tick(app: &App) -> u32 {
    app.world().resource::<GameClock>().tick
}

fn key(name: &str) -> SoundKey {
    SoundKey::parse(name)
}

#[test]
fn without_a_device_the_game_runs_and_every_cue_is_looked_up_and_logged() {
    let mut app = game();
    assert!(!app.world().resource::<AudioDevice>().ready());
    cue(&mut app, SoundCue::play(key("EXPLODE1.WAV"), SoundBus::Effects, Some([5.0, 6.0, 7.0])));
    cue(&mut app, SoundCue::play(key("NO_SUCH.WAV"), SoundBus::Effects, None));
    cue(&mut app, SoundCue::play(key("ALIEN_ME.WAV"), SoundBus::Voice, None));
    cue(&mut app, SoundCue::play(key("EXPLODE1.WAV"), SoundBus::Effects, None));
    app.update();
    let events = log(&app);
    let outcomes: Vec<&str> = events
        .iter()
        .map(|e| match &e.outcome {
            CueOutcome::NoDevice => "no_device",
            CueOutcome::Failed { result, .. } => result.as_str(),
            _ => "other",
        })
        .collect();
    assert_eq!(outcomes, ["no_device", "entry_missing", "entry_empty", "no_device"]);
    let CueOutcome::Failed { message, .. } = &events[1].outcome else { unreachable!() };
    assert!(message.contains("library sounds.lib (") && message.contains("entry NO_SUCH.WAV"), "{message}");
    assert_eq!(events[0].key, key("sounds.lib/EXPLODE1.WAV"), "a bare name is the mission's library");
    assert_eq!((events[0].tick, events[0].at), (tick(&app), Some([5.0, 6.0, 7.0])));
    let cache = app.world().resource::<SampleCache>();
    assert_eq!((cache.decoded, cache.failed), (1, 2), "one decode serves both explosions");
    assert_eq!(app.world().resource::<Voices>().list.len(), 2, "two sources of one sample, tracked");
    for _ in 0..40 {
        app.update();
    }
    assert!(app.world().resource::<Voices>().list.is_empty(), "one-shots end with their sample (1.5 s)");
}

#[test]
fn the_default_device_choice_runs_with_or_without_a_device() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::asset::AssetPlugin::default(), StatesPlugin, iron3d_core::CorePlugin))
        .add_plugins(GameAudioPlugin::default())
        .insert_resource(GameData(demo()));
    app.update();
    cue(&mut app, SoundCue::play(key("UI_CLICK.WAV"), SoundBus::Interface, None));
    app.update();
    let ready = app.world().resource::<AudioDevice>().ready();
    let expected = if ready { CueOutcome::Played } else { CueOutcome::NoDevice };
    assert_eq!(log(&app).iter().map(|e| e.outcome.clone()).collect::<Vec<_>>(), [expected]);
}

#[test]
fn loops_start_once_change_volume_move_and_stop() {
    let mut app = game();
    let rain =
        |action| SoundCue::play(key("ATM_RAIN1.WAV"), SoundBus::Ambient, Some([1.0, 2.0, 3.0])).with_action(action);
    cue(&mut app, rain(SoundAction::StartLoop(5)));
    cue(&mut app, rain(SoundAction::StartLoop(5)));
    cue(&mut app, SoundCue { at: Some([9.0, 9.0, 9.0]), ..rain(SoundAction::SetLoopVolume(5, 0.25)) });
    app.update();
    let v = app.world().resource::<Voices>().list[0].clone();
    assert_eq!((v.volume, v.at, v.loop_id), (0.25, Some([9.0, 9.0, 9.0]), Some(5)));
    cue(&mut app, rain(SoundAction::StopLoop(5)));
    cue(&mut app, rain(SoundAction::SetLoopVolume(5, 1.0)));
    app.update();
    let outcomes: Vec<_> = log(&app).into_iter().map(|e| e.outcome).collect();
    use CueOutcome::*;
    assert_eq!(outcomes, [NoDevice, AlreadyRunning, Applied, Applied, NoSuchLoop]);
    assert!(app.world().resource::<Voices>().list.is_empty());
}

#[test]
fn an_engine_hums_while_its_unit_moves_and_follows_it() {
    let mut app = game();
    let unit = spawn_unit(app.world_mut(), 3, 1, [15.0, 15.0], 0.0, 1.5);
    app.update();
    let tick_now = tick(&app);
    app.world_mut().resource_mut::<CommandQueue>().push(SimCommand {
        tick: tick_now + 1,
        units: vec![3],
        order: Order::MoveTo([60.0, 15.0]),
        queued: false,
    });
    let min = app.world().resource::<SoundTable>().engine_min_speed;
    let mut expected = Vec::new();
    let mut humming = false;
    let mut followed = false;
    for _ in 0..300 {
        app.update();
        let moving = app.world().get::<Kinematics>(unit).unwrap().speed.abs() >= min;
        if moving != humming {
            let action = if moving {
                SoundAction::StartLoop(engine_loop(OriginalObjectId(3)))
            } else {
                SoundAction::StopLoop(engine_loop(OriginalObjectId(3)))
            };
            expected.push((tick(&app), action));
            humming = moving;
        }
        let at = app.world().get::<SimTransform>(unit).unwrap().position;
        if let Some(v) = app.world_mut().resource_mut::<Voices>().looping(engine_loop(OriginalObjectId(3))) {
            assert_eq!(v.at, Some(at), "the loop sounds where its unit stands");
            followed |= at[0] > 20.0;
        }
    }
    let heard: Vec<_> = log(&app).into_iter().map(|e| (e.tick, e.action)).collect();
    assert!(expected.len() >= 2 && followed, "it drove off and stopped: {expected:?}");
    assert_eq!(heard, expected);
    assert!(log(&app).iter().all(|e| e.owner == Some(OriginalObjectId(3)) && e.key.name == "ENG_HUM1.WAV"));
}

#[test]
fn pausing_holds_loops_and_the_music_timer_and_resuming_continues_them() {
    let mut app = game();
    cue(&mut app, SoundCue::play(key("ENG_HUM1.WAV"), SoundBus::Effects, None).with_action(SoundAction::StartLoop(9)));
    cue(&mut app, SoundCue::play(key("THEME1.WAV"), SoundBus::Music, None).with_action(SoundAction::StartLoop(10)));
    app.update();
    app.update();
    let played = |app: &mut App, id| app.world_mut().resource_mut::<Voices>().looping(id).map(|v| (v.paused, v.played));
    let before = played(&mut app, 9).unwrap();
    app.world_mut().resource_mut::<AmbientMusic>().timer.elapsed = 3.0;
    app.world_mut().resource_mut::<NextState<Pause>>().set(Pause::Paused);
    app.update();
    let paused_at = played(&mut app, 9).unwrap();
    let music_at = played(&mut app, 10).unwrap();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(played(&mut app, 9), Some((true, paused_at.1)), "held while paused");
    assert!(played(&mut app, 10).unwrap().1 > music_at.1, "music plays on");
    assert_eq!(app.world().resource::<AmbientMusic>().timer.elapsed, 3.0, "the variation timer keeps its state");
    app.world_mut().resource_mut::<NextState<Pause>>().set(Pause::Running);
    app.update();
    app.update();
    let after = played(&mut app, 9).unwrap();
    assert!(!after.0 && after.1 > paused_at.1 && paused_at.1 >= before.1, "continues from where it was");
    assert_eq!(log(&app).len(), 2, "resuming restarted nothing");
}

#[test]
fn mute_and_bus_volumes_apply_live_and_keep_the_voices() {
    let mut app = game();
    cue(&mut app, SoundCue::play(key("ATM_RAIN1.WAV"), SoundBus::Ambient, None).with_action(SoundAction::StartLoop(4)));
    app.update();
    let gain = |app: &App| app.world().resource::<Voices>().list[0].gain;
    assert_eq!(gain(&app), 1.0);
    app.world_mut().resource_mut::<AudioSettings>().ambient = 0.5;
    app.update();
    assert_eq!(gain(&app), 0.5);
    app.world_mut().resource_mut::<AudioSettings>().muted = true;
    app.update();
    let played = app.world().resource::<Voices>().list[0].played;
    app.update();
    assert_eq!(gain(&app), 0.0);
    assert!(app.world().resource::<Voices>().list[0].played > played, "time runs on while muted");
    app.world_mut().resource_mut::<AudioSettings>().muted = false;
    app.update();
    assert_eq!(gain(&app), 0.5);
}

#[test]
fn responses_take_turns_on_the_voice_bus_where_the_unit_stands_and_clicks_on_the_interface() {
    let mut app = game();
    spawn_unit(app.world_mut(), 4, 1, [30.0, 40.0], 0.0, 1.5);
    app.update();
    for _ in 0..3 {
        app.world_mut().write_message(UnitResponse { unit: OriginalObjectId(4) });
    }
    app.world_mut().write_message(iron3d_core::InterfaceClick);
    app.update();
    let heard: Vec<_> =
        log(&app).into_iter().map(|e| (e.key.name, e.bus, e.owner, e.at.map(|p| [p[0], p[1]]))).collect();
    let unit = (Some(OriginalObjectId(4)), Some([30.0, 40.0]));
    assert_eq!(
        heard,
        [
            ("UNIT_ACK1.WAV".into(), SoundBus::Voice, unit.0, unit.1),
            ("UNIT_ACK2.WAV".into(), SoundBus::Voice, unit.0, unit.1),
            ("UNIT_ACK1.WAV".into(), SoundBus::Voice, unit.0, unit.1),
            ("UI_CLICK.WAV".into(), SoundBus::Interface, None, None),
        ]
    );
}

#[derive(Component)]
struct Dolly;

#[test]
fn the_listener_takes_the_cameras_place_of_the_same_frame() {
    let mut app = game();
    app.add_plugins(bevy::transform::TransformPlugin);
    app.world_mut().spawn((Dolly, Camera3d::default(), Transform::from_xyz(0.0, 50.0, 0.0)));
    app.add_systems(Update, |mut q: Query<&mut Transform, With<Dolly>>| {
        for mut t in &mut q {
            t.translation.x += 10.0;
        }
    });
    cue(&mut app, SoundCue::play(key("UI_CLICK.WAV"), SoundBus::Interface, None));
    app.update();
    let listener = *app.world().resource::<Listener>();
    assert!(listener.placed);
    assert_eq!(listener.position, [10.0, 0.0, 50.0], "this frame's camera, in game space (Z up)");
    assert_eq!(listener.right, [1.0, 0.0, 0.0]);
    assert_eq!(log(&app)[0].listener, [10.0, 0.0, 50.0], "cues are heard from there");
}

#[test]
fn a_demo_mission_opens_with_its_theme_and_the_first_positive_frame_plays_a_variation() {
    let mut app = iron3d_sim::headless_app();
    app.add_plugins((iron3d_mission::MissionPlugin, GameAudioPlugin { device: DeviceChoice::Disabled }))
        .insert_resource(GameData(demo()));
    iron3d_mission::load_headless(&mut app, &demo(), "tutorial.01").unwrap();
    app.update();
    let events = log(&app);
    let music: Vec<_> =
        events.iter().filter(|e| e.bus == SoundBus::Music).map(|e| (e.key.name.as_str(), e.action)).collect();
    assert_eq!(music[0], ("THEME1.WAV", SoundAction::StartLoop(THEME_LOOP)));
    assert!(matches!(music[1], ("DAYVAR1.WAV" | "NIGHTVAR1.WAV", SoundAction::Play)), "{music:?}");
    let m = app.world().resource::<AmbientMusic>();
    assert!((10.0..20.0).contains(&m.timer.delay) && m.problem.is_none());
}

#[test]
fn every_sample_the_cue_table_and_the_demo_effects_name_decodes_from_the_demo() {
    let game = demo();
    let cues = iron3d_mission::game_rules(&game).unwrap().cues;
    assert!(!cues.cues.is_empty(), "the demo has a cue table");
    for k in cues.cues.iter().flat_map(|c| &c.samples) {
        samples::load(Some(&game), &key(k), "").unwrap_or_else(|e| panic!("{e}"));
    }
    let effects = game.archive("effects.rlb").unwrap();
    let mut cues = 0;
    for entry in effects.list().iter().filter(|e| e.type_or_flags == iron3d_formats::model::fxid::TYPE_ID) {
        let bytes = effects.read(&entry.name).unwrap();
        let fx = iron3d_formats::model::fxid::Effect::parse(&bytes, iron3d_formats::ReadOptions::strict()).unwrap();
        for c in effect_sound_cues(&fx, [1.0, 2.0, 3.0]) {
            assert_eq!((c.key.library.as_str(), c.range, c.frequency_ratio), ("sounds.lib", (100.0, 1500.0), 1.0));
            samples::load(Some(&game), &c.key, "").unwrap_or_else(|e| panic!("{}: {e}", entry.name));
            cues += 1;
        }
    }
    assert!(cues >= 5, "the demo's effects carry opcode-2 sounds");
}

struct NoScripts;

/// Nature (0), the player (1) and a computer clan (2).
fn with_clans(app: &mut App) {
    use iron3d_core::{ClanSetup, MissionClans};
    let clan = |index: u32, mode: u32| ClanSetup { minds: 17, ..ClanSetup::bare(index, &format!("clan{index}"), mode) };
    app.insert_resource(MissionClans { clans: vec![clan(0, 0), clan(1, 1), clan(2, 2)], files: Arc::new(NoScripts) });
}

impl iron3d_core::ScriptFiles for NoScripts {
    fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }
}

#[test]
fn the_players_outcome_speaks_in_the_original_voices() {
    use iron3d_core::{DispatchPhase, GameMessage, GameMessageKind, Outcome};
    let mut app = game();
    with_clans(&mut app);
    let voices = |app: &App| -> Vec<(SoundKey, CueOutcome)> {
        log(app).into_iter().filter(|e| e.bus == SoundBus::Voice).map(|e| (e.key, e.outcome)).collect()
    };
    // No clan has a unit: the strategy ends both, the player failed, the computer clan defeated.
    app.update();
    app.update();
    let outcome = app.world().resource::<iron3d_core::MissionOutcome>().clone();
    assert_eq!((outcome.of(1), outcome.of(2)), (Some(Outcome::Failed), Some(Outcome::Defeated)));
    assert_eq!(
        voices(&app),
        [(key("voices.lib/VOICE_MISSION_FAIL"), CueOutcome::NoDevice)],
        "only the player's end speaks, decoded from the demo's voices.lib"
    );
    let clock = *app.world().resource::<GameClock>();
    let won = GameMessageKind::Outcome { clan: 1, outcome: Outcome::Completed };
    app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::SuperAi, won));
    app.update();
    assert_eq!(voices(&app).last(), Some(&(key("voices.lib/VOICE_MISSION_COMPLETE"), CueOutcome::NoDevice)));
}

/// The order rows' acknowledgement (openparkan `docs/31-packages.md`, read): the voice
/// set of the unit's size class, decoded from the demo's `voices.lib`, never the same
/// voice twice running.
#[test]
fn an_acknowledgement_speaks_in_its_size_classes_voice_never_twice_alike() {
    use crate::producers::{ACKNOWLEDGEMENTS, next_acknowledgement, voice_set};
    use iron3d_core::{OrderAcknowledged, SizeClass};
    let mut app = game();
    let small = spawn_unit(app.world_mut(), 4, 1, [30.0, 40.0], 0.0, 1.5);
    let big = spawn_unit(app.world_mut(), 5, 1, [60.0, 40.0], 0.0, 3.0);
    app.world_mut().entity_mut(small).insert(SizeClass(2));
    app.world_mut().entity_mut(big).insert(SizeClass(4));
    app.update();
    for unit in [4, 4, 5, 6] {
        app.world_mut().write_message(OrderAcknowledged { unit: OriginalObjectId(unit) });
        app.update();
    }
    let voices: Vec<_> = log(&app).into_iter().filter(|e| e.bus == SoundBus::Voice).collect();
    assert_eq!(voices.len(), 4);
    let sets: Vec<&str> = voices.iter().map(|v| v.key.name.rsplit_once('_').map_or("", |(_, s)| s)).collect();
    assert!(voices[..2].iter().all(|v| v.key.name.ends_with("_S")), "{voices:?}");
    assert!(voices[2].key.name.ends_with("_B"), "{voices:?}");
    let plain = &voices[3].key.name;
    assert!(ACKNOWLEDGEMENTS.contains(&plain.as_str()), "no unit 6: the plain voices: {plain}");
    assert!(voices.iter().all(|v| v.key.library == "voices.lib" && v.outcome == CueOutcome::NoDevice), "{sets:?}");
    let base = |name: &str| name.trim_end_matches("_S").trim_end_matches("_B").to_string();
    assert_ne!(base(&voices[0].key.name), base(&voices[1].key.name), "never twice alike");
    assert_eq!((voice_set(Some(1)), voice_set(Some(3)), voice_set(Some(5)), voice_set(None)), ("_S", "", "_B", ""));
    let (mut state, mut last) = ((0, 0), None);
    for _ in 0..200 {
        let pick = next_acknowledgement(&mut state, last);
        assert!(pick < ACKNOWLEDGEMENTS.len() && Some(pick) != last);
        last = Some(pick);
    }
}

/// The bot the player's hero boards says it is selected in its size class's voice
/// (openparkan `docs/39-boarding.md`, read); another clan's boarding says nothing.
#[test]
fn a_bot_the_players_hero_boards_says_it_is_selected() {
    use iron3d_core::{DispatchPhase, GameMessage, GameMessageKind, ProductionEvent, SizeClass};
    let mut app = game();
    with_clans(&mut app);
    for (id, clan, size) in [(4, 1, 2), (5, 1, 4), (6, 2, 2), (7, 2, 4)] {
        let unit = spawn_unit(app.world_mut(), id, clan, [30.0 * id as f32, 40.0], 0.0, 1.5);
        app.world_mut().entity_mut(unit).insert(SizeClass(size));
    }
    app.update();
    for ids in [vec![6, 7], vec![4, 5]] {
        let clock = *app.world().resource::<GameClock>();
        let boarded = GameMessageKind::Production { event: ProductionEvent::Boarded, ids, detail: String::new() };
        app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Behavior, boarded));
        app.update();
    }
    let voices: Vec<_> =
        log(&app).into_iter().filter(|e| e.bus == SoundBus::Voice).map(|e| (e.key, e.outcome)).collect();
    assert_eq!(voices, [(key("voices.lib/VOICE_SELECTED_B"), CueOutcome::NoDevice)], "the player's large bot only");
}

/// A robot built for the player says `VOICE_UNIT_READY`, a building the player selects
/// `VOICE_SELECTED` (openparkan `docs/36-factory.md`, read); another clan's robot nothing.
#[test]
fn a_robot_built_for_the_player_and_a_building_selected_speak() {
    use iron3d_core::{BuildingSelected, DispatchPhase, GameMessage, GameMessageKind, ProductionEvent};
    let mut app = game();
    with_clans(&mut app);
    spawn_unit(app.world_mut(), 4, 2, [30.0, 40.0], 0.0, 1.5);
    spawn_unit(app.world_mut(), 5, 1, [60.0, 40.0], 0.0, 1.5);
    app.update();
    for robot in [4, 5] {
        let clock = *app.world().resource::<GameClock>();
        let made = GameMessageKind::Production {
            event: ProductionEvent::Produced,
            ids: vec![9, robot],
            detail: String::new(),
        };
        app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Production, made));
        app.update();
    }
    app.world_mut().write_message(BuildingSelected { building: OriginalObjectId(9) });
    app.update();
    let voices: Vec<_> =
        log(&app).into_iter().filter(|e| e.bus == SoundBus::Voice).map(|e| (e.key, e.outcome)).collect();
    let expected = [
        (key("voices.lib/VOICE_UNIT_READY"), CueOutcome::NoDevice),
        (key("voices.lib/VOICE_SELECTED"), CueOutcome::NoDevice),
    ];
    assert_eq!(voices, expected, "the player's robot, then the building");
}

/// The player's hero whose landing is refused says `VOICE_RISK_AREA` (openparkan
/// `docs/39-boarding.md`, read); another refusal, or another clan's, says nothing.
#[test]
fn the_players_hero_whose_landing_is_refused_says_risk_area() {
    use iron3d_core::{DispatchPhase, GameMessage, GameMessageKind, ProductionEvent, RISK_AREA};
    let mut app = game();
    with_clans(&mut app);
    spawn_unit(app.world_mut(), 4, 2, [30.0, 40.0], 0.0, 1.5);
    spawn_unit(app.world_mut(), 5, 1, [60.0, 40.0], 0.0, 1.5);
    app.update();
    for (hero, detail) in [(4, RISK_AREA), (5, "order: something else"), (5, RISK_AREA)] {
        let clock = *app.world().resource::<GameClock>();
        let refused =
            GameMessageKind::Production { event: ProductionEvent::Rejected, ids: vec![hero, 9], detail: detail.into() };
        app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Behavior, refused));
        app.update();
    }
    let voices: Vec<_> =
        log(&app).into_iter().filter(|e| e.bus == SoundBus::Voice).map(|e| (e.key, e.outcome)).collect();
    assert_eq!(voices, [(key("voices.lib/VOICE_RISK_AREA"), CueOutcome::NoDevice)], "the player's hero only");
}
