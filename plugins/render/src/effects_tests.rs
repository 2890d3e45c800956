//! Effect playback headless over the committed demo tree: combat messages start the
//! FXID effects the demo's cue table names, their records become entities with their
//! windows, each sound record is sent once, ages hold while paused, effects despawn at
//! the end, and a missing effect falls back to the stand-in and the cue's sample.

use super::*;
use crate::combat::Fireball;
use crate::tests::{beam_weapon, demo, headless_app};
use bevy::time::TimeUpdateStrategy;
use iron3d_core::{DispatchPhase, GameClock, ObjectHandle, ObjectRef};
use std::time::Duration;

/// One update's step of virtual time.
const STEP: Duration = Duration::from_millis(50);

/// Sound cues sent so far.
#[derive(Resource, Default)]
struct Heard(Vec<SoundCue>);

fn hear(mut cues: MessageReader<SoundCue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().cloned());
}

/// The effect systems over the demo with the shipped combat rules and the demo's cue
/// table (`edit` changes it).
fn app(edit: impl FnOnce(&mut iron3d_rules::Cues)) -> App {
    let mut app = headless_app(&demo());
    let mut game = iron3d_mission::game_rules(&demo()).unwrap();
    edit(Arc::make_mut(&mut game.cues));
    app.insert_resource(CombatRules(iron3d_combat::CombatPlugin::shipped().rules))
        .insert_resource(game)
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .init_resource::<EffectLibrary>()
        .init_resource::<Heard>()
        .add_systems(Startup, (crate::combat::setup, setup))
        .add_systems(Update, (play_combat_effects, age_effects, animate_effects, crate::combat::age_stand_ins).chain())
        .add_systems(Last, hear);
    app.update();
    app
}

fn destroyed(app: &mut App, id: u32, position: [f32; 3]) {
    let object = ObjectRef { id: OriginalObjectId(id), handle: ObjectHandle { index: id, generation: 0 } };
    let kind = GameMessageKind::Destroyed { object, by: None, position };
    app.world_mut().write_message(GameMessage::new(&GameClock::default(), DispatchPhase::Control, kind));
}

/// The cue of `event` (no class) and `weapon` in the app's table.
fn cue(app: &App, event: CueEvent, weapon: Option<&str>) -> iron3d_rules::Cue {
    app.world().resource::<GameRules>().cues.pick(event, None, weapon).unwrap().clone()
}

fn effects(app: &mut App) -> Vec<PlayingEffect> {
    let world = app.world_mut();
    world.query::<&PlayingEffect>().iter(world).cloned().collect()
}

#[test]
fn an_explosion_plays_its_records_sounds_once_holds_while_paused_and_ends() {
    let mut app = app(|_| {});
    let name = cue(&app, CueEvent::Explosion, None).effect.unwrap();
    let fx = Effect::parse(&demo().read_entry(EFFECTS_ARCHIVE, &name).unwrap(), ReadOptions::strict()).unwrap();
    let expected = plan(&fx).unwrap();
    destroyed(&mut app, 7, [10.0, 20.0, 5.0]);
    app.update();

    // One effect at the place, its records as children with the plan's windows.
    let playing = effects(&mut app);
    assert_eq!(playing.len(), 1);
    assert_eq!((playing[0].name.as_str(), playing[0].duration), (name.as_str(), expected.duration));
    let world = app.world_mut();
    let (root, place) = world.query_filtered::<(Entity, &Transform), With<PlayingEffect>>().single(world).unwrap();
    assert_eq!(place.translation, Vec3::from(to_bevy([10.0, 20.0, 5.0])));
    let mut sprites: Vec<(usize, [f32; 2])> = world
        .query::<(&EffectSprite, &ChildOf)>()
        .iter(world)
        .filter(|(_, c)| c.parent() == root)
        .map(|(s, _)| (s.command, s.window))
        .collect();
    sprites.sort_by_key(|a| a.0);
    let lights: Vec<(usize, [f32; 2])> =
        world.query::<&EffectLight>().iter(world).map(|l| (l.command, l.window)).collect();
    let mut drawn = Vec::new();
    for r in &expected.records {
        match &r.kind {
            RecordKind::Billboard { .. } => drawn.push((r.command, r.window)),
            RecordKind::Particles { count, .. } => drawn.extend((0..*count).map(|_| (r.command, r.window))),
            _ => {}
        }
    }
    assert!(drawn.len() > 2, "the demo explosion draws billboards and particles: {drawn:?}");
    assert_eq!(sprites, drawn);
    let planned_lights: Vec<_> = expected
        .records
        .iter()
        .filter(|r| matches!(r.kind, RecordKind::Light { .. }))
        .map(|r| (r.command, r.window))
        .collect();
    assert_eq!(lights, planned_lights);
    assert!(!lights.is_empty());

    // Each sound record is sent once, owned by the destroyed object, where it was.
    let sounds: Vec<SoundKey> = expected
        .records
        .iter()
        .filter_map(|r| match &r.kind {
            RecordKind::Sound(s) => Some(iron3d_audio::sound_cue(s, [0.0; 3]).key),
            _ => None,
        })
        .collect();
    assert!(!sounds.is_empty());
    let heard = |app: &App| app.world().resource::<Heard>().0.clone();
    let first = heard(&app);
    assert_eq!(first.iter().map(|c| c.key.clone()).collect::<Vec<_>>(), sounds);
    assert!(first.iter().all(|c| c.owner == Some(OriginalObjectId(7)) && c.at == Some([10.0, 20.0, 5.0])));

    // Paused, the effect holds its age.
    let age = effects(&mut app)[0].age;
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    app.world_mut().resource_mut::<NextState<Pause>>().set(Pause::Paused);
    app.update();
    let held = effects(&mut app)[0].age;
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(effects(&mut app)[0].age, held, "a paused game holds its effects");
    assert!(held > age);
    app.world_mut().resource_mut::<NextState<Pause>>().set(Pause::Running);

    // Running again, it lives its duration, then despawns with its children.
    let steps = (expected.duration / STEP.as_secs_f32()).ceil() as usize + 2;
    for _ in 0..steps {
        app.update();
    }
    assert!(effects(&mut app).is_empty(), "the effect ended");
    let world = app.world_mut();
    assert_eq!(world.query::<&EffectSprite>().iter(world).count(), 0);
    assert_eq!(heard(&app).len(), sounds.len(), "no sound was sent twice");
    assert!(app.world().resource::<EffectLibrary>().failed.is_empty());
}

#[test]
fn sprites_follow_their_window_and_particles_fly() {
    let mut app = app(|_| {});
    destroyed(&mut app, 3, [0.0, 0.0, 0.0]);
    app.update();
    let mut before: Vec<(Entity, EffectSprite, Transform, Visibility)> = Vec::new();
    let world = app.world_mut();
    for (e, s, t, v) in world.query::<(Entity, &EffectSprite, &Transform, &Visibility)>().iter(world) {
        before.push((e, s.clone(), *t, *v));
    }
    for _ in 0..4 {
        app.update();
    }
    let age = effects(&mut app)[0].age;
    for (e, sprite, _, _) in &before {
        let (t, v) = (*app.world().get::<Transform>(*e).unwrap(), *app.world().get::<Visibility>(*e).unwrap());
        let inside = progress(sprite.window, age).is_some();
        assert_eq!(v, if inside { Visibility::Inherited } else { Visibility::Hidden }, "{sprite:?} at {age}");
        if inside && sprite.velocity != Vec3::ZERO {
            let dt = age - sprite.window[0];
            let expected = sprite.start + sprite.velocity * dt - Vec3::Y * (0.5 * sprite.gravity * dt * dt);
            assert!((t.translation - expected).length() < 1e-4, "{t:?} vs {expected:?}");
        }
    }
    assert!(before.iter().any(|(_, s, _, _)| s.velocity != Vec3::ZERO), "the explosion throws particles");
}

#[test]
fn far_from_the_camera_sprites_keep_their_size_on_screen() {
    let mut app = app(|_| {});
    let eye = Vec3::new(0.0, 0.0, 4.0 * KEEP_SIZE_BEYOND);
    app.world_mut().spawn((Camera3d::default(), Transform::from_translation(eye)));
    destroyed(&mut app, 3, [0.0, 0.0, 0.0]);
    app.update();
    app.update();
    let age = effects(&mut app)[0].age;
    let world = app.world_mut();
    let mut checked = 0;
    for (sprite, t, v) in world.query::<(&EffectSprite, &Transform, &Visibility)>().iter(world) {
        let Some(u) = progress(sprite.window, age).filter(|_| *v == Visibility::Inherited) else { continue };
        let plain = ease(sprite.size[0].x, sprite.size[1].x, u, sprite.grow_pow);
        // The effect plays at the origin: the sprite's translation is its world place.
        let expected = plain * eye.distance(t.translation) / KEEP_SIZE_BEYOND;
        assert!((t.scale.x - expected).abs() < 1e-3 * expected.max(1.0), "{} vs {expected}", t.scale.x);
        checked += 1;
    }
    assert!(checked > 0, "some sprite is shown");
    assert_eq!(distance_scale(KEEP_SIZE_BEYOND / 2.0), 1.0, "near the camera sprites keep their own size");
}

#[test]
fn a_missing_effect_is_reported_once_and_the_stand_in_and_the_cues_sample_play() {
    let no_such = |c: &mut iron3d_rules::Cues| {
        c.cues.iter_mut().filter(|c| c.event == CueEvent::Explosion).for_each(|c| c.effect = Some("fx_no_such".into()));
    };
    let mut app = app(no_such);
    destroyed(&mut app, 1, [1.0, 2.0, 3.0]);
    destroyed(&mut app, 2, [4.0, 5.0, 6.0]);
    app.update();
    assert!(effects(&mut app).is_empty());
    let world = app.world_mut();
    assert_eq!(world.query::<&Fireball>().iter(world).count(), 2, "each explosion shows the stand-in");
    let library = app.world().resource::<EffectLibrary>();
    assert_eq!(library.failed.len(), 1, "reported once: {:?}", library.failed);
    let report = &library.failed[0];
    assert!(
        report.starts_with("cue Explosion → effect fx_no_such → effects.rlb/fx_no_such: "),
        "the chain is named: {report}"
    );
    let sample = SoundKey::parse(&cue(&app, CueEvent::Explosion, None).samples[0]);
    let heard = &app.world().resource::<Heard>().0;
    assert_eq!(heard.len(), 2);
    assert!(heard.iter().all(|c| c.key == sample));
    assert_eq!(heard[1].owner, Some(OriginalObjectId(2)));
}

#[test]
fn a_shot_plays_its_weapon_effect_with_sound_where_it_fires_and_silently_where_it_hits() {
    let mut app = app(|_| {});
    let rules = app.world().resource::<CombatRules>().0.clone();
    let weapon = beam_weapon(0.0);
    let mut refs = Vec::new();
    for (id, x) in [(1, 0.0), (2, 50.0)] {
        let transform = SimTransform { position: [x, 0.0, 0.0], orientation: [0.0; 3], scale: [1.0; 3] };
        let e = app.world_mut().spawn((transform, weapon)).id();
        let handle = app.world_mut().resource_mut::<ObjectTable>().insert(e, OriginalObjectId(id));
        refs.push(ObjectRef { id: OriginalObjectId(id), handle });
    }
    let clock = GameClock::default();
    let fired = GameMessageKind::Fired { shooter: refs[0], target: refs[1], weapon: 0 };
    let damaged = GameMessageKind::Damaged { target: refs[1], attacker: Some(refs[0]), node: 0, amount: 1.0, hp: 9.0 };
    for kind in [fired, damaged] {
        app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Control, kind));
    }
    app.update();
    let world = app.world_mut();
    let mut places: Vec<(String, Vec3)> = world
        .query::<(&PlayingEffect, &Transform)>()
        .iter(world)
        .map(|(e, t)| (e.name.clone(), t.translation))
        .collect();
    places.sort_by(|a, b| a.1.x.total_cmp(&b.1.x));
    let effect = &cue(&app, CueEvent::Shot, Some(&rules.weapons[0].name)).effect.unwrap();
    assert_eq!(
        places,
        [
            (effect.clone(), Vec3::from(to_bevy([0.0, 0.0, LIFT]))),
            (effect.clone(), Vec3::from(to_bevy([50.0, 0.0, LIFT])))
        ]
    );
    let fx = Effect::parse(&demo().read_entry(EFFECTS_ARCHIVE, effect).unwrap(), ReadOptions::strict()).unwrap();
    let expected: Vec<SoundKey> = iron3d_audio::effect_sound_cues(&fx, [0.0; 3]).into_iter().map(|c| c.key).collect();
    assert!(!expected.is_empty());
    let heard = &app.world().resource::<Heard>().0;
    assert_eq!(heard.iter().map(|c| c.key.clone()).collect::<Vec<_>>(), expected, "only the shot sounds");
    assert!(heard.iter().all(|c| c.owner == Some(OriginalObjectId(1)) && c.at == Some([0.0, 0.0, LIFT])));
}
