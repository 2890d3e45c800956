//! The game's screens (bevy_egui): main menu with the mission list of the data
//! directory, loading screen with per-phase progress, load errors with their chain,
//! in-mission HUD, pause menu, settings, and the F3 debug overlay.

mod hud;
mod menu;
mod overlay;
mod screen;

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
            .register_type::<Settings>()
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
                    overlay::overlay,
                )
                    .chain(),
            );
    }
}
