//! Haul orders (the project's own rule; the original's ore transport is not recovered):
//! a transport robot with `Order::Haul(mine)` drives to the mine (leg 0) and, within
//! `haul.reach` of it, loads `haul.load_per_second` into its own ore store until it
//! carries `haul.capacity` (or its `MaximumOre`) or the mine is empty with something
//! loaded; then it drives (leg 1) to the nearest building of its clan that stores ore
//! with room (not a mine; ties by `OriginalObjectId`), unloads `haul.unload_per_second`
//! within reach (another store when that one fills; it waits while none has room) and
//! goes back. Transports act in `OriginalObjectId` order; a haul order naming anything
//! but a mine of a transport's clan is refused (`rejected`, the unit keeps its order),
//! and a haul whose mine is gone ends (the unit stops).

use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    DispatchPhase, GameClock, GameMessage, GameMessageKind, ManualControl, Movable, NavState, NavStatus, ObjectTable,
    Order, OriginalObjectId, Owner, ProductionEvent, SimTransform, TICK_SECONDS, UnitClass,
};
use iron3d_economy::OreProperty;

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
/// order): the store its load goes to and what it carried when it began loading or
/// unloading at this stop.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct HaulTrip {
    /// The store of leg 1 (`None`: not chosen, or no store has room).
    pub store: Option<u32>,
    /// The transport's ore when the current stop's transfer began (`None`: not begun).
    pub start: Option<f32>,
}

impl HaulTrip {
    /// The report of the current stop (`ore=N`: what moved since it began).
    fn moved(&self, cargo: f32) -> String {
        format!("ore={}", (cargo - self.start.unwrap_or(cargo)).abs())
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

/// The object a haul's current leg goes to: its mine (leg 0) or its store (leg 1).
pub(crate) fn target(nav: &Navigator, trip: &HaulTrip) -> Option<u32> {
    match nav.order {
        Order::Haul(mine) if nav.leg == 0 => Some(mine),
        Order::Haul(_) => trip.store,
        _ => None,
    }
}

/// The haul report of `ids` (a production event of the Behavior phase).
pub(crate) fn report(clock: &GameClock, event: ProductionEvent, ids: Vec<u32>, detail: String) -> GameMessage {
    GameMessage::new(clock, DispatchPhase::Behavior, GameMessageKind::Production { event, ids, detail })
}

/// An ore holder as a haul sees it.
type Holder<'a> =
    (&'a OriginalObjectId, &'a Owner, Option<&'a UnitClass>, &'a SimTransform, &'a mut OreProperty, Has<Movable>);

type Hauler<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a SimTransform,
    &'a mut Navigator,
    &'a mut HaulTrip,
    &'a NavStatus,
    Has<ManualControl>,
);

/// The nearest building of `clan` storing ore with room, not a mine (ties by id).
fn nearest_store(holders: &Query<Holder>, clan: i32, from: [f32; 2]) -> Option<u32> {
    holders
        .iter()
        .filter(|(_, o, c, _, ore, movable)| {
            o.clan == clan && !movable && c.is_none_or(|c| c.0 != UnitClass::MINE) && ore.room() > 0.0
        })
        .map(|(id, _, _, t, ..)| (dist(from, [t.position[0], t.position[1]]), id.0))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, id)| id)
}

/// Runs every haul order one tick.
pub(crate) fn haul(
    haulage: Res<Haulage>,
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    mut haulers: Query<Hauler>,
    mut holders: Query<Holder>,
    mut out: MessageWriter<GameMessage>,
) {
    let mut order: Vec<(u32, Entity)> =
        haulers.iter().filter(|h| matches!(h.3.order, Order::Haul(_)) && !h.6).map(|h| (h.1.0, h.0)).collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, t, mut nav, mut trip, status, _)) = haulers.get_mut(entity) else { continue };
        let Order::Haul(mine) = nav.order else { continue };
        let at = [t.position[0], t.position[1]];
        let rules = match &haulage.0 {
            Ok(r) => *r,
            Err(e) => {
                nav.start(Order::Stop);
                *trip = HaulTrip::default();
                out.write(report(&clock, ProductionEvent::Rejected, vec![id, mine], format!("haul: {e}")));
                continue;
            }
        };
        let Ok(transport) = holders.get(entity).map(|h| (h.1.clan, h.4.maximum)) else { continue };
        let (clan, maximum) = transport;
        let mine_entity = table
            .entity_of(mine)
            .filter(|&e| holders.get(e).is_ok_and(|h| h.1.clan == clan && h.2.is_some_and(|c| c.0 == UnitClass::MINE)));
        let Some(mine_entity) = mine_entity else {
            nav.start(Order::Stop);
            *trip = HaulTrip::default();
            out.write(report(&clock, ProductionEvent::Rejected, vec![id, mine], format!("haul: mine {mine} is gone")));
            continue;
        };
        let cap = rules.capacity.value.min(maximum);
        let near = |holders: &Query<Holder>, e: Entity| {
            status.state == NavState::Arrived
                && holders.get(e).is_ok_and(|h| dist(at, [h.3.position[0], h.3.position[1]]) <= rules.reach.value)
        };
        if nav.leg == 0 {
            if !near(&holders, mine_entity) {
                continue;
            }
            let Ok([mut from, mut to]) = holders.get_many_mut([mine_entity, entity]) else { continue };
            trip.start.get_or_insert(to.4.current());
            OreProperty::transfer(&mut from.4, &mut to.4, rules.load_per_second.value * TICK_SECONDS, cap);
            let cargo = to.4.current();
            if cargo >= cap || (from.4.current() <= 0.0 && cargo > 0.0) {
                out.write(report(&clock, ProductionEvent::Loaded, vec![id, mine], trip.moved(cargo)));
                *trip = HaulTrip { store: nearest_store(&holders, clan, at), start: None };
                nav.leg = 1;
                nav.replan = true;
            }
            continue;
        }
        let store = trip
            .store
            .and_then(|s| table.entity_of(s).map(|e| (s, e)))
            .filter(|&(_, e)| holders.get(e).is_ok_and(|h| h.1.clan == clan && h.4.room() > 0.0));
        let Some((store, store_entity)) = store else {
            let cargo = holders.get(entity).map_or(0.0, |h| h.4.current());
            if let Some(left) = trip.store.filter(|_| trip.start.is_some()) {
                out.write(report(&clock, ProductionEvent::Unloaded, vec![id, left], trip.moved(cargo)));
            }
            let next = nearest_store(&holders, clan, at);
            if next != trip.store || trip.start.is_some() {
                *trip = HaulTrip { store: next, start: None };
                nav.replan = true;
            }
            continue;
        };
        if !near(&holders, store_entity) {
            continue;
        }
        let Ok([mut from, mut to]) = holders.get_many_mut([entity, store_entity]) else { continue };
        trip.start.get_or_insert(from.4.current());
        OreProperty::transfer(&mut from.4, &mut to.4, rules.unload_per_second.value * TICK_SECONDS, f32::INFINITY);
        if from.4.current() <= 0.0 {
            out.write(report(&clock, ProductionEvent::Unloaded, vec![id, store], trip.moved(0.0)));
            *trip = HaulTrip::default();
            nav.leg = 0;
            nav.replan = true;
        }
    }
}
