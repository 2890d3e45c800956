//! Minds, the clans' robot cap (`gameplay.md` §5.1, openparkan `docs/04-missions.md` and
//! `docs/23-economy.md`; read and measured): a clan has the minds its clan record
//! gives; every robot of the clan (the hero too) holds one, and so does a robot being
//! built, from the start of its build; destruction and capture free a robot's mind
//! (it no longer counts for the clan). A build that finds no free mind is refused and
//! dropped, never retried.

use crate::state::Production;
use bevy_ecs::prelude::*;
use iron3d_core::{MissionClans, Owner, SimObject, UnitClass};
use std::collections::BTreeMap;

/// The class bit of robots (`varset.var`'s `CLASS_ROBOT`).
const CLASS_ROBOT: u32 = 0x0100_0000;

/// `(minds, free minds)` of `clan`; `None` without mission clans (a world built by hand
/// has no cap) or for a clan the mission does not have. `owners` are the clans of the
/// producers (by id), as production steps them.
pub fn of_clan(world: &World, clan: i32, owners: &BTreeMap<u32, i32>) -> Option<(u32, u32)> {
    let minds = usize::try_from(clan).ok().and_then(|c| world.get_resource::<MissionClans>()?.clans.get(c))?.minds;
    let placed = world
        .try_query_filtered::<(&Owner, &UnitClass), With<SimObject>>()
        .map_or(0, |mut robots| robots.iter(world).filter(|(o, c)| o.clan == clan && c.0 & CLASS_ROBOT != 0).count());
    let building = world.get_resource::<Production>().map_or(0, |p| {
        p.producers.iter().filter(|(id, q)| owners.get(id) == Some(&clan) && q.active.is_some()).count()
    });
    let held = u32::try_from(placed + building).unwrap_or(u32::MAX);
    Some((minds, minds.saturating_sub(held)))
}

/// The minds of every clan of the mission: clan index → `(minds, free)`.
pub fn board(world: &World) -> BTreeMap<i32, (u32, u32)> {
    let owners = crate::step::producer_clans(world);
    let n = world.get_resource::<MissionClans>().map_or(0, |c| c.clans.len());
    (0..n as i32).filter_map(|c| Some((c, of_clan(world, c, &owners)?))).collect()
}
