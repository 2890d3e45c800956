//! Guard, the original's patrol (openparkan `docs/31-packages.md`, "The patrol, tick by
//! tick", read): the loops about a place, a unit and a building, their timers and speed,
//! the ground a guard fights in and the limit of the fights it takes up.

use super::*;
use iron3d_behavior::{Guards, Hold, Navigator};
use iron3d_core::{ClanType, Guard, LastHit, Ward};

const GUARD: u32 = 1;
const ENEMY: u32 = 2;
const FRIEND: u32 = 3;
const DEPOT: u32 = 4;
const WALKER: u32 = 5;

/// Clans 1 and 2 at war (or at peace) on a flat 500 × 500 map.
fn field(war: bool) -> App {
    let mut app = headless_app();
    iron3d_sim::testing::publish_map(app.world_mut(), 50, 10.0, flat, |_, _| false).unwrap();
    enter_game(&mut app);
    let mut relations = ClanRelations::uniform(vec![ClanType::NATURE, ClanType::PLAYER, ClanType::ENEMY], 1);
    let word = if war { iron3d_core::relation::HOSTILE } else { iron3d_core::relation::NEUTRAL };
    (relations.words[1][2], relations.words[2][1]) = (word, word);
    app.world_mut().insert_resource(relations);
    app
}

/// A warrior of `clan` at `at` (armed and with a radar by the rules file).
fn warrior(app: &mut App, id: u32, clan: i32, at: [f32; 2]) -> Entity {
    let e = spawn_unit(app.world_mut(), id, clan, at, 0.0, 2.0);
    app.world_mut().entity_mut(e).insert(UnitClass(UnitClass::BATTLE_UNIT));
    e
}

fn watch(app: &App, id: u32) -> iron3d_behavior::Watch {
    app.world().resource::<Guards>().0[&id].clone()
}

fn order_of(app: &App, e: Entity) -> Order {
    app.world().get::<Navigator>(e).unwrap().order
}

fn place(at: [f32; 2], radius: f32) -> Order {
    Order::Guard(Guard { ward: Ward::Place { at, z: None }, radius })
}

#[test]
fn a_guard_of_a_place_walks_loops_of_15_to_19_points_inside_its_ground_at_four_fifths_speed() {
    let mut app = field(false);
    let guard = warrior(&mut app, GUARD, 1, [240.0, 240.0]);
    let walker = warrior(&mut app, WALKER, 1, [100.0, 140.0]);
    run(&mut app, 1);
    order(&mut app, vec![GUARD], place([250.0, 250.0], 0.0));
    order(&mut app, vec![WALKER], Order::MoveTo([400.0, 400.0]));
    run(&mut app, 12);
    let first = watch(&app, GUARD);
    assert!((15..=19).contains(&first.points.len()), "{} points", first.points.len());
    for p in &first.points {
        assert!(p.iter().all(|v| (190.0..=310.0).contains(v)), "within 60 of the place on each axis: {p:?}");
    }
    let speed = |e: Entity| app.world().get::<SteerIntent>(e).unwrap().max_speed;
    assert!(speed(walker) > 0.0);
    assert!((speed(guard) / speed(walker) - 0.8).abs() < 1e-4, "{} vs {}", speed(guard), speed(walker));
    // The first loop's points in turn, then a fresh loop 20 to 30 s after the first.
    let drawn_ms = app.world().resource::<GameClock>().time_ms;
    assert!((drawn_ms + 19_000..=drawn_ms + 30_000).contains(&first.renew_ms), "{} at {drawn_ms}", first.renew_ms);
    let mut visited = 0;
    while app.world().resource::<GameClock>().time_ms < first.renew_ms {
        run(&mut app, 1);
        visited = visited.max(watch(&app, GUARD).next);
    }
    run(&mut app, 2);
    assert!(visited >= 1, "it walked on from its first point");
    assert_ne!(watch(&app, GUARD).points, first.points, "a fresh loop");
    assert!(dist2(pos(&app, guard), [250.0, 250.0]) < 100.0, "about the place");
    assert_eq!(order_of(&app, guard), place([250.0, 250.0], 0.0), "it never ends by itself");
}

#[test]
fn a_guard_takes_up_a_fight_only_inside_its_ground_and_drops_it_beyond_radius_plus_60() {
    let mut app = field(true);
    let guard = warrior(&mut app, GUARD, 1, [250.0, 250.0]);
    // An unarmed enemy 80 from the place: in radar, outside the ground.
    let enemy = spawn_unit(app.world_mut(), ENEMY, 2, [330.0, 250.0], 0.0, 2.0);
    app.world_mut().entity_mut(enemy).insert(UnitClass(UnitClass::TRANSPORT));
    run(&mut app, 1);
    app.world_mut().get_mut::<Health>(enemy).unwrap().invulnerable = true;
    order(&mut app, vec![GUARD], place([250.0, 250.0], 0.0));
    run(&mut app, 100);
    assert_eq!(order_of(&app, guard), place([250.0, 250.0], 0.0), "nothing inside its ground");
    // Inside the ground it takes up the fight, its guard waiting behind it.
    app.world_mut().get_mut::<SimTransform>(enemy).unwrap().position = [290.0, 250.0, 0.0];
    run(&mut app, 80);
    assert_eq!(order_of(&app, guard), Order::Attack(ENEMY));
    let nav = app.world().get::<Navigator>(guard).unwrap();
    assert_eq!(nav.queued.first(), Some(&place([250.0, 250.0], 0.0)));
    let hold = watch(&app, GUARD).attack.unwrap().1;
    assert_eq!(hold, Hold::Circle([250.0, 250.0, 0.0], 120.0), "radius + 60 about the place, at the ground's height");
    // Beyond the circle the attack is dropped and the guard draws a fresh loop.
    app.world_mut().get_mut::<SimTransform>(guard).unwrap().position = [380.0, 250.0, 0.0];
    run(&mut app, 1);
    assert_eq!(order_of(&app, guard), place([250.0, 250.0], 0.0));
    assert!(watch(&app, GUARD).attack.is_none());
}

#[test]
fn a_guard_answers_whoever_hits_it_wherever_the_firer_stands() {
    let mut app = field(true);
    let guard = warrior(&mut app, GUARD, 1, [100.0, 100.0]);
    let firer = spawn_unit(app.world_mut(), ENEMY, 2, [400.0, 400.0], 0.0, 2.0);
    app.world_mut().entity_mut(firer).insert(UnitClass(UnitClass::TRANSPORT));
    run(&mut app, 1);
    order(&mut app, vec![GUARD], place([100.0, 100.0], 0.0));
    run(&mut app, 60);
    assert_eq!(order_of(&app, guard), place([100.0, 100.0], 0.0), "the firer is far outside its ground");
    let tick = app.world().resource::<GameClock>().tick;
    app.world_mut().entity_mut(guard).insert(LastHit { by: ENEMY, tick });
    run(&mut app, 1);
    assert_eq!(order_of(&app, guard), Order::Attack(ENEMY));
}

#[test]
fn a_guard_of_a_unit_keeps_to_its_clan_and_a_guard_of_a_building_walks_its_corners_pushed_out_30() {
    let mut app = field(false);
    warrior(&mut app, GUARD, 1, [100.0, 100.0]);
    let friend = warrior(&mut app, FRIEND, 1, [150.0, 100.0]);
    warrior(&mut app, ENEMY, 2, [300.0, 300.0]);
    spawn_building(app.world_mut(), DEPOT, [250.0, 150.0], [10.0, 5.0]);
    run(&mut app, 1);
    let object = |id| Order::Guard(Guard { ward: Ward::Object(id), radius: 0.0 });
    order(&mut app, vec![GUARD], object(FRIEND));
    run(&mut app, 3);
    let loop_ = watch(&app, GUARD).points;
    assert!((3..=7).contains(&loop_.len()), "{} points", loop_.len());
    assert!(loop_.iter().all(|p| (p[0] - 150.0).abs() <= 60.0 && (p[1] - 100.0).abs() <= 60.0), "{loop_:?}");
    let renew = watch(&app, GUARD).renew_ms - app.world().resource::<GameClock>().time_ms;
    assert!(renew <= 15_000, "a fresh loop every 5 + 0..10 s: {renew}");
    // Its unit turned to another clan: the guard fails.
    app.world_mut().get_mut::<Owner>(friend).unwrap().clan = 2;
    run(&mut app, 2);
    let refused = events(&app, EventKind::Rejected);
    assert!(refused.iter().any(|r| r.1 == [GUARD, FRIEND] && r.2.contains("not of clan 1")), "{refused:?}");
    order(&mut app, vec![GUARD], object(DEPOT));
    run(&mut app, 3);
    let mut corners = watch(&app, GUARD).points;
    corners.sort_by(|a, b| a.partial_cmp(b).unwrap());
    // Each corner of the 20 × 10 box, 30 further out along the line from the centre.
    let out = |dx: f32, dy: f32| {
        let n = (dx * dx + dy * dy).sqrt();
        [250.0 + dx + dx / n * 30.0, 150.0 + dy + dy / n * 30.0]
    };
    let mut expected = vec![out(10.0, 5.0), out(-10.0, 5.0), out(-10.0, -5.0), out(10.0, -5.0)];
    expected.sort_by(|a, b| a.partial_cmp(b).unwrap());
    for (c, e) in corners.iter().zip(&expected) {
        assert!((c[0] - e[0]).abs() < 1e-3 && (c[1] - e[1]).abs() < 1e-3, "{corners:?} vs {expected:?}");
    }
    assert_eq!(corners.len(), 4);
}
