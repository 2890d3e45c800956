//! The HUD's Ore and Energy bars, as the original computes them (openparkan
//! `docs/23-economy.md`, "HUD", read; the power figures measured from the shipped
//! `behpsp.res`): **Ore** is what a clan's mines and storages hold over 4 500 (a full
//! mine's 500 and a full storage's 4 000); **Energy** is the power a clan's generators
//! supply, less what its own buildings draw, over the power every clan's generators
//! supply: a share of the map's power, not a fill level. Both are clamped to 0..1 and
//! shown in whole percent (rounded: the project's reading). A supplier gives its
//! profile's `Transfer_Power_Out` per second (`behpsp.res`: the generator 10, a bunker
//! 0.07), any other building draws its efficiency part's idle 0.01 and what its task
//! draws ([`iron3d_core::PowerUsage`]: a digging mine, a factory collecting a build's power, a
//! centre a research's, each its profile's `Use_Power`). **The project's**: the draw
//! is that rate, where the original counts what the clan's batteries lacked at its last
//! distribution step (the same on average while they are full; the rate does not
//! flicker with the power ticks that fell between two steps).

use crate::profiles::{EconomyProfiles, SUPPLIERS};
use iron3d_core::{ClanEconomy, UnitClass};
use std::collections::BTreeMap;

/// The ore the Ore bar counts as full (`Mine_MaxOre` 500 + `Storage_MaxOre` 4 000).
pub const ORE_FULL: f32 = 4500.0;
/// What any building draws per second besides its work (its efficiency part's own
/// draw, the `.ctl` record's power: measured data, a constant here).
const IDLE_DRAW: f32 = 0.01;

/// One object as the bars see it.
#[derive(Debug, Clone, Copy)]
pub struct Holding {
    /// Its clan.
    pub clan: i32,
    /// Its Unit DAT class word.
    pub class: u32,
    /// The ore it holds.
    pub ore: f32,
    /// What its task draws per second besides ([`iron3d_core::PowerUsage`]).
    pub usage: f32,
}

/// A clan's supply and draw per second, and what its mines and storages hold.
#[derive(Default)]
struct Tally {
    supply: f32,
    draw: f32,
    stored: f32,
}

/// `x` (0..1 after clamping) in whole percent.
fn percent(x: f32) -> u8 {
    (x.clamp(0.0, 1.0) * 100.0).round() as u8
}

/// Fills each clan's `ore_percent` and `energy_percent` in `board` from `objects`, each
/// building by its profile.
pub fn fill(
    board: &mut BTreeMap<i32, ClanEconomy>,
    profiles: &EconomyProfiles,
    objects: impl Iterator<Item = Holding>,
) {
    let mut tallies: BTreeMap<i32, Tally> = BTreeMap::new();
    for o in objects {
        let t = tallies.entry(o.clan).or_default();
        if matches!(o.class, UnitClass::MINE | UnitClass::STORAGE) {
            t.stored += o.ore;
        }
        let profile = profiles.of(o.class);
        if SUPPLIERS.contains(&o.class) {
            t.supply += profile.power_out;
        } else if UnitClass(o.class).registers() {
            t.draw += IDLE_DRAW + o.usage;
        }
    }
    let map = tallies.values().fold(0.0f32, |s, t| s + t.supply);
    for (clan, t) in tallies {
        let row = board.entry(clan).or_default();
        row.ore_percent = percent(t.stored / ORE_FULL);
        row.energy_percent = if map > 0.0 { percent((t.supply - t.draw) / map) } else { 0 };
    }
}
