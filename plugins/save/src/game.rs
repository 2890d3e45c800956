//! The game's side of saves and replays, without windows ([`GameSavesPlugin`]): saves
//! asked for ([`SaveRequests`], the autosave) are taken between two frames' ticks into
//! the slots of [`SaveFolders`]; a save chosen to load ([`PendingRestore`]) is restored
//! when its mission enters the game, or the game returns to the menu with the error
//! ([`SaveStatus`]); every game leaves a replay in the replays folder; a replay played
//! back ([`ReplayPlayback`]) feeds its commands at their ticks and compares its hashes.
//! The screens (and the one place that starts missions) are `iron3d_ui`'s.

use crate::format::FileKind;
use crate::record::Record;
use crate::resume::{Mismatch, catch_up_in_world, reproduced, restore};
use crate::slots::{self, slot_file, write_slot};
use bevy_app::{App, AppExit, FixedUpdate, Last, Plugin, Update};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, CommandQueue, GameClock, InputPhase, MissionStart, Seats, SimSystems};
use iron3d_mission::LoadedMission;
use iron3d_sim::StateHash;
use std::path::PathBuf;

/// The state hash checkpoints of the game's saves and replays: every this many ticks.
pub const HASH_EVERY: u32 = 32;
/// Autosave slots kept in rotation.
pub const AUTOSAVE_SLOTS: u32 = 3;

/// Where slots and replays are kept (`None`: no user data directory is known).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveFolders {
    /// The save slots (`saves/`).
    pub saves: Option<PathBuf>,
    /// The replays (`replays/`).
    pub replays: Option<PathBuf>,
}

impl SaveFolders {
    /// `saves/` and `replays/` in `dir`.
    pub fn in_dir(dir: PathBuf) -> Self {
        Self { saves: Some(dir.join("saves")), replays: Some(dir.join("replays")) }
    }

    /// The folders in the user's data directory (`IRON3D_USER_DIR` first).
    pub fn user() -> Self {
        iron3d_vfs::user_files::data_dir().map_or_else(Self::default, Self::in_dir)
    }

    /// The payload of save slot `name`.
    ///
    /// # Errors
    /// No user data directory is known.
    pub fn slot(&self, name: &str) -> Result<PathBuf, String> {
        let dir = self.saves.as_ref().ok_or("no user data directory (set IRON3D_USER_DIR or HOME)")?;
        Ok(slot_file(dir, name, FileKind::Save))
    }
}

/// The game's camera and interface state, kept current by the game in its own encoding
/// and written into each save (chunk `view`); not hashed, never read by the simulation.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveView(pub Vec<u8>);

/// The camera and interface state of the save just restored, for the game to apply.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct RestoredView(pub Vec<u8>);

/// Save slots to write at the next frame boundary (names as [`slots::slot_name`]
/// accepts them).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveRequests(pub Vec<String>);

/// A save or replay file was written (the screens add its thumbnail).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct SaveWritten {
    /// The payload.
    pub path: PathBuf,
    /// A save or a replay.
    pub kind: FileKind,
}

/// What the last save or load did, for the screens: an error, else a notice.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveStatus {
    /// The last failure (a damaged or foreign file, a failed write or restore).
    pub error: Option<String>,
    /// The last success.
    pub notice: Option<String>,
}

impl SaveStatus {
    /// Reports a failure.
    pub fn fail(&mut self, error: String) {
        self.error = Some(error);
        self.notice = None;
    }

    /// Reports a success.
    pub fn done(&mut self, notice: String) {
        self.error = None;
        self.notice = Some(notice);
    }
}

/// A save read and checked, restored when its mission (being started) enters the game.
#[derive(Resource, Debug, Clone)]
pub struct PendingRestore {
    /// The file.
    pub path: PathBuf,
    /// Its record.
    pub record: Record,
}

/// The autosave: every `every_ticks` of game time (0: off) and at a mission's start,
/// into `autosave-1` .. `autosave-keep` in rotation.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Autosave {
    /// Ticks between autosaves (0: no autosave).
    pub every_ticks: u32,
    /// Slots in rotation.
    pub keep: u32,
    /// The tick of the next autosave in the running mission.
    pub next_at: Option<u32>,
}

impl Default for Autosave {
    fn default() -> Self {
        Self { every_ticks: 0, keep: AUTOSAVE_SLOTS, next_at: None }
    }
}

/// A replay being played back: its commands are fed at their ticks instead of the
/// player's, its hashes compared as the ticks pass.
#[derive(Resource, Debug, Clone)]
pub struct ReplayPlayback {
    /// The file.
    pub path: PathBuf,
    /// Its record.
    pub record: Record,
    /// The next command to feed.
    next: usize,
    /// The next checkpoint to compare.
    checked: usize,
    /// Checkpoints compared so far.
    pub hash_checks: u32,
    /// The first checkpoint not reproduced.
    pub mismatch: Option<Mismatch>,
}

impl ReplayPlayback {
    /// Plays `record` (read from `path`) from its mission's start.
    pub fn new(path: PathBuf, record: Record) -> Self {
        Self { path, record, next: 0, checked: 0, hash_checks: 0, mismatch: None }
    }

    /// The replay's last tick.
    pub fn length(&self) -> u32 {
        self.record.tick
    }
}

/// Whether the running game is recorded as a replay when it ends (not a replay played
/// back, nor a save whose restore failed).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Recording(bool);

/// The game's saves, autosaves, replay recording and playback (with `SavePlugin` and
/// `MissionPlugin`; the folders default to the user's).
#[derive(Debug, Default)]
pub struct GameSavesPlugin;

impl Plugin for GameSavesPlugin {
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<SaveFolders>() {
            app.insert_resource(SaveFolders::user());
        }
        app.init_resource::<SaveRequests>()
            .init_resource::<SaveStatus>()
            .init_resource::<Autosave>()
            .init_resource::<Recording>()
            .add_message::<SaveWritten>()
            .add_systems(OnEnter(AppState::InGame), enter_game.after(MissionStart::Present))
            .add_systems(OnExit(AppState::InGame), record_replay)
            .add_systems(OnEnter(AppState::MainMenu), forget)
            .add_systems(
                FixedUpdate,
                feed_replay
                    .run_if(resource_exists::<ReplayPlayback>)
                    .in_set(SimSystems::Input)
                    .after(InputPhase::World3d)
                    .before(InputPhase::Commands),
            )
            .add_systems(
                Update,
                (check_replay.run_if(resource_exists::<ReplayPlayback>), write_saves)
                    .run_if(in_state(AppState::InGame)),
            )
            .add_systems(Last, record_replay.run_if(on_message::<AppExit>.and_then(in_state(AppState::InGame))));
    }
}

/// A mission entered the game: the save chosen is restored (checked by its state
/// hash) or, of format version 1 or 2, re-simulated to its tick (checked at each
/// recorded hash); a failure returns to the menu with the error. A fresh start is
/// autosaved.
fn enter_game(world: &mut World) {
    let tick = world.resource::<GameClock>().tick;
    let playing = world.contains_resource::<ReplayPlayback>();
    world.insert_resource(Recording(!playing));
    let Some(PendingRestore { path, record }) = world.remove_resource::<PendingRestore>() else {
        let mut autosave = world.resource_mut::<Autosave>();
        autosave.next_at = (autosave.every_ticks > 0 && !playing).then_some(tick);
        return;
    };
    let result = match &record.snapshot {
        Some(snapshot) => restore(world, &record, snapshot),
        // Format version 1 or 2: re-simulated to its tick, as `sim run --load` does.
        None => reproduced(&record, catch_up_in_world(world, &record)),
    };
    let tick = world.resource::<GameClock>().tick;
    match result {
        Ok(()) => {
            world.insert_resource(Seats(record.seats));
            if let Some(view) = record.view {
                world.insert_resource(RestoredView(view));
            }
            let mut autosave = world.resource_mut::<Autosave>();
            autosave.next_at = (autosave.every_ticks > 0).then(|| tick + autosave.every_ticks);
            world.resource_mut::<SaveStatus>().done(format!("loaded {}", path.display()));
        }
        Err(e) => {
            world.insert_resource(Recording(false));
            world.resource_mut::<SaveStatus>().fail(format!("{}: {e}", path.display()));
            world.resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
        }
    }
}

/// Back in the menu: a load or a playback that did not reach the game is dropped.
fn forget(mut commands: Commands) {
    commands.remove_resource::<PendingRestore>();
    commands.remove_resource::<ReplayPlayback>();
}

/// Writes the saves asked for and the autosave due (between two frames' ticks, a tick
/// boundary). A replay being played back is never saved.
fn write_saves(world: &mut World) {
    let tick = world.resource::<GameClock>().tick;
    let mut names = std::mem::take(&mut world.resource_mut::<SaveRequests>().0);
    if world.contains_resource::<ReplayPlayback>() {
        if !names.is_empty() {
            world.resource_mut::<SaveStatus>().fail("a replay being played back is not saved".into());
        }
        return;
    }
    let folders = world.resource::<SaveFolders>().clone();
    let mut autosave = world.resource_mut::<Autosave>();
    if autosave.next_at.is_some_and(|at| at <= tick) {
        autosave.next_at = Some(tick + autosave.every_ticks.max(1));
        let keep = autosave.keep;
        if let Some(dir) = &folders.saves {
            names.push(slots::next_autosave(dir, keep));
        }
    }
    for name in names {
        let result = folders.slot(&name).and_then(|path| {
            let record = capture(world, FileKind::Save)?;
            write_slot(&path, &record, slots::now())?;
            Ok(path)
        });
        match result {
            Ok(path) => {
                world.resource_mut::<SaveStatus>().done(format!("saved {name}"));
                world.write_message(SaveWritten { path, kind: FileKind::Save });
            }
            Err(e) => world.resource_mut::<SaveStatus>().fail(format!("save {name}: {e}")),
        }
    }
}

/// The record of the running mission.
fn capture(world: &World, kind: FileKind) -> Result<Record, String> {
    let mission = world.get_resource::<LoadedMission>().ok_or("no mission is running")?;
    Record::capture(world, kind, &mission.name, HASH_EVERY)
}

/// The replay file of a game of `mission` ending at `date`:
/// `MISSION-YYYYMMDD-HHMMSS.rpl` (a campaign's `/` as `_`), with `-2`, `-3`, ... after
/// it when that file exists.
pub fn replay_file(dir: &std::path::Path, mission: &str, date: u64) -> PathBuf {
    let stamp: String = slots::date_text(date).chars().filter(char::is_ascii_digit).collect();
    let (day, minute) = stamp.split_at(8.min(stamp.len()));
    let name = format!("{}-{day}-{minute}{:02}", mission.replace(['/', '\\'], "_"), date % 60);
    (1..)
        .map(|k| match k {
            1 => slot_file(dir, &name, FileKind::Replay),
            k => slot_file(dir, &format!("{name}-{k}"), FileKind::Replay),
        })
        .find(|p| !p.exists() && !crate::file::slot_path(p).exists())
        .unwrap_or_default()
}

/// Records the game that ends (or whose window closes) as a replay, once, unless it was
/// a replay itself, failed to restore, or never ticked.
fn record_replay(world: &mut World) {
    if !std::mem::take(&mut world.resource_mut::<Recording>().0) || world.resource::<GameClock>().tick == 0 {
        return;
    }
    let Some(dir) = world.resource::<SaveFolders>().replays.clone() else { return };
    let result = capture(world, FileKind::Replay).and_then(|record| {
        let path = replay_file(&dir, &record.mission, slots::now());
        write_slot(&path, &record, slots::now()).map(|_| path)
    });
    match result {
        Ok(path) => {
            world.write_message(SaveWritten { path, kind: FileKind::Replay });
        }
        Err(e) => world.resource_mut::<SaveStatus>().fail(format!("replay not recorded: {e}")),
    }
}

/// Queues the replay's commands logged at this tick. The mission's start queues its
/// standing orders for the first tick itself (and `sim replay` re-simulates that tick
/// with the load), so the log's first tick is not fed again.
fn feed_replay(mut playback: ResMut<ReplayPlayback>, clock: Res<GameClock>, mut queue: ResMut<CommandQueue>) {
    let ReplayPlayback { record, next, .. } = &mut *playback;
    while let Some((tick, command)) = record.commands.get(*next).filter(|(t, _)| *t <= clock.tick) {
        if *tick > 1 {
            queue.push(command.clone());
        }
        *next += 1;
    }
}

/// Compares the replay's checkpoints the game has passed with its state hashes.
fn check_replay(mut playback: ResMut<ReplayPlayback>, hashes: Res<StateHash>) {
    let Some((now, _)) = hashes.last() else { return };
    while playback.mismatch.is_none()
        && let Some(&(at, recorded)) = playback.record.hashes.get(playback.checked).filter(|(t, _)| *t <= now)
    {
        playback.checked += 1;
        let Ok(i) = hashes.history.binary_search_by_key(&at, |(t, _)| *t) else { continue };
        let computed = hashes.history[i].1;
        playback.hash_checks += 1;
        if computed != recorded {
            playback.mismatch = Some(Mismatch { tick: at, recorded, computed });
        }
    }
}
