//! What the demo's parts fight with, written in the original's formats (openparkan
//! `docs/26-damage.md`, `docs/29-weapons.md`): each part's `.ndp` gives every node of
//! its mesh its hit points, a chassis's and a building's control description carries a
//! class-27 armour component, a gun part's a class-2 gun naming its round, and each
//! round is an `objects.rlb` entry with a controller (speed, range), a node table (hit
//! points) and an explosion (`.exp`). The numbers are the demo's own, chosen to play as
//! the project's rules did before (a battle unit 600 life behind 20 % armour, a cannon
//! round of 45 every 1.5 s); as in the original, a round's hit points end in 9 and its
//! explosion adds 1. What radars see is written as the original's (openparkan
//! `docs/25-sensors.md`, measured): a turret carries a radar part's sensitivities
//! (0.05, 0.7, 25) at a MK3 part's range, a bunker or tower its own radar (0.5 each),
//! a chassis a MK2 detection shield of its size, an engine and a battery; nodes weigh by
//! their density and parts by their mass.

use crate::catalogue::Role;
use iron3d_formats::Result;
use iron3d_formats::helpers::ctld::{BindingRow, ItemRecord};
use iron3d_formats::helpers::ndpr::NdprRecord;
use iron3d_formats::helpers::{Ctld, Expl, HitKind, Ndpr};
use iron3d_formats::registry::BuildCategory;

/// Component classes (openparkan `docs/13-control.md`).
const TURRET: u32 = 1;
const GUN: u32 = 2;
const ENGINE: u32 = 5;
const RADAR: u32 = 8;
const FIGHT_SHIELD: u32 = 9;
const DETECT_SHIELD: u32 = 10;
const BATTERY: u32 = 19;
const REPAIR: u32 = 15;
const DEFLECTOR: u32 = 21;
const ARMOUR: u32 = 27;
const BEAM: u32 = 30;
/// An arm (class 24): the hero's gun is ready once it is out.
const ARM: u32 = 24;
/// A round's seeker (class 17).
const SEEKER: u32 = 17;
/// The archive of the rounds' resources.
pub const ROUND_ARCHIVE: &str = "weapon.rlb";

/// A round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Round {
    /// Its `objects.rlb` key (and file stem).
    pub key: &'static str,
    /// Speed (units per second).
    pub speed: f32,
    /// Range: the path it flies (units).
    pub range: f32,
    /// Its node's hit points.
    pub hit_points: f32,
    /// Its frame flags: 4, its gun starts selected for the player, as on the original's
    /// unguided rounds; 0x10 a guided round (none of the demo's lifts the AI's distance
    /// score).
    pub flags: u32,
    /// Its seeker's cone (radians), reach and lock (ms), a guided round's.
    pub seeker: Option<[f32; 3]>,
}

/// The original's frame flag of a round whose gun starts selected (openparkan
/// `docs/29-weapons.md`, read).
const STARTS_SELECTED: u32 = 4;

/// The original's frame flag of a guided round.
const GUIDED: u32 = 0x10;

/// The demo's rounds: a cannon shell, a machine-gun bullet, a heavy shell, a laser bolt
/// (the fast rounds fly 10 000 a second, as the original's lasers do) and the hero's
/// plasma bolt, guided, with the seeker of the original hero's plasma rifle (`bp_h_01`:
/// range 150, cone 0.25 rad, reach 500, a 250 ms lock, measured).
pub const ROUNDS: &[Round] = &[
    Round { key: "rd_cannon", speed: 90.0, range: 80.0, hit_points: 44.0, flags: STARTS_SELECTED, seeker: None },
    Round { key: "rd_mgun", speed: 10_000.0, range: 70.0, hit_points: 11.0, flags: STARTS_SELECTED, seeker: None },
    Round { key: "rd_heavy", speed: 110.0, range: 110.0, hit_points: 89.0, flags: STARTS_SELECTED, seeker: None },
    Round { key: "rd_laser", speed: 10_000.0, range: 130.0, hit_points: 29.0, flags: STARTS_SELECTED, seeker: None },
    Round {
        key: "rd_plasma",
        speed: 120.0,
        range: 150.0,
        hit_points: 60.0,
        flags: GUIDED,
        seeker: Some(PLASMA_SEEKER),
    },
];

/// The hero's plasma bolt's seeker: cone, reach, lock (ms).
const PLASMA_SEEKER: [f32; 3] = [0.25, 500.0, 250.0];

/// A gun: magazine (−1 unlimited), capacitor, energy a shot, interval (ms) and round.
struct Gun(i32, f32, f32, f32, &'static str);

/// The light cannon.
const CANNON: Gun = Gun(-1, 2.0, 0.15, 1250.0, "rd_cannon");

/// The guns a part carries, by stem: the hero's gun part carries the cannon, then the
/// plasma rifle (the original hero's second gun: 150 rounds, 250 ms after a stroke).
fn guns(stem: &str) -> Vec<Gun> {
    match stem {
        "r_we_01" | "r_we_03" => vec![CANNON],
        "r_we_02" => vec![Gun(400, 2.0, 0.15, 1250.0, "rd_cannon")],
        HERO_GUN_STEM => vec![CANNON, Gun(150, 2.0, 0.15, 250.0, "rd_plasma")],
        "b_bunk_s" | "b_bunk_m" => vec![Gun(-1, 1.0, 0.05, 150.0, "rd_mgun")],
        "b_bunk_l" | "b_tow_m" => vec![Gun(-1, 4.0, 0.5, 2250.0, "rd_heavy")],
        "b_tow_l" => vec![Gun(-1, 20.0, 5.0, 550.0, "rd_laser")],
        _ => Vec::new(),
    }
}

/// The life of a building's one node, by category.
fn building_life(category: BuildCategory) -> f32 {
    match category {
        BuildCategory::BunkerSmall => 1200.0,
        BuildCategory::BunkerMedium => 1800.0,
        BuildCategory::BunkerLarge => 2600.0,
        BuildCategory::TowerMedium => 1600.0,
        BuildCategory::TowerLarge => 2400.0,
        BuildCategory::Plant => 3000.0,
        BuildCategory::Hangar => 2800.0,
        _ => 2000.0,
    }
}

/// The linear armour term of a chassis or building (its square term is 0).
fn armour(role: Role) -> Option<f32> {
    Some(match role {
        Role::Chassis => 0.8,
        Role::Building(BuildCategory::BunkerMedium | BuildCategory::TowerLarge) => 0.65,
        Role::Building(BuildCategory::BunkerLarge) => 0.6,
        Role::Building(_) => 0.7,
        _ => return None,
    })
}

/// The `.ndp` of a part whose mesh's nodes carry `flags` (a chassis's running gear,
/// [`crate::models::robots::gear_flags`]): a chassis's node 0 carries its life and each
/// other node a twentieth of it; a turret's and a gun's nodes 120 each
/// (their node 0 is the socket, skipped when attached; a gun whose node is destroyed
/// fires no more); a building's one node its category's life. Densities (kg a unit of
/// volume): a chassis's 250, a turret's and a gun's 150, a building's 40.
pub fn node_table(role: Role, flags: &[u32]) -> Option<Ndpr> {
    let nodes = flags.len();
    let (rows, density): (Vec<f32>, f32) = match role {
        Role::Chassis => ((0..nodes).map(|i| if i == 0 { 600.0 } else { 30.0 }).collect(), 250.0),
        Role::Turret | Role::Weapon => (vec![120.0; nodes], 150.0),
        Role::Building(category) => (vec![building_life(category)], 40.0),
        _ => return None,
    };
    let record = |(hp, flags): (f32, &u32)| {
        let mut r = NdprRecord::new(hp, None);
        r.set_density(density);
        r.set_flags(*flags);
        r
    };
    Some(Ndpr { records: rows.into_iter().zip(flags).map(record).collect() })
}

/// A turret's component (class 1, all values zero, the original's) naming its yaw and
/// pitch channels, and the two channel rows (openparkan `docs/30-turrets.md`, read and
/// measured): yaw over 2π at the turret's turns a second (the original's 0.5–0.85: the
/// light turret quickest, the heavy slowest), wrapping and inverted (flags 3), starting
/// at 0.5, ahead; pitch over π/2 at 0.5 spans a second from 0.111. `first_row` is the
/// yaw row's index; the rows' frames stay at 0 (the demo's turrets have no yaw frames:
/// the turret is turned whole).
pub fn turret_channels(stem: &str, first_row: u32) -> Result<Option<(ItemRecord, [BindingRow; 2])>> {
    let turns = match stem {
        "r_tu_01" => 0.85,
        "r_tu_02" => 0.5,
        "r_tu_03" => 0.65,
        _ => return Ok(None),
    };
    let mut yaw = BindingRow::new(1, 0.0, 0.0, 0.5, 3)?;
    yaw.set_channel(turns, std::f32::consts::TAU);
    let mut pitch = BindingRow::new(2, 0.0, 0.0, 0.111, 0)?;
    pitch.set_channel(0.5, std::f32::consts::FRAC_PI_2);
    let mut item = ItemRecord::with_values(TURRET, 1, &[]);
    item.bindings = vec![first_row, first_row + 1];
    Ok(Some((item, [yaw, pitch])))
}

/// A component of `class` with `values`, its mass and power a second.
fn part(class: u32, values: &[f32], mass: f32, power: f32) -> ItemRecord {
    let mut item = ItemRecord::with_values(class, 0, values);
    item.set_figures(mass, power);
    item
}

/// What sees, hides and powers: a turret's radar part (a MK3's range by the turret's
/// size), a bunker's or tower's radar, a chassis's MK2 detection shield (mass,
/// electronics and drive cuts, camouflage and its power), engine and battery (a fitted
/// battery's capacity and output by size: 3 500 at 6, 10 000 at 13, 25 000 at 30 a
/// second).
fn senses(role: Role, stem: &str) -> Vec<ItemRecord> {
    use BuildCategory::*;
    let radar = |[mass, electronics, drive]: [f32; 3], range: f32, power: f32| {
        part(RADAR, &[mass, electronics, drive, range, 750.0], 150.0, power)
    };
    let (fitted, bunker) = ([0.05, 0.7, 25.0], [0.5; 3]);
    match (role, stem) {
        (Role::Turret, "r_tu_01") => vec![radar(fitted, 400.0, 0.15)],
        (Role::Turret, "r_tu_02") => vec![radar(fitted, 450.0, 0.2)],
        (Role::Turret, _) => vec![radar(fitted, 500.0, 0.25)],
        (Role::Building(BunkerSmall), _) => vec![radar(bunker, 500.0, 0.01)],
        (Role::Building(BunkerMedium), _) => vec![radar(bunker, 600.0, 0.01)],
        (Role::Building(BunkerLarge | TowerMedium | TowerLarge), _) => vec![radar(bunker, 750.0, 0.01)],
        (Role::Chassis, stem) => {
            let (cuts, camouflage, power, battery) = match stem {
                "r_ch_01" => ([0.9, 0.45, 0.01], [0.84, 0.2], 0.09, [3_500.0, 6.0]),
                "r_ch_02" => ([0.9, 0.62, 0.01], [0.98, 0.3], 0.19, [10_000.0, 13.0]),
                _ => ([0.98, 0.982, 0.05], [0.948, 0.4], 0.28, [25_000.0, 30.0]),
            };
            let values = [cuts[0], cuts[1], cuts[2], camouflage[0], camouflage[1]];
            vec![
                part(DETECT_SHIELD, &values, 200.0, power),
                part(ENGINE, &[1.0], 500.0, 2.0),
                part(BATTERY, &[battery[0]], 300.0, battery[1]),
            ]
        }
        _ => Vec::new(),
    }
}

/// A building's battery (openparkan `docs/23-economy.md`, measured: every building of
/// the original's `fortif.rlb` holds 19.5 to 20 and gives 50 to 52 a second; a
/// generator's capacity of −1 makes it read full).
fn building_battery(role: Role) -> Option<ItemRecord> {
    let Role::Building(category) = role else { return None };
    let capacity = if category == BuildCategory::Generator { -1.0 } else { 20.0 };
    Some(part(BATTERY, &[capacity], 100.0, 50.0))
}

/// A bunker's or tower's shield: 300 points a sector recharging 5 a second behind a
/// deflector of 0.5 (the original's buildings carry 8 000, 80 and 0.36: the demo's are
/// lighter so its cannons still tell).
fn shield(role: Role) -> Option<[ItemRecord; 2]> {
    use BuildCategory::*;
    let Role::Building(BunkerSmall | BunkerMedium | BunkerLarge | TowerMedium | TowerLarge) = role else { return None };
    Some([
        ItemRecord::with_values(FIGHT_SHIELD, 0, &[300.0, 5.0, 0.04]),
        ItemRecord::with_values(DEFLECTOR, 0, &[0.5; 6]),
    ])
}

/// A repair system's life mended a second: a chassis's 3, a building's 5.
fn repair(role: Role) -> Option<f32> {
    match role {
        Role::Chassis => Some(3.0),
        Role::Building(_) => Some(5.0),
        _ => None,
    }
}

/// The stems of the hero's chassis and gun, the parts only he carries.
const HERO_CHASSIS_STEM: &str = "r_ch_04";
const HERO_GUN_STEM: &str = "r_we_05";

/// A gun's barrel channel runs at 4 a second: a stroke of 250 ms, the original hero's
/// cannon's (openparkan `docs/29-weapons.md`, measured).
const BARREL_RATE: f32 = 4.0;

/// The combat components of a part's control description: its armour, shield, repair
/// system, radar, detection shield, engine, batteries and gun; a gun's barrel channel is
/// added to `rows`, which the gun names (its stroke is 1000 ÷ the channel's rate).
pub fn components(role: Role, stem: &str, rows: &mut Vec<BindingRow>) -> Result<Vec<ItemRecord>> {
    let mut items: Vec<ItemRecord> =
        armour(role).map(|linear| ItemRecord::with_values(ARMOUR, 0, &[0.0, linear, 0.0])).into_iter().collect();
    items.extend(shield(role).into_iter().flatten());
    items.extend(repair(role).map(|rate| ItemRecord::with_values(REPAIR, 0, &[rate, 0.04])));
    items.extend(senses(role, stem));
    items.extend(building_battery(role));
    if stem == HERO_CHASSIS_STEM {
        // The hero's arms, which carry his two guns (the original's hero turret carries
        // four, one a gun; the demo's hero shares his turret, so his chassis carries them).
        items.extend([0, 1].map(|_| ItemRecord::with_values(ARM, 0, &[])));
    }
    if stem == "r_we_04" {
        // The beam module: two class-30 components on its first own node (read).
        items.extend([0, 1].map(|_| ItemRecord::with_values(BEAM, 1, &[])));
    }
    for Gun(magazine, capacitor, energy, interval, round) in guns(stem) {
        // A gun part's node 1 is its first own node (node 0 is the socket).
        let node = u32::from(role == Role::Weapon);
        let mut item = ItemRecord::with_values(GUN, node, &[magazine as f32, capacitor, energy, interval]);
        item.set_emits("objects.rlb", round);
        let mut barrel = BindingRow::new(node as i32, 0.0, 0.0, 0.0, 0)?;
        barrel.set_channel(BARREL_RATE, 1.0);
        item.bindings = vec![rows.len() as u32];
        rows.push(barrel);
        items.push(item);
    }
    Ok(items)
}

/// A round's resources: `.ctl`, `.ndp` and `.exp`, as (member, bytes).
pub fn round_entries(round: &Round) -> Result<Vec<(String, Vec<u8>)>> {
    let mut ctld = Ctld::with_pose(vec![BindingRow::new(0, 0.0, 0.0, 0.0, 0)?])?;
    ctld.set_round_flight(round.speed, round.range, round.flags);
    // A seeker is the round's class-17 component (read).
    ctld.items.extend(round.seeker.map(|v| ItemRecord::with_values(SEEKER, 0, &v)));
    ctld.counts[3] = ctld.items.len() as u32;
    let exp = format!("{}.exp", round.key);
    let ndp = Ndpr { records: vec![NdprRecord::new(round.hit_points, Some((ROUND_ARCHIVE, &exp)))] };
    Ok(vec![
        (format!("{}.ctl", round.key), ctld.to_bytes()?),
        (format!("{}.ndp", round.key), ndp.to_bytes()?),
        (exp, Expl::new(HitKind::Direct, 1.0, 0.0, None).to_bytes()),
    ])
}
