//! Broad phase, narrow phase, correction and contacts. Units are circles, static
//! objects boxes; unit pairs share a correction half and half, a unit touching a static
//! object moves out alone. Pairs are resolved in id order over a fixed number of
//! passes, so the result does not depend on query order.

use crate::config::ControlConfig;
use crate::step::follow_terrain;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{
    Aboard, Collided, CollisionProxy, DispatchPhase, GameClock, GameMessage, GameMessageKind, Indoors, Movable,
    ObjectHandle, ObjectRef, OriginalObjectId, SimTransform, SpatialGrid,
};
use iron3d_terrain::Ground;

/// Interpenetration left after correction never exceeds this (units), and objects this
/// close count as touching.
pub const CONTACT_TOLERANCE: f32 = 0.05;

/// Pairs in contact at the end of the last tick, by ids (lower first).
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Contacts(pub Vec<(u32, u32)>);

pub(crate) fn reset(mut contacts: ResMut<Contacts>) {
    contacts.0.clear();
}

struct Shape {
    id: u32,
    entity: Entity,
    handle: ObjectHandle,
    position: [f32; 2],
    radius: f32,
    /// Static box: centre, half extents, cos/sin of the heading.
    footprint: Option<([f32; 2], [f32; 2], [f32; 2])>,
    movable: bool,
    moved: bool,
    /// The building a unit stands inside (its walls do not push it).
    indoors: Option<u32>,
}

impl Shape {
    fn bounds(&self) -> [[f32; 2]; 2] {
        let (c, r) = match self.footprint {
            Some((c, h, _)) => (c, (h[0] * h[0] + h[1] * h[1]).sqrt()),
            None => (self.position, self.radius),
        };
        [[c[0] - r, c[1] - r], [c[0] + r, c[1] + r]]
    }
}

/// Penetration depth and the unit normal pushing a circle at `p` (radius `r`) out of
/// the box (`centre`, `half`, `cs` = cos/sin of its heading).
fn circle_box(p: [f32; 2], r: f32, (centre, half, cs): ([f32; 2], [f32; 2], [f32; 2])) -> (f32, [f32; 2]) {
    let d = [p[0] - centre[0], p[1] - centre[1]];
    let local = [cs[0] * d[0] + cs[1] * d[1], -cs[1] * d[0] + cs[0] * d[1]];
    let to_world = |n: [f32; 2]| [cs[0] * n[0] - cs[1] * n[1], cs[1] * n[0] + cs[0] * n[1]];
    let inside = local[0].abs() <= half[0] && local[1].abs() <= half[1];
    if inside {
        let (gx, gy) = (half[0] - local[0].abs(), half[1] - local[1].abs());
        let n = if gx <= gy { [local[0].signum(), 0.0] } else { [0.0, local[1].signum()] };
        return (gx.min(gy) + r, to_world(n));
    }
    let q = [local[0].clamp(-half[0], half[0]), local[1].clamp(-half[1], half[1])];
    let e = [local[0] - q[0], local[1] - q[1]];
    let dist = (e[0] * e[0] + e[1] * e[1]).sqrt();
    (r - dist, to_world([e[0] / dist, e[1] / dist]))
}

/// Penetration and normal (from `a` to `b`) of a pair; `None` when neither moves.
fn contact(a: &Shape, b: &Shape) -> Option<(f32, [f32; 2])> {
    if a.indoors == Some(b.id) || b.indoors == Some(a.id) {
        return None;
    }
    match (a.footprint, b.footprint) {
        (None, None) => {
            let d = [b.position[0] - a.position[0], b.position[1] - a.position[1]];
            let dist = (d[0] * d[0] + d[1] * d[1]).sqrt();
            // Coincident centres separate along +X, the lower id to the left.
            let n = if dist > 1e-6 { [d[0] / dist, d[1] / dist] } else { [1.0, 0.0] };
            Some((a.radius + b.radius - dist, n))
        }
        (None, Some(f)) if a.movable => {
            let (depth, n) = circle_box(a.position, a.radius, f);
            Some((depth, [-n[0], -n[1]]))
        }
        (Some(f), None) if b.movable => Some(circle_box(b.position, b.radius, f)),
        _ => None,
    }
}

/// Candidate pairs `(i, j)`, `i < j` in id order, at least one of them a unit.
fn candidate_pairs(shapes: &[Shape]) -> Vec<(usize, usize)> {
    let boxes: Vec<[[f32; 2]; 2]> = shapes.iter().map(Shape::bounds).collect();
    let unit_radius = shapes.iter().filter(|s| s.movable).map(|s| s.radius).fold(0.5, f32::max);
    let grid = SpatialGrid::build(&boxes, 4.0 * unit_radius);
    let mut pairs = Vec::new();
    let mut near = Vec::new();
    for (i, _) in shapes.iter().enumerate().filter(|(_, s)| s.movable) {
        near.clear();
        let [lo, hi] = boxes[i];
        let pad = CONTACT_TOLERANCE;
        grid.query([lo[0] - pad, lo[1] - pad], [hi[0] + pad, hi[1] + pad], &mut near);
        for &j in &near {
            let j = j as usize;
            let overlap = boxes[j][0][0] <= hi[0] + pad
                && boxes[j][1][0] >= lo[0] - pad
                && boxes[j][0][1] <= hi[1] + pad
                && boxes[j][1][1] >= lo[1] - pad;
            if j != i && overlap && (j > i || !shapes[j].movable) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Resolves overlaps, records contacts, posts the new ones.
pub(crate) fn collide(
    config: Res<ControlConfig>,
    clock: Res<GameClock>,
    ground: Option<Res<Ground>>,
    mut contacts: ResMut<Contacts>,
    mut objects: Query<
        (Entity, &OriginalObjectId, &ObjectHandle, &mut SimTransform, &CollisionProxy, Has<Movable>, Option<&Indoors>),
        Without<Aboard>,
    >,
    mut out: MessageWriter<GameMessage>,
    mut commands: Commands,
) {
    let mut shapes: Vec<Shape> = objects
        .iter()
        .map(|(entity, id, handle, t, proxy, movable, indoors)| {
            let position = [t.position[0], t.position[1]];
            let footprint = (!proxy.circle).then(|| {
                let h = t.heading();
                let cs = [libm::cosf(h), libm::sinf(h)];
                let o = proxy.offset;
                (
                    [position[0] + cs[0] * o[0] - cs[1] * o[1], position[1] + cs[1] * o[0] + cs[0] * o[1]],
                    proxy.half_extents,
                    cs,
                )
            });
            Shape {
                id: id.0,
                entity,
                handle: *handle,
                position,
                radius: proxy.radius,
                footprint,
                movable,
                moved: false,
                indoors: indoors.map(|i| i.0),
            }
        })
        .collect();
    shapes.sort_unstable_by_key(|s| s.id);
    let pairs = candidate_pairs(&shapes);
    for _ in 0..config.passes {
        for &(i, j) in &pairs {
            let Some((depth, n)) = contact(&shapes[i], &shapes[j]) else { continue };
            if depth <= 0.0 {
                continue;
            }
            let (wi, wj) = match (shapes[i].movable, shapes[j].movable) {
                (true, true) => (0.5, 0.5),
                (true, false) => (1.0, 0.0),
                (false, true) => (0.0, 1.0),
                (false, false) => continue,
            };
            for (k, w, sign) in [(i, wi, -1.0), (j, wj, 1.0)] {
                if w > 0.0 {
                    let s = &mut shapes[k];
                    s.position[0] += sign * n[0] * depth * w;
                    s.position[1] += sign * n[1] * depth * w;
                    s.moved = true;
                }
            }
        }
    }
    let mut touching: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(i, j)| contact(&shapes[i], &shapes[j]).is_some_and(|(d, _)| d > -CONTACT_TOLERANCE))
        .collect();
    touching.sort_unstable_by_key(|&(i, j)| (shapes[i].id, shapes[j].id));
    let now: Vec<(u32, u32)> = touching.iter().map(|&(i, j)| (shapes[i].id, shapes[j].id)).collect();
    for (&(i, j), key) in touching.iter().zip(&now) {
        if contacts.0.binary_search(key).is_ok() {
            continue;
        }
        let (a, b) = (&shapes[i], &shapes[j]);
        let refs = (
            ObjectRef { id: OriginalObjectId(a.id), handle: a.handle },
            ObjectRef { id: OriginalObjectId(b.id), handle: b.handle },
        );
        out.write(GameMessage::new(&clock, DispatchPhase::Control, GameMessageKind::CollisionDetected(refs.0, refs.1)));
        commands.trigger(Collided { entity: a.entity, other: b.entity });
        commands.trigger(Collided { entity: b.entity, other: a.entity });
    }
    contacts.0 = now;
    for s in shapes.iter().filter(|s| s.moved) {
        if let Ok((.., mut t, _, _, _)) = objects.get_mut(s.entity) {
            t.position[0] = s.position[0];
            t.position[1] = s.position[1];
            if let Some(ground) = &ground {
                follow_terrain(ground, &mut t);
            }
        }
    }
}
