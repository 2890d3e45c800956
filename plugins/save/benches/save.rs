//! Cost and size of saves: capturing and encoding a save of `single.02` (1 890 objects)
//! at tick 100 and of a synthetic world of 10 000 units ordered every 10 ticks at tick
//! 200; decoding both; restoring the 10 000-unit snapshot (with the state-hash check)
//! over the same units just spawned; loading the `single.02` save (the mission's start
//! and the restore). The file sizes are printed.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]
#![allow(clippy::unwrap_used, reason = "bench set-up: a failed unwrap is a failed bench")]

use bevy_app::App;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use iron3d_core::{CommandQueue, GameClock, Order, SimCommand};
use iron3d_save::{FileKind, Record, SavePlugin};
use iron3d_sim::headless_app;
use iron3d_sim::testing::{enter_game, publish_map, spawn_unit};
use std::sync::Arc;

fn demo() -> Arc<iron3d_vfs::GameDir> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
}

fn mission_app() -> App {
    let mut app = headless_app();
    app.add_plugins((iron3d_mission::MissionPlugin, SavePlugin));
    app
}

/// `single.02` run to tick 100.
fn single_02(game: &Arc<iron3d_vfs::GameDir>) -> App {
    let mut app = mission_app();
    iron3d_mission::load_headless(&mut app, game, "single.02").unwrap();
    while app.world().resource::<GameClock>().tick < 100 {
        app.update();
    }
    app
}

/// 10 000 units on a 60 × 60 map of 20-unit areals, in the game at tick 0.
fn ten_thousand_spawned() -> App {
    let mut app = headless_app();
    app.add_plugins(SavePlugin);
    publish_map(app.world_mut(), 60, 20.0, |_, _| 0.0, |_, _| false).unwrap();
    enter_game(&mut app);
    for id in 0..10_000u32 {
        let at = [5.0 + (id % 100) as f32 * 11.0, 5.0 + (id / 100) as f32 * 11.0];
        spawn_unit(app.world_mut(), id, 1 + (id % 2) as i32, at, 0.0, 1.0);
    }
    app
}

/// [`ten_thousand_spawned`], each hundred ordered to a new point every 10 ticks, run
/// to tick 200.
fn ten_thousand() -> App {
    let mut app = ten_thousand_spawned();
    while app.world().resource::<GameClock>().tick < 200 {
        let tick = app.world().resource::<GameClock>().tick + 1;
        if tick.is_multiple_of(10) {
            let mut queue = app.world_mut().resource_mut::<CommandQueue>();
            for group in 0..100u32 {
                let units = (group * 100..group * 100 + 100).collect();
                let goal = [(group * 37 + tick) as f32 % 1100.0 + 5.0, (group * 53 + tick) as f32 % 1100.0 + 5.0];
                queue.push(SimCommand { tick, units, order: Order::MoveTo(goal), queued: false });
            }
        }
        app.update();
    }
    app
}

fn bench(c: &mut Criterion) {
    let game = demo();
    let worlds = [("single.02", single_02(&game)), ("10000 units", ten_thousand())];
    for (name, app) in &worlds {
        let bytes = Record::capture(app.world(), FileKind::Save, name, 32).unwrap().encode().unwrap();
        println!("{name}: save of {} bytes", bytes.len());
        let record = Record::capture(app.world(), FileKind::Save, name, 32).unwrap();
        for chunk in record.snapshot.iter().flat_map(|s| &s.0) {
            println!("{name}: chunk {} of {} bytes inflated", chunk.name(), chunk.data.len());
        }
        c.bench_function(&format!("capture {name}"), |b| {
            b.iter(|| Record::capture(app.world(), FileKind::Save, name, 32).unwrap())
        });
        c.bench_function(&format!("encode {name}"), |b| b.iter(|| record.encode().unwrap()));
        c.bench_function(&format!("save {name}"), |b| {
            b.iter(|| Record::capture(app.world(), FileKind::Save, name, 32).unwrap().encode().unwrap())
        });
        c.bench_function(&format!("decode {name}"), |b| b.iter(|| Record::decode(&bytes, FileKind::Save).unwrap()));
    }
    let bytes = Record::capture(worlds[1].1.world(), FileKind::Save, "", 32).unwrap().encode().unwrap();
    let record = Record::decode(&bytes, FileKind::Save).unwrap();
    let snapshot = record.snapshot.as_ref().unwrap();
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.bench_function("restore 10000 units", |b| {
        b.iter_batched(
            ten_thousand_spawned,
            |mut app| iron3d_save::restore(app.world_mut(), &record, snapshot).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let bytes = Record::capture(worlds[0].1.world(), FileKind::Save, "single.02", 32).unwrap().encode().unwrap();
    group.bench_function("load single.02 at tick 100", |b| {
        b.iter(|| {
            let record = Record::decode(&bytes, FileKind::Save).unwrap();
            iron3d_save::resume(&mut mission_app(), &game, &record, None).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
