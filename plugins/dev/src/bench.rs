//! `--bench-frames N`: once the mission is in the world (the game state reached, every
//! model and the terrain attached, no render pipeline still compiling), time N frames,
//! print one line `bench-frames N median X ms p95 Y ms draws D` on standard output and
//! exit. D is the median over the timed frames of the mesh entities visible to a camera
//! (Bevy draws instances that share mesh and material in one batch, so GPU draw calls
//! are at most D). Where the time went (main world, render world) and the triangles of
//! the visible meshes (what a software renderer's single vertex thread pays for) go to
//! the log.

use bevy::camera::visibility::ViewVisibility;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::state::state::StateTransitionEvent;
use iron3d_core::AppState;
use iron3d_render::{RenderStats, TerrainView};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Frames without a compiling pipeline after the mission is in the world before timing
/// starts (the project's own choice: enough for the last pipelines to be used once).
pub const SETTLE_FRAMES: u32 = 3;

/// The result of a bench run.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// Timed frames.
    pub frames: usize,
    /// Median frame time (ms).
    pub median_ms: f64,
    /// 95th percentile frame time (ms, nearest rank).
    pub p95_ms: f64,
    /// Median visible mesh entities per frame.
    pub draws: usize,
}

impl BenchReport {
    /// The report of frame times `frames_ms` and visible mesh counts `draws` (one per
    /// timed frame); `None` without frames.
    pub fn new(frames_ms: &[f64], draws: &[usize]) -> Option<Self> {
        let mut times = frames_ms.to_vec();
        times.sort_by(f64::total_cmp);
        Some(Self {
            frames: times.len(),
            median_ms: median(&times)?,
            p95_ms: nearest_rank(&times, 95)?,
            draws: middle_count(draws)?,
        })
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bench-frames {} median {:.1} ms p95 {:.1} ms draws {}",
            self.frames, self.median_ms, self.p95_ms, self.draws
        )
    }
}

/// The median of sorted values (the mean of the middle two for an even count).
pub fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The middle of unsorted counts (the upper one of an even count).
pub fn middle_count(counts: &[usize]) -> Option<usize> {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied()
}

/// The `percent`th percentile of sorted values by nearest rank: the smallest value
/// with at least `percent` % of the values at or below it.
pub fn nearest_rank(sorted: &[f64], percent: u32) -> Option<f64> {
    let rank = (sorted.len() * percent as usize).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// What the render world tells the bench (shared between the worlds).
#[derive(Debug, Default)]
struct RenderProbe {
    /// Pipelines still compiling after the last render frame.
    waiting_pipelines: usize,
    /// When the current render frame began.
    began: Option<Instant>,
    /// How long the last render frame took.
    last: Duration,
}

/// The probe, in both worlds.
#[derive(Resource, Clone, Default)]
struct SharedProbe(Arc<Mutex<RenderProbe>>);

impl SharedProbe {
    fn with<T>(&self, f: impl FnOnce(&mut RenderProbe) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Where the bench is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum BenchPhase {
    /// Waiting for the mission to be in the world.
    #[default]
    Waiting,
    /// In the world; frames without a compiling pipeline so far.
    Settling(u32),
    /// Timing frames.
    Timing,
}

/// The bench's plan and samples.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct FrameBench {
    /// Frames to time.
    pub frames: u32,
    /// Where the bench is.
    pub phase: BenchPhase,
    /// Frame times so far (ms).
    pub frame_ms: Vec<f64>,
    /// Main world time of each timed frame (ms).
    pub main_ms: Vec<f64>,
    /// Render world time of each timed frame (ms).
    pub render_ms: Vec<f64>,
    /// Visible mesh entities of each timed frame.
    pub draws: Vec<usize>,
    /// Triangles of the visible meshes of each timed frame.
    pub triangles: Vec<usize>,
    #[reflect(ignore)]
    main_began: Option<Instant>,
}

/// Adds the bench of `frames` frames.
pub(crate) fn add(app: &mut App, frames: u32) {
    let probe = SharedProbe::default();
    app.register_type::<FrameBench>()
        .insert_resource(FrameBench { frames, ..default() })
        .insert_resource(probe.clone())
        .add_systems(First, begin_main)
        .add_systems(Last, (fail_on_menu, sample).chain());
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(probe)
            .add_systems(Render, begin_render.in_set(RenderSystems::ExtractCommands))
            .add_systems(Render, end_render.in_set(RenderSystems::Cleanup));
    }
}

fn begin_main(mut bench: ResMut<FrameBench>) {
    bench.main_began = Some(Instant::now());
}

fn begin_render(probe: Res<SharedProbe>) {
    probe.with(|p| p.began = Some(Instant::now()));
}

fn end_render(probe: Res<SharedProbe>, pipelines: Res<PipelineCache>) {
    let waiting = pipelines.waiting_pipelines().count();
    probe.with(|p| {
        p.waiting_pipelines = waiting;
        p.last = p.began.map_or(Duration::ZERO, |b| b.elapsed());
    });
}

/// A mission that fails to load returns to the menu: the bench cannot run.
fn fail_on_menu(mut transitions: MessageReader<StateTransitionEvent<AppState>>, mut exit: MessageWriter<AppExit>) {
    for t in transitions.read() {
        if t.exited == Some(AppState::Loading) && t.entered == Some(AppState::MainMenu) {
            error!("bench-frames: the mission did not load (see the log above)");
            exit.write(AppExit::error());
        }
    }
}

/// The state the world must be in before frames are timed.
#[derive(bevy::ecs::system::SystemParam)]
struct MissionShown<'w> {
    state: Res<'w, State<AppState>>,
    stats: Res<'w, RenderStats>,
    terrain: Res<'w, TerrainView>,
}

impl MissionShown<'_> {
    fn in_world(&self) -> bool {
        *self.state.get() == AppState::InGame && self.stats.settled() && self.terrain.settled()
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn sample(
    mut bench: ResMut<FrameBench>,
    shown: MissionShown,
    probe: Res<SharedProbe>,
    time: Res<Time<Real>>,
    meshes: Query<(&Mesh3d, &ViewVisibility)>,
    assets: Res<Assets<Mesh>>,
    mut exit: MessageWriter<AppExit>,
) {
    let compiling = probe.with(|p| p.waiting_pipelines) > 0;
    bench.phase = match bench.phase {
        _ if !shown.in_world() => BenchPhase::Waiting,
        BenchPhase::Waiting => BenchPhase::Settling(0),
        BenchPhase::Settling(_) if compiling => BenchPhase::Settling(0),
        BenchPhase::Settling(n) if n + 1 < SETTLE_FRAMES => BenchPhase::Settling(n + 1),
        BenchPhase::Settling(_) => {
            info!(target: "bench", "mission in the world, timing {} frames", bench.frames);
            BenchPhase::Timing
        }
        BenchPhase::Timing => {
            let main = bench.main_began.map_or(0.0, |b| ms(b.elapsed()));
            let render = ms(probe.with(|p| p.last));
            bench.frame_ms.push(ms(time.delta()));
            bench.main_ms.push(main);
            bench.render_ms.push(render);
            let visible = || meshes.iter().filter(|(_, v)| v.get());
            bench.draws.push(visible().count());
            bench.triangles.push(visible().filter_map(|(m, _)| assets.get(&m.0)).map(triangles).sum());
            BenchPhase::Timing
        }
    };
    if bench.frame_ms.len() < bench.frames as usize {
        return;
    }
    let Some(report) = BenchReport::new(&bench.frame_ms, &bench.draws) else { return };
    let share = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        median(&v).unwrap_or(0.0)
    };
    info!(
        target: "bench",
        "median main world {:.1} ms, render world {:.1} ms, {} triangles per frame",
        share(&bench.main_ms),
        share(&bench.render_ms),
        middle_count(&bench.triangles).unwrap_or(0)
    );
    println!("{report}");
    exit.write(AppExit::Success);
}

/// The triangles a mesh draws (a triangle list, indexed or not).
fn triangles(mesh: &Mesh) -> usize {
    mesh.indices().map_or(mesh.count_vertices(), |i| i.len()) / 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_has_the_documented_format() {
        let report = BenchReport { frames: 20, median_ms: 93.44, p95_ms: 120.06, draws: 412 };
        assert_eq!(report.to_string(), "bench-frames 20 median 93.4 ms p95 120.1 ms draws 412");
    }

    #[test]
    fn median_and_p95_by_nearest_rank() {
        let times: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        let report = BenchReport::new(&times, &[7, 3, 5, 9]).expect("frames");
        assert_eq!(report.frames, 20);
        assert_eq!(report.median_ms, 10.5);
        // 95 % of 20 is rank 19.
        assert_eq!(report.p95_ms, 19.0);
        assert_eq!(report.draws, 7);
        let odd = BenchReport::new(&[30.0, 10.0, 20.0], &[1]).expect("frames");
        // 95 % of 3 rounds up to rank 3.
        assert_eq!((odd.median_ms, odd.p95_ms), (20.0, 30.0));
    }

    #[test]
    fn percentiles_of_edge_sizes() {
        assert_eq!(nearest_rank(&[4.0], 95), Some(4.0));
        assert_eq!(nearest_rank(&[1.0, 2.0], 0), Some(1.0));
        assert_eq!(nearest_rank(&[], 95), None);
        assert_eq!(median(&[]), None);
        assert!(BenchReport::new(&[], &[]).is_none());
    }
}
