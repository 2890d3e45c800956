//! The mission's weather: its schedule read from `MISSIONS/<name>/weather.ron` when the
//! game starts (a mission folder without one takes `weather.ron` at the root of the
//! data, the project's default schedule from its layer, unless a higher layer replaces
//! it), the game-time clock (virtual time, frozen while paused) and the intensities of
//! the current frame. `sky.ske` is never parsed (its layout is undocumented); without a
//! readable schedule the weather stays off and the log says why.

use crate::WeatherSystems;
use crate::schedule::{FILE_NAME, Intensity, WeatherSchedule};
use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_core::{AppState, GameClock, MissionStart, Pause};
use iron3d_formats::world::mission_graph::SKY_SCHEDULE;
use iron3d_mission::LoadedMission;
use iron3d_vfs::GameDir;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MissionWeather>()
        .register_type::<MissionWeather>()
        .add_systems(OnEnter(AppState::InGame), open.in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), close.after(crate::sky::close))
        .add_systems(PostUpdate, advance.in_set(WeatherSystems::Clock));
}

/// The weather of the open mission.
#[derive(Resource, Reflect, Debug, Clone, Default)]
#[reflect(Resource)]
pub struct MissionWeather {
    /// The schedule (`None`: weather off).
    #[reflect(ignore)]
    pub schedule: Option<WeatherSchedule>,
    /// Why the weather is on or off (also logged).
    pub status: String,
    /// Game time since the mission started (seconds; stops on pause).
    pub seconds: f32,
    /// Game time of this frame (seconds; 0 while paused).
    pub step: f32,
    /// This frame's intensities.
    pub intensity: Intensity,
}

impl MissionWeather {
    /// Weather following `schedule` from mission time 0.
    pub fn with_schedule(schedule: WeatherSchedule, status: String) -> Self {
        let intensity = schedule.intensity_at(0.0);
        Self { schedule: Some(schedule), status, intensity, ..default() }
    }

    /// Advances the clock by `dt` seconds and samples the schedule.
    pub fn advance(&mut self, dt: f32) {
        self.step = dt;
        self.seconds += dt;
        self.intensity = self.schedule.as_ref().map_or_else(Intensity::default, |s| s.intensity_at(self.seconds));
    }
}

/// Reads the schedule of the mission in `folder` (a game path, `MISSIONS/...`) from
/// `game`: the weather, and why.
pub fn read_schedule(game: &GameDir, folder: &str) -> MissionWeather {
    let own = format!("{folder}/{FILE_NAME}");
    if game.resolve(&own).is_some() {
        return parse_schedule(game, &own, String::new());
    }
    let ske = if game.resolve(&format!("{folder}/{SKY_SCHEDULE}")).is_some() {
        "sky.ske is present but its layout is undocumented (kept raw, not read)"
    } else {
        "no sky.ske either"
    };
    if game.resolve(FILE_NAME).is_some() {
        let layer = game.layer_of(FILE_NAME).unwrap_or_else(|| "game".into());
        return parse_schedule(game, FILE_NAME, format!(" of layer {layer}: {own} not found; {ske}"));
    }
    MissionWeather { status: format!("weather off: {own} not found, nor a default {FILE_NAME}; {ske}"), ..default() }
}

/// Reads the schedule at `path`; `why` follows its name in the status.
fn parse_schedule(game: &GameDir, path: &str, why: String) -> MissionWeather {
    let off = |status: String| MissionWeather { status, ..default() };
    let text = match game.read_file(path).map(String::from_utf8) {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => {
            return off(format!("weather off: {path}: not UTF-8 text at byte {}", e.utf8_error().valid_up_to()));
        }
        Err(e) => return off(format!("weather off: {e}")),
    };
    match WeatherSchedule::parse(path, &text) {
        Ok(schedule) => {
            let status = format!("weather from {path}{why} ({} keys)", schedule.keys.len());
            MissionWeather::with_schedule(schedule, status)
        }
        Err(e) => off(format!("weather off: {e}")),
    }
}

/// Reads the mission's schedule when the game starts.
pub(crate) fn open(mut commands: Commands, mission: Option<Res<LoadedMission>>, game: Option<Res<GameData>>) {
    let weather = match (mission, game) {
        (Some(mission), Some(game)) => read_schedule(&game.0, &mission.folder),
        _ => MissionWeather { status: "weather off: no mission or game directory".into(), ..default() },
    };
    if weather.schedule.is_some() {
        info!(target: "weather", "{}", weather.status);
    } else {
        warn!(target: "weather", "{}", weather.status);
    }
    commands.insert_resource(weather);
}

/// Closing the game forgets the weather.
pub(crate) fn close(mut commands: Commands) {
    commands.insert_resource(MissionWeather::default());
}

/// Seconds the game clock may run ahead of the weather clock before the weather takes
/// its time.
const CATCH_UP: f32 = 1.0;

/// Advances the weather clock by this frame's game time (none while paused). A game
/// clock more than [`CATCH_UP`] ahead (a joined game that took the host's time, a loaded
/// save) sets it: the weather is the mission's at that time (the project's own rule).
pub(crate) fn advance(
    mut weather: ResMut<MissionWeather>,
    time: Res<Time<Virtual>>,
    pause: Option<Res<State<Pause>>>,
    clock: Option<Res<GameClock>>,
) {
    let running = pause.is_none_or(|p| *p.get() == Pause::Running);
    let delta = if running { time.delta_secs() } else { 0.0 };
    let game = clock.map_or(0.0, |c| c.time_ms as f32 / 1000.0);
    let step = frame_step(weather.seconds, delta, game);
    weather.advance(step);
}

/// This frame's weather step: the frame's game time, or up to the game clock when it
/// is more than [`CATCH_UP`] ahead.
fn frame_step(weather: f32, delta: f32, game: f32) -> f32 {
    if game - (weather + delta) > CATCH_UP { game - weather } else { delta }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_vfs::{Layer, LayerKind};

    #[test]
    fn the_weather_clock_catches_up_with_a_game_clock_far_ahead() {
        assert_eq!(frame_step(10.0, 0.016, 10.5), 0.016, "a little ahead: the frame's time");
        assert_eq!(frame_step(10.0, 0.0, 10.5), 0.0, "paused");
        assert_eq!(frame_step(2.0, 0.016, 300.0), 298.0, "a joined game's host time");
        assert_eq!(frame_step(10.0, 0.016, 3.0), 0.016, "never back");
    }

    #[test]
    fn the_clock_samples_the_schedule_in_game_time() {
        let schedule = crate::tests::schedule(&[(0.0, 0.0), (10.0, 1.0)]);
        let mut w = MissionWeather::with_schedule(schedule, String::new());
        w.advance(2.5);
        w.advance(0.0);
        assert_eq!((w.seconds, w.step), (2.5, 0.0));
        assert!((w.intensity.rain - 0.25).abs() < 1e-6);
        let mut off = MissionWeather::default();
        off.advance(5.0);
        assert_eq!(off.intensity, Intensity::default(), "no schedule, no weather");
    }

    #[test]
    fn without_a_readable_schedule_the_weather_is_off_and_says_why() {
        let root = std::env::temp_dir().join(format!("iron3d-weather-{}", std::process::id()));
        let dir = root.join("MISSIONS/m.01");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sky.ske"), [1u8, 2, 3]).unwrap();
        let open = || GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap();
        let w = read_schedule(&open(), "MISSIONS/m.01");
        assert!(w.schedule.is_none());
        assert!(w.status.contains("weather.ron not found") && w.status.contains("sky.ske is present"), "{}", w.status);
        std::fs::write(dir.join(FILE_NAME), "(version: 1, origin: Project, keys: [])").unwrap();
        let w = read_schedule(&open(), "MISSIONS/m.01");
        assert!(w.schedule.is_none());
        assert!(w.status.contains("MISSIONS/m.01/weather.ron") && w.status.contains("1:"), "located: {}", w.status);
        let tree = iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap();
        std::fs::write(dir.join(FILE_NAME), tree.get("MISSIONS/tutorial.01/weather.ron").unwrap()).unwrap();
        let w = read_schedule(&open(), "MISSIONS/m.01");
        assert!(w.schedule.is_some(), "{}", w.status);
        assert!(w.intensity.rain > 0.0, "sampled at mission time 0");
        // A mission folder without one takes the project layer's default.
        std::fs::remove_file(dir.join(FILE_NAME)).unwrap();
        let project = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/rules"));
        let layers = [Layer::new(LayerKind::Project, project), Layer::new(LayerKind::Game, &root)];
        let stacked = GameDir::open_layers(&layers, iron3d_formats::ReadOptions::compatible()).unwrap();
        let w = read_schedule(&stacked, "MISSIONS/m.01");
        let default = WeatherSchedule::parse("default", &std::fs::read_to_string(project.join(FILE_NAME)).unwrap());
        assert_eq!(w.schedule, Some(default.unwrap()), "{}", w.status);
        assert!(
            w.status.contains("weather.ron of layer project") && w.status.contains("sky.ske is present"),
            "{}",
            w.status
        );
        let w = read_schedule(&open(), "MISSIONS/m.01");
        assert!(w.schedule.is_none() && w.status.contains("nor a default weather.ron"), "{}", w.status);
        let _ = std::fs::remove_dir_all(root);
    }
}
