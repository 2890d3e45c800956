//! Small ground-plane helpers every simulation crate needs (game XY, radians). Only
//! exact IEEE operations: no transcendental function, so results match everywhere.

use std::f32::consts::{PI, TAU};

/// The distance between two ground points.
pub fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1]];
    (d[0] * d[0] + d[1] * d[1]).sqrt()
}

/// `a` wrapped into `[-π, π)`. The remainder is skipped below a turn, where it is `a`
/// itself (IEEE `fmod` is exact), so the result is the same bits either way.
pub fn wrap_angle(a: f32) -> f32 {
    let a = if a.abs() < TAU { a } else { a % TAU };
    if a >= PI {
        a - TAU
    } else if a < -PI {
        a + TAU
    } else {
        a
    }
}
