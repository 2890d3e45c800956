//! Developer tools: the F12 world inspector (every entity, component and resource),
//! logs of every state transition, the `--exit-after-frames` / `--screenshot`
//! capture used by CI and reviewers, the `--bench-frames` frame-time benches (of a mission,
//! and of a flight over an EU7B scenery), and scripted input (`--press`, `--click`,
//! `--script-event`) for captures of any screen.

mod bench;
mod flight;
mod scripted;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::state::state::StateTransitionEvent;
use bevy_inspector_egui::quick::WorldInspectorPlugin;
use iron3d_core::{AppState, MissionLoadPhase};
use iron3d_input::{Actions, GameAction};
use std::path::PathBuf;

pub use bench::{BenchPhase, BenchReport, FrameBench, SETTLE_FRAMES, median, nearest_rank};
pub use scripted::{InputScript, Scripted, Step};

/// Developer tools.
#[derive(Debug, Default, Clone)]
pub struct DevPlugin {
    /// Render this many frames, then exit.
    pub exit_after_frames: Option<u32>,
    /// Save the window to this PNG before exiting.
    pub screenshot: Option<PathBuf>,
    /// Time this many frames once the mission is in the world, print the report, exit.
    pub bench_frames: Option<u32>,
    /// Fly the EU7B viewer's camera east for this many timed frames, print the report, exit.
    pub flight_frames: Option<u32>,
    /// Scripted key presses, clicks and script events.
    pub script: Vec<Scripted>,
}

/// Frames left before the capture / exit.
#[derive(Resource, Debug, Clone, Reflect)]
#[reflect(Resource)]
pub struct ExitPlan {
    /// Frames still to render (0 = waiting for the screenshot to be written).
    pub frames: u32,
    /// Where the screenshot goes.
    pub screenshot: Option<PathBuf>,
}

impl Plugin for DevPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<InspectorOpen>()
            .register_type::<InspectorOpen>()
            .add_plugins(WorldInspectorPlugin::default().run_if(|open: Res<InspectorOpen>| open.0))
            .add_systems(Update, (toggle_inspector, log_transitions::<AppState>, log_transitions::<MissionLoadPhase>));
        if let Some(frames) = self.exit_after_frames {
            app.register_type::<ExitPlan>()
                .insert_resource(ExitPlan { frames, screenshot: self.screenshot.clone() })
                .add_systems(Update, count_frames);
        }
        if let Some(frames) = self.bench_frames {
            bench::add(app, frames);
        }
        if let Some(frames) = self.flight_frames {
            flight::add(app, frames);
        }
        if !self.script.is_empty() {
            scripted::add(app, self.script.clone());
        }
    }
}

/// Whether the world inspector is shown (the `Inspector` action, F12, toggles it).
#[derive(Resource, Debug, Default, Reflect)]
#[reflect(Resource)]
pub struct InspectorOpen(pub bool);

fn toggle_inspector(actions: Query<&Actions>, mut open: ResMut<InspectorOpen>) {
    if actions.iter().any(|a| a.just_pressed(&GameAction::Inspector)) {
        open.0 = !open.0;
    }
}

fn log_transitions<S: States>(mut transitions: MessageReader<StateTransitionEvent<S>>) {
    for t in transitions.read() {
        info!(target: "mission", "{} -> {}", fmt_state(&t.exited), fmt_state(&t.entered));
    }
}

fn fmt_state<S: States>(s: &Option<S>) -> String {
    s.as_ref().map_or_else(|| "none".to_string(), |s| format!("{s:?}"))
}

fn count_frames(mut commands: Commands, mut plan: ResMut<ExitPlan>, mut exit: MessageWriter<AppExit>) {
    match plan.frames {
        0 => {
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
