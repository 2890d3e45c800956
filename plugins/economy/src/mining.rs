//! Mining, the clans' ore income, **the original's** (`gameplay.md` §3.4, openparkan
//! `docs/31-packages.md` and `docs/23-economy.md`; read, the constants measured): when
//! the mission starts each mine adds up the ore of every mineral lode within
//! [`LODE_REACH`] across the ground ([`MineDig::to_mine`], marking those lodes found); a
//! mine with none digs nothing. Each takt it digs [`MiningRate`] (`Mine_OrePerSecond`,
//! 50) × its efficiency × dt, no more than brings its running total to its
//! `MaximumOre` (500 on every shipped mine), and writes that total over what it holds:
//! so what transports, production or the distributor draw from a mine that is still
//! digging comes back the next takt, and a full mine never empties. `to_mine` falls by
//! each dig, and the mine stops once what was left before the dig (`to_mine` − its
//! total) is no more than that dig: about half of its lodes' ore. After that it holds
//! what it holds. Its efficiency is its efficiency parts' (KPD, [`crate::kpd`]),
//! 1 when its profile has no `Use_Power`; below 0.1 (`BAD KPD`) its total and what it
//! holds drop to 0. **The project's**: a mine's running total starts at the ore it holds
//! when the mission starts (a built mine, at 0), and a mine without efficiency parts
//! digs at 1.

use crate::{EconomyProfiles, OreProperty};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{Efficiency, MineralLodes, PowerUsage, SimTransform, TICK_SECONDS, UnderConstruction, UnitClass};

/// How far a mine's lodes may lie, across the ground (read).
pub const LODE_REACH: f32 = 250.0;
/// The least efficiency a mine digs at (`BAD KPD`, read).
pub const LEAST_KPD: f32 = 0.1;

/// Ore a mine digs per second at efficiency 1 (the rules file's
/// `production.mine_ore_per_second`, the original's `Mine_OrePerSecond`).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default)]
pub struct MiningRate(pub f32);

/// A mine's digging: what its lodes still give (`ToMine`) and its running total.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct MineDig {
    /// The ore its lodes still give; 0: the mine digs nothing.
    pub to_mine: f32,
    /// Its running total: what it held at the start and what it dug since.
    pub total: f32,
    /// It dug all it will ("All Ore mined").
    pub done: bool,
}

impl MineDig {
    /// Whether it still digs (and so writes its total over what it holds).
    pub fn digging(&self) -> bool {
        !self.done && self.to_mine > 0.0
    }

    /// One takt's dig of at most `most` ore: what it digs.
    pub fn dig(&mut self, most: f32) -> f32 {
        if !self.digging() {
            return 0.0;
        }
        let most = most.max(0.0);
        let left = self.to_mine - self.total;
        self.total += most;
        self.to_mine -= most;
        self.done = left <= most;
        most
    }
}

/// At game start, and for a mine once its construction sphere ends: the mine's
/// [`MineDig`] from the lodes within reach, which become found, its running total from
/// what it holds.
pub(crate) fn survey(
    mut commands: Commands,
    mut lodes: ResMut<MineralLodes>,
    mines: Query<(Entity, &UnitClass, &SimTransform, &OreProperty), (Without<MineDig>, Without<UnderConstruction>)>,
) {
    for (entity, _, at, held) in mines.iter().filter(|(_, c, ..)| c.0 == UnitClass::MINE) {
        let mut to_mine = 0.0;
        for lode in &mut lodes.0 {
            if dist(lode.position, [at.position[0], at.position[1]]) <= LODE_REACH {
                to_mine += lode.amount;
                lode.found = true;
            }
        }
        commands.entity(entity).insert(MineDig { to_mine, total: held.current(), done: false });
    }
}

/// Mines (the objects [`survey`] gave a [`MineDig`]) dig, and each that still digs holds
/// its running total; a mine whose construction sphere runs does not (its task is the
/// sphere's, read).
pub(crate) fn mine(
    rate: Res<MiningRate>,
    profiles: Res<EconomyProfiles>,
    mut mines: Query<
        (&mut OreProperty, &mut MineDig, Option<&Efficiency>, Option<&mut PowerUsage>),
        Without<UnderConstruction>,
    >,
) {
    let use_power = profiles.of(UnitClass::MINE).use_power;
    for (mut ore, mut dig, efficiency, usage) in &mut mines {
        // A digging mine draws its Use_Power, one done nothing more (`SetPowerUsage`).
        let draw = if dig.digging() { use_power } else { 0.0 };
        if let Some(mut usage) = usage.filter(|u| u.0 != draw) {
            usage.0 = draw;
        }
        if !dig.digging() {
            continue;
        }
        let kpd = if use_power == 0.0 { 1.0 } else { crate::kpd::of(efficiency).unwrap_or(0.0) };
        if kpd < LEAST_KPD {
            dig.total = 0.0;
            ore.set(0.0);
            continue;
        }
        let room = (ore.maximum - dig.total).max(0.0);
        dig.dig((rate.0 * kpd * TICK_SECONDS).min(room));
        ore.set(dig.total);
    }
}

/// Takes the mining rate of the mission's rules file.
pub(crate) fn adopt_rules(game: Option<Res<iron3d_core::GameRules>>, mut rate: ResMut<MiningRate>) {
    if let Some(game) = game {
        rate.0 = game.rules.production.mine_ore_per_second.value;
    }
}
