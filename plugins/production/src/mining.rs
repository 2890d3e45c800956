//! Mining (the project's own rule; the original's ore income is not recovered): every
//! mine extracts `production.mine_ore_per_second` each tick into its own store, up to
//! its `MaximumOre`; a full mine stops. Transport robots (haul orders, Behavior) and, for
//! a member mine, its clan's distributor (spec §4) move the ore on.

use crate::ProductionRules;
use bevy_ecs::prelude::*;
use iron3d_core::{TICK_SECONDS, UnitClass};
use iron3d_economy::OreProperty;

pub use iron3d_economy::MINE_CLASS;

/// Mines extract ore.
pub(crate) fn mine(rules: Res<ProductionRules>, mut mines: Query<(&UnitClass, &mut OreProperty)>) {
    let Ok(rules) = &rules.0 else { return };
    let per_tick = rules.production.mine_ore_per_second.value * TICK_SECONDS;
    if per_tick <= 0.0 {
        return;
    }
    for (_, mut ore) in mines.iter_mut().filter(|(c, _)| c.0 == MINE_CLASS) {
        let room = ore.maximum as f32 - ore.current();
        if room > 0.0 {
            ore.current_bits = (ore.current() + per_tick.min(room)).to_bits();
        }
    }
}
