//! Sampled velocity selection with predicted-overlap costs.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{
    ClearWizardPath, CollisionProxy, Kinematics, MotionRequest, OriginalObjectId, SimTransform, SpatialGrid,
    SteerIntent,
};
use iron3d_terrain::NavMap;

/// Wizard's tuning (the project's own numbers; the original's are unknown).
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct WizardConfig {
    /// Look-ahead times at which overlaps are predicted (seconds).
    pub horizons: [f32; 2],
    /// Direction offsets sampled around the preferred heading (radians, both sides).
    pub offsets: [f32; 4],
    /// Weight of straying from the preferred velocity (beyond lost progress).
    pub straying: f32,
    /// Weight of a predicted overlap (per unit of overlap relative to the radii).
    pub overlap_weight: f32,
    /// Weight of leaving the corridor.
    pub corridor_weight: f32,
    /// Weight of changing the last choice (damps jitter).
    pub steadiness: f32,
    /// Extra clearance kept from other objects (units).
    pub clearance: f32,
    /// Nearest objects considered per unit (bounds the cost in dense crowds).
    pub max_neighbours: usize,
}

impl Default for WizardConfig {
    fn default() -> Self {
        Self {
            horizons: [0.5, 1.25],
            offsets: [0.4, 0.8, 1.3, 2.0],
            straying: 0.1,
            overlap_weight: 6.0,
            corridor_weight: 0.3,
            steadiness: 0.15,
            clearance: 0.25,
            max_neighbours: 10,
        }
    }
}

/// The wizard path of a unit: its last chosen velocity and the side it committed to
/// when passing an obstacle (cleared by Behavior through [`ClearWizardPath`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect)]
#[reflect(Component)]
pub struct WizardPath {
    /// Last requested velocity.
    pub velocity: [f32; 2],
    /// Committed detour side: -1 right, 0 none, 1 left.
    pub side: i8,
}

/// Units with an intent get a wizard path and a motion request.
pub(crate) fn activate(mut commands: Commands, new: Query<Entity, (With<SteerIntent>, Without<WizardPath>)>) {
    for entity in &new {
        commands.entity(entity).insert((WizardPath::default(), MotionRequest::default()));
    }
}

/// Applies Behavior's clear requests.
pub(crate) fn clear(mut requests: MessageReader<ClearWizardPath>, mut paths: Query<&mut WizardPath>) {
    for ClearWizardPath(entity) in requests.read() {
        if let Ok(mut path) = paths.get_mut(*entity) {
            *path = WizardPath::default();
        }
    }
}

/// One object as Wizard sees it.
#[derive(Debug, Clone, Copy)]
struct Body {
    position: [f32; 2],
    velocity: [f32; 2],
    radius: f32,
    /// Box footprint (static objects): centre, half extents, cosine and sine of the heading.
    footprint: Option<([f32; 2], [f32; 2], [f32; 2])>,
    /// Centre of the shape and the radius of a circle around it.
    centre: [f32; 2],
    bound: f32,
    /// Current speed.
    speed: f32,
}

impl Body {
    /// How far a circle of radius `reach` at `p` overlaps this body's shape at time `t`
    /// (0 when apart).
    fn overlap(&self, p: [f32; 2], t: f32, reach: f32) -> f32 {
        match self.footprint {
            None => {
                let q = [self.position[0] + self.velocity[0] * t, self.position[1] + self.velocity[1] * t];
                let d = [p[0] - q[0], p[1] - q[1]];
                let (d2, limit) = (d[0] * d[0] + d[1] * d[1], reach + self.radius);
                if d2 >= limit * limit { 0.0 } else { limit - d2.sqrt() }
            }
            Some(footprint) => (reach - box_distance(footprint, p)).max(0.0),
        }
    }
}

/// Distance from `p` to a box footprint (centre, half extents, cosine and sine of the
/// heading; negative inside).
fn box_distance((centre, half, [c, s]): ([f32; 2], [f32; 2], [f32; 2]), p: [f32; 2]) -> f32 {
    let d = [p[0] - centre[0], p[1] - centre[1]];
    let local = [c * d[0] + s * d[1], -s * d[0] + c * d[1]];
    let out = [(local[0].abs() - half[0]).max(0.0), (local[1].abs() - half[1]).max(0.0)];
    let inside = (local[0].abs() - half[0]).max(local[1].abs() - half[1]).min(0.0);
    len(out) + inside
}

fn len(v: [f32; 2]) -> f32 {
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

/// `v` turned by the angle whose cosine and sine are `cs`.
fn rotate(v: [f32; 2], cs: [f32; 2]) -> [f32; 2] {
    [cs[0] * v[0] - cs[1] * v[1], cs[1] * v[0] + cs[0] * v[1]]
}

/// Distance from `p` to the segment `a..b`.
fn segment_distance(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let e = [b[0] - a[0], b[1] - a[1]];
    let l2 = e[0] * e[0] + e[1] * e[1];
    let t = if l2 > 0.0 { (((p[0] - a[0]) * e[0] + (p[1] - a[1]) * e[1]) / l2).clamp(0.0, 1.0) } else { 0.0 };
    len([a[0] + e[0] * t - p[0], a[1] + e[1] * t - p[1]])
}

/// The snapshot every unit decides against (previous tick's state, id order).
fn snapshot(all: &Query<(&OriginalObjectId, &SimTransform, &CollisionProxy, Option<&Kinematics>)>) -> Vec<(u32, Body)> {
    let mut bodies: Vec<(u32, Body)> = all
        .iter()
        .map(|(id, t, proxy, kin)| {
            let heading = t.heading();
            let (s, c) = (libm::sinf(heading), libm::cosf(heading));
            let position = [t.position[0], t.position[1]];
            let speed = kin.map_or(0.0, |k| k.speed);
            let f = [c, s];
            let footprint = (!proxy.circle).then(|| {
                let o = proxy.offset;
                ([position[0] + c * o[0] - s * o[1], position[1] + s * o[0] + c * o[1]], proxy.half_extents, [c, s])
            });
            let (centre, bound) = footprint.map_or((position, proxy.radius), |(c, h, _)| (c, len(h)));
            let velocity = [f[0] * speed, f[1] * speed];
            (id.0, Body { position, velocity, radius: proxy.radius, footprint, centre, bound, speed: speed.abs() })
        })
        .collect();
    bodies.sort_unstable_by_key(|(id, _)| *id);
    bodies
}

/// Chooses every active unit's requested velocity.
pub(crate) fn steer(
    config: Res<WizardConfig>,
    nav: Option<Res<NavMap>>,
    all: Query<(&OriginalObjectId, &SimTransform, &CollisionProxy, Option<&Kinematics>)>,
    mut units: Query<(&OriginalObjectId, &SteerIntent, &mut WizardPath, &mut MotionRequest)>,
) {
    let bodies = snapshot(&all);
    // Units as points (one cell each), static footprints as boxes; queries widen by
    // the largest unit radius.
    let boxes: Vec<[[f32; 2]; 2]> = bodies
        .iter()
        .map(|(_, b)| match b.footprint {
            None => [b.position, b.position],
            Some(_) => [[b.centre[0] - b.bound, b.centre[1] - b.bound], [b.centre[0] + b.bound, b.centre[1] + b.bound]],
        })
        .collect();
    let unit_radius = bodies.iter().filter(|(_, b)| b.footprint.is_none()).map(|(_, b)| b.radius).fold(0.0, f32::max);
    let fastest = units.iter().filter(|u| u.1.active).map(|u| u.1.max_speed).fold(0.0, f32::max);
    let reach_max = unit_radius + fastest * config.horizons[1] + config.clearance;
    let grid = SpatialGrid::build(&boxes, reach_max.max(4.0));
    let (mut near, mut seen, mut threats) = (Vec::new(), Vec::new(), Vec::new());
    let turns = config.offsets.map(|o| [libm::cosf(o), libm::sinf(o)]);
    let sampler = Sampler { config: &config, turns, nav: nav.as_deref() };
    for (id, intent, mut path, mut request) in &mut units {
        let Ok(me) = bodies.binary_search_by_key(&id.0, |(i, _)| *i) else { continue };
        let body = bodies[me].1;
        if !intent.active {
            *request = MotionRequest::default();
            path.velocity = [0.0; 2];
            continue;
        }
        let preferred = preferred_velocity(body.position, intent);
        let reach = body.radius + intent.max_speed * config.horizons[1] + config.clearance;
        let wide = reach + unit_radius;
        near.clear();
        grid.query(
            [body.position[0] - wide, body.position[1] - wide],
            [body.position[0] + wide, body.position[1] + wide],
            &mut near,
        );
        // A unit sits in one cell; only a static box can be reported by several.
        seen.clear();
        near.retain(|&j| {
            if bodies[j as usize].1.footprint.is_none() {
                return true;
            }
            let first = !seen.contains(&j);
            if first {
                seen.push(j);
            }
            first
        });
        threats.clear();
        // Only what can come within reach before the last horizon.
        let horizon = config.horizons[1];
        threats.extend(near.iter().filter(|&&j| j as usize != me).filter_map(|&j| {
            let o = &bodies[j as usize].1;
            let limit = reach + o.bound + o.speed * horizon;
            let d = [o.centre[0] - body.position[0], o.centre[1] - body.position[1]];
            let d2 = d[0] * d[0] + d[1] * d[1];
            (d2 < limit * limit).then_some((d2, j, *o))
        }));
        // In a dense crowd only the nearest count (by centre distance now, then by id).
        if threats.len() > config.max_neighbours {
            threats.select_nth_unstable_by(config.max_neighbours, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            threats.truncate(config.max_neighbours);
        }
        let choice = choose(&sampler, &body, intent, preferred, &path, threats.iter().map(|(.., o)| o));
        request.velocity = choice;
        let cross = preferred[0] * choice[1] - preferred[1] * choice[0];
        path.side = if cross.abs() < 1e-3 {
            0
        } else if cross > 0.0 {
            1
        } else {
            -1
        };
        path.velocity = choice;
    }
}

/// Towards the waypoint at cruise speed, slowing to stop on the last one.
fn preferred_velocity(p: [f32; 2], intent: &SteerIntent) -> [f32; 2] {
    let d = [intent.waypoint[0] - p[0], intent.waypoint[1] - p[1]];
    let dist = len(d);
    if dist < 1e-4 {
        return [0.0; 2];
    }
    let speed = if intent.last { intent.max_speed.min(dist * 1.5) } else { intent.max_speed };
    [d[0] / dist * speed, d[1] / dist * speed]
}

/// What every unit's choice is made with this tick.
struct Sampler<'a> {
    config: &'a WizardConfig,
    /// Cosine and sine of each sampled turn.
    turns: [[f32; 2]; 4],
    nav: Option<&'a NavMap>,
}

/// The cheapest walkable candidate (standing still when none is).
fn choose<'a>(
    sampler: &Sampler,
    me: &Body,
    intent: &SteerIntent,
    preferred: [f32; 2],
    path: &WizardPath,
    near: impl Iterator<Item = &'a Body> + Clone,
) -> [f32; 2] {
    let Sampler { config, turns, nav } = *sampler;
    let vmax = intent.max_speed.max(1e-3);
    let overlaps = |v: [f32; 2], t: f32| {
        let p = [me.position[0] + v[0] * t, me.position[1] + v[1] * t];
        near.clone().map(move |o| o.overlap(p, t, me.radius + config.clearance)).sum::<f32>()
    };
    let walkable = |v: [f32; 2]| {
        let t = config.horizons[1];
        nav.is_none_or(|n| n.walkable(me.position[0] + v[0] * t, me.position[1] + v[1] * t))
    };
    // A clear way ahead inside the corridor is taken as it is.
    let blocked = config.horizons.iter().any(|&t| overlaps(preferred, t) > 0.0);
    let in_corridor = config.horizons.iter().all(|&t| {
        let p = [me.position[0] + preferred[0] * t, me.position[1] + preferred[1] * t];
        segment_distance(p, intent.from, intent.waypoint) <= intent.corridor_radius
    });
    if !blocked && in_corridor && walkable(preferred) {
        return preferred;
    }
    let speed = len(preferred);
    let mut candidates: Vec<([f32; 2], f32)> = Vec::with_capacity(2 * (2 * turns.len() + 1) + 1);
    for factor in [1.0, 0.5] {
        let v = [preferred[0] * factor, preferred[1] * factor];
        candidates.push((v, 0.0));
        for &[c, s] in &turns {
            // The committed side first, so ties keep the detour going the same way.
            let s = if path.side < 0 { -s } else { s };
            candidates.push((rotate(v, [c, s]), 0.0));
            candidates.push((rotate(v, [c, -s]), 0.0));
        }
    }
    candidates.push(([0.0; 2], 0.0));
    // A corridor blocked ahead may be left to get around the obstacle.
    let corridor_weight = if blocked { 0.0 } else { config.corridor_weight };
    let ahead = if speed > 0.0 { [preferred[0] / speed, preferred[1] / speed] } else { [0.0; 2] };
    // Lost progress towards the waypoint, a little for straying from the preference and
    // for changing the last choice: a lower bound of each candidate's cost.
    for (v, cost) in &mut candidates {
        let dv = [v[0] - preferred[0], v[1] - preferred[1]];
        let dl = [v[0] - path.velocity[0], v[1] - path.velocity[1]];
        *cost = (speed - (v[0] * ahead[0] + v[1] * ahead[1])) / vmax
            + config.straying * len(dv) / vmax
            + config.steadiness * len(dl) / vmax;
    }
    // Predicted overlaps and leaving the corridor only add to it.
    let full = |v: [f32; 2], bound: f32| {
        let mut c = bound;
        for t in config.horizons {
            let p = [me.position[0] + v[0] * t, me.position[1] + v[1] * t];
            c += config.overlap_weight * overlaps(v, t) / me.radius.max(0.1);
            let off = segment_distance(p, intent.from, intent.waypoint) - intent.corridor_radius;
            if off > 0.0 {
                c += corridor_weight * off / intent.corridor_radius.max(0.1);
            }
        }
        c
    };
    // Branch and bound: candidates in bound order, until no bound can beat the best.
    candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut best: Option<([f32; 2], f32)> = None;
    for &(v, bound) in &candidates {
        if best.is_some_and(|(_, b)| bound >= b) {
            break;
        }
        let c = full(v, bound);
        if best.is_none_or(|(_, b)| c < b) {
            best = Some((v, c));
        }
    }
    if let Some((v, _)) = best.filter(|(v, _)| *v == [0.0; 2] || walkable(*v)) {
        return v;
    }
    // The best is not walkable: the cheapest walkable among the six cheapest.
    for (v, cost) in &mut candidates {
        *cost = full(*v, *cost);
    }
    candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
    candidates.iter().take(6).find(|(v, _)| *v == [0.0; 2] || walkable(*v)).map_or([0.0; 2], |(v, _)| *v)
}
