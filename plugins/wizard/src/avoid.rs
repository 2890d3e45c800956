//! Sampled velocity selection with predicted-overlap costs.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{
    BuildingCategory, ClearWizardPath, CollisionProxy, DomeObstacle, Kinematics, MotionRequest, OriginalObjectId,
    SimTransform, SpatialGrid, SteerIntent,
};
use iron3d_formats::registry::BuildCategory;
use iron3d_terrain::{BehaviorIni, NavMap};

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
    /// Nearest other units considered per unit (bounds the cost in dense crowds; static
    /// footprints within reach always count).
    pub max_neighbours: usize,
    /// Padding of a building's footprint by its `BuildDat.lst` category (mask, units),
    /// kept on top of `clearance`; a building no category lists gets none. The spec
    /// gives the categories no footprint meaning: the rule and the numbers are the
    /// project's own (defaults: 2 for the buildings units leave from or come to —
    /// Hangar, Plant, MainTeleport — so passing traffic keeps their entrances clear,
    /// 1 for the fortifications — bunkers and towers —, 0.5 for the rest).
    pub category_clearance: Vec<(u32, f32)>,
    /// `UseWizard` of `Behavior.ini` (a switch, default on): off, a unit asks for the
    /// velocity straight along Behavior's local path, without any avoidance (the effect
    /// inferred from the name).
    pub enabled: bool,
}

impl WizardConfig {
    /// The footprint padding of a building of category `category` (0 when unlisted).
    pub fn padding(&self, category: Option<BuildingCategory>) -> f32 {
        category.and_then(|c| self.category_clearance.iter().find(|(m, _)| *m == c.0)).map_or(0.0, |(_, p)| *p)
    }
}

/// The project's default padding per `BuildDat.lst` category (see
/// [`WizardConfig::category_clearance`]).
fn default_padding(category: BuildCategory) -> f32 {
    use BuildCategory::*;
    match category {
        Hangar | Plant | MainTeleport => 2.0,
        BunkerSmall | BunkerMedium | BunkerLarge | TowerMedium | TowerLarge => 1.0,
        Generator | Mine | Storage | Institute => 0.5,
    }
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
            category_clearance: BuildCategory::TABLE.iter().map(|&(c, _, mask)| (mask, default_padding(c))).collect(),
            enabled: true,
        }
    }
}

/// The wizard path of a unit: its last chosen velocity and the side it committed to
/// when passing an obstacle (cleared by Behavior through [`ClearWizardPath`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct WizardPath {
    /// Last requested velocity.
    pub velocity: [f32; 2],
    /// Committed detour side: -1 right, 0 none, 1 left.
    pub side: i8,
}

/// A mission opens: `UseWizard` of its `Behavior.ini` (on when absent).
pub(crate) fn load(mut config: ResMut<WizardConfig>, ini: Option<Res<BehaviorIni>>) {
    config.enabled = ini.and_then(|i| BehaviorIni::switch(&i.0.use_wizard)).unwrap_or(true);
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
    /// The shape of a static object.
    footprint: Option<Footprint>,
    /// Centre of the shape and the radius of a circle around it.
    centre: [f32; 2],
    bound: f32,
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
            Some(footprint) => (reach - footprint.distance(p)).max(0.0),
        }
    }
}

/// A static object's shape: its box (centre, half extents, cosine and sine of the
/// heading), or while its construction sphere stands as an obstacle, the dome's octagon
/// about its place.
#[derive(Debug, Clone, Copy)]
enum Footprint {
    Box([f32; 2], [f32; 2], [f32; 2]),
    Dome([f32; 2], DomeObstacle),
}

impl Footprint {
    /// Distance from `p` to the shape (negative inside).
    fn distance(&self, p: [f32; 2]) -> f32 {
        match *self {
            Self::Box(centre, half, cs) => box_distance((centre, half, cs), p),
            Self::Dome(c, dome) => dome.distance([p[0] - c[0], p[1] - c[1]]),
        }
    }

    /// The shape's centre and the radius of a circle around it.
    fn bounds(&self) -> ([f32; 2], f32) {
        match *self {
            Self::Box(centre, half, _) => (centre, len(half)),
            Self::Dome(centre, dome) => (centre, dome.radius),
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

/// Every object with a proxy, as Wizard reads it.
type Objects<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static OriginalObjectId,
        &'static SimTransform,
        &'static CollisionProxy,
        Option<&'static Kinematics>,
        Option<&'static BuildingCategory>,
        Option<&'static DomeObstacle>,
    ),
>;

/// The snapshot every unit decides against (previous tick's state, id order; with the
/// entities, only to write the results back); building footprints padded by their
/// category's clearance.
fn snapshot(all: &Objects, config: &WizardConfig) -> (Vec<(u32, Body)>, Vec<Entity>) {
    let mut bodies: Vec<((u32, Body), Entity)> = all
        .iter()
        .map(|(entity, id, t, proxy, kin, category, dome)| {
            let heading = t.heading();
            let (s, c) = (libm::sinf(heading), libm::cosf(heading));
            let position = [t.position[0], t.position[1]];
            let speed = kin.map_or(0.0, |k| k.speed);
            let f = [c, s];
            let footprint = match dome {
                Some(dome) => Some(Footprint::Dome(position, *dome)),
                None => (!proxy.circle).then(|| {
                    let (o, pad) = (proxy.offset, config.padding(category.copied()));
                    let half = [proxy.half_extents[0] + pad, proxy.half_extents[1] + pad];
                    Footprint::Box([position[0] + c * o[0] - s * o[1], position[1] + s * o[0] + c * o[1]], half, [c, s])
                }),
            };
            let (centre, bound) = footprint.map_or((position, proxy.radius), |f| f.bounds());
            let velocity = [f[0] * speed, f[1] * speed];
            ((id.0, Body { position, velocity, radius: proxy.radius, footprint, centre, bound }), entity)
        })
        .collect();
    bodies.sort_unstable_by_key(|((id, _), _)| *id);
    bodies.into_iter().unzip()
}

/// What one unit can collide with before the last horizon: every static footprint
/// within reach, and of the other units less than its reach plus the largest unit
/// radius away now (a unit closing in faster is seen on a later tick) and whose way
/// until the last horizon comes within its reach, the nearest `max_neighbours` (by
/// centre distance now, then by id). Units are searched ring by ring of grid cells
/// around the unit, stopping when the next ring cannot hold a nearer one, so the work
/// stays bounded however dense the crowd (the project's own method).
struct Neighbourhood {
    /// Snapshot indices of the static boxes, and their grid.
    statics: Vec<u32>,
    static_grid: SpatialGrid,
    /// Units as points, and their data in the order of the grid's items.
    circle_grid: SpatialGrid,
    packed: Vec<Packed>,
    /// The largest unit radius.
    unit_radius: f32,
}

/// A unit as the neighbour search reads it (in grid order, so a ring row is one run of
/// memory).
#[derive(Debug, Clone, Copy)]
struct Packed {
    position: [f32; 2],
    /// The way run until the last horizon at the current velocity.
    run: [f32; 2],
    radius: f32,
    /// Index into the snapshot.
    index: u32,
}

/// Scratch buffers reused across units.
#[derive(Default)]
struct Scratch {
    cells: Vec<u32>,
    nearest: Vec<(f32, u32)>,
    threats: Vec<u32>,
}

impl Neighbourhood {
    fn new(bodies: &[(u32, Body)], horizon: f32) -> Self {
        let (mut circles, mut statics) = (Vec::new(), Vec::new());
        for (j, (_, b)) in bodies.iter().enumerate() {
            if b.footprint.is_none() { circles.push(j as u32) } else { statics.push(j as u32) }
        }
        let body = |j: &u32| &bodies[*j as usize].1;
        let points: Vec<[[f32; 2]; 2]> = circles.iter().map(body).map(|b| [b.position, b.position]).collect();
        let boxes: Vec<[[f32; 2]; 2]> = statics
            .iter()
            .map(body)
            .map(|b| [[b.centre[0] - b.bound, b.centre[1] - b.bound], [b.centre[0] + b.bound, b.centre[1] + b.bound]])
            .collect();
        let unit_radius = circles.iter().map(body).map(|b| b.radius).fold(0.0, f32::max);
        // Cells about the mean spacing of the units (one unit per cell on average), so
        // the rings around a unit in a dense crowd hold little more than its nearest.
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for p in &points {
            for k in 0..2 {
                lo[k] = lo[k].min(p[0][k]);
                hi[k] = hi[k].max(p[0][k]);
            }
        }
        let area = (hi[0] - lo[0]).max(0.0) * (hi[1] - lo[1]).max(0.0);
        let spacing = (area / points.len().max(1) as f32).sqrt();
        let circle_grid = SpatialGrid::build(&points, (2.0 * unit_radius.max(0.5)).max(spacing));
        let packed: Vec<Packed> = circle_grid
            .items()
            .iter()
            .map(|&k| {
                let index = circles[k as usize];
                let b = body(&index);
                let run = [b.velocity[0] * horizon, b.velocity[1] * horizon];
                Packed { position: b.position, run, radius: b.radius, index }
            })
            .collect();
        let static_grid = SpatialGrid::build(&boxes, 16.0);
        Self { statics, static_grid, circle_grid, packed, unit_radius }
    }

    /// The threats of unit `me` (a snapshot index) with reach `reach`, in id order.
    fn threats(&self, bodies: &[(u32, Body)], me: usize, reach: f32, config: &WizardConfig, s: &mut Scratch) {
        let p = bodies[me].1.position;
        s.threats.clear();
        if !self.statics.is_empty() {
            // Static footprints whose bounding circle is within reach (a box spanning
            // several cells is reported once per cell).
            s.cells.clear();
            let wide = reach + self.unit_radius;
            self.static_grid.query([p[0] - wide, p[1] - wide], [p[0] + wide, p[1] + wide], &mut s.cells);
            s.cells.sort_unstable();
            s.cells.dedup();
            s.threats.extend(s.cells.iter().map(|&k| self.statics[k as usize]).filter(|&j| {
                let o = &bodies[j as usize].1;
                let limit = reach + o.bound;
                let d = [o.centre[0] - p[0], o.centre[1] - p[1]];
                d[0] * d[0] + d[1] * d[1] < limit * limit
            }));
        }
        // Units, ring by ring, until the next ring can hold nothing nearer; `nearest`
        // stays sorted (centre distance now, then id) and at most `k` long.
        let k = config.max_neighbours;
        let limit_max = reach + self.unit_radius;
        let nearest = &mut s.nearest;
        nearest.clear();
        let rank = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let cell = self.circle_grid.cell_of(p);
        let mut r = 0;
        while let Some(gap) = self.circle_grid.ring_gap(p, cell, r).filter(|_| k > 0) {
            if gap >= limit_max || nearest.len() >= k && nearest[k - 1].0 < gap * gap {
                break;
            }
            let within = if nearest.len() >= k { limit_max.min(nearest[k - 1].0.sqrt()) } else { limit_max };
            self.circle_grid.ring_spans(p, cell, r, within, |span| {
                for q in &self.packed[span] {
                    let d = [q.position[0] - p[0], q.position[1] - p[1]];
                    let d2 = d[0] * d[0] + d[1] * d[1];
                    let candidate = (d2, q.index);
                    if d2 >= limit_max * limit_max
                        || q.index as usize == me
                        || nearest.len() >= k && rank(&candidate, &nearest[k - 1]).is_ge()
                        || !comes_within(d, q.run, reach + q.radius)
                    {
                        continue;
                    }
                    // Insertion into the short sorted list (the last falls off when full).
                    let mut at = nearest.len();
                    if at < k {
                        nearest.push(candidate);
                    } else {
                        at -= 1;
                    }
                    while at > 0 && rank(&nearest[at - 1], &candidate).is_gt() {
                        nearest[at] = nearest[at - 1];
                        at -= 1;
                    }
                    nearest[at] = candidate;
                }
            });
            r += 1;
        }
        s.threats.extend(nearest.iter().map(|&(_, j)| j));
        s.threats.sort_unstable();
    }
}

/// Whether a body at offset `d` from a point, running `run` until the last horizon,
/// comes closer than `limit` to it on the way.
fn comes_within(d: [f32; 2], run: [f32; 2], limit: f32) -> bool {
    let l2 = run[0] * run[0] + run[1] * run[1];
    let t = if l2 > 0.0 { (-(d[0] * run[0] + d[1] * run[1]) / l2).clamp(0.0, 1.0) } else { 0.0 };
    let c = [d[0] + run[0] * t, d[1] + run[1] * t];
    c[0] * c[0] + c[1] * c[1] < limit * limit
}

/// Chooses every active unit's requested velocity.
pub(crate) fn steer(
    config: Res<WizardConfig>,
    nav: Option<Res<NavMap>>,
    all: Objects,
    mut units: Query<(&SteerIntent, &mut WizardPath, &mut MotionRequest)>,
) {
    let (bodies, entities) = snapshot(&all, &config);
    let hood = Neighbourhood::new(&bodies, config.horizons[1]);
    let mut scratch = Scratch::default();
    let turns = config.offsets.map(|o| [libm::cosf(o), libm::sinf(o)]);
    let sampler = Sampler { config: &config, turns, nav: nav.as_deref() };
    // Units in grid order, so neighbours decide one after the other (each decision reads
    // only the snapshot: the order changes nothing but memory locality).
    for me in hood.packed.iter().map(|q| q.index as usize) {
        let Ok((intent, mut path, mut request)) = units.get_mut(entities[me]) else { continue };
        let body = bodies[me].1;
        if !intent.active {
            *request = MotionRequest::default();
            path.velocity = [0.0; 2];
            continue;
        }
        let preferred = preferred_velocity(body.position, intent);
        if !config.enabled {
            (request.velocity, path.velocity) = (preferred, preferred);
            continue;
        }
        let reach = body.radius + intent.max_speed * config.horizons[1] + config.clearance;
        hood.threats(&bodies, me, reach, &config, &mut scratch);
        let near = scratch.threats.iter().map(|&j| &bodies[j as usize].1);
        let choice = choose(&sampler, &body, intent, preferred, &path, near);
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
    let blocked = config.horizons.iter().any(|&t| {
        let p = [me.position[0] + preferred[0] * t, me.position[1] + preferred[1] * t];
        near.clone().any(|o| o.overlap(p, t, me.radius + config.clearance) > 0.0)
    });
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
