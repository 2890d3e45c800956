//! Routes as the scripts see them (gameplay.md §13 after dragonee/openparkan
//! `docs/34-progression.md`, "Routes are tactical areals", "Who stands in a route"):
//! the `data.tma` routes are **polygons**, the system areal map's *tactical areals*,
//! ids 0..n−1 (areal *i* takes the points of the route whose id is *i*; an areal with
//! no such route is empty). A point is inside when a ray from it toward +x crosses the
//! outline, closed from its last point to its first, an odd number of times (x and y
//! only; an edge counts when one end is at or above the point's y and the other below,
//! and it meets the ray at or right of the point).
//!
//! Each unit reports where it stands: at once when it is first seen, then on its
//! behaviour takt, every 1984–4916 ms of game time (31 × 64 + rand8 × 46 × 64 ÷ 256,
//! rand8 the low byte of a random number), when it moved more than 5 by |dx| + |dy|
//! since its last report or its navigation areal changed. A report files the unit in
//! every tactical areal its x, y lies in. Function 32 answers from the last report, so
//! the list lags; a unit that stops stays where it was last reported.
//!
//! The project's: the random numbers come from the seeded stream [`STREAM`] (the
//! original's `Behavior.dll` draws from its own never-seeded `rand()`), a unit that is
//! deleted leaves the lists, and a mission whose areals are all empty reports nothing
//! (function 32 answers 0 either way).

use bevy_ecs::prelude::*;
use iron3d_core::{GameClock, Movable, OriginalObjectId, RandomStream, SimObject, SimRandom, SimTransform};
use iron3d_terrain::{MissionPaths, NavMap};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The random stream of the report takts.
pub const STREAM: &str = "superai.routes";
/// Movement (|dx| + |dy|) past which a takt reports.
pub const MOVE_LIMIT: f32 = 5.0;
/// The takt's fixed wait (31 × 64 ms).
pub const TAKT_BASE_MS: u32 = 31 * 64;
/// The takt's random share's range (46 × 64 ms, scaled by rand8 / 256).
pub const TAKT_SPREAD_MS: u32 = 46 * 64;

/// Whether `p` lies inside `outline` (the ray-crossing test).
pub fn contains(outline: &[[f32; 2]], p: [f32; 2]) -> bool {
    let (px, py) = (f64::from(p[0]), f64::from(p[1]));
    let mut inside = false;
    for (i, a) in outline.iter().enumerate() {
        let b = outline[(i + 1) % outline.len()];
        let (ax, ay, bx, by) = (f64::from(a[0]), f64::from(a[1]), f64::from(b[0]), f64::from(b[1]));
        if (ay >= py) != (by >= py) {
            let x = ax + (py - ay) * (bx - ax) / (by - ay);
            if x >= px {
                inside = !inside;
            }
        }
    }
    inside
}

/// A unit's last report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Where it stood (x, y).
    pub at: [f32; 2],
    /// Its navigation areal then.
    pub nav: Option<u32>,
    /// When its next takt is due (game ms).
    pub next_ms: u32,
    /// The tactical areals it was filed in.
    pub inside: Vec<u32>,
}

/// The tactical areals and the units' reports.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Routes {
    /// Areal *i*'s outline (x, y), from the mission's routes (static: not saved).
    #[serde(skip)]
    pub outlines: Vec<Vec<[f32; 2]>>,
    /// The last report of each unit, by `OriginalObjectId`.
    pub units: BTreeMap<u32, Report>,
}

impl Routes {
    /// The areals of the mission's routes: as many as routes, areal *i* from the route
    /// whose id is *i*.
    pub fn of(paths: &MissionPaths) -> Self {
        let outlines = (0..paths.0.len())
            .map(|i| {
                let route = i32::try_from(i).ok().and_then(|i| paths.get(i));
                route.map(|r| r.points.iter().map(|p| [p[0], p[1]]).collect()).unwrap_or_default()
            })
            .collect();
        Self { outlines, units: BTreeMap::new() }
    }

    /// The areals `p` lies in.
    pub fn areals_at(&self, p: [f32; 2]) -> Vec<u32> {
        (0..self.outlines.len()).filter(|i| contains(&self.outlines[*i], p)).map(|i| i as u32).collect()
    }

    /// Whether unit `id` (`OriginalObjectId`) was last reported inside areal `route`.
    pub fn inside(&self, route: u32, id: u32) -> bool {
        self.units.get(&id).is_some_and(|r| r.inside.contains(&route))
    }

    /// Whether any areal has an outline.
    pub fn any(&self) -> bool {
        self.outlines.iter().any(|o| o.len() >= 3)
    }

    /// One tick of reports: every unit first seen reports; every unit whose takt is due
    /// reports if it moved or changed areal, and draws its next takt; in id order.
    pub fn step(&mut self, units: Vec<(u32, [f32; 2], Option<u32>)>, now: &GameClock, stream: &mut RandomStream) {
        let mut delay = || TAKT_BASE_MS + ((stream.below(256) * TAKT_SPREAD_MS) >> 8);
        for (id, at, nav) in units {
            match self.units.get(&id) {
                None => {
                    let inside = self.areals_at(at);
                    self.units.insert(id, Report { at, nav, next_ms: now.time_ms.wrapping_add(delay()), inside });
                }
                Some(r) if now.reached(r.next_ms) => {
                    let moved = (at[0] - r.at[0]).abs() + (at[1] - r.at[1]).abs() > MOVE_LIMIT;
                    let report = moved || nav != r.nav;
                    let inside = if report { self.areals_at(at) } else { Vec::new() };
                    let next_ms = now.time_ms.wrapping_add(delay());
                    if let Some(r) = self.units.get_mut(&id) {
                        if report {
                            *r = Report { at, nav, next_ms, inside };
                        } else {
                            r.next_ms = next_ms;
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
}

/// The report step of a tick: the units whose report is due, in id order.
pub(crate) fn report(world: &mut World, routes: &mut Routes) {
    if !routes.any() {
        return;
    }
    let clock = *world.resource::<GameClock>();
    let mut due: Vec<(u32, [f32; 2])> = world
        .query_filtered::<(&OriginalObjectId, &SimTransform), (With<Movable>, With<SimObject>)>()
        .iter(world)
        .filter(|(id, _)| routes.units.get(&id.0).is_none_or(|r| clock.reached(r.next_ms)))
        .map(|(id, t)| (id.0, [t.position[0], t.position[1]]))
        .collect();
    if due.is_empty() {
        return;
    }
    due.sort_unstable_by_key(|(id, _)| *id);
    let nav = world.get_resource::<NavMap>();
    let units = due.into_iter().map(|(id, at)| (id, at, nav.and_then(|n| n.area_at(at[0], at[1])))).collect();
    let mut random = world.resource_mut::<SimRandom>();
    routes.step(units, &clock, random.stream(STREAM));
}
