//! The player's settings (`docs/reference/runtime.md` §2.4–§2.5): interface scale, video (window
//! mode, resolution, vsync), sound (bus volumes, mute) and input (mouse and gamepad sensitivity and inversion),
//! kept as `settings.ron` in the user's config directory and applied live. Without a
//! file, the input options start from the game's `Iron_3D.ini` (`MOUSE_SENS`,
//! `JOY_SENS`, `MOUSE_REV_Y`, `JOY_REV_Y`); its 1998 display keys are not used (the
//! window comes from `--window` / `--fullscreen` or this file). The interface language
//! (the system's by default) and the autosave interval are kept here too. A change is
//! saved one second after the last edit.

use crate::locale::LanguageSetting;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PresentMode, PrimaryWindow, WindowMode};
use iron3d_audio::AudioSettings;
use iron3d_formats::config::IniFile;
use iron3d_input::InputSettings;
use iron3d_render::Shading;
use iron3d_vfs::user_files::{self, Versioned};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UserSettings>()
        .init_resource::<SettingsFile>()
        .register_type::<UserSettings>()
        .register_type::<SettingsFile>()
        .add_systems(Startup, load)
        .add_systems(Update, apply);
}

/// The file name in the config directory.
pub const FILE: &str = "settings.ron";
/// Seconds after the last change before the file is written.
pub const SAVE_DELAY: f32 = 1.0;
/// The autosave interval by default, minutes of game time.
pub const AUTOSAVE_MINUTES: u32 = 5;
/// The autosave intervals offered (0: off).
pub const AUTOSAVE_CHOICES: [u32; 5] = [0, 2, 5, 10, 15];

/// How the window is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, Serialize, Deserialize)]
pub enum WindowChoice {
    /// A window of `VideoSettings::resolution`.
    #[default]
    Windowed,
    /// Borderless, covering the primary monitor.
    Borderless,
}

/// Video settings.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, Serialize, Deserialize)]
#[serde(default)]
pub struct VideoSettings {
    /// Window mode.
    pub mode: WindowChoice,
    /// Window size in physical pixels (windowed).
    pub resolution: [u32; 2],
    /// Wait for the display's refresh (option 104, "Wait for retrace").
    pub vsync: bool,
    /// Terrain and model shading (fast on a software renderer by default).
    pub shading: Shading,
}

impl Default for VideoSettings {
    fn default() -> Self {
        Self { mode: WindowChoice::Windowed, resolution: [1280, 720], vsync: true, shading: Shading::Auto }
    }
}

/// Everything the settings screen edits.
#[derive(Resource, Debug, Clone, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Resource)]
#[serde(default)]
pub struct UserSettings {
    /// File version.
    pub version: u32,
    /// Scale of every screen.
    pub ui_scale: f32,
    /// Video.
    pub video: VideoSettings,
    /// Sound.
    pub audio: AudioSettings,
    /// Mouse and gamepad.
    pub input: InputSettings,
    /// The interface's language (absent from older files: the system's).
    pub language: LanguageSetting,
    /// Minutes of game time between autosaves, 0 for none (absent from older files:
    /// [`AUTOSAVE_MINUTES`]).
    pub autosave_minutes: u32,
    /// Show the F3 debug overlay (this session only).
    #[serde(skip)]
    pub overlay: bool,
}

impl Default for UserSettings {
    fn default() -> Self {
        Self {
            version: Self::VERSION,
            ui_scale: 1.0,
            video: VideoSettings::default(),
            audio: AudioSettings::default(),
            input: InputSettings::default(),
            language: LanguageSetting::System,
            autosave_minutes: AUTOSAVE_MINUTES,
            overlay: false,
        }
    }
}

impl Versioned for UserSettings {
    const VERSION: u32 = 1;
    fn version(&self) -> u32 {
        self.version
    }
}

impl UserSettings {
    /// The defaults, with the input options of an `Iron_3D.ini` (`[CS]`).
    pub fn from_ini(ini: &IniFile) -> Self {
        let mut s = Self::default();
        let int = |key: &str| ini.get(Some("CS"), key).and_then(|v| v.as_int());
        let percent = |v: i64| u32::try_from(v.clamp(1, 1000)).unwrap_or(100);
        if let Some(v) = int("MOUSE_SENS") {
            s.input.mouse_sensitivity = percent(v);
        }
        if let Some(v) = int("JOY_SENS") {
            s.input.stick_sensitivity = percent(v);
        }
        s.input.invert_mouse_y = int("MOUSE_REV_Y").is_some_and(|v| v != 0);
        s.input.invert_stick_y = int("JOY_REV_Y").is_some_and(|v| v != 0);
        s
    }
}

/// Where the settings are kept and whether they wait to be saved.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct SettingsFile {
    /// The file (none without a config directory).
    pub path: Option<std::path::PathBuf>,
    /// Seconds since the last unsaved change.
    pub unsaved: Option<f32>,
    /// The last load or save error.
    pub error: Option<String>,
    /// The window was chosen on the command line: the saved video settings wait until
    /// the player changes them.
    pub window_from_cli: bool,
}

/// Loads the settings at start-up: the user's file, else the defaults of the game's
/// `Iron_3D.ini`, else the built-in defaults.
pub fn load(mut commands: Commands, game: Option<Res<iron3d_assets::GameData>>, mut file: ResMut<SettingsFile>) {
    file.path = user_files::config_dir().map(|d| d.join(FILE));
    let saved = match file.path.as_deref().map(user_files::read::<UserSettings>) {
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            warn!("settings: {e}; using the defaults");
            file.error = Some(e);
            None
        }
        None => None,
    };
    let ini = || game.as_ref().and_then(|g| g.0.read("Iron_3D.ini").ok()).map(|b| IniFile::parse(&b));
    let has_file = saved.is_some();
    let settings = saved.or_else(|| ini().map(|i| UserSettings::from_ini(&i))).unwrap_or_default();
    if !has_file {
        file.window_from_cli = true;
    }
    commands.insert_resource(settings.input);
    commands.insert_resource(settings.audio.clone());
    commands.insert_resource(settings);
}

/// Applies changed settings to the window and the input, and saves them after a pause.
pub fn apply(
    settings: Res<UserSettings>,
    mut file: ResMut<SettingsFile>,
    mut input: ResMut<InputSettings>,
    mut audio: ResMut<AudioSettings>,
    mut shading: ResMut<Shading>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    time: Res<Time<Real>>,
) {
    if settings.is_changed() {
        input.set_if_neq(settings.input);
        audio.set_if_neq(settings.audio.clone());
        shading.set_if_neq(settings.video.shading);
        if !settings.is_added() {
            file.unsaved = Some(0.0);
            file.window_from_cli = false;
        }
        if !file.window_from_cli {
            for mut w in &mut windows {
                apply_video(&mut w, &settings.video);
            }
        }
    }
    let Some(age) = file.unsaved.as_mut() else { return };
    *age += time.delta_secs();
    if *age < SAVE_DELAY {
        return;
    }
    file.unsaved = None;
    file.error = file.path.as_deref().and_then(|p| user_files::write(p, settings.as_ref()).err());
    if let Some(e) = &file.error {
        warn!("settings not saved: {e}");
    }
}

/// Puts video settings on a window (only what differs).
pub fn apply_video(w: &mut Window, video: &VideoSettings) {
    let mode = match video.mode {
        WindowChoice::Windowed => WindowMode::Windowed,
        WindowChoice::Borderless => WindowMode::BorderlessFullscreen(MonitorSelection::Primary),
    };
    if w.mode != mode {
        w.mode = mode;
    }
    let [width, height] = video.resolution;
    if video.mode == WindowChoice::Windowed
        && (w.resolution.physical_width(), w.resolution.physical_height()) != (width, height)
    {
        w.resolution.set_physical_resolution(width, height);
    }
    let present = if video.vsync { PresentMode::AutoVsync } else { PresentMode::AutoNoVsync };
    if w.present_mode != present {
        w.present_mode = present;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_ini_gives_the_input_defaults_and_the_file_round_trips() {
        let ini = IniFile::parse(
            b"[CS]\r\nDISPLAY_WIDTH = 640\r\nMOUSE_SENS = 150\r\nJOY_SENS = 80\r\nMOUSE_REV_Y = 1\r\nJOY_REV_Y = 0\r\n",
        );
        let s = UserSettings::from_ini(&ini);
        assert_eq!((s.input.mouse_sensitivity, s.input.stick_sensitivity), (150, 80));
        assert!(s.input.invert_mouse_y && !s.input.invert_stick_y);
        assert_eq!(s.video, VideoSettings::default(), "the display keys are not used");
        let dir = std::env::temp_dir().join(format!("iron3d-settings-{}", std::process::id()));
        let path = dir.join(FILE);
        user_files::write(&path, &s).unwrap();
        let back = user_files::read::<UserSettings>(&path).unwrap().unwrap();
        assert_eq!(back, s);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn video_settings_reach_the_window() {
        let mut w = Window::default();
        apply_video(
            &mut w,
            &VideoSettings { mode: WindowChoice::Windowed, resolution: [800, 600], vsync: false, ..default() },
        );
        assert_eq!((w.resolution.physical_width(), w.resolution.physical_height()), (800, 600));
        assert_eq!(w.present_mode, PresentMode::AutoNoVsync);
        apply_video(&mut w, &VideoSettings { mode: WindowChoice::Borderless, ..Default::default() });
        assert!(matches!(w.mode, WindowMode::BorderlessFullscreen(_)));
    }
}
