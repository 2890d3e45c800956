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
    let game = Arc::new(GameDir::open(root, ReadOptions::compatible()).unwrap());
    let mut app = bevy_app::App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        GameSourcePlugin { game },
        AssetPlugin {
            file_path: root.to_string_lossy().into_owned(),
            meta_check: bevy_asset::AssetMetaCheck::Never,
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
    let handle: Handle<UnitDatAsset> =
        app.world().resource::<AssetServer>().load("game://units/HERO/hero_t.dat");
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
    let handle: Handle<BuildDatAsset> =
        app.world().resource::<AssetServer>().load("game://data.lib::builddat.lst");
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
    let click: Handle<SoundAsset> = server.load("game://sounds.lib::click.wav");
    assert!(matches!(settle(&mut app, &tma), LoadState::Loaded));
    assert!(matches!(settle(&mut app, &ini), LoadState::Loaded));
    assert!(matches!(settle(&mut app, &click), LoadState::Loaded));
    let world = app.world();
    assert_eq!(world.resource::<Assets<TmaAsset>>().get(&tma).unwrap().0.objects[0].position, [1.0, 2.0, 3.0]);
    assert_eq!(world.resource::<Assets<SoundAsset>>().get(&click).unwrap().0.samples, [0, 1000, -1000, 0]);
    assert!(world.resource::<Assets<IniAsset>>().get(&ini).is_some());
    let _ = std::fs::remove_dir_all(root);
}
