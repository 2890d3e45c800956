//! Mining, the clans' ore income (the project's own rule; the original's ore income is
//! not recovered): every mine extracts [`MiningRate`] ore per second each tick into its
//! own store, up to its `MaximumOre`; a full mine stops. Transport robots (haul orders,
//! Behavior) and, for a member mine, its clan's distributor (`docs/reference/runtime.md` §4) move the ore on.

use crate::OreProperty;
use bevy_ecs::prelude::*;
use iron3d_core::{TICK_SECONDS, UnitClass};

/// Ore a mine extracts per second (the rules file's `production.mine_ore_per_second`).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default)]
pub struct MiningRate(pub f32);

/// Mines extract ore.
pub(crate) fn mine(rate: Res<MiningRate>, mut mines: Query<(&UnitClass, &mut OreProperty)>) {
    let per_tick = rate.0 * TICK_SECONDS;
    if per_tick <= 0.0 {
        return;
    }
    for (_, mut ore) in mines.iter_mut().filter(|(c, _)| c.0 == UnitClass::MINE) {
        ore.fill(per_tick);
    }
}

/// Takes the mining rate of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<iron3d_core::GameRules>>, mut rate: ResMut<MiningRate>) {
    if let Some(game) = game {
        rate.0 = game.rules.production.mine_ore_per_second.value;
    }
}
