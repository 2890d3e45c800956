//! Renders a mission once and saves a screenshot:
//! `cargo run --example mission_view -- assets/demo tutorial.01 /tmp/shot.png [distance] [yaw°] [pitch°] [object]`
//!
//! Loads the mission with `GameMissionBackend`, waits until it is `InGame` and every
//! model and the terrain are drawn, frames the camera on the placed objects (or the
//! terrain centre), captures the window and exits (code 1 on a load error or timeout).

use bevy::app::AppExit;
use bevy::asset::AssetMetaCheck;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use iron3d_assets::{GameLoadersPlugin, GameSourcePlugin};
use iron3d_core::{AppState, CorePlugin};
use iron3d_mission::{LoadError, MissionPlugin, Registered, StartMission};
use iron3d_render::{MissionRenderPlugin, RenderStats, TerrainView};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Resource)]
struct Shot {
    out: PathBuf,
    distance: f32,
    yaw: f32,
    pitch: f32,
    focus: Option<usize>,
    frames: u32,
    ready_at: Option<u32>,
    ready_time: f32,
    taken: bool,
}

fn main() -> AppExit {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, mission, out, ..] = args.as_slice() else {
        eprintln!("usage: mission_view DATA_DIR MISSION OUT.png [distance] [yaw°] [pitch°] [object index]");
        return AppExit::error();
    };
    let _ = std::fs::remove_file(out);
    let num = |i: usize, d: f32| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let mission = mission.clone();
    let game = match iron3d_vfs::GameDir::open(std::path::Path::new(root), iron3d_formats::ReadOptions::compatible()) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            eprintln!("{root}: {e}");
            return AppExit::error();
        }
    };
    App::new()
        .add_plugins(GameSourcePlugin { game: Arc::clone(&game) })
        .add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        resolution: (1280, 720).into(),
                        title: "mission_view".into(),
                        ..default()
                    }),
                    ..default()
                })
                .set(AssetPlugin { file_path: root.clone(), meta_check: AssetMetaCheck::Never, ..default() }),
        )
        .add_plugins((GameLoadersPlugin, CorePlugin, MissionPlugin, MissionRenderPlugin))
        .insert_resource(Shot {
            out: PathBuf::from(out),
            distance: num(3, 220.0),
            yaw: num(4, 30.0).to_radians(),
            pitch: num(5, 35.0).to_radians(),
            focus: args.get(6).and_then(|a| a.parse().ok()),
            frames: 0,
            ready_at: None,
            ready_time: 0.0,
            taken: false,
        })
        .add_systems(Startup, move |mut commands: Commands| {
            commands
                .spawn((Camera3d::default(), Transform::from_xyz(0.0, 300.0, 300.0).looking_at(Vec3::ZERO, Vec3::Y)));
            commands.queue(StartMission::from_game(&game, mission.clone()));
        })
        .add_systems(Update, drive)
        .run()
}

#[expect(clippy::too_many_arguments, reason = "one system drives the whole scripted capture")]
fn drive(
    mut commands: Commands,
    mut shot: ResMut<Shot>,
    state: Res<State<AppState>>,
    error: Option<Res<LoadError>>,
    stats: Res<RenderStats>,
    terrain: Res<TerrainView>,
    objects: Query<&GlobalTransform, With<Registered>>,
    mut camera: Query<&mut Transform, With<Camera3d>>,
    mut exit: MessageWriter<AppExit>,
    time: Res<Time<Real>>,
) {
    shot.frames += 1;
    if let Some(e) = error {
        eprintln!("load failed in {:?}: {}", e.phase, e.message);
        exit.write(AppExit::error());
        return;
    }
    if shot.frames > 6000 {
        eprintln!("timeout: state {:?}, stats {:?}", state.get(), *stats);
        exit.write(AppExit::error());
        return;
    }
    let ready =
        *state.get() == AppState::InGame && stats.pending == 0 && (terrain.bounds.is_some() || terrain.path.is_empty());
    match shot.ready_at {
        None if ready => {
            let points: Vec<Vec3> = objects.iter().map(GlobalTransform::translation).collect();
            let focused = shot.focus.and_then(|i| points.get(i).copied());
            let target = if let Some(p) = focused {
                p
            } else if points.is_empty() {
                terrain.bounds.map_or(Vec3::ZERO, |[a, b]| (a + b) / 2.0)
            } else {
                points.iter().sum::<Vec3>() / points.len() as f32
            };
            let dir = Vec3::new(shot.yaw.sin() * shot.pitch.cos(), shot.pitch.sin(), shot.yaw.cos() * shot.pitch.cos());
            if let Ok(mut t) = camera.single_mut() {
                *t = Transform::from_translation(target + dir * shot.distance).looking_at(target, Vec3::Y);
            }
            println!(
                "ready after {} frames: {:?}; terrain {:?}; camera target {target}",
                shot.frames, *stats, terrain.bounds
            );
            shot.ready_at = Some(shot.frames);
            shot.ready_time = time.elapsed_secs();
        }
        // Software renderers compile pipelines slowly: give them frames and seconds.
        Some(at) if !shot.taken && shot.frames >= at + 30 && time.elapsed_secs() - shot.ready_time > 8.0 => {
            shot.taken = true;
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(shot.out.clone()));
        }
        Some(_) if shot.taken && shot.out.exists() => {
            println!("saved {}", shot.out.display());
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}
