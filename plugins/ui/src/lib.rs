//! The game's screens and the player's side of a mission (bevy_egui): the main menu
//! with the mission list of the data directory, the loading screen with per-phase
//! progress, load errors with their chain, the HUD (economy, selection, research,
//! messages), the minimap, selection and orders on the map, the commander panel's icon
//! column in a command view, piloting a robot, the
//! pause menu, settings (video, input, key bindings) kept in the user's config
//! directory, the F3 debug overlay, the outcome screen and the campaign progress; the
//! save and load pages with their slots, quick save and load, the replays list and
//! the replay player; the briefing before a mission, the game's own text
//! (`TextRes.cfg`, mission messages and loading tips), multiplayer chat, and the
//! interface's text in English and Russian (Fluent).

mod briefing;
mod campaign;
mod chat;
mod cockpit;
mod command;
mod commander;
mod cursor;
mod designer;
mod game_text;
mod help;
mod hero;
mod hq_menu;
mod hud;
mod locale;
mod menu;
mod minimap;
mod mission_menu;
mod multiplayer;
mod objectives;
mod outcome;
mod overlay;
mod pilot;
mod save_menu;
mod saves;
mod screen;
mod settings;
mod site;
mod target;
mod views;
mod wingmen;

pub use hero::StrategicStart;
pub use saves::OpenFile;
pub use views::{View, Views};

use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use iron3d_core::AppState;
use iron3d_input::{PlayerCommands, Selection};

/// The screens drawn in `EguiPrimaryContextPass`, in order (a later one draws over an
/// earlier one).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ScreenSystems {
    /// The interface scale.
    Scale,
    /// The main menu.
    MainMenu,
    /// The briefing before a mission.
    Briefing,
    /// The loading screen.
    Loading,
    /// The map's orders, the HUD, the minimap, the build panel and the session panel.
    InGame,
    /// The replay player.
    Replay,
    /// The pause menu.
    Pause,
    /// Save and load notices.
    Notices,
    /// The outcome screen.
    Outcome,
    /// The F3 debug overlay.
    Overlay,
}

/// The game screens. `autostart` loads that mission immediately (`--mission`), `open`
/// that save or replay (`--load`, `--replay`). Needs `iron3d_save`'s `SavePlugin` and
/// `GameSavesPlugin`.
#[derive(Debug, Default, Clone)]
pub struct UiPlugin {
    /// Mission to load at start-up.
    pub autostart: Option<String>,
    /// Save or replay to open at start-up.
    pub open: Option<OpenFile>,
    /// Whether missions open in the strategic view rather than with the hero on foot.
    pub strategic_start: StrategicStart,
}

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        app.insert_resource(saves::StartupFile(self.open.clone()))
            .insert_resource(menu::Autostart(self.autostart.clone()))
            .insert_resource(self.strategic_start)
            .configure_sets(
                EguiPrimaryContextPass,
                (
                    ScreenSystems::Scale,
                    ScreenSystems::MainMenu,
                    ScreenSystems::Briefing,
                    ScreenSystems::Loading,
                    ScreenSystems::InGame,
                    ScreenSystems::Replay,
                    ScreenSystems::Pause,
                    ScreenSystems::Notices,
                    ScreenSystems::Outcome,
                    ScreenSystems::Overlay,
                )
                    .chain(),
            )
            .add_systems(OnExit(AppState::InGame), leave_mission)
            .add_plugins((
                (settings::plugin, locale::plugin, screen::plugin, overlay::plugin),
                (menu::plugin, briefing::plugin, campaign::plugin, game_text::plugin),
                (
                    pilot::plugin,
                    hero::plugin,
                    objectives::plugin,
                    views::plugin,
                    wingmen::plugin,
                    hq_menu::plugin,
                    command::plugin,
                    site::plugin,
                    designer::plugin,
                    hud::plugin,
                    minimap::plugin,
                    commander::plugin,
                    cursor::plugin,
                    multiplayer::plugin,
                    outcome::plugin,
                ),
                (save_menu::plugin, saves::plugin, chat::plugin, cockpit::plugin, target::plugin, help::plugin),
            ));
    }
}

/// Leaving a mission forgets its selection, orders in flight, outcome, map and texts.
fn leave_mission(
    mut commands: Commands,
    mut dismissed: ResMut<outcome::OutcomeDismissed>,
    mut selection: ResMut<Selection>,
    mut player: ResMut<PlayerCommands>,
    mut map: ResMut<command::MapCommand>,
    mut hud: ResMut<hud::HudState>,
    mut minimap: ResMut<minimap::Minimap>,
) {
    commands.remove_resource::<game_text::MissionText>();
    dismissed.0 = false;
    *selection = Selection::default();
    *player = PlayerCommands::default();
    *map = command::MapCommand::default();
    *hud = hud::HudState::default();
    *minimap = minimap::Minimap::default();
}
