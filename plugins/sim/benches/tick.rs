//! Cost of one simulation tick with 1 000 / 10 000 / 100 000 moving units on a
//! generated map of about 2 000 areals (single-threaded, one core), with the split per
//! `SimSystems` set printed after each run; the same at the density of 10 000 units on
//! that map (the map's areals scaled with the unit count, `tick_constant_density`); one
//! route query on that map; and a combat tick of 8 clans × 1 000 armed units all
//! fighting at once, each a body of six nodes with armour, a gun from its data and a
//! repair system, every hit struck on a node.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use iron3d_core::{
    BatterySheet, ClanRelations, CombatSheet, CommandQueue, FigureSheet, GameClock, Health, NavState, NavStatus,
    NodeSheet, Order, OriginalObjectId, Projectile, Radar, RadarSheet, RepairSheet, SimCommand, SimSystems,
    StealthSheet, UnitClass,
};
use iron3d_formats::rng::SplitMix64;
use iron3d_sim::headless_app;
use iron3d_sim::testing::{enter_game, publish_map, spawn_unit};
use iron3d_terrain::NavMap;
use std::time::{Duration, Instant};

/// Areals per side (45² = 2 025, less the holes) and their size.
const SIDE: u16 = 45;
const AREAL: f32 = 40.0;
const SETS: [SimSystems; 7] = SimSystems::ORDER;

/// Class word of a battle unit (armed with a cannon by the rules).
const BATTLE_UNIT: u32 = 0x0100_8000;

fn hole(i: u16, j: u16) -> bool {
    (u32::from(i) * 7 + u32::from(j) * 13) % 17 == 0
}

fn height(x: f32, y: f32) -> f32 {
    0.02 * (x % 200.0) + 0.01 * (y % 300.0)
}

/// Instants at each set boundary of the last tick, and the time spent per set so far.
#[derive(Resource, Default)]
struct Marks {
    at: [Option<Instant>; SETS.len() + 1],
    spent: [Duration; SETS.len()],
    ticks: u32,
}

fn mark<const K: usize>(mut marks: ResMut<Marks>) {
    marks.at[K] = Some(Instant::now());
    if K == SETS.len() {
        for s in 0..SETS.len() {
            if let (Some(a), Some(b)) = (marks.at[s], marks.at[s + 1]) {
                marks.spent[s] += b - a;
            }
        }
        marks.ticks += 1;
    }
}

/// Marks every set boundary of the fixed tick.
fn add_marks(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        (
            mark::<0>.before(SimSystems::Input),
            mark::<1>.after(SimSystems::Input).before(SimSystems::SuperAi),
            mark::<2>.after(SimSystems::SuperAi).before(SimSystems::Production),
            mark::<3>.after(SimSystems::Production).before(SimSystems::Behavior),
            mark::<4>.after(SimSystems::Behavior).before(SimSystems::Wizard),
            mark::<5>.after(SimSystems::Wizard).before(SimSystems::Control),
            mark::<6>.after(SimSystems::Control).before(SimSystems::World3d),
            mark::<7>.after(SimSystems::World3d),
        ),
    );
}

/// The goal stream of the bench, over a map of `SIDE` areals `.1` wide.
#[derive(Resource)]
struct Goals(SplitMix64, f32);

impl Goals {
    fn next(&mut self, nav: &NavMap) -> [f32; 2] {
        let extent = f32::from(SIDE) * self.1;
        loop {
            let g = [self.0.range(1.0, extent - 1.0), self.0.range(1.0, extent - 1.0)];
            if nav.walkable(g[0], g[1]) {
                return g;
            }
        }
    }
}

/// Units that arrived (or gave up) get a new goal, so every unit keeps moving.
fn keep_moving(
    mut goals: ResMut<Goals>,
    nav: Res<NavMap>,
    clock: Res<GameClock>,
    units: Query<(&OriginalObjectId, &NavStatus)>,
    mut queue: ResMut<CommandQueue>,
) {
    let mut idle: Vec<u32> = units
        .iter()
        .filter(|(_, s)| matches!(s.state, NavState::Arrived | NavState::Blocked))
        .map(|(i, _)| i.0)
        .collect();
    idle.sort_unstable();
    for id in idle {
        let goal = goals.next(&nav);
        queue.push(SimCommand { tick: clock.tick + 1, units: vec![id], order: Order::MoveTo(goal), queued: false });
    }
}

/// A map of areals `areal` wide with `units` units on a lattice, each sent to a seeded
/// random point.
fn world(units: u32, areal: f32) -> App {
    let mut app = headless_app();
    app.init_resource::<Marks>().insert_resource(Goals(SplitMix64::stream(1, "bench goals"), areal));
    app.add_systems(FixedUpdate, keep_moving.before(mark::<0>));
    add_marks(&mut app);
    publish_map(app.world_mut(), SIDE, areal, height, hole).expect("map");
    enter_game(&mut app);
    let extent = f32::from(SIDE) * areal;
    let spacing = extent / libm::sqrtf(units as f32 * 1.1);
    let mut placed = 0u32;
    let mut commands = Vec::new();
    let (mut x, mut y) = (spacing / 2.0, spacing / 2.0);
    while placed < units {
        if app.world().resource::<NavMap>().walkable(x, y) {
            let goal = app.world_mut().resource_scope(|w, mut goals: Mut<Goals>| goals.next(w.resource::<NavMap>()));
            placed += 1;
            spawn_unit(app.world_mut(), placed, (placed % 8) as i32, [x, y], 0.0, 1.0);
            commands.push(SimCommand { tick: 0, units: vec![placed], order: Order::MoveTo(goal), queued: false });
        }
        x += spacing;
        if x > extent {
            (x, y) = (spacing / 2.0, y + spacing);
            assert!(y < extent, "{units} units do not fit");
        }
    }
    let tick = app.world().resource::<GameClock>().tick + 1;
    let mut queue = app.world_mut().resource_mut::<CommandQueue>();
    for mut c in commands {
        c.tick = tick;
        queue.push(c);
    }
    // Past the first scheduled step (3 ticks + up to 63 ms) and the route planning.
    for _ in 0..8 {
        app.update();
    }
    *app.world_mut().resource_mut::<Marks>() = Marks::default();
    app
}

fn report(app: &mut App, name: &str, units: u32) {
    let marks = app.world().resource::<Marks>();
    let per_tick = |d: Duration| d.as_secs_f64() * 1e3 / f64::from(marks.ticks.max(1));
    let split: Vec<String> = SETS.iter().zip(marks.spent).map(|(s, d)| format!("{s:?} {:.3}", per_tick(d))).collect();
    let mut q = app.world_mut().query::<&NavStatus>();
    let moving = q.iter(app.world()).filter(|s| s.state == NavState::Moving).count();
    eprintln!("{name}: {units:>7} units, {moving} moving: ms per tick by set: {}", split.join(", "));
}

fn tick(c: &mut Criterion) {
    measure(c, "tick", &[1_000, 10_000, 100_000], |_| AREAL);
}

/// Units per areal area stay those of 10 000 units on the fixed map: the areals (and so
/// the map, its routes and the trips) grow with the unit count, their number does not.
fn tick_constant_density(c: &mut Criterion) {
    // Whole units, so the areals' shared corners stay exact and the areals stay linked.
    measure(c, "tick_constant_density", &[100_000], |units| libm::roundf(AREAL * libm::sqrtf(units as f32 / 10_000.0)));
}

fn measure(c: &mut Criterion, name: &str, counts: &[u32], areal: fn(u32) -> f32) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
    for &units in counts {
        // Built on first use, so a filtered run builds only the worlds it measures.
        let mut app: Option<App> = None;
        group.bench_with_input(BenchmarkId::from_parameter(units), &units, |b, &units| {
            let app = app.get_or_insert_with(|| world(units, areal(units)));
            b.iter(|| app.update());
        });
        if let Some(app) = app.as_mut() {
            report(app, name, units);
        }
    }
    group.finish();
}

/// A battle unit's data: a chassis node with five nodes under it (so much life nobody
/// dies, and each tick does the same work), 20 % armour, a cannon (a round of 44 + 1
/// every 1.5 s at 90 a second), a repair system, a small MK1 radar part (250, scanning
/// every 750 ms), a small MK2 detection shield and a battery (3 500 at 6 a second) on a
/// 1 375 kg chassis.
fn sheet() -> CombatSheet {
    let node = |parent| NodeSheet { hit_points: 1.0e7, parent, vital: false, gear: iron3d_core::Gear::None };
    let nodes = std::iter::once(node(None)).chain((0..5).map(|_| node(Some(0)))).collect();
    let gun = iron3d_sim::testing::cannon(5);
    let repair = RepairSheet { rate: 3.0, charge_per_point: 0.04, node: 0 };
    let radar = RadarSheet { sensitivity: [0.05, 0.7, 25.0], range: 250.0, period_ms: 750.0, node: 0 };
    let stealth =
        StealthSheet { cuts: [0.9, 0.45, 0.01], camouflage: 0.84, camouflage_power: 0.2, power: 0.09, node: 0 };
    let asks = [0.0, 0.0, 0.15, 0.0, 0.0, 0.09];
    let figures = FigureSheet { mass: 1375.0, own_mass: 1000.0, area: 6.0, volume: 4.0, asks, engine: 2.0 };
    CombatSheet {
        nodes,
        armour: [0.8, 0.0],
        guns: vec![gun],
        shield: None,
        repair: Some(repair),
        radar: Some(radar),
        stealth: Some(stealth),
        figures,
        batteries: vec![BatterySheet { capacity: 3_500.0, output: 6.0, node: 0 }],
        engines: vec![iron3d_core::EngineSheet { drive: 1.0, node: 0 }],
        efficiency: Vec::new(),
        turret_yaw_rate: None,
        hull: Some(0),
        beam: None,
        pieces: Vec::new(),
    }
}

/// 8 clans × `per_clan` armed battle units, interleaved on a lattice so every unit has
/// enemies in sight: all of them aim, fire and are hit every tick.
fn battle(per_clan: u32) -> App {
    let mut app = headless_app();
    app.init_resource::<Marks>();
    add_marks(&mut app);
    publish_map(app.world_mut(), SIDE, AREAL, height, hole).expect("map");
    enter_game(&mut app);
    let clans = 8u32;
    let types = vec![iron3d_core::ClanType::ENEMY; clans as usize + 1];
    app.world_mut().insert_resource(ClanRelations::uniform(types, iron3d_core::relation::HOSTILE));
    let units = clans * per_clan;
    let extent = f32::from(SIDE) * AREAL;
    let spacing = extent / libm::sqrtf(units as f32 * 1.15);
    let (mut placed, mut k) = (0u32, 0u32);
    let across = (extent / spacing) as u32;
    while placed < units {
        let (x, y) = (spacing * (0.5 + (k % across) as f32), spacing * (0.5 + (k / across) as f32));
        assert!(y < extent, "{units} units do not fit");
        k += 1;
        if app.world().resource::<NavMap>().walkable(x, y) {
            placed += 1;
            let e = spawn_unit(app.world_mut(), placed, (placed % clans + 1) as i32, [x, y], 0.0, 1.0);
            app.world_mut().entity_mut(e).insert((UnitClass(BATTLE_UNIT), sheet()));
        }
    }
    // Turrets turned, weapons cycling, shells in flight.
    for _ in 0..40 {
        app.update();
    }
    *app.world_mut().resource_mut::<Marks>() = Marks::default();
    app
}

fn combat(c: &mut Criterion) {
    let mut group = c.benchmark_group("combat");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
    let mut app = battle(1_000);
    group.bench_function("8_clans_x_1000", |b| b.iter(|| app.update()));
    report(&mut app, "combat", 8_000);
    let mut q = app.world_mut().query::<&Projectile>();
    let shells = q.iter(app.world()).count();
    let mut q = app.world_mut().query::<(&Radar, &Health)>();
    let aiming = q.iter(app.world()).filter(|(r, _)| r.target.is_some()).count();
    let lost: f64 = q.iter(app.world()).map(|(_, h)| f64::from(h.max - h.hp)).sum();
    eprintln!("  {aiming} units with a target, {shells} shells in flight, {lost:.0} hit points lost");
    group.finish();
}

fn route(c: &mut Criterion) {
    let mut app = headless_app();
    publish_map(app.world_mut(), SIDE, AREAL, height, hole).expect("map");
    let nav = app.world().resource::<NavMap>();
    let extent = f32::from(SIDE) * AREAL;
    let from = nav.area_at(60.0, 60.0).expect("corner");
    let to = nav.area_at(extent - 60.0, extent - 60.0).expect("corner");
    let areals = nav.areals;
    let hops = nav.route(from, to).expect("a route").len();
    eprintln!("route across {areals} areals: {hops} hops");
    c.bench_function("route/corner_to_corner", |b| b.iter(|| nav.route(from, to)));
}

criterion_group!(benches, route, tick, tick_constant_density, combat);
criterion_main!(benches);
