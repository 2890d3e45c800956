//! Haul orders (the original's `M_Task_Transport`, openparkan `docs/32-builder.md`
//! "Transporting ore", read): a transport robot with `Order::Haul` chooses its own
//! route, as the original does whatever the order names: the nearest mine of its clan
//! with a loading place and the nearest storage (`UnitClass::STORAGE`) of its clan with
//! an unloading place, neither with its construction sphere running (read), measured from the transport to the place (the distance's origin
//! is the project's reading; ties by `OriginalObjectId`). Ore goes only from mines to
//! storages, never to a factory or a research centre. With ore aboard it sets off for
//! the storage, otherwise for the mine. Within `haul.reach` of the mine's loading place
//! it loads `haul.load_per_second` until it carries `haul.capacity` (or its
//! `MaximumOre`), or the mine runs dry with something aboard (the project's: with
//! nothing aboard it waits at a dry mine), and drives to the storage's unloading place;
//! there it unloads `haul.unload_per_second`, never more than the storage has room for.
//! When a tick empties it or fills the storage, it chooses its route afresh and heads
//! for the mine. A storage with less than 0.1 free as a tick begins makes it wait: it
//! steps aside, at a quarter of its speed, to the first walkable of up to 100 random
//! points within 30 of the unloading place each way on each axis (uniform: the
//! project's reading), or stays where it stands; either place gone ends the task,
//! either of another clan keeps it waiting, and once the storage has more than 0.5 free
//! it chooses afresh and heads for the mine, still carrying what it could not unload. With no mine or no storage the task ends
//! (`rejected`; the unit stops). A place gone or taken while the transport drives to it
//! makes it choose afresh (the project's rule: the original's is not read). The
//! original passes over a mine whose loading place's joint is destroyed; iron3d's places
//! carry no joint, so every loading place counts as free. Transports act in
//! `OriginalObjectId` order; a haul order naming anything but a mine of a transport's
//! clan is refused (`rejected`, the unit keeps its order: the order word's check is the
//! project's, kept for the orders it names).

use crate::migrate::{RAND_MAX, rand};
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    DispatchPhase, GameClock, GameMessage, GameMessageKind, ManualControl, Movable, NavState, NavStatus, ObjectTable,
    Order, OriginalObjectId, Owner, Places, ProductionEvent, RandomStream, SimRandom, SimTransform, TICK_SECONDS,
    UnderConstruction, UnitClass, place, world_point,
};
use iron3d_economy::OreProperty;
use iron3d_terrain::NavMap;

/// A storage with less room than this as a tick begins is full: the transport waits.
const STORE_FULL: f32 = 0.1;
/// A waiting transport sets off for its mine once its storage has more room than this.
const STORE_FREED: f32 = 0.5;
/// Random points a waiting transport tries to step aside to.
const ASIDE_TRIES: u32 = 100;
/// How far from the unloading place it steps aside, each way on each axis.
const ASIDE_REACH: f32 = 30.0;

/// The haul rules in force (the rules file's `haul` section, the mission's once one
/// loads; an error refuses every haul order).
#[derive(Resource, Debug, Clone)]
pub struct Haulage(pub Result<iron3d_rules::HaulRules, String>);

impl Default for Haulage {
    fn default() -> Self {
        Self(iron3d_rules::Rules::shipped().map(|r| r.haul).map_err(|e| e.to_string()))
    }
}

/// Takes the haul section of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<iron3d_core::GameRules>>, mut haulage: ResMut<Haulage>) {
    if let Some(game) = game {
        haulage.0 = Ok(game.rules.haul);
    }
}

/// Where a unit's haul order is (beside its [`Navigator`]; default while it has no haul
/// order): the route's mine and storage, what it carried when the current stop's
/// transfer began, and whether it waits at a full storage.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct HaulTrip {
    /// The route's mine (`None`: no route chosen yet).
    pub mine: Option<u32>,
    /// The route's storage (`None`: no route chosen yet).
    pub store: Option<u32>,
    /// The transport's ore when the current stop's transfer began (`None`: not begun).
    pub start: Option<f32>,
    /// It waits at a full storage (the original's state 5), walking aside at a quarter of
    /// its speed.
    pub waiting: bool,
}

impl HaulTrip {
    /// The report of the current stop (`ore=N`: what moved since it began).
    fn moved(&self, cargo: f32) -> String {
        format!("ore={}", (cargo - self.start.unwrap_or(cargo)).abs())
    }

    /// The route, as a report names it.
    fn route(&self) -> String {
        let name = |o: Option<u32>| o.map_or("none".into(), |id| id.to_string());
        format!("mine {}, storage {}", name(self.mine), name(self.store))
    }
}

/// Why `unit` (owner clan and class) may not haul from `mine` (owner clan and class,
/// `None` when there is no such object), or `Ok`.
///
/// # Errors
/// The unit is no transport robot, or the target no mine of its clan.
pub fn refusal(unit: (u32, i32, Option<u32>), mine: u32, target: Option<(i32, Option<u32>)>) -> Result<(), String> {
    let (id, clan, class) = unit;
    if class != Some(UnitClass::TRANSPORT) {
        return Err(format!("haul: object {id} is not a transport robot"));
    }
    match target {
        None => Err(format!("haul: no object with id {mine}")),
        Some((_, c)) if c != Some(UnitClass::MINE) => Err(format!("haul: object {mine} is not a mine")),
        Some((owner, _)) if owner != clan => Err(format!("haul: mine {mine} is not of clan {clan}")),
        Some(_) => Ok(()),
    }
}

/// [`refusal`] against a world (the CLI's static check of an orders file).
///
/// # Errors
/// What is wrong, naming the unit or the mine.
pub fn check(world: &World, unit: u32, mine: u32) -> Result<(), String> {
    let table = world.resource::<ObjectTable>();
    let of = |id: u32| {
        let e = table.entity_of(id)?;
        Some((world.get::<Owner>(e).map_or(-1, |o| o.clan), world.get::<UnitClass>(e).map(|c| c.0)))
    };
    let (clan, class) = of(unit).ok_or(format!("no object with id {unit}"))?;
    refusal((unit, clan, class), mine, of(mine))
}

/// The haul report of `ids` (a production event of the Behavior phase).
pub(crate) fn report(clock: &GameClock, event: ProductionEvent, ids: Vec<u32>, detail: String) -> GameMessage {
    GameMessage::new(clock, DispatchPhase::Behavior, GameMessageKind::Production { event, ids, detail })
}

/// An ore holder as a haul (and a builder's fetch) sees it.
pub(crate) type Holder<'a> = (
    &'a OriginalObjectId,
    &'a Owner,
    Option<&'a UnitClass>,
    &'a SimTransform,
    &'a mut OreProperty,
    Has<Movable>,
    Option<&'a Places>,
    Has<UnderConstruction>,
);

type Hauler<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a SimTransform,
    &'a mut Navigator,
    &'a mut HaulTrip,
    &'a NavStatus,
    Option<&'a ManualControl>,
);

/// The ids a report names: the transport, then `other` when there is one.
fn named(id: u32, other: Option<u32>) -> Vec<u32> {
    [Some(id), other].into_iter().flatten().collect()
}

/// The first place of `flag` of a building's hall way, as a point on the ground.
pub(crate) fn ore_place(places: Option<&Places>, t: &SimTransform, flag: u32) -> Option<[f32; 2]> {
    let p = places?.of(flag).next()?;
    let [x, y, _] = world_point(t, p.at);
    Some([x, y])
}

/// The nearest building of `clan` and `class` with a place of `flag` from `from`
/// (measured to the place; ties by id).
fn nearest(holders: &Query<Holder>, (clan, class, flag): (i32, u32, u32), from: [f32; 2]) -> Option<u32> {
    holders
        .iter()
        .filter(|h| h.1.clan == clan && !h.5 && !h.7 && h.2.is_some_and(|c| c.0 == class))
        .filter_map(|h| ore_place(h.6, h.3, flag).map(|p| (dist(from, p), h.0.0)))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, id)| id)
}

/// The route the go command picks: the nearest mine with a loading place and the
/// nearest storage with an unloading place of `clan`.
///
/// # Errors
/// The clan has no such mine or no such storage.
fn route(holders: &Query<Holder>, clan: i32, from: [f32; 2]) -> Result<HaulTrip, String> {
    let mine = nearest(holders, (clan, UnitClass::MINE, place::MINE_LOADING), from)
        .ok_or(format!("haul: clan {clan} has no mine with a loading place"))?;
    let store = nearest(holders, (clan, UnitClass::STORAGE, place::STORAGE_UNLOADING), from)
        .ok_or(format!("haul: clan {clan} has no storage with an unloading place"))?;
    Ok(HaulTrip { mine: Some(mine), store: Some(store), ..HaulTrip::default() })
}

/// The place a leg goes to: the mine's loading place (leg 0) or the storage's
/// unloading place (leg 1), and its building (`None`: gone or no longer a place).
fn leg_place(holders: &Query<Holder>, table: &ObjectTable, trip: &HaulTrip, leg: usize) -> Option<(Entity, [f32; 2])> {
    let (id, flag) = if leg == 0 { (trip.mine?, place::MINE_LOADING) } else { (trip.store?, place::STORAGE_UNLOADING) };
    let e = table.entity_of(id)?;
    let h = holders.get(e).ok()?;
    Some((e, ore_place(h.6, h.3, flag)?))
}

/// Sets a transport off on `leg` to its place (the navigator's goal).
fn head(nav: &mut Navigator, leg: usize, at: [f32; 2]) {
    nav.leg = leg;
    nav.goal = at;
    nav.replan = true;
}

/// Where a transport waiting at a full storage steps aside to: the first walkable of up
/// to [`ASIDE_TRIES`] random points within [`ASIDE_REACH`] of the unloading place `at`
/// on each axis (`None`: it stays where it stands).
fn aside(random: &mut RandomStream, nav: Option<&NavMap>, at: [f32; 2]) -> Option<[f32; 2]> {
    (0..ASIDE_TRIES).find_map(|_| {
        let mut offset = || (2.0 * rand(random) as f32 / RAND_MAX as f32 - 1.0) * ASIDE_REACH;
        let p = [at[0] + offset(), at[1] + offset()];
        nav.is_none_or(|n| n.walkable(p[0], p[1])).then_some(p)
    })
}

/// Ends a transport's task: it stops, and the report says why.
fn ended(clock: &GameClock, id: u32, nav: &mut Navigator, trip: &mut HaulTrip, why: String) -> GameMessage {
    let ids = named(id, trip.mine);
    nav.start(Order::Stop);
    *trip = HaulTrip::default();
    report(clock, ProductionEvent::Rejected, ids, why)
}

/// Runs every haul order one tick.
pub(crate) fn haul(
    haulage: Res<Haulage>,
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    mut haulers: Query<Hauler>,
    mut holders: Query<Holder>,
    (mut random, nav_map): (ResMut<SimRandom>, Option<Res<NavMap>>),
    mut out: MessageWriter<GameMessage>,
) {
    let mut order: Vec<(u32, Entity)> = haulers
        .iter()
        .filter(|h| matches!(h.3.order, Order::Haul(_)) && !ManualControl::moving(h.6))
        .map(|h| (h.1.0, h.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, t, mut nav, mut trip, status, _)) = haulers.get_mut(entity) else { continue };
        let at = [t.position[0], t.position[1]];
        let rules = match &haulage.0 {
            Ok(r) => *r,
            Err(e) => {
                out.write(ended(&clock, id, &mut nav, &mut trip, format!("haul: {e}")));
                continue;
            }
        };
        let Ok((clan, maximum, cargo)) = holders.get(entity).map(|h| (h.1.clan, h.4.maximum, h.4.current())) else {
            continue;
        };
        let owned = |holders: &Query<Holder>, e: Entity| holders.get(e).is_ok_and(|h| h.1.clan == clan);
        // The go command: a route afresh, to the storage with ore aboard at the task's
        // start, otherwise to the mine.
        let go = |holders: &Query<Holder>, nav: &mut Navigator, trip: &mut HaulTrip, leg: usize| {
            let fresh = route(holders, clan, at)?;
            let (_, place) = leg_place(holders, &table, &fresh, leg).ok_or("haul: the route has no place")?;
            *trip = fresh;
            head(nav, leg, place);
            Ok::<(), String>(())
        };
        if trip.mine.is_none() {
            if let Err(why) = go(&holders, &mut nav, &mut trip, usize::from(cargo > 0.0)) {
                out.write(ended(&clock, id, &mut nav, &mut trip, why));
            }
            continue;
        }
        if trip.waiting {
            let places = [0, 1].map(|leg| leg_place(&holders, &table, &trip, leg));
            let (Some((mine, _)), Some((store, _))) = (places[0], places[1]) else {
                let why = format!("haul: its mine or storage is gone ({})", trip.route());
                out.write(ended(&clock, id, &mut nav, &mut trip, why));
                continue;
            };
            let room = holders.get(store).map_or(0.0, |h| h.4.room());
            let freed = owned(&holders, mine) && owned(&holders, store) && room > STORE_FREED;
            if freed && let Err(why) = go(&holders, &mut nav, &mut trip, 0) {
                out.write(ended(&clock, id, &mut nav, &mut trip, why));
            }
            continue;
        }
        let leg = nav.leg.min(1);
        let Some((target, place)) = leg_place(&holders, &table, &trip, leg).filter(|&(e, _)| owned(&holders, e)) else {
            // Gone or taken on the way: a route afresh (the project's rule).
            if let Err(why) = go(&holders, &mut nav, &mut trip, leg) {
                out.write(ended(&clock, id, &mut nav, &mut trip, why));
            }
            continue;
        };
        if status.state != NavState::Arrived || dist(at, place) > rules.reach.value {
            continue;
        }
        if leg == 0 {
            let cap = rules.capacity.value.min(maximum);
            let Ok([mut from, mut to]) = holders.get_many_mut([target, entity]) else { continue };
            trip.start.get_or_insert(to.4.current());
            OreProperty::transfer(&mut from.4, &mut to.4, rules.load_per_second.value * TICK_SECONDS, cap);
            let cargo = to.4.current();
            if cargo >= cap || (from.4.current() <= 0.0 && cargo > 0.0) {
                out.write(report(&clock, ProductionEvent::Loaded, named(id, trip.mine), trip.moved(cargo)));
                trip.start = None;
                // Its storage gone or taken meanwhile: a route afresh (the project's rule).
                match leg_place(&holders, &table, &trip, 1).filter(|&(e, _)| owned(&holders, e)) {
                    Some((_, store)) => head(&mut nav, 1, store),
                    None => {
                        if let Err(why) = go(&holders, &mut nav, &mut trip, 1) {
                            out.write(ended(&clock, id, &mut nav, &mut trip, why));
                        }
                    }
                }
            }
            continue;
        }
        let Ok([mut from, mut to]) = holders.get_many_mut([entity, target]) else { continue };
        let ids = named(id, trip.store);
        if to.4.room() < STORE_FULL {
            if trip.start.is_some() {
                out.write(report(&clock, ProductionEvent::Unloaded, ids.clone(), trip.moved(from.4.current())));
            }
            (trip.start, trip.waiting) = (None, true);
            if let Some(p) = aside(&mut random.shared, nav_map.as_deref(), place) {
                (nav.goal, nav.replan) = (p, true);
            }
            continue;
        }
        trip.start.get_or_insert(from.4.current());
        OreProperty::transfer(&mut from.4, &mut to.4, rules.unload_per_second.value * TICK_SECONDS, f32::INFINITY);
        let (cargo, full) = (from.4.current(), to.4.room() <= 0.0);
        if cargo <= 0.0 || full {
            out.write(report(&clock, ProductionEvent::Unloaded, ids, trip.moved(cargo)));
            if let Err(why) = go(&holders, &mut nav, &mut trip, 0) {
                out.write(ended(&clock, id, &mut nav, &mut trip, why));
            }
        }
    }
}
