//! Headless mission loading (every phase, no GPU upload) of the small and the large
//! demo mission; prints the time of each phase of the last run.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use bevy_app::App;
use bevy_state::app::StatesPlugin;
use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_core::CorePlugin;
use iron3d_formats::ReadOptions;
use iron3d_mission::{LoadError, LoadProgress, MissionPlugin, load_headless};
use iron3d_vfs::GameDir;
use std::sync::Arc;

fn load(game: &Arc<GameDir>, mission: &str) -> App {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
    let _ = load_headless(&mut app, game, mission);
    app
}

fn loading(c: &mut Criterion) {
    let root = std::env::temp_dir().join(format!("iron3d-bench-loading-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    iron3d_demo::build(iron3d_demo::DEFAULT_SEED).expect("demo").write_to(&root).expect("written");
    let game = Arc::new(GameDir::open(&root, ReadOptions::compatible()).expect("tree"));
    let mut group = c.benchmark_group("mission_load");
    group.sample_size(10);
    for mission in ["tutorial.01", "single.02"] {
        let app = load(&game, mission);
        if let Some(e) = app.world().get_resource::<LoadError>() {
            panic!("{mission} does not load: {}", e.message);
        }
        for p in &app.world().resource::<LoadProgress>().phases {
            eprintln!("{mission:>12} {:>22} {:9.3} ms ({} items)", p.phase.label(), p.millis, p.total);
        }
        group.bench_function(mission, |b| b.iter(|| load(&game, mission)));
    }
    group.finish();
    let _ = std::fs::remove_dir_all(root);
}

criterion_group!(benches, loading);
criterion_main!(benches);
