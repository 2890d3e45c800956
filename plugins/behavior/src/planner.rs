//! Path planning: the global path is the areal route (A* over `Land.map`), the local
//! path a polyline through the route's portals (pulled towards the straight line and
//! kept a margin inside each portal). Every refusal is a typed diagnostic.

use iron3d_core::DiagnosticKind;
use iron3d_terrain::{Ground, NavMap};

/// A planned leg.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Areals from start to goal.
    pub global: Vec<u32>,
    /// Points to pass, the goal last.
    pub local: Vec<[f32; 2]>,
}

/// Why a leg cannot be planned, with its detail.
pub type Refusal = (DiagnosticKind, String);

/// Plans a leg from `start` to `goal`, keeping `margin` inside each portal.
pub fn plan(
    nav: Option<&NavMap>,
    ground: Option<&Ground>,
    start: [f32; 2],
    goal: [f32; 2],
    margin: f32,
) -> Result<Plan, Refusal> {
    let nav = nav.ok_or((DiagnosticKind::NoSystemArealMap, "no areal map is published".to_string()))?;
    if ground.is_none() {
        return Err((DiagnosticKind::NoTerrain, "no terrain is published".into()));
    }
    if nav.areals == 0 {
        return Err((DiagnosticKind::NoBehaviourArealMap, "the areal map has no areals".into()));
    }
    let from = nav.area_at(start[0], start[1]).ok_or_else(|| {
        (DiagnosticKind::LeavingNonWalkable, format!("({:.1}, {:.1}) is outside every areal", start[0], start[1]))
    })?;
    let to = nav.area_at(goal[0], goal[1]).ok_or_else(|| {
        (DiagnosticKind::NonReachableArea, format!("target ({:.1}, {:.1}) is outside every areal", goal[0], goal[1]))
    })?;
    let global = nav
        .route(from, to)
        .ok_or_else(|| (DiagnosticKind::NonReachableArea, format!("no route from areal {from} to areal {to}")))?;
    check_cycle(&global)?;
    let corridor = nav.corridor(&global);
    let mut local = Vec::with_capacity(corridor.portals.len() + 1);
    let mut prev = start;
    for (i, p) in corridor.portals.iter().enumerate() {
        let (a, b) = shrink([p.left[0], p.left[1]], [p.right[0], p.right[1]], margin);
        let next = corridor
            .portals
            .get(i + 1)
            .map_or(goal, |q| [(q.left[0] + q.right[0]) / 2.0, (q.left[1] + q.right[1]) / 2.0]);
        let point = toward_line(a, b, prev, next);
        local.push(point);
        prev = point;
    }
    local.push(goal);
    Ok(Plan { global, local })
}

/// `local` with its longest segments (from `start`) split in halves until it has at
/// least `min` points (`PathFind_MinPointInTrajectory`; the earliest of equally long
/// segments first).
pub fn at_least(mut local: Vec<[f32; 2]>, start: [f32; 2], min: u32) -> Vec<[f32; 2]> {
    while local.len() < min as usize {
        let from = |i: usize| if i == 0 { start } else { local[i - 1] };
        let length = |i: usize| {
            let (a, b) = (from(i), local[i]);
            (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])
        };
        let Some(longest) = (0..local.len()).reduce(|a, b| if length(b) > length(a) { b } else { a }) else {
            break;
        };
        let (a, b) = (from(longest), local[longest]);
        local.insert(longest, [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
    }
    local
}

/// A route that visits an areal twice would make the path generator cycle forever.
pub fn check_cycle(route: &[u32]) -> Result<(), Refusal> {
    let mut seen: Vec<u32> = route.to_vec();
    seen.sort_unstable();
    match seen.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err((DiagnosticKind::PathCycle, format!("the route visits areal {} twice", w[0]))),
        None => Ok(()),
    }
}

/// The portal segment with `margin` taken off both ends (its midpoint when too short).
fn shrink(a: [f32; 2], b: [f32; 2], margin: f32) -> ([f32; 2], [f32; 2]) {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if len <= 2.0 * margin {
        let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        return (m, m);
    }
    let t = margin / len;
    ([a[0] + d[0] * t, a[1] + d[1] * t], [b[0] - d[0] * t, b[1] - d[1] * t])
}

/// The point of segment `a..b` where the line `p..q` crosses it, or the end nearest
/// to that line.
fn toward_line(a: [f32; 2], b: [f32; 2], p: [f32; 2], q: [f32; 2]) -> [f32; 2] {
    let side = |v: [f32; 2]| (q[0] - p[0]) * (v[1] - p[1]) - (q[1] - p[1]) * (v[0] - p[0]);
    let (sa, sb) = (side(a), side(b));
    if sa == sb {
        return a;
    }
    if (sa <= 0.0) != (sb <= 0.0) || sa == 0.0 || sb == 0.0 {
        let t = sa / (sa - sb);
        return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
    if sa.abs() < sb.abs() { a } else { b }
}
