//! What an object's data says of its body and arms (openparkan `docs/26-damage.md`,
//! `docs/29-weapons.md`, `docs/13-control.md`; read and measured): one node per row of
//! its parts' `.ndp` tables, with the mesh's tree and vital flags, its armour and its
//! guns with their rounds. The mission load publishes it as [`CombatSheet`]; combat
//! builds the object's live body and guns from it.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// One node of a body.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct NodeSheet {
    /// Its hit points (`.ndp` `+0x04`).
    pub hit_points: f32,
    /// Its parent node (the mesh's tree, across attached parts); `None` at a root.
    pub parent: Option<u16>,
    /// Its destruction kills the object (mesh node flag `0x200`).
    pub vital: bool,
    /// The running gear it belongs to (`.ndp` flags `0x20`, `0x40`).
    pub gear: Gear,
}

/// Which side's running gear a node is: a leg, wheel or track (openparkan
/// `docs/24-motion.md`, read and measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub enum Gear {
    /// Not running gear.
    #[default]
    None,
    /// The left side (`.ndp` flag `0x20`).
    Left,
    /// The right side (`.ndp` flag `0x40`).
    Right,
}

/// An engine (class 5): its drive, 0.7 on a MK1 to 1 on a MK4 and a chassis slot's
/// default (openparkan `docs/24-motion.md`, `docs/28-chassis.md`, read and measured).
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct EngineSheet {
    /// Value 0: its drive.
    pub drive: f32,
    /// Its node (every shipped chassis's engine sits on node 0, so the body's damage is
    /// the engine's).
    pub node: u16,
}

/// What a round's explosion does (`.exp`).
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct HitSheet {
    /// Hit kind: 1 effect only, 2 direct, 3 blast, 4 shields only.
    pub kind: u32,
    /// Damage added to the round's hit points.
    pub damage: f32,
    /// Blast radius (units; a round's is absolute).
    pub radius: f32,
}

/// A round as its controller, node table and explosion give it.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct RoundSheet {
    /// Speed (units per second; `.ctl` `+48`).
    pub speed: f32,
    /// Range: the path it flies (units; `.ctl` `+108`).
    pub range: f32,
    /// Hit points of its node 0 (its `.ndp`), part of what it hits for.
    pub hit_points: f32,
    /// Frame flags (`.ctl` `+116`): 4 starts its gun selected ([`RoundSheet::STARTS_SELECTED`]),
    /// 8 scores it 1 at any distance for the AI, 0x10 (a guided round) 1.1.
    pub flags: u32,
    /// Its node 0's explosion.
    pub hit: HitSheet,
    /// Its seeker (a class-17 component of its controller), a guided round's.
    pub seeker: Option<SeekerSheet>,
}

/// A round's seeker (openparkan `docs/29-weapons.md`, "A guided gun waits for a lock",
/// read and measured): its gun fires only at a target within its reach and its cone,
/// after holding it for its lock.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct SeekerSheet {
    /// Value 0: the cone's half angle off the barrel (radians).
    pub cone: f32,
    /// Value 1: its reach (units).
    pub reach: f32,
    /// Value 2: the lock (ms).
    pub lock_ms: f32,
}

impl RoundSheet {
    /// Frame flag of a round whose gun starts selected when the player takes its unit
    /// (openparkan `docs/29-weapons.md`, "Which guns start selected", read).
    pub const STARTS_SELECTED: u32 = 4;
    /// Frame flag of a guided round (one with a seeker, measured): the missiles' trigger
    /// reaches its gun, and its gun locks.
    pub const GUIDED: u32 = 0x10;

    /// Whether it is guided ([`Self::GUIDED`]).
    pub fn guided(&self) -> bool {
        self.flags & Self::GUIDED != 0
    }

    /// The gun's range gate (its value 8): the round's range, or its seeker's reach when
    /// that is the shorter.
    pub fn gate(&self) -> f32 {
        self.seeker.map_or(self.range, |s| s.reach.min(self.range))
    }

    /// The gun's lock (its value 9, seconds): a seeker's value 2 × 0.001, `None` without
    /// a seeker or with a lock of 0.
    pub fn lock_seconds(&self) -> Option<f32> {
        self.seeker.map(|s| s.lock_ms * 0.001).filter(|s| *s > 0.0)
    }
}

/// A gun: a class-2 (or builder's class-30) component of the object's control
/// description.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct GunSheet {
    /// The node it sits on (its condition is that node's life).
    pub node: u16,
    /// Value 0: rounds it holds, −1 unlimited.
    pub magazine: i32,
    /// Value 1: the capacitor (0: fires free).
    pub capacitor: f32,
    /// Value 2: the energy a shot takes out of the capacitor.
    pub shot_energy: f32,
    /// Value 3: the wait after a shot's barrel stroke (ms).
    pub interval_ms: f32,
    /// Its barrels (the record's channel entries, at least 1).
    pub barrels: u16,
    /// Record flag `0x2000000`: every barrel fires at once.
    pub volley: bool,
    /// Its barrel stroke (ms): 1000 ÷ the rate of the first channel it names (openparkan
    /// `docs/29-weapons.md`, read and measured); `None` when it names none with a rate.
    pub stroke_ms: Option<f32>,
    /// Whether an arm (a class-24 component) carries it: the gun is ready only while its
    /// arm is out (openparkan `docs/29-weapons.md`, "A gun is ready once its arm is out").
    pub arm: bool,
    /// The round it fires.
    pub round: RoundSheet,
}

/// A fight shield (class 9) behind its deflector (class 21): the bubble exists while
/// both are fitted and the deflector's node lives.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ShieldSheet {
    /// The shield's value 0: each sector's full points.
    pub points: f32,
    /// Value 1: points recharged a second (times its node's condition).
    pub recharge: f32,
    /// Value 2: the charge a point costs.
    pub charge_per_point: f32,
    /// The shield's node.
    pub node: u16,
    /// The deflector's values 0–5: each sector's coefficient.
    pub coefficients: [f32; 6],
    /// The deflector's node.
    pub deflector_node: u16,
}

/// A repair system (class 15): it mends its own object only.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct RepairSheet {
    /// Value 0: life mended a second (times its node's condition).
    pub rate: f32,
    /// Value 1: the charge a point of life costs.
    pub charge_per_point: f32,
    /// Its node.
    pub node: u16,
}

/// A radar (class 8; openparkan `docs/25-sensors.md`, read and measured): the last of
/// the object's control description, the one its control system asks.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct RadarSheet {
    /// Values 0–2: its sensitivities to a target's mass, electronics and drive
    /// signatures.
    pub sensitivity: [f32; 3],
    /// Value 3: its range (units).
    pub range: f32,
    /// Value 4: how long a scan stays good (ms; 750 on every shipped radar).
    pub period_ms: f32,
    /// Its node (a destroyed node blinds it).
    pub node: u16,
}

/// A detection shield (class 10): it cuts each of its object's signatures, and more
/// while camouflaged.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct StealthSheet {
    /// Values 0–2: the cut of the mass, electronics and drive signatures.
    pub cuts: [f32; 3],
    /// Value 3: camouflage's further cut (0 on a MK1: no camouflage).
    pub camouflage: f32,
    /// Value 4: camouflage's power a second.
    pub camouflage_power: f32,
    /// Its power a second (`.ctl` item `+0x20`).
    pub power: f32,
    /// Its node.
    pub node: u16,
}

/// A battery (class 19, `CICLS_POWERSTOR`; openparkan `docs/23-economy.md`, read).
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct BatterySheet {
    /// Value 0: what it holds full.
    pub capacity: f32,
    /// Its power figure (`.ctl` item `+0x20`): what it gives a second at full charge.
    pub output: f32,
    /// Its node.
    pub node: u16,
}

/// A building's efficiency part (class 26; openparkan `docs/23-economy.md`, read and
/// measured: only the original's `fortif.rlb` buildings carry one, 1 / 3 / 5 / 7 by
/// size).
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct EfficiencySheet {
    /// Value 0: what it answers intact and at full power.
    pub value: f32,
    /// The node it names (`None`: its key falls outside its part's node table, and it
    /// never answers).
    pub node: Option<u16>,
}

/// The power channel a component class draws on (openparkan `docs/23-economy.md`,
/// `Control.dll:0x1003ccc8`, read): 3 engines and efficiency, 2 cameras and radars,
/// 5 shields, deflectors and armour, 4 turrets and guns, 1 batteries, 0 the rest.
pub fn power_channel(class: u32) -> usize {
    match class {
        5 | 16 | 20 | 26 => 3,
        4 | 8 | 17 => 2,
        9 | 10 | 21 | 27 => 5,
        1 | 2 | 22 | 24 | 30 => 4,
        14 | 19 => 1,
        _ => 0,
    }
}

/// What an object gives away to radars, from its data (openparkan `docs/25-sensors.md`
/// and `docs/28-chassis.md`, read): its mass, area and volume, and what its parts ask a
/// second on each power channel while switched on.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct FigureSheet {
    /// Mass (kg): Σ nodes (`.ndp` density × level-0 volume, + armour value 0 × area
    /// with armour) + Σ parts' masses (`.ctl` item `+0x1C`).
    pub mass: f32,
    /// The root part's own nodes' density × volume (a chassis's body, which never eats
    /// into its payload; openparkan `docs/24-motion.md`, read).
    pub own_mass: f32,
    /// Σ the nodes' level-0 areas (mesh slot `+0x30`).
    pub area: f32,
    /// Σ the nodes' level-0 volumes (mesh slot `+0x34`).
    pub volume: f32,
    /// The parts' power a second by channel (engines and batteries left out: an
    /// engine's draw follows its speed, a battery is a source).
    pub asks: [f32; 6],
    /// The engines' power a second at top speed.
    pub engine: f32,
}

/// An object's body and arms from its data.
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct CombatSheet {
    /// Nodes in body order (node 0 the root part's root).
    pub nodes: Vec<NodeSheet>,
    /// Armour `(linear, square)` of the last class-27 component; `(1, 0)` without.
    pub armour: [f32; 2],
    /// Guns in component order.
    pub guns: Vec<GunSheet>,
    /// Its shield, when it carries a fight shield and a deflector (the last of each).
    pub shield: Option<ShieldSheet>,
    /// Its repair system (the last one).
    pub repair: Option<RepairSheet>,
    /// Its radar (the last one).
    pub radar: Option<RadarSheet>,
    /// Its detection shield (the last one).
    pub stealth: Option<StealthSheet>,
    /// What it gives away to radars.
    pub figures: FigureSheet,
    /// Its batteries.
    pub batteries: Vec<BatterySheet>,
    /// Its efficiency parts (class 26): each draws the building's
    /// [`crate::PowerUsage`] besides its own power figure (openparkan
    /// `docs/23-economy.md`, read).
    pub efficiency: Vec<EfficiencySheet>,
    /// Its engines.
    pub engines: Vec<EngineSheet>,
    /// Its turret's yaw rate (rad/s): the first channel its turret component (class 1)
    /// names, rate × span (openparkan `docs/30-turrets.md`, read and measured); `None`
    /// without a turret component or channel.
    pub turret_yaw_rate: Option<f32>,
    /// The first node with any level-0 area (the armoured hull): its life over the
    /// armour's keep is the designer's Defence (openparkan `docs/38-designs.md`, read);
    /// `None` when no node has an area.
    pub hull: Option<u16>,
    /// Its builder's beam (the last class-30 component): the node it sits on. The
    /// original never fires it; building and upgrading need it intact (openparkan
    /// `docs/32-builder.md`, read).
    pub beam: Option<u16>,
    /// The body node of each component's mesh nodes, component by component: an
    /// attached part's skipped root is the node it sits on, a fitted part and a node past
    /// its table have none. What the cockpit's panels colour a drawn piece by.
    pub pieces: Vec<Vec<Option<u16>>>,
}

impl CombatSheet {
    /// The body node mesh node `node` of component `component` is drawn for.
    pub fn node_of(&self, component: usize, node: usize) -> Option<u16> {
        self.pieces.get(component)?.get(node).copied().flatten()
    }
}
