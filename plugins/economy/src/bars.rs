//! The HUD's Ore and Energy bars, as the original computes them (openparkan
//! `docs/23-economy.md`, "HUD", read; the power figures measured from the shipped
//! `behpsp.res`): **Ore** is what a clan's mines and storages hold over 4 500 (a full
//! mine's 500 and a full storage's 4 000); **Energy** is the power a clan's generators
//! supply, less what its own buildings draw, over the power every clan's generators
//! supply: a share of the map's power, not a fill level. Both are clamped to 0..1 and
//! shown in whole percent (rounded: the project's reading). **The project's**, until
//! batteries and the efficiency parts are modelled: a building draws its idle 0.01 per
//! second and a digging mine its `Use_Power` of 1 more; the factory's and the research
//! centre's draw while they work are not counted yet, and the supply figures are the
//! shipped profiles' (`prof_generator` 10, `prof_bunker` 0.07 per second), not read
//! from the data's `behpsp.res`.

use iron3d_core::{ClanEconomy, UnitClass};
use std::collections::BTreeMap;

/// The ore the Ore bar counts as full (`Mine_MaxOre` 500 + `Storage_MaxOre` 4 000).
pub const ORE_FULL: f32 = 4500.0;
/// Power supplied per second, by class word: the generator, and the three bunkers.
const SUPPLIERS: [(u32, f32); 4] =
    [(UnitClass::GENERATOR, 10.0), (0x8001_0000, 0.07), (0x8002_0000, 0.07), (0x8004_0000, 0.07)];
/// What any other building draws per second (its efficiency part's own draw).
const IDLE_DRAW: f32 = 0.01;
/// What a digging mine draws per second besides (`prof_mine`'s `Use_Power`).
const MINE_DRAW: f32 = 1.0;

/// One object as the bars see it.
#[derive(Debug, Clone, Copy)]
pub struct Holding {
    /// Its clan.
    pub clan: i32,
    /// Its Unit DAT class word.
    pub class: u32,
    /// The ore it holds.
    pub ore: f32,
    /// A mine that is still digging.
    pub digging: bool,
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

/// Fills each clan's `ore_percent` and `energy_percent` in `board` from `objects`.
pub fn fill(board: &mut BTreeMap<i32, ClanEconomy>, objects: impl Iterator<Item = Holding>) {
    let mut tallies: BTreeMap<i32, Tally> = BTreeMap::new();
    for o in objects {
        let t = tallies.entry(o.clan).or_default();
        if matches!(o.class, UnitClass::MINE | UnitClass::STORAGE) {
            t.stored += o.ore;
        }
        match SUPPLIERS.iter().find(|s| s.0 == o.class) {
            Some(&(_, out)) => t.supply += out,
            None if UnitClass(o.class).registers() => t.draw += IDLE_DRAW + if o.digging { MINE_DRAW } else { 0.0 },
            None => {}
        }
    }
    let map = tallies.values().fold(0.0f32, |s, t| s + t.supply);
    for (clan, t) in tallies {
        let row = board.entry(clan).or_default();
        row.ore_percent = percent(t.stored / ORE_FULL);
        row.energy_percent = if map > 0.0 { percent((t.supply - t.draw) / map) } else { 0 };
    }
}
