//! Assembles the game from its plugins: the game directory as `game://` asset source,
//! Bevy, the screens, the mission loader, the simulation with its saves and replays,
//! netcode, camera, weather and sound (or the EU7B viewer with `--eu7`), and the
//! developer tools.

use crate::{Args, WindowSize};
use bevy::asset::AssetMetaCheck;
use bevy::prelude::*;
use bevy::window::{WindowMode, WindowResolution};
use bevy_egui::EguiPlugin;
use iron3d_assets::{GameLoadersPlugin, GameSourcePlugin};
use iron3d_audio::GameAudioPlugin;
use iron3d_camera::GameCameraPlugin;
use iron3d_core::CorePlugin;
use iron3d_dev::DevPlugin;
use iron3d_eu7_view::Eu7ViewerPlugin;
use iron3d_input::GameInputPlugin;
use iron3d_mission::MissionPlugin;
use iron3d_net::{NetGamePlugin, NetRole};
use iron3d_render::{MissionRenderPlugin, SoftwareBatchingPlugin};
use iron3d_ui::UiPlugin;
use iron3d_vfs::GameDir;
use iron3d_weather::WeatherPlugin;
use std::sync::Arc;

/// Builds the game application over the game data `game` (its layers opened by
/// [`crate::data::open`]; `None` only for the EU7B viewer).
pub fn app(args: Args, game: Option<Arc<GameDir>>) -> App {
    let mut app = App::new();
    // The asset source must exist before Bevy's AssetPlugin is added.
    if let Some(dir) = &game {
        app.add_plugins(GameSourcePlugin { game: Arc::clone(dir) });
    }
    let size = args.window.unwrap_or(WindowSize::DEFAULT);
    let (mode, resolution) = if args.fullscreen {
        (WindowMode::BorderlessFullscreen(MonitorSelection::Primary), WindowResolution::default())
    } else {
        (WindowMode::Windowed, WindowResolution::new(size.width, size.height))
    };
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window { title: "iron3d".into(), mode, resolution, ..default() }),
                ..default()
            })
            // Debug builds hot-reload changed game files (the game:// source polls them).
            .set(AssetPlugin {
                meta_check: AssetMetaCheck::Never,
                watch_for_changes_override: Some(cfg!(debug_assertions)),
                ..default()
            })
            .add_before::<bevy::pbr::PbrPlugin>(SoftwareBatchingPlugin),
    )
    .add_plugins(EguiPlugin::default())
    .add_plugins(CorePlugin)
    .add_plugins(GameInputPlugin)
    .add_plugins(DevPlugin {
        exit_after_frames: args.exit_after_frames,
        screenshot: args.screenshot.clone(),
        bench_frames: args.bench_frames.filter(|_| args.eu7.is_none()),
        flight_frames: args.bench_frames.filter(|_| args.eu7.is_some()),
        script: args.script(),
    });
    match &args.eu7 {
        Some(file) => {
            app.add_plugins(Eu7ViewerPlugin { file: file.clone(), streaming: args.eu7_streaming.config() });
        }
        None => {
            app.add_plugins((
                GameLoadersPlugin,
                MissionPlugin,
                iron3d_sim::SimPlugins,
                iron3d_save::SavePlugin,
                iron3d_save::GameSavesPlugin,
                MissionRenderPlugin,
                GameCameraPlugin,
                WeatherPlugin,
                GameAudioPlugin::default(),
                UiPlugin {
                    autostart: args.mission.clone(),
                    open: args.open_file(),
                    strategic_start: args.strategic_start,
                },
            ));
            if let Some(game) = game {
                let role = match args.join {
                    Some(server) => NetRole::Join { server, name: args.name.clone() },
                    None if args.host => NetRole::Host { port: args.port },
                    None => NetRole::Offline,
                };
                app.add_plugins(NetGamePlugin { role, game });
            }
        }
    }
    app
}
