//! The game's screens (bevy_egui): main menu with the mission list of the data
//! directory, loading screen with per-phase progress, load errors with their chain,
//! in-mission HUD, pause menu, settings, and the F3 debug overlay with its debug order
//! command (select a unit, send it to a clicked point or at an enemy), the outcome
//! screen, and the campaign progress in the user's data directory.

pub mod campaign;
mod hud;
mod menu;
mod orders;
pub mod outcome;
mod overlay;
mod screen;

pub use orders::{Click, DebugSelection, PICK_RADIUS, click, ground_point, nearest_unit, send};

use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use iron3d_core::{AppState, Pause};

/// User settings edited on the settings screen.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct Settings {
    /// Scale of every screen.
    pub ui_scale: f32,
    /// Show the debug overlay.
    pub overlay: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self { ui_scale: 1.0, overlay: false }
    }
}

/// The game screens. `autostart` loads that mission immediately (`--mission`).
#[derive(Debug, Default, Clone)]
pub struct UiPlugin {
    /// Mission to load at start-up.
    pub autostart: Option<String>,
}

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        app.init_resource::<Settings>()
            .init_resource::<menu::MenuState>()
            .init_resource::<DebugSelection>()
            .init_resource::<outcome::OutcomeDismissed>()
            .add_systems(Startup, campaign::load)
            .add_systems(OnExit(AppState::InGame), |mut d: ResMut<outcome::OutcomeDismissed>| d.0 = false)
            .add_systems(Update, outcome::record.run_if(in_state(AppState::InGame)))
            .register_type::<Settings>()
            .register_type::<DebugSelection>()
            .add_systems(OnExit(AppState::InGame), |mut s: ResMut<DebugSelection>| *s = DebugSelection::default())
            .add_systems(Update, orders::command.run_if(in_state(Pause::Running)))
            .insert_resource(menu::Autostart(self.autostart.clone()))
            .add_systems(Update, (menu::autostart, hud::toggle_pause, overlay::toggle))
            .add_systems(
                EguiPrimaryContextPass,
                (
                    screen::apply_scale,
                    menu::main_menu.run_if(in_state(AppState::MainMenu)),
                    menu::loading.run_if(in_state(AppState::Loading)),
                    hud::hud.run_if(in_state(AppState::InGame)),
                    hud::pause_menu.run_if(in_state(Pause::Paused)),
                    outcome::screen.run_if(in_state(AppState::InGame)),
                    overlay::overlay,
                    orders::draw.run_if(in_state(AppState::InGame)),
                    orders::build_panel.run_if(in_state(Pause::Running)),
                )
                    .chain(),
            );
    }
}
