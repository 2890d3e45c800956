//! Builders' orders (the original's `M_Task_Build` and `M_Task_Upgrade`, openparkan
//! `docs/32-builder.md`, read): the placement's test, the ore fetch and the walk.
//! Production raises the building where the builder arrives (`BuilderArrived`).
//!
//! * **The test** (`screen`, as the orders due are taken; a refused order is dropped
//!   with a `rejected` event naming the rule, and the builder keeps its order). Both
//!   orders need a builder with an intact beam. A construct order needs the scheme's
//!   first building buildable by the clan (`BuildingPrices`: every part researched), and
//!   the site must pass `IsPlacementValid` with a builder named: a path from the builder
//!   to the site ("BAD PATH"; the areal map's route), the building's sphere strictly
//!   inside the map ("Intersects with Boundary"), clear of every other building's sphere
//!   across the ground ("Intersects with"), and no basement face steeper than the slope
//!   limit 0.88 ("Ugly Basement", 28.4°); a mine needs a found lode within 20. The
//!   basement is **the project's reading** of the original's contours, which iron3d
//!   does not read: the outer contour as eight points on the circle of the building's
//!   reach dropped onto the land, the inner as eight at half of it, at their mean
//!   height. The hall-way vertex test is not made (what it tests is a guess). An
//!   upgrade needs a building of the builder's clan one rung below the top of its
//!   ladder whose sphere does not run ("dead, enemy or fully upgraded building").
//! * **Construct**: a mine, or a builder holding at least [`BUILDING_COST`], goes
//!   straight to the site; otherwise it fetches from the nearest mine or storage of its
//!   clan holding more than 1.5 × [`BUILDING_COST`] (to its loading or unloading
//!   place), taking `haul.load_per_second` until it holds the building's cost, then
//!   walks to the site's origin. None such: the task cannot run (`rejected`). On the
//!   tick it arrives, production raises the building and the builder's order ends.
//! * **Upgrade**: to a random walkable point beside the building (the project's: on the
//!   circle of its sphere, up to 16 tries, else its sphere's edge toward the builder);
//!   there production starts the upgrade, and the builder waits, invulnerable (read),
//!   while the building's sphere runs. It waits for the old building only, so it is done 4 s before the new
//!   one's sphere ends (the project's).
//! * A beam shot away ends either task (read). Builders act in `OriginalObjectId` order.

use crate::haul::{self, Haulage, Holder};
use crate::migrate::{RAND_MAX, rand};
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    BeamCondition, BuilderArrived, BuildingCategory, BuildingPrice, BuildingPrices, CommandQueue, GameClock,
    GameMessage, Invulnerable, ManualControl, MineralLodes, ModelBounds, NavState, NavStatus, ObjectTable, Order,
    OriginalObjectId, Owner, Places, ProductionEvent, Rung, SPHERE_MARGIN, SimRandom, SimTransform, Site, TICK_SECONDS,
    UnderConstruction, UnitClass, place, placement_radius,
};
use iron3d_economy::OreProperty;
use iron3d_formats::registry::BuildCategory;
use iron3d_terrain::{Ground, NavMap};

/// `Building_Cost` (read): a builder holding this sets off for its site; one without
/// fetches from a holder with more than 1.5 times it.
pub const BUILDING_COST: f32 = 100.0;
/// The slope limit with a builder named (read): the least normal z of a basement face.
pub const SLOPE_LIMIT: f32 = 0.88;
/// A mine's site needs a found lode strictly nearer than this (read).
pub const LODE_REACH: f32 = 20.0;
/// Points tried beside a building an upgrade walks to.
const BESIDE_TRIES: u32 = 16;

/// Where a builder's order is (default while it has none): the holder it fetches ore
/// from, and whether it waits at the building it upgrades.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct BuildTrip {
    /// The mine or storage it fetches ore from (`None`: none, or it heads for the site).
    pub holder: Option<u32>,
    /// It arrived at the building it upgrades and waits while the sphere runs.
    pub waiting: bool,
}

/// A building as the test sees it: id, clan, centre across the ground, sphere radius,
/// rung and whether its sphere runs.
type Standing<'a> = (
    &'a OriginalObjectId,
    &'a Owner,
    &'a SimTransform,
    Option<&'a ModelBounds>,
    Option<&'a Rung>,
    Has<UnderConstruction>,
);

/// What the test reads of the world.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Grounds<'w, 's> {
    prices: Res<'w, BuildingPrices>,
    lodes: Res<'w, MineralLodes>,
    ground: Option<Res<'w, Ground>>,
    nav: Option<Res<'w, NavMap>>,
    buildings: Query<'w, 's, Standing<'static>, With<BuildingCategory>>,
}

/// What the placement's test reads: the clans' prices, the lodes, the land and its areal
/// map, and every building (id, centre across the ground, placement radius, `placement_radius`). The
/// orders' test and the player's placement use it alike.
pub struct Placement<'a> {
    /// What each clan's builders may put up.
    pub prices: &'a BuildingPrices,
    /// The mission's lodes.
    pub lodes: &'a MineralLodes,
    /// The land (`None`: flat, unbounded).
    pub ground: Option<&'a Ground>,
    /// The areal map (`None`: every path is open).
    pub nav: Option<&'a NavMap>,
    /// Every building: id, centre, sphere radius.
    pub buildings: Vec<(u32, [f32; 2], f32)>,
}

impl Placement<'_> {
    /// `IsPlacementValid` of `site` for a builder of `clan` at `from` (above): the
    /// building's ore cost, or the rule that refuses it.
    ///
    /// # Errors
    /// The rule that fails, as the original logs it.
    pub fn test(&self, clan: i32, from: [f32; 2], site: Site) -> Result<f32, String> {
        let (ore, radius) = match self.prices.0.get(&(clan, site.scheme)) {
            Some(BuildingPrice::Ore { ore, radius }) => (*ore, *radius),
            Some(BuildingPrice::Refused(why)) => return Err(why.clone()),
            None => return Err(format!("the map lists no scheme {} for clan {clan}", site.scheme)),
        };
        let at = site.at();
        if let Some(nav) = self.nav {
            let route = nav.area_at(from[0], from[1]).zip(nav.area_at(at[0], at[1]));
            if route.and_then(|(a, b)| nav.route(a, b)).is_none_or(|r| r.is_empty()) {
                return Err(format!("BAD PATH: no way from the builder to {at:?}"));
            }
        }
        let height = |x: f32, y: f32| self.ground.map_or(Some(0.0), |g| g.height_at(x, y));
        let edges = [[radius, 0.0], [-radius, 0.0], [0.0, radius], [0.0, -radius]];
        if edges.iter().any(|d| height(at[0] + d[0], at[1] + d[1]).is_none()) {
            return Err(format!("Intersects with Boundary: the sphere of {radius} at {at:?} leaves the map"));
        }
        if let Some((id, ..)) = self.buildings.iter().find(|b| dist(at, b.1) < radius + b.2) {
            return Err(format!("Intersects with building {id}"));
        }
        let steepest = basement(&height, at, radius - SPHERE_MARGIN);
        if steepest < SLOPE_LIMIT {
            return Err(format!("Ugly Basement: a face's normal z is {steepest:.3}, under {SLOPE_LIMIT}"));
        }
        let mine = site.category() == Some(BuildCategory::Mine);
        if mine && !self.lodes.0.iter().any(|l| l.found && dist(l.position, at) < LODE_REACH) {
            return Err(format!("a mine needs a found lode within {LODE_REACH} of {at:?}"));
        }
        Ok(ore)
    }
}

impl Grounds<'_, '_> {
    /// The placement's test as the orders of a tick see the world.
    fn placement(&self) -> Placement<'_> {
        let buildings =
            self.buildings.iter().map(|b| (b.0.0, [b.2.position[0], b.2.position[1]], placement_radius(b.3))).collect();
        let (ground, nav) = (self.ground.as_deref(), self.nav.as_deref());
        Placement { prices: &self.prices, lodes: &self.lodes, ground, nav, buildings }
    }

    /// Why building `target` may not be upgraded by a builder of `clan`, or `Ok`.
    fn upgradable(&self, table: &ObjectTable, clan: i32, target: u32) -> Result<(), String> {
        let b = table.entity_of(target).and_then(|e| self.buildings.get(e).ok());
        match b {
            Some(b) if b.1.clan == clan && b.4.is_some_and(Rung::upgradable) && !b.5 => Ok(()),
            _ => Err(format!("dead, enemy or fully upgraded building {target}")),
        }
    }
}

/// The least normal z of the basement of a building of `reach` at `at` (the project's
/// reading, above).
fn basement(height: &impl Fn(f32, f32) -> Option<f32>, at: [f32; 2], reach: f32) -> f32 {
    let reach = reach.max(1.0);
    let ring = |r: f32| -> Vec<[f32; 2]> {
        (0..8)
            .map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                [at[0] + r * libm::cosf(a), at[1] + r * libm::sinf(a)]
            })
            .collect()
    };
    let outer: Vec<[f32; 3]> =
        ring(reach).into_iter().map(|p| [p[0], p[1], height(p[0], p[1]).unwrap_or(0.0)]).collect();
    let mean = outer.iter().map(|p| p[2]).sum::<f32>() / 8.0;
    let inner: Vec<[f32; 3]> = ring(reach / 2.0).into_iter().map(|p| [p[0], p[1], mean]).collect();
    let normal_z = |a: [f32; 3], b: [f32; 3], c: [f32; 3]| {
        let (u, v) = ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        let len = libm::sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if len > 0.0 { (n[2] / len).abs() } else { 1.0 }
    };
    (0..8)
        .flat_map(|k| {
            let j = (k + 1) % 8;
            [normal_z(outer[k], outer[j], inner[j]), normal_z(outer[k], inner[j], inner[k])]
        })
        .fold(1.0, f32::min)
}

/// The builder as the test sees it.
type Candidate<'a> = (&'a Owner, Option<&'a UnitClass>, Option<&'a BeamCondition>, &'a SimTransform);

/// Drops the construct and upgrade orders due this tick that the test refuses (before
/// they are applied), each with a `rejected` event.
pub(crate) fn screen(
    mut queue: ResMut<CommandQueue>,
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    grounds: Grounds,
    builders: Query<Candidate>,
    mut out: MessageWriter<GameMessage>,
) {
    let due = |c: &iron3d_core::SimCommand| {
        c.tick <= clock.tick && matches!(c.order, Order::Construct(_) | Order::Upgrade(_))
    };
    let mut commands = std::mem::take(&mut queue.pending);
    commands.sort_by(iron3d_core::SimCommand::cmp_stable);
    for command in &mut commands {
        if !due(command) {
            continue;
        }
        command.units.retain(|&id| {
            let verdict = check(&table, &grounds, &builders, id, command.order);
            if let Err(why) = &verdict {
                out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], why.clone()));
            }
            verdict.is_ok()
        });
    }
    commands.retain(|c| !c.units.is_empty());
    queue.pending = commands;
}

/// The test of `order` for unit `id`.
fn check(
    table: &ObjectTable,
    grounds: &Grounds,
    builders: &Query<Candidate>,
    id: u32,
    order: Order,
) -> Result<(), String> {
    let what = if matches!(order, Order::Upgrade(_)) { "upgrade" } else { "construct" };
    let b = table.entity_of(id).and_then(|e| builders.get(e).ok()).ok_or(format!("{what}: no object with id {id}"))?;
    if b.1.map(|c| c.0) != Some(UnitClass::BUILDER) {
        return Err(format!("{what}: object {id} is not a builder"));
    }
    if !b.2.is_some_and(BeamCondition::intact) {
        return Err(format!("{what}: builder {id} has no intact beam"));
    }
    let from = [b.3.position[0], b.3.position[1]];
    match order {
        Order::Construct(site) => grounds.placement().test(b.0.clan, from, site).map(|_| ()),
        Order::Upgrade(target) => grounds.upgradable(table, b.0.clan, target),
        _ => Ok(()),
    }
    .map_err(|why| format!("{what}: {why}"))
}

type Builder<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a SimTransform,
    &'a mut Navigator,
    &'a mut BuildTrip,
    &'a NavStatus,
    Option<&'a BeamCondition>,
    Option<&'a ManualControl>,
    Has<Invulnerable>,
);

/// The place a builder fetches from at a holder: a mine's loading place, a storage's
/// unloading place, else its origin.
fn holder_place(class: Option<&UnitClass>, t: &SimTransform, places: Option<&Places>) -> [f32; 2] {
    let flag =
        if class.is_some_and(|c| c.0 == UnitClass::MINE) { place::MINE_LOADING } else { place::STORAGE_UNLOADING };
    haul::ore_place(places, t, flag).unwrap_or([t.position[0], t.position[1]])
}

/// The nearest mine or storage of `clan` holding more than 1.5 × [`BUILDING_COST`], from
/// `from` (ties by id): its id and place.
fn nearest_holder(holders: &Query<Holder>, clan: i32, from: [f32; 2]) -> Option<(u32, [f32; 2])> {
    holders
        .iter()
        .filter(|h| {
            h.1.clan == clan && !h.7 && h.2.is_some_and(|c| matches!(c.0, UnitClass::MINE | UnitClass::STORAGE))
        })
        .filter(|h| h.4.current() > 1.5 * BUILDING_COST)
        .map(|h| {
            let p = holder_place(h.2, h.3, h.6);
            (dist(from, p), h.0.0, p)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, id, p)| (id, p))
}

/// A building as an upgrading builder sees it: where, how big, whether its sphere runs.
type Sites<'a> = (&'a SimTransform, Option<&'a ModelBounds>, Has<UnderConstruction>);

/// Sets a builder off to `goal` (leg 1, the follow step's goal).
/// Ends a builder's task: its next queued order or a stop.
fn end(nav: &mut Navigator, trip: &mut BuildTrip) {
    *trip = BuildTrip::default();
    nav.finish();
}

/// Runs every construct and upgrade order one tick, in id order.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn run(
    (clock, table, haulage): (Res<GameClock>, Res<ObjectTable>, Res<Haulage>),
    prices: Res<BuildingPrices>,
    mut builders: Query<Builder>,
    mut holders: Query<Holder>,
    buildings: Query<Sites, With<BuildingCategory>>,
    (mut random, nav_map): (ResMut<SimRandom>, Option<Res<NavMap>>),
    mut arrived: MessageWriter<BuilderArrived>,
    mut out: MessageWriter<GameMessage>,
    mut commands: Commands,
) {
    // Invulnerable only while it waits at its upgrade (a new order ends that).
    for b in builders.iter().filter(|b| b.8 && !(matches!(b.3.order, Order::Upgrade(_)) && b.4.waiting)) {
        commands.entity(b.0).remove::<Invulnerable>();
    }
    let mut order: Vec<(u32, Entity)> = builders
        .iter()
        .filter(|b| matches!(b.3.order, Order::Construct(_) | Order::Upgrade(_)) && !ManualControl::moving(b.7))
        .map(|b| (b.1.0, b.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    let reach = haulage.0.as_ref().map_or(8.0, |r| r.reach.value);
    let load = haulage.0.as_ref().map_or(100.0, |r| r.load_per_second.value);
    for (id, entity) in order {
        let Ok((_, _, t, mut nav, mut trip, status, beam, ..)) = builders.get_mut(entity) else { continue };
        let at = [t.position[0], t.position[1]];
        let what = if matches!(nav.order, Order::Upgrade(_)) { "upgrade" } else { "construct" };
        if !beam.is_some_and(BeamCondition::intact) {
            out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], format!("{what}: its beam is gone")));
            end(&mut nav, &mut trip);
            continue;
        }
        // A walk that fails ends the task (the project's rule: what the original's task
        // does then is not read).
        if nav.leg > 0 && !trip.waiting && status.state == NavState::Blocked {
            out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], format!("{what}: its walk failed")));
            end(&mut nav, &mut trip);
            continue;
        }
        match nav.order {
            Order::Upgrade(target) => {
                let b = table.entity_of(target).and_then(|e| buildings.get(e).ok());
                let Some((bt, bounds, running)) = b else {
                    end(&mut nav, &mut trip);
                    continue;
                };
                let centre = [bt.position[0], bt.position[1]];
                if trip.waiting {
                    if !running {
                        end(&mut nav, &mut trip);
                    }
                } else if nav.leg == 0 {
                    nav.head_for(beside(&mut random, nav_map.as_deref(), centre, placement_radius(bounds), at));
                } else if status.state == NavState::Arrived {
                    arrived.write(BuilderArrived { builder: id, order: nav.order });
                    trip.waiting = true;
                    commands.entity(entity).insert(Invulnerable);
                }
            }
            Order::Construct(site) => {
                let Ok((clan, held)) = holders.get(entity).map(|h| (h.1.clan, h.4.current())) else { continue };
                let cost = match prices.0.get(&(clan, site.scheme)) {
                    Some(BuildingPrice::Ore { ore, .. }) => *ore,
                    _ => f32::INFINITY,
                };
                let mine = site.category() == Some(BuildCategory::Mine);
                if nav.leg == 0 {
                    if mine || held >= BUILDING_COST {
                        nav.head_for(site.at());
                    } else if let Some((holder, p)) = nearest_holder(&holders, clan, at) {
                        trip.holder = Some(holder);
                        nav.head_for(p);
                    } else {
                        let why = format!(
                            "construct: no mine or storage of clan {clan} holds more than {}",
                            1.5 * BUILDING_COST
                        );
                        out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], why));
                        end(&mut nav, &mut trip);
                    }
                    continue;
                }
                if status.state != NavState::Arrived || dist(at, nav.goal) > reach {
                    continue;
                }
                let Some(holder) = trip.holder else {
                    arrived.write(BuilderArrived { builder: id, order: nav.order });
                    end(&mut nav, &mut trip);
                    continue;
                };
                let open = |e: &Entity| holders.get(*e).is_ok_and(|h| h.1.clan == clan && !h.7);
                let from = table.entity_of(holder).filter(open);
                let Some(Ok([mut from, mut to])) = from.map(|f| holders.get_many_mut([f, entity])) else {
                    // Gone or taken: it chooses afresh.
                    (trip.holder, nav.leg) = (None, 0);
                    continue;
                };
                OreProperty::transfer(&mut from.4, &mut to.4, load * TICK_SECONDS, cost);
                if to.4.current() >= cost || to.4.room() <= 0.0 || from.4.current() <= 0.0 {
                    trip.holder = None;
                    nav.head_for(site.at());
                }
            }
            _ => {}
        }
    }
}

/// A walkable point on the circle of `radius` round `centre` (random, up to
/// [`BESIDE_TRIES`]), else the circle's point toward `from`.
fn beside(random: &mut SimRandom, nav: Option<&NavMap>, centre: [f32; 2], radius: f32, from: [f32; 2]) -> [f32; 2] {
    let on = |a: f32| [centre[0] + radius * libm::cosf(a), centre[1] + radius * libm::sinf(a)];
    (0..BESIDE_TRIES)
        .map(|_| on(rand(&mut random.shared) as f32 / RAND_MAX as f32 * std::f32::consts::TAU))
        .find(|p| nav.is_none_or(|n| n.walkable(p[0], p[1])))
        .unwrap_or_else(|| on(libm::atan2f(from[1] - centre[1], from[0] - centre[0])))
}
