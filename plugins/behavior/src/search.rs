//! The original's searches (`ORDER_ROBOT_SEARCH`, 5, openparkan `docs/31-packages.md`,
//! read): *Search and capture* and *Seek and destroy*. Neither ends by itself.
//!
//! **Search and capture** ([`SearchFor::Capture`]): a unit of size class 2 at most (else
//! `rejected`). Each plan picks the nearest building of any other clan (enemy, neutral
//! or ally) of the types `0x8017365e` (every type but the power mast, the little
//! teleport and the heavy tower), never a main teleport, a bridge or one under
//! construction, a generator counted at half its distance, across the ground; the clan
//! knows the whole map. The capture runs as a capture order's, but when the building
//! turns, the unit plans the next one from the pod with no escape. A building without a
//! pod is passed over (the project's: the original picks it and hangs about it). With
//! none, it roams, planning again every 3 s plus up to 3 s.
//!
//! **Seek and destroy** ([`SearchFor::Enemies`]): each plan walks to the nearest hostile
//! warrior, builder or transport within 3 000 (never an HQ or a hero; a neutral clan's
//! unit finds nothing hostile), planning again every 15 s plus up to 15 s and whenever
//! it stops; its guns fight on the way. With none, it roams.
//!
//! **Roaming**: up to 150 random points at least 100 inside the map, the first on a
//! walkable areal.

use crate::haul;
use crate::navigator::Walker;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    Aboard, ClanRelations, GameClock, GameMessage, ManualControl, Movable, NavState, Order, OriginalObjectId, Owner,
    Places, ProductionEvent, SearchFor, SimRandom, SimTransform, SizeClass, UnderConstruction, UnitClass, place,
};
use iron3d_terrain::NavMap;
use std::collections::BTreeMap;

/// The building types a search and capture takes (read).
const CAPTURE_TYPES: u32 = 0x8017_365e;
/// Main teleports and bridges, which it passes over (read).
const PASSED_OVER: [u32; 2] = [UnitClass::MAIN_TELEPORT, 0x8000_1000];
/// The unit types a seek and destroy hunts: transports, builders, warriors (read).
const HUNTED: [u32; 3] = [UnitClass::TRANSPORT, UnitClass::BUILDER, UnitClass::BATTLE_UNIT];
/// How far a seek and destroy looks (read).
const HUNT_REACH: f32 = 3_000.0;
/// Roaming: tries, and how far inside the map (read).
const ROAM: (u32, f32) = (150, 100.0);

/// When each searching unit plans again (game ms), by id.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Searches(pub BTreeMap<u32, u32>);

/// A fresh mission has no search.
pub(crate) fn reset(mut searches: ResMut<Searches>) {
    searches.0.clear();
}

type Searcher<'a> = Walker<'a, (Option<&'a SizeClass>, Option<&'a ManualControl>)>;

type Building<'a> = (
    &'a OriginalObjectId,
    &'a Owner,
    &'a SimTransform,
    Option<&'a UnitClass>,
    Option<&'a Places>,
    Has<UnderConstruction>,
);

/// A building as [`next_building`] reads it (the last: under construction).
type Seen<'a> = (&'a OriginalObjectId, &'a Owner, &'a SimTransform, Option<&'a UnitClass>, Option<&'a Places>, bool);

/// The building a search and capture of clan `clan` at `from` takes next.
fn next_building(buildings: &Query<Building, Without<Movable>>, clan: i32, from: [f32; 2]) -> Option<u32> {
    let takes = |b: &Seen| {
        let class = b.3.map_or(0, |c| c.0);
        b.1.clan != clan
            && class & CAPTURE_TYPES & !UnitClass::REGISTRATION_BIT != 0
            && !PASSED_OVER.contains(&class)
            && !b.5
            && b.4.is_some_and(|p| p.of(place::POD).next().is_some())
    };
    let weighed = |b: &Seen| {
        let d = dist(from, [b.2.position[0], b.2.position[1]]);
        // A generator counts at half its distance (read).
        if b.3.is_some_and(|c| c.0 == UnitClass::GENERATOR) { d / 2.0 } else { d }
    };
    let best = buildings.iter().filter(takes).min_by(|a, b| weighed(a).total_cmp(&weighed(b)).then(a.0.0.cmp(&b.0.0)));
    best.map(|b| b.0.0)
}

/// Runs every search one tick, in id order.
#[expect(clippy::too_many_arguments, reason = "one step reads what each kind of search looks at")]
pub(crate) fn search(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    nav_map: Option<Res<NavMap>>,
    (mut random, mut searches): (ResMut<SimRandom>, ResMut<Searches>),
    buildings: Query<Building, Without<Movable>>,
    prey: Query<(&OriginalObjectId, &Owner, &SimTransform, &UnitClass), (With<Movable>, Without<Aboard>)>,
    mut units: Query<Searcher, With<Movable>>,
    mut out: MessageWriter<GameMessage>,
) {
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| matches!(u.4.order, Order::Search(_)) && !ManualControl::moving(u.6.1))
        .map(|u| (u.1.0, u.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    searches.0.retain(|id, _| order.iter().any(|o| o.0 == *id));
    let now = clock.time_ms;
    for (id, entity) in order {
        let Ok((_, _, owner, t, mut nav, status, (size, _))) = units.get_mut(entity) else { continue };
        let Order::Search(mode) = nav.order else { continue };
        let at = [t.position[0], t.position[1]];
        if mode == SearchFor::Capture && nav.leg == 0 && size.is_none_or(|s| s.0 > SizeClass::CAPTURER) {
            let detail = format!("search and capture: object {id} is not of size class 1 or 2");
            out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], detail));
            nav.finish();
            continue;
        }
        let due = searches.0.get(&id).is_none_or(|&next| now.wrapping_sub(next) < u32::MAX / 2);
        let stopped = nav.leg == 1 && matches!(status.state, NavState::Arrived | NavState::Blocked);
        if !(nav.leg == 0 || due || stopped) {
            continue;
        }
        let stream = random.stream("behavior.search");
        let (every, spread) = if mode == SearchFor::Capture { (3_000, 3_000) } else { (15_000, 15_000) };
        searches.0.insert(id, now.wrapping_add(every + stream.below(spread + 1)));
        let goal = match mode {
            SearchFor::Capture => match next_building(&buildings, owner.clan, at) {
                // The capture runs as a capture order's, the search waiting behind it.
                Some(building) => {
                    nav.queued.insert(0, Order::Search(mode));
                    nav.start(Order::Capture(building));
                    continue;
                }
                None => None,
            },
            SearchFor::Enemies => {
                let hostile = |clan: i32| relations.hostile(owner.clan, clan);
                let near = prey
                    .iter()
                    .filter(|p| HUNTED.contains(&p.3.0) && p.1.clan != owner.clan && hostile(p.1.clan))
                    .map(|p| (dist(at, [p.2.position[0], p.2.position[1]]), p.0.0, [p.2.position[0], p.2.position[1]]))
                    .filter(|p| p.0 <= HUNT_REACH)
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                near.map(|p| p.2)
            }
        };
        let goal = goal.or_else(|| {
            let (lo, hi) = nav_map.as_ref()?.extent()?;
            let (tries, margin) = ROAM;
            (0..tries).find_map(|_| {
                let mut draw = |k: usize| {
                    let span = (hi[k] - lo[k] - 2.0 * margin).max(0.0);
                    lo[k] + margin + stream.fraction() * span
                };
                let p = [draw(0), draw(1)];
                nav_map.as_ref().is_some_and(|n| n.walkable(p[0], p[1])).then_some(p)
            })
        });
        match goal {
            Some(p) => nav.head_for(p),
            // Nowhere to go: it waits for its next plan.
            None => nav.leg = 2,
        }
    }
}
