//! Core's tests, against its public surface (an integration test: the library is built
//! once, not a second time for its unit tests; docs/src/test-time.md): the set order and
//! its gate, the pause sub-state, the command order, the random streams, the clock, the
//! spatial grid, the clan relations, the power channels, piece animation, the plane's
//! angles, sound keys and building places.
#![allow(clippy::unwrap_used, clippy::panic, reason = "a failed unwrap is a failed test")]

use bevy_app::App;
use bevy_app::FixedUpdate;
use bevy_ecs::prelude::*;
use bevy_state::app::StatesPlugin;
use bevy_state::prelude::*;
use iron3d_core::plane::wrap_angle;
use iron3d_core::*;
use iron3d_formats::helpers::ctld::FLAG_WRAP;
use std::f32::consts::{PI, TAU};

#[derive(Resource, Default)]
struct Trace(Vec<&'static str>);

fn set_state<S: bevy_state::state::FreelyMutableState>(app: &mut App, s: S) {
    app.world_mut().resource_mut::<NextState<S>>().set(s);
    app.update();
}

#[test]
fn sim_sets_run_in_order_only_in_a_running_game() {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin)).init_resource::<Trace>();
    // Registered in reverse to prove the order comes from the sets.
    app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("world3d")).in_set(SimSystems::World3d));
    app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("control")).in_set(SimSystems::Control));
    app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("wizard")).in_set(SimSystems::Wizard));
    app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("behavior")).in_set(SimSystems::Behavior));
    app.add_systems(FixedUpdate, (|mut t: ResMut<Trace>| t.0.push("superai")).in_set(SimSystems::SuperAi));
    app.update();
    app.world_mut().run_schedule(FixedUpdate);
    assert!(app.world().resource::<Trace>().0.is_empty(), "no simulation in the menu");
    set_state(&mut app, AppState::InGame);
    app.world_mut().run_schedule(FixedUpdate);
    assert_eq!(app.world().resource::<Trace>().0, ["superai", "behavior", "wizard", "control", "world3d"]);
    set_state(&mut app, Pause::Paused);
    app.world_mut().run_schedule(FixedUpdate);
    assert_eq!(app.world().resource::<Trace>().0.len(), 5, "paused: no tick");
}

#[derive(Resource, Default)]
struct Entered(u32);

#[test]
fn resuming_does_not_re_enter_the_game() {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin)).init_resource::<Entered>();
    app.add_systems(OnEnter(AppState::InGame), |mut n: ResMut<Entered>| n.0 += 1);
    app.update();
    set_state(&mut app, AppState::InGame);
    set_state(&mut app, Pause::Paused);
    set_state(&mut app, Pause::Running);
    assert_eq!(app.world().resource::<Entered>().0, 1);
    assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Running);
    set_state(&mut app, AppState::MainMenu);
    assert!(app.world().get_resource::<State<Pause>>().is_none(), "no pause state outside the game");
}

#[test]
fn commands_of_a_tick_apply_in_an_order_independent_of_queueing() {
    let a = SimCommand { tick: 3, units: vec![2], order: Order::MoveTo([1.0, 2.0]), queued: false };
    let b = SimCommand { tick: 3, units: vec![1, 2], order: Order::Stop, queued: false };
    let c = SimCommand { tick: 3, units: vec![2], order: Order::Patrol(100), queued: false };
    let later = SimCommand { tick: 9, units: vec![0], order: Order::Stop, queued: false };
    let mut one = CommandQueue::default();
    let mut two = CommandQueue::default();
    for cmd in [&a, &b, &c, &later] {
        one.push(cmd.clone());
    }
    for cmd in [&later, &c, &a, &b] {
        two.push(cmd.clone());
    }
    let (x, y) = (one.take_due(3), two.take_due(3));
    assert_eq!(x, y);
    assert_eq!(x, vec![b, a, c]);
    assert_eq!(one.pending, vec![later]);
}

#[test]
fn streams_are_independent_and_named() {
    let mut r = SimRandom::new(7);
    let first = r.stream("wizard").next_u64();
    let mut s = SimRandom::new(7);
    s.stream("alpha").next_u64();
    assert_eq!(s.stream("wizard").next_u64(), first, "another stream's draws change nothing");
    assert_ne!(r.shared.next_u64(), SimRandom::new(8).shared.next_u64());
    assert!((0..1000).all(|_| r.shared.below(64) < 64));
}

#[test]
fn the_clock_compares_deadlines_across_the_wrap() {
    let clock = GameClock { tick: 1, time_ms: 5 };
    assert!(clock.reached(u32::MAX - 10));
    assert!(clock.reached(5));
    assert!(!clock.reached(6));
}

#[test]
fn the_grid_finds_every_box_touching_a_query() {
    // Small boxes on a lattice plus a few long ones crossing many cells.
    let mut boxes: Vec<[[f32; 2]; 2]> = (0..400)
        .map(|i| [(i % 20) as f32 * 5.0, (i / 20) as f32 * 5.0])
        .map(|p| [p, [p[0] + 1.0, p[1] + 1.0]])
        .collect();
    boxes.extend([[[-5.0, 20.0], [80.0, 22.0]], [[40.0, -3.0], [41.0, 99.0]]]);
    let touches = |b: &[[f32; 2]; 2], lo: [f32; 2], hi: [f32; 2]| {
        b[0][0] <= hi[0] && b[1][0] >= lo[0] && b[0][1] <= hi[1] && b[1][1] >= lo[1]
    };
    for cell in [4.0, 30.0] {
        let grid = SpatialGrid::build(&boxes, cell);
        for (lo, hi) in [([0.5, 0.5], [0.5, 0.5]), ([10.0, 18.0], [12.0, 21.0]), ([49.0, 49.0], [60.0, 60.0])] {
            let mut out = Vec::new();
            grid.query(lo, hi, &mut out);
            let mut found = out.clone();
            found.sort_unstable();
            found.dedup();
            let exact: Vec<u32> = (0..boxes.len() as u32).filter(|&i| touches(&boxes[i as usize], lo, hi)).collect();
            assert!(exact.iter().all(|i| found.contains(i)), "cell {cell}, {lo:?}..{hi:?}: {exact:?} in {found:?}");
            // Cells of the requested size: a small query sees a few neighbours only.
            assert!(cell > 4.0 || found.len() <= 12, "a query sees only nearby cells: {found:?}");
        }
    }
}

fn clan(index: u32, name: &str, mode: u32, relations: &[(&str, i32)]) -> ClanSetup {
    ClanSetup {
        minds: 5,
        relations: relations.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        ..ClanSetup::bare(index, name, mode)
    }
}

#[test]
fn relation_words_are_filed_as_the_original_loader_files_them() {
    let clans = [
        clan(0, "Natur", 0, &[("PLAYER", 0)]),
        clan(1, "Player", 1, &[("player", 1), ("enemy", 0), ("Ally", 2), ("Ntrl", 0), ("nobody", 2)]),
        clan(2, "Enemy", 2, &[("Player", 0), ("Enemy", 1)]),
        clan(3, "Ally", 2, &[("Player", 2)]),
        clan(4, "Ntrl", 3, &[("Player", 0), ("Enemy", 2)]),
    ];
    let r = ClanRelations::from_clans(&clans);
    for c in 0..5 {
        assert_eq!(r.word(c, c), Some(relation::ALLIED), "every clan is allied to itself");
    }
    assert_eq!(r.word(1, 2), Some(relation::HOSTILE), "matched ignoring case");
    assert_eq!(r.word(1, 3), Some(relation::ALLIED));
    assert_eq!(r.word(2, 3), Some(relation::HOSTILE), "a clan no record names stays 0");
    for c in 0..4 {
        assert_eq!((r.word(4, c), r.word(c, 4)), (Some(relation::NEUTRAL), Some(relation::NEUTRAL)), "neutral");
    }
    for a in 0..5 {
        for b in 0..5 {
            assert_eq!(r.word(a, b), r.word(b, a), "words are set both ways");
        }
    }
    assert_eq!(r.word(1, 5), None, "an unknown clan has no word");
}

#[test]
fn who_is_hostile_follows_the_words_and_the_clan_types() {
    let clans = [
        clan(0, "Natur", 0, &[]),
        clan(1, "Player", 1, &[("Player", 1), ("Enemy", 0), ("Trgt", 1), ("Ally", 2)]),
        clan(2, "Enemy", 2, &[("Player", 0), ("Enemy", 1), ("Trgt", 1)]),
        clan(3, "Trgt", 2, &[("Player", 1), ("Enemy", 1), ("Trgt", 1)]),
        clan(4, "Ally", 2, &[("Player", 2)]),
        clan(5, "Ntrl", 3, &[]),
    ];
    let r = ClanRelations::from_clans(&clans);
    assert!(r.hostile(1, 2) && r.hostile(2, 1), "word 0 is hostile, both ways");
    assert!(!r.hostile(1, 3) && !r.hostile(3, 2), "word 1 is neutral: no fight");
    assert!(!r.hostile(1, 4) && !r.hostile(4, 1), "word 2 is allied");
    assert!(r.hostile(2, 4), "a clan no record names is hostile");
    assert!(r.hostile(0, 1) && r.hostile(0, 2), "a nature clan takes every other clan as hostile");
    assert!(!r.hostile(1, 0) && !r.hostile(2, 0), "nobody's radar lists a nature clan");
    assert!(!r.hostile(5, 1) && !r.hostile(1, 5) && !r.hostile(0, 5), "a neutral clan fights nobody, nobody fights it");
    assert!(!r.hostile(1, 1) && !r.hostile(1, 9) && !r.hostile(-1, 1), "never itself, never an unknown clan");
}

#[test]
fn grid_rings_find_the_nearest_points_and_bound_the_rest() {
    // Points with clusters and a sparse rim, some outside the queried grid's middle.
    let mut rng = iron3d_formats::rng::SplitMix64::stream(7, "grid rings");
    let points: Vec<[f32; 2]> = (0..600)
        .map(|i| {
            if i % 3 == 0 {
                [rng.range(0.0, 200.0), rng.range(0.0, 50.0)]
            } else {
                [rng.range(40.0, 60.0), rng.range(10.0, 30.0)]
            }
        })
        .collect();
    let boxes: Vec<[[f32; 2]; 2]> = points.iter().map(|&p| [p, p]).collect();
    let d2 = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]);
    for cell in [0.5, 4.0, 30.0] {
        let grid = SpatialGrid::build(&boxes, cell);
        for p in [[50.0, 20.0], [0.0, 0.0], [199.0, 49.0], [-30.0, 80.0], [120.0, 25.0]] {
            let (mut seen, cell) = (Vec::new(), grid.cell_of(p));
            let mut r = 0;
            while let Some(gap) = grid.ring_gap(p, cell, r) {
                let before = seen.len();
                grid.ring_spans(p, cell, r, f32::INFINITY, |span| seen.extend_from_slice(&grid.items()[span]));
                for &j in &seen[before..] {
                    assert!(d2(points[j as usize], p).sqrt() >= gap, "ring {r} of {p:?} holds {j} nearer than {gap}");
                }
                r += 1;
            }
            seen.sort_unstable();
            assert_eq!(seen, (0..points.len() as u32).collect::<Vec<_>>(), "every point in exactly one ring");
        }
    }
}

/// The power channels of `Control.dll:0x1003ccc8` (openparkan `docs/23-economy.md`).
#[test]
fn each_component_class_draws_on_its_documented_channel() {
    let channels: Vec<(u32, usize)> =
        [5, 26, 16, 20, 12, 13, 15, 11, 3, 25, 8, 4, 17, 9, 10, 21, 27, 1, 2, 22, 24, 30, 19, 14]
            .iter()
            .map(|&c| (c, power_channel(c)))
            .collect();
    let expected = [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 2, 2, 2, 5, 5, 5, 5, 4, 4, 4, 4, 4, 1, 1];
    assert_eq!(channels.iter().map(|c| c.1).collect::<Vec<_>>(), expected, "{channels:?}");
}

#[test]
fn advancing_skips_the_remainder_only_where_it_changes_nothing() {
    let mut blend = 0.0f32;
    while blend < 1.0 {
        for frames in [0.0, 0.37, 1.0, 29.0, 30.0, 31.5, 59.99, 61.0, 1.0e6, -0.5, -45.0] {
            let mut b = PieceBinding { component: 0, node: 0, endpoints: [0.0, 30.0], blend, flags: FLAG_WRAP };
            let expected = (blend + b.rate(frames)).rem_euclid(1.0);
            b.advance(frames);
            assert_eq!(b.blend.to_bits(), expected.to_bits(), "{blend} + {frames} frames");
        }
        blend += 0.013;
    }
}

#[test]
fn wrapping_skips_the_remainder_only_where_it_changes_nothing() {
    let mut a = -20.0f32;
    while a < 20.0 {
        for x in [a, TAU.next_down(), TAU, -TAU, PI, -PI] {
            let wrapped = wrap_angle(x);
            let by_remainder = wrap_angle(x % TAU);
            assert_eq!(wrapped.to_bits(), by_remainder.to_bits(), "{x}");
            assert!((-PI..PI).contains(&wrapped), "{x} -> {wrapped}");
        }
        a += 0.0137;
    }
}

#[test]
fn keys_name_their_library_or_the_missions() {
    assert_eq!(SoundKey::parse("atm_rain1.wav"), SoundKey { library: String::new(), name: "atm_rain1.wav".into() });
    assert_eq!(
        SoundKey::parse("sounds.lib/boom.wav"),
        SoundKey { library: "sounds.lib".into(), name: "boom.wav".into() }
    );
}

#[test]
fn a_place_holds_what_stands_in_its_box_and_the_ground_levels_is_larger() {
    let indoor = Place { flags: 0x620, at: [4.0, 0.0, 1.0], joint: 0 };
    let ground = Place { flags: place::GROUND | 0x400, at: [4.0, 0.0, 0.0], joint: 0 };
    assert_eq!((indoor.size(), ground.size()), ((5.0, 3.0), (10.0, 12.0)));
    assert!(indoor.holds([6.4, -2.4, 2.4]) && !indoor.holds([6.6, 0.0, 1.0]) && !indoor.holds([4.0, 0.0, 2.6]));
    assert!(ground.holds([8.9, 4.9, 5.9]) && !ground.holds([9.1, 0.0, 0.0]));
    assert_eq!((indoor.speed_bound(), Place { flags: 0x8000, at: [0.0; 3], joint: 0 }.speed_bound()), (2.0, 1_000.0));
}

#[test]
fn model_and_world_points_invert_each_other_about_the_heading_and_scale() {
    let t = SimTransform { position: [100.0, -50.0, 3.0], orientation: [0.0, 0.0, 1.2], scale: [2.0, 2.0, 1.0] };
    let local = [4.0, -1.5, 0.5];
    let world = world_point(&t, local);
    let back = model_point(&t, world);
    assert!(local.iter().zip(back).all(|(a, b)| (a - b).abs() < 1e-4), "{back:?}");
    let (dx, dy) = (world[0] - 100.0, world[1] + 50.0);
    assert!((dx * dx + dy * dy - 4.0 * (4.0 * 4.0 + 1.5 * 1.5)).abs() < 1e-2, "scaled distance from the origin");
}

/// A machine's live limits (openparkan `docs/24-motion.md`): top speed × E × (1 + r) ÷ 2
/// capped at the authored, turn rate × E × (1.5 r + 0.5) uncapped, acceleration × 2; a
/// unit whose live forward top is under 0.5 may not be ordered; without a drive the
/// authored limits stand.
#[test]
fn live_limits_follow_the_engines_the_gear_and_the_load() {
    let authored = MotionLimits {
        top_speed: Some(26.39),
        acceleration: Some(4.0),
        turn_rate: Some(3.5),
        load: 0.188,
        ..MotionLimits::default()
    };
    let mk1 = Drive { engines: 0.7, left: 1.0, right: 1.0 };
    let live = authored.live(Some(&mk1));
    let close = |a: Option<f32>, b: f32| a.is_some_and(|a| (a - b).abs() < 0.01);
    // openparkan's table: Mission 01's `tut1_e1` on `r_t_01` runs 26.39 → 10.97, turns 3.5 → 1.92.
    assert!(close(live.top_speed, 10.97) && close(live.turn_rate, 1.92), "{live:?}");
    assert_eq!(live.acceleration, Some(8.0));
    let empty = MotionLimits { load: 1.0, ..authored };
    let strong = Drive { engines: 1.5, left: 1.0, right: 1.0 };
    assert_eq!(empty.live(Some(&strong)).top_speed, Some(26.39), "never above the authored top");
    assert!(close(empty.live(Some(&strong)).turn_rate, 3.5 * 1.5 * 2.0), "the turn is not capped");
    assert_eq!(authored.live(None), authored, "no engine in the data: the authored limits");
    assert!(live.orderable());
    let wreck = Drive { engines: 0.7, left: 0.0, right: 0.05 };
    assert!(!authored.live(Some(&wreck)).orderable(), "{:?}", authored.live(Some(&wreck)));
    assert!(MotionLimits::default().orderable(), "no top speed in the data: orderable");
}

/// What the distribution step sees of an object's batteries (openparkan
/// `docs/23-economy.md`, read): they lack capacity × (1 − fill), are topped up to full at
/// most, and a battery of negative capacity (a generator's −1) makes the whole object
/// read full and ask for nothing.
#[test]
fn batteries_lack_what_they_are_short_of_and_a_generators_read_full() {
    let battery = |capacity| BatterySheet { capacity, output: 50.0, node: 0 };
    let mut power = Power::new(vec![battery(20.0), battery(5.0)], 260);
    assert_eq!((power.capacity(), power.lacks(), power.next_ms), (25.0, 0.0, 10), "full; first tick at 260 mod 250");
    power.charge = 0.5;
    assert_eq!(power.lacks(), 12.5, "25 × 0.5");
    power.top_up(5.0);
    assert_eq!(power.charge, 0.7, "5 of 25 more");
    power.top_up(100.0);
    assert_eq!(power.charge, 1.0, "never over full");
    let mut generator = Power::new(vec![battery(-1.0), battery(20.0)], 0);
    generator.charge = 0.0;
    assert!(generator.reads_full());
    assert_eq!(generator.lacks(), 0.0, "a generator asks for nothing");
}
