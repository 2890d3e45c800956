//! Headless streaming test: `MinimalPlugins` + [`StreamingPlugin`] over a generated scenery.

use super::*;
use crate::data::Scenery;
use iron3d_eu7::generate::{self, GenConfig};

fn app_over(cfg: &GenConfig, config: StreamingConfig, tag: &str) -> (App, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("iron3d_eu7_view_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.eu7");
    std::fs::write(&path, generate::scenery(cfg).unwrap()).unwrap();
    for (p, bytes) in generate::models(cfg.model_kinds) {
        let p = dir.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let scenery = Scenery::open(&path).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenery { data: Some(Arc::new(scenery)) })
        .add_plugins(StreamingPlugin { config });
    (app, dir)
}

fn run_until(app: &mut App, what: impl Fn(&StreamingStats) -> bool) {
    for _ in 0..5000 {
        app.update();
        if what(app.world().resource::<StreamingStats>()) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("condition not reached: {:?}", app.world().resource::<StreamingStats>());
}

#[test]
fn streams_sections_around_the_focus_and_unloads_behind() {
    let cfg = GenConfig { instances: 2000, extent_m: 8000.0, model_kinds: 6, ..GenConfig::default() };
    let config = StreamingConfig {
        radius: 1,
        lookahead: 0,
        keep_margin: 0,
        max_in_flight: 2,
        max_ready: 1,
        bootstrap_radius: 0,
        ..StreamingConfig::default()
    };
    let (mut app, dir) = app_over(&cfg, config, "stream");
    let focus = app
        .world_mut()
        .spawn((Name::new("focus"), Transform::from_xyz(500.0, 10.0, 500.0), StreamFocus::default()))
        .id();
    // Radius 1 around section (250, 250): itself and its four edge neighbours.
    run_until(&mut app, |s| s.resident == 5 && s.in_flight == 0 && s.ready == 0);
    let world = app.world_mut();
    let mut roots: Vec<(u16, u16, u32)> =
        world.query::<&SectionRoot>().iter(world).map(|r| (r.row, r.col, r.instances)).collect();
    roots.sort_unstable();
    let keys: Vec<(u16, u16)> = roots.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(keys, vec![(249, 250), (250, 249), (250, 250), (250, 251), (251, 250)]);
    // Every instance is a named child at its own section's location.
    let total: u32 = roots.iter().map(|r| r.2).sum();
    let mut q = world.query::<(&ModelInstance, &Name, &Transform, &ChildOf)>();
    assert_eq!(q.iter(world).count(), total as usize);
    for (m, name, t, parent) in q.iter(world) {
        let root = world.get::<SectionRoot>(parent.parent()).unwrap();
        let at = SectionId::containing(f64::from(t.translation.x), f64::from(t.translation.z)).unwrap();
        assert_eq!((at.row, at.col), (root.row, root.col));
        assert_eq!(world.resource::<SectionStreamer>().model_path(m.model), Some(name.as_str()));
    }
    assert_eq!(world.resource::<StreamingStats>().resident_instances, u64::from(total));
    assert!(!world.resource::<SectionStreamer>().cache.is_empty(), "workers read the model files");
    // Move 2 km east (centre of column 252): the four sections at columns 249 and 250
    // are despawned with their models; (250, 251), 1000 m away, stays.
    world.get_mut::<Transform>(focus).unwrap().translation.x += 2000.0;
    run_until(&mut app, |s| s.unloaded == 4 && s.resident == 5 && s.in_flight == 0 && s.ready == 0);
    let world = app.world_mut();
    let remaining: usize = world.query::<&SectionRoot>().iter(world).filter(|r| r.col <= 250).count();
    assert_eq!(remaining, 0);
    let stats = world.resource::<StreamingStats>().clone();
    assert_eq!(stats.peak_resident, 5);
    assert_eq!(world.query::<&ModelInstance>().iter(world).count() as u64, stats.resident_instances);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The blocking bootstrap: within the first `update` (before any frame is drawn) the
/// sections within `bootstrap_radius` of the focus are decoded and spawned; without it at
/// most the one section the per-frame path applies is.
#[test]
fn bootstrap_applies_the_start_sections_before_the_first_frame() {
    let cfg = GenConfig { instances: 3000, extent_m: 8000.0, model_kinds: 4, ..GenConfig::default() };
    let first_frame = |bootstrap_radius: u32, tag: &str| {
        let config = StreamingConfig {
            bootstrap_radius,
            radius: 2,
            max_in_flight: 1,
            max_ready: 1,
            ..StreamingConfig::default()
        };
        let (mut app, dir) = app_over(&cfg, config, tag);
        app.world_mut().spawn((Transform::from_xyz(500.0, 10.0, 500.0), StreamFocus::default()));
        app.update();
        let world = app.world_mut();
        let mut roots: Vec<(u16, u16)> = world.query::<&SectionRoot>().iter(world).map(|r| (r.row, r.col)).collect();
        roots.sort_unstable();
        let stats = world.resource::<StreamingStats>().clone();
        std::fs::remove_dir_all(dir).unwrap();
        (roots, stats)
    };
    let (roots, stats) = first_frame(1, "boot");
    // Radius 1 around (250, 250): itself and its four edge neighbours, all before frame 1.
    assert_eq!(stats.bootstrapped, 5, "{stats:?}");
    for id in [(249, 250), (250, 249), (250, 250), (250, 251), (251, 250)] {
        assert!(roots.contains(&id), "{id:?} in {roots:?}");
    }
    assert!(stats.resident >= 5 && stats.resident_instances > 0);
    // Without it, one request in flight and one section applied per frame allow at most one.
    let (roots, stats) = first_frame(0, "noboot");
    assert!(roots.len() <= 1 && stats.bootstrapped == 0 && stats.resident <= 1, "{roots:?} {stats:?}");
}
