//! Animals (`gameplay.md` §1.4, openparkan `docs/31-packages.md`, read): an animal
//! without an order migrates; it walks to points of its clan's current pasture on the
//! +x, +y side of the centre, 0.2 to 1 inner radius along each axis, and fires at
//! nothing; it attacks a hostile machine inside the inner radius, and whoever hits it,
//! each attack limited in time and to a circle about the pasture's centre; a clan
//! without zones grazes on the spot.

use super::*;
use iron3d_behavior::{Migration, Navigator, Pastures};
use std::sync::Arc;

const BATTLE_UNIT: u32 = 0x0100_8000;
const BEAST: u32 = 1;
const ROBOT: u32 = 2;
/// The pasture: centre (30, 30), inner 20, outer 30 (Mission 02's are 20 and 40 or 50).
const PASTURE: Pasture = Pasture { centre: [30.0, 30.0, 0.0], inner: 20.0, outer: 30.0 };

struct NoFiles;

impl ScriptFiles for NoFiles {
    fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }
}

/// A nature clan 0 with the given pastures and a player clan 1, the beast of clan 0 at
/// `beast`, on the flat 120 × 120 map.
fn meadow(pastures: Vec<Pasture>, beast: [f32; 2]) -> (App, Entity) {
    let mut app = world_app(flat, |_, _| false);
    let clan = |index: u32, name: &str, mode: u32, pastures: Vec<Pasture>| ClanSetup {
        minds: 17,
        pastures,
        ..ClanSetup::bare(index, name, mode)
    };
    let clans = vec![clan(0, "Nature", ClanType::NATURE, pastures), clan(1, "Player", ClanType::PLAYER, Vec::new())];
    app.world_mut().insert_resource(ClanRelations::from_clans(&clans));
    app.world_mut().insert_resource(MissionClans { clans, files: Arc::new(NoFiles) });
    let e = spawn_unit(app.world_mut(), BEAST, 0, beast, 0.0, 1.5);
    app.world_mut().entity_mut(e).insert(UnitClass(UnitClass::ANIMAL));
    (app, e)
}

fn robot(app: &mut App, at: [f32; 2]) -> Entity {
    let e = spawn_unit(app.world_mut(), ROBOT, 1, at, 0.0, 2.0);
    app.world_mut().entity_mut(e).insert(UnitClass(BATTLE_UNIT));
    e
}

fn nav(app: &App, e: Entity) -> Navigator {
    app.world().get::<Navigator>(e).unwrap().clone()
}

fn migration(app: &App, e: Entity) -> Migration {
    *app.world().get::<Migration>(e).unwrap()
}

fn invulnerable(app: &mut App, e: Entity) {
    app.world_mut().get_mut::<Health>(e).unwrap().invulnerable = true;
}

#[test]
fn an_animal_grazes_points_of_its_clans_pasture_on_the_far_side_and_fires_at_nothing() {
    let (mut app, beast) = meadow(vec![PASTURE], [35.0, 35.0]);
    // A hostile machine in its weapon's reach, between the radii: not engaged.
    robot(&mut app, [30.0, 5.0]);
    let (c, r) = (PASTURE.centre, PASTURE.inner);
    let mut points = Vec::new();
    // Each stand at a point, in ticks (a stand ends when it walks on).
    let (mut stands, mut standing) = (Vec::new(), 0u32);
    for _ in 0..3000 {
        app.update();
        let n = nav(&app, beast);
        assert_eq!(n.order, Order::Migrate, "it has no other order");
        let p = n.goal;
        let share = [(p[0] - c[0]) / r, (p[1] - c[1]) / r];
        assert!(share.iter().all(|s| (0.2..=1.0).contains(s)), "a point on the +x, +y side: {p:?}");
        if points.last() != Some(&p) {
            points.push(p);
        }
        if state(&app, beast) == NavState::Moving {
            if standing > 0 {
                stands.push(standing * TICK_MS);
            }
            standing = 0;
        } else {
            standing += 1;
        }
        assert_eq!(app.world().get::<Radar>(beast).unwrap().target, None, "it fires at nothing");
    }
    assert!(points.len() >= 5, "it walks on from point to point: {points:?}");
    // It stands 5 to 15 s at each point; only the long timer (every 60 to 180 s, so at
    // most three times in these 192 s) sends it on sooner.
    assert!(stands.iter().all(|&ms| ms <= 15_000 + TICK_MS), "{stands:?}");
    assert!(stands.iter().filter(|&&ms| ms < 5_000).count() <= 3, "{stands:?}");
    assert!(stands.len() >= 4, "{stands:?}");
    assert!(events(&app, EventKind::Damaged).is_empty(), "nobody fought");
    assert!(events(&app, EventKind::Arrived).is_empty(), "a point reached is no order done");
    let pastures = app.world().resource::<Pastures>();
    assert_eq!(pastures.clans.get(&0).and_then(|p| p.current), Some(0), "the clan grazes its one pasture");
}

#[test]
fn a_clan_of_two_pastures_moves_on_after_its_timer_and_the_animals_follow() {
    let east = Pasture { centre: [70.0, 30.0, 0.0], ..PASTURE };
    let (mut app, beast) = meadow(vec![PASTURE, east], [35.0, 35.0]);
    let mut picks: Vec<(Option<u32>, u32)> = Vec::new();
    for _ in 0..12_000 {
        app.update();
        let p = app.world().resource::<Pastures>().clans.get(&0).copied().unwrap_or_default();
        if picks.last().map(|l| l.1) != Some(p.until_ms) {
            let now = app.world().resource::<GameClock>().time_ms;
            // Picked now: its timer runs 937 + up to 1 875 ticks of 64 ms.
            let span = p.until_ms.wrapping_sub(now);
            assert!((937 * TICK_MS..=(937 + 1875) * TICK_MS).contains(&span), "{span} ms");
            picks.push((p.current, p.until_ms));
        }
        let m = migration(&app, beast);
        let zone = if m.pasture == Some(1) { east } else { PASTURE };
        assert_eq!(m.pasture, picks.last().and_then(|p| p.0), "it grazes the clan's pasture of its last question");
        let goal = nav(&app, beast).goal;
        let share = [(goal[0] - zone.centre[0]) / zone.inner, (goal[1] - zone.centre[1]) / zone.inner];
        assert!(share.iter().all(|s| (0.2..=1.0).contains(s)), "walks in the pasture it was given: {goal:?}");
    }
    // 12 000 ticks are 768 s; the animal asks every 60 to 180 s, and a question after
    // the clan's timer ran out picks again.
    assert!((3..=13).contains(&picks.len()), "{picks:?}");
}

#[test]
fn an_animal_attacks_a_hostile_machine_inside_the_inner_radius_within_its_limit() {
    let (mut app, beast) = meadow(vec![PASTURE], [35.0, 35.0]);
    run(&mut app, 2);
    let intruder = robot(&mut app, [30.0, 40.0]);
    let mut attacked = None;
    for _ in 0..100 {
        app.update();
        if app.world().get::<Health>(intruder).is_some_and(|h| !h.invulnerable) {
            invulnerable(&mut app, intruder);
        }
        if nav(&app, beast).order == Order::Attack(ROBOT) {
            attacked = Some(app.world().resource::<GameClock>().time_ms);
            break;
        }
    }
    let at = attacked.expect("it attacks the intruder within the inner radius");
    let limit = migration(&app, beast).attack.unwrap();
    assert_eq!(limit.until_ms, Some(at + 20_000), "an engagement lasts 20 s");
    assert_eq!(limit.circle, Some((PASTURE.centre, PASTURE.outer + 80.0)), "within outer + 80 of the centre");
    // The attack ends after its 20 s (the first tick at or past them) and the animal
    // migrates again.
    let mut ticks = 0;
    while nav(&app, beast).order == Order::Attack(ROBOT) && ticks < 1000 {
        app.update();
        ticks += 1;
    }
    assert_eq!(ticks, 20_000u32.div_ceil(TICK_MS), "it attacked for 20 s");
    assert_eq!(nav(&app, beast).order, Order::Migrate);
    let hit = app.world().get::<LastHit>(intruder).copied();
    assert_eq!(hit.map(|h| h.by), Some(BEAST), "and hit it (invulnerable, it took no damage)");
}

#[test]
fn a_hit_animal_answers_its_firer_within_the_tables_limit_and_returns_to_its_pasture() {
    let (mut app, beast) = meadow(vec![PASTURE], [35.0, 35.0]);
    // The firer stands beyond the outer radius, in its cannon's reach.
    let firer = robot(&mut app, [95.0, 40.0]);
    run(&mut app, 1);
    invulnerable(&mut app, beast);
    invulnerable(&mut app, firer);
    order(&mut app, vec![ROBOT], Order::Attack(BEAST));
    let mut answered = None;
    for _ in 0..600 {
        app.update();
        if nav(&app, beast).order == Order::Attack(ROBOT) {
            answered = Some(app.world().resource::<GameClock>().time_ms);
            break;
        }
    }
    let at = answered.expect("the beast answers the hit");
    let hit = app.world().get::<LastHit>(beast).copied().unwrap();
    assert_eq!(hit.by, ROBOT, "every hit tells its victim who fired, even an invulnerable one");
    let limit = migration(&app, beast).attack.unwrap();
    assert_eq!(limit.until_ms, Some(at + 20_000), "a firer beyond the outer radius: 20 s");
    assert_eq!(limit.circle, Some((PASTURE.centre, PASTURE.outer + 20.0)), "within outer + 20");
    let mut back = None;
    for tick in 0..20_000 / TICK_MS + 2 {
        app.update();
        let d = dist2(pos(&app, beast), [PASTURE.centre[0], PASTURE.centre[1]]);
        assert!(d <= PASTURE.outer + 20.0 + 2.0, "never far past its circle: {d}");
        if nav(&app, beast).order == Order::Migrate {
            back = Some(tick);
            break;
        }
    }
    assert!(back.is_some(), "the attack ends by its time or its circle, and the beast migrates again");
}

#[test]
fn an_attacking_animal_takes_no_other_interrupt() {
    let (mut app, beast) = meadow(vec![PASTURE], [35.0, 35.0]);
    run(&mut app, 2);
    let first = robot(&mut app, [30.0, 40.0]);
    let second = spawn_unit(app.world_mut(), 3, 1, [100.0, 100.0], 0.0, 2.0);
    app.world_mut().entity_mut(second).insert(UnitClass(BATTLE_UNIT));
    run(&mut app, 1);
    invulnerable(&mut app, first);
    invulnerable(&mut app, beast);
    run(&mut app, 60);
    assert_eq!(nav(&app, beast).order, Order::Attack(ROBOT));
    // A hit from a second machine while it attacks the first changes nothing.
    let tick = app.world().resource::<GameClock>().tick;
    app.world_mut().entity_mut(beast).insert(LastHit { by: 3, tick });
    run(&mut app, 5);
    assert_eq!(nav(&app, beast).order, Order::Attack(ROBOT), "its attack goes on");
}

#[test]
fn an_animal_of_a_clan_without_zones_grazes_on_the_spot() {
    let (mut app, beast) = meadow(Vec::new(), [60.0, 60.0]);
    run(&mut app, 1500);
    assert_eq!(nav(&app, beast).order, Order::Migrate);
    assert!(dist2(pos(&app, beast), [60.0, 60.0]) < 1e-3, "it walks nowhere");
    assert_eq!(migration(&app, beast).pasture, None);
}
