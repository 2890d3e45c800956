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
    /// Frames waited for the screenshot since it was last asked for, and how often it was.
    pub waited: (u32, u32),
}

impl ExitPlan {
    /// Frames to wait for a screenshot before asking again (the renderer drops a second
    /// screenshot of a window in the same frame, e.g. a save's thumbnail).
    pub const RETRY_FRAMES: u32 = 30;
    /// How often to ask before giving up (the run then exits with an error: it never
    /// hangs).
    pub const TRIES: u32 = 10;
}

impl Plugin for DevPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<InspectorOpen>()
            .register_type::<InspectorOpen>()
            .add_plugins(WorldInspectorPlugin::default().run_if(|open: Res<InspectorOpen>| open.0))
            .add_systems(Update, (toggle_inspector, log_transitions::<AppState>, log_transitions::<MissionLoadPhase>));
        if let Some(frames) = self.exit_after_frames {
            app.register_type::<ExitPlan>()
                .insert_resource(ExitPlan { frames, screenshot: self.screenshot.clone(), waited: (0, 0) })
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

/// Counts the frames down, asks for the screenshot and exits once it is written. A
/// screenshot that does not come is asked for again every [`ExitPlan::RETRY_FRAMES`];
/// after [`ExitPlan::TRIES`] the run exits with an error.
fn count_frames(mut commands: Commands, mut plan: ResMut<ExitPlan>, mut exit: MessageWriter<AppExit>) {
    match plan.frames {
        0 => {
            let Some(path) = plan.screenshot.clone().filter(|p| !p.metadata().is_ok_and(|m| m.len() > 0)) else {
                exit.write(AppExit::Success);
                return;
            };
            plan.waited.0 += 1;
            if plan.waited.0 < ExitPlan::RETRY_FRAMES {
                return;
            }
            if plan.waited.1 >= ExitPlan::TRIES {
                error!("the screenshot {} was never written", path.display());
                exit.write(AppExit::error());
                return;
            }
            plan.waited = (0, plan.waited.1 + 1);
            ask_screenshot(&mut commands, path);
        }
        1 => {
            plan.frames = 0;
            match plan.screenshot.clone() {
                Some(path) => {
                    let _ = std::fs::remove_file(&path);
                    ask_screenshot(&mut commands, path);
                }
                None => {
                    exit.write(AppExit::Success);
                }
            }
        }
        _ => plan.frames -= 1,
    }
}

/// Asks the renderer for a screenshot of the window, saved to `path`.
fn ask_screenshot(commands: &mut Commands, path: PathBuf) {
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screenshots(app: &mut App) -> usize {
        app.world_mut().query::<&Screenshot>().iter(app.world()).count()
    }

    fn exits(app: &App) -> Vec<AppExit> {
        let messages = app.world().resource::<Messages<AppExit>>();
        messages.iter_current_update_messages().cloned().collect()
    }

    /// A screenshot the renderer dropped (as it drops a second one of a window in the
    /// same frame, e.g. an autosave's thumbnail) is asked for again; the run never hangs.
    #[test]
    fn a_screenshot_that_never_comes_is_asked_again_and_the_run_ends() {
        let path = std::env::temp_dir().join(format!("iron3d-dev-shot-{}.png", std::process::id()));
        let mut app = App::new();
        app.insert_resource(ExitPlan { frames: 1, screenshot: Some(path.clone()), waited: (0, 0) })
            .add_systems(Update, count_frames);
        app.update();
        assert_eq!(screenshots(&mut app), 1, "asked for");
        let mut asked = 1;
        for _ in 0..ExitPlan::TRIES {
            let dropped: Vec<Entity> =
                app.world_mut().query_filtered::<Entity, With<Screenshot>>().iter(app.world()).collect();
            dropped.into_iter().for_each(|e| _ = app.world_mut().despawn(e));
            for frame in 1..=ExitPlan::RETRY_FRAMES {
                app.update();
                assert!(exits(&app).is_empty());
                assert_eq!(screenshots(&mut app), usize::from(frame == ExitPlan::RETRY_FRAMES), "frame {frame}");
            }
            asked += 1;
        }
        assert_eq!(asked, ExitPlan::TRIES + 1);
        for _ in 0..ExitPlan::RETRY_FRAMES {
            app.update();
        }
        assert_eq!(exits(&app), [AppExit::error()], "given up, with an error");
        // Written late: the run ends well.
        let mut app = App::new();
        app.insert_resource(ExitPlan { frames: 0, screenshot: Some(path.clone()), waited: (0, 0) })
            .add_systems(Update, count_frames);
        std::fs::write(&path, b"png").unwrap();
        app.update();
        assert_eq!(exits(&app), [AppExit::Success]);
        // No screenshot asked (`--exit-after-frames 0`): the run ends at once.
        let mut app = App::new();
        app.insert_resource(ExitPlan { frames: 0, screenshot: None, waited: (0, 0) }).add_systems(Update, count_frames);
        app.update();
        assert_eq!(exits(&app), [AppExit::Success]);
        let _ = std::fs::remove_file(path);
    }
}
