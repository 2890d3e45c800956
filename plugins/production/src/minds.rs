//! Minds, the clans' robot cap (`gameplay.md` §5.1, openparkan `docs/04-missions.md` and
//! `docs/23-economy.md`; read and measured): a clan has the minds its clan record
//! gives; every robot of the clan (the hero too) holds one, and so does a robot being
//! built, from the start of its build; destruction and capture free a robot's mind
//! (it no longer counts for the clan). A unit the hero took from a neutral clan holds
//! none ([`iron3d_core::Mindless`]). A build that finds no free mind is refused and
//! dropped, never retried.

use crate::state::Production;
use bevy_ecs::prelude::*;
use iron3d_core::{Mindless, MissionClans, Owner, SimObject, UnitClass};
use iron3d_rules::ROBOT_CLASS_BIT;
use std::collections::BTreeMap;

/// Each mission clan's `(minds, free minds)`, counted in one pass over the robots;
/// empty without mission clans (a world built by hand has no cap). `owners` are the
/// clans of the producers (by id), as production steps them.
pub fn board(world: &World, owners: &BTreeMap<u32, i32>) -> BTreeMap<i32, (u32, u32)> {
    let Some(clans) = world.get_resource::<MissionClans>() else { return BTreeMap::new() };
    let mut held: BTreeMap<i32, u32> = BTreeMap::new();
    // A unit the hero took from a neutral clan holds none.
    if let Some(mut robots) = world.try_query_filtered::<(&Owner, &UnitClass), (With<SimObject>, Without<Mindless>)>() {
        for (o, _) in robots.iter(world).filter(|(_, c)| c.0 & ROBOT_CLASS_BIT != 0) {
            *held.entry(o.clan).or_default() += 1;
        }
    }
    if let Some(p) = world.get_resource::<Production>() {
        for clan in p.producers.iter().filter(|(_, q)| q.active.is_some()).filter_map(|(id, _)| owners.get(id)) {
            *held.entry(*clan).or_default() += 1;
        }
    }
    let free = |c: &iron3d_core::ClanSetup| c.minds.saturating_sub(held.get(&(c.index as i32)).copied().unwrap_or(0));
    clans.clans.iter().map(|c| (c.index as i32, (c.minds, free(c)))).collect()
}

/// [`board`] now, with the producers' clans as they stand.
pub fn current(world: &World) -> BTreeMap<i32, (u32, u32)> {
    board(world, &crate::step::producer_clans(world))
}
