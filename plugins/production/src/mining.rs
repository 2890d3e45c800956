//! Mining (the project's own rule; the original's ore income is not recovered): every
//! mine extracts `production.mine_ore_per_second` each tick into the first ore store of
//! its clan with room below its `MaximumOre`: its own store first, then the others in
//! `OriginalObjectId` order. Extracted ore with nowhere to go stays in the ground.

use crate::ProductionRules;
use bevy_ecs::prelude::*;
use iron3d_core::{OriginalObjectId, Owner, TICK_SECONDS, UnitClass};
use iron3d_economy::OreProperty;

/// Class word of a mine (`registry.md` §2.2).
pub const MINE_CLASS: u32 = 0x8000_0004;

/// Mines extract ore.
pub(crate) fn mine(
    rules: Res<ProductionRules>,
    mut stores: Query<(&OriginalObjectId, &Owner, Option<&UnitClass>, &mut OreProperty)>,
) {
    let Ok(rules) = &rules.0 else { return };
    let per_tick = rules.production.mine_ore_per_second.value * TICK_SECONDS;
    if per_tick <= 0.0 {
        return;
    }
    let mut order: Vec<_> = stores.iter_mut().collect();
    order.sort_unstable_by_key(|s| *s.0);
    let mines: Vec<(usize, i32)> = (0..order.len())
        .filter(|&i| order[i].2.is_some_and(|c| c.0 == MINE_CLASS))
        .map(|i| (i, order[i].1.clan))
        .collect();
    for (mine, clan) in mines {
        let others = (0..order.len()).filter(|&i| i != mine && order[i].1.clan == clan);
        let room = |s: &OreProperty| s.maximum as f32 - s.current();
        if let Some(i) = std::iter::once(mine).chain(others).find(|&i| room(&order[i].3) > 0.0) {
            let ore = &mut order[i].3;
            ore.current_bits = (ore.current() + per_tick.min(room(ore))).to_bits();
        }
    }
}
