//! `--bench-frames N` in the EU7B viewer: after [`FLIGHT_SETTLE_FRAMES`] still frames
//! (pipelines compile, the bootstrap's sections draw), the camera flies east at [`FLIGHT_SPEED`]
//! (each frame moves it by the speed times the real frame time) for N timed frames; then one
//! line is printed on standard output and the app exits:
//! `bench-frames N median X ms p95 Y ms sections/s S peak resident R peak held M MiB`,
//! with the median and p95 of [`crate::bench`].

use bevy::prelude::*;
use iron3d_eu7_view::StreamingStats;
use iron3d_eu7_view::streaming::{StreamFocus, StreamingSystems};

use crate::bench::{median, nearest_rank};

/// Still frames before the flight.
pub const FLIGHT_SETTLE_FRAMES: u32 = 30;

/// Ground speed of the flight in m/s (a section every 3.3 s).
pub const FLIGHT_SPEED: f32 = 300.0;

/// The flight's progress and samples.
#[derive(Resource, Debug, Default)]
struct Flight {
    frames: u32,
    settled: u32,
    frame_ms: Vec<f64>,
    seconds: f64,
    applied_before: u64,
}

/// Adds the flight bench of `frames` timed frames.
pub(crate) fn add(app: &mut App, frames: u32) {
    app.insert_resource(Flight { frames, ..default() })
        .add_systems(Update, fly_east.after(iron3d_eu7_view::camera::fly).before(StreamingSystems));
}

/// The report line of a finished flight.
fn report(mut frame_ms: Vec<f64>, seconds: f64, applied: u64, stats: &StreamingStats) -> String {
    frame_ms.sort_by(f64::total_cmp);
    format!(
        "bench-frames {} median {:.1} ms p95 {:.1} ms sections/s {:.1} peak resident {} peak held {:.2} MiB",
        frame_ms.len(),
        median(&frame_ms).unwrap_or(0.0),
        nearest_rank(&frame_ms, 95).unwrap_or(0.0),
        if seconds > 0.0 { applied as f64 / seconds } else { 0.0 },
        stats.peak_resident,
        stats.peak_held_bytes as f64 / 1_048_576.0,
    )
}

fn fly_east(
    time: Res<Time<Real>>,
    stats: Res<StreamingStats>,
    mut flight: ResMut<Flight>,
    mut cams: Query<(&mut Transform, &mut StreamFocus), With<Camera3d>>,
    mut exit: MessageWriter<AppExit>,
) {
    if flight.settled < FLIGHT_SETTLE_FRAMES {
        flight.settled += 1;
        flight.applied_before = stats.applied;
        return;
    }
    let dt = time.delta_secs();
    for (mut t, mut focus) in &mut cams {
        focus.velocity = Vec3::X * FLIGHT_SPEED;
        t.translation.x += FLIGHT_SPEED * dt;
    }
    flight.frame_ms.push(f64::from(dt) * 1000.0);
    flight.seconds += f64::from(dt);
    if flight.frame_ms.len() >= flight.frames as usize {
        let applied = stats.applied - flight.applied_before;
        println!("{}", report(std::mem::take(&mut flight.frame_ms), flight.seconds, applied, &stats));
        exit.write(AppExit::Success);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_gives_the_median_the_p95_and_the_section_rate() {
        let stats = StreamingStats { peak_resident: 7, peak_held_bytes: 3 * 1_048_576, ..default() };
        let frames: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        assert_eq!(
            report(frames, 4.0, 10, &stats),
            "bench-frames 20 median 10.5 ms p95 19.0 ms sections/s 2.5 peak resident 7 peak held 3.00 MiB"
        );
    }
}
