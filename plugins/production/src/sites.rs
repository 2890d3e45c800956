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
//!   finished: `constructed` or `upgraded`. The phases' effects on the units around
//!   (the clearing and the kill) are not modelled yet.
//! * **Upgrading**: the builder's arrival starts sphere 1 on the old building; 50 s
//!   later the scheme's next entry is made at the same place (one rung up), the old
//!   building's ore is carried over, the old building is deleted and the new one runs
//!   sphere 2. An upgrade charges no ore (read).

use crate::state::Production;
use crate::step::{probe, reach, report};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    BuilderArrived, BuildingPrice, BuildingPrices, DeleteRequest, Fnv1a, GameClock, ObjectHandle, ObjectProperty,
    ObjectTable, Order, OriginalObjectId, Owner, ProductionEvent, PropertyBag, Rung, SimTransform, Site,
    UnderConstruction,
};
use iron3d_formats::registry::BuildCategory;
use iron3d_mission::{PlacedRecord, PreparedObject, resolve_object, spawn_object};
use iron3d_terrain::{BuildingCategories, Ground};
use std::collections::BTreeMap;

/// What a sphere's radius adds to the parts' reach: the contour's + 5 and the test's + 5.
pub const SPHERE_MARGIN: f32 = 10.0;
/// An upgrade replaces the old building this long after its sphere starts (read).
pub const UPGRADE_MS: u32 = 50_000;

/// The phases of a sphere by its parameter: each phase's code (`None`: no code) and
/// length in seconds (read).
const PHASES: [&[(Option<u32>, u32)]; 3] = [
    &[(Some(1), 5), (None, 25), (None, 5), (Some(2), 5), (Some(0), 1)],
    &[(Some(0x309), 25), (None, 1), (Some(8), 90)],
    &[(Some(10), 3), (Some(0), 1)],
];

/// A building's construction sphere (the original's order 18 on the building).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
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
}

impl Sphere {
    fn new(parameter: u8, now: u32, builder: u32, from: Option<u32>) -> Self {
        Self { parameter, phase: 0, phase_ms: now, start_ms: now, builder, from }
    }

    /// The current phase's code (`None`: none, or the sphere is over).
    pub fn code(&self) -> Option<u32> {
        PHASES[usize::from(self.parameter)].get(usize::from(self.phase)).and_then(|p| p.0)
    }

    /// Its whole length in seconds.
    pub fn seconds(parameter: u8) -> u32 {
        PHASES[usize::from(parameter)].iter().map(|p| p.1).sum()
    }

    /// Steps the phases to `now`; whether the sphere is over.
    fn step(&mut self, now: u32) -> bool {
        let phases = PHASES[usize::from(self.parameter)];
        while let Some(&(_, seconds)) = phases.get(usize::from(self.phase)) {
            let end = self.phase_ms.saturating_add(seconds * 1000);
            if now < end {
                return false;
            }
            (self.phase, self.phase_ms) = (self.phase + 1, end);
        }
        true
    }

    /// Feeds the sphere to `h`.
    pub fn hash_into(&self, h: &mut Fnv1a) {
        let words =
            [u32::from(self.parameter) | u32::from(self.phase) << 8, self.phase_ms, self.start_ms, self.builder];
        words.into_iter().chain([self.from.unwrap_or(u32::MAX)]).for_each(|w| h.word(w));
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
    let mut object = probe(u32::MAX, path);
    let resolved = resolve_object(world, &mut object).map_err(|e| format!("scheme {path}: {e}")).map(|()| {
        let radius = object.components.iter().filter_map(|c| c.bounds.as_ref()).map(reach).fold(0.0, f32::max);
        (object.components.iter().map(|c| c.key.clone()).collect(), radius + SPHERE_MARGIN)
    });
    world.get_resource_or_init::<SchemeParts>().0.insert(path.to_string(), resolved.clone());
    resolved
}

/// The category at `index` of `BuildCategory::TABLE`.
pub fn category(index: u8) -> Option<BuildCategory> {
    BuildCategory::TABLE.get(usize::from(index)).map(|row| row.0)
}

/// The price of category `index`'s first building for `clan`.
fn price(world: &mut World, clan: i32, index: u8) -> Option<BuildingPrice> {
    let first = world.get_resource::<BuildingCategories>()?.ladder(category(index)?).first()?.clone();
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
    q.iter(world)
        .map(|(id, t, _, b)| (id.0, [t.position[0], t.position[1]], b.map_or(0.0, reach) + SPHERE_MARGIN))
        .collect()
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
    let object = PreparedObject { name: format!("{stem} {id}"), clan, record, properties, ..probe(id, path) };
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
        .and_then(|c| c.ladder(category(site.scheme)?).first().cloned())
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
    start(world, id, Sphere::new(0, world.resource::<GameClock>().time_ms, builder, None));
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
    start(world, target, Sphere::new(1, world.resource::<GameClock>().time_ms, builder, None));
    Ok(())
}

fn start(world: &mut World, id: u32, sphere: Sphere) {
    if let Some(e) = world.resource::<ObjectTable>().entity_of(id) {
        world.entity_mut(e).insert((sphere, UnderConstruction));
    }
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
        let over = sphere.step(now);
        let mut building = world.entity_mut(e);
        if !over {
            building.insert(sphere);
            continue;
        }
        building.remove::<(Sphere, UnderConstruction)>();
        let path = world.get::<PlacedRecord>(e).map(|r| r.resource_name.clone()).unwrap_or_default();
        match sphere.from {
            None => report(world, ProductionEvent::Constructed, vec![sphere.builder, id], path),
            Some(old) => {
                report(world, ProductionEvent::Upgraded, vec![sphere.builder, id], format!("from={old} {path}"))
            }
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
    world.entity_mut(e).remove::<(Sphere, UnderConstruction)>();
    match made {
        Ok(new) => {
            if let Some(handle) = world.get::<ObjectHandle>(e).copied() {
                world.write_message(DeleteRequest { object: handle });
            }
            start(world, new, Sphere::new(2, world.resource::<GameClock>().time_ms, sphere.builder, Some(id)));
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
        let mut s = Sphere::new(0, 1000, 7, None);
        assert_eq!(s.code(), Some(1), "the sign first");
        assert!(!s.step(1000 + 5_000 - 1));
        assert!(!s.step(1000 + 5_000) && s.code().is_none(), "then the clearing, without a code");
        assert!(!s.step(1000 + 35_000) && s.code() == Some(2), "the dome and its kill at 35 s");
        assert!(!s.step(1000 + 40_000) && s.code() == Some(0), "the ray stops at 40 s");
        assert!(!s.step(1000 + 41_000 - 1));
        assert!(s.step(1000 + 41_000), "done at 41 s");
    }
}
