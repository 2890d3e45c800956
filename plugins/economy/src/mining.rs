//! Mining, the clans' ore income. **The original's** (`gameplay.md` §3.4, openparkan
//! `docs/31-packages.md` and `docs/23-economy.md`; read): when the mission starts each
//! mine adds up the ore of every mineral lode within [`LODE_REACH`] across the ground
//! ([`MineDig::to_mine`], marking those lodes found); a mine with none digs nothing.
//! Each takt it digs, `to_mine` falls by what it dug, and it stops once what was left
//! before the dig (`to_mine` − dug) is no more than that dig: so it digs about half of
//! its lodes' ore, the original's arithmetic. **The project's** (until the original's
//! economy replaces it): the rate is [`MiningRate`] per second into the mine's own
//! store, up to its `MaximumOre` (a full mine stops); transport robots (haul orders,
//! Behavior) and, for a member mine, its clan's distributor (`docs/reference/runtime.md`
//! §4) move the ore on.

use crate::OreProperty;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{MineralLodes, SimTransform, TICK_SECONDS, UnitClass};

/// How far a mine's lodes may lie, across the ground (read).
pub const LODE_REACH: f32 = 250.0;

/// Ore a mine extracts per second (the rules file's `production.mine_ore_per_second`).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default)]
pub struct MiningRate(pub f32);

/// A mine's digging: what its lodes still give (`ToMine`) and what it dug.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct MineDig {
    /// The ore its lodes still give; 0: the mine digs nothing.
    pub to_mine: f32,
    /// The ore it dug.
    pub dug: f32,
    /// It dug all it will ("All Ore mined").
    pub done: bool,
}

impl MineDig {
    /// One takt's dig of at most `most` ore: what it digs.
    pub fn dig(&mut self, most: f32) -> f32 {
        if self.done || self.to_mine <= 0.0 || most <= 0.0 {
            return 0.0;
        }
        let left = self.to_mine - self.dug;
        self.dug += most;
        self.to_mine -= most;
        self.done = left <= most;
        most
    }
}

/// At game start: every mine's [`MineDig`] from the lodes within reach, which become
/// found.
pub(crate) fn survey(
    mut commands: Commands,
    mut lodes: ResMut<MineralLodes>,
    mines: Query<(Entity, &UnitClass, &SimTransform)>,
) {
    for (entity, _, at) in mines.iter().filter(|(_, c, _)| c.0 == UnitClass::MINE) {
        let mut to_mine = 0.0;
        for lode in &mut lodes.0 {
            if dist(lode.position, [at.position[0], at.position[1]]) <= LODE_REACH {
                to_mine += lode.amount;
                lode.found = true;
            }
        }
        commands.entity(entity).insert(MineDig { to_mine, dug: 0.0, done: false });
    }
}

/// Mines (the objects [`survey`] gave a [`MineDig`]) dig into their own store.
pub(crate) fn mine(rate: Res<MiningRate>, mut mines: Query<(&mut OreProperty, &mut MineDig)>) {
    let per_tick = rate.0 * TICK_SECONDS;
    for (mut ore, mut dig) in &mut mines {
        let room = (ore.maximum as f32 - ore.current()).max(0.0);
        let dug = dig.dig(per_tick.min(room));
        if dug > 0.0 {
            ore.fill(dug);
        }
    }
}

/// Takes the mining rate of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<iron3d_core::GameRules>>, mut rate: ResMut<MiningRate>) {
    if let Some(game) = game {
        rate.0 = game.rules.production.mine_ore_per_second.value;
    }
}
