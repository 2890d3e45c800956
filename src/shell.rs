//! The desktop shell: window, camera, the placeholder main menu over the game
//! directory (or the EU7B scenery viewer with `--eu7`), the F12 inspector, and the
//! `--screenshot` / `--exit-after-frames` hooks.

use crate::Args;
use bevy::input::common_conditions::input_toggle_active;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowMode;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use bevy_inspector_egui::quick::WorldInspectorPlugin;
use iron3d_core::{AppState, CorePlugin};
use iron3d_eu7_view::{Eu7ViewerPlugin, StreamingConfig};

/// What the menu knows about the data directory.
#[derive(Resource, Debug, Clone, Reflect)]
#[reflect(Resource)]
pub struct DataDir {
    /// The folder given with `--data`.
    pub path: String,
    /// Mission folders found under `MISSIONS`, sorted.
    pub missions: Vec<String>,
    /// Files indexed in the tree, or the error that prevented indexing.
    pub status: String,
}

/// Frame budget for `--exit-after-frames` and `--screenshot`.
#[derive(Resource, Debug, Clone)]
struct ExitPlan {
    frames: u32,
    screenshot: Option<std::path::PathBuf>,
}

/// Builds the game application.
pub fn app(args: Args) -> App {
    let mut app = App::new();
    let mode = if args.fullscreen {
        WindowMode::BorderlessFullscreen(MonitorSelection::Primary)
    } else {
        WindowMode::Windowed
    };
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "iron3d".into(), mode, ..default() }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins(WorldInspectorPlugin::default().run_if(input_toggle_active(false, KeyCode::F12)))
    .add_plugins(CorePlugin);
    match &args.eu7 {
        Some(file) => {
            app.add_plugins(Eu7ViewerPlugin { file: file.clone(), streaming: StreamingConfig::default() });
        }
        None => {
            app.register_type::<DataDir>()
                .insert_resource(scan_data_dir(&args))
                .add_systems(Startup, setup)
                .add_systems(EguiPrimaryContextPass, main_menu.run_if(in_state(AppState::MainMenu)));
        }
    }
    if let Some(frames) = args.exit_after_frames {
        app.insert_resource(ExitPlan { frames, screenshot: args.screenshot.clone() })
            .add_systems(Update, count_frames);
    }
    app
}

fn scan_data_dir(args: &Args) -> DataDir {
    let path = args.data.display().to_string();
    match iron3d_vfs::GameDir::open(&args.data, iron3d_formats::ReadOptions::compatible()) {
        Ok(game) => {
            let mut missions: Vec<String> = game
                .index()
                .files()
                .filter_map(|p| {
                    let mut parts = p.iter();
                    let top = parts.next()?.to_string_lossy();
                    let name = parts.next()?.to_string_lossy().into_owned();
                    (top.eq_ignore_ascii_case("MISSIONS") && parts.next().is_some()).then_some(name)
                })
                .collect();
            missions.dedup();
            let status = format!("{} files indexed", game.index().len());
            DataDir { path, missions, status }
        }
        Err(e) => DataDir { path, missions: Vec::new(), status: format!("cannot open the data directory: {e}") },
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((Name::new("Menu camera"), Camera2d));
}

fn main_menu(mut contexts: EguiContexts, data: Res<DataDir>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = egui::Ui::new(
        ctx.clone(),
        "main_menu".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    egui::CentralPanel::default().show_inside(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading(egui::RichText::new("IRON3D").size(48.0));
            ui.label("Parkan: Iron Strategy engine re-implementation");
            ui.add_space(24.0);
            ui.label(format!("Data: {}", data.path));
            ui.label(&data.status);
            ui.add_space(16.0);
            if data.missions.is_empty() {
                ui.label("No missions found under MISSIONS/.");
            }
            for mission in &data.missions {
                ui.add_enabled(false, egui::Button::new(mission));
            }
            ui.add_space(16.0);
            ui.small("F12: inspector");
        });
    });
    Ok(())
}

fn count_frames(mut commands: Commands, mut plan: ResMut<ExitPlan>, mut exit: MessageWriter<AppExit>) {
    match plan.frames {
        0 => {
            // Waiting for the requested screenshot to reach the disk.
            let saved = plan.screenshot.as_ref().is_none_or(|p| p.metadata().is_ok_and(|m| m.len() > 0));
            if saved {
                exit.write(AppExit::Success);
            }
        }
        1 => {
            plan.frames = 0;
            match plan.screenshot.clone() {
                Some(path) => {
                    let _ = std::fs::remove_file(&path);
                    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
                }
                None => {
                    exit.write(AppExit::Success);
                }
            }
        }
        _ => plan.frames -= 1,
    }
}
