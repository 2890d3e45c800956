//! The game's slots and [`GameSavesPlugin`]: empty and damaged slots differ, autosaves
//! rotate, a quick save loads back through the mission's start to the same state, a
//! failed restore returns to the menu, and every game leaves a replay that `sim replay`
//! and the game's playback reproduce without a mismatch.
#![allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]

use super::*;
use crate::slots::{
    SlotMeta, SlotState, autosave_names, date_text, game_time, inspect, list, next_autosave, read_checked, slot_file,
    slot_name, write_slot,
};
use crate::tests::{app, demo_game, run_to, sample};
use bevy_app::App;
use bevy_state::prelude::*;
use iron3d_core::{AppState, GameClock, Movable, Order, OriginalObjectId, Owner, SimCommand};
use iron3d_sim::StateHash;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iron3d-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn slots_are_empty_saved_or_damaged_with_the_reason() {
    let dir = temp("slots");
    let fixed = [slots::QUICKSAVE.to_string()];
    let path = slot_file(&dir, slots::QUICKSAVE, FileKind::Save);
    assert_eq!(list(&dir, FileKind::Save, &fixed)[0].state, SlotState::Empty, "no folder yet: an empty slot");
    let empty = list(&dir, FileKind::Save, &fixed);
    assert_eq!((empty.len(), empty[0].name.as_str()), (1, slots::QUICKSAVE));
    let record = sample();
    let meta = write_slot(&path, &record, 1_700_000_000).unwrap();
    assert_eq!(meta, SlotMeta::of(&record, 1_700_000_000));
    assert_eq!(SlotMeta::parse(&meta.to_text()), Ok(meta.clone()));
    assert_eq!(inspect(&path, FileKind::Save), SlotState::Saved(meta.clone()));
    let named = slot_file(&dir, "before the bridge", FileKind::Save);
    write_slot(&named, &record, 1_700_000_500).unwrap();
    let names: Vec<String> = list(&dir, FileKind::Save, &fixed).into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["before the bridge", slots::QUICKSAVE], "newest first");
    // A flipped byte in the payload, a payload without metadata, metadata without a
    // payload, metadata that does not read or does not match: each is damaged, named.
    let mut bytes = std::fs::read(&path).unwrap();
    let good = bytes.clone();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = |p: &Path| match inspect(p, FileKind::Save) {
        SlotState::Damaged(e) => e,
        s => panic!("not damaged: {s:?}"),
    };
    let e = damaged(&path);
    assert!(e.contains("quicksave.sav") && e.contains("checksum"), "{e}");
    std::fs::write(&path, &good).unwrap();
    let meta_path = slot_path(&path);
    std::fs::remove_file(&meta_path).unwrap();
    assert!(damaged(&path).contains("quicksave.sav.slot"));
    std::fs::write(&meta_path, "kind=save\nmission=single.02\n").unwrap();
    assert!(damaged(&path).contains("`tick` is missing"));
    std::fs::write(&meta_path, SlotMeta { tick: 7, ..meta }.to_text()).unwrap();
    assert!(damaged(&path).contains("at tick 7, the file holds single.02 at tick 300"));
    std::fs::remove_file(&path).unwrap();
    assert!(damaged(&path).contains("quicksave.sav"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn slot_names_dates_and_game_times_read_as_shown() {
    assert_eq!(slot_name("  before the bridge "), Ok("before the bridge".into()));
    assert!(slot_name("").is_err() && slot_name(&"x".repeat(41)).is_err());
    assert!(slot_name("../escape").unwrap_err().contains('.'));
    assert_eq!(date_text(0), "1970-01-01 00:00");
    assert_eq!(date_text(1_700_000_000), "2023-11-14 22:13");
    assert_eq!(date_text(951_782_400), "2000-02-29 00:00");
    assert_eq!((game_time(938), game_time(60_000)), ("1:00".to_string(), "1:04:00".to_string()));
    let dir = Path::new("/r");
    assert_eq!(
        game::replay_file(dir, "campaign.01/mission.02", 1_700_000_009),
        dir.join("campaign.01_mission.02-20231114-221329.rpl")
    );
}

#[test]
fn autosaves_rotate_through_their_slots() {
    let dir = temp("autosave");
    assert_eq!(autosave_names(3), ["autosave-1", "autosave-2", "autosave-3"]);
    assert_eq!(next_autosave(&dir, 3), "autosave-1");
    for (name, date) in [("autosave-1", 10), ("autosave-2", 30), ("autosave-3", 20)] {
        write_slot(&slot_file(&dir, name, FileKind::Save), &sample(), date).unwrap();
    }
    assert_eq!(next_autosave(&dir, 3), "autosave-1", "the oldest");
    std::fs::write(slot_file(&dir, "autosave-3", FileKind::Save), b"damaged").unwrap();
    assert_eq!(next_autosave(&dir, 3), "autosave-3", "a damaged slot before the oldest");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A headless game: the mission loader, the command log and [`GameSavesPlugin`] with
/// its folders in `dir`.
fn game_app(dir: &Path) -> App {
    let mut app = app();
    app.insert_resource(SaveFolders::in_dir(dir.to_path_buf())).add_plugins(GameSavesPlugin);
    app
}

/// The player's (clan 1) units move, as the game's input would order them.
fn orders(app: &mut App) -> Vec<SimCommand> {
    let world = app.world_mut();
    let mut units: Vec<u32> = world
        .query_filtered::<(&OriginalObjectId, &Owner), bevy_ecs::query::With<Movable>>()
        .iter(world)
        .filter(|(_, o)| o.clan == 1)
        .map(|(id, _)| id.0)
        .collect();
    units.sort_unstable();
    let order = |tick, order| SimCommand { tick, units: units.clone(), order, queued: false };
    vec![order(5, Order::MoveTo([400.0, 300.0])), order(30, Order::Stop), order(45, Order::MoveTo([200.0, 500.0]))]
}

fn replays(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("replays"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rpl"))
        .collect();
    files.sort();
    files
}

/// F5 in a running game writes the quick-save slot at a tick boundary; loading it
/// restarts the mission through the loading states and restores the saved tick, and
/// the game goes on as the one that never stopped. The game left meanwhile is
/// recorded as a replay that `iron3d_save::replay` re-simulates without a mismatch,
/// and that the game's own playback reproduces too.
#[test]
fn a_quick_save_loads_back_and_every_game_leaves_a_replay() {
    let dir = temp("game");
    let game = demo_game();
    let mut app = game_app(&dir);
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    let orders = orders(&mut app);
    assert!(!orders[0].units.is_empty(), "the player has units");
    run_to(&mut app, &orders, 40);
    app.insert_resource(SaveView(b"the camera".to_vec()));
    app.world_mut().resource_mut::<SaveRequests>().0.push(slots::QUICKSAVE.into());
    app.update();
    let saved_at = app.world().resource::<GameClock>().tick;
    let path = slot_file(&dir.join("saves"), slots::QUICKSAVE, FileKind::Save);
    let SlotState::Saved(meta) = inspect(&path, FileKind::Save) else { panic!("saved") };
    assert_eq!((meta.mission.as_str(), meta.tick), ("single.01", saved_at));
    run_to(&mut app, &orders, 60);
    let reference = app.world().resource::<StateHash>().history.clone();

    // F9: read and checked first, then the mission restarts and the save is restored.
    let layers = app.world().resource::<iron3d_core::DataLayers>().clone();
    let record = read_checked(&path, FileKind::Save, &layers).unwrap();
    app.insert_resource(PendingRestore { path: path.clone(), record });
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    let status = app.world().resource::<SaveStatus>().clone();
    assert!(status.error.is_none() && status.notice.unwrap().contains("loaded"));
    let view = app.world_mut().remove_resource::<RestoredView>();
    assert_eq!(view, Some(RestoredView(b"the camera".to_vec())), "the camera and interface state comes back");
    let later: Vec<SimCommand> = orders.iter().filter(|c| c.tick > saved_at).cloned().collect();
    run_to(&mut app, &later, 60);
    let after = |h: &[(u32, u64)]| h.iter().filter(|(t, _)| *t > saved_at).copied().collect::<Vec<_>>();
    assert_eq!(after(&app.world().resource::<StateHash>().history), after(&reference), "it goes on exactly");

    // Leaving for the menu records the loaded game too; both replays reproduce.
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
    app.update();
    let files = replays(&dir);
    assert_eq!(files.len(), 2, "{files:?}");
    for file in &files {
        let record = read_checked(file, FileKind::Replay, &layers).unwrap();
        assert!(record.tick >= 60, "{file:?} at {}", record.tick);
        let checked = replay(&mut crate::tests::app(), &game, &record, None).unwrap();
        assert!(checked.mismatch.is_none() && checked.hash_checks >= 2, "{file:?}: {checked:?}");

        let mut player = game_app(&temp("playback"));
        player.update(); // in the menu, where a replay is chosen
        player.insert_resource(ReplayPlayback::new(file.clone(), record.clone()));
        iron3d_mission::load_headless(&mut player, &game, &record.mission).unwrap();
        run_to(&mut player, &[], record.tick);
        let playback = player.world().resource::<ReplayPlayback>();
        assert!(playback.mismatch.is_none() && playback.hash_checks >= 2, "{file:?}: {:?}", playback.mismatch);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save of format version 1 or 2 (no snapshot this engine reads) loads in the game by
/// re-simulation to its tick, checked at each recorded hash, as `sim run --load` resumes
/// it, and the game goes on exactly as the one that never stopped.
#[test]
fn version_1_and_2_saves_resume_in_the_game_by_re_simulation() {
    let dir = temp("old-saves");
    let game = demo_game();
    let mut app = game_app(&dir);
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    let orders = orders(&mut app);
    run_to(&mut app, &orders, 40);
    let saved = Record::capture(app.world(), FileKind::Save, "single.01", 32).unwrap();
    run_to(&mut app, &orders, 60);
    let reference = app.world().resource::<StateHash>().history.clone();
    let later: Vec<SimCommand> = orders.iter().filter(|c| c.tick > 40).cloned().collect();
    for version in [1, 2] {
        let record = Record::decode(&crate::tests::in_version(&saved, version), FileKind::Save).unwrap();
        assert!(record.snapshot.is_none());
        let path = PathBuf::from(format!("version-{version}.sav"));
        app.insert_resource(PendingRestore { path, record });
        iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
        let status = app.world().resource::<SaveStatus>().clone();
        assert_eq!(status.notice, Some(format!("loaded version-{version}.sav")), "{:?}", status.error);
        let history = app.world().resource::<StateHash>().history.clone();
        assert!(history.contains(saved.hashes.last().unwrap()), "version {version}: the save's tick re-simulated");
        run_to(&mut app, &later, 60);
        let after = |h: &[(u32, u64)]| h.iter().filter(|(t, _)| *t > 40).copied().collect::<Vec<_>>();
        assert_eq!(after(&app.world().resource::<StateHash>().history), after(&reference), "version {version}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save whose restore fails (here: it does not hash as recorded) returns the game to
/// the menu with the error, and records no replay of the broken state.
#[test]
fn a_failed_restore_returns_to_the_menu_with_the_error() {
    let dir = temp("failed-restore");
    let game = demo_game();
    let mut app = game_app(&dir);
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    run_to(&mut app, &[], 20);
    let mut record = Record::capture(app.world(), FileKind::Save, "single.01", 32).unwrap();
    record.hashes.last_mut().unwrap().1 ^= 1;
    app.insert_resource(PendingRestore { path: "broken.sav".into(), record });
    let _ = iron3d_mission::load_headless(&mut app, &game, "single.01");
    app.update();
    assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::MainMenu);
    let error = app.world().resource::<SaveStatus>().error.clone().unwrap();
    assert!(error.starts_with("broken.sav: the restored state of tick 20"), "{error}");
    assert_eq!(replays(&dir).len(), 1, "only the game left for the load is recorded");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With the autosave on, a fresh mission is saved at its start and then every interval,
/// into the rotating slots.
#[test]
fn the_autosave_saves_at_the_start_and_every_interval_in_rotation() {
    let dir = temp("autosaves");
    let game = demo_game();
    let mut app = game_app(&dir);
    app.insert_resource(Autosave { every_ticks: 10, keep: 2, next_at: None });
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    run_to(&mut app, &[], 25);
    let saves = dir.join("saves");
    let ticks: Vec<u32> = ["autosave-1", "autosave-2"]
        .iter()
        .map(|n| match inspect(&slot_file(&saves, n, FileKind::Save), FileKind::Save) {
            SlotState::Saved(m) => m.tick,
            s => panic!("{n}: {s:?}"),
        })
        .collect();
    // Ticks 1 (the start), 11 and 21 were saved; the third went over the oldest.
    assert!(ticks.contains(&21) && ticks.iter().all(|t| *t > 1), "{ticks:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
