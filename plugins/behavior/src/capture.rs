//! Capture through control pods and the escape (openparkan `docs/27-ownership.md` and
//! `docs/31-packages.md`, read and measured; `gameplay.md` §9.3, §10.1).
//!
//! **The capturer** ([`Order::Capture`] on a building): a unit of size class 2 at most
//! ([`SizeClass::CAPTURER`]), never on a building of its own clan or a main teleport
//! (else `rejected`, read). It walks to the building's side nearest the control pod and
//! goes in to the pod ([`Indoors`]): the walk along the building's hall way is not
//! modelled, the unit is put on the pod (the project's). When the building is its
//! clan's, the order ends and the unit escapes ([`Order::Leave`]).
//!
//! **The pod** ([`pods`]): the building watches its first pod place; an object standing
//! in it (across the ground, the place's box: the original's zone is 0.8 of the
//! computer part's radius, not read here) opens it, and when the same object is still
//! in after 0.9 ÷ the pod's rate seconds ([`pod_fire_ms`], measured), an object of
//! another clan takes the building: a new owner, nothing else tested (no alliance,
//! damage, power or defenders, read), a `captured` event. The pod closes when the object
//! leaves and opens again 5 s after closing.
//!
//! **The escape** ([`Order::Leave`] of a unit not aboard, openparkan `docs/31-packages.md`,
//! read): from a building, to a random walkable point 20 to 70 beyond its footprint's
//! circle at a random angle (200 tries); elsewhere, a random walkable point at least 100
//! inside the map, within 150 of the unit along each axis (400 tries), then 300, 400 and
//! 1 000 (300, 200 and 200 tries); none found, the unit stays. Then the next order.

use crate::haul;
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    Aboard, CollisionProxy, GameClock, GameMessage, Indoors, Kinematics, ManualControl, Movable, NavState, NavStatus,
    Order, OriginalObjectId, Owner, Place, Places, ProductionEvent, SearchFor, SimRandom, SimTransform, SizeClass,
    UnitClass, model_point, place, world_point,
};
use iron3d_terrain::{Ground, NavMap};
use std::collections::BTreeMap;

/// How long a pod stays shut after closing before it opens again, ms (read).
const REOPEN_MS: u32 = 5_000;
/// Under this speed (units a second) the hero at a door stands still and goes in.
const STILL: f32 = 0.01;

/// Tries and reaches (along each axis) of an escape from open ground (read).
const ESCAPE_ROUNDS: [(u32, f32); 4] = [(400, 150.0), (300, 300.0), (200, 400.0), (200, 1_000.0)];

/// How far inside the map an escape from open ground ends (read).
const ESCAPE_MARGIN: f32 = 100.0;

/// An escape from a building ends 20 to 70 beyond its circle, in 200 tries (read).
const ESCAPE_FROM_BUILDING: (f32, f32, u32) = (20.0, 50.0, 200);

/// How long after an object stands in a building's pod the building sees it open, ms:
/// 0.9 ÷ the pod's rate (measured on the first class-13 part of each shipped building,
/// which part is the computer where there are two is a guess): factories and the medium
/// bunker 4.5 s, the other bunkers and research centres 3.6 s, the Outpost 3 s, the main
/// teleport 2.25 s, mines, stores and towers 1.8 s, the generator 1.29 s; any other
/// Type 1.8 s (the project's).
pub fn pod_fire_ms(class: u32) -> u32 {
    let rate = match class {
        0x8000_0010 | 0x8002_0000 => 0.2,
        0x8001_0000 | 0x8004_0000 | 0x8000_0400 => 0.25,
        0x8000_0040 => 0.3,
        UnitClass::MAIN_TELEPORT => 0.4,
        UnitClass::GENERATOR => 0.7,
        _ => 0.5,
    };
    libm::roundf(900.0 / rate) as u32
}

/// One building's pod: who stands in it since when, and when it last closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Pod {
    /// The object it opens for (its id).
    pub occupant: Option<u32>,
    /// When that object came in (game ms).
    pub since_ms: u32,
    /// Whether it already fired for that object.
    pub fired: bool,
    /// When it last closed (game ms).
    pub closed_ms: Option<u32>,
}

/// The pods with something going on, by building id.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pods(pub BTreeMap<u32, Pod>);

/// A fresh mission has every pod shut.
pub(crate) fn reset(mut pods: ResMut<Pods>) {
    pods.0.clear();
}

/// A building as a capture sees it.
type Site<'a> =
    (&'a OriginalObjectId, &'a Owner, &'a SimTransform, &'a Places, Option<&'a CollisionProxy>, Option<&'a UnitClass>);

/// A building's first pod place.
fn pod_of(places: &Places) -> Option<&Place> {
    places.of(place::POD).next()
}

/// Whether a world point stands in a pod's box across the ground.
fn in_pod(pod: &Place, t: &SimTransform, at: [f32; 3]) -> bool {
    let local = model_point(t, at);
    let half = pod.size().0 / 2.0;
    (local[0] - pod.at[0]).abs() <= half && (local[1] - pod.at[1]).abs() <= half
}

/// The point outside a building's box (`proxy`) nearest its pod, a unit's radius and one
/// more beyond the wall: where that unit (`unit`, its proxy) goes in and comes out.
fn door(t: &SimTransform, proxy: Option<&CollisionProxy>, pod: &Place, unit: Option<&CollisionProxy>) -> [f32; 2] {
    let inside = world_point(t, pod.at);
    let Some(p) = proxy.filter(|p| !p.circle) else { return [inside[0], inside[1]] };
    let footprint = crate::footprints::Footprint::of(t, p);
    footprint.step_off([inside[0], inside[1]], unit.map_or(1.0, |u| u.radius) + 1.0)
}

/// The landscape's height at `p` where it is walkable (the areal map's cover): where a
/// unit may be put.
pub(crate) fn landing(ground: Option<&Ground>, nav: Option<&NavMap>, p: [f32; 2]) -> Option<f32> {
    let height = ground.and_then(|g| g.height_at(p[0], p[1]));
    height.filter(|_| nav.is_some_and(|n| n.walkable(p[0], p[1])))
}

/// Why `unit` (its clan and size class) may not capture building `target` (its clan,
/// Type and whether it has a pod), or `Ok`.
fn refusal(unit: (u32, i32, Option<SizeClass>), target: (u32, i32, Option<u32>, bool)) -> Result<(), String> {
    let (id, clan, size) = unit;
    let (building, owner, class, pod) = target;
    match size {
        Some(s) if s.0 <= SizeClass::CAPTURER => {}
        Some(s) => return Err(format!("capture: object {id} is of size class {}, only 1 and 2 capture", s.0)),
        None => return Err(format!("capture: object {id} has no size class (no chassis), only 1 and 2 capture")),
    }
    if owner == clan {
        return Err(format!("capture: building {building} is already of clan {clan}"));
    }
    if class == Some(UnitClass::MAIN_TELEPORT) {
        return Err(format!("capture: building {building} is a main teleport"));
    }
    if !pod {
        return Err(format!("capture: building {building} has no control pod"));
    }
    Ok(())
}

type Capturer<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a Owner,
    &'a mut SimTransform,
    &'a mut Navigator,
    &'a NavStatus,
    (Option<&'a SizeClass>, Option<&'a Indoors>, Option<&'a CollisionProxy>, Option<&'a UnitClass>),
    (Option<&'a ManualControl>, Option<&'a Kinematics>),
);

/// The world a capture and an escape read.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Grounds<'w> {
    clock: Res<'w, GameClock>,
    nav: Option<Res<'w, NavMap>>,
    ground: Option<Res<'w, Ground>>,
    random: ResMut<'w, SimRandom>,
}

impl Grounds<'_> {
    fn usable(&self, p: [f32; 2]) -> bool {
        landing(self.ground.as_deref(), self.nav.as_deref(), p).is_some()
    }

    /// A uniform draw in `0..1` from the escape's stream.
    fn draw(&mut self) -> f32 {
        self.random.stream("behavior.escape").fraction()
    }

    /// Where an escape from `from` ends: beyond a building's circle (`around`: its centre
    /// and radius) or on open ground.
    fn escape_point(&mut self, from: [f32; 2], around: Option<([f32; 2], f32)>) -> Option<[f32; 2]> {
        if let Some((centre, r)) = around {
            let (near, span, tries) = ESCAPE_FROM_BUILDING;
            return (0..tries).find_map(|_| {
                let (angle, reach) = (self.draw() * std::f32::consts::TAU, r + near + self.draw() * span);
                let (s, c) = libm::sincosf(angle);
                Some([centre[0] + c * reach, centre[1] + s * reach]).filter(|p| self.usable(*p))
            });
        }
        let (lo, hi) = self.nav.as_ref().and_then(|n| n.extent())?;
        let inside = |p: [f32; 2]| (0..2).all(|k| p[k] >= lo[k] + ESCAPE_MARGIN && p[k] <= hi[k] - ESCAPE_MARGIN);
        ESCAPE_ROUNDS.iter().find_map(|&(tries, reach)| {
            (0..tries).find_map(|_| {
                let d = [(self.draw() * 2.0 - 1.0) * reach, (self.draw() * 2.0 - 1.0) * reach];
                Some([from[0] + d[0], from[1] + d[1]]).filter(|p| inside(*p) && self.usable(*p))
            })
        })
    }
}

/// The hero's Enter at a building (`entrance`: its door and pod, if it has a pod): at
/// the door, less than [`crate::ENTER_REACH`] away across the ground, he goes in to
/// the pod (its place); farther, he walks there, or, driven by the player, is refused.
/// Only the hero goes in this way (the walk along the hall way is not modelled, the
/// project's).
fn walk_in(
    (id, hero): (u32, bool),
    (building, entrance): (u32, Option<([f32; 2], [f32; 3])>),
    at: [f32; 2],
    manual: bool,
) -> Result<Option<[f32; 3]>, String> {
    if !hero {
        return Err(format!("enter: object {id} is not the hero"));
    }
    let (door, pod) = entrance.ok_or(format!("enter: building {building} has no control pod"))?;
    let gap = dist(at, door);
    if gap < crate::ENTER_REACH {
        Ok(Some(pod))
    } else if manual {
        Err(format!("enter: building {building}'s door is {gap:.0} away (the hero enters within 20)"))
    } else {
        Ok(None)
    }
}

/// Runs every capture of a building and every escape one tick, in id order.
pub(crate) fn step(
    mut grounds: Grounds,
    sites: Query<Site, Without<Movable>>,
    table: Res<iron3d_core::ObjectTable>,
    mut units: Query<Capturer, (With<Movable>, Without<Aboard>)>,
    mut out: MessageWriter<GameMessage>,
    mut commands: Commands,
) {
    // The hero's Enter at a building's door is the player's while he drives him.
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| {
            matches!(u.4.order, Order::Board(_))
                || !ManualControl::moving(u.7.0)
                    && (matches!(u.4.order, Order::Capture(_)) || u.4.order == Order::Leave)
        })
        .map(|u| (u.1.0, u.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, owner, mut t, mut nav, status, (size, indoors, proxy, class), (manual, kinematics))) =
            units.get_mut(entity)
        else {
            continue;
        };
        let hero = class.is_some_and(|c| c.is_hero());
        let at = [t.position[0], t.position[1]];
        if nav.order == Order::Leave {
            if nav.leg != 0 {
                if matches!(status.state, NavState::Arrived | NavState::Blocked) {
                    nav.finish();
                }
                continue;
            }
            let from = indoors.and_then(|i| table.entity_of(i.0)).and_then(|e| sites.get(e).ok());
            let around = from.map(|(_, _, bt, places, bp, _)| {
                // Out through the door first (the hall way's walk is not modelled).
                if let Some(pod) = pod_of(places) {
                    let [x, y] = door(bt, bp, pod, proxy);
                    t.position[0] = x;
                    t.position[1] = y;
                }
                ([bt.position[0], bt.position[1]], bp.map_or(0.0, |p| p.radius))
            });
            if indoors.is_some() {
                commands.entity(entity).remove::<Indoors>();
            }
            match grounds.escape_point([t.position[0], t.position[1]], around) {
                Some(p) => nav.head_for(p),
                None => nav.finish(),
            }
            continue;
        }
        let (Order::Capture(target) | Order::Board(target)) = nav.order else { continue };
        let Some(site) = table.entity_of(target).and_then(|e| sites.get(e).ok()) else {
            // A unit: the hero's capture by Enter (boarding's step).
            continue;
        };
        let (_, site_owner, bt, places, bp, class) = site;
        if let Order::Board(_) = nav.order {
            let entrance = pod_of(places).map(|pod| (door(bt, bp, pod, proxy), world_point(bt, pod.at)));
            // He goes in once he stands still (an order's walk halts here first, the
            // player's Enter waits until he stops), so no speed carries him off the pod
            // (the project's: the hall way's walk is not modelled).
            let still = kinematics.is_none_or(|k| k.speed.abs() < STILL);
            match walk_in((id, hero), (target, entrance), at, ManualControl::moving(manual)) {
                Ok(Some(_)) if !still => nav.clear_path(),
                Ok(Some(pod)) => {
                    t.position = pod;
                    nav.start(Order::Stop);
                    nav.clear_path();
                    commands.entity(entity).insert(Indoors(target));
                }
                Ok(None) if nav.leg == 0 => nav.head_for(entrance.map_or(at, |e| e.0)),
                Ok(None) => {}
                Err(detail) => {
                    out.write(haul::report(&grounds.clock, ProductionEvent::Rejected, vec![id, target], detail));
                    nav.start(Order::Stop);
                }
            }
            continue;
        }
        if indoors.is_some_and(|i| i.0 == target) {
            if site_owner.clan != owner.clan {
                continue;
            }
            if nav.queued.first() == Some(&Order::Search(SearchFor::Capture)) {
                // A search by type plans its next building from here: out by the door,
                // with no escape (read).
                let [x, y] = pod_of(places).map_or([t.position[0], t.position[1]], |pod| door(bt, bp, pod, proxy));
                (t.position[0], t.position[1]) = (x, y);
                commands.entity(entity).remove::<Indoors>();
                nav.finish();
            } else {
                nav.start(Order::Leave);
            }
            continue;
        }
        if nav.leg == 0 {
            let checked = refusal(
                (id, owner.clan, size.copied()),
                (target, site_owner.clan, class.map(|c| c.0), pod_of(places).is_some()),
            );
            if let Err(detail) = checked {
                out.write(haul::report(&grounds.clock, ProductionEvent::Rejected, vec![id, target], detail));
                nav.finish();
                continue;
            }
        }
        if site_owner.clan == owner.clan {
            nav.finish();
            continue;
        }
        let Some(pod) = pod_of(places) else { continue };
        let entrance = door(bt, bp, pod, proxy);
        if nav.leg == 0 || dist(entrance, nav.goal) > 0.5 {
            nav.head_for(entrance);
        } else if status.state == NavState::Arrived && dist(at, entrance) <= 3.0 {
            t.position = world_point(bt, pod.at);
            nav.clear_path();
            nav.leg = 2;
            commands.entity(entity).insert(Indoors(target));
        }
    }
}

/// Steps every building's pod one tick, in building id order: who stands in it opens it,
/// and after its time an object of another clan takes the building; then, the building
/// its clan's, the pod fires for it (`opened`: the original's same-clan callback, which
/// opens a bunker's command view or a factory's screen to the player's hero). A unit
/// walked out of the building's walls (the player's hero, driven) is indoors no more.
pub(crate) fn pods(
    clock: Res<GameClock>,
    mut pods: ResMut<Pods>,
    mut buildings: Query<
        (&OriginalObjectId, &mut Owner, &SimTransform, &Places, Option<&UnitClass>, Option<&CollisionProxy>),
        Without<Movable>,
    >,
    inside: Query<
        (Entity, &OriginalObjectId, &Owner, &SimTransform, &Indoors, Option<&CollisionProxy>),
        (With<Movable>, Without<Aboard>),
    >,
    table: Res<iron3d_core::ObjectTable>,
    mut out: MessageWriter<GameMessage>,
    mut commands: Commands,
) {
    // Only a unit gone in stands inside a building's walls.
    let mut standing: BTreeMap<u32, Vec<(u32, Owner, [f32; 3])>> = BTreeMap::new();
    for (entity, id, owner, t, indoors, proxy) in &inside {
        let walls = table.entity_of(indoors.0).and_then(|e| buildings.get(e).ok()).and_then(|b| Some((b.2, b.5?)));
        let out_of_walls = walls.is_some_and(|(bt, bp)| {
            let margin = proxy.map_or(1.0, |p| p.radius) + 2.0;
            !bp.circle && crate::footprints::Footprint::of(bt, bp).distance([t.position[0], t.position[1]]) > margin
        });
        if out_of_walls {
            commands.entity(entity).remove::<Indoors>();
            continue;
        }
        standing.entry(indoors.0).or_default().push((id.0, *owner, t.position));
    }
    let mut watched: Vec<u32> = standing.keys().chain(pods.0.keys()).copied().collect();
    watched.sort_unstable();
    watched.dedup();
    let now = clock.time_ms;
    for building in watched {
        let Some(entity) = table.entity_of(building) else {
            pods.0.remove(&building);
            continue;
        };
        let Ok((_, mut owner, t, places, class, _)) = buildings.get_mut(entity) else { continue };
        let Some(pod) = pod_of(places) else { continue };
        let mut occupants =
            standing.get(&building).into_iter().flatten().filter(|o| in_pod(pod, t, o.2)).collect::<Vec<_>>();
        occupants.sort_unstable_by_key(|o| o.0);
        let occupant = occupants.first().copied();
        let mut state = pods.0.get(&building).copied().unwrap_or_default();
        match occupant {
            Some(&(who, by, _)) if state.occupant == Some(who) => {
                let due = now.wrapping_sub(state.since_ms) >= pod_fire_ms(class.map_or(0, |c| c.0));
                if !state.fired && due {
                    state.fired = true;
                    if by.clan != owner.clan {
                        let detail = format!("from={} to={}", owner.clan, by.clan);
                        *owner = by;
                        out.write(haul::report(&clock, ProductionEvent::Captured, vec![building, who], detail));
                    }
                    out.write(haul::report(&clock, ProductionEvent::Opened, vec![building, who], String::new()));
                }
            }
            Some(&(who, ..)) => {
                if state.occupant.is_some() {
                    state.closed_ms = Some(now);
                }
                let shut = state.closed_ms.is_some_and(|c| now.wrapping_sub(c) < REOPEN_MS);
                state.occupant = (!shut).then_some(who);
                (state.since_ms, state.fired) = (now, false);
            }
            None => {
                if state.occupant.take().is_some() {
                    state.closed_ms = Some(now);
                }
            }
        }
        if state.occupant.is_none() && state.closed_ms.is_none_or(|c| now.wrapping_sub(c) >= REOPEN_MS) {
            pods.0.remove(&building);
        } else {
            pods.0.insert(building, state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_fires_at_nine_tenths_of_its_opening() {
        assert_eq!(pod_fire_ms(0x8000_0010), 4_500, "factory");
        assert_eq!(pod_fire_ms(0x8002_0000), 4_500, "medium bunker");
        assert_eq!(pod_fire_ms(0x8001_0000), 3_600, "small bunker");
        assert_eq!(pod_fire_ms(0x8000_0400), 3_600, "research centre");
        assert_eq!(pod_fire_ms(0x8000_0040), 3_000, "Outpost");
        assert_eq!(pod_fire_ms(UnitClass::MAIN_TELEPORT), 2_250, "main teleport");
        assert_eq!(pod_fire_ms(0x8000_0004), 1_800, "mine");
        assert_eq!(pod_fire_ms(0x8000_0002), 1_286, "generator");
    }

    #[test]
    fn only_a_small_unit_captures_another_clans_building_with_a_pod() {
        let ok = refusal((1, 1, Some(SizeClass(2))), (9, 2, Some(0x8000_0010), true));
        assert_eq!(ok, Ok(()));
        let big = refusal((1, 1, Some(SizeClass(3))), (9, 2, Some(0x8000_0010), true)).unwrap_err();
        assert!(big.contains("size class 3"), "{big}");
        let own = refusal((1, 2, Some(SizeClass(1))), (9, 2, Some(0x8000_0010), true)).unwrap_err();
        assert!(own.contains("already of clan 2"), "{own}");
        let teleport = refusal((1, 1, Some(SizeClass(2))), (9, 2, Some(UnitClass::MAIN_TELEPORT), true)).unwrap_err();
        assert!(teleport.contains("main teleport"), "{teleport}");
        let podless = refusal((1, 1, Some(SizeClass(2))), (9, 2, None, false)).unwrap_err();
        assert!(podless.contains("no control pod"), "{podless}");
    }
}
