//! Units move by their data: top speed, acceleration, turn rate and slope limit from
//! [`MotionLimits`] (the CTLD root parameters and `MaxSpeedPercent`), and every key of
//! `Behavior.ini` that Behavior, Wizard, Control and combat apply. Each test fails when
//! the datum or key it names is ignored.

use super::*;
use iron3d_behavior::{BehaviorConfig, Navigator};
use iron3d_formats::config::{BehaviorIni as IniKeys, IniFile};
use iron3d_terrain::BehaviorIni;

/// A 12 × 12 map of 10-unit areals (heights from `height`) with `ini` as the game's
/// `Behavior.ini`, entered.
fn ini_app(ini: &str, height: fn(f32, f32) -> f32) -> App {
    let mut app = headless_app();
    publish_map(app.world_mut(), 12, 10.0, height, |_, _| false).unwrap();
    let keys = IniKeys::from_ini(&IniFile::parse(ini.as_bytes()));
    keys.check().unwrap();
    app.world_mut().insert_resource(BehaviorIni(keys));
    enter_game(&mut app);
    app
}

fn limits(top_speed: Option<f32>, speed_scale: f32) -> MotionLimits {
    MotionLimits { top_speed, speed_scale, ..MotionLimits::default() }
}

/// A unit at `at` facing +X with `limits`, ordered to `to` (and to stand there).
fn sent(app: &mut App, id: u32, at: [f32; 2], to: [f32; 2], limits: MotionLimits) -> Entity {
    let u = spawn_unit(app.world_mut(), id, 1, at, 0.0, 1.0);
    app.world_mut().entity_mut(u).insert(limits);
    run(app, 1);
    go_and_stop(app, vec![id], to);
    u
}

fn travelled(app: &App, e: Entity, from: [f32; 2]) -> f32 {
    dist2(pos(app, e), from)
}

fn navigator(app: &App, e: Entity) -> &Navigator {
    app.world().get::<Navigator>(e).unwrap()
}

#[test]
fn a_unit_drives_at_its_data_s_top_speed_scaled_by_its_percentage() {
    let mut app = ini_app("", flat);
    let fast = sent(&mut app, 0, [5.0, 20.0], [115.0, 20.0], limits(Some(6.0), 1.0));
    let half = sent(&mut app, 1, [5.0, 80.0], [115.0, 80.0], limits(Some(6.0), 0.5));
    let default = sent(&mut app, 2, [5.0, 50.0], [115.0, 50.0], MotionLimits::default());
    run(&mut app, 120);
    let (f, h, d) =
        (travelled(&app, fast, [5.0, 20.0]), travelled(&app, half, [5.0, 80.0]), travelled(&app, default, [5.0, 50.0]));
    assert!((h / f - 0.5).abs() < 0.05, "half the percentage, half the distance: {h} vs {f}");
    assert!(d > f * 1.5, "without data the project's cruise speed (10) applies: {d} vs {f}");
    let top = app.world().get::<SteerIntent>(half).unwrap().max_speed;
    assert_eq!(top, 3.0);
}

#[test]
fn acceleration_and_turn_rate_come_from_the_data_and_behavior_ini_caps_them() {
    let speed_after = |ini: &str, acceleration: Option<f32>| {
        let mut app = ini_app(ini, flat);
        let u = sent(&mut app, 0, [5.0, 20.0], [115.0, 20.0], MotionLimits { acceleration, ..MotionLimits::default() });
        // The first step waits up to 4 ticks (docs/reference/runtime.md §3.6): then 4 ticks of driving.
        let mut speed = 0.0;
        for _ in 0..12 {
            app.update();
            speed = app.world().get::<Kinematics>(u).unwrap().speed;
            if speed > 0.0 {
                run(&mut app, 3);
                speed = app.world().get::<Kinematics>(u).unwrap().speed;
                break;
            }
        }
        speed
    };
    let dv = |a: f32| 4.0 * a * TICK_SECONDS;
    assert!((speed_after("", Some(2.0)) - dv(2.0)).abs() < 1e-4, "the data's acceleration");
    assert!((speed_after("", None) - dv(8.0)).abs() < 1e-4, "the project's default");
    assert!((speed_after("PathFind_MaxAccel = 1\r\n", Some(2.0)) - dv(1.0)).abs() < 1e-4, "capped by the key");
    assert!((speed_after("PathFind_MaxAccel = 3\r\n", None) - dv(3.0)).abs() < 1e-4, "the key stands in");

    let turn = |ini: &str, turn_rate: Option<f32>| {
        let mut app = ini_app(ini, flat);
        // Facing +X, sent to -X: it turns at its limit.
        let u = sent(&mut app, 0, [60.0, 60.0], [10.0, 62.0], MotionLimits { turn_rate, ..MotionLimits::default() });
        let mut most = 0.0f32;
        for _ in 0..10 {
            app.update();
            most = most.max(app.world().get::<Kinematics>(u).unwrap().turn_rate.abs());
        }
        most
    };
    assert!((turn("", Some(1.0)) - 1.0).abs() < 1e-4);
    assert!((turn("PathFind_MaxRotation = 0.5\r\n", Some(1.0)) - 0.5).abs() < 1e-4);
    assert!((turn("PathFind_MaxRotation = 0.7\r\n", None) - 0.7).abs() < 1e-4);
}

/// Flat, then a ramp rising 0.6 per unit (31°) from x 50 to x 70, then flat again.
fn ramp(x: f32, _: f32) -> f32 {
    ((x - 50.0) * 0.6).clamp(0.0, 12.0)
}

#[test]
fn a_unit_climbs_only_slopes_within_its_slope_limit() {
    let climbed = |slope_limit: f32| {
        let mut app = ini_app("", ramp);
        let data = MotionLimits { slope_limit: Some(slope_limit), ..MotionLimits::default() };
        let u = sent(&mut app, 0, [20.0, 60.0], [100.0, 60.0], data);
        run(&mut app, 300);
        pos(&app, u)[0]
    };
    let (scout, tank) = (climbed(0.35), climbed(0.79));
    assert!(scout < 55.0, "20° is too steep for 31°: stopped at x {scout}");
    assert!(tank > 95.0, "45° climbs it: reached x {tank}");
}

#[test]
fn corridor_radius_and_step_dist_reach_the_steering() {
    let mut app = ini_app("PathFind_CorridorRadius = 3.5\r\n", flat);
    let u = sent(&mut app, 0, [5.0, 20.0], [115.0, 20.0], MotionLimits::default());
    run(&mut app, 10);
    assert_eq!(app.world().get::<SteerIntent>(u).unwrap().corridor_radius, 3.5);

    // A path with a corner at (60, 20): a long step distance passes the corner early.
    let closest_to_corner = |ini: &str| {
        let mut app = ini_app(ini, flat);
        publish_paths(
            app.world_mut(),
            vec![MissionPath { id: 1, points: vec![[60.0, 20.0, 0.0], [60.0, 100.0, 0.0]] }],
        );
        let u = spawn_unit(app.world_mut(), 0, 1, [10.0, 20.0], 0.0, 1.0);
        run(&mut app, 1);
        order(&mut app, vec![0], Order::FollowPath(1));
        let mut closest = f32::MAX;
        for _ in 0..300 {
            app.update();
            closest = closest.min(dist2(pos(&app, u), [60.0, 20.0]));
        }
        closest
    };
    let (short, long) = (closest_to_corner(""), closest_to_corner("PathFind_fStepDist = 12\r\n"));
    assert!(short < 2.5 && long > 6.0, "the corner is cut by the longer step: {short} vs {long}");
}

/// A unit of radius 1 standing `gap` from the east face of a building (half extents 5 at
/// (40, 60)), sent east: its local path after planning.
fn planned_beside_building(ini: &str, gap: f32) -> (App, Entity) {
    let mut app = ini_app(ini, flat);
    spawn_building(app.world_mut(), 9, [40.0, 60.0], [5.0, 5.0]);
    let u = sent(&mut app, 0, [45.0 + gap, 60.0], [110.0, 60.0], MotionLimits::default());
    run(&mut app, 2);
    (app, u)
}

#[test]
fn a_unit_on_a_building_steps_off_it_first() {
    let (app, u) = planned_beside_building("PathFind_BuildingHitDist = 2\r\nPathFind_fStepOffBuilding = 7\r\n", 1.0);
    let first = navigator(&app, u).local_path[0];
    assert!((first[0] - 52.0).abs() < 1e-3 && (first[1] - 60.0).abs() < 1e-3, "7 beyond the face: {first:?}");
    // Farther than the hit distance: no step off.
    let (app, u) = planned_beside_building("PathFind_BuildingHitDist = 0.5\r\nPathFind_fStepOffBuilding = 7\r\n", 1.0);
    assert_ne!(navigator(&app, u).local_path[0], [52.0, 60.0]);
}

#[test]
fn near_a_building_a_unit_keeps_its_percentage_of_top_speed() {
    let top = |ini: &str| {
        let (mut app, u) = planned_beside_building(ini, 3.0);
        // The first step is due within 4 ticks of the order (docs/reference/runtime.md §3.6).
        run(&mut app, 4);
        app.world().get::<SteerIntent>(u).unwrap().max_speed
    };
    let slow = "PathFind_NearBuildSpeedPercent = 40\r\n";
    assert_eq!(top(&format!("{slow}PathFind_BuildingNearestDist = 5\r\n")), 4.0, "within 5: 40% of 10");
    assert_eq!(top(&format!("{slow}PathFind_BuildingNearestDist = 1\r\n")), 10.0, "beyond 1: full speed");
    assert_eq!(top("PathFind_BuildingNearestDist = 5\r\n"), 10.0, "the project's default keeps full speed");
}

#[test]
fn near_door_coeff_widens_the_berth_of_portal_ends_and_min_points_splits_the_path() {
    // A wall of holes at column 6 but for row 2: the route passes one portal pair.
    let local = |ini: &str| {
        let mut app = headless_app();
        publish_map(app.world_mut(), 12, 10.0, flat, |i, j| i == 6 && j != 2).unwrap();
        let keys = IniKeys::from_ini(&IniFile::parse(ini.as_bytes()));
        app.world_mut().insert_resource(BehaviorIni(keys));
        enter_game(&mut app);
        let u = sent(&mut app, 0, [15.0, 90.0], [105.0, 90.0], MotionLimits::default());
        run(&mut app, 2);
        navigator(&app, u).local_path.clone()
    };
    let (plain, wide) = (local(""), local("PathFind_NearDoorCoeff = 2.5\r\n"));
    assert_eq!(plain.len(), wide.len());
    assert_ne!(plain, wide, "the portal points keep a wider margin");
    // Nearer the middle of the gap (y 20..30): farther from the portal ends.
    let off_middle = |p: &[[f32; 2]]| p.iter().map(|q| (q[1] - 25.0).abs()).fold(f32::MAX, f32::min);
    assert!(off_middle(&wide) < off_middle(&plain), "{wide:?} vs {plain:?}");
    let split = local("PathFind_MinPointInTrajectory = 40\r\n");
    assert!(plain.len() < 40 && split.len() == 40, "{} points, then {}", plain.len(), split.len());
    assert_eq!(split.last(), plain.last(), "the goal stays last");
}

#[test]
fn use_wizard_off_heads_straight_through_what_wizard_avoids() {
    // The most a request turns away from the way to the waypoint (sine of the angle),
    // seen from where Wizard saw the unit (its position before Control's step).
    let turned = |ini: &str| {
        let mut app = ini_app(ini, flat);
        spawn_unit(app.world_mut(), 5, 1, [32.0, 25.0], 0.0, 1.0);
        let u = sent(&mut app, 0, [10.0, 25.0], [110.0, 25.0], MotionLimits::default());
        let mut most = 0.0f32;
        for _ in 0..60 {
            app.update();
            let (intent, v) =
                (app.world().get::<SteerIntent>(u).unwrap(), app.world().get::<MotionRequest>(u).unwrap());
            let p = app.world().get::<PreviousSimTransform>(u).unwrap().0.position;
            let to = [intent.waypoint[0] - p[0], intent.waypoint[1] - p[1]];
            let len = |w: [f32; 2]| (w[0] * w[0] + w[1] * w[1]).sqrt();
            let (a, b) = (len(v.velocity), len(to));
            if intent.active && a > 1e-3 && b > 1e-3 {
                most = most.max(((v.velocity[0] * to[1] - v.velocity[1] * to[0]) / (a * b)).abs());
            }
        }
        most
    };
    assert!(turned("") > 0.1, "Wizard steers round the unit in the way");
    assert!(turned("UseWizard = 0\r\n") < 1e-4, "without Wizard the request heads for the waypoint");
}

#[test]
fn lock_behaviour_keeps_units_standing() {
    let moved = |ini: &str| {
        let mut app = ini_app(ini, flat);
        let u = sent(&mut app, 0, [10.0, 20.0], [110.0, 20.0], MotionLimits::default());
        run(&mut app, 40);
        travelled(&app, u, [10.0, 20.0])
    };
    assert!(moved("LockBehaviour = 0\r\n") > 10.0);
    assert_eq!(moved("LockBehaviour = 1\r\n"), 0.0);
    assert!(app_config("LockBehaviour = 1\r\n").locked);
}

fn app_config(ini: &str) -> BehaviorConfig {
    *ini_app(ini, flat).world().resource::<BehaviorConfig>()
}

#[test]
fn immortal_hero_makes_only_the_hero_invulnerable() {
    let invulnerable = |ini: &str, class: u32| {
        let mut app = ini_app(ini, flat);
        let u = spawn_unit(app.world_mut(), 0, 1, [10.0, 20.0], 0.0, 1.0);
        app.world_mut().entity_mut(u).insert(UnitClass(class));
        run(&mut app, 2);
        app.world().get::<Health>(u).unwrap().invulnerable
    };
    assert!(invulnerable("ImmortalHero = 1\r\n", UnitClass::HERO));
    assert!(!invulnerable("ImmortalHero = 0\r\n", UnitClass::HERO));
    assert!(!invulnerable("ImmortalHero = 1\r\n", 0x0100_8000), "a battle unit is not the hero");
}

#[test]
fn a_default_order_is_reported_once_as_unsupported() {
    let mut app = ini_app("GiveDefaultOrder = 1\r\nDefaultOrderPhase = 10\r\n", flat);
    run(&mut app, 5);
    let reported: Vec<String> = events(&app, EventKind::Unsupported).into_iter().map(|e| e.2).collect();
    assert_eq!(reported.len(), 2, "{reported:?}");
    assert!(reported[0].starts_with("Behavior.ini GiveDefaultOrder:") && reported[1].contains("DefaultOrderPhase"));
    let mut quiet = ini_app("GiveDefaultOrder = 0\r\nDefaultOrderPhase = 10\r\n", flat);
    run(&mut quiet, 5);
    assert!(events(&quiet, EventKind::Unsupported).is_empty());
}

/// A clear stretch of the tutorial map south-west of the player's base (no building,
/// patrol or slope in the way), and how far east the two scouts are sent.
const TEST_SPOT: [f32; 2] = [200.0, 120.0];
const TEST_RUN: f32 = 150.0;

/// A demo scout built in the running mission through the load's own path (its scheme's
/// CTLDs and node tables, its property bag) at `at`, with `MaxSpeedPercent` `percent`.
fn demo_scout(app: &mut App, id: u32, at: [f32; 2], percent: i32) -> Entity {
    use iron3d_core::PropertyBag;
    use iron3d_formats::world::{PlacedObject, Property};
    use iron3d_mission::{PlacedRecord, PreparedObject, spawn_object};
    let scheme = iron3d_demo::catalogue::ROBOTS[0].path;
    let ground = app.world().resource::<iron3d_terrain::Ground>().height_at(at[0], at[1]).unwrap();
    let placed =
        PlacedObject::new(1, scheme, [at[0], at[1], ground]).with_property(Property::int("MaxSpeedPercent", percent));
    let object = PreparedObject {
        id,
        name: format!("scout at {percent}%"),
        key: scheme.into(),
        components: Vec::new(),
        clan: 1,
        record: PlacedRecord::from(&placed),
        properties: PropertyBag::of(&placed),
        extras: Default::default(),
    };
    spawn_object(app.world_mut(), object).unwrap()
}

/// Two demo scouts differing only in `MaxSpeedPercent`.
#[test]
fn demo_robots_differing_only_in_max_speed_percent_cover_distances_about_one_to_two() {
    let game = demo_game();
    let mut app = demo_mission(&game, iron3d_demo::missions::MISSIONS[0].name);
    let starts = [[TEST_SPOT[0], TEST_SPOT[1]], [TEST_SPOT[0], TEST_SPOT[1] + 24.0]];
    let mut built = Vec::new();
    for (k, (percent, at)) in [(100, starts[0]), (50, starts[1])].into_iter().enumerate() {
        built.push(demo_scout(&mut app, 90_000 + k as u32, at, percent));
        let limits = *app.world().get::<MotionLimits>(built[k]).unwrap();
        assert_eq!(limits.speed_scale, percent as f32 / 100.0);
        assert!(limits.top_speed.is_some(), "the scout's CTLD gives its top speed");
    }
    run(&mut app, 1);
    for (k, at) in starts.iter().enumerate() {
        order(&mut app, vec![90_000 + k as u32], Order::MoveTo([at[0] + TEST_RUN, at[1]]));
    }
    run(&mut app, 100);
    let (full, half) = (travelled(&app, built[0], starts[0]), travelled(&app, built[1], starts[1]));
    assert!((half / full - 0.5).abs() < 0.06, "about 1:2: {half} vs {full}");
}

/// Damage slows a machine, a power shortage does not (openparkan `docs/24-motion.md`):
/// a demo scout's live top speed is its CTLD's × E × (1 + r) ÷ 2, E its engine's drive
/// × its node's condition × its running gear's mean life, r its spare payload's share.
/// One at half life covers half the way of a whole one, whatever its battery holds;
/// one with a side's wheels shot away veers toward that side; one whose engine and
/// wheels are gone drops its order and refuses the next.
#[test]
fn damage_slows_a_machine_by_its_engine_and_running_gear() {
    use iron3d_combat::Body;
    use iron3d_core::Power;
    let game = demo_game();
    let mut app = demo_mission(&game, iron3d_demo::missions::MISSIONS[0].name);
    let starts = [0.0, 24.0, 48.0, 72.0].map(|dy| [TEST_SPOT[0], TEST_SPOT[1] + dy]);
    let scouts = starts.map(|at| {
        let id = 90_100 + (at[1] - TEST_SPOT[1]) as u32;
        (id, demo_scout(&mut app, id, at, 100))
    });
    run(&mut app, 1);
    let (whole, authored) = (scouts[0].1, *app.world().get::<MotionLimits>(scouts[0].1).unwrap());
    let drive = *app.world().get::<Drive>(whole).unwrap();
    assert_eq!((drive.engines, drive.left, drive.right), (1.0, 1.0, 1.0), "one engine of drive 1, both sides whole");
    let r = authored.load;
    assert!(r > 0.0 && r < 1.0, "the scout carries part of its payload: r = {r}");
    // r from the scout's own numbers: its CTLD's payload, its body's and its parts' masses.
    let payload = iron3d_demo::models::robots::motion("r_ch_01").unwrap().payload;
    let f = app.world().get::<CombatSheet>(whole).unwrap().figures;
    assert_eq!(r, (payload + f.own_mass - f.mass) / payload, "{f:?}");
    let live = authored.live(Some(&drive));
    assert_eq!(live.top_speed, authored.top_speed.map(|t| t * (1.0 + r) / 2.0));
    assert_eq!(live.turn_rate, authored.turn_rate.map(|t| t * (1.5 * r + 0.5)));
    let body = |app: &mut App, e: Entity, node: usize, share: f32| {
        let mut b = app.world_mut().get_mut::<Body>(e).unwrap();
        b.nodes[node].life = b.nodes[node].max * share;
    };
    // Half the body's life: half the engine's condition. A flat battery changes nothing.
    body(&mut app, scouts[1].1, 0, 0.5);
    app.world_mut().get_mut::<Power>(scouts[1].1).unwrap().charge = 0.0;
    app.world_mut().get_mut::<Power>(whole).unwrap().charge = 0.0;
    // The left wheels (node 2) shot away: E halves, and the scout veers left.
    body(&mut app, scouts[2].1, 2, 0.0);
    run(&mut app, 1);
    assert_eq!(app.world().get::<Drive>(scouts[1].1).unwrap().engines, 0.5);
    assert_eq!(app.world().get::<Drive>(scouts[2].1).unwrap().factor(), 0.5);
    for (k, (id, _)) in scouts.iter().enumerate().take(2) {
        order(&mut app, vec![*id], Order::MoveTo([starts[k][0] + TEST_RUN, starts[k][1]]));
    }
    // The player drives the third straight ahead at full throttle.
    let ahead = PilotInput { throttle: 127, ..PilotInput::default() };
    order(&mut app, vec![scouts[2].0], Order::Pilot(ahead));
    run(&mut app, 100);
    let way = |k: usize| travelled(&app, scouts[k].1, starts[k]);
    assert!((way(1) / way(0) - 0.5).abs() < 0.06, "half the engine, half the way: {} vs {}", way(1), way(0));
    assert!(way(0) < TEST_RUN - 5.0, "still on its way after 6.4 s: {}", way(0));
    let veered = app.world().get::<SimTransform>(scouts[2].1).unwrap().heading();
    assert!(veered > 0.5, "it turned left, toward its lost wheels: {veered} rad");
    // Shoot away the fourth's engine (its body to a sliver) and both sides' wheels while
    // it drives: it stops and refuses the next order.
    let (wreck_id, wreck) = scouts[3];
    order(&mut app, vec![wreck_id], Order::MoveTo([starts[3][0] + TEST_RUN, starts[3][1]]));
    run(&mut app, 20);
    body(&mut app, wreck, 0, 0.01);
    body(&mut app, wreck, 2, 0.0);
    body(&mut app, wreck, 3, 0.0);
    run(&mut app, 2);
    assert_eq!(navigator(&app, wreck).order, Order::Stop, "it lost its leave to be ordered");
    order(&mut app, vec![wreck_id], Order::MoveTo([starts[3][0], starts[3][1]]));
    run(&mut app, 2);
    let refused = events(&app, EventKind::Rejected);
    assert!(refused.iter().any(|r| r.1 == [wreck_id] && r.2.contains("live top speed")), "{refused:?}");
    assert_eq!(navigator(&app, wreck).order, Order::Stop);
}

/// A robot's turret turns at its data's rate (openparkan `docs/30-turrets.md`): the yaw
/// channel its turret component names, rate × span — the demo's light turret's.
#[test]
fn a_demo_robots_turret_turns_at_its_yaw_channels_rate() {
    let game = demo_game();
    let mut app = demo_mission(&game, iron3d_demo::missions::MISSIONS[0].name);
    let scout = demo_scout(&mut app, 90_200, TEST_SPOT, 100);
    run(&mut app, 1);
    let (item, rows) = iron3d_demo::arms::turret_channels("r_tu_01", 0).unwrap().unwrap();
    let yaw = &rows[item.bindings[0] as usize];
    let (rate, span) = yaw.channel(iron3d_formats::helpers::ctld::RowLayout::Native36).unwrap();
    let turn_rate = app.world().get::<Weapon>(scout).unwrap().turn_rate;
    assert_eq!(turn_rate, rate * span, "0.85 turns a second");
    assert_eq!(app.world().get::<CombatSheet>(scout).unwrap().turret_yaw_rate, Some(rate * span));
}
