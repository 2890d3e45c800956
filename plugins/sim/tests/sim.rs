//! The simulation headless: Control and Behavior checks of `docs/reference/runtime.md` §15 on
//! synthetic maps, determinism and replay, and the demo missions moving.
#![allow(clippy::unwrap_used, reason = "test helpers: a failed unwrap is a failed test")]

use bevy_app::{App, FixedUpdate};
use bevy_ecs::message::Messages;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy_state::prelude::*;
use iron3d_control::CONTACT_TOLERANCE;
use iron3d_core::*;
use iron3d_sim::testing::{enter_game, publish_map, publish_paths, spawn_building, spawn_unit};
use iron3d_sim::{EventKind, EventLog, StateHash, headless_app};
use iron3d_terrain::MissionPath;

fn flat(_: f32, _: f32) -> f32 {
    0.0
}

/// A 12 × 12 map of 10-unit areals, entered.
fn world_app(height: fn(f32, f32) -> f32, hole: fn(u16, u16) -> bool) -> App {
    let mut app = headless_app();
    publish_map(app.world_mut(), 12, 10.0, height, hole).unwrap();
    enter_game(&mut app);
    app
}

fn order(app: &mut App, units: Vec<u32>, order: Order) {
    let tick = app.world().resource::<GameClock>().tick + 1;
    app.world_mut().resource_mut::<CommandQueue>().push(SimCommand { tick, units, order, queued: false });
}

/// A go to `at` with a stop behind it: the unit stands where the go ends (a go with an
/// order behind it leaves no patrol, openparkan `docs/42-selection.md`, read).
fn go_and_stop(app: &mut App, units: Vec<u32>, at: [f32; 2]) {
    let tick = app.world().resource::<GameClock>().tick + 1;
    let mut queue = app.world_mut().resource_mut::<CommandQueue>();
    queue.push(SimCommand { tick, units: units.clone(), order: Order::MoveTo(at), queued: false });
    // The tick after: the commands of one tick are applied in their stable order.
    queue.push(SimCommand { tick: tick + 1, units, order: Order::Stop, queued: true });
}

fn run(app: &mut App, ticks: u32) {
    for _ in 0..ticks {
        app.update();
    }
}

fn pos(app: &App, e: Entity) -> [f32; 3] {
    app.world().get::<SimTransform>(e).unwrap().position
}

fn state(app: &App, e: Entity) -> NavState {
    app.world().get::<NavStatus>(e).unwrap().state
}

fn events(app: &App, kind: EventKind) -> Vec<(u32, Vec<u32>, String)> {
    app.world()
        .resource::<EventLog>()
        .0
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| (e.tick, e.ids.clone(), e.detail.clone()))
        .collect()
}

fn dist2(a: [f32; 3], b: [f32; 2]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1]];
    (d[0] * d[0] + d[1] * d[1]).sqrt()
}

#[test]
fn one_update_is_one_64_ms_tick() {
    let mut app = world_app(flat, |_, _| false);
    let before = *app.world().resource::<GameClock>();
    run(&mut app, 5);
    let after = *app.world().resource::<GameClock>();
    assert_eq!((after.tick - before.tick, after.time_ms - before.time_ms), (5, 320));
}

#[test]
fn a_unit_moves_freely_to_a_point_without_jumps_and_arrives() {
    let mut app = world_app(flat, |_, _| false);
    let u = spawn_unit(app.world_mut(), 0, 1, [15.0, 15.0], 0.0, 1.5);
    run(&mut app, 1);
    order(&mut app, vec![0], Order::MoveTo([100.0, 95.0]));
    let mut last = pos(&app, u);
    let (mut moved_at, mut arrived_at) = (None, None);
    for tick in 0..400 {
        app.update();
        let p = pos(&app, u);
        let step = dist2(p, [last[0], last[1]]);
        assert!(step <= 10.0 * 0.064 + 1e-3, "tick {tick}: a step of {step}");
        if step > 0.0 && moved_at.is_none() {
            moved_at = Some(tick);
        }
        if arrived_at.is_none() && !events(&app, EventKind::Arrived).is_empty() {
            arrived_at = Some(p);
        }
        last = p;
    }
    let at = arrived_at.expect("the go ended");
    assert!(dist2(at, [100.0, 95.0]) <= 1.0, "{at:?}");
    assert!(moved_at.unwrap() >= 2, "the first step waits 3 ticks and a random part");
    assert_eq!(events(&app, EventKind::Arrived).len(), 1);
    // Its only order done, it patrols 150 about the place (read).
    let spread = Order::Guard(Guard { ward: Ward::Place { at: [100.0, 95.0], z: None }, radius: 150.0 });
    assert_eq!(app.world().get::<iron3d_behavior::Navigator>(u).unwrap().order, spread);
    assert!(dist2(last, [100.0, 95.0]) > 1.0 && dist2(last, [100.0, 95.0]) <= 150.0 * 2f32.sqrt(), "{last:?}");
}

#[test]
fn a_group_sent_to_one_place_walks_to_it_and_spreads_but_a_go_with_an_order_behind_it_stands() {
    let mut app = world_app(flat, |_, _| false);
    let units: Vec<Entity> =
        (0..3).map(|k| spawn_unit(app.world_mut(), k, 1, [10.0 + 3.0 * k as f32, 10.0], 0.0, 1.0)).collect();
    let stander = spawn_unit(app.world_mut(), 3, 1, [10.0, 20.0], 0.0, 1.0);
    run(&mut app, 1);
    order(&mut app, vec![0, 1, 2], Order::MoveTo([60.0, 60.0]));
    go_and_stop(&mut app, vec![3], [60.0, 60.0]);
    run(&mut app, 600);
    let spread = Order::Guard(Guard { ward: Ward::Place { at: [60.0, 60.0], z: None }, radius: 150.0 });
    for &u in &units {
        assert_eq!(
            app.world().get::<iron3d_behavior::Navigator>(u).unwrap().order,
            spread,
            "each patrols its own loop"
        );
    }
    let spots: Vec<[f32; 3]> = units.iter().map(|&u| pos(&app, u)).collect();
    assert!(spots.windows(2).all(|w| dist2(w[0], [w[1][0], w[1][1]]) > 5.0), "spread apart: {spots:?}");
    assert_eq!(app.world().get::<iron3d_behavior::Navigator>(stander).unwrap().order, Order::Stop);
    assert!(dist2(pos(&app, stander), [60.0, 60.0]) <= 4.0, "it stands where its go ended");
}

#[test]
fn the_first_step_is_scheduled_from_the_shared_stream_in_clan_order() {
    let mut app = world_app(flat, |_, _| false);
    let a = spawn_unit(app.world_mut(), 7, 2, [15.0, 15.0], 0.0, 1.0);
    let b = spawn_unit(app.world_mut(), 3, 1, [35.0, 15.0], 0.0, 1.0);
    run(&mut app, 1);
    order(&mut app, vec![7, 3], Order::MoveTo([60.0, 60.0]));
    let mut shared = app.world().resource::<SimRandom>().shared;
    run(&mut app, 1);
    let now = app.world().resource::<GameClock>().time_ms;
    let first = |app: &App, e| app.world().get::<iron3d_behavior::Navigator>(e).unwrap().first_step_ms;
    // Clan 1 (unit 3) draws first, then clan 2 (unit 7).
    assert_eq!(first(&app, b), now + 192 + shared.below(64));
    assert_eq!(first(&app, a), now + 192 + shared.below(64));
    // A second order before the deadline keeps it and draws nothing.
    let stream = app.world().resource::<SimRandom>().shared;
    order(&mut app, vec![3], Order::MoveTo([50.0, 50.0]));
    let deadline = first(&app, b);
    run(&mut app, 1);
    assert_eq!(first(&app, b), deadline);
    assert_eq!(app.world().resource::<SimRandom>().shared, stream);
}

fn slope(x: f32, _: f32) -> f32 {
    0.25 * x
}

#[test]
fn ground_units_follow_the_slope() {
    let mut app = world_app(slope, |_, _| false);
    let u = spawn_unit(app.world_mut(), 0, 1, [15.0, 55.0], 0.0, 1.0);
    run(&mut app, 1);
    order(&mut app, vec![0], Order::MoveTo([105.0, 55.0]));
    run(&mut app, 60);
    let t = *app.world().get::<SimTransform>(u).unwrap();
    assert!(t.position[0] > 30.0, "moved uphill: {t:?}");
    assert!((t.position[2] - 0.25 * t.position[0]).abs() < 1e-3, "on the surface: {t:?}");
    assert!((t.orientation[1] + libm::atanf(0.25)).abs() < 1e-3, "nose up the slope: {t:?}");
    assert!(t.orientation[0].abs() < 1e-3, "no roll across a plane rising along X: {t:?}");
}

/// Two overlapping units, symmetric under a half turn about (60, 60); returns the
/// final positions of the left and the right one.
fn overlapping_pair(left_id: u32, right_id: u32) -> ([f32; 3], [f32; 3]) {
    let mut app = world_app(flat, |_, _| false);
    let l = spawn_unit(app.world_mut(), left_id, 1, [59.0, 60.25], 0.0, 1.5);
    let r = spawn_unit(app.world_mut(), right_id, 1, [61.0, 59.75], 0.0, 1.5);
    run(&mut app, 3);
    (pos(&app, l), pos(&app, r))
}

#[test]
fn symmetric_pairs_with_swapped_ids_give_mirrored_results() {
    let (l1, r1) = overlapping_pair(0, 1);
    let (l2, r2) = overlapping_pair(1, 0);
    assert_eq!((l1, r1), (l2, r2), "the ids change nothing");
    let turned = |p: [f32; 3]| [120.0 - p[0], 120.0 - p[1]];
    assert!(dist2(l1, turned(r1)) < 1e-5, "mirrored: {l1:?} {r1:?}");
    assert!(dist2(l1, [r1[0], r1[1]]) >= 3.0 - CONTACT_TOLERANCE, "separated: {l1:?} {r1:?}");
}

#[test]
fn a_contact_is_announced_once_after_the_narrow_phase() {
    let mut app = world_app(flat, |_, _| false);
    spawn_unit(app.world_mut(), 4, 1, [50.0, 60.0], 0.0, 1.5);
    spawn_unit(app.world_mut(), 2, 1, [52.0, 60.0], 0.0, 1.5);
    run(&mut app, 1);
    let contacts: Vec<(DispatchPhase, Vec<u32>)> = app
        .world()
        .resource::<Messages<GameMessage>>()
        .iter_current_update_messages()
        .filter_map(|m| match &m.kind {
            GameMessageKind::CollisionDetected(a, b) => Some((m.phase, vec![a.id.0, b.id.0])),
            _ => None,
        })
        .collect();
    assert_eq!(contacts, [(DispatchPhase::Control, vec![2, 4])]);
    run(&mut app, 10);
    assert_eq!(events(&app, EventKind::Collision).len(), 1, "the pair stays in contact: no new event");
}

#[derive(Resource, Default)]
struct Touched(Vec<u32>);

#[test]
fn deleting_inside_a_collision_callback_is_deferred_and_safe() {
    let mut app = world_app(flat, |_, _| false);
    app.init_resource::<Touched>();
    app.add_observer(
        |hit: On<Collided>,
         ids: Query<(&OriginalObjectId, &ObjectHandle)>,
         mut delete: MessageWriter<DeleteRequest>,
         mut seen: ResMut<Touched>| {
            let Ok((id, handle)) = ids.get(hit.entity) else { return };
            seen.0.push(id.0);
            if id.0 == 1 {
                delete.write(DeleteRequest { object: *handle });
            }
        },
    );
    let doomed = spawn_unit(app.world_mut(), 1, 1, [50.0, 60.0], 0.0, 1.5);
    let other = spawn_unit(app.world_mut(), 0, 1, [51.0, 60.0], 0.0, 1.5);
    run(&mut app, 1);
    assert_eq!(app.world().resource::<Touched>().0.len(), 2, "both callbacks ran");
    assert!(app.world().get_entity(doomed).is_err(), "deleted at the World3D boundary");
    assert_eq!(app.world().resource::<ObjectTable>().entity_of(1), None);
    run(&mut app, 5);
    assert!(app.world().get_entity(other).is_ok());
    assert_eq!(events(&app, EventKind::Deleted).into_iter().map(|e| e.1).collect::<Vec<_>>(), [vec![1]]);
}

#[test]
fn proxies_are_rebuilt_when_the_model_changes() {
    let mut app = world_app(flat, |_, _| false);
    let u = spawn_unit(app.world_mut(), 0, 1, [50.0, 60.0], 0.0, 1.0);
    run(&mut app, 1);
    assert_eq!(app.world().get::<CollisionProxy>(u).unwrap().radius, 1.0);
    app.world_mut().get_mut::<ModelBounds>(u).unwrap().max = [3.0, 3.0, 2.0];
    run(&mut app, 1);
    assert_eq!(app.world().get::<CollisionProxy>(u).unwrap().radius, 2.0);
}

/// A unit of radius 1.5 drives from x 30 to x 90 along `y` past (or into) a building of
/// half extents 8 at `centre` in `category` (or unlisted): the closest it got to the
/// footprint (centre to box), its state and position after 500 ticks.
fn drive_past(centre: [f32; 2], y: f32, category: Option<u32>) -> (f32, NavState, [f32; 3]) {
    let mut app = world_app(flat, |_, _| false);
    let b = spawn_building(app.world_mut(), 9, centre, [8.0, 8.0]);
    if let Some(mask) = category {
        app.world_mut().entity_mut(b).insert(BuildingCategory(mask));
    }
    let u = spawn_unit(app.world_mut(), 0, 1, [30.0, y], 0.0, 1.5);
    run(&mut app, 1);
    go_and_stop(&mut app, vec![0], [90.0, y]);
    let mut closest = f32::MAX;
    for _ in 0..500 {
        app.update();
        let p = pos(&app, u);
        let out = [((p[0] - centre[0]).abs() - 8.0).max(0.0), ((p[1] - centre[1]).abs() - 8.0).max(0.0)];
        closest = closest.min((out[0] * out[0] + out[1] * out[1]).sqrt());
    }
    (closest, state(&app, u), pos(&app, u))
}

#[test]
fn units_stop_at_buildings_and_go_around_them() {
    let (closest, state, at) = drive_past([60.0, 60.0], 60.0, None);
    assert!(closest >= 1.5 - CONTACT_TOLERANCE, "kept out of the footprint: {closest}");
    assert!(state == NavState::Idle && dist2(at, [90.0, 60.0]) <= 2.0, "went around: {at:?}");
}

/// How close a unit driving past a building in `category` (or unlisted) on a line 2
/// from its face (the middle of an areal row, where the local path runs) gets to it.
fn closest_pass(category: Option<u32>) -> f32 {
    let (closest, state, at) = drive_past([60.0, 65.0], 75.0, category);
    assert!(state == NavState::Idle && dist2(at, [90.0, 75.0]) <= 2.0, "drove past ({category:?}): {at:?}");
    closest
}

#[test]
fn build_dat_categories_widen_the_berth_a_building_gets() {
    let config = iron3d_wizard::WizardConfig::default();
    let hangar = iron3d_formats::registry::BuildCategory::Hangar.mask();
    let padding = config.padding(Some(BuildingCategory(hangar)));
    assert_eq!(padding, 2.0, "the project's default for a hangar");
    let (unlisted, listed) = (closest_pass(None), closest_pass(Some(hangar)));
    // Clear of an unlisted building by more than the clearance: the unit keeps its line.
    assert!((unlisted - 2.0).abs() < 0.05, "kept its line: {unlisted}");
    assert!(listed >= unlisted + padding / 2.0, "a hangar gets a wider berth: {listed} vs {unlisted}");
}

/// A unit of radius 1.5 driving from (20, 80) to (100, 80) past a building of half
/// extents 8 at (60, 60), its dome raised or not: how deep into the dome's octagon its
/// centre got (negative inside), and where it ended.
fn drive_by_dome(raised: bool) -> (f32, [f32; 3]) {
    let mut app = world_app(flat, |_, _| false);
    let centre = [60.0, 60.0];
    let b = spawn_building(app.world_mut(), 9, centre, [8.0, 8.0]);
    let dome = DomeObstacle::round(8.0);
    if raised {
        app.world_mut().entity_mut(b).insert(dome);
    }
    let u = spawn_unit(app.world_mut(), 0, 1, [20.0, 80.0], 0.0, 1.5);
    run(&mut app, 1);
    go_and_stop(&mut app, vec![0], [100.0, 80.0]);
    let mut closest = f32::MAX;
    for _ in 0..800 {
        app.update();
        let p = pos(&app, u);
        closest = closest.min(dome.distance([p[0] - centre[0], p[1] - centre[1]]));
    }
    assert_eq!(state(&app, u), NavState::Idle);
    (closest, pos(&app, u))
}

/// While a building's construction sphere stands as an obstacle, a unit driving by on a
/// line clear of the building's box but through the dome's octagon steers round the
/// octagon (Wizard's weighing, no wall: its centre stays within its radius of it),
/// where without the dome it keeps its line.
#[test]
fn units_steer_round_a_raised_domes_octagon() {
    let (straight, _) = drive_by_dome(false);
    assert!(straight < -6.0, "without the dome the line runs 6.5 inside the octagon: {straight}");
    let (round, at) = drive_by_dome(true);
    assert!(round > -1.5, "steered round the octagon: {round}");
    assert!(dist2(at, [100.0, 80.0]) <= 2.0, "and went on: {at:?}");
}

fn diagnostic_of(app: &App) -> Vec<String> {
    events(app, EventKind::Diagnostic).into_iter().map(|e| e.2).collect()
}

/// Orders unit 0 at `from` to `to` in `app`; the unit must not move and report `kind`.
fn refuses(mut app: App, from: [f32; 2], order_: Order, kind: DiagnosticKind) {
    let u = spawn_unit(app.world_mut(), 0, 1, from, 0.0, 1.0);
    run(&mut app, 1);
    let before = pos(&app, u);
    order(&mut app, vec![0], order_);
    run(&mut app, 30);
    let d = diagnostic_of(&app);
    assert!(d.len() == 1 && d[0].starts_with(kind.name()), "{kind:?}: {d:?}");
    assert_eq!(state(&app, u), NavState::Blocked);
    assert_eq!(pos(&app, u)[..2], before[..2], "{kind:?}: never moved, never teleported");
}

#[test]
fn each_behaviour_error_condition_is_a_diagnostic_and_the_unit_stays() {
    let goal = Order::MoveTo([100.0, 100.0]);
    // (1) no areal map, (2) no terrain.
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().remove_resource::<iron3d_terrain::NavMap>();
    refuses(app, [15.0, 15.0], goal, DiagnosticKind::NoSystemArealMap);
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().remove_resource::<iron3d_terrain::Ground>();
    refuses(app, [15.0, 15.0], goal, DiagnosticKind::NoTerrain);
    // (3) an areal map without areals.
    refuses(world_app(flat, |_, _| true), [15.0, 15.0], goal, DiagnosticKind::NoBehaviourArealMap);
    // (4) the target is on an island no route reaches (column 6 is water).
    refuses(world_app(flat, |i, _| i == 6), [15.0, 15.0], goal, DiagnosticKind::NonReachableArea);
    // (5) the unit stands outside every areal.
    refuses(world_app(flat, |i, j| i == 1 && j == 1), [15.0, 15.0], goal, DiagnosticKind::LeavingNonWalkable);
    // (6) a patrol whose points never differ would cycle forever.
    let mut app = world_app(flat, |_, _| false);
    publish_paths(app.world_mut(), vec![MissionPath { id: 5, points: vec![[40.0, 40.0, 0.0]; 3] }]);
    refuses(app, [15.0, 15.0], Order::Patrol(5), DiagnosticKind::PathCycle);
}

#[test]
fn a_repeated_areal_in_a_route_is_a_cycle() {
    assert!(iron3d_behavior::planner::check_cycle(&[1, 2, 3]).is_ok());
    assert_eq!(iron3d_behavior::planner::check_cycle(&[1, 2, 1]).unwrap_err().0, DiagnosticKind::PathCycle);
}

#[test]
fn a_short_local_path_gets_the_minimum_number_of_points() {
    use iron3d_behavior::planner::at_least;
    let path = at_least(vec![[10.0, 0.0], [12.0, 0.0]], [0.0, 0.0], 4);
    assert_eq!(path, vec![[2.5, 0.0], [5.0, 0.0], [10.0, 0.0], [12.0, 0.0]]);
    assert_eq!(at_least(vec![[10.0, 0.0]], [0.0, 0.0], 1), vec![[10.0, 0.0]]);
}

#[test]
fn patrols_walk_their_path_back_and_forth() {
    let mut app = world_app(flat, |_, _| false);
    publish_paths(
        app.world_mut(),
        vec![MissionPath { id: 100, points: vec![[20.0, 20.0, 0.0], [90.0, 20.0, 0.0], [90.0, 90.0, 0.0]] }],
    );
    let u = spawn_unit(app.world_mut(), 0, 1, [15.0, 15.0], 0.0, 1.0);
    run(&mut app, 1);
    order(&mut app, vec![0], Order::Patrol(100));
    let mut visited = Vec::new();
    for _ in 0..1200 {
        app.update();
        let leg = app.world().get::<iron3d_behavior::Navigator>(u).unwrap().leg;
        if visited.last() != Some(&leg) {
            visited.push(leg);
        }
    }
    assert!(visited.starts_with(&[0, 1, 2, 1, 0]), "{visited:?}");
    assert_eq!(state(&app, u), NavState::Moving);
}

#[test]
fn a_crowd_of_50_sent_to_one_point_settles_without_overlap_or_jitter() {
    let mut app = world_app(flat, |_, _| false);
    let units: Vec<Entity> = (0..50)
        .map(|k| {
            spawn_unit(app.world_mut(), k, 1, [10.0 + 4.0 * (k % 10) as f32, 10.0 + 4.0 * (k / 10) as f32], 0.0, 1.0)
        })
        .collect();
    run(&mut app, 1);
    go_and_stop(&mut app, (0..50).collect(), [80.0, 80.0]);
    run(&mut app, 700);
    let report: Vec<(NavState, f32)> =
        units.iter().map(|&u| (state(&app, u), dist2(pos(&app, u), [80.0, 80.0]))).collect();
    assert!(report.iter().all(|(s, _)| *s == NavState::Idle), "all arrived and stopped: {report:?}");
    let before: Vec<[f32; 3]> = units.iter().map(|&u| pos(&app, u)).collect();
    run(&mut app, 30);
    for (k, &u) in units.iter().enumerate() {
        assert_eq!(pos(&app, u), before[k], "unit {k} still moves");
    }
    for (i, a) in before.iter().enumerate() {
        for b in &before[i + 1..] {
            assert!(dist2(*a, [b[0], b[1]]) >= 2.0 - CONTACT_TOLERANCE, "overlap {a:?} {b:?}");
        }
        assert!(dist2(*a, [80.0, 80.0]) <= 24.0, "near the goal: {a:?}");
    }
}

/// A run of 150 ticks with a few commands; returns the hash history and the commands.
fn recorded_run(commands: &[SimCommand]) -> Vec<(u32, u64)> {
    let mut app = world_app(flat, |_, _| false);
    publish_paths(app.world_mut(), vec![MissionPath { id: 1, points: vec![[20.0, 90.0, 0.0], [90.0, 30.0, 0.0]] }]);
    for k in 0..12 {
        spawn_unit(app.world_mut(), k, 1 + (k % 2) as i32, [12.0 + 7.0 * k as f32, 15.0], 0.0, 1.2);
    }
    for c in commands {
        app.world_mut().resource_mut::<CommandQueue>().push(c.clone());
    }
    run(&mut app, 150);
    app.world().resource::<StateHash>().history.clone()
}

#[test]
fn a_command_log_replays_to_the_same_hash_at_every_tick() {
    let log = vec![
        SimCommand { tick: 3, units: vec![0, 1, 2, 3], order: Order::MoveTo([60.0, 60.0]), queued: false },
        SimCommand { tick: 3, units: vec![4, 5], order: Order::Patrol(1), queued: false },
        SimCommand { tick: 20, units: vec![6, 7, 8], order: Order::FollowPath(1), queued: false },
        SimCommand { tick: 40, units: vec![0], order: Order::Stop, queued: false },
        SimCommand { tick: 41, units: vec![9], order: Order::MoveToObject(4), queued: false },
    ];
    let first = recorded_run(&log);
    let mut shuffled = log.clone();
    shuffled.reverse();
    assert!(first.len() >= 150);
    assert_eq!(first, recorded_run(&shuffled), "same log (in any queue order), same hash every tick");
    let mut other = log;
    other[0].order = Order::MoveTo([60.0, 61.0]);
    assert_ne!(first.last(), recorded_run(&other).last(), "the hash sees the state");
}

#[test]
fn no_system_order_is_ambiguous_in_the_fixed_tick() {
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().schedule_scope(FixedUpdate, |world, schedule| {
        schedule
            .set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..Default::default() });
        schedule.initialize(world).expect("FixedUpdate builds without ambiguities");
        assert_eq!(schedule.graph().conflicting_systems().len(), 0);
    });
}

#[test]
fn no_system_order_is_ambiguous_when_a_mission_starts_or_after_the_tick() {
    use bevy_app::PostUpdate;
    use bevy_ecs::schedule::ScheduleLabel;
    fn check(app: &mut App, label: impl ScheduleLabel + Clone) {
        let name = format!("{label:?}");
        app.world_mut().schedule_scope(label, |world, schedule| {
            schedule.set_build_settings(ScheduleBuildSettings {
                ambiguity_detection: LogLevel::Error,
                ..Default::default()
            });
            if let Err(e) = schedule.initialize(world) {
                panic!("{name} builds without ambiguities: {}", e.to_string(schedule.graph(), world));
            }
            assert_eq!(schedule.graph().conflicting_systems().len(), 0, "{name}");
        });
    }
    let mut app = headless_app();
    app.add_plugins(iron3d_mission::MissionPlugin);
    check(&mut app, OnEnter(AppState::InGame));
    check(&mut app, PostUpdate);
}

/// The bundled demo game directory.
fn demo_game() -> std::sync::Arc<iron3d_vfs::GameDir> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    std::sync::Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
}

/// A headless app with mission `name` of `game` loaded.
fn demo_mission(game: &std::sync::Arc<iron3d_vfs::GameDir>, name: &str) -> App {
    let mut app = headless_app();
    app.add_plugins(iron3d_mission::MissionPlugin);
    iron3d_mission::load_headless(&mut app, game, name).expect("loads");
    app
}

/// tutorial.01 where the computer clan builds and researches nothing.
fn quiet_tutorial() -> App {
    let mut app = quiet_strategy();
    // Its script finds no design to build by name.
    app.world_mut().resource_mut::<AiDesigns>().designs.clear();
    app
}

/// tutorial.01 where the strategic layer builds and researches nothing (the scripts run).
fn quiet_strategy() -> App {
    let mut app = demo_mission(&demo_game(), "tutorial.01");
    let mut strategy = app.world_mut().resource_mut::<iron3d_strategy::StrategyRules>();
    strategy.ai.army.clear();
    strategy.ai.transports = 0;
    strategy.institutes.clear();
    app
}

#[path = "sim/animals.rs"]
mod animals;
#[path = "sim/builders.rs"]
mod builders;
#[path = "sim/capture.rs"]
mod capture;
#[path = "sim/combat.rs"]
mod combat;
#[path = "sim/designs.rs"]
mod designs;
#[path = "sim/guard.rs"]
mod guard;
#[path = "sim/haul.rs"]
mod haul;
#[path = "sim/lodes.rs"]
mod lodes;
#[path = "sim/motion.rs"]
mod motion;
#[path = "sim/player.rs"]
mod player;
#[path = "sim/strategy.rs"]
mod strategy;

mod demo {
    use super::*;
    use iron3d_mission::{MissionObject, load_headless};

    use super::{demo_game as game, demo_mission as mission};

    fn units(app: &mut App) -> Vec<(u32, Entity)> {
        let mut q = app.world_mut().query_filtered::<(&OriginalObjectId, Entity), With<Movable>>();
        let mut v: Vec<(u32, Entity)> = q.iter(app.world()).map(|(id, e)| (id.0, e)).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn buildings_placed_from_listed_schemes_get_their_build_dat_category() {
        let game = game();
        let mut app = mission(&game, iron3d_demo::missions::MISSIONS[0].name);
        let mut q = app.world_mut().query::<(&MissionObject, Option<&BuildingCategory>, Has<Movable>)>();
        let list = app.world().resource::<iron3d_terrain::BuildingCategories>();
        let mut listed = 0;
        for (object, category, movable) in q.iter(app.world()) {
            let expected = list.mask_of(&object.key).filter(|_| !movable);
            assert_eq!(category.map(|c| c.0), expected, "{}", object.key);
            assert!(category.is_none_or(|c| c.category().is_some()), "{}: a known mask", object.key);
            listed += usize::from(category.is_some());
        }
        assert!(listed > 0, "the demo places buildings from BuildDat.lst schemes");
    }

    #[test]
    fn every_demo_mission_moves() {
        let game = game();
        for spec in iron3d_demo::missions::MISSIONS.iter().take(2) {
            let mut app = mission(&game, spec.name);
            let units = units(&mut app);
            let start: Vec<[f32; 3]> = units.iter().map(|&(_, e)| pos(&app, e)).collect();
            run(&mut app, 120);
            let moved = units.iter().zip(&start).filter(|((_, e), s)| dist2(pos(&app, *e), [s[0], s[1]]) > 5.0).count();
            assert!(moved * 2 >= units.len(), "{}: {moved} of {} units moved", spec.name, units.len());
            let mut buildings =
                app.world_mut().query_filtered::<(&SimTransform, &iron3d_mission::PlacedRecord), Without<Movable>>();
            assert!(
                buildings.iter(app.world()).all(|(t, r)| t.position == r.position),
                "{}: buildings stay put",
                spec.name
            );
        }
    }

    #[test]
    fn control_cycles_the_ctld_pieces_of_the_demo_and_keeps_the_others_posed() {
        let game = game();
        let mut app = mission(&game, "tutorial.01");
        let mut q = app.world_mut().query::<(Entity, &PieceAnimation)>();
        let start: Vec<(Entity, PieceAnimation)> = q.iter(app.world()).map(|(e, a)| (e, a.clone())).collect();
        let cycling = start.iter().flat_map(|(_, a)| &a.bindings).filter(|b| b.cycles()).count();
        assert!(cycling > 0, "the demo has cycling bindings");
        let ticks = 40;
        run(&mut app, ticks);
        let rate = app.world().resource::<iron3d_control::ControlConfig>().piece_frames_per_second;
        for (entity, before) in &start {
            let after = app.world().get::<PieceAnimation>(*entity).unwrap();
            for (b, a) in before.bindings.iter().zip(&after.bindings) {
                if !b.cycles() {
                    assert_eq!(a, b, "a static binding keeps its initial pose");
                    continue;
                }
                // One advance per tick, wrapped into [0, 1).
                let mut expected = *b;
                (0..ticks).for_each(|_| expected.advance(rate * TICK_MS as f32 / 1000.0));
                assert_eq!(a.blend.to_bits(), expected.blend.to_bits());
                assert!((0.0..1.0).contains(&a.blend) && a.blend != b.blend, "{b:?} -> {a:?}");
            }
        }
    }

    #[test]
    fn a_route_crosses_a_whole_demo_map() {
        let game = game();
        let mut app = mission(&game, "tutorial.01");
        let (id, unit) = units(&mut app)[0];
        let start = pos(&app, unit);
        // The far corner of the map, on land.
        let nav = app.world().resource::<iron3d_terrain::NavMap>();
        let goal = [[1650.0f32, 1650.0], [1650.0, 80.0], [80.0, 1650.0], [80.0, 80.0]]
            .into_iter()
            .max_by(|a, b| dist2(start, *a).total_cmp(&dist2(start, *b)))
            .filter(|g| nav.area_at(g[0], g[1]).is_some())
            .unwrap();
        let route =
            nav.route(nav.area_at(start[0], start[1]).unwrap(), nav.area_at(goal[0], goal[1]).unwrap()).unwrap();
        assert!(route.len() > 15, "a long route: {}", route.len());
        // The journey crosses the enemy's reach: this test is about the route.
        app.world_mut().get_mut::<Health>(unit).unwrap().invulnerable = true;
        go_and_stop(&mut app, vec![id], goal);
        run(&mut app, 4000);
        let at = pos(&app, unit);
        assert!(state(&app, unit) == NavState::Idle && dist2(at, goal) <= 30.0, "at {at:?}, goal {goal:?}");
    }

    #[test]
    fn closing_a_mission_and_opening_another_leaves_nothing_behind() {
        let game = game();
        let mut fresh = mission(&game, "single.01");
        let expected = fresh.world_mut().query::<(&MissionObject, &SimObject)>().iter(fresh.world()).count();
        let mut app = mission(&game, "tutorial.01");
        run(&mut app, 30);
        app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
        app.update();
        assert_eq!(app.world_mut().query::<&MissionObject>().iter(app.world()).count(), 0);
        assert!(app.world().get_resource::<iron3d_terrain::NavMap>().is_none());
        assert!(app.world().resource::<ObjectTable>().is_empty());
        load_headless(&mut app, &game, "single.01").expect("loads");
        assert_eq!(app.world_mut().query::<(&MissionObject, &SimObject)>().iter(app.world()).count(), expected);
        assert_eq!(
            app.world_mut().query::<&SimTransform>().iter(app.world()).count(),
            expected,
            "no object of the first mission is left"
        );
        assert_eq!(app.world().resource::<ObjectTable>().len(), fresh.world().resource::<ObjectTable>().len());
        assert_eq!(*app.world().resource::<GameClock>(), *fresh.world().resource::<GameClock>());
        run(&mut app, 20);
        run(&mut fresh, 20);
        assert_eq!(
            app.world().resource::<StateHash>().last(),
            fresh.world().resource::<StateHash>().last(),
            "the second mission runs as if it were the first"
        );
    }

    #[test]
    fn quitting_mid_fight_leaves_no_shell_and_the_next_mission_runs_as_in_a_fresh_process() {
        let game = game();
        let mut fresh = mission(&game, "single.01");
        let mut app = mission(&game, "tutorial.01");
        // An armed unit with shells (the first by id), set down beside an object of a
        // hostile clan.
        let relations = app.world().resource::<ClanRelations>().clone();
        let mut q = app
            .world_mut()
            .query::<(&OriginalObjectId, &Owner, &SimTransform, Option<&Weapon>, &Health, Has<Movable>)>();
        let mut rows: Vec<_> = q
            .iter(app.world())
            .map(|(id, o, t, w, _, unit)| (id.0, o.clan, t.position, w.copied().filter(|_| unit)))
            .collect();
        rows.sort_unstable_by_key(|r| r.0);
        let (shooter, clan, weapon) = rows
            .iter()
            .filter_map(|&(id, clan, _, w)| Some((id, clan, w.filter(|w| w.projectile_speed > 0.0)?)))
            .find(|&(_, clan, _)| rows.iter().any(|r| relations.hostile(clan, r.1)))
            .unwrap();
        let &(target, _, at, _) = rows.iter().filter(|r| relations.hostile(clan, r.1)).min_by_key(|r| r.0).unwrap();
        let entity = app.world().resource::<ObjectTable>().entity_of(shooter).unwrap();
        let mut place = app.world_mut().get_mut::<SimTransform>(entity).unwrap();
        place.position = [at[0] + weapon.range * 0.5, at[1], at[2]];
        order(&mut app, vec![shooter], Order::Attack(target));
        let shells = |app: &mut App| app.world_mut().query::<&Projectile>().iter(app.world()).count();
        let mut ticks = 0;
        while shells(&mut app) == 0 && ticks < 600 {
            run(&mut app, 1);
            ticks += 1;
        }
        assert!(shells(&mut app) > 0, "a shell is in flight after {ticks} ticks");
        app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
        app.update();
        assert_eq!(shells(&mut app), 0, "no shell outlives its mission");
        load_headless(&mut app, &game, "single.01").expect("loads");
        for tick in 0..40 {
            run(&mut app, 1);
            run(&mut fresh, 1);
            assert_eq!(
                app.world().resource::<StateHash>().last(),
                fresh.world().resource::<StateHash>().last(),
                "tick {tick}: the second mission runs as in a fresh process"
            );
        }
    }

    #[test]
    fn demo_clans_get_superai_slots_init_distributors_and_ore() {
        use iron3d_core::{SuperAiSlots, UnitClass};
        use iron3d_economy::{Economy, OreProperty};
        use iron3d_superai::{EventResult, SuperAis, TableSource};
        let game = game();
        let mut app = mission(&game, "tutorial.01");
        let slots = app.world().resource::<SuperAiSlots>().clone();
        assert_eq!(slots.0[..5], [Some(0), Some(1), Some(2), Some(3), None], "one slot per loaded clan package");
        let ais = app.world().resource::<SuperAis>().clone();
        assert_eq!(ais.clans.len(), 4, "nature, the player, the enemy and the neutral clan");
        for ai in &ais.clans {
            assert_eq!(ai.init, Some(EventResult::Completed), "{}: Init ran", ai.clan.name);
            let vm = ai.vm.as_ref().unwrap();
            assert_eq!(vm.var("ClanID"), Some(ai.clan.index));
            assert_eq!(vm.var("ClanBaseX"), Some(ai.clan.anchor[0] as u32), "reading A truncates");
            assert_eq!(vm.var("ClanBaseY"), Some(ai.clan.anchor[1] as u32));
        }
        let table = |i: usize| ais.clans[i].package.as_ref().unwrap().table.clone();
        assert!(matches!(table(0), TableSource::Bundle(_)), "nature.var exists");
        assert!(matches!(table(1), TableSource::Shared(_)), "default.var does not: varset.var");
        let mut q = app.world_mut().query::<(&Owner, &UnitClass)>();
        let registering: Vec<u32> =
            q.iter(app.world()).filter(|(_, c)| c.registers()).map(|(o, _)| o.clan as u32).collect();
        let economy = app.world().resource::<Economy>().clone();
        assert_eq!(
            economy.distributors.iter().map(|d| d.slot).collect::<Vec<_>>(),
            [1, 2, 3],
            "the neutral clan's too"
        );
        for d in &economy.distributors {
            assert_eq!(d.rows.len(), registering.iter().filter(|s| **s == d.slot).count());
            let total: f32 = d.rows.iter().map(|r| r.weight).sum();
            assert!((total - 1.0).abs() < 1e-4, "shares sum to 1: {total}");
        }
        let mut ore = app.world_mut().query::<(&OriginalObjectId, &UnitClass, &OreProperty)>();
        let mines: Vec<(u32, f32)> = ore
            .iter(app.world())
            .filter(|(_, c, _)| c.0 == 0x8000_0004)
            .map(|(id, _, o)| (id.0, o.current()))
            .collect();
        assert_eq!(mines.len(), 2);
        for (id, held) in mines {
            let kpd = iron3d_economy::efficiency(app.world(), id);
            assert_eq!(
                held,
                200.0 + 50.0 * kpd * 0.064,
                "CurrentOre from the mission, and the first tick's dig at KPD {kpd}"
            );
        }
        let mut ore = app.world_mut().query::<(&UnitClass, &OreProperty)>();
        assert!(ore.iter(app.world()).filter(|(c, _)| c.0 == 0x8000_0004).all(|(_, o)| o.maximum == 500.0));
    }

    #[test]
    fn a_demo_run_with_script_events_replays_to_the_same_hash() {
        let game = game();
        let run_once = || {
            let mut app = mission(&game, "tutorial.01");
            for tick in 0..40 {
                if tick % 10 == 0 {
                    app.world_mut().write_message(iron3d_core::RunScriptEvent::new(1, "Mission"));
                }
                app.update();
            }
            app.world().resource::<StateHash>().history.clone()
        };
        let first = run_once();
        assert!(first.len() >= 40);
        assert_eq!(first, run_once());
    }

    #[test]
    fn a_demo_mission_is_ended_by_its_script_through_function_30() {
        let game = game();
        let mut app = mission(&game, "tutorial.01");
        let send = |app: &mut App, slot: u32, event: &str| {
            app.world_mut().write_message(iron3d_core::RunScriptEvent::new(slot, event));
            app.update();
        };
        send(&mut app, 1, "Mission_Complete");
        send(&mut app, 1, "Mission_Complete");
        send(&mut app, 2, "Mission_Failed");
        let outcome = app.world().resource::<MissionOutcome>().clone();
        assert_eq!(
            (outcome.of(1), outcome.of(2), outcome.of(0)),
            (Some(Outcome::Failed), None, None),
            "the game has one outcome, the player's: the enemy script's failure replaces the win"
        );
        let logged = events(&app, EventKind::Outcome);
        let details: Vec<&str> = logged.iter().map(|e| e.2.as_str()).collect();
        assert_eq!(details, ["clan=1 completed", "clan=1 failed"], "the repeat is a no-op");
        let mut other = mission(&game, "tutorial.01");
        for _ in 0..3 {
            other.update();
        }
        assert_ne!(
            app.world().resource::<StateHash>().last().map(|h| h.1),
            other.world().resource::<StateHash>().last().map(|h| h.1),
            "the hash sees the outcome"
        );
    }

    /// The ticks at which the player clan's (1) takts ran, and the events of `kind`, over
    /// `ticks` ticks.
    fn play(app: &mut App, ticks: u32) -> Vec<u32> {
        let clock = |app: &App| {
            let ais = app.world().resource::<iron3d_superai::SuperAis>();
            ais.clans[1].vm.as_ref().map_or(0, |vm| vm.clock)
        };
        let mut takts = Vec::new();
        for _ in 0..ticks {
            let before = clock(app);
            app.update();
            if clock(app) != before {
                takts.push(app.world().resource::<iron3d_core::GameClock>().tick);
            }
        }
        takts
    }

    /// The first tick the player's `Mission` handler runs after `tick` (it runs at ticks
    /// 1, 33, 65, ...: every 2000 ms, 32 ticks of 64 ms apart; within a tick it runs
    /// before the takts).
    fn next_mission_run(tick: u32) -> u32 {
        (0..).map(|k| 1 + 32 * k).find(|t| *t > tick).unwrap()
    }

    #[test]
    fn the_demo_script_raises_its_message_and_objectives_on_schedule_and_wins_through_function_30() {
        let game = game();
        let mut app = mission(&game, "tutorial.01");
        assert!(!app.world().resource::<iron3d_core::EnemyOutVictory>().0, "the package records the outcome itself");
        let takts = play(&mut app, 400);
        assert!(takts.len() >= 3, "{takts:?}");
        let gaps: Vec<u32> = takts.windows(2).map(|w| (w[1] - w[0]) * 64).collect();
        assert!(gaps.iter().all(|g| (7000..8064).contains(g)), "takts every 7000 + rand % 1000 ms: {gaps:?}");
        // The start message on the handler's first run; the reinforcement's waits for a clan
        // clock above 5 s (the first takt makes it 7), the bonus objective and the attack
        // message for one above 13 s (the second makes it 14).
        let message: Vec<(u32, String)> = events(&app, EventKind::Message).into_iter().map(|m| (m.0, m.2)).collect();
        let at = |tick: u32, detail: &str| (tick, detail.to_string());
        assert_eq!(
            message,
            [
                at(next_mission_run(0), "clan=1 id=0"),
                at(next_mission_run(takts[0]), "clan=1 id=2"),
                at(next_mission_run(takts[1]), "clan=1 id=1")
            ],
            "each raised once"
        );
        let objectives = events(&app, EventKind::Objective);
        assert_eq!(objectives.len(), 1, "{objectives:?}");
        assert_eq!((objectives[0].0, objectives[0].2.as_str()), (next_mission_run(takts[1]), "clan=1 id=1 complete"));
        assert_eq!(app.world().resource::<MissionOutcome>().of(1), None, "a bonus objective does not end the mission");
        // The enemy loses every robot and every building that could build one.
        let doomed: Vec<iron3d_core::ObjectHandle> = {
            let mut q =
                app.world_mut().query::<(&iron3d_core::ObjectHandle, &Owner, Option<&UnitClass>, Has<Movable>)>();
            let producer = |c: Option<&UnitClass>| c.is_some_and(|c| matches!(c.0, 0x8000_0010 | 0x8000_0040));
            q.iter(app.world()).filter(|(_, o, c, m)| o.clan == 2 && (*m || producer(*c))).map(|(h, ..)| *h).collect()
        };
        assert!(!doomed.is_empty());
        for object in doomed {
            app.world_mut().write_message(iron3d_core::DeleteRequest { object });
        }
        let gone = app.world().resource::<iron3d_core::GameClock>().tick + 1;
        play(&mut app, 40);
        let objectives = events(&app, EventKind::Objective);
        let outcome = events(&app, EventKind::Outcome);
        let won = outcome.iter().find(|e| e.2 == "clan=1 completed").expect("won");
        assert_eq!(objectives.last().map(|e| (e.0, e.2.as_str())), Some((won.0, "clan=1 id=0 complete")));
        assert_eq!(
            won.0,
            next_mission_run(gone),
            "the run after the enemy's last robot left completes the primary objective"
        );
    }
}

/// Production and research on the demo (the project's own rules).
mod production {
    use super::*;
    use iron3d_economy::OreProperty;
    use iron3d_mission::{
        LoadedMission, MissionBackend, MissionObject, MissionPlugin, Prepared, PreparedObject, StartMission,
    };
    use std::sync::Arc;

    const SCOUT: &str = "UNITS\\ROBOTS\\scout.dat";
    const TANK: &str = "UNITS\\ROBOTS\\tank.dat";
    const PLANT: u32 = 0x8000_0010;
    const INSTITUTE: u32 = 0x8000_0400;
    const PLAYER: i32 = 1;

    use super::quiet_tutorial as tutorial_digging;

    /// [`tutorial_digging`] with its mines stopped: these tests are about the Player's
    /// orders, and a digging mine writes its total over what production draws from it.
    fn tutorial() -> App {
        let mut app = tutorial_digging();
        let mut q = app.world_mut().query::<&mut iron3d_economy::MineDig>();
        q.iter_mut(app.world_mut()).for_each(|mut d| d.done = true);
        app
    }

    fn set_mining(app: &mut App, per_second: f32) {
        app.world_mut().insert_resource(iron3d_economy::MiningRate(per_second));
    }

    #[test]
    fn mines_dig_into_their_own_store_only_up_to_its_maximum_and_hold_their_total() {
        let mut app = tutorial_digging();
        set_mining(&mut app, 0.0);
        run(&mut app, 1);
        let mine = building(&mut app, UnitClass::MINE);
        let stores = |app: &mut App| {
            let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &OreProperty)>();
            let mut v: Vec<(u32, OreProperty)> =
                q.iter(app.world()).filter(|(_, o, _)| o.clan == PLAYER).map(|(id, _, p)| (id.0, *p)).collect();
            v.sort_unstable_by_key(|s| s.0);
            v
        };
        let start = stores(&mut app);
        set_mining(&mut app, 5.0);
        run(&mut app, 10);
        let gained: Vec<(u32, f32)> = stores(&mut app)
            .iter()
            .zip(&start)
            .map(|(a, b)| (a.0, a.1.current() - b.1.current()))
            .filter(|g| g.1 != 0.0)
            .collect();
        assert_eq!(gained.len(), 1, "one store receives: {gained:?}");
        assert_eq!(gained[0].0, mine, "the mine's own store (transports carry it on)");
        let kpd = iron3d_economy::efficiency(app.world(), mine);
        assert!((gained[0].1 - 10.0 * 5.0 * kpd * 0.064).abs() < 1e-2, "10 ticks at 5 ore/s × KPD {kpd}: {gained:?}");
        // What is drawn from a digging mine comes back: it writes its total over it.
        let e = app.world().resource::<ObjectTable>().entity_of(mine).unwrap();
        let total = app.world().get::<OreProperty>(e).unwrap().current();
        app.world_mut().get_mut::<OreProperty>(e).unwrap().set(0.0);
        set_mining(&mut app, 0.0);
        run(&mut app, 1);
        assert_eq!(app.world().get::<OreProperty>(e).unwrap().current(), total, "its running total again");
        set_mining(&mut app, 1.0e9);
        run(&mut app, 2);
        let now = stores(&mut app);
        let full = now.iter().find(|s| s.0 == mine).unwrap().1;
        assert_eq!(full.current(), full.maximum, "never past MaximumOre");
        assert_eq!(full.maximum, 500.0, "the original's 500 on every mine");
        let others = |v: &[(u32, OreProperty)]| v.iter().filter(|s| s.0 != mine).copied().collect::<Vec<_>>();
        assert_eq!(others(&now), others(&start), "a full mine gives nothing to other stores");
    }

    /// The Player clan's building of `class` (the demo bases have one of each).
    fn building(app: &mut App, class: u32) -> u32 {
        let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &UnitClass)>();
        let found: Vec<u32> =
            q.iter(app.world()).filter(|(_, o, c)| o.clan == PLAYER && c.0 == class).map(|(id, ..)| id.0).collect();
        assert_eq!(found.len(), 1, "one building of class {class:#x} in the Player's base");
        found[0]
    }

    fn ore(app: &mut App, clan: i32) -> f32 {
        let mut q = app.world_mut().query::<(&Owner, &OreProperty)>();
        q.iter(app.world()).filter(|(o, _)| o.clan == clan).map(|(_, p)| p.current()).sum()
    }

    fn objects(app: &mut App) -> usize {
        app.world_mut().query_filtered::<(), With<SimObject>>().iter(app.world()).count()
    }

    fn build(app: &mut App, producer: u32, scheme: &str) {
        let s = app.world_mut().resource_mut::<SchemeNames>().intern(scheme).unwrap();
        order(app, vec![producer], Order::Build(s));
    }

    fn research(app: &mut App, node: &str) {
        let institute = building(app, INSTITUTE);
        let n = iron3d_production::research_node(app.world(), institute, node).unwrap();
        order(app, vec![institute], Order::Research(n));
    }

    fn tree(app: &App) -> iron3d_production::ResearchTree {
        app.world().resource::<iron3d_production::Production>().clans[&PLAYER].tree.clone().unwrap()
    }

    /// What the Player's research tree asks to build a robot of these parts.
    fn price(app: &App, parts: &[&str]) -> f32 {
        tree(app).build_price(&parts.iter().map(|p| p.to_string()).collect::<Vec<_>>()).unwrap().0
    }

    const SCOUT_PARTS: [&str; 3] = ["R_L_03", "e_tur_lt_01", "e_gun_lc_01"];

    fn run_until(app: &mut App, kind: EventKind, limit: u32) -> (u32, Vec<u32>, String) {
        for _ in 0..limit {
            app.update();
            if let Some(e) = events(app, kind).pop() {
                return e;
            }
        }
        panic!("no {} event in {limit} ticks", kind.name());
    }

    /// The ore a build at `plant` costs: the parts' `BuildOreCost` over the plant's
    /// efficiency (the original's `NewfOreCost`).
    fn build_ore(app: &App, plant: u32, parts: &[&str]) -> f32 {
        price(app, parts) / iron3d_economy::efficiency(app.world(), plant)
    }

    #[test]
    fn a_build_order_produces_a_robot_after_its_time_with_its_cost_paid() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let (before, count) = (ore(&mut app, PLAYER), objects(&mut app));
        let first_new = app.world().resource::<iron3d_production::Production>().next_id;
        build(&mut app, plant, SCOUT);
        run(&mut app, 1);
        let start = app.world().resource::<GameClock>().tick;
        // The clan's tree prices it: its parts' BuildOreCost over the plant's KPD, pulled
        // from the clan's mines and storages while it builds; a paid robot takes 5 s.
        let cost = build_ore(&app, plant, &SCOUT_PARTS);
        let job = app.world().resource::<iron3d_production::Production>().producers[&plant].active.clone().unwrap();
        assert!(cost > 0.0 && (job.ore - cost).abs() < 1e-4, "{job:?}");
        assert_eq!(ore(&mut app, PLAYER), before, "nothing paid up front");
        let (tick, ids, detail) = run_until(&mut app, EventKind::Produced, 800);
        assert!(tick >= start + 5_000u32.div_ceil(TICK_MS) - 1, "5 s of 64 ms ticks at least, counting the first");
        assert!((ore(&mut app, PLAYER) - (before - cost)).abs() < 1e-2, "the ore pulled is the cost");
        assert_eq!((ids, detail.as_str()), (vec![plant, first_new], "units\\robots\\scout.dat"));
        assert_eq!(first_new, 87, "the next id past tutorial.01's 87 placed objects");
        assert_eq!(objects(&mut app), count + 1);
        let e = app.world().resource::<ObjectTable>().entity_of(first_new).expect("registered in World3D");
        let w = app.world();
        assert_eq!(w.get::<Owner>(e).unwrap().clan, PLAYER);
        assert!(w.get::<Movable>(e).is_some() && w.get::<UnitClass>(e) == Some(&UnitClass(0x0100_8000)));
        let object = w.get::<MissionObject>(e).unwrap();
        assert_eq!(object.components.len(), 3, "resolved like a placed scheme");
        assert!(object.components.iter().all(|c| !c.prototype.entry.is_empty()));
        // Made at the plant's creation node (its hall way's 0x800 place), facing +x (read);
        // the plant's walls have pushed it to their side within the tick.
        let t = *w.get::<SimTransform>(e).unwrap();
        let plant_e = w.resource::<ObjectTable>().entity_of(plant).unwrap();
        let node = w.get::<Places>(plant_e).unwrap().of(0x800).next().copied().expect("the demo's plant has one");
        let at = world_point(w.get::<SimTransform>(plant_e).unwrap(), node.at);
        let walls = w.get::<CollisionProxy>(plant_e).unwrap();
        let gap = dist2(t.position, [at[0], at[1]]);
        assert!(gap <= walls.half_extents[0].max(walls.half_extents[1]), "{:?} from {at:?}", t.position);
        assert!(t.heading().abs() < 0.2, "facing +x: {}", t.heading());
        run(&mut app, 2);
        assert!(app.world().get::<NavStatus>(e).is_some(), "Behavior takes the new unit");
        let order = |app: &App| app.world().get::<iron3d_behavior::Navigator>(e).unwrap().order;
        assert_eq!(order(&app), Order::Leave, "it escapes");
        for _ in 0..600 {
            if order(&app) != Order::Leave {
                break;
            }
            run(&mut app, 1);
        }
        let out = app.world().get::<SimTransform>(e).unwrap().position;
        assert_eq!(order(&app), Order::Stop, "the escape ended where it went");
        assert!(dist2(out, [at[0], at[1]]) > 10.0, "away from the node: {out:?}");
        assert!(app.world().resource::<iron3d_terrain::NavMap>().walkable(out[0], out[1]), "on walkable ground");
        assert_eq!(
            app.world().get::<OreProperty>(e).map(|o| o.maximum),
            Some(0.0),
            "the economy: battle-unit defaults"
        );
    }

    #[test]
    fn a_factory_whose_creation_nodes_joint_is_destroyed_builds_nothing() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let e = app.world().resource::<ObjectTable>().entity_of(plant).unwrap();
        let condition = |app: &App| app.world().get::<CreationNodeCondition>(e).copied();
        assert_eq!(condition(&app), Some(CreationNodeCondition(1.0)), "armed with its creation node's joint");
        // The joint destroyed, as combat writes it once the node's life is gone.
        app.world_mut().get_mut::<CreationNodeCondition>(e).unwrap().0 = 0.0;
        build(&mut app, plant, SCOUT);
        let (_, ids, detail) = run_until(&mut app, EventKind::Rejected, 50);
        assert_eq!((ids, detail.as_str()), (vec![plant], "build: Plant creation node destroyed"));
        assert!(app.world().resource::<iron3d_production::Production>().producers[&plant].active.is_none());
    }

    /// The player's free minds now (as production publishes them).
    fn free_minds(app: &App) -> u32 {
        app.world().resource::<iron3d_core::MindBoard>().clans[&PLAYER].1
    }

    /// Gives the player `free` free minds from now.
    fn set_free_minds(app: &mut App, free: u32) {
        let now = free_minds(app);
        let mut clans = app.world_mut().resource_mut::<iron3d_core::MissionClans>();
        let clan = clans.clans.iter_mut().find(|c| c.index as i32 == PLAYER).unwrap();
        clan.minds = clan.minds + free - now;
    }

    /// The factory's batch (openparkan `docs/36-factory.md`, read): an idle producer in
    /// batch is given its scheme again while its clan has a free mind and waits without
    /// one; stop ends the batch and aborts the build, its ore back in the stores. Each
    /// robot is named as the original numbers a built bot: its clan's running count + 1.
    #[test]
    fn a_batch_builds_again_while_a_mind_is_free_and_stop_ends_it() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let units = app
            .world_mut()
            .query_filtered::<&Owner, With<Movable>>()
            .iter(app.world())
            .filter(|o| o.clan == PLAYER)
            .count();
        run(&mut app, 1);
        set_free_minds(&mut app, 2);
        let s = app.world_mut().resource_mut::<SchemeNames>().intern(SCOUT).unwrap();
        order(&mut app, vec![plant], Order::Batch(s));
        let name = |app: &App, id: u32| {
            let e = app.world().resource::<ObjectTable>().entity_of(id).unwrap();
            app.world().get::<Name>(e).unwrap().as_str().to_string()
        };
        // The `n`th robot produced (from 1).
        let nth = |app: &mut App, n: usize| {
            for _ in 0..800 {
                if let Some(e) = events(app, EventKind::Produced).get(n - 1) {
                    return e.1.clone();
                }
                app.update();
            }
            panic!("no robot {n} in 800 ticks");
        };
        let (first, second) = (nth(&mut app, 1), nth(&mut app, 2));
        assert_eq!(name(&app, first[1]), format!("SWW-{} Warrior", units + 1), "the demo's scout, numbered");
        assert_eq!(name(&app, second[1]), format!("SWW-{} Warrior", units + 2));
        let queue = |app: &App| app.world().resource::<iron3d_production::Production>().producers[&plant].clone();
        run(&mut app, 200);
        assert_eq!(free_minds(&app), 0);
        assert!(events(&app, EventKind::Produced).len() == 2 && queue(&app).active.is_none(), "no free mind: it waits");
        let shown = |app: &App| app.world().resource::<iron3d_core::ProductionBoard>().producers[&plant].batch;
        assert!(shown(&app), "the panel shows the batch while it waits");
        set_free_minds(&mut app, 1);
        let third = nth(&mut app, 3);
        assert_eq!(third[0], plant, "the batch goes on once a mind is free");
        set_free_minds(&mut app, 1);
        run(&mut app, 40);
        let job = queue(&app).active.expect("the next robot of the batch is being built");
        assert!(job.ore_got > 0.0, "{job:?}");
        let before = ore(&mut app, PLAYER);
        order(&mut app, vec![plant], Order::StopBuild);
        let job = queue(&app).active.unwrap();
        run(&mut app, 1);
        let p = app.world().resource::<iron3d_production::Production>();
        assert!(p.batch.is_empty() && p.producers[&plant].active.is_none(), "stopped");
        assert!(!shown(&app));
        assert!((ore(&mut app, PLAYER) - before - job.ore_got).abs() < 0.5, "its ore back (the project's)");
        run(&mut app, 200);
        assert_eq!(events(&app, EventKind::Produced).len(), 3, "and no more");
    }

    /// Two producers in batch share one free mind: one builds, the other waits, and
    /// neither queues a build it cannot start (once a `rejected` every tick).
    #[test]
    fn a_free_mind_goes_to_one_producer_in_batch() {
        let mut app = tutorial();
        let producers = [building(&mut app, PLANT), building(&mut app, 0x8000_0040)];
        run(&mut app, 1);
        set_free_minds(&mut app, 1);
        let s = app.world_mut().resource_mut::<SchemeNames>().intern(SCOUT).unwrap();
        order(&mut app, producers.to_vec(), Order::Batch(s));
        run(&mut app, 200);
        assert_eq!(events(&app, EventKind::Rejected), Vec::new(), "no build queued without a mind");
        assert_eq!(events(&app, EventKind::Produced).len(), 1, "the one mind built one robot");
        let p = app.world().resource::<iron3d_production::Production>();
        assert_eq!(p.batch.len(), 2, "both still in batch, waiting");
    }

    #[test]
    fn a_build_without_the_ore_waits_for_it() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        // One ore short of a scout: in one store, nothing elsewhere.
        let scout = price(&app, &SCOUT_PARTS);
        let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &mut OreProperty)>();
        let mut left = scout - 1.0;
        let mut stores: Vec<_> = q.iter_mut(app.world_mut()).filter(|(_, o, _)| o.clan == PLAYER).collect();
        stores.sort_by_key(|(id, ..)| **id);
        for (_, _, p) in &mut stores {
            p.set(left);
            left = 0.0;
        }
        let (before, count) = (ore(&mut app, PLAYER), objects(&mut app));
        assert_eq!(before, scout - 1.0);
        let cost = build_ore(&app, plant, &SCOUT_PARTS);
        build(&mut app, plant, SCOUT);
        run(&mut app, 600);
        assert!(events(&app, EventKind::Produced).is_empty() && events(&app, EventKind::Rejected).is_empty());
        assert_eq!(objects(&mut app), count);
        let job = app.world().resource::<iron3d_production::Production>().producers[&plant].active.clone().unwrap();
        assert!(job.ore_got < cost, "it waits for ore, holding what came: {job:?}");
        // Ore comes: the build goes on and ends.
        let storage = building(&mut app, UnitClass::STORAGE);
        let e = app.world().resource::<ObjectTable>().entity_of(storage).unwrap();
        app.world_mut().get_mut::<OreProperty>(e).unwrap().set(scout);
        let (_, ids, _) = run_until(&mut app, EventKind::Produced, 800);
        assert_eq!(ids[0], plant);
    }

    /// A backend whose run-time resolution fails (the construction of a finished robot).
    struct Failing;

    impl MissionBackend for Failing {
        fn prepare(
            &self,
            _: MissionLoadPhase,
            _: &str,
            _: &mut Prepared,
            _: &mut dyn FnMut(usize, usize),
        ) -> iron3d_formats::Result<()> {
            Ok(())
        }

        fn prepare_object(&self, object: &mut PreparedObject) -> iron3d_formats::Result<()> {
            Err(iron3d_formats::Error::rule("injected_fault", format!("{} cannot be resolved", object.key)))
        }
    }

    /// The game's backend, except that prototype keys (not unit schemes) do not resolve
    /// at run time.
    struct NoPrototypes(iron3d_mission::GameMissionBackend);

    impl MissionBackend for NoPrototypes {
        fn prepare(
            &self,
            phase: MissionLoadPhase,
            mission: &str,
            prepared: &mut Prepared,
            progress: &mut dyn FnMut(usize, usize),
        ) -> iron3d_formats::Result<()> {
            self.0.prepare(phase, mission, prepared, progress)
        }

        fn prepare_object(&self, object: &mut PreparedObject) -> iron3d_formats::Result<()> {
            if object.key.to_ascii_lowercase().ends_with(".dat") {
                return self.0.prepare_object(object);
            }
            Err(iron3d_formats::Error::rule("injected_fault", format!("{} is not in the registry", object.key)))
        }
    }

    #[test]
    fn research_node_names_must_resolve_through_the_registry() {
        let mut app = headless_app();
        app.add_plugins(MissionPlugin);
        let backend = NoPrototypes(iron3d_mission::GameMissionBackend::new(demo_game()));
        app.update();
        StartMission::new("tutorial.01", Arc::new(backend)).apply(app.world_mut());
        for _ in 0..12 {
            app.update();
        }
        assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::InGame, "loads");
        app.update();
        let rejected: Vec<String> = events(&app, EventKind::Rejected).into_iter().map(|e| e.2).collect();
        assert_eq!(rejected.len(), 2, "one per clan naming the tree: {rejected:?}");
        assert!(
            rejected[0].starts_with("clan 1 research tree: MISSIONS\\SCRIPTS\\default.trf: node 0: "),
            "{}",
            rejected[0]
        );
        assert!(rejected[0].contains("R_L_03 is not in the registry"), "{}", rejected[0]);
        let p = app.world().resource::<iron3d_production::Production>();
        assert!(p.clans[&PLAYER].tree.is_none(), "the tree is not used");
        let institute = building(&mut app, INSTITUTE);
        assert!(
            iron3d_production::research_node(app.world(), institute, "R_L_04")
                .unwrap_err()
                .contains("no research tree")
        );
    }

    #[test]
    fn a_failed_construction_spawns_nothing_and_refunds() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let (before, count) = (ore(&mut app, PLAYER), objects(&mut app));
        build(&mut app, plant, SCOUT);
        run(&mut app, 2);
        app.world_mut().resource_mut::<LoadedMission>().backend = Some(Arc::new(Failing));
        let (_, ids, detail) = run_until(&mut app, EventKind::Rejected, 800);
        assert_eq!(ids, vec![plant]);
        assert!(detail.contains("build failed, refunded") && detail.contains("injected_fault"), "{detail}");
        assert!(events(&app, EventKind::Produced).is_empty());
        assert_eq!(objects(&mut app), count, "nothing spawned");
        let mut pending = app.world_mut().query_filtered::<(), With<iron3d_mission::Pending>>();
        assert_eq!(pending.iter(app.world()).count(), 0, "not even a pending object");
        assert!((ore(&mut app, PLAYER) - before).abs() < 1e-2, "its ore back in the clan's stores");
        assert_eq!(app.world().resource::<iron3d_production::Production>().next_id, 87, "no id used");
    }

    #[test]
    fn research_unlocks_a_scheme() {
        let mut app = tutorial();
        let hangar = building(&mut app, 0x8000_0040);
        build(&mut app, hangar, TANK);
        let (_, _, detail) = run_until(&mut app, EventKind::Rejected, 3);
        assert!(detail.contains("component R_L_04 is not researched"), "{detail}");
        // Enough for three items and a tank: the storage stocked.
        let storage = building(&mut app, UnitClass::STORAGE);
        let e = app.world().resource::<ObjectTable>().entity_of(storage).unwrap();
        app.world_mut().get_mut::<OreProperty>(e).unwrap().set(2000.0);
        let before = ore(&mut app, PLAYER);
        for node in ["R_L_04", "e_tur_lt_02", "e_gun_lc_02"] {
            research(&mut app, node);
        }
        let started = app.world().resource::<GameClock>().tick;
        // One item at a time, each with three budgets (the original's): the centre's 2 s
        // (32 ticks), its ResearchEnergyCost collected at the centre's efficiency ×
        // Use_Power a second, its ResearchOreCost pulled through the distributor and
        // taken at efficiency × Use_Ore a second: none ends before its time and power.
        let t = tree(&app);
        let items = ["R_L_04", "e_tur_lt_02", "e_gun_lc_02"];
        let node = |p: &str| &t.nodes[t.node_named(p).unwrap() as usize];
        let costs: Vec<f32> = items.iter().map(|p| node(p).research_ore).collect();
        let institute = building(&mut app, INSTITUTE);
        let rate = iron3d_economy::work_rate(app.world(), institute);
        let least = |p: &str| 32u32.max(libm::ceilf(node(p).research_energy / (rate * TICK_SECONDS)) as u32);
        for _ in 0..3000 {
            if events(&app, EventKind::Researched).len() == 3 {
                break;
            }
            app.update();
        }
        let done = events(&app, EventKind::Researched);
        let names: Vec<&str> = done.iter().map(|e| e.2.as_str()).collect();
        assert_eq!(names, ["clan=1 node=1 CH2", "clan=1 node=4 TU2", "clan=1 node=7 WE2"], "rate {rate}");
        let ends: Vec<u32> = std::iter::once(started).chain(done.iter().map(|e| e.0)).collect();
        for (k, p) in items.iter().enumerate() {
            assert!(
                ends[k + 1] - ends[k] + 1 >= least(p),
                "{p}: {} ticks, its time and power need {}",
                ends[k + 1] - ends[k],
                least(p)
            );
        }
        let tree = tree(&app);
        assert_eq!(tree.nodes[2].state & 1, 1, "the unlock is available");
        assert!(tree.refusal(2).is_none(), "and its prerequisite is researched");
        build(&mut app, hangar, TANK);
        let (_, ids, detail) = run_until(&mut app, EventKind::Produced, 400);
        assert_eq!((ids[0], detail.as_str()), (hangar, "units\\robots\\tank.dat"));
        let paid = costs.iter().sum::<f32>() + build_ore(&app, hangar, &items);
        assert!((ore(&mut app, PLAYER) - (before - paid)).abs() < 1e-2, "paid the research and the tank");
    }

    #[test]
    fn a_build_collects_its_power_budget_at_the_factorys_rate() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let power = iron3d_economy::clan_summary(app.world_mut(), PLAYER as u32).1;
        assert!((power - 10.21).abs() < 1e-4, "behpsp.res: a generator's 10 and three bunkers' 0.07: {power}");
        let rate = iron3d_economy::work_rate(app.world(), plant);
        let use_power = iron3d_economy::efficiency(app.world(), plant) * 4.0;
        assert_eq!(rate, use_power, "the factory's efficiency × prof_plant's Use_Power 4");
        let energy = |app: &App| app.world().resource::<iron3d_core::EconomyBoard>().of(PLAYER).energy_percent;
        run(&mut app, 1);
        let idle = energy(&app);
        build(&mut app, plant, SCOUT);
        run(&mut app, 1);
        let started = app.world().resource::<GameClock>().tick;
        let job = app.world().resource::<iron3d_production::Production>().producers[&plant].active.clone().unwrap();
        assert!(job.power > 0.0, "the scout's parts' BuildEnergyCost");
        // While it collects, the plant draws prof_plant's Use_Power, 4 of the map's 20.42
        // a second: the Energy bar falls by 4 / 20.42 (the original's 50 % dip, S).
        let drop = f32::from(idle) - f32::from(energy(&app));
        assert!((drop - 400.0 / 20.42).abs() <= 1.0, "{idle} % idle, {} % collecting", energy(&app));
        // Its ore already there (the plant holds it), so time and power decide.
        let e = app.world().resource::<ObjectTable>().entity_of(plant).unwrap();
        app.world_mut().get_mut::<OreProperty>(e).unwrap().set(job.ore);
        let needed = 5_000u32.div_ceil(TICK_MS).max(libm::ceilf(job.power / (rate * TICK_SECONDS)) as u32);
        let (tick, ids, _) = run_until(&mut app, EventKind::Produced, 4000);
        assert_eq!(ids[0], plant);
        let took = tick + 1 - started + job.elapsed_ms / TICK_MS;
        assert!(took.abs_diff(needed) <= 1, "took {took} ticks, the budgets need {needed} (power {})", job.power);
        run(&mut app, 1);
        assert_eq!(energy(&app), idle, "done: it draws nothing more");
    }

    /// A building's efficiency part names a node of its model (the demo's, its root), and
    /// the building's efficiency is the part's value × that node's life over its full
    /// life: shooting the part lowers it in proportion (openparkan `docs/23-economy.md`,
    /// read and measured), and with it what the factory collects a second.
    #[test]
    fn shooting_a_buildings_efficiency_part_lowers_its_efficiency_in_proportion() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let e = app.world().resource::<ObjectTable>().entity_of(plant).unwrap();
        let parts = app.world().get::<CombatSheet>(e).unwrap().efficiency.clone();
        assert_eq!(parts, [EfficiencySheet { value: 3.0, node: Some(0) }], "the demo's medium factory");
        run(&mut app, 1);
        assert_eq!(iron3d_economy::efficiency(app.world(), plant), 3.0, "intact and powered");
        {
            let mut body = app.world_mut().get_mut::<iron3d_combat::Body>(e).unwrap();
            body.nodes[0].life = body.nodes[0].max * 0.5;
        }
        run(&mut app, 1);
        let condition = app.world().get::<iron3d_combat::Body>(e).unwrap().condition(0);
        let kpd = iron3d_economy::efficiency(app.world(), plant);
        assert_eq!(kpd, condition * 3.0, "its node's condition × its value");
        assert!((kpd - 1.5).abs() < 0.01, "about half: {kpd} (its repair system mends a little)");
        assert_eq!(iron3d_economy::work_rate(app.world(), plant), kpd * 4.0, "× prof_plant's Use_Power");
    }

    /// A building runs on its batteries (the demo writes the original's: 20 at 50 a
    /// second), which the distribution step tops up from its clan's generators; its
    /// efficiency is its part's value × the level its batteries serve channel 3 at
    /// (openparkan `docs/23-economy.md`, read and measured). A factory collecting a
    /// build's power draws 0.01 + 4 a second: with the clan's generators its batteries
    /// stay full; without them it works at full efficiency while they hold a power
    /// tick of that draw, (0.01 + 4) ÷ 50 of their capacity, and slows with them below.
    #[test]
    fn a_factory_slows_once_its_batteries_run_down_without_a_generator() {
        let run_down = |generators: bool| {
            let mut app = tutorial();
            let plant = building(&mut app, PLANT);
            let e = app.world().resource::<ObjectTable>().entity_of(plant).unwrap();
            let p = app.world().get::<Power>(e).unwrap().clone();
            assert_eq!((p.capacity(), p.batteries[0].output), (20.0, 50.0), "the demo's battery");
            assert!(p.charge > 0.99, "full, less an idle tick's 0.01 × 0.25 ÷ 20: {}", p.charge);
            if !generators {
                let mut q = app.world_mut().query::<(&Owner, &UnitClass, &ObjectHandle)>();
                let suppliers: Vec<ObjectHandle> = q
                    .iter(app.world())
                    .filter(|(o, c, _)| o.clan == PLAYER && iron3d_economy::profiles::SUPPLIERS.contains(&c.0))
                    .map(|(.., h)| *h)
                    .collect();
                assert!(!suppliers.is_empty());
                for object in suppliers {
                    app.world_mut().write_message(DeleteRequest { object });
                }
            }
            run(&mut app, 1);
            let full = iron3d_economy::efficiency(app.world(), plant);
            app.world_mut().get_mut::<Power>(e).unwrap().charge = 0.1;
            build(&mut app, plant, SCOUT);
            let mut seen = Vec::new();
            for _ in 0..40 {
                let before = app.world().get::<Power>(e).unwrap().charge;
                run(&mut app, 1);
                seen.push((before, iron3d_economy::efficiency(app.world(), plant) / full));
            }
            let collecting = app.world().resource::<iron3d_production::Production>().producers[&plant].active.is_some();
            assert!(collecting, "still building");
            (seen, app.world().get::<Power>(e).unwrap().charge)
        };
        let threshold = (0.01 + 4.0) / 50.0;
        let (seen, charge) = run_down(true);
        assert!(seen.iter().all(|s| s.1 == 1.0), "the generators keep it at full efficiency: {seen:?}");
        assert!(charge > 0.9, "and top its batteries up: {charge}");
        let (seen, charge) = run_down(false);
        assert_eq!(seen[0].1, 1.0, "at 10 % it still holds a power tick's draw");
        for (k, w) in seen.windows(2).enumerate() {
            assert!(w[1].1 <= w[0].1, "nothing refills it, tick {k}: {seen:?}");
            if w[1].1 < w[0].1 {
                assert!(w[1].0 < threshold, "slower only under {threshold} held: {seen:?}");
            }
        }
        let last = seen.last().unwrap().1;
        assert!(last < 0.5, "its efficiency falls with the charge: {last} of full, {charge} held");
    }

    /// A factory's `FreeBotNum` and a centre's `FreeTechnoNum` (what the mission grants):
    /// a free robot costs no ore and 1 power and takes its sizes' time (60 s for a small
    /// chassis at a small factory), counted off when it is built; a free technology
    /// costs nothing and is counted off when it starts.
    #[test]
    fn free_robots_and_technologies_come_from_the_buildings_grants() {
        use iron3d_production::grants::Grants;
        let mut app = tutorial();
        let (plant, centre) = (building(&mut app, PLANT), building(&mut app, INSTITUTE));
        let mut p = app.world_mut().resource_mut::<iron3d_production::Production>();
        p.grants.insert(plant, Grants { bots: 1, technologies: 0 });
        p.grants.insert(centre, Grants { bots: 0, technologies: 1 });
        let before = ore(&mut app, PLAYER);
        build(&mut app, plant, SCOUT);
        research(&mut app, "R_L_04");
        run(&mut app, 1);
        let p = app.world().resource::<iron3d_production::Production>();
        let job = p.producers[&plant].active.clone().unwrap();
        assert!(job.free && job.ore == 0.0 && job.power == 1.0, "{job:?}");
        // The scout's chassis R_L_03 is small (its third letter); so is the plant, whose
        // key fr_l_plant has an l fourth.
        let sizes =
            [iron3d_production::grants::size("fr_l_plant", true), iron3d_production::grants::size("R_L_03", false)];
        assert_eq!(sizes, [Some(2), Some(2)]);
        assert_eq!(job.total_ms, 60_000, "a small chassis at a small factory: 60 s");
        let (research, _) = p.clans[&PLAYER].active.clone().unwrap();
        assert!(research.free && research.ore == 0.0 && research.power == 0.0, "{research:?}");
        assert_eq!(p.grants[&centre].technologies, 0, "counted off at the start");
        assert_eq!(p.grants[&plant].bots, 1, "counted off when built");
        let (tick, ids, _) = run_until(&mut app, EventKind::Produced, 1000);
        assert_eq!(ids[0], plant);
        assert!(tick >= 60_000u32.div_ceil(TICK_MS), "{tick}");
        let p = app.world().resource::<iron3d_production::Production>();
        assert_eq!(p.grants[&plant].bots, 0);
        assert!((ore(&mut app, PLAYER) - before).abs() < 1e-3, "no ore for either");
        build(&mut app, plant, SCOUT);
        run(&mut app, 1);
        let job = app.world().resource::<iron3d_production::Production>().producers[&plant].active.clone().unwrap();
        assert!(!job.free && job.ore > 0.0, "the grant is spent: a paid robot");
    }

    #[test]
    fn the_same_production_orders_give_the_same_hashes() {
        let run_once = |orders: bool| {
            let mut app = tutorial();
            if orders {
                let plant = building(&mut app, PLANT);
                build(&mut app, plant, SCOUT);
                build(&mut app, plant, SCOUT);
                research(&mut app, "e_tur_lt_02");
            }
            run(&mut app, 600);
            let produced: Vec<u32> = events(&app, EventKind::Produced).iter().map(|e| e.0).collect();
            (app.world().resource::<StateHash>().history.clone(), produced)
        };
        let (first, produced) = run_once(true);
        assert_eq!(produced.len(), 2, "{produced:?}");
        assert!(produced[1] - produced[0] >= 5_000u32.div_ceil(TICK_MS) - 1, "the second scout waits for the first");
        assert_eq!(first, run_once(true).0);
        assert_ne!(first.last(), run_once(false).0.last(), "the hash sees production");
    }

    /// On the demo's data (the pods of its models' hall ways): a factory taken from
    /// another clan drops its batch and queue, and changes clan after its pod's 4.5 s.
    #[test]
    fn a_captured_factory_drops_its_tasks() {
        let mut app = tutorial();
        let plant = building(&mut app, PLANT);
        let e = app.world().resource::<ObjectTable>().entity_of(plant).unwrap();
        app.world_mut().get_mut::<Owner>(e).unwrap().clan = 2;
        let s = app.world_mut().resource_mut::<SchemeNames>().intern(SCOUT).unwrap();
        order(&mut app, vec![plant], Order::Batch(s));
        run(&mut app, 3);
        assert!(app.world().resource::<iron3d_production::Production>().batch.contains_key(&plant));
        let scout = app
            .world_mut()
            .query::<(&OriginalObjectId, &Owner, &iron3d_mission::MissionObject)>()
            .iter(app.world())
            .find(|(_, o, m)| o.clan == PLAYER && m.key.ends_with("scout.dat"))
            .map(|(id, ..)| id.0)
            .unwrap();
        order(&mut app, vec![scout], Order::Capture(plant));
        let mut entered = None;
        for _ in 0..3000 {
            app.update();
            let scout_e = app.world().resource::<ObjectTable>().entity_of(scout).unwrap();
            if entered.is_none() && app.world().get::<Indoors>(scout_e).is_some() {
                entered = Some(app.world().resource::<GameClock>().tick);
            }
            if !events(&app, EventKind::Captured).is_empty() {
                break;
            }
        }
        let captured = events(&app, EventKind::Captured);
        assert_eq!(captured.len(), 1, "{:?}", events(&app, EventKind::Rejected));
        let entered = entered.expect("the scout went in to the pod");
        assert_eq!(captured[0].0 - entered, iron3d_behavior::pod_fire_ms(PLANT).div_ceil(TICK_MS));
        assert_eq!((captured[0].1.clone(), captured[0].2.as_str()), (vec![plant, scout], "from=2 to=1"));
        assert_eq!(app.world().get::<Owner>(e).unwrap().clan, PLAYER);
        let production = app.world().resource::<iron3d_production::Production>();
        assert!(!production.batch.contains_key(&plant) && !production.producers.contains_key(&plant));
    }

    /// A unit the hero took from a neutral clan holds no mind of its new clan's.
    #[test]
    fn a_unit_taken_by_the_hero_holds_no_mind() {
        let mut app = tutorial();
        run(&mut app, 1);
        let free = |app: &App| iron3d_production::minds::current(app.world())[&PLAYER].1;
        let before = free(&app);
        let mut q = app.world_mut().query_filtered::<(Entity, &Owner), With<Movable>>();
        let unit = q.iter(app.world()).find(|(_, o)| o.clan == PLAYER).map(|(e, _)| e).unwrap();
        app.world_mut().entity_mut(unit).insert(Mindless);
        assert_eq!(free(&app), before + 1);
    }
}
