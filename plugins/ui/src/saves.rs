//! The player's side of saves and replays (`iron3d_save::GameSavesPlugin` does the
//! work): quick save (F5) and quick load (F9), opening a save or a replay (the menus,
//! `--load`, `--replay`) after it is read and checked, so a damaged or foreign file only
//! reports its error; the thumbnails of the slots; the notices; and a replay's playback
//! controls (pause, 1x to 8x, the timeline, a free camera) with the player's orders
//! disabled.

use crate::ScreenSystems;
use crate::locale::Locale;
use crate::menu::MissionStarter;
use crate::views::{View, Views};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_camera::{CameraMode, GameCamera};
use iron3d_core::{AppState, DataLayers, GameClock, InputPhase, Pause};
use iron3d_input::{Actions, GameAction, PlayerCommands, Selection};
use iron3d_save::slots::{self, QUICKSAVE, thumbnail_path};
use iron3d_save::{
    Autosave, FileKind, PendingRestore, ReplayPlayback, RestoredView, SaveFolders, SaveRequests, SaveStatus, SaveView,
    SaveWritten,
};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ReplayControls>()
        .init_resource::<SaveView>()
        .add_systems(
            Update,
            (
                open_startup_file.after(crate::menu::autostart),
                quick_keys,
                thumbnails,
                replay_clock,
                apply_autosave,
                keep_view.run_if(in_state(AppState::InGame)),
                apply_view.run_if(resource_exists::<RestoredView>),
            ),
        )
        .add_systems(
            FixedUpdate,
            drop_player_orders.run_if(resource_exists::<ReplayPlayback>).before(InputPhase::Commands),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                replay_panel
                    .run_if(in_state(AppState::InGame).and_then(resource_exists::<ReplayPlayback>))
                    .in_set(ScreenSystems::Replay),
                notices.in_set(ScreenSystems::Notices),
            ),
        );
}

/// The thumbnail size (the screenshot is scaled to fit).
pub const THUMBNAIL: [u32; 2] = [192, 108];
/// Seconds a notice stays on screen.
pub const NOTICE_SECONDS: f32 = 4.0;
/// The replay speeds offered.
pub const SPEEDS: [f32; 4] = [1.0, 2.0, 4.0, 8.0];
/// The speed of seeking forward.
pub const SEEK_SPEED: f32 = 64.0;
/// The longest frame the game clock takes whole: Bevy's default, and a replay's (so
/// several ticks run in a slow frame at a high speed).
pub const MAX_DELTA: [Duration; 2] = [Duration::from_millis(250), Duration::from_secs(2)];

/// A file to open: a save to load or a replay to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenFile {
    /// A save (`--load`).
    Save(PathBuf),
    /// A replay (`--replay`).
    Replay(PathBuf),
}

/// The file of the command line, opened once at start-up.
#[derive(Resource, Debug, Clone, Default)]
pub struct StartupFile(pub Option<OpenFile>);

/// Opens saves and replays: reads and checks the file, then starts its mission.
#[derive(SystemParam)]
pub struct FileOpener<'w, 's> {
    /// The one place missions start.
    pub starter: MissionStarter<'w, 's>,
    /// Where errors go.
    pub status: ResMut<'w, SaveStatus>,
    /// The running mission's data layers.
    layers: Option<Res<'w, DataLayers>>,
    /// The replay controls (reset with a new replay).
    controls: ResMut<'w, ReplayControls>,
}

impl FileOpener<'_, '_> {
    /// The data layers files are checked against: the running game's, else the game
    /// data's.
    fn layers(&self) -> Result<DataLayers, String> {
        if let Some(l) = &self.layers {
            return Ok(l.as_ref().clone());
        }
        let game = self.starter.game().ok_or("no game data")?;
        iron3d_mission::data_layers(&game.0).map_err(|e| e.to_string())
    }

    /// Opens `file`: a bad file reports its error and nothing else changes (a running
    /// game goes on); a good one starts its mission, restored or played back on entering
    /// the game. True when it started.
    pub fn open(&mut self, file: &OpenFile) -> bool {
        let (path, kind) = match file {
            OpenFile::Save(p) => (p, FileKind::Save),
            OpenFile::Replay(p) => (p, FileKind::Replay),
        };
        let record = self.layers().and_then(|layers| slots::read_checked(path, kind, &layers));
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                warn!("{e}");
                self.status.fail(e);
                return false;
            }
        };
        let (mission, level) = (record.mission.clone(), record.difficulty);
        let started = match kind {
            FileKind::Save => self.starter.start_record(&mission, level, PendingRestore { path: path.clone(), record }),
            FileKind::Replay => {
                *self.controls = ReplayControls::default();
                self.starter.start_record(&mission, level, ReplayPlayback::new(path.clone(), record))
            }
        };
        if !started {
            self.status.fail("no game data".into());
        }
        started
    }

    /// Restarts the replay being played (seeking backwards), fast-forwarding to `tick`.
    fn restart(&mut self, playback: &ReplayPlayback, tick: u32) {
        let record = playback.record.clone();
        let (mission, level) = (record.mission.clone(), record.difficulty);
        self.controls.seek = Some(tick);
        self.starter.start_record(&mission, level, ReplayPlayback::new(playback.path.clone(), record));
    }
}

/// Opens the `--load` or `--replay` file once.
pub fn open_startup_file(mut file: ResMut<StartupFile>, mut opener: FileOpener) {
    if let Some(f) = file.0.take() {
        opener.open(&f);
    }
}

/// F5 saves the running game into the quick-save slot (at the next frame boundary);
/// F9 loads that slot, in the game or from the menu.
pub fn quick_keys(
    actions: Query<&Actions>,
    state: Res<State<AppState>>,
    folders: Res<SaveFolders>,
    mut requests: ResMut<SaveRequests>,
    mut opener: FileOpener,
) {
    let pressed = |a: GameAction| actions.iter().any(|s| s.just_pressed(&a));
    if pressed(GameAction::QuickSave) && *state.get() == AppState::InGame {
        requests.0.push(QUICKSAVE.to_string());
    }
    if pressed(GameAction::QuickLoad) && *state.get() != AppState::Loading {
        match folders.slot(QUICKSAVE) {
            Ok(path) => {
                opener.open(&OpenFile::Save(path));
            }
            Err(e) => opener.status.fail(e),
        }
    }
}

/// The screenshot taken as the pause menu opens (before it is drawn), the thumbnail of
/// saves made from that menu.
fn pause_shot(folders: &SaveFolders) -> Option<PathBuf> {
    folders.saves.as_ref().map(|d| d.join(".pause.png"))
}

/// Writes a screenshot, scaled to [`THUMBNAIL`], to `path`.
fn shoot(commands: &mut Commands, path: PathBuf) {
    commands.spawn(Screenshot::primary_window()).observe(move |shot: On<ScreenshotCaptured>| {
        if let Err(e) = write_thumbnail(&shot.image, &path) {
            warn!("{}: thumbnail not written: {e}", path.display());
        }
    });
}

/// Writes `image` scaled to fit [`THUMBNAIL`] (its proportions kept) to `path` as PNG.
fn write_thumbnail(image: &Image, path: &std::path::Path) -> Result<(), String> {
    let image = image.clone().try_into_dynamic().map_err(|e| e.to_string())?;
    let [w, h] = THUMBNAIL;
    image.thumbnail(w, h).to_rgb8().save(path).map_err(|e| e.to_string())
}

/// Frames a new save's screenshot waits, so a save at a mission's start shows the world
/// drawn rather than its first frame.
pub const THUMBNAIL_DELAY: u32 = 30;

/// Takes the thumbnails: the picture of the game as the pause menu opens, and for
/// each save written that picture (saved from the pause menu) or a screenshot
/// [`THUMBNAIL_DELAY`] frames later.
pub fn thumbnails(
    mut commands: Commands,
    mut written: MessageReader<SaveWritten>,
    actions: Query<&Actions>,
    pause: Option<Res<State<Pause>>>,
    folders: Res<SaveFolders>,
    mut waiting: Local<Vec<(PathBuf, u32)>>,
) {
    let paused = pause.as_ref().is_some_and(|p| *p.get() == Pause::Paused);
    let opening = !paused && pause.is_some() && actions.iter().any(|a| a.just_pressed(&GameAction::Pause));
    if let Some(shot) = pause_shot(&folders).filter(|_| opening) {
        if let Some(dir) = shot.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        shoot(&mut commands, shot);
    }
    for w in written.read().filter(|w| w.kind == FileKind::Save) {
        let thumb = thumbnail_path(&w.path);
        match pause_shot(&folders).filter(|s| paused && s.exists()) {
            Some(shot) => {
                if let Err(e) = std::fs::copy(&shot, &thumb) {
                    warn!("{}: thumbnail not written: {e}", thumb.display());
                }
            }
            None => waiting.push((thumb, THUMBNAIL_DELAY)),
        }
    }
    waiting.retain_mut(|(thumb, frames)| {
        *frames = frames.saturating_sub(1);
        if *frames == 0 {
            shoot(&mut commands, std::mem::take(thumb));
        }
        *frames > 0
    });
}

/// The last save or load result on screen: an error until dismissed, a notice for a
/// few seconds.
pub fn notices(
    mut contexts: EguiContexts,
    mut status: ResMut<SaveStatus>,
    state: Res<State<AppState>>,
    locale: Res<Locale>,
    time: Res<Time<Real>>,
    mut shown: Local<Option<(String, f32)>>,
) -> Result {
    if status.is_changed()
        && let Some(n) = &status.notice
    {
        *shown = Some((n.clone(), time.elapsed_secs()));
    }
    let notice = shown.as_ref().filter(|(_, at)| time.elapsed_secs() - at < NOTICE_SECONDS).map(|(n, _)| n.clone());
    // The main menu shows errors in its own panel.
    let error = status.error.clone().filter(|_| *state.get() == AppState::InGame);
    if notice.is_none() && error.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("save_notice".into()).anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.set_max_width(420.0);
            if let Some(n) = notice {
                ui.label(n);
            }
            if let Some(e) = error {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
                if ui.button(locale.t("menu-dismiss")).clicked() {
                    status.error = None;
                }
            }
        });
    });
    Ok(())
}

/// The replay player's controls.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ReplayControls {
    /// Playback speed (1, 2, 4 or 8).
    pub speed: f32,
    /// Stopped.
    pub paused: bool,
    /// Fast-forwarding to this tick.
    pub seek: Option<u32>,
}

impl Default for ReplayControls {
    fn default() -> Self {
        Self { speed: 1.0, paused: false, seek: None }
    }
}

/// The game clock's speed for a replay: the chosen one, up to [`SEEK_SPEED`] while
/// seeking forward ([`seek_speed`]), stopped when paused, at the end, or past the tick
/// sought.
pub fn replay_clock(
    playback: Option<Res<ReplayPlayback>>,
    mut controls: ResMut<ReplayControls>,
    clock: Res<GameClock>,
    mut time: ResMut<Time<Virtual>>,
    fixed: Res<Time<Fixed>>,
    real: Res<Time<Real>>,
) {
    let Some(playback) = playback else {
        if time.relative_speed() != 1.0 || time.is_paused() || time.max_delta() != MAX_DELTA[0] {
            time.set_relative_speed(1.0);
            time.unpause();
            time.set_max_delta(MAX_DELTA[0]);
        }
        return;
    };
    if controls.seek.is_some_and(|s| clock.tick >= s) {
        controls.seek = None;
    }
    let speed = match controls.seek {
        Some(to) => seek_speed(to - clock.tick, fixed.overstep(), real.delta()),
        None => controls.speed,
    };
    let stop = (controls.paused && controls.seek.is_none()) || clock.tick >= playback.length();
    time.set_relative_speed(speed);
    time.set_max_delta(MAX_DELTA[1]);
    match stop {
        true if !time.is_paused() => time.pause(),
        false if time.is_paused() => time.unpause(),
        _ => {}
    }
}

/// The speed that runs the `ticks` left to a tick sought in the next frame, if it lasts
/// as long as the last one (`frame`), counting the fixed clock's `overstep` (at most
/// [`SEEK_SPEED`]): seeking lands on the tick rather than past it.
pub fn seek_speed(ticks: u32, overstep: Duration, frame: Duration) -> f32 {
    let wanted = Duration::from_millis(u64::from(ticks) * u64::from(iron3d_core::TICK_MS)).saturating_sub(overstep);
    match frame.is_zero() {
        true => SEEK_SPEED,
        false => (wanted.as_secs_f32() / frame.as_secs_f32()).min(SEEK_SPEED),
    }
}

/// A replay plays its own orders: the player's are dropped before each tick takes them.
pub fn drop_player_orders(mut player: ResMut<PlayerCommands>) {
    player.orders.clear();
    player.pilot = None;
}

/// What the replay panel changes.
#[derive(SystemParam)]
pub struct ReplayPanel<'w, 's> {
    playback: Res<'w, ReplayPlayback>,
    clock: Res<'w, GameClock>,
    cameras: Query<'w, 's, &'static mut GameCamera>,
    opener: FileOpener<'w, 's>,
}

/// The replay panel: mission, time and length, pause, speeds, the timeline (dragging
/// seeks: forward by fast-forwarding, backward by restarting), the free camera, and
/// whether the hashes reproduce.
pub fn replay_panel(mut contexts: EguiContexts, mut panel: ReplayPanel, locale: Res<Locale>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (tick, length) = (panel.clock.tick, panel.playback.length());
    let mut seek = None;
    egui::Area::new("replay".into()).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            let controls = &mut panel.opener.controls;
            ui.horizontal(|ui| {
                ui.strong(locale.tr("replay-title", &[("mission", panel.playback.record.mission.clone().into())]));
                ui.monospace(format!("{} / {}", slots::game_time(tick), slots::game_time(length)));
                let play = if controls.paused { "replay-play" } else { "replay-pause" };
                if ui.button(locale.t(play)).clicked() {
                    controls.paused = !controls.paused;
                }
                for s in SPEEDS {
                    if ui.selectable_label(controls.speed == s, format!("{s}x")).clicked() {
                        controls.speed = s;
                    }
                }
                let free = panel.cameras.iter().any(|c| c.mode == CameraMode::FreeFly);
                if ui.selectable_label(free, locale.t("replay-free-camera")).clicked() {
                    for mut cam in &mut panel.cameras {
                        cam.switch(if free { CameraMode::Rts } else { CameraMode::FreeFly });
                    }
                }
            });
            let mut at = controls.seek.unwrap_or(tick);
            ui.spacing_mut().slider_width = 420.0;
            let slider = ui.add(
                egui::Slider::new(&mut at, 0..=length.max(1))
                    .text(locale.tr("replay-tick", &[("length", length.into())]))
                    .clamping(egui::SliderClamping::Always),
            );
            if slider.drag_stopped() || (slider.changed() && !slider.dragged()) {
                seek = Some(at);
            }
            match (panel.playback.mismatch, panel.playback.hash_checks) {
                (Some(m), _) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, locale.tr("replay-diverged", &[("tick", m.tick.into())]))
                }
                (None, n) => ui.small(locale.tr("replay-checks", &[("count", n.into())])),
            };
        });
    });
    match seek {
        Some(at) if at < tick => {
            let playback = panel.playback.clone();
            panel.opener.restart(&playback, at);
        }
        Some(at) if at > tick => panel.opener.controls.seek = Some(at),
        _ => {}
    }
    Ok(())
}

/// The autosave interval follows the setting (minutes of game time, 0: off); changed
/// during a mission, the next autosave is one interval away.
pub fn apply_autosave(
    settings: Res<crate::settings::UserSettings>,
    mut autosave: ResMut<Autosave>,
    state: Res<State<AppState>>,
    clock: Res<GameClock>,
) {
    let ticks = autosave_ticks(settings.autosave_minutes);
    if settings.is_changed() && autosave.every_ticks != ticks {
        autosave.every_ticks = ticks;
        autosave.next_at = (ticks > 0 && *state.get() == AppState::InGame).then(|| clock.tick + ticks);
    }
}

/// Ticks in `minutes` of game time.
pub fn autosave_ticks(minutes: u32) -> u32 {
    minutes * 60_000 / iron3d_core::TICK_MS
}

/// The camera and interface state a save keeps (chunk `view`, RON): the camera rig and
/// the selection with the control groups.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewState {
    /// Mode: 0 RTS, 1 free fly, 2 following the unit `follow` (piloting comes back as RTS).
    pub mode: u8,
    /// The unit followed.
    pub follow: u32,
    /// The focus point.
    pub focus: [f32; 3],
    /// Distance from the focus.
    pub distance: f32,
    /// Heading.
    pub yaw: f32,
    /// Tilt.
    pub pitch: f32,
    /// Free-fly position.
    pub position: [f32; 3],
    /// Infrared view, spotlight.
    pub infrared: bool,
    /// The spotlight.
    pub spotlight: bool,
    /// Selected objects.
    pub selection: Vec<u32>,
    /// Control groups 1 to 9.
    pub groups: Vec<Vec<u32>>,
    /// The view modes, the front last (none in a save from before them: the mission's
    /// own start stands).
    #[serde(default)]
    pub views: Option<Vec<View>>,
}

impl ViewState {
    /// The state of a camera, a selection and the view modes.
    pub fn of(cam: &GameCamera, selection: &Selection, views: &Views) -> Self {
        let (mode, follow) = match cam.mode {
            CameraMode::FreeFly => (1, 0),
            CameraMode::Follow(u) => (2, u),
            CameraMode::Rts | CameraMode::FirstPerson(_) => (0, 0),
        };
        Self {
            mode,
            follow,
            focus: cam.focus.to_array(),
            distance: cam.distance,
            yaw: cam.yaw,
            pitch: cam.pitch,
            position: cam.position.to_array(),
            infrared: cam.infrared,
            spotlight: cam.spotlight,
            selection: selection.units.clone(),
            groups: selection.groups.to_vec(),
            views: Some(views.0.clone()),
        }
    }

    /// Puts the state on a camera and a selection (the view modes: [`ViewState::views`]).
    pub fn apply(&self, cam: &mut GameCamera, selection: &mut Selection) {
        cam.mode = match self.mode {
            1 => CameraMode::FreeFly,
            2 => CameraMode::Follow(self.follow),
            _ => CameraMode::Rts,
        };
        (cam.focus, cam.distance, cam.yaw, cam.pitch) = (self.focus.into(), self.distance, self.yaw, self.pitch);
        (cam.position, cam.infrared, cam.spotlight) = (self.position.into(), self.infrared, self.spotlight);
        cam.centering = false;
        selection.units.clone_from(&self.selection);
        for (group, ids) in selection.groups.iter_mut().zip(&self.groups) {
            group.clone_from(ids);
        }
    }
}

/// Keeps the camera and interface state current for the next save.
pub fn keep_view(
    cameras: Query<&GameCamera>,
    selection: Res<Selection>,
    views: Res<Views>,
    mut view: ResMut<SaveView>,
) {
    if let Ok(cam) = cameras.single() {
        let text = ron::to_string(&ViewState::of(cam, &selection, &views)).unwrap_or_default();
        view.0 = text.into_bytes();
    }
}

/// Puts a restored save's camera and interface state back (a state that does not read
/// is reported and the mission's framing stays).
pub fn apply_view(
    mut commands: Commands,
    restored: Res<RestoredView>,
    mut cameras: Query<&mut GameCamera>,
    mut selection: ResMut<Selection>,
    mut views: ResMut<Views>,
    mut status: ResMut<SaveStatus>,
) {
    commands.remove_resource::<RestoredView>();
    let parsed = std::str::from_utf8(&restored.0)
        .map_err(|e| e.to_string())
        .and_then(|t| ron::from_str::<ViewState>(t).map_err(|e| e.to_string()));
    match parsed {
        Ok(view) => {
            for mut cam in &mut cameras {
                view.apply(&mut cam, &mut selection);
            }
            if let Some(stack) = view.views {
                views.0 = stack;
            }
        }
        Err(e) => status.fail(format!("the save's camera and interface state (chunk view): {e}")),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]
    use super::*;
    use bevy::ecs::system::RunSystemOnce;
    use iron3d_mission::MissionRequest;
    use std::sync::Arc;

    /// A headless game of tutorial.01 with the saves and what opening a file needs.
    fn game() -> (App, Arc<iron3d_vfs::GameDir>) {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
        let game = Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = iron3d_sim::headless_app();
        let dir = std::env::temp_dir().join(format!("iron3d-ui-saves-{}", std::process::id()));
        app.insert_resource(SaveFolders::in_dir(dir))
            .add_plugins((iron3d_mission::MissionPlugin, iron3d_save::SavePlugin, iron3d_save::GameSavesPlugin))
            .insert_resource(iron3d_assets::GameData(Arc::clone(&game)))
            .init_resource::<ReplayControls>()
            .init_resource::<crate::menu::ChosenLevel>();
        iron3d_mission::load_headless(&mut app, &game, "tutorial.01").unwrap();
        (app, game)
    }

    fn open(app: &mut App, file: OpenFile) -> bool {
        app.world_mut().run_system_once(move |mut opener: FileOpener| opener.open(&file)).unwrap()
    }

    /// F9 (or the menu) on a damaged save during play shows the error and the running
    /// game goes on untouched, as does a replay of another engine version; a good save
    /// starts its mission to be restored.
    #[test]
    fn a_damaged_save_reports_and_the_running_game_goes_on() {
        let (mut app, _) = game();
        for _ in 0..5 {
            app.update();
        }
        let folders = app.world().resource::<SaveFolders>().clone();
        let path = folders.slot(QUICKSAVE).unwrap();
        app.world_mut().resource_mut::<SaveRequests>().0.push(QUICKSAVE.into());
        app.update();
        let mut bytes = std::fs::read(&path).unwrap();
        let good = bytes.clone();
        bytes[40] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let tick = app.world().resource::<GameClock>().tick;
        assert!(!open(&mut app, OpenFile::Save(path.clone())));
        let error = app.world().resource::<SaveStatus>().error.clone().unwrap();
        assert!(error.contains("quicksave.sav: header"), "{error}");
        app.update();
        assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::InGame, "still in the game");
        assert_eq!(app.world().resource::<GameClock>().tick, tick + 1, "the game goes on");
        assert!(!app.world().contains_resource::<PendingRestore>());

        // A replay of another engine version says so before it starts.
        let mut replay = iron3d_save::Record::capture(app.world(), FileKind::Replay, "tutorial.01", 32).unwrap();
        replay.engine_version = "0.0.1".into();
        let replay_path = folders.replays.as_ref().unwrap().join("old.rpl");
        slots::write_slot(&replay_path, &replay, 0).unwrap();
        assert!(!open(&mut app, OpenFile::Replay(replay_path)));
        let error = app.world().resource::<SaveStatus>().error.clone().unwrap();
        assert!(error.contains("recorded by engine version 0.0.1"), "{error}");
        assert!(!app.world().contains_resource::<ReplayPlayback>());

        std::fs::write(&path, &good).unwrap();
        assert!(open(&mut app, OpenFile::Save(path)));
        assert!(app.world().contains_resource::<PendingRestore>());
        assert_eq!(app.world().resource::<MissionRequest>().mission, "tutorial.01");
        app.update();
        assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::Loading);
        std::fs::remove_dir_all(folders.saves.unwrap().parent().unwrap()).unwrap();
    }

    /// The state hash of `tick` in `app`'s history.
    fn hash_at(app: &App, tick: u32) -> Option<u64> {
        let history = &app.world().resource::<iron3d_sim::StateHash>().history;
        history.iter().find(|(t, _)| *t == tick).map(|(_, h)| *h)
    }

    fn tick(app: &App) -> u32 {
        app.world().resource::<GameClock>().tick
    }

    /// Updates until a replay plays in the game with no seek pending.
    fn settle(app: &mut App) {
        for _ in 0..200 {
            app.update();
            let playing = *app.world().resource::<State<AppState>>().get() == AppState::InGame
                && app.world().contains_resource::<ReplayPlayback>();
            if playing && app.world().resource::<ReplayControls>().seek.is_none() {
                return;
            }
        }
        panic!("the replay never played");
    }

    /// The replay player at 1x, 2x, 4x and 8x runs that many ticks a frame (frames of one
    /// tick's length), pause stops the clock, and the timeline lands on the tick sought,
    /// forward (fast-forwarding) and back (restarting), with the recorded run's hashes
    /// there and no checkpoint missed.
    #[test]
    fn the_replay_player_plays_at_each_speed_pauses_and_seeks_both_ways() {
        let (mut app, _) = game();
        app.add_systems(Update, replay_clock);
        while tick(&app) < 160 {
            app.update();
        }
        let reference = app.world().resource::<iron3d_sim::StateHash>().history.clone();
        let record = iron3d_save::Record::capture(app.world(), FileKind::Replay, "tutorial.01", 4).unwrap();
        let folders = app.world().resource::<SaveFolders>().clone();
        let path = folders.replays.as_ref().unwrap().join("controls.rpl");
        slots::write_slot(&path, &record, 0).unwrap();
        assert!(open(&mut app, OpenFile::Replay(path)));
        settle(&mut app);
        let recorded = |t: u32| reference.iter().find(|(at, _)| *at == t).map(|(_, h)| *h);
        for speed in SPEEDS {
            app.world_mut().resource_mut::<ReplayControls>().speed = speed;
            app.update(); // the clock takes the speed for the next frame
            let before = tick(&app);
            app.update();
            assert_eq!(tick(&app) - before, speed as u32, "{speed}x");
        }
        app.world_mut().resource_mut::<ReplayControls>().paused = true;
        app.update();
        let paused_at = tick(&app);
        (0..3).for_each(|_| app.update());
        assert_eq!(tick(&app), paused_at, "paused");
        let forward = paused_at + 57;
        app.world_mut().resource_mut::<ReplayControls>().seek = Some(forward);
        settle(&mut app);
        assert_eq!(tick(&app), forward, "a forward seek lands on its tick (and stays paused)");
        assert_eq!(hash_at(&app, forward), recorded(forward));

        let back = 21;
        app.world_mut()
            .run_system_once(move |mut opener: FileOpener, playback: Res<ReplayPlayback>| {
                opener.restart(&playback, back);
            })
            .unwrap();
        settle(&mut app);
        assert_eq!(tick(&app), back, "a backward seek restarts and lands on its tick");
        let history = app.world().resource::<iron3d_sim::StateHash>().history.clone();
        assert!(history.iter().all(|(t, h)| recorded(*t) == Some(*h)), "every tick as recorded");
        let playback = app.world().resource::<ReplayPlayback>();
        assert!(playback.mismatch.is_none() && playback.hash_checks >= 5, "{:?}", playback.mismatch);
        std::fs::remove_dir_all(folders.saves.unwrap().parent().unwrap()).unwrap();
    }

    #[test]
    fn seeking_slows_for_the_last_frame() {
        let frame = Duration::from_millis(16);
        assert_eq!(seek_speed(1000, Duration::ZERO, frame), SEEK_SPEED);
        assert_eq!(seek_speed(3, Duration::ZERO, Duration::from_millis(64)), 3.0);
        assert_eq!(seek_speed(1, Duration::from_millis(32), frame), 2.0, "half a tick is banked");
        assert_eq!(seek_speed(5, Duration::ZERO, Duration::ZERO), SEEK_SPEED, "no frame yet");
    }

    /// A save written while the pause menu is open takes the picture taken as it opened;
    /// one written in play takes a screenshot [`THUMBNAIL_DELAY`] frames later; the
    /// picture is scaled to fit [`THUMBNAIL`].
    #[test]
    fn a_slot_gets_its_thumbnail() {
        let dir = std::env::temp_dir().join(format!("iron3d-ui-thumbs-{}", std::process::id()));
        let folders = SaveFolders::in_dir(dir.clone());
        let saves = folders.saves.clone().unwrap();
        std::fs::create_dir_all(&saves).unwrap();
        let mut app = App::new();
        app.add_message::<SaveWritten>().insert_resource(folders.clone()).add_systems(Update, thumbnails);
        let shots = |app: &mut App| app.world_mut().query::<&Screenshot>().iter(app.world()).count();
        let slot = saves.join("one.sav");
        app.world_mut().write_message(SaveWritten { path: slot.clone(), kind: FileKind::Save });
        for frame in 1..=THUMBNAIL_DELAY {
            app.update();
            assert_eq!(shots(&mut app), usize::from(frame == THUMBNAIL_DELAY), "frame {frame}");
        }
        let picture = Image::new_fill(
            bevy::render::render_resource::Extent3d { width: 640, height: 480, depth_or_array_layers: 1 },
            bevy::render::render_resource::TextureDimension::D2,
            &[200, 40, 10, 255],
            bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
            default(),
        );
        let shot = pause_shot(&folders).unwrap();
        write_thumbnail(&picture, &shot).unwrap();
        let png = std::fs::read(&shot).unwrap();
        let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        assert_eq!((&png[12..16], word(16), word(20)), (&b"IHDR"[..], 144, 108), "4:3 fits 192 x 108");
        app.insert_resource(State::new(Pause::Paused));
        let paused = saves.join("two.sav");
        app.world_mut().write_message(SaveWritten { path: paused.clone(), kind: FileKind::Save });
        app.update();
        assert_eq!(std::fs::read(thumbnail_path(&paused)).unwrap(), std::fs::read(&shot).unwrap(), "the pause picture");
        assert_eq!(shots(&mut app), 1, "no new screenshot");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The camera and interface state goes into a save and comes back.
    #[test]
    fn the_view_state_round_trips() {
        let cam = GameCamera { mode: CameraMode::Follow(7), yaw: 1.25, infrared: true, ..default() };
        let selection = Selection { units: vec![3, 7], groups: std::array::from_fn(|i| vec![i as u32]) };
        let views = Views(vec![View::OnFoot(2), View::Bunker(9), View::Telepresence(7)]);
        let view = ViewState::of(&cam, &selection, &views);
        let back: ViewState = ron::from_str(&ron::to_string(&view).unwrap()).unwrap();
        let (mut cam2, mut selection2) = (GameCamera::default(), Selection::default());
        back.apply(&mut cam2, &mut selection2);
        assert_eq!((cam2.mode, cam2.yaw, cam2.infrared), (CameraMode::Follow(7), 1.25, true));
        assert_eq!((selection2.units, selection2.groups), (selection.units, selection.groups));
        assert_eq!(back.views, Some(views.0), "the view modes");
        // A save from before the view modes keeps the mission's own start.
        let old = ron::to_string(&view).unwrap().replace(",views:Some([OnFoot(2),Bunker(9),Telepresence(7)])", "");
        assert!(!old.contains("views"), "{old}");
        assert_eq!(ron::from_str::<ViewState>(&old).unwrap().views, None);
    }
}
