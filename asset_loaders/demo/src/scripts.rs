//! `MISSIONS/SCRIPTS/` (`docs/reference/runtime.md` §3.1; the node meaning of gameplay.md
//! §2, after dragonee/openparkan `docs/15-behaviour.md`): the three bundles the TMA clans
//! name (`default` for the active clans, `nature` for the environment clan, `neutral`
//! for the neutral clan), each a
//! compiled package `.scr` with the nine engine handlers every shipped script has, a
//! `.fml` formula file in the original's form (`//FormulaSet export file`, a blank line,
//! one `FUNCTION( , <expression>,  )` per formula), and the variable tables: the shared
//! `varset.var` (231 declarations, 31 of them floats, like the shipped table: the
//! literals `f0`–`f9`, `d0`–`d9`, the engine-written `dCurrentProblem`,
//! `dCurrentSender`, `fDifficulty`, the constants the scripts use, `ClanBaseX`/
//! `ClanBaseY`/`ClanID` at 224/225/226) and a per-bundle `nature.var`, so both lookup
//! paths of the loader (`<bundle>.var` first, then the shared table) are exercised.
//! `default.trf` is a small research tree over the robot components, named by the
//! active clans' TRF field (second resource) in `data.tma`.
//!
//! Every node is written in the original's meaning and uses only documented functions
//! (15, 19, 30, 31, 41, 43, 49, 59, 60, 69). `Init` calls function 19 (base and clan index),
//! starts the clan clock's timer of the reinforcement message (function 59), sets the
//! bonus objective's time from it with formula 0, loads the design store (function 43)
//! and sets the design pick's spread to `2 − 2·fDifficulty` (formula 1, function 69, as
//! the original's enemy scripts make it a difficulty knob). `Problems0`, run at every
//! clan's takt, has the enemy clan's factory (its logical id,
//! [`crate::missions::enemy_building`]) build its best warrior by name (function 15,
//! `ORDER_BUILDING_CONSTRUCT`, `TARGET_BY_NAME` `SELECT_BEST_COMBAT`) while a mind is free
//! (function 49), at most once every [`BUILD_DELAY_S`] clan-clock seconds, and its
//! research centre research the cheapest design it may (function 41) at most once every
//! [`RESEARCH_DELAY_S`]. The player clan's `Mission` handler (run
//! every 2 s) raises the start message on its first run (function 30 `MESSAGE_INFO`),
//! message [`MESSAGE_REINFORCE`] once its timer passed (function 60, then function 30),
//! completes the bonus objective (1) at its time and raises the attack message then, and
//! completes the primary objective (0) once the enemy clan has no robot left (function
//! 31 with `CLASS_ROBOT`), which completes the mission. Each latch is a copy statement
//! (`df0 = d1`), not a constant, since a constant runs even inside a false block. The
//! project's events `Mission_Complete` and `Mission_Failed` (the game's rules and the
//! `--script-event` option run them) call function 30 with `SYSTEM_MESSAGE` and
//! `MISSION_COMPLETE` / `MISSION_FAILED`. The `nature` and `neutral` bundles only call
//! function 19.

use crate::catalogue::{self, PROTOTYPES, Proto, Role};
pub use crate::texts::MESSAGE_REINFORCE;
use crate::tree::DemoTree;
use iron3d_formats::helpers::trf::{NODE_SIZE, type_id};
use iron3d_formats::nres::NresWriter;
use iron3d_formats::registry::BuildCategory;
use iron3d_formats::script::functions::{
    CALLBACK, CLAN_BASE, COUNT_CLASS, DESIGN_SPREAD, FREE_MINDS, LOAD_DESIGNS, ORDER_UNIT, RESEARCH_DESIGN, TIMER,
    TIMER_PASSED, callback as cb,
};
use iron3d_formats::script::{FmlText, NodeKind, Record, Relation, ScrPackage, StringIndexing, VarType, Varset};
use iron3d_formats::{Error, Result};

/// Folder of the scripts.
pub const DIR: &str = "MISSIONS/SCRIPTS";
/// The active clans' bundle (as named in `data.tma`).
pub const DEFAULT_BUNDLE: &str = "default";
/// The environment clan's bundle.
pub const NATURE_BUNDLE: &str = "nature";
/// Declarations of the shared table.
pub const SHARED_DECLARATIONS: usize = 231;
/// Float declarations of the shared table (the rest are `DWORD`).
pub const SHARED_FLOATS: usize = 31;
/// Shared-table indices of `ClanBaseX`, `ClanBaseY`, `ClanID` (`docs/reference/runtime.md` §3.4).
pub const SHARED_CLAN_BASE: [u32; 3] = [224, 225, 226];
/// `nature.var` indices of the same three variables.
pub const NATURE_CLAN_BASE: [u32; 3] = [0, 1, 2];
/// The engine's handlers, in every shipped script (15-behaviour.md, "The handlers").
pub const ENGINE_HANDLERS: [&str; 9] = [
    "Init",
    "Problems0",
    "Mission",
    "Fort_Task_Complete",
    "Fort_Captured",
    "Mech_GeneratorFound",
    "Mech_Mineral_Found",
    "Mech_Task_Complete",
    "Hero_Teleported",
];
/// The project's events that end the mission through function 30: `(name, value)`.
pub const OUTCOME_EVENTS: [(&str, u32); 2] =
    [("Mission_Complete", cb::MISSION_COMPLETE), ("Mission_Failed", cb::MISSION_FAILED)];
/// The enemy clan's index in every demo mission (Nature 0, Player 1, Enemy 2).
pub const ENEMY_CLAN: u32 = 2;
/// Clan-clock seconds from the start to the reinforcement message.
pub const MESSAGE_DELAY_S: u32 = 5;
/// Clan-clock seconds from the message to the bonus objective.
pub const OBJECTIVE_DELAY_S: u32 = 8;
/// Clan-clock seconds from one of the enemy's builds by name to the next.
pub const BUILD_DELAY_S: u32 = 60;
/// Clan-clock seconds from one of the enemy's design researches to the next.
pub const RESEARCH_DELAY_S: u32 = 45;

/// The shared table's constants after the literals, in declaration order (the
/// callback kinds are `varset.var`'s own names).
const CONSTANTS: &[(&str, u32)] = &[
    ("NONE", 0),
    ("TARGET_BY_LOGIC_ID", 0x0201),
    ("TARGET_BY_PLACE", 0x0202),
    ("TARGET_BY_TYPE", 0x0203),
    ("TARGET_NOT_DEFINED", 0x0204),
    ("TARGET_BY_NAME", 0x0205),
    ("ST_SOLVING", 1),
    ("ST_SOLVED", 2),
    ("SYSTEM_MESSAGE", cb::SYSTEM_MESSAGE),
    ("MESSAGE_INFO", cb::MESSAGE_INFO),
    ("CLAN_HERO_KILLED", cb::CLAN_HERO_KILLED),
    ("OBJECTIVE_COMPLETE", cb::OBJECTIVE_COMPLETE),
    ("OBJECTIVE_FAILED", cb::OBJECTIVE_FAILED),
    ("OBJECTIVE_PROGRESS", cb::OBJECTIVE_PROGRESS),
    ("MISSION_FAILED", cb::MISSION_FAILED),
    ("MISSION_COMPLETE", cb::MISSION_COMPLETE),
    ("ERROR", 0xFFFF_FFFF),
    ("CLASS_ROBOT", 0x0100_0000),
    ("CLASS_BUILDING", 0x8000_0000),
    ("dEnemyClan", ENEMY_CLAN),
    ("dReinforceMessage", MESSAGE_REINFORCE),
    ("dStartMessage", crate::texts::MESSAGES[0].1),
    ("dAttackMessage", crate::texts::MESSAGES[1].1),
    ("dMessageDelay", MESSAGE_DELAY_S),
    ("dObjectiveDelay", OBJECTIVE_DELAY_S),
    ("ORDER_BUILDING_CONSTRUCT", 12),
    ("INSERT_ORDER_REPLACE", 3),
    ("ROBOT_BATTLEUNIT", catalogue::BATTLE_UNIT),
    ("SELECT_BEST_COMBAT", 5),
    ("dEnemyPlant", 0),
    ("dBuildDelay", BUILD_DELAY_S),
    ("dEnemyInstitute", 0),
    ("dResearchDelay", RESEARCH_DELAY_S),
];

/// The demo scripts' state variables (DWORD, 0 at the start).
const STATE: [&str; 10] =
    ["dMessageTime", "dObjectiveTime", "dTemp", "df0", "df1", "df2", "df3", "df4", "dBuildTime", "dResearchTime"];

const CLAN_BASE_NAMES: [&str; 3] = ["ClanBaseX", "ClanBaseY", "ClanID"];

/// The shared `varset.var`: literals, engine variables, constants, the demo's state,
/// float tuning values, generic DWORD slots, the clan base variables at 224..=226 and
/// four more slots (231 declarations, CRLF).
pub fn shared_varset() -> Result<Varset> {
    let mut text =
        String::from("//VAR( Type, Name, DefValue)\r\n// varset.var: shared variable table of the iron3d demo\r\n\r\n");
    let dword =
        |text: &mut String, name: &str, value: u32| text.push_str(&format!("VAR( DWORD, {name}, 0x{value:X});\r\n"));
    for i in 0..10 {
        text.push_str(&format!("VAR( float, f{i}, {i})\r\n"));
    }
    for i in 0..10 {
        dword(&mut text, &format!("d{i}"), i);
    }
    text.push_str("\r\n// written by the engine\r\n");
    dword(&mut text, "dCurrentProblem", 0);
    dword(&mut text, "dCurrentSender", 0);
    text.push_str("VAR( float, fDifficulty, 0.5)\r\n\r\n// constants\r\n");
    for (name, value) in CONSTANTS {
        let value = match *name {
            "dEnemyPlant" => crate::missions::enemy_building(BuildCategory::Plant),
            "dEnemyInstitute" => crate::missions::enemy_building(BuildCategory::Institute),
            _ => *value,
        };
        dword(&mut text, name, value);
    }
    text.push_str("\r\n// mission state\r\n");
    for name in STATE {
        dword(&mut text, name, 0);
    }
    text.push_str("\r\n// tuning values\r\n");
    for i in 0..SHARED_FLOATS - 11 {
        text.push_str(&format!("VAR( float, fDemo{i:02}, {}.5)\r\n", i * 10));
    }
    let before = 10 + 10 + 3 + CONSTANTS.len() + STATE.len() + SHARED_FLOATS - 11;
    text.push_str("\r\n// free slots\r\n");
    for i in 0..(SHARED_CLAN_BASE[0] as usize).saturating_sub(before) {
        dword(&mut text, &format!("dDemo{i:03}"), 0);
    }
    text.push_str("\r\n// written by function 19 from Init\r\n");
    for name in CLAN_BASE_NAMES {
        dword(&mut text, name, 0);
    }
    let tail = SHARED_DECLARATIONS - SHARED_CLAN_BASE[2] as usize - 1;
    for i in 0..tail {
        dword(&mut text, &format!("dSpare{i}"), 0x10 << i);
    }
    Varset::parse(text.as_bytes())
}

/// The per-bundle `nature.var`: the three clan base variables and a weather switch.
pub fn nature_varset() -> Result<Varset> {
    let mut v = Varset::default();
    for name in CLAN_BASE_NAMES {
        v.push_var(VarType::Dword, name, "0")?;
    }
    v.push_var(VarType::Float, "fRainIntensity", "0.75")?;
    Ok(v)
}

/// The formulas of the `default` bundle (formula *n* is line *n*).
const DEFAULT_FORMULAS: [&str; 2] = ["dMessageTime + dObjectiveDelay", "2 - 2*fDifficulty"];

/// A `.fml` file of `formulas`, in the original's form.
pub fn fml(formulas: &[&str]) -> FmlText {
    let mut text = String::from("//FormulaSet export file\r\n\r\n");
    for f in formulas {
        text.push_str(&format!("FUNCTION( , {f},  )\r\n"));
    }
    FmlText::parse(text.as_bytes())
}

/// A package of the nine engine handlers (`Init`, `Mission` and `Problems0` as given,
/// the rest empty) and then `extra` handlers.
fn package(
    init: Vec<Record>,
    mission: Vec<Record>,
    problems: Vec<Record>,
    extra: Vec<(&str, Vec<Record>)>,
) -> Result<ScrPackage> {
    let mut p = ScrPackage::new();
    let (mut init, mut mission, mut problems) = (Some(init), Some(mission), Some(problems));
    for name in ENGINE_HANDLERS {
        let nodes = match name {
            "Init" => init.take(),
            "Mission" => mission.take(),
            "Problems0" => problems.take(),
            _ => None,
        };
        p.add_event(name, nodes.unwrap_or_default())?;
    }
    for (name, nodes) in extra {
        p.add_event(name, nodes)?;
    }
    Ok(p)
}

/// `if a == b` / `latch == d0`: `latch = d1`, `fn30(kind, value)`, twice closed.
fn once_when(
    v: &impl Fn(&str) -> Result<u32>,
    test: Record,
    latch: &str,
    kind: &str,
    value: &str,
) -> Result<Vec<Record>> {
    let end = || Record::of_kind(NodeKind::End, Vec::new());
    Ok(vec![
        test,
        Record::compare(v(latch)?, Relation::Equal, v("d0")?),
        Record::copy(v(latch)?, v("d1")?),
        Record::call(CALLBACK, None, vec![v(kind)?, v(value)?]),
        end(),
        end(),
    ])
}

/// The `default` bundle's package over `table` (see the module docs).
pub fn default_package(table: &Varset) -> Result<ScrPackage> {
    let v = |name: &str| -> Result<u32> {
        let i = table
            .index_of(name, StringIndexing::Counted)
            .ok_or_else(|| Error::rule("demo_variable", name.to_string()))?;
        u32::try_from(i).map_err(|_| Error::rule("demo_variable", name.to_string()))
    };
    let [x, y, clan] = SHARED_CLAN_BASE;
    let init = vec![
        Record::call(CLAN_BASE, None, vec![x, y, clan]),
        Record::call(TIMER, Some(v("dMessageTime")?), vec![v("dMessageDelay")?]),
        Record::formula_into(v("dObjectiveTime")?, 0),
        Record::call(LOAD_DESIGNS, None, Vec::new()),
        Record::formula_into(v("dTemp")?, 1),
        Record::call(DESIGN_SPREAD, None, vec![v("dTemp")?]),
    ];
    let is = |a: &str, b: &str| -> Result<Record> { Ok(Record::compare(v(a)?, Relation::Equal, v(b)?)) };
    let mut mission = once_when(&v, is("d0", "d0")?, "df3", "MESSAGE_INFO", "dStartMessage")?;
    mission.push(passed(&v, "dMessageTime")?);
    mission.extend(once_when(&v, is("dTemp", "d1")?, "df0", "MESSAGE_INFO", "dReinforceMessage")?);
    mission.push(passed(&v, "dObjectiveTime")?);
    mission.extend(once_when(&v, is("dTemp", "d1")?, "df1", "OBJECTIVE_COMPLETE", "d1")?);
    mission.extend(once_when(&v, is("dTemp", "d1")?, "df4", "MESSAGE_INFO", "dAttackMessage")?);
    mission.push(Record::call(COUNT_CLASS, Some(v("dTemp")?), vec![v("dEnemyClan")?, v("CLASS_ROBOT")?]));
    mission.extend(once_when(&v, is("dTemp", "d0")?, "df2", "OBJECTIVE_COMPLETE", "d0")?);
    mission.push(Record::of_kind(NodeKind::Return, Vec::new()));
    let outcome = |value: &str| -> Result<Vec<Record>> {
        Ok(vec![Record::call(CALLBACK, None, vec![v("SYSTEM_MESSAGE")?, v(value)?])])
    };
    package(
        init,
        mission,
        enemy_builds(&v)?,
        vec![(OUTCOME_EVENTS[0].0, outcome("MISSION_COMPLETE")?), (OUTCOME_EVENTS[1].0, outcome("MISSION_FAILED")?)],
    )
}

/// `dTemp = fn60(time)`: whether the clan clock has passed the time in variable `time`.
fn passed(v: &impl Fn(&str) -> Result<u32>, time: &str) -> Result<Record> {
    Ok(Record::call(TIMER_PASSED, Some(v("dTemp")?), vec![v(time)?]))
}

/// `Problems0` of the `default` bundle: the enemy clan, once its build timer has passed
/// and while a mind is free, has its factory build its best warrior by name (function 15,
/// `ORDER_BUILDING_CONSTRUCT` with `SELECT_BEST_COMBAT`) and sets the timer again; once
/// its research timer has passed, has its research centre research the cheapest design
/// it may (function 41) and sets that timer again.
fn enemy_builds(v: &impl Fn(&str) -> Result<u32>) -> Result<Vec<Record>> {
    let end = || Record::of_kind(NodeKind::End, Vec::new());
    let [.., clan] = SHARED_CLAN_BASE;
    let f0 = v("f0")?;
    let order = [
        v("dEnemyPlant")?,
        v("ORDER_BUILDING_CONSTRUCT")?,
        v("INSERT_ORDER_REPLACE")?,
        v("ROBOT_BATTLEUNIT")?,
        f0,
        f0,
        f0,
        f0,
        v("TARGET_BY_NAME")?,
        v("SELECT_BEST_COMBAT")?,
    ];
    Ok(vec![
        Record::compare(clan, Relation::Equal, v("dEnemyClan")?),
        passed(v, "dBuildTime")?,
        Record::compare(v("dTemp")?, Relation::Equal, v("d1")?),
        Record::call(FREE_MINDS, Some(v("dTemp")?), Vec::new()),
        Record::compare(v("dTemp")?, Relation::Greater, v("d0")?),
        Record::call(ORDER_UNIT, None, order.to_vec()),
        Record::call(TIMER, Some(v("dBuildTime")?), vec![v("dBuildDelay")?]),
        end(),
        end(),
        passed(v, "dResearchTime")?,
        Record::compare(v("dTemp")?, Relation::Equal, v("d1")?),
        Record::call(RESEARCH_DESIGN, None, vec![v("dEnemyInstitute")?]),
        Record::call(TIMER, Some(v("dResearchTime")?), vec![v("dResearchDelay")?]),
        end(),
        end(),
    ])
}

/// The `nature` bundle's package: `Init` calls function 19 on `nature.var`.
pub fn nature_package() -> Result<ScrPackage> {
    package(vec![Record::call(CLAN_BASE, None, NATURE_CLAN_BASE.to_vec())], Vec::new(), Vec::new(), Vec::new())
}

/// The bundle of the neutral clan (type 3), which acts on nothing by itself.
pub const NEUTRAL_BUNDLE: &str = "neutral";

/// The `neutral` bundle's package: `Init` calls function 19 on the shared table, and
/// nothing else runs (a neutral clan never fights, builds or orders, `gameplay.md` §1.3).
pub fn neutral_package() -> Result<ScrPackage> {
    package(vec![Record::call(CLAN_BASE, None, SHARED_CLAN_BASE.to_vec())], Vec::new(), Vec::new(), Vec::new())
}

/// The research tree file of the active clans.
pub const RESEARCH_TREE: &str = "default.trf";

/// Appends a NUL-terminated string to a pool and returns its offset.
fn pooled(pool: &mut Vec<u8>, text: &str) -> u32 {
    let at = pool.len() as u32;
    pool.extend_from_slice(text.as_bytes());
    pool.push(0);
    at
}

/// The build ore of each scheme's first building by the original's parts catalogue
/// (openparkan `docs/32-builder.md`, measured).
const BUILDING_ORE: [(BuildCategory, f32); 12] = [
    (BuildCategory::Generator, 110.0),
    (BuildCategory::MainTeleport, 395.0),
    (BuildCategory::Mine, 540.0),
    (BuildCategory::Institute, 560.0),
    (BuildCategory::Storage, 670.0),
    (BuildCategory::BunkerSmall, 695.0),
    (BuildCategory::Hangar, 720.0),
    (BuildCategory::Plant, 770.0),
    (BuildCategory::BunkerMedium, 1080.0),
    (BuildCategory::TowerMedium, 1100.0),
    (BuildCategory::TowerLarge, 1595.0),
    (BuildCategory::BunkerLarge, 1646.0),
];

/// An item's stat template (`TRFA`), rows in the original's form
/// `@G@<label>@B,<field>,G,<unit>,<width>,<decimals>@` (openparkan
/// `docs/19-descriptions.md`; the fields a part's box fills, `docs/38-designs.md`): a
/// chassis its weight, payload and top speed, a gun its weight, energy a shot, rate of
/// fire, damage and range, anything else its weight.
fn stat_template(role: Role) -> &'static str {
    match role {
        Role::Chassis => {
            "@G@Weight       @B,weight,G,t,5,1@\r\n@G@Payload      @B,payload,G,t,5,1@\r\n\
             @G@Max. speed   @B,maxspeed,G,kmph,5,1@\r\n"
        }
        Role::Weapon => {
            "@G@Weight       @B,weight,G,t,5,1@\r\n@G@Wattage      @B,wattage,G,MWt,5,1@\r\n\
             @G@Rate of fire @B,Frate,G,1/s,5,@\r\n@G@Damage       @B,damage,G,HP,5,@\r\n\
             @G@Range        @B,range,G,m,5,1@\r\n"
        }
        _ => "@G@Weight       @B,weight,G,t,5,1@\r\n",
    }
}

/// The research tree of the demo's clans, in the original's layout (`gameplay.md` §4,
/// openparkan `docs/16-research.md`): one item per chassis, turret and weapon
/// prototype, three levels of each kind, each level needing the one below.
/// `TRF0`: research energy and ore, build energy and ore (the project's numbers, of
/// the original's magnitudes), offsets into the `TRF7` short code, `TRF8` name, `TRF9`
/// description and `TRFA` stat template (`stat_template`), the item's own `TRFB` entry, role, kind,
/// sub-kind, second sub-kind, size and level (`objects.dlb`'s classification: a
/// chassis `SHS:SHS` 9/32, a battle turret `SHS:TUR` 9/33 of role 2, a gun `WPN:GUN`
/// 12/49); `TRF1`: level 1 granted (7), level 2 open (5), level 3 waiting (4);
/// `TRF2`–`TRF5` the prerequisites and unlocks; `TRF6` the part ids (the registry
/// keys the robot schemes use) and `TRFB` each part's `TRF6` offset and item. After
/// them, granted items of their own: the builder's beam (free, as the original's
/// `e_gun_ls_10`) and each building part, whose build ore is what the original's
/// catalogue gives the scheme's first building (`BUILDING_ORE`).
pub fn research_tree() -> Result<Vec<u8>> {
    let tiered = |p: &&Proto| {
        matches!(p.role, Role::Chassis | Role::Turret | Role::Weapon)
            && ![catalogue::BEAM, catalogue::HERO_CHASSIS, catalogue::HERO_GUN].contains(&p.key)
    };
    let parts: Vec<_> = PROTOTYPES.iter().filter(tiered).collect();
    let granted: Vec<_> =
        PROTOTYPES.iter().filter(|p| p.key == catalogue::BEAM || matches!(p.role, Role::Building(_))).collect();
    let (mut nodes, mut states, mut part_map) = (Vec::new(), Vec::new(), Vec::new());
    let mut pools: [Vec<u8>; 5] = Default::default();
    let (mut pre_counts, mut pre_list, mut unlock_counts, mut unlock_list) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, proto) in parts.iter().chain(&granted).enumerate() {
        let tier = (i < parts.len()).then_some((i / 3, i % 3));
        let (classification, role, base_ore) = match proto.role {
            Role::Chassis => ((9, 32), 255, 15.0),
            Role::Turret => ((9, 33), 2, 10.0),
            Role::Building(category) => {
                ((0, 0), 255, BUILDING_ORE.iter().find(|b| b.0 == category).map_or(0.0, |b| b.1))
            }
            _ if proto.key == catalogue::BEAM => ((12, 49), 255, 0.0),
            _ => ((12, 49), 255, 8.0),
        };
        let (code, level) = match tier {
            Some((kind, level)) => (format!("{}{}", ["CH", "TU", "WE"][kind], level + 1), level),
            None => (format!("GR{}", i - parts.len() + 1), 0),
        };
        let texts = [
            code.clone(),
            format!("{} mk {}", proto.key.get(..4).unwrap_or(proto.key), level + 1),
            format!("Research {}", proto.key),
            stat_template(proto.role).to_string(),
        ];
        let mut raw = [0u8; NODE_SIZE];
        let step = level as f32;
        let floats = match tier {
            Some(_) => [10.0 * step, 40.0 * step, 5.0 + 5.0 * step, base_ore * (1.0 + 2.0 * step)],
            None => [0.0, 0.0, 0.0, base_ore],
        };
        for (j, f) in floats.iter().enumerate() {
            raw[4 * j..4 * j + 4].copy_from_slice(&f.to_le_bytes());
        }
        for (j, text) in texts.iter().enumerate() {
            raw[0x10 + 4 * j..0x14 + 4 * j].copy_from_slice(&pooled(&mut pools[1 + j], text).to_le_bytes());
        }
        raw[0x20..0x22].copy_from_slice(&(i as u16).to_le_bytes());
        raw[0x22..0x28].copy_from_slice(&[role, classification.0, classification.1, 255, 1, level as u8]);
        nodes.extend_from_slice(&raw);
        states.push(if tier.is_some() { [7, 5, 4][level] } else { 7 });
        let part_at = pooled(&mut pools[0], proto.key) as u16;
        part_map.extend_from_slice(&part_at.to_le_bytes());
        part_map.extend_from_slice(&(i as u16).to_le_bytes());
        let (before, after) = (tier.is_some() && level > 0, tier.is_some() && level < 2);
        pre_counts.extend_from_slice(&u32::from(before).to_le_bytes());
        if before {
            pre_list.extend_from_slice(&(i as u32 - 1).to_le_bytes());
        }
        unlock_counts.extend_from_slice(&u32::from(after).to_le_bytes());
        if after {
            unlock_list.extend_from_slice(&(i as u32 + 1).to_le_bytes());
        }
    }
    let mut w = NresWriter::new();
    let tables = [
        (b'0', nodes, NODE_SIZE),
        (b'1', states, 1),
        (b'2', pre_counts, 4),
        (b'3', pre_list, 4),
        (b'4', unlock_counts, 4),
        (b'5', unlock_list, 4),
        (b'B', part_map, 4),
    ];
    let pools = [b'6', b'7', b'8', b'9', b'A'].into_iter().zip(pools).map(|(d, p)| (d, p, 1));
    for (digit, data, size) in tables.into_iter().chain(pools) {
        let count = (data.len() / size) as u32;
        w.add(type_id(digit), [count, 0, size as u32], format!("TRF{}", digit as char).as_bytes(), data)?;
    }
    w.to_bytes()
}

/// Writes the scripts folder.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let shared = shared_varset()?;
    tree.add(&format!("{DIR}/varset.var"), shared.to_bytes())?;
    tree.add(&format!("{DIR}/{NATURE_BUNDLE}.var"), nature_varset()?.to_bytes())?;
    tree.add(&format!("{DIR}/{RESEARCH_TREE}"), research_tree()?)?;
    let bundles = [
        (DEFAULT_BUNDLE, default_package(&shared)?, &DEFAULT_FORMULAS[..]),
        (NATURE_BUNDLE, nature_package()?, &[][..]),
        (NEUTRAL_BUNDLE, neutral_package()?, &[][..]),
    ];
    for (bundle, package, formulas) in bundles {
        tree.add(&format!("{DIR}/{bundle}.scr"), package.to_bytes()?)?;
        tree.add(&format!("{DIR}/{bundle}.fml"), fml(formulas).to_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::script::scr::FUNCTION_COUNT;
    use iron3d_formats::world::Tma;

    fn file<'a>(tree: &'a DemoTree, name: &str) -> &'a [u8] {
        tree.get(&format!("{DIR}/{name}")).unwrap_or_else(|| panic!("{name} missing"))
    }

    #[test]
    fn shared_varset_has_the_shipped_shape() {
        let tree = build(DEFAULT_SEED).unwrap();
        let bytes = file(&tree, "varset.var");
        let v = Varset::parse(bytes).unwrap();
        assert_eq!(v.to_bytes(), bytes);
        let decls = v.declarations(StringIndexing::Counted);
        assert_eq!(decls.len(), SHARED_DECLARATIONS);
        assert_eq!(decls, v.declarations(StringIndexing::Skipped), "no STRING lines: both readings agree");
        let floats = decls.iter().filter(|(_, d)| d.unwrap().ty == VarType::Float).count();
        assert_eq!(floats, SHARED_FLOATS);
        for (index, name) in SHARED_CLAN_BASE.iter().zip(CLAN_BASE_NAMES) {
            let d = v.get(*index as usize, StringIndexing::Counted).unwrap();
            assert_eq!((d.name.as_slice(), d.ty), (name.as_bytes(), VarType::Dword));
        }
        let word = |i: usize| v.get(i, StringIndexing::Counted).unwrap().initial_word();
        assert_eq!((word(7), word(17)), (7f32.to_bits(), 7), "f7 and d7 are the literals 7");
        assert_eq!(v.index_of("fDifficulty", StringIndexing::Counted), Some(22));
        let names: std::collections::BTreeSet<_> = decls.iter().map(|(_, d)| d.unwrap().name.clone()).collect();
        assert_eq!(names.len(), decls.len(), "names are unique");
    }

    #[test]
    fn every_clan_bundle_has_the_engine_handlers_and_an_init_calling_function_19() {
        let tree = build(DEFAULT_SEED).unwrap();
        let mut bundles = std::collections::BTreeSet::new();
        for spec in crate::missions::MISSIONS {
            let tma =
                Tma::parse(tree.get(&format!("{}/data.tma", spec.folder())).unwrap(), ReadOptions::strict()).unwrap();
            for clan in &tma.clans {
                let path = clan.script.display();
                let bundle = path.strip_prefix("MISSIONS\\SCRIPTS\\").unwrap_or_else(|| panic!("{path}")).to_string();
                bundles.insert(bundle);
            }
        }
        assert_eq!(
            bundles.iter().map(String::as_str).collect::<Vec<_>>(),
            [DEFAULT_BUNDLE, NATURE_BUNDLE, NEUTRAL_BUNDLE]
        );
        for bundle in &bundles {
            let bytes = file(&tree, &format!("{bundle}.scr"));
            let pkg = ScrPackage::parse(bytes, ReadOptions::strict()).unwrap();
            assert_eq!(pkg.to_bytes().unwrap(), bytes);
            pkg.check_version(FUNCTION_COUNT).unwrap();
            for name in ENGINE_HANDLERS {
                assert!(pkg.event(name).is_some(), "{bundle}: {name}");
            }
            assert!(pkg.events.iter().enumerate().all(|(i, e)| e.index == i as u32), "index words are positions");
            let first = &pkg.event("Init").unwrap().records[0];
            assert_eq!((first.kind(), first.function(), first.dest()), (NodeKind::Statement, Some(CLAN_BASE), None));
            // The loader takes `<bundle>.var` first, the shared table otherwise.
            let table = tree.get(&format!("{DIR}/{bundle}.var")).unwrap_or_else(|| file(&tree, "varset.var"));
            let vars = Varset::parse(table).unwrap();
            let named: Vec<Vec<u8>> = first
                .ops
                .iter()
                .map(|i| vars.get(*i as usize, StringIndexing::Counted).unwrap().name.clone())
                .collect();
            assert_eq!(named, CLAN_BASE_NAMES.map(|n| n.as_bytes().to_vec()), "{bundle}");
            let fml = FmlText::parse(file(&tree, &format!("{bundle}.fml")));
            assert_eq!(fml.display_lines()[0], "//FormulaSet export file");
            let formulas = pkg.events.iter().flat_map(|e| &e.records).filter_map(Record::formula).count();
            assert_eq!(fml.function_lines().len(), formulas, "{bundle}: one FUNCTION line per formula statement");
        }
    }

    #[test]
    fn the_default_bundle_uses_only_documented_functions_and_ends_the_mission_through_function_30() {
        let tree = build(DEFAULT_SEED).unwrap();
        let pkg = ScrPackage::parse(file(&tree, "default.scr"), ReadOptions::strict()).unwrap();
        let vars = Varset::parse(file(&tree, "varset.var")).unwrap();
        let word = |i: u32| vars.get(i as usize, StringIndexing::Counted).unwrap().initial_word();
        let used: std::collections::BTreeSet<u32> =
            pkg.events.iter().flat_map(|e| &e.records).filter_map(Record::function).collect();
        let documented = [
            ORDER_UNIT,
            CLAN_BASE,
            CALLBACK,
            COUNT_CLASS,
            RESEARCH_DESIGN,
            LOAD_DESIGNS,
            FREE_MINDS,
            TIMER,
            TIMER_PASSED,
            DESIGN_SPREAD,
        ];
        assert_eq!(used.into_iter().collect::<Vec<_>>(), documented);
        for (name, value) in OUTCOME_EVENTS {
            let e = pkg.event(name).unwrap_or_else(|| panic!("{name}"));
            let [call] = &e.records[..] else { panic!("{name}: one node") };
            assert_eq!(call.function(), Some(CALLBACK));
            assert_eq!((word(call.ops[0]), word(call.ops[1])), (cb::SYSTEM_MESSAGE, value), "{name}");
        }
        for handler in ["Mission", "Problems0"] {
            let depth = pkg.event(handler).unwrap().records.iter().try_fold(0i32, |d, r| match r.kind() {
                NodeKind::If => Some(d + 1),
                NodeKind::End => (d > 0).then_some(d - 1),
                NodeKind::Constant => None,
                _ => Some(d),
            });
            assert_eq!(depth, Some(0), "{handler}: balanced blocks, and no constant (it runs inside a false block)");
        }
        let build = pkg.event("Problems0").unwrap().records.iter().find(|r| r.function() == Some(ORDER_UNIT)).unwrap();
        let words: Vec<u32> = build.ops.iter().map(|i| word(*i)).collect();
        let plant = crate::missions::enemy_building(BuildCategory::Plant);
        assert_eq!(words[..4], [plant, 12, 3, catalogue::BATTLE_UNIT], "the factory's build");
        let research = pkg.event("Problems0").unwrap().records.iter().find(|r| r.function() == Some(RESEARCH_DESIGN));
        let institute = crate::missions::enemy_building(BuildCategory::Institute);
        assert_eq!(research.map(|r| word(r.ops[0])), Some(institute), "the research centre researches a design");
        assert_eq!(words[8..], [0x0205, 5], "by name, SELECT_BEST_COMBAT");
        let nature = ScrPackage::parse(file(&tree, "nature.scr"), ReadOptions::strict()).unwrap();
        assert!(nature.events.iter().flat_map(|e| &e.records).all(|r| r.function() == Some(CLAN_BASE)));
    }

    #[test]
    fn research_tree_reads_back_and_names_registry_keys() {
        use iron3d_formats::helpers::Trf;
        use iron3d_formats::nres::Nres;
        let tree = build(DEFAULT_SEED).unwrap();
        let bytes = file(&tree, RESEARCH_TREE);
        let trf = Trf::parse(bytes, ReadOptions::strict()).unwrap();
        assert_eq!(trf.to_bytes(), bytes);
        // Three kinds of three levels, then the beam and the twelve buildings granted.
        assert_eq!(trf.nodes.len(), 9 + 1 + 12);
        let registry = Nres::parse(tree.get("objects.rlb").unwrap(), ReadOptions::strict()).unwrap();
        let opts = ReadOptions::strict();
        let parts = trf.parts(opts).unwrap();
        assert_eq!(parts.len(), trf.nodes.len());
        for (i, node) in trf.nodes.iter().enumerate() {
            let (part, item) = &parts[usize::from(node.part_entry())];
            assert_eq!(usize::from(*item), i, "the item's own part entry names it");
            assert!(registry.get(part).is_some(), "item {i}: {} is a prototype", String::from_utf8_lossy(part));
            let [_, long, ..] = node.string_offsets();
            assert!(!trf.string(b'8', long, opts).unwrap().is_empty());
            let (level, free) = if i < 9 { (i % 3, false) } else { (0, i == 9) };
            assert_eq!(node.type_bytes()[5] as usize, level, "upgrade level");
            assert_eq!(node.costs().build_ore > 0.0, !free, "item {i}: only the beam is free");
        }
        let states = trf.initial_states(opts).unwrap();
        assert_eq!(states.iter().filter(|s| **s == 7).count(), 3 + 13, "one granted item per kind, and the rest");
        let archive = Nres::parse(bytes, opts).unwrap();
        for e in archive.entries() {
            assert_eq!(e.attr1 * e.attr3, e.size, "{}: count x size", e.display_name());
        }
    }
}
