//! Loader integration: a headless app reads a Windows-style tree through `game://`.

use super::*;
use bevy_app::{TaskPoolPlugin, Update};
use bevy_asset::{AssetPlugin, AssetServer, Assets, Handle, LoadState};
use iron3d_formats::ReadOptions;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::registry::UnitRecord;

fn tree(tag: &str) -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("iron3d-assets-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("UNITS/Hero")).unwrap();
    let dat = UnitDat {
        header: [0xF1, 0xF0, 0, 0, 0, 0, 0x02, 0x01],
        records: vec![UnitRecord::new("hero_ch", 1, -1, b"chassis", 0, 0).unwrap()],
    };
    std::fs::write(root.join("UNITS/Hero/HERO_T.DAT"), dat.to_bytes()).unwrap();
    std::fs::write(root.join("UNITS/Hero/broken.dat"), [0xF1, 0xF0, 0, 0, 0, 0, 0, 0, 1]).unwrap();
    let mut lib = NresWriter::new();
    lib.add(0, [0; 3], b"BuildDat.lst", b"Mine 1\r\n\"UNITS\\Hero\\hero_t.dat\"\r\n".to_vec()).unwrap();
    std::fs::write(root.join("Data.LIB"), lib.to_bytes().unwrap()).unwrap();
    root
}

use iron3d_formats::registry::UnitDat;

pub(crate) fn app(root: &std::path::Path) -> bevy_app::App {
    app_watching(root, false)
}

fn app_watching(root: &std::path::Path, watch: bool) -> bevy_app::App {
    let game = Arc::new(GameDir::open(root, ReadOptions::compatible()).unwrap());
    let mut app = bevy_app::App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        GameSourcePlugin { game },
        AssetPlugin {
            file_path: root.to_string_lossy().into_owned(),
            meta_check: bevy_asset::AssetMetaCheck::Never,
            watch_for_changes_override: Some(watch),
            ..Default::default()
        },
        GameLoadersPlugin,
    ));
    app.add_systems(Update, || {});
    app
}

/// Updates until the handle settles (bounded).
pub(crate) fn settle<A: bevy_asset::Asset>(app: &mut bevy_app::App, handle: &Handle<A>) -> LoadState {
    for _ in 0..500 {
        app.update();
        let state = app.world().resource::<AssetServer>().load_state(handle);
        if matches!(state, LoadState::Loaded | LoadState::Failed(_)) {
            return state;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("asset did not settle");
}

#[test]
fn loads_loose_files_case_insensitively() {
    let root = tree("loose");
    let mut app = app(&root);
    let handle: Handle<UnitDatAsset> = app.world().resource::<AssetServer>().load("game://units/HERO/hero_t.dat");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let assets = app.world().resource::<Assets<UnitDatAsset>>();
    let dat = &assets.get(&handle).unwrap().0;
    assert_eq!(dat.component_keys().unwrap(), ["hero_ch"]);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn loads_archive_entries_by_address() {
    let root = tree("entry");
    let mut app = app(&root);
    let handle: Handle<BuildDatAsset> = app.world().resource::<AssetServer>().load("game://data.lib::builddat.lst");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let assets = app.world().resource::<Assets<BuildDatAsset>>();
    assert_eq!(assets.get(&handle).unwrap().0.mask_of("units/hero/HERO_T.dat"), Some(0x8000_0004));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn loader_errors_keep_the_located_format_error() {
    let root = tree("error");
    let mut app = app(&root);
    let handle: Handle<UnitDatAsset> = app.world().resource::<AssetServer>().load("game://UNITS/Hero/broken.dat");
    let LoadState::Failed(error) = settle(&mut app, &handle) else { panic!("must fail") };
    let text = error.to_string();
    assert!(text.contains("UNITS/Hero/broken.dat") && text.contains("unit_dat_size"), "{text}");
    let missing: Handle<UnitDatAsset> = app.world().resource::<AssetServer>().load("game://UNITS/none.dat");
    assert!(matches!(settle(&mut app, &missing), LoadState::Failed(_)));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn mission_sound_and_config_loaders_share_the_source() {
    use iron3d_formats::world::{PlacedObject, Tma};
    let root = tree("data");
    let mut tma = Tma::new("DATA\\MAPS\\x\\land");
    tma.objects.push(PlacedObject::new(2, "s_tree_01", [1.0, 2.0, 3.0]));
    std::fs::create_dir_all(root.join("MISSIONS/m1")).unwrap();
    std::fs::write(root.join("MISSIONS/m1/data.tma"), tma.to_bytes().unwrap()).unwrap();
    std::fs::write(root.join("MISSIONS/m1/Behavior.ini"), b"[Main]\r\nRadius = 40\r\n").unwrap();
    let wave = iron3d_formats::sound::write_pcm16(&[0, 1000, -1000, 0], 1, 22050).unwrap();
    let mut sounds = NresWriter::new();
    sounds.add(iron3d_formats::sound::SWAV, [0; 3], b"CLICK.WAV", wave).unwrap();
    std::fs::write(root.join("sounds.lib"), sounds.to_bytes().unwrap()).unwrap();
    let mut app = app(&root);
    let server = app.world().resource::<AssetServer>().clone();
    let tma: Handle<TmaAsset> = server.load("game://missions/M1/DATA.TMA");
    let ini: Handle<IniAsset> = server.load("game://MISSIONS/m1/behavior.ini");
    // The `.swav` hint picks the SWAV loader (`.wav` is kira's extension).
    let click: Handle<SoundAsset> = server.load("game://sounds.lib::click.wav.swav");
    assert!(matches!(settle(&mut app, &tma), LoadState::Loaded));
    assert!(matches!(settle(&mut app, &ini), LoadState::Loaded));
    assert!(matches!(settle(&mut app, &click), LoadState::Loaded));
    let world = app.world();
    assert_eq!(world.resource::<Assets<TmaAsset>>().get(&tma).unwrap().0.objects[0].position, [1.0, 2.0, 3.0]);
    assert_eq!(world.resource::<Assets<SoundAsset>>().get(&click).unwrap().0.samples, [0, 1000, -1000, 0]);
    assert!(world.resource::<Assets<IniAsset>>().get(&ini).is_some());
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn archive_entries_hot_reload_when_their_archive_changes() {
    let root = tree("watch");
    let mut app = app_watching(&root, true);
    let handle: Handle<BuildDatAsset> = app.world().resource::<AssetServer>().load("game://data.lib::builddat.lst");
    assert!(matches!(settle(&mut app, &handle), LoadState::Loaded));
    let sections =
        |app: &bevy_app::App| app.world().resource::<Assets<BuildDatAsset>>().get(&handle).map(|a| a.0.sections.len());
    assert_eq!(sections(&app), Some(1));
    let mut lib = NresWriter::new();
    let text = b"Mine 1\r\n\"UNITS\\Hero\\hero_t.dat\"\r\nPlant 1\r\n\"UNITS\\Hero\\hero_t.dat\"\r\n";
    lib.add(0, [0; 3], b"BuildDat.lst", text.to_vec()).unwrap();
    std::fs::write(root.join("Data.LIB"), lib.to_bytes().unwrap()).unwrap();
    for _ in 0..1500 {
        app.update();
        if sections(&app) == Some(2) {
            let _ = std::fs::remove_dir_all(root);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(4));
    }
    panic!("the entry was not reloaded: {:?}", sections(&app));
}

#[test]
fn the_watcher_reports_served_addresses_of_changed_files_only() {
    use crate::watch::{Served, changes};
    use bevy_asset::io::AssetSourceEvent;
    let served = Served::default();
    for a in ["Data.LIB::BuildDat.lst", "data.lib::other", "MISSIONS\\m1\\data.tma", "Textures.lib::GRASS.texm"] {
        served.record(a);
    }
    let at = |n: u64| (n, None);
    let before = [("Data.LIB", at(1)), ("MISSIONS/M1/DATA.TMA", at(1)), ("Textures.lib", at(1))]
        .map(|(p, s)| (p.into(), s))
        .into();
    let after = [("Data.LIB", at(2)), ("MISSIONS/M1/DATA.TMA", at(3)), ("Textures.lib", at(1))]
        .map(|(p, s)| (p.into(), s))
        .into();
    let mut paths: Vec<String> = changes(&before, &after, &served)
        .into_iter()
        .map(|e| match e {
            AssetSourceEvent::ModifiedAsset(p) => p.to_string_lossy().into_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    paths.sort();
    assert_eq!(paths, ["Data.LIB::BuildDat.lst", "MISSIONS\\m1\\data.tma", "data.lib::other"]);
}
