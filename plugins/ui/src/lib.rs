//! The game's screens and the player's side of a mission (bevy_egui): the main menu
//! with the mission list of the data directory, the loading screen with per-phase
//! progress, load errors with their chain, the HUD (economy, selection, research,
//! messages), the minimap, selection and orders on the map, piloting a robot, the
//! pause menu, settings (video, input, key bindings) kept in the user's config
//! directory, the F3 debug overlay, the outcome screen and the campaign progress; the
//! save and load pages with their slots, quick save and load, the replays list and
//! the replay player; the briefing before a mission, the game's own text
//! (`TextRes.cfg`, mission messages and loading tips), multiplayer chat, and the
//! interface's text in English and Russian (Fluent).

pub mod briefing;

pub mod campaign;
pub mod chat;
pub mod command;
pub mod game_text;
pub mod hud;
pub mod locale;
mod menu;
pub mod minimap;
mod mission_menu;
pub mod multiplayer;
pub mod outcome;
mod overlay;
mod pilot;
pub mod save_menu;
pub mod saves;
mod screen;
pub mod settings;

pub use command::{MapCommand, PICK_RADIUS, formation, ground_point, order_at, pick, player_clan};
pub use settings::{SettingsFile, UserSettings, VideoSettings, WindowChoice};

use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use iron3d_core::{AppState, InputPhase, MissionStart, Pause};
use iron3d_input::{PlayerCommands, Selection};
use iron3d_save::ReplayPlayback;

/// The game screens. `autostart` loads that mission immediately (`--mission`), `open`
/// that save or replay (`--load`, `--replay`). Needs `iron3d_save`'s `SavePlugin` and
/// `GameSavesPlugin`.
#[derive(Debug, Default, Clone)]
pub struct UiPlugin {
    /// Mission to load at start-up.
    pub autostart: Option<String>,
    /// Save or replay to open at start-up.
    pub open: Option<saves::OpenFile>,
}

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
            app.add_plugins(FrameTimeDiagnosticsPlugin::default());
        }
        app.init_resource::<UserSettings>()
            .init_resource::<locale::Locale>()
            .init_resource::<SettingsFile>()
            .init_resource::<menu::MenuState>()
            .init_resource::<MapCommand>()
            .init_resource::<hud::HudState>()
            .init_resource::<minimap::Minimap>()
            .init_resource::<outcome::OutcomeDismissed>()
            .register_type::<UserSettings>()
            .register_type::<SettingsFile>()
            .register_type::<MapCommand>()
            .register_type::<hud::HudState>()
            .register_type::<minimap::Minimap>()
            .init_resource::<multiplayer::MultiplayerForm>()
            .init_resource::<chat::ChatInput>()
            .init_resource::<save_menu::SaveBrowser>()
            .init_resource::<hud::PausePage>()
            .init_resource::<saves::ReplayControls>()
            .init_resource::<iron3d_save::SaveView>()
            .insert_resource(saves::StartupFile(self.open.clone()))
            .add_systems(OnEnter(Pause::Paused), hud::open_pause_menu)
            .add_systems(
                Update,
                (
                    saves::open_startup_file.after(menu::autostart),
                    saves::quick_keys,
                    saves::thumbnails,
                    save_menu::relist,
                    saves::replay_clock,
                    saves::apply_autosave,
                    saves::keep_view.run_if(in_state(AppState::InGame)),
                    saves::apply_view.run_if(resource_exists::<iron3d_save::RestoredView>),
                ),
            )
            .add_systems(
                FixedUpdate,
                saves::drop_player_orders.run_if(resource_exists::<ReplayPlayback>).before(InputPhase::Commands),
            )
            .add_systems(Startup, (campaign::load, settings::load, game_text::load_table))
            .add_systems(OnEnter(AppState::Loading), game_text::load_mission)
            .add_systems(OnExit(AppState::InGame), leave_mission)
            .add_systems(
                Update,
                game_text::raise.run_if(in_state(Pause::Running).and_then(resource_exists::<game_text::MissionText>)),
            )
            .add_systems(Update, campaign::apply_outcome.run_if(in_state(AppState::InGame)))
            .add_systems(OnEnter(AppState::InGame), campaign::begin.in_set(MissionStart::Present))
            .add_systems(
                Update,
                (pilot::pilot, command::command, hud::messages, hud::economy).chain().run_if(in_state(Pause::Running)),
            )
            .insert_resource(menu::Autostart(self.autostart.clone()))
            .add_systems(Update, (menu::autostart, hud::toggle_pause, overlay::toggle, settings::apply, locale::apply))
            .add_systems(Update, (chat::open, chat::to_hud.after(hud::messages)).run_if(in_state(AppState::InGame)))
            .add_systems(
                EguiPrimaryContextPass,
                (
                    screen::apply_scale,
                    menu::main_menu
                        .run_if(in_state(AppState::MainMenu).and_then(not(resource_exists::<briefing::Briefing>))),
                    briefing::screen
                        .run_if(in_state(AppState::MainMenu).and_then(resource_exists::<briefing::Briefing>)),
                    menu::loading.run_if(in_state(AppState::Loading)),
                    (
                        command::draw,
                        hud::hud,
                        minimap::minimap,
                        command::build_panel,
                        multiplayer::session_panel,
                        chat::window,
                    )
                        .run_if(in_state(AppState::InGame)),
                    saves::replay_panel.run_if(in_state(AppState::InGame).and_then(resource_exists::<ReplayPlayback>)),
                    hud::pause_menu.run_if(in_state(Pause::Paused)),
                    saves::notices,
                    outcome::screen.run_if(in_state(AppState::InGame)),
                    overlay::overlay,
                )
                    .chain(),
            );
    }
}

/// Leaving a mission forgets its selection, orders in flight, outcome, map and texts.
fn leave_mission(
    mut commands: Commands,
    mut dismissed: ResMut<outcome::OutcomeDismissed>,
    mut selection: ResMut<Selection>,
    mut player: ResMut<PlayerCommands>,
    mut map: ResMut<MapCommand>,
    mut hud: ResMut<hud::HudState>,
    mut minimap: ResMut<minimap::Minimap>,
) {
    commands.remove_resource::<game_text::MissionText>();
    dismissed.0 = false;
    *selection = Selection::default();
    *player = PlayerCommands::default();
    *map = MapCommand::default();
    *hud = hud::HudState::default();
    *minimap = minimap::Minimap::default();
}
