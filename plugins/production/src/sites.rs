//! Builders' buildings (openparkan `docs/32-builder.md`, read): what a clan's builders
//! may put up, the building a builder raises where it arrives, the construction sphere
//! that runs on it, and the upgrade that moves a building one entry on along its
//! scheme's `BuildDat.lst` ladder.
//!
//! * **Prices** (`publish_prices`): a scheme's first building costs the sum of its
//!   parts' build ore from the clan's research tree; a part not researched (or not in
//!   the tree) refuses it ("Cannot build"). Published as `BuildingPrices` with the
//!   radius of the building's sphere: its parts' farthest reach across the ground + 10
//!   (the contour's farthest point + 5, and 5 more in the placement's test; the
//!   project's reading of the contour as the model's bounds).
//! * **Raising** (`arrivals`, `BehaviorPhase::Production`): the first building of the
//!   scheme is made at the site for the builder's clan, refused when its sphere meets
//!   another building's; either way the builder pays the full cost, into debt (read).
//!   The new building runs sphere 0.
//! * **The sphere** ([`Sphere`], order 18): timed phases by its parameter, 0 for a new
//!   building (5 + 25 + 5 + 5 + 1 = 41 s), 1 for a building being upgraded (25 + 1 + 90
//!   s, replaced at 50 s), 2 for the building an upgrade made (3 + 1 = 4 s). While it
//!   runs the building is `UnderConstruction`. When sphere 0 or 2 ends the building is
//!   finished: `constructed` or `upgraded`. Stepped as production's orders step begins.
//!   A clearing phase (sphere 0's 25 and 5 s, sphere 1's first 25 s) orders every unit
//!   within the sphere + 15 (as the sphere starts) or + 20 (as a phase changes) out to
//!   20 past it; a killing phase (codes 2, 8 and 10) kills every unit inside the sphere
//!   every 250 ms. On an upgrade its builder is spared both (it is invulnerable, read).
//!   From the phase flagged for it (sphere 0's last 5 s of clearing, sphere 1's second,
//!   sphere 2's first) to its end the sphere stands as an obstacle ([`DomeObstacle`]:
//!   an octagon r / cos 22.5° + 20 to its corners, read), which Wizard steers round; the
//!   original also re-registers it on the areal map for the global path and refuses a go
//!   inside it ("Go Inside Non-complete Building"), which iron3d does not (its global
//!   path never takes buildings in).
//! * **Upgrading**: the builder's arrival starts sphere 1 on the old building; 50 s
//!   later the scheme's next entry is made at the same place (one rung up), the old
//!   building's ore is carried over, the old building is deleted and the new one runs
//!   sphere 2. An upgrade charges no ore (read).

use crate::state::Production;
use crate::step::report;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    BuilderArrived, BuildingPrice, BuildingPrices, CommandQueue, DeleteRequest, DomeObstacle, Fnv1a, GameClock,
    KillRequest, ModelBounds, Movable, ObjectHandle, ObjectProperty, ObjectTable, Order, OriginalObjectId, Owner,
    ProductionEvent, PropertyBag, Rung, SPHERE_MARGIN, SimCommand, SimTransform, Site, UnderConstruction, UnitClass,
    placement_radius,
};
use iron3d_formats::registry::BuildCategory;
use iron3d_mission::{PlacedRecord, PreparedObject, resolve_object, spawn_object};
use iron3d_terrain::{BuildingCategories, Ground};
use std::collections::BTreeMap;

/// An upgrade replaces the old building this long after its sphere starts (read).
pub const UPGRADE_MS: u32 = 50_000;

/// One phase of a sphere: its code (`None`: none), length in seconds, whether it clears
/// the area as it starts and whether it raises the sphere as an obstacle (its flag 1,
/// read).
struct Phase(Option<u32>, u32, bool, bool);

/// The phases of a sphere by its parameter (read).
const PHASES: [&[Phase]; 3] = [
    &[
        Phase(Some(1), 5, false, false),
        Phase(None, 25, true, false),
        Phase(None, 5, true, true),
        Phase(Some(2), 5, false, false),
        Phase(Some(0), 1, false, false),
    ],
    &[Phase(Some(0x309), 25, true, false), Phase(None, 1, false, true), Phase(Some(8), 90, false, false)],
    &[Phase(Some(10), 3, false, true), Phase(Some(0), 1, false, false)],
];
/// The codes whose states kill inside the sphere, every [`KILL_MS`] (read, measured).
const KILL_CODES: [u32; 3] = [2, 8, 10];
/// How often a killing state kills again (its 250 ms step, read).
pub const KILL_MS: u32 = 250;
/// Units this far past the sphere are ordered out as the sphere starts, this far as a
/// phase changes, and sent this far past it (read).
const CLEAR_ON_START: f32 = 15.0;
const CLEAR_ON_CHANGE: f32 = 20.0;
const CLEAR_TO: f32 = 20.0;
/// A mine's construction sphere is this much wider (read).
const MINE_EXTRA: f32 = 15.0;

/// A building's construction sphere (the original's order 18 on the building).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Sphere {
    /// The order's parameter: 0 a new building, 1 one being upgraded, 2 one an upgrade
    /// made.
    pub parameter: u8,
    /// The current phase.
    pub phase: u8,
    /// Game time the current phase began (ms).
    pub phase_ms: u32,
    /// Game time the sphere began (ms).
    pub start_ms: u32,
    /// The builder it was raised by.
    pub builder: u32,
    /// Sphere 2: the building the upgrade replaced.
    pub from: Option<u32>,
    /// Its radius across the ground: the building's reach, 15 more on a mine (the
    /// project's reading of the contour's sphere).
    pub radius: f32,
    /// The phase whose clearing is done.
    pub cleared: Option<u8>,
    /// Kills done in the current phase.
    pub kills: u32,
}

impl Sphere {
    fn new(parameter: u8, now: u32, (builder, from): (u32, Option<u32>), radius: f32) -> Self {
        Self { parameter, phase: 0, phase_ms: now, start_ms: now, builder, from, radius, cleared: None, kills: 0 }
    }

    fn current(&self) -> Option<&'static Phase> {
        PHASES[usize::from(self.parameter)].get(usize::from(self.phase))
    }

    /// The current phase's code (`None`: none, or the sphere is over).
    pub fn code(&self) -> Option<u32> {
        self.current().and_then(|p| p.0)
    }

    /// The obstacle it stands as: from the phase that raises it to its end (read).
    pub fn obstacle(&self) -> Option<DomeObstacle> {
        let mut phases = PHASES[usize::from(self.parameter)].iter().take(usize::from(self.phase) + 1);
        phases.any(|p| p.3).then(|| DomeObstacle::round(self.radius))
    }

    /// Its whole length in seconds.
    pub fn seconds(parameter: u8) -> u32 {
        PHASES[usize::from(parameter)].iter().map(|p| p.1).sum()
    }

    /// Steps the phases to `now`; whether the sphere is over.
    fn step(&mut self, now: u32) -> bool {
        while let Some(phase) = self.current() {
            let end = self.phase_ms.saturating_add(phase.1 * 1000);
            if now < end {
                return false;
            }
            (self.phase, self.phase_ms, self.kills) = (self.phase + 1, end, 0);
        }
        true
    }

    /// How far past the sphere the current phase clears, when it clears and has not yet.
    fn clearing(&self) -> Option<f32> {
        let clears = self.current().is_some_and(|p| p.2) && self.cleared != Some(self.phase);
        clears.then_some(if self.phase == 0 { CLEAR_ON_START } else { CLEAR_ON_CHANGE })
    }

    /// Whether the current phase kills at `now` (every [`KILL_MS`] from its start).
    fn kills_at(&mut self, now: u32) -> bool {
        let due = now.saturating_sub(self.phase_ms) / KILL_MS + 1;
        let kills = self.code().is_some_and(|c| KILL_CODES.contains(&c)) && self.kills < due;
        if kills {
            self.kills = due;
        }
        kills
    }

    /// Its builder is spared (on an upgrade it is invulnerable and stays, read).
    fn spares(&self, unit: u32) -> bool {
        self.parameter > 0 && unit == self.builder
    }

    /// Feeds the sphere to `h`.
    pub fn hash_into(&self, h: &mut Fnv1a) {
        let words =
            [u32::from(self.parameter) | u32::from(self.phase) << 8, self.phase_ms, self.start_ms, self.builder];
        let more = [self.from.unwrap_or(u32::MAX), self.radius.to_bits(), self.cleared.map_or(u32::MAX, u32::from)];
        words.into_iter().chain(more).chain([self.kills]).for_each(|w| h.word(w));
    }
}

/// A building scheme's parts and sphere radius, resolved once (derived, not saved).
#[derive(Resource, Debug, Clone, Default)]
pub struct SchemeParts(BTreeMap<String, Result<(Vec<String>, f32), String>>);

/// The parts and sphere radius of building scheme `path`.
fn parts(world: &mut World, path: &str) -> Result<(Vec<String>, f32), String> {
    if let Some(known) = world.get_resource::<SchemeParts>().and_then(|s| s.0.get(path)) {
        return known.clone();
    }
    let mut object = PreparedObject::probe(u32::MAX, path);
    let resolved = resolve_object(world, &mut object).map_err(|e| format!("scheme {path}: {e}")).map(|()| {
        let radius =
            object.components.iter().filter_map(|c| c.bounds.as_ref()).map(ModelBounds::reach).fold(0.0, f32::max);
        (object.components.iter().map(|c| c.key.clone()).collect(), radius + SPHERE_MARGIN)
    });
    world.get_resource_or_init::<SchemeParts>().0.insert(path.to_string(), resolved.clone());
    resolved
}

/// The price of category `index`'s first building for `clan`.
fn price(world: &mut World, clan: i32, index: u8) -> Option<BuildingPrice> {
    let first = world
        .get_resource::<BuildingCategories>()?
        .ladder(BuildCategory::TABLE.get(usize::from(index))?.0)
        .first()?
        .clone();
    let (parts, radius) = match parts(world, &first) {
        Ok(p) => p,
        Err(e) => return Some(BuildingPrice::Refused(format!("Cannot build: {e}"))),
    };
    let tree = world.resource::<Production>().clans.get(&clan).and_then(|c| c.tree.as_ref());
    Some(match tree.map(|t| crate::design::price(t, &parts, 1.0)) {
        None => BuildingPrice::Refused(format!("Cannot build {first}: clan {clan} has no research tree")),
        Some(Err(e)) => BuildingPrice::Refused(format!("Cannot build {first}: {e}")),
        Some(Ok(p)) => BuildingPrice::Ore { ore: p.ore, radius },
    })
}

/// Publishes every clan's [`BuildingPrices`] (as production's orders step begins).
pub(crate) fn publish_prices(world: &mut World) {
    let clans: Vec<i32> =
        world.get_resource::<Production>().map(|p| p.clans.keys().copied().collect()).unwrap_or_default();
    let mut prices = BTreeMap::new();
    for clan in clans {
        for index in 0..BuildCategory::TABLE.len() as u8 {
            if let Some(p) = price(world, clan, index) {
                prices.insert((clan, index), p);
            }
        }
    }
    let mut board = world.resource_mut::<BuildingPrices>();
    if board.0 != prices {
        board.0 = prices;
    }
}

/// A building of the world: id, position and sphere radius.
fn buildings(world: &mut World) -> Vec<(u32, [f32; 2], f32)> {
    let mut q = world.query::<(
        &OriginalObjectId,
        &SimTransform,
        &iron3d_core::BuildingCategory,
        Option<&iron3d_core::ModelBounds>,
    )>();
    q.iter(world).map(|(id, t, _, b)| (id.0, [t.position[0], t.position[1]], placement_radius(b))).collect()
}

/// Makes scheme `path` for `clan` at `position` turned by `angle`, holding `held` ore
/// (its `CurrentOre`, which the economy gives it as it joins); its id.
fn make(
    world: &mut World,
    path: &str,
    clan: i32,
    (position, angle): ([f32; 3], f32),
    held: Option<f32>,
) -> Result<u32, String> {
    let id = world.resource::<Production>().next_id;
    let stem = path.rsplit(['\\', '/']).next().unwrap_or(path).trim_end_matches(".dat").to_string();
    let record = PlacedRecord {
        raw_kind: 0,
        resource_name: path.to_string(),
        raw_after_resource: clan as u32,
        // Its logical id: a building's bit and its own id (the project's rule).
        identity_or_clan_raw: 0x8000_0000 | id,
        position,
        orientation: [0.0, 0.0, angle],
        scale: [1.0; 3],
        ..PlacedRecord::default()
    };
    let properties = held.map(|ore| ObjectProperty { name: "CurrentOre".into(), raw_value: [0, ore.to_bits(), 0, 0] });
    let properties = PropertyBag(properties.into_iter().collect());
    let object =
        PreparedObject { name: format!("{stem} {id}"), clan, record, properties, ..PreparedObject::probe(id, path) };
    spawn_object(world, object).map_err(|e| e.to_string())?;
    world.resource_mut::<Production>().next_id = id.saturating_add(1);
    Ok(id)
}

/// The entity, clan and transform of object `id`.
fn object(world: &World, id: u32) -> Option<(Entity, i32, SimTransform)> {
    let e = world.resource::<ObjectTable>().entity_of(id)?;
    Some((e, world.get::<Owner>(e)?.clan, *world.get::<SimTransform>(e)?))
}

/// Raises the building of a construct order at `site` for `builder`.
fn construct(world: &mut World, builder: u32, site: Site) -> Result<(), String> {
    let (_, clan, _) = object(world, builder).ok_or(format!("construct: builder {builder} is gone"))?;
    let path = world
        .get_resource::<BuildingCategories>()
        .and_then(|c| c.ladder(site.category()?).first().cloned())
        .ok_or(format!("construct: the map lists no scheme {}", site.scheme))?;
    let (ore, radius) = match price(world, clan, site.scheme) {
        Some(BuildingPrice::Ore { ore, radius }) => (ore, radius),
        Some(BuildingPrice::Refused(why)) => return Err(format!("construct: {why}")),
        None => return Err(format!("construct: {path} has no price")),
    };
    // The builder pays whether or not the building can be made (read).
    iron3d_economy::charge_ore(world, builder, ore);
    let at = site.at();
    if let Some((other, ..)) = buildings(world).into_iter().find(|(_, p, r)| dist(at, *p) < radius + r) {
        return Err(format!("construct: builder {builder} failed to build {path}: its sphere meets building {other}"));
    }
    let z = world.get_resource::<Ground>().and_then(|g| g.height_at(at[0], at[1])).unwrap_or(0.0);
    let id = make(world, &path, clan, ([at[0], at[1], z], site.angle()), None)
        .map_err(|e| format!("construct: builder {builder} failed to build {path}: {e}"))?;
    start(world, id, 0, builder, None);
    Ok(())
}

/// Starts sphere 1 on the building of an upgrade order.
fn upgrade(world: &mut World, builder: u32, target: u32) -> Result<(), String> {
    let (_, clan, _) = object(world, builder).ok_or(format!("upgrade: builder {builder} is gone"))?;
    let (e, owner, _) = object(world, target).ok_or(format!("upgrade: building {target} is gone"))?;
    let open = world.get::<Rung>(e).is_some_and(Rung::upgradable) && !world.entity(e).contains::<UnderConstruction>();
    if owner != clan || !open {
        return Err(format!("upgrade: dead, enemy or fully upgraded building {target}"));
    }
    start(world, target, 1, builder, None);
    Ok(())
}

/// Starts sphere `parameter` on building `id` for `builder` (`from`: the building an
/// upgrade replaced).
fn start(world: &mut World, id: u32, parameter: u8, builder: u32, from: Option<u32>) {
    let Some(e) = world.resource::<ObjectTable>().entity_of(id) else { return };
    let mine = world.get::<UnitClass>(e).is_some_and(|c| c.0 == UnitClass::MINE);
    let radius = world.get::<ModelBounds>(e).map_or(0.0, ModelBounds::reach) + if mine { MINE_EXTRA } else { 0.0 };
    let now = world.resource::<GameClock>().time_ms;
    world.entity_mut(e).insert((Sphere::new(parameter, now, (builder, from), radius), UnderConstruction));
}

/// Takes this tick's arrivals of builders (in builder id order).
pub(crate) fn arrivals(world: &mut World) {
    let mut arrived: Vec<BuilderArrived> =
        world.get_resource_mut::<Messages<BuilderArrived>>().map(|mut m| m.drain().collect()).unwrap_or_default();
    arrived.sort_by_key(|a| a.builder);
    for a in arrived {
        let done = match a.order {
            Order::Construct(site) => construct(world, a.builder, site),
            Order::Upgrade(target) => upgrade(world, a.builder, target),
            _ => Ok(()),
        };
        if let Err(why) = done {
            report(world, ProductionEvent::Rejected, vec![a.builder], why);
        }
    }
}

/// Steps every sphere (in building id order): a finished one ends, an upgrade's replaces
/// its building at [`UPGRADE_MS`].
pub(crate) fn spheres(world: &mut World) {
    let now = world.resource::<GameClock>().time_ms;
    let mut q = world.query::<(&OriginalObjectId, &Sphere)>();
    let mut running: Vec<(u32, Sphere)> = q.iter(world).map(|(id, s)| (id.0, *s)).collect();
    running.sort_unstable_by_key(|r| r.0);
    for (id, mut sphere) in running {
        let Some(e) = world.resource::<ObjectTable>().entity_of(id) else { continue };
        if sphere.parameter == 1 && now >= sphere.start_ms.saturating_add(UPGRADE_MS) {
            replace(world, id, sphere);
            continue;
        }
        if !sphere.step(now) {
            act(world, id, &mut sphere, now);
            let mut building = world.entity_mut(e);
            match sphere.obstacle() {
                Some(dome) => building.insert((sphere, dome)),
                None => building.insert(sphere),
            };
            continue;
        }
        world.entity_mut(e).remove::<(Sphere, UnderConstruction, DomeObstacle)>();
        let path = world.get::<PlacedRecord>(e).map(|r| r.resource_name.clone()).unwrap_or_default();
        match sphere.from {
            None => report(world, ProductionEvent::Constructed, vec![sphere.builder, id], path),
            Some(old) => {
                report(world, ProductionEvent::Upgraded, vec![sphere.builder, id], format!("from={old} {path}"))
            }
        }
    }
}

/// What the current phase of the sphere of building `id` does at `now`: its clearing
/// orders every unit within the sphere and the clearing's reach out to [`CLEAR_TO`] past
/// the sphere (a move from the centre through where it stands, taken in this tick; its
/// builder stays on an upgrade), and its killing state kills every unit inside it
/// (`KillRequest`, combat destroys it). Units are what the original's kill classes are
/// taken to be (a guess).
fn act(world: &mut World, id: u32, sphere: &mut Sphere, now: u32) {
    let (clearing, kills) = (sphere.clearing(), sphere.kills_at(now));
    if clearing.is_none() && !kills {
        return;
    }
    let Some((_, _, t)) = object(world, id) else { return };
    let centre = [t.position[0], t.position[1]];
    let mut q = world.query_filtered::<(&OriginalObjectId, &SimTransform), With<Movable>>();
    let mut units: Vec<(u32, [f32; 2])> =
        q.iter(world).map(|(u, t)| (u.0, [t.position[0], t.position[1]])).filter(|u| !sphere.spares(u.0)).collect();
    units.sort_unstable_by_key(|u| u.0);
    if let Some(extra) = clearing {
        sphere.cleared = Some(sphere.phase);
        let tick = world.resource::<GameClock>().tick;
        let out = sphere.radius + CLEAR_TO;
        for &(unit, at) in units.iter().filter(|u| dist(centre, u.1) < sphere.radius + extra) {
            let d = dist(centre, at);
            let (dx, dy) = if d > 0.0 { ((at[0] - centre[0]) / d, (at[1] - centre[1]) / d) } else { (1.0, 0.0) };
            let order = Order::MoveTo([centre[0] + dx * out, centre[1] + dy * out]);
            let mut queue = world.resource_mut::<CommandQueue>();
            queue.push(SimCommand { tick, units: vec![unit], order, queued: false });
            // The original's clearing is an escape, not a go: no patrol about the spot (the
            // tick after, behind the go: one tick's commands go in their stable order).
            queue.push(SimCommand { tick: tick + 1, units: vec![unit], order: Order::Stop, queued: true });
        }
    }
    if kills {
        for &(unit, _) in units.iter().filter(|u| dist(centre, u.1) < sphere.radius) {
            world.write_message(KillRequest { object: unit, by: id });
        }
    }
}

/// The upgrade's replacement of building `id`: the next entry of its ladder at the same
/// place, one rung up, its ore carried over; the old building is deleted.
fn replace(world: &mut World, id: u32, sphere: Sphere) {
    let Some((e, clan, t)) = object(world, id) else { return };
    let key = world.get::<PlacedRecord>(e).map(|r| r.resource_name.clone()).unwrap_or_default();
    let next = world.get_resource::<BuildingCategories>().and_then(|c| {
        let (category, at, _) = c.rung_of(&key)?;
        c.ladder(category).get(at + 1).cloned()
    });
    let held = world.get::<iron3d_economy::OreProperty>(e).map(|o| o.current());
    let made = next
        .ok_or(format!("its scheme {key} has no next entry"))
        .and_then(|path| make(world, &path, clan, (t.position, t.orientation[2]), held));
    world.entity_mut(e).remove::<(Sphere, UnderConstruction, DomeObstacle)>();
    match made {
        Ok(new) => {
            if let Some(handle) = world.get::<ObjectHandle>(e).copied() {
                world.write_message(DeleteRequest { object: handle });
            }
            start(world, new, 2, sphere.builder, Some(id));
        }
        Err(e) => report(world, ProductionEvent::Rejected, vec![sphere.builder, id], format!("upgrade: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spheres_last_as_the_original_times_them() {
        assert_eq!([0, 1, 2].map(Sphere::seconds), [41, 116, 4]);
        let mut s = Sphere::new(0, 1000, (7, None), 20.0);
        assert_eq!(s.code(), Some(1), "the sign first");
        assert!(!s.step(1000 + 5_000 - 1));
        assert_eq!(s.clearing(), None, "the sign clears nothing");
        assert!(!s.step(1000 + 5_000) && s.code().is_none(), "then the clearing, without a code");
        assert_eq!(s.clearing(), Some(20.0), "on a phase change, 20 past the sphere");
        assert!(!s.kills_at(1000 + 5_000));
        assert!(!s.step(1000 + 35_000) && s.code() == Some(2), "the dome and its kill at 35 s");
        let kills: Vec<bool> = [35_000, 35_064, 35_249, 35_250, 35_300, 35_500].map(|t| s.kills_at(1000 + t)).into();
        assert_eq!(kills, [true, false, false, true, false, true], "every 250 ms");
        assert!(!s.step(1000 + 40_000) && s.code() == Some(0), "the ray stops at 40 s");
        assert!(!s.step(1000 + 41_000 - 1));
        assert!(s.step(1000 + 41_000), "done at 41 s");
    }

    #[test]
    fn the_sphere_stands_as_an_obstacle_from_its_flagged_phase_to_its_end() {
        let raised = |parameter: u8, at: u32| {
            let mut s = Sphere::new(parameter, 0, (7, None), 30.0);
            s.step(at);
            s.obstacle()
        };
        assert_eq!([0, 29_999].map(|t| raised(0, t)), [None, None], "a new building's first 30 s");
        assert_eq!(raised(0, 30_000), Some(DomeObstacle::round(30.0)), "the clearing's last 5 s");
        assert!(raised(0, 40_999).is_some(), "through the dome and the ray");
        assert!(raised(1, 24_999).is_none() && raised(1, 25_000).is_some(), "an upgrade's from 25 s");
        assert!(raised(2, 0).is_some(), "an upgrade's new building from its start");
    }
}
