//! Replication of 2 000 moving units of eight clans, fighting, to one client playing one
//! of them (its 250 units at full priority, the others' at the default) over UDP on
//! 127.0.0.1: the host's cost per tick, timed alone (simulation of the motion and the
//! fight, publishing the replicated components and each tick's events, replicon's
//! collection and sending; the client receives between the timed ticks) and, printed
//! after the run, the bytes the client received per second of
//! game time (replication payload and the transport's rate) and the events it got.
//! Every unit is armed like the project's rules' cannon (shells, 1.5 s reload) or laser
//! (a beam, 0.8 s) and fights the other clans' units in reach; hit points are so high
//! that nobody dies, so every tick does the same work. Each unit turns a radar (a cycling
//! CTLD piece), which travels once as a phase and a rate.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use bevy_app::{App, FixedUpdate, MainScheduleOrder};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::InternedScheduleLabel;
use bevy_replicon::prelude::ClientReplicationStats;
use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_combat::{Body, GunState, Guns};
use iron3d_core::{
    ClanRelations, ClanSetup, GameClock, GunSheet, Health, HitSheet, MissionClans, Movable, ObjectKind,
    OriginalObjectId, Owner, PieceAnimation, PieceBinding, Radar, RoundSheet, ScriptFiles, SimObject, SimSystems,
    SimTransform, TICK_MS, TICK_SECONDS, Weapon,
};
use iron3d_net::bots::Bot;
use iron3d_net::{Clock, HostSettings, NetHostPlugin, NetProtocolPlugin, NetSimPlugin, listen};
use std::time::{Duration, Instant};

const UNITS: u32 = 2_000;
/// Game units per second (a robot's pace).
const SPEED: f32 = 8.0;

/// Weapon and radar reach (game units): the neighbouring circles' units.
const REACH: f32 = 45.0;

/// Unit `i`'s turret and gun: a cannon (shells) or a laser (a beam), in turn, each
/// gun at its own phase of its interval.
fn weapon(i: u32) -> (Weapon, Guns) {
    let (interval_ms, speed) = if i.is_multiple_of(2) { (1472.0, 90.0) } else { (832.0, 0.0) };
    let weapon = Weapon {
        kind: (i % 2) as u16,
        range: REACH,
        damage: 30.0,
        projectile_speed: speed,
        turn_rate: 2.0,
        turret: 0.0,
    };
    let round = RoundSheet {
        speed,
        range: REACH,
        hit_points: 30.0,
        flags: 0,
        hit: HitSheet { kind: 2, damage: 0.0, radius: 0.0 },
        seeker: None,
    };
    let sheet = GunSheet {
        node: 0,
        magazine: -1,
        capacitor: 0.0,
        shot_energy: 0.0,
        interval_ms,
        barrels: 1,
        volley: false,
        stroke_ms: None,
        arm: false,
        round,
    };
    let mut gun = GunState::new(sheet, 0.0, 1.0);
    gun.wait_ms = (i * TICK_MS) as f32 % interval_ms;
    (weapon, Guns(vec![gun]))
}

/// Unit `i`'s radar dish: a wrapping binding over 30 frames, each at its own phase.
fn radar_dish(i: u32) -> PieceAnimation {
    let binding =
        PieceBinding { component: 0, node: 1, endpoints: [0.0, 30.0], blend: (i % 30) as f32 / 30.0, flags: 1 };
    PieceAnimation { bindings: vec![binding] }
}

/// Each unit circles its own centre.
#[derive(Component)]
struct Circle {
    centre: [f32; 2],
    radius: f32,
}

fn circle(clock: Res<GameClock>, mut units: Query<(&Circle, &mut SimTransform)>) {
    for (c, mut t) in &mut units {
        let angle = clock.tick as f32 * TICK_SECONDS * SPEED / c.radius;
        let (s, co) = (libm::sinf(angle), libm::cosf(angle));
        t.position = [c.centre[0] + c.radius * co, c.centre[1] + c.radius * s, 0.5 * s];
        t.orientation[2] = angle + std::f32::consts::FRAC_PI_2;
    }
}

/// No script files: the clans only share the units out.
struct NoFiles;

impl ScriptFiles for NoFiles {
    fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }
}

fn session() -> (App, Bot) {
    let mut host = iron3d_sim::headless_app();
    host.add_plugins((NetProtocolPlugin, NetSimPlugin, NetHostPlugin))
        .insert_resource(HostSettings { mission: "bench".into(), ..HostSettings::default() })
        .add_systems(FixedUpdate, circle.in_set(SimSystems::Control));
    host.finish();
    host.cleanup();
    iron3d_sim::testing::enter_game(&mut host);
    let clan = |index: u32| ClanSetup { minds: 17, ..ClanSetup::bare(index, &format!("clan {index}"), 2) };
    let clans: Vec<ClanSetup> = (0..8).map(clan).collect();
    host.insert_resource(ClanRelations::from_clans(&clans));
    host.insert_resource(MissionClans { clans, files: std::sync::Arc::new(NoFiles) });
    for i in 0..UNITS {
        let centre = [(i % 50) as f32 * 30.0, (i / 50) as f32 * 30.0];
        host.world_mut().spawn((
            OriginalObjectId(i + 1),
            SimObject { kind: ObjectKind::Unit },
            Movable,
            SimTransform::default(),
            Owner { clan: (i % 8) as i32, player: None },
            Circle { centre, radius: 5.0 + (i % 7) as f32 },
            weapon(i),
            Radar { range: REACH, target: None, ordered: false },
            radar_dish(i),
            Health { hp: 1.0e7, max: 1.0e7, invulnerable: false },
            Body::single(1.0e7, 1.0e7, [1.0, 0.0]),
        ));
    }
    let addr = listen(host.world_mut(), 0, 8).expect("port");
    let mut bot = Bot::join(addr, 0, 1, Clock::Stepped).expect("client");
    bot.app.init_resource::<ClientReplicationStats>();
    for _ in 0..40 {
        host.update();
        bot.step();
    }
    (host, bot)
}

/// One host update as `App::update` runs it (the main schedule's phases in order, then
/// the change trackers cleared), adding each phase's time to `phases`.
fn host_update(world: &mut World, labels: &[InternedScheduleLabel], phases: &mut [Duration]) -> Duration {
    let start = Instant::now();
    for (label, time) in labels.iter().zip(phases.iter_mut()) {
        let phase = Instant::now();
        let _ = world.try_run_schedule(*label);
        *time += phase.elapsed();
    }
    world.clear_trackers();
    start.elapsed()
}

fn replication(c: &mut Criterion) {
    let (mut host, mut bot) = session();
    let mut group = c.benchmark_group("replication");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
    let start = *bot.app.world().resource::<ClientReplicationStats>();
    let mut ticks = 0u32;
    let labels = host.world().resource::<MainScheduleOrder>().labels.clone();
    let mut phases = vec![Duration::ZERO; labels.len()];
    // Only the host's update is timed; the client receives between the timed ticks.
    group.bench_function("host_tick_2000_moving_units", |b| {
        b.iter_custom(|iterations| {
            let mut host_time = Duration::ZERO;
            for _ in 0..iterations {
                host_time += host_update(host.world_mut(), &labels, &mut phases);
                bot.step();
                ticks += 1;
            }
            host_time
        });
    });
    group.finish();
    let total: Duration = phases.iter().sum();
    let share: Vec<String> = labels
        .iter()
        .zip(&phases)
        .filter(|(_, t)| t.as_secs_f64() >= total.as_secs_f64() * 0.005)
        .map(|(label, t)| format!("{label:?} {:.0} %", 100.0 * t.as_secs_f64() / total.as_secs_f64()))
        .collect();
    eprintln!("replication: the host's tick by phase: {}", share.join(", "));
    let stats = *bot.app.world().resource::<ClientReplicationStats>();
    let seconds = f64::from(ticks) * f64::from(TICK_SECONDS);
    let payload = (stats.bytes - start.bytes) as f64 / seconds;
    let report = bot.report();
    eprintln!(
        "replication: {UNITS} moving units fighting, the client plays clan {:?}, {ticks} ticks: {payload:.0} payload \
         bytes per client per second of game time ({:.0} by the transport's rate), {} checkpoints compared, {} \
         differed; events received: {:?}",
        bot.app.world().resource::<iron3d_net::ClientSession>().clan,
        report.bytes_per_s,
        report.hash_checks,
        report.hash_mismatches,
        report.events
    );
}

criterion_group!(benches, replication);
criterion_main!(benches);
