//! Docks (openparkan `docs/27-ownership.md`, read): every unit of a building's clan or
//! of an ally standing (no faster than the place allows, 2 m/s) in one of its dock places
//! gains, per second of game time, 10 % of a full battery, 10 % of its full life
//! (destroyed nodes too), and on each gun 10 % of its capacitor and 10 % of its magazine
//! rounded down, at least one round: a unit in a dock is full in ten seconds. No power,
//! damage or profile flag gates a dock. A unit in two docks is served once. What each
//! armed object holds of its full measures is published every fourth tick ([`supply`]):
//! Behavior sends machines to docks by it.
//!
//! The project's readings where the original's were not read: the life is spread as
//! 10 % of each node's full life, and the rounds arrive at each whole second of game
//! time.

use crate::{Body, Guns};
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanRelations, GameClock, Health, Kinematics, Movable, OriginalObjectId, Owner, Place, Places, Power, SimTransform,
    Supply, TICK_MS, TICK_SECONDS, model_point, place, relation, world_point,
};

/// What a dock gives a second, of each full measure.
pub(crate) const DOCK_SHARE: f32 = 0.1;

/// A unit's parts a dock refills.
type Docked<'a> = (
    &'a SimTransform,
    &'a Owner,
    Option<&'a Kinematics>,
    Option<&'a mut Body>,
    Option<&'a mut Health>,
    Option<&'a mut Guns>,
    Option<&'a mut Power>,
);

/// One dock place in the world: the place, its building's placement and clan, and a
/// circle around it that holds its box (a quick test before the exact one).
struct Dock<'a> {
    place: &'a Place,
    building: &'a SimTransform,
    clan: i32,
    centre: [f32; 2],
    reach: f32,
}

/// Each tick: the units standing in a dock of their clan or of an ally are refilled.
pub(crate) fn serve(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    buildings: Query<(&Places, &SimTransform, &Owner)>,
    mut units: Query<Docked, With<Movable>>,
) {
    let docks: Vec<Dock> = buildings
        .iter()
        .flat_map(|(places, t, owner)| {
            places.of(place::DOCK).map(move |p| {
                let [x, y, _] = world_point(t, p.at);
                let scale = t.scale[0].abs().max(t.scale[1].abs());
                Dock { place: p, building: t, clan: owner.clan, centre: [x, y], reach: p.size().0 * scale }
            })
        })
        .collect();
    if docks.is_empty() {
        return;
    }
    let whole_second = clock.time_ms / 1000 != clock.time_ms.wrapping_sub(TICK_MS) / 1000;
    for (t, owner, kinematics, body, health, guns, power) in &mut units {
        let speed = kinematics.map_or(0.0, |k| k.speed.abs());
        let friend = |clan: i32| clan == owner.clan || relations.word(clan, owner.clan) == Some(relation::ALLIED);
        let inside = |d: &Dock| {
            let (dx, dy) = (t.position[0] - d.centre[0], t.position[1] - d.centre[1]);
            dx * dx + dy * dy <= d.reach * d.reach
                && speed <= d.place.speed_bound()
                && friend(d.clan)
                && d.place.holds(model_point(d.building, t.position))
        };
        if !docks.iter().any(inside) {
            continue;
        }
        if let Some(mut body) = body {
            mend(&mut body, TICK_SECONDS);
            if let Some(mut health) = health {
                health.hp = body.total().0;
            }
        }
        if let Some(mut guns) = guns {
            guns.0.iter_mut().for_each(|g| rearm(g, TICK_SECONDS, whole_second));
        }
        if let Some(mut power) = power {
            power.charge = (power.charge + DOCK_SHARE * TICK_SECONDS).min(1.0);
        }
    }
}

/// Ticks between two publications of an object's [`Supply`] (a quarter of the objects
/// each tick, by id: the project's cadence, about the original's behaviour takt).
pub(crate) const SUPPLY_EVERY: u32 = 4;

/// Publishes what each armed object holds of its full measures ([`Supply`]), every
/// [`SUPPLY_EVERY`] ticks, written only where it changed.
pub(crate) fn supply(
    clock: Res<GameClock>,
    mut objects: Query<(&OriginalObjectId, &Body, Option<&Power>, Option<&Guns>, &mut Supply)>,
) {
    for (id, body, power, guns, mut supply) in &mut objects {
        if !clock.tick.wrapping_add(id.0).is_multiple_of(SUPPLY_EVERY) {
            continue;
        }
        let (life, max) = body.total();
        let limited = || guns.into_iter().flat_map(|g| &g.0).filter(|g| g.sheet.magazine > 0);
        let share = |g: &crate::GunState| g.magazine.max(0) as f32 / g.sheet.magazine as f32;
        let count = limited().count();
        let now = Supply {
            life: if max > 0.0 { life / max } else { 1.0 },
            charge: power.filter(|p| p.capacity() > 0.0).map_or(1.0, |p| p.charge),
            rounds: limited().map(share).fold(1.0, f32::min),
            starved: if count == 0 { 0.0 } else { limited().filter(|g| share(g) < 0.2).count() as f32 / count as f32 },
        };
        supply.set_if_neq(now);
    }
}

/// `dt` seconds in a dock: every node, destroyed or not, gains its share of its full life.
pub(crate) fn mend(body: &mut Body, dt: f32) {
    for n in &mut body.nodes {
        n.life = (n.life + DOCK_SHARE * n.max * dt).min(n.max);
    }
}

/// `dt` seconds in a dock for a gun: its capacitor's share, and at a whole second its
/// magazine's share (at least one round); an unlimited magazine stays so.
pub(crate) fn rearm(gun: &mut crate::GunState, dt: f32, whole_second: bool) {
    if gun.charge < gun.sheet.capacitor {
        gun.charge = (gun.charge + DOCK_SHARE * gun.sheet.capacitor * dt).min(gun.sheet.capacitor);
    }
    let full = gun.sheet.magazine;
    if whole_second && full > 0 && gun.magazine >= 0 {
        let rounds = ((full as f32 * DOCK_SHARE) as i32).max(1);
        gun.magazine = (gun.magazine + rounds).min(full);
    }
}
