//! Guard (the original's patrol, `ORDER_ROBOT_PATROL`, 4, openparkan
//! `docs/31-packages.md`, "The patrol, tick by tick" and "A task's limits", read).
//!
//! **The ground**: a place (radius 60), a unit of the guard's own clan (60) or a building
//! of any clan (30), or the order's radius when it gives one. **The loop**: about a
//! place 15 to 19 points, about a unit 3 to 7, each the centre ± the radius along x and
//! y, at least 100 inside the map and walkable (350 tries, the last kept); about a
//! building one point per corner of its footprint pushed out 30 from its centre (the
//! original pushes out its `.bas` outer ring's corners: the box is the project's stand-in).
//! It walks the points in turn, at 0.8 of its speed about a place and full speed
//! otherwise, and draws a fresh loop every 20 + 0..10 s (place), 5 + 0..10 s (unit) or
//! 60 + 0..60 s (building). It never ends by itself; a guard of a unit that is gone or
//! of another clan, or of a building that is gone, fails (`rejected`).
//!
//! **A small unit** (size class 2 at most) told to guard another clan's building
//! captures it first, escapes from it and guards it then (the project passes over a
//! building its capture would refuse: a main teleport or one without a pod).
//!
//! **Fighting**: its guns fire at the nearest hostile contact as every unit's do. It
//! takes up an attack only against a hostile machine its radar lists strictly inside
//! the ground (across the ground from the place, the building, or the unit with the
//! distance × 0.7), the best by `(2 − (a + 1) ÷ (b + 1)) × (c × b + 10) ÷ (d + 10)`
//! (`a` life left, `b` whole, `d` the distance, `c` the guns' rate: the contact's first
//! gun's damage stands for it, the project's); and it answers whoever hits it, wherever
//! the firer is. An interrupt waits 2 + 0..3 s after the last one and needs a weapon.
//! The attack ends beyond radius + 60 of the place or the unit, or radius + 80 of the
//! building (in three dimensions, a place at its given height), and the guard draws a
//! fresh loop.

use crate::haul;
use crate::navigator::{Navigator, Walker};
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    Aboard, ClanRelations, ClearWizardPath, CollisionProxy, GameClock, GameMessage, Guard, Health, LastHit,
    ManualControl, Movable, NavState, ObjectTable, Order, OriginalObjectId, Owner, Places, ProductionEvent, Radar,
    RadarContacts, RandomStream, SimRandom, SimTransform, SizeClass, UnitClass, Ward, Weapon, place,
};
use iron3d_terrain::{Ground, NavMap};
use std::collections::BTreeMap;

/// What a guard watches: its radius, loop, timer (fixed and random seconds) and speed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Kind {
    radius: f32,
    points: (u32, u32),
    renew_s: (u32, u32),
    /// How far past the radius an attack it takes up may go.
    hold: f32,
}

const PLACE: Kind = Kind { radius: 60.0, points: (15, 5), renew_s: (20, 10), hold: 60.0 };
const UNIT: Kind = Kind { radius: 60.0, points: (3, 5), renew_s: (5, 10), hold: 60.0 };
const BUILDING: Kind = Kind { radius: 30.0, points: (0, 0), renew_s: (60, 60), hold: 80.0 };

/// The share of its speed a guard of a place walks at (read; the others' figures come to
/// full speed).
pub const PLACE_SPEED: f32 = 0.8;
/// The guards' random stream.
const STREAM: &str = "behavior.guard";
/// Tries for a loop point (read).
const POINT_TRIES: u32 = 350;
/// How far inside the map a loop point lies (read).
const MARGIN: f32 = 100.0;
/// A unit guard measures a contact's distance at this share (read).
const UNIT_SHARE: f32 = 0.7;
/// The pause between two interrupts a unit lets through (2 s + 0..3 s, read).
const PAUSE_S: (u32, u32) = (2, 3);

/// Where a guard's attack ends: a circle about a place or building (three dimensions),
/// or a distance from the unit it guards.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Hold {
    /// Centre and radius.
    Circle([f32; 3], f32),
    /// The guarded unit's id and the radius.
    Near(u32, f32),
}

/// One guard's loop and the attack it took up.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Watch {
    /// The loop's points.
    pub points: Vec<[f32; 2]>,
    /// The point it walks to.
    pub next: usize,
    /// When it draws a fresh loop (game ms).
    pub renew_ms: u32,
    /// Until when it lets no interrupt through.
    pub pause_ms: u32,
    /// The tick of the last hit it answered.
    pub answered_hit: u32,
    /// The attack it took up: its target and where it ends.
    pub attack: Option<(u32, Hold)>,
}

/// Every guard's watch, by unit id.
#[derive(Resource, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Guards(pub BTreeMap<u32, Watch>);

/// A fresh mission has no guard.
pub(crate) fn reset(mut guards: ResMut<Guards>) {
    guards.0.clear();
}

/// A guard: its size class, weapon, last hit and radar, and whether the player drives it.
type Guardian<'a> = Walker<
    'a,
    (
        (Option<&'a SizeClass>, Option<&'a Weapon>, Option<&'a LastHit>, Option<&'a Radar>, Option<&'a RadarContacts>),
        Option<&'a ManualControl>,
    ),
>;

/// An object as a guard looks at it.
type Sight<'a> = (
    &'a OriginalObjectId,
    &'a Owner,
    &'a SimTransform,
    Option<&'a Health>,
    (Has<Movable>, Option<&'a CollisionProxy>, Option<&'a Places>, Option<&'a UnitClass>, Option<&'a Weapon>),
);

/// An object as a guard sees it (the first of the last five: a machine).
type Seen<'a> = (
    &'a OriginalObjectId,
    &'a Owner,
    &'a SimTransform,
    Option<&'a Health>,
    (bool, Option<&'a CollisionProxy>, Option<&'a Places>, Option<&'a UnitClass>, Option<&'a Weapon>),
);

/// The world a guard reads.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Lookout<'w> {
    clock: Res<'w, GameClock>,
    relations: Res<'w, ClanRelations>,
    table: Res<'w, ObjectTable>,
    nav: Option<Res<'w, NavMap>>,
    ground: Option<Res<'w, Ground>>,
    random: ResMut<'w, SimRandom>,
}

/// The ground a guard watches now: its beat.
struct Beat {
    kind: Kind,
    radius: f32,
    centre: [f32; 3],
    /// The guarded unit (its distance is measured at [`UNIT_SHARE`]).
    unit: Option<u32>,
    /// A building's footprint corners.
    corners: Vec<[f32; 2]>,
}

impl Beat {
    /// Whether a contact at `p` is inside, and its distance from the centre as scored.
    fn inside(&self, p: [f32; 3]) -> Option<f32> {
        let d = dist([p[0], p[1]], [self.centre[0], self.centre[1]]);
        let d = if self.unit.is_some() { d * UNIT_SHARE } else { d };
        (d < self.radius).then_some(d)
    }

    fn hold(&self) -> Hold {
        let r = self.radius + self.kind.hold;
        match self.unit {
            Some(id) => Hold::Near(id, r),
            None => Hold::Circle(self.centre, r),
        }
    }
}

/// A timer's deadline: `fixed` seconds plus a uniform share of `random` seconds.
fn timer(clock: &GameClock, stream: &mut RandomStream, (fixed, random): (u32, u32)) -> u32 {
    clock.time_ms.wrapping_add(fixed * 1000 + stream.below(random * 1000 + 1))
}

/// Runs every guard one tick, in id order: the end of the attack it took up, its beat,
/// its fights and its loop.
pub(crate) fn guard(
    mut world: Lookout,
    mut guards: ResMut<Guards>,
    objects: Query<Sight, Without<Aboard>>,
    mut units: Query<Guardian, (With<Movable>, Without<Aboard>)>,
    mut clear: MessageWriter<ClearWizardPath>,
    mut out: MessageWriter<GameMessage>,
) {
    let on_guard = |n: &Navigator| {
        matches!(n.order, Order::Guard(_))
            || matches!(n.order, Order::Attack(_)) && matches!(n.queued.first(), Some(Order::Guard(_)))
    };
    let mut order: Vec<(u32, Entity)> =
        units.iter().filter(|u| on_guard(u.4) && !ManualControl::moving(u.6.1)).map(|u| (u.1.0, u.0)).collect();
    order.sort_unstable_by_key(|o| o.0);
    guards.0.retain(|id, _| order.iter().any(|o| o.0 == *id));
    let table = &world.table;
    let seen = |id: u32| table.entity_of(id).and_then(|e| objects.get(e).ok());
    for (id, entity) in order {
        let Ok((_, _, owner, t, mut nav, status, ((size, weapon, hit, radar, contacts), _))) = units.get_mut(entity)
        else {
            continue;
        };
        let watch = guards.0.entry(id).or_default();
        if let Order::Attack(target) = nav.order {
            let beyond = |hold: Hold| match hold {
                Hold::Circle(c, r) => dist3(t.position, c) > r,
                Hold::Near(unit, r) => seen(unit).is_none_or(|u| dist3(t.position, u.2.position) > r),
            };
            match watch.attack {
                Some((aim, hold)) if aim == target => {
                    if beyond(hold) {
                        watch.attack = None;
                        nav.finish();
                        clear.write(ClearWizardPath(entity));
                    }
                }
                // An attack it did not take up (an order put in front): not its to end.
                _ => watch.attack = None,
            }
            continue;
        }
        let Order::Guard(g) = nav.order else { continue };
        // A small unit takes another clan's building before guarding it (read).
        if let Ward::Object(b) = g.ward
            && let Some((_, o, _, _, (false, _, places, class, _))) = seen(b)
            && o.clan != owner.clan
            && size.is_some_and(|s| s.0 <= SizeClass::CAPTURER)
            && places.is_some_and(|p| p.of(place::POD).next().is_some())
            && class.is_none_or(|c| c.0 != UnitClass::MAIN_TELEPORT)
        {
            nav.queued.insert(0, Order::Guard(g));
            nav.start(Order::Capture(b));
            clear.write(ClearWizardPath(entity));
            continue;
        }
        let beat = match beat(g, (id, owner.clan), &seen, world.ground.as_deref()) {
            Ok(beat) => beat,
            Err(detail) => {
                let named = match g.ward {
                    Ward::Object(o) => vec![id, o],
                    Ward::Place { .. } => vec![id],
                };
                out.write(haul::report(&world.clock, ProductionEvent::Rejected, named, detail));
                nav.finish();
                continue;
            }
        };
        let sensed = (hit, t.position, radar, contacts);
        let candidate = interrupt(&world.relations, (id, owner.clan), watch, &beat, sensed, &seen, objects.iter());
        // The gate: the pause first (started again once passed), then a weapon (read).
        if let Some(target) = candidate
            && world.clock.reached(watch.pause_ms)
        {
            watch.pause_ms = timer(&world.clock, world.random.stream(STREAM), PAUSE_S);
            if weapon.is_some() {
                watch.attack = Some((target, beat.hold()));
                nav.queued.insert(0, Order::Guard(g));
                nav.start(Order::Attack(target));
                clear.write(ClearWizardPath(entity));
                continue;
            }
        }
        if nav.leg == 0 || world.clock.reached(watch.renew_ms) || watch.points.is_empty() {
            watch.points = draw(world.nav.as_deref(), world.random.stream(STREAM), &beat);
            watch.renew_ms = timer(&world.clock, world.random.stream(STREAM), beat.kind.renew_s);
            watch.next = 0;
        } else if nav.replan || status.state == NavState::Moving {
            continue;
        } else {
            watch.next = (watch.next + 1) % watch.points.len();
        }
        if let Some(&p) = watch.points.get(watch.next) {
            nav.head_for(p);
            clear.write(ClearWizardPath(entity));
        }
    }
}

/// Whether an object has life left (one without life is never hit).
fn alive(o: &Seen) -> bool {
    o.3.is_none_or(|h| h.hp > 0.0)
}

fn dist3(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// The beat of guard order `g` given to unit `id` of `clan`, or why it fails.
fn beat<'a>(
    g: Guard,
    (id, clan): (u32, i32),
    seen: &impl Fn(u32) -> Option<Seen<'a>>,
    ground: Option<&Ground>,
) -> Result<Beat, String> {
    let radius = |kind: Kind| if g.radius > 0.0 { g.radius } else { kind.radius };
    match g.ward {
        Ward::Place { at, z } => {
            let z = z.or_else(|| ground.and_then(|g| g.height_at(at[0], at[1]))).unwrap_or(0.0);
            Ok(Beat { kind: PLACE, radius: radius(PLACE), centre: [at[0], at[1], z], unit: None, corners: Vec::new() })
        }
        Ward::Object(o) => match seen(o) {
            Some((_, owner, t, _, (true, ..))) if owner.clan == clan => {
                Ok(Beat { kind: UNIT, radius: radius(UNIT), centre: t.position, unit: Some(o), corners: Vec::new() })
            }
            Some((_, _, t, _, (false, proxy, ..))) => {
                let proxy = proxy.filter(|p| !p.circle).ok_or(format!("guard: building {o} has no contour"))?;
                let f = crate::footprints::Footprint::of(t, proxy);
                let corners = [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]
                    .map(|[sx, sy]| f.world([sx * f.half[0], sy * f.half[1]]))
                    .to_vec();
                Ok(Beat { kind: BUILDING, radius: radius(BUILDING), centre: t.position, unit: None, corners })
            }
            Some(_) => Err(format!("guard: unit {o} is not of clan {clan} (object {id} guards its own clan's units)")),
            None => Err(format!("guard: object {o} has been destroyed")),
        },
    }
}

/// A fresh loop for `beat`: about a place or unit its count of random points (each the
/// first of 350 tries at least 100 inside the map and walkable, else the last tried),
/// about a building its corners pushed out 30 from its centre.
fn draw(nav: Option<&NavMap>, stream: &mut RandomStream, beat: &Beat) -> Vec<[f32; 2]> {
    let c = [beat.centre[0], beat.centre[1]];
    if !beat.corners.is_empty() {
        return beat
            .corners
            .iter()
            .map(|p| {
                let d = [p[0] - c[0], p[1] - c[1]];
                let n = (d[0] * d[0] + d[1] * d[1]).sqrt().max(f32::EPSILON);
                [p[0] + d[0] / n * BUILDING.radius, p[1] + d[1] / n * BUILDING.radius]
            })
            .collect();
    }
    let (fixed, random) = beat.kind.points;
    let count = fixed + stream.below(random);
    let extent = nav.and_then(NavMap::extent);
    let usable = |p: [f32; 2]| {
        let inside = extent.is_none_or(|(lo, hi)| (0..2).all(|k| p[k] >= lo[k] + MARGIN && p[k] <= hi[k] - MARGIN));
        inside && nav.is_none_or(|n| n.walkable(p[0], p[1]))
    };
    (0..count)
        .map(|_| {
            let mut last = c;
            for _ in 0..POINT_TRIES {
                let mut offset = || (stream.fraction() * 2.0 - 1.0) * beat.radius;
                last = [c[0] + offset(), c[1] + offset()];
                if usable(last) {
                    break;
                }
            }
            last
        })
        .collect()
}

/// The target of the interrupt a guard asks for, if any: whoever hit it since the last
/// hit it answered (wherever the firer stands, of another clan), else the best-scoring
/// hostile machine its radar lists inside its beat.
fn interrupt<'a>(
    relations: &ClanRelations,
    (id, clan): (u32, i32),
    watch: &mut Watch,
    beat: &Beat,
    (hit, here, radar, contacts): (Option<&LastHit>, [f32; 3], Option<&Radar>, Option<&RadarContacts>),
    seen: &impl Fn(u32) -> Option<Seen<'a>>,
    all: impl Iterator<Item = Seen<'a>>,
) -> Option<u32> {
    if let Some(h) = hit.filter(|h| h.tick > watch.answered_hit) {
        watch.answered_hit = h.tick;
        if seen(h.by).is_some_and(|f| f.1.clan != clan && alive(&f) && h.by != id) {
            return Some(h.by);
        }
    }
    let radar = radar?;
    let listed = |o: &Seen| match contacts {
        Some(c) => c.0.binary_search(&o.0.0).is_ok(),
        None => dist3(here, o.2.position) <= radar.range,
    };
    let score = |o: &Seen, d: f32| {
        let (a, b) = o.3.map_or((0.0, 0.0), |h| (h.hp, h.max));
        let c = o.4.4.map_or(0.0, |w| w.damage);
        (2.0 - (a + 1.0) / (b + 1.0)) * (c * b + 10.0) / (d + 10.0)
    };
    all.filter(|o| o.4.0 && alive(o) && o.1.clan != clan && relations.hostile(clan, o.1.clan) && listed(o))
        .filter_map(|o| beat.inside(o.2.position).map(|d| (score(&o, d), o.0.0)))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, target)| target)
}
