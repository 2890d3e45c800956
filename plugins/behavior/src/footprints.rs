//! Building footprints as Behavior sees them (the box proxies Control builds from the
//! model bounds): how far a point is from the nearest one, and where a unit standing on
//! one steps off it (`PathFind_BuildingNearestDist`, `PathFind_fStepOffBuilding`).

use bevy_ecs::prelude::*;
use iron3d_core::{CollisionProxy, Movable, ObjectKind, SimObject, SimTransform};

/// The buildings' proxies, read each tick.
pub(crate) type Buildings<'w, 's> =
    Query<'w, 's, (&'static SimObject, &'static SimTransform, &'static CollisionProxy), Without<Movable>>;

/// One footprint: centre, half extents and the heading's cosine and sine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    /// Centre, XY.
    pub centre: [f32; 2],
    /// Half extents in the building's local XY.
    pub half: [f32; 2],
    /// `[cos, sin]` of the building's heading.
    pub turn: [f32; 2],
}

impl Footprint {
    /// The box proxy of an object placed at `t`.
    pub fn of(t: &SimTransform, p: &CollisionProxy) -> Self {
        let h = t.heading();
        let turn = [libm::cosf(h), libm::sinf(h)];
        let centre = [
            t.position[0] + turn[0] * p.offset[0] - turn[1] * p.offset[1],
            t.position[1] + turn[1] * p.offset[0] + turn[0] * p.offset[1],
        ];
        Footprint { centre, half: p.half_extents, turn }
    }

    fn local(&self, p: [f32; 2]) -> [f32; 2] {
        let d = [p[0] - self.centre[0], p[1] - self.centre[1]];
        let [c, s] = self.turn;
        [c * d[0] + s * d[1], -s * d[0] + c * d[1]]
    }

    pub(crate) fn world(&self, l: [f32; 2]) -> [f32; 2] {
        let [c, s] = self.turn;
        [self.centre[0] + c * l[0] - s * l[1], self.centre[1] + s * l[0] + c * l[1]]
    }

    /// Distance from `p` to the footprint (0 inside).
    pub fn distance(&self, p: [f32; 2]) -> f32 {
        let l = self.local(p);
        let out = [0, 1].map(|k| (l[k].abs() - self.half[k]).max(0.0));
        (out[0] * out[0] + out[1] * out[1]).sqrt()
    }

    /// The point `step` beyond the footprint's edge nearest to `p`, straight out from
    /// `p` (along the local axis `p` is closest to leaving by).
    pub fn step_off(&self, p: [f32; 2], step: f32) -> [f32; 2] {
        let mut l = self.local(p);
        let room = [0, 1].map(|k| self.half[k] - l[k].abs());
        let k = usize::from(room[1] < room[0]);
        l[k] = if l[k] < 0.0 { -(self.half[k] + step) } else { self.half[k] + step };
        self.world(l)
    }
}

/// The footprints of every building in the world, in id order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Footprints(pub Vec<Footprint>);

impl Footprints {
    /// The buildings' box proxies.
    pub fn of(buildings: &Buildings<'_, '_>) -> Self {
        let mut out: Vec<Footprint> = buildings
            .iter()
            .filter(|(o, _, p)| o.kind == ObjectKind::Building && !p.circle)
            .map(|(_, t, p)| Footprint::of(t, p))
            .collect();
        // Query order is not stable across runs: order by place.
        out.sort_by(|a, b| a.centre.partial_cmp(&b.centre).unwrap_or(std::cmp::Ordering::Equal));
        Self(out)
    }

    /// Whether `p` is within `reach` of some footprint.
    pub fn within(&self, p: [f32; 2], reach: f32) -> bool {
        self.0.iter().any(|f| f.distance(p) <= reach)
    }

    /// The first footprint `p` is within `reach` of.
    pub fn standing_on(&self, p: [f32; 2], reach: f32) -> Option<&Footprint> {
        self.0.iter().find(|f| f.distance(p) <= reach)
    }
}
