//! State-machine tests with a synthetic backend: the happy path, a fault injected into
//! every phase, backend errors with their chain, and duplicate ids.

use super::*;
use bevy_ecs::message::Messages;
use bevy_state::app::StatesPlugin;
use iron3d_core::{CorePlugin, OriginalObjectId, PropertyBag};
use iron3d_formats::{Error, Result};
use std::sync::Arc;

/// Places `count` objects in Description and expands them in Prototypes; fails in
/// `fail_in` with a chained error.
struct Synthetic {
    count: u32,
    fail_in: Option<MissionLoadPhase>,
    duplicate: bool,
}

impl MissionBackend for Synthetic {
    fn prepare(
        &self,
        phase: MissionLoadPhase,
        _: &str,
        prepared: &mut Prepared,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<()> {
        if self.fail_in == Some(phase) {
            return Err(Error::new(iron3d_formats::ErrorKind::NotFound("entry tank.msh".into()))
                .in_file("bases.rlb")
                .via("component key r_tank")
                .via("placed object 2"));
        }
        match phase {
            MissionLoadPhase::Description => {
                // Stored in reverse to prove construction sorts by id.
                for id in (0..self.count).rev() {
                    let id = if self.duplicate && id == 0 { 1 } else { id };
                    prepared.objects.push(PreparedObject {
                        id,
                        name: format!("object {id}"),
                        key: format!("key_{id}"),
                        components: Vec::new(),
                        clan: 1,
                        record: PlacedRecord { position: [id as f32, 0.0, 0.0], ..PlacedRecord::default() },
                        properties: PropertyBag::default(),
                        extras: ObjectExtras::default(),
                    });
                    progress(prepared.objects.len(), self.count as usize);
                }
            }
            MissionLoadPhase::Prototypes => {
                for o in &mut prepared.objects {
                    o.components =
                        vec![ObjectComponent::root(o.key.clone()), ObjectComponent::root(format!("{}_turret", o.key))];
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn app(backend: Synthetic, fault: Option<MissionLoadPhase>) -> App {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
    app.insert_resource(MissionRequest { mission: "test".into(), backend: Arc::new(backend) });
    app.insert_resource(LoadFault(fault));
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
    for _ in 0..12 {
        app.update();
    }
    app
}

fn state(app: &App) -> AppState {
    *app.world().resource::<State<AppState>>().get()
}

fn registered_messages(app: &App) -> Vec<u32> {
    let messages = app.world().resource::<Messages<MissionObjectRegistered>>();
    messages.iter_current_update_messages().map(|m| m.id).collect()
}

fn mission_objects(app: &mut App) -> usize {
    app.world_mut().query::<&MissionObject>().iter(app.world()).count()
}

#[test]
fn loads_through_every_phase_and_registers_in_id_order() {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
    app.insert_resource(MissionRequest {
        mission: "test".into(),
        backend: Arc::new(Synthetic { count: 5, fail_in: None, duplicate: false }),
    });
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
    let mut seen = Vec::new();
    let mut registered = Vec::new();
    for _ in 0..12 {
        app.update();
        if let Some(p) = app.world().get_resource::<State<MissionLoadPhase>>() {
            seen.push(*p.get());
        }
        registered.extend(registered_messages(&app));
    }
    assert_eq!(state(&app), AppState::InGame);
    seen.dedup();
    assert_eq!(seen, MissionLoadPhase::ALL, "each phase is visited once, in order");
    assert_eq!(registered, [0, 1, 2, 3, 4]);
    let mut q = app.world_mut().query_filtered::<(&OriginalObjectId, &MissionObject), With<Registered>>();
    let mut objects: Vec<(u32, usize)> = q.iter(app.world()).map(|(id, o)| (id.0, o.components.len())).collect();
    objects.sort_unstable();
    assert_eq!(objects, [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]);
    let progress = app.world().resource::<LoadProgress>();
    assert!(progress.phases.iter().all(|p| p.finished));
    assert_eq!(progress.fraction(), 1.0);
    let description = &progress.phases[2];
    assert_eq!((description.done, description.total), (5, 5));
    assert!(app.world().get_resource::<LoadError>().is_none());
    let loaded = app.world().resource::<crate::LoadedMission>();
    assert_eq!(loaded.land_path, "", "the synthetic backend names no terrain");
    // Object 3 at game (3, 0, 0), in game units (presentation converts to Y-up).
    let mut q = app.world_mut().query::<(&OriginalObjectId, &iron3d_core::SimTransform)>();
    let t = q.iter(app.world()).find(|(id, _)| id.0 == 3).map(|(_, t)| t.position).unwrap();
    assert_eq!(t, [3.0, 0.0, 0.0]);
}

#[test]
fn a_fault_in_any_phase_registers_nothing_and_returns_to_the_menu() {
    for phase in MissionLoadPhase::ALL {
        let mut app = App::new();
        app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
        app.insert_resource(MissionRequest {
            mission: "test".into(),
            backend: Arc::new(Synthetic { count: 3, fail_in: None, duplicate: false }),
        });
        app.insert_resource(LoadFault(Some(phase)));
        app.update();
        app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
        let mut registered = Vec::new();
        for _ in 0..12 {
            app.update();
            registered.extend(registered_messages(&app));
        }
        assert_eq!(state(&app), AppState::MainMenu, "{phase:?}");
        assert_eq!(mission_objects(&mut app), 0, "{phase:?}: every created object is gone");
        assert!(app.world().get_resource::<crate::LoadedMission>().is_none(), "{phase:?}");
        if phase != MissionLoadPhase::ScenarioStart {
            assert!(registered.is_empty(), "{phase:?}: no object was announced");
        }
        let error = app.world().resource::<LoadError>();
        assert_eq!(error.phase, phase);
        assert!(error.message.contains("injected_fault"), "{}", error.message);
        let row = &app.world().resource::<LoadProgress>().phases;
        assert!(!row.iter().find(|r| r.phase == phase).unwrap().finished);
    }
}

#[test]
fn backend_errors_keep_their_chain() {
    let mut app = app(Synthetic { count: 3, fail_in: Some(MissionLoadPhase::Resources), duplicate: false }, None);
    assert_eq!(state(&app), AppState::MainMenu);
    let error = app.world().resource::<LoadError>().clone();
    assert_eq!(error.phase, MissionLoadPhase::Resources);
    assert_eq!(error.message, "placed object 2 -> component key r_tank -> file bases.rlb -> not found: entry tank.msh");
    assert_eq!(mission_objects(&mut app), 0);
}

#[test]
fn duplicate_ids_fail_construction() {
    let mut app = app(Synthetic { count: 3, fail_in: None, duplicate: true }, None);
    let error = app.world().resource::<LoadError>().clone();
    assert_eq!(error.phase, MissionLoadPhase::Construction);
    assert!(error.message.contains("duplicate_object_id"), "{}", error.message);
    assert_eq!(mission_objects(&mut app), 0);
}

#[test]
fn returning_to_the_menu_closes_the_mission() {
    let mut app = app(Synthetic { count: 4, fail_in: None, duplicate: false }, None);
    assert_eq!(state(&app), AppState::InGame);
    assert_eq!(mission_objects(&mut app), 4);
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
    app.update();
    app.update();
    assert_eq!(mission_objects(&mut app), 0);
}

/// A mission started at a level plays at it; one started without a level keeps the
/// level there is (the menu, a saved game and `sim run --difficulty` start through
/// `StartMission::at`, never by writing `Difficulty` themselves).
#[test]
fn a_mission_started_at_a_level_plays_at_it() {
    use iron3d_core::{Difficulty, DifficultyLevel};
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
    app.update();
    let start = || StartMission::new("test", Arc::new(Synthetic { count: 2, fail_in: None, duplicate: false }));
    start().at(DifficultyLevel::Hard).apply(app.world_mut());
    assert_eq!(app.world().resource::<Difficulty>().level, DifficultyLevel::Hard);
    start().apply(app.world_mut());
    assert_eq!(app.world().resource::<Difficulty>().level, DifficultyLevel::Hard, "no level asked, none changed");
}

/// Loads `mission` from a game directory through the real backend.
fn load_from(game: &Arc<iron3d_vfs::GameDir>, mission: &str) -> App {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, MissionPlugin));
    let _ = load_headless(&mut app, game, mission);
    app
}

/// A missing clan research tree stops the load; the error names the clan.
#[test]
fn a_missing_research_tree_fails_the_resource_phase() {
    use iron3d_vfs::GameDir;
    let root = std::env::temp_dir().join(format!("iron3d-mission-no-trf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap().write_to(&root).unwrap();
    std::fs::remove_file(root.join("MISSIONS/SCRIPTS/default.trf")).unwrap();
    let game = Arc::new(GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
    let app = load_from(&game, "tutorial.01");
    let error = app.world().resource::<LoadError>().clone();
    assert_eq!(error.phase, MissionLoadPhase::Resources);
    assert!(
        error.message.starts_with(
            "2 unresolved reference(s) in total -> clan Player -> research_tree MISSIONS\\SCRIPTS\\default.trf"
        ),
        "{}",
        error.message
    );
    let _ = std::fs::remove_dir_all(root);
}

/// Every demo mission loads through every phase from the generated game tree.
#[test]
fn demo_missions_load_from_the_game_directory() {
    use iron3d_vfs::GameDir;
    let root = std::env::temp_dir().join(format!("iron3d-mission-demo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap().write_to(&root).unwrap();
    let game = Arc::new(GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
    for spec in iron3d_demo::missions::MISSIONS {
        let mut app = load_from(&game, spec.name);
        if let Some(e) = app.world().get_resource::<LoadError>() {
            panic!("{} failed in {:?}: {}", spec.name, e.phase, e.message);
        }
        assert_eq!(state(&app), AppState::InGame, "{}", spec.name);
        let tma = iron3d_formats::world::Tma::parse(
            &game.read_file(&format!("{}/data.tma", spec.folder())).unwrap(),
            iron3d_formats::ReadOptions::strict(),
        )
        .unwrap();
        assert_eq!(mission_objects(&mut app), tma.objects.len(), "{}", spec.name);
        let units = app
            .world_mut()
            .query::<&MissionObject>()
            .iter(app.world())
            .filter(|o| o.components.len() == 3)
            .inspect(|o| {
                let tree: Vec<_> = o.components.iter().map(|c| (c.parent, c.attach_node > 0)).collect();
                assert_eq!(tree, [(None, false), (Some(0), true), (Some(1), true)], "{o:?}");
            })
            .count();
        assert!(
            units > 0,
            "{}: unit schemes expand into chassis, turret on a chassis node, weapon on a turret node",
            spec.name
        );
        // Every object carries its TMA record, its property bag and resolved prototypes.
        let mut q = app.world_mut().query::<(&OriginalObjectId, &MissionObject, &PlacedRecord, &PropertyBag)>();
        let mut ore = 0;
        for (id, object, record, bag) in q.iter(app.world()) {
            let o = &tma.objects[id.0 as usize];
            assert_eq!((record, bag), (&PlacedRecord::from(o), &PropertyBag::of(o)));
            assert!(object.components.iter().all(|c| !c.prototype.entry.is_empty()), "{object:?}");
            ore += usize::from(bag.first("CurrentOre").is_some_and(|p| Some(p.value()) == o.current_ore()));
        }
        assert!(ore > 0, "{}: ore deposits carry CurrentOre", spec.name);
        assert_eq!(app.world().resource::<LoadedMission>().name, spec.name);
    }
    let _ = std::fs::remove_dir_all(root);
}

/// A mod layer's mission is listed and loads; the loaded mission publishes the layers.
#[test]
fn a_mods_mission_is_listed_loads_and_publishes_the_layers() {
    use iron3d_vfs::{GameDir, Layer, LayerKind};
    let demo = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo"));
    let m = std::env::temp_dir().join(format!("iron3d-mission-mod-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&m);
    std::fs::create_dir_all(m.join("missions/single.03")).unwrap();
    for file in std::fs::read_dir(demo.join("MISSIONS/single.01")).unwrap() {
        let file = file.unwrap();
        std::fs::copy(file.path(), m.join("missions/single.03").join(file.file_name())).unwrap();
    }
    let layers = [Layer::new(LayerKind::Game, demo), Layer::new(LayerKind::Mod, &m)];
    let game = Arc::new(GameDir::open_layers(&layers, iron3d_formats::ReadOptions::compatible()).unwrap());
    let listed: Vec<String> = crate::Catalogue::discover(&game).missions.iter().map(|m| m.name.to_string()).collect();
    assert!(listed.contains(&"single.03".to_string()) && listed.contains(&"tutorial.01".to_string()), "{listed:?}");
    let app = load_from(&game, "single.03");
    assert_eq!(state(&app), AppState::InGame);
    let published = app.world().resource::<iron3d_core::DataLayers>();
    let names: Vec<String> = published.0.iter().map(|l| l.name.clone()).collect();
    assert_eq!(names, ["game".to_string(), format!("mod:iron3d-mission-mod-{}", std::process::id())]);
    assert_eq!(*published, crate::data_layers(&game).unwrap());
    let _ = std::fs::remove_dir_all(m);
}

/// `behpsp.res` (gameplay.md §3.1): each member's variables by name, the value the
/// first of the four words after the name; a tree without the archive gives none, and
/// a member that does not parse refuses the load naming the archive and the member.
#[test]
fn behaviour_profiles_are_read_from_behpsp_res() {
    use iron3d_formats::nres::NresWriter;
    let demo = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo"));
    let game = iron3d_vfs::GameDir::open(demo, iron3d_formats::ReadOptions::compatible()).unwrap();
    let profiles = crate::profiles::read(&game).unwrap();
    assert_eq!(profiles.value("prof_generator", "Transfer_Power_Out"), Some(10.0));
    assert_eq!(profiles.value("prof_bunker", "Transfer_Power_Out"), Some(f64::from(0.07f32)));
    assert_eq!(profiles.value("prof_plant", "Use_Power"), Some(4.0));
    let root = std::env::temp_dir().join(format!("iron3d-mission-profiles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let open = || iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap();
    assert_eq!(crate::profiles::read(&open()).unwrap(), iron3d_core::BehaviourProfiles::default(), "no archive");
    let mut w = NresWriter::new();
    w.add(0, [0; 3], b"prof_mine.var", vec![1, 0, 0, 0, 4]).unwrap();
    std::fs::write(root.join("BEHPSP.RES"), w.to_bytes().unwrap()).unwrap();
    let e = crate::profiles::read(&open()).unwrap_err().to_string();
    assert!(e.contains("behpsp.res") && e.contains("prof_mine.var"), "{e}");
    let _ = std::fs::remove_dir_all(root);
}

/// A turret's channels keep their pose (the turret turns them by its aim) where a
/// radar's wrapping row cycles: the original's yaw channel wraps over frames 49–53 and
/// starts at 0.5, ahead (openparkan `docs/30-turrets.md`).
#[test]
fn a_turrets_and_a_guns_channels_keep_their_pose_and_a_radar_cycles() {
    use iron3d_formats::helpers::ctld::{BindingRow, FLAG_WRAP, ItemRecord};
    let rows = vec![
        BindingRow::new(0, 0.0, 0.0, 0.0, 0).unwrap(),
        BindingRow::new(3, 0.0, 32.0, 0.25, FLAG_WRAP).unwrap(),
        BindingRow::new(1, 49.0, 53.0, 0.5, 3).unwrap(),
        BindingRow::new(2, 10.0, 14.0, 0.0, FLAG_WRAP).unwrap(),
    ];
    let mut ctld = iron3d_formats::helpers::Ctld::with_pose(rows).unwrap();
    let mut turret = ItemRecord::with_values(1, 1, &[]);
    turret.bindings = vec![2];
    let mut gun = ItemRecord::with_values(2, 2, &[]);
    gun.bindings = vec![3];
    ctld.items.extend([turret, gun]);
    let bindings = crate::game_backend::piece_bindings(&ctld, 0);
    let of = |node: u32| bindings.iter().find(|b| b.node == node).unwrap();
    assert!(of(3).cycles(), "the radar spins");
    assert!(!of(1).cycles(), "the turret's yaw channel does not");
    assert_eq!(of(1).endpoints, [51.0; 2], "posed ahead, frame 51");
    assert!(!of(2).cycles(), "nor the gun's barrel, which strokes only as it fires");
    ctld.items.clear();
    let free = crate::game_backend::piece_bindings(&ctld, 0);
    assert!(free.iter().any(|b| b.node == 1 && b.cycles()) && free.iter().any(|b| b.node == 2 && b.cycles()));
}
