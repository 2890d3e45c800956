//! Clans as the simulation sees them (`docs/reference/runtime.md` §3.4, §3.5, §4.1): the clan
//! records of the mission and where their script files come from (published by the
//! mission load), the `GetSuperAI` slot table (written by SuperAI, read by the economy),
//! a placed object's Unit DAT class word, script event requests and the mission
//! outcome. Data only; the rules live in `iron3d_superai` and `iron3d_economy`.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_formats::world::ClanType;
use std::sync::Arc;

/// Number of `GetSuperAI` slots (`n ≤ 63`, `docs/reference/runtime.md` §3.4).
pub const SUPER_AI_SLOTS: usize = 64;

/// Reads files of the game directory for the script loader (the mission load gives
/// one over its game directory). `Ok(None)` means the file does not exist, which the
/// loader treats differently from a read error (`docs/reference/runtime.md` §3.1: `<bundle>.var` falls back
/// to `varset.var` only when the bundle file is missing).
pub trait ScriptFiles: Send + Sync + 'static {
    /// The bytes of `path` (game path, `/` or `\` separators, case-insensitive).
    ///
    /// # Errors
    /// A description of the read failure (the file exists but cannot be read).
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String>;
}

/// One clan record of `data.tma`, in clan order (`docs/reference/world.md` §1.4,
/// corrected by `gameplay.md` §1.1).
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct ClanSetup {
    /// Zero-based clan index (position in the clan list; the SuperAI's `+0x7C` word).
    pub index: u32,
    /// Clan name.
    pub name: String,
    /// The clan type word ([`ClanType`]): 0 nature, 1 player, 2 enemy, 3 neutral.
    pub mode: u32,
    /// Base anchor (game units).
    pub anchor: [f32; 2],
    /// Script base (first resource), e.g. `MISSIONS\SCRIPTS\default`.
    pub bundle: String,
    /// Research tree path (second resource), empty when none.
    pub research_tree: String,
    /// The clan's minds: how many robots it may have at once (the word after the
    /// research tree path, 2..17 in the shipped missions; read and measured).
    pub minds: u32,
    /// The relation table: `(other clan name, word)` in file order (0 hostile, 1
    /// neutral, 2 allied; [`crate::ClanRelations`] applies the loader's rules).
    pub relations: Vec<(String, i32)>,
    /// The clan's zones: its animals' pastures (migration areals), in file order.
    pub pastures: Vec<Pasture>,
}

/// A pasture: a zone of a clan record, where its animals graze (`gameplay.md` §1.1,
/// §1.4; openparkan `docs/31-packages.md`, read).
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Pasture {
    /// Centre (game units).
    pub centre: [f32; 3],
    /// Inner radius: hostile machines within it are attacked.
    pub inner: f32,
    /// Outer radius: an animal engages only from within it.
    pub outer: f32,
}

impl ClanSetup {
    /// Clan `index` named `name` of type `mode`, with no anchor, script, research tree,
    /// minds, relations or pastures (worlds built by hand).
    pub fn bare(index: u32, name: &str, mode: u32) -> Self {
        Self {
            index,
            name: name.into(),
            mode,
            anchor: [0.0; 2],
            bundle: String::new(),
            research_tree: String::new(),
            minds: 0,
            relations: Vec::new(),
            pastures: Vec::new(),
        }
    }

    /// Whether the clan plays: a player (type 1) or computer (type 2) clan, not
    /// nature (0) or a neutral clan (3).
    pub fn plays(&self) -> bool {
        self.is_player() || self.is_computer()
    }

    /// Whether a player commands the clan (type 1).
    pub fn is_player(&self) -> bool {
        self.mode == ClanType::PLAYER
    }

    /// Whether the computer plays the clan (type 2, an enemy clan).
    pub fn is_computer(&self) -> bool {
        self.mode == ClanType::ENEMY
    }
}

/// The mission's clans and the files their scripts are read from. Published by the
/// mission load at registration; absent for worlds built by hand.
#[derive(Resource, Clone)]
pub struct MissionClans {
    /// Clan records in clan order.
    pub clans: Vec<ClanSetup>,
    /// The game directory's files.
    pub files: Arc<dyn ScriptFiles>,
}

impl MissionClans {
    /// The local player's clan: the first clan record of type 1 (the project's reading:
    /// the original's clan selection is opaque).
    pub fn player(&self) -> Option<u32> {
        self.clans.iter().find(|c| c.is_player()).map(|c| c.index)
    }

    /// Whether clan index `clan` is a computer clan (type 2).
    pub fn is_computer(&self, clan: i32) -> bool {
        usize::try_from(clan).ok().and_then(|i| self.clans.get(i)).is_some_and(ClanSetup::is_computer)
    }
}

/// The `GetSuperAI` table (`docs/reference/runtime.md` §3.4, §4.1): entry `n` holds the clan index of the
/// SuperAI in slot `n`. Only clans whose script package loaded get a slot; slots are
/// never renumbered (a clan-1 package stays slot 1 when clan 0's package is missing).
#[derive(Resource, Debug, Clone, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct SuperAiSlots(pub Vec<Option<u32>>);

impl Default for SuperAiSlots {
    fn default() -> Self {
        Self(vec![None; SUPER_AI_SLOTS])
    }
}

impl SuperAiSlots {
    /// `GetSuperAI(n)`: the clan in slot `n`, when that slot holds a SuperAI.
    pub fn get(&self, n: u32) -> Option<u32> {
        self.0.get(n as usize).copied().flatten()
    }

    /// True when slot `n` names an available SuperAI.
    pub fn available(&self, n: u32) -> bool {
        self.get(n).is_some()
    }
}

/// A unit's chassis kind: its chassis profile's `ChassisType` (openparkan
/// `docs/28-chassis.md`, measured: 1 flying, 2 walking, 3 wheeled, 4 tracked; 5 and 6
/// name letters A and U in a unit's name).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct ChassisType(pub u32);

impl ChassisType {
    /// A flyer's.
    pub const FLYING: u32 = 1;

    /// True for a flyer.
    pub fn flies(self) -> bool {
        self.0 == Self::FLYING
    }
}

/// The Unit DAT class word of a placed object (second `u32` of its `.dat`, spec
/// `docs/reference/registry.md` §2.2); only objects placed from a unit scheme have one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct UnitClass(pub u32);

impl UnitClass {
    /// The class bit that creates a Behavior registration key (`docs/reference/runtime.md` §4.1).
    pub const REGISTRATION_BIT: u32 = 0x8000_0000;

    /// The hero's class word (`docs/reference/registry.md` §2.2, inferred).
    pub const HERO: u32 = 0x0102_0000;

    /// A generator's class word (`docs/reference/registry.md` §2.2).
    pub const GENERATOR: u32 = 0x8000_0002;

    /// A mine's class word (`docs/reference/registry.md` §2.2).
    pub const MINE: u32 = 0x8000_0004;

    /// A storage's class word (`docs/reference/registry.md` §2.2).
    pub const STORAGE: u32 = 0x8000_0008;

    /// A transport robot's class word (`docs/reference/registry.md` §2.2).
    pub const TRANSPORT: u32 = 0x0100_2000;

    /// A builder's class word (openparkan `docs/32-builder.md`, measured).
    pub const BUILDER: u32 = 0x0100_4000;

    /// A battle unit's (warrior's) class word (`docs/reference/registry.md` §2.2).
    pub const BATTLE_UNIT: u32 = 0x0100_8000;

    /// A main teleport's class word (`docs/reference/registry.md` §2.2).
    pub const MAIN_TELEPORT: u32 = 0x8000_0200;

    /// The class words the hero's Enter takes, as a mask (a Type with no bit outside
    /// it): transport, builder, warrior, HQ or hero (openparkan `docs/39-boarding.md`,
    /// read).
    pub const ENTERABLE: u32 = 0x0103_e000;

    /// An HQ robot's class word (`varset.var`'s `ROBOT_HQ`, openparkan
    /// `docs/31-packages.md`, measured).
    pub const HQ: u32 = 0x0101_0000;

    /// A factory's (plant's) class word (`docs/reference/registry.md` §2.2).
    pub const PLANT: u32 = 0x8000_0010;

    /// The three bunkers' class words, small, medium and large: a pod of one opens
    /// command mode (openparkan `docs/40-command-mode.md`, read).
    pub const BUNKERS: [u32; 3] = [0x8001_0000, 0x8002_0000, 0x8004_0000];

    /// An animal's class word (`varset.var`'s `CLASS_ANIMAL`, `gameplay.md` §1.4).
    pub const ANIMAL: u32 = 0x2000_0000;

    /// Whether the class word is an animal's.
    pub fn is_animal(self) -> bool {
        self.0 == Self::ANIMAL
    }

    /// Whether the class word is the hero's.
    pub fn is_hero(self) -> bool {
        self.0 == Self::HERO
    }

    /// Whether the class word has its high bit set.
    pub fn registers(self) -> bool {
        self.0 & Self::REGISTRATION_BIT != 0
    }
}

/// Asks SuperAI to run a named event of a clan's script (the host side of the VM: the
/// project's rules, tests and tools). Run in `SimSystems::SuperAi` of the next tick.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct RunScriptEvent {
    /// `GetSuperAI` slot of the clan.
    pub slot: u32,
    /// Event name (compared case-sensitively as a C string).
    pub event: String,
    /// The outcome recorded for the clan through Handler(30)'s host callback when the
    /// event (missing, stopped or run) leaves the clan without one (the project's
    /// victory and defeat rule; `None` for any other request).
    pub fallback: Option<Outcome>,
}

impl RunScriptEvent {
    /// A request to run `event` of the clan in `slot`, with no fallback outcome.
    pub fn new(slot: u32, event: impl Into<String>) -> Self {
        Self { slot, event: event.into(), fallback: None }
    }
}

/// How a mission ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Host callback `(0, 0, 1)` (`docs/reference/runtime.md` §3.5).
    Completed,
    /// Host callback `(0, 0, 0)`.
    Failed,
    /// The project's own rule: the clan lost every unit and production building.
    Defeated,
}

impl Outcome {
    /// Lower-case name (JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Defeated => "defeated",
        }
    }
}

/// The recorded mission outcome per clan (`None` while the mission runs). A repeated
/// transition to the same outcome is a no-op (`docs/reference/runtime.md` §3.5).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct MissionOutcome {
    /// `(clan index, outcome, tick)` in the order they were recorded; one entry per clan.
    pub records: Vec<(u32, Outcome, u32)>,
}

impl MissionOutcome {
    /// The outcome recorded for `clan`.
    pub fn of(&self, clan: u32) -> Option<Outcome> {
        self.records.iter().find(|r| r.0 == clan).map(|r| r.1)
    }

    /// Records `outcome` for `clan` at `tick`; returns false (and changes nothing) when
    /// the clan already has that outcome. A different outcome replaces the old one.
    pub fn record(&mut self, clan: u32, outcome: Outcome, tick: u32) -> bool {
        match self.records.iter_mut().find(|r| r.0 == clan) {
            Some(r) if r.1 == outcome => false,
            Some(r) => {
                *r = (clan, outcome, tick);
                true
            }
            None => {
                self.records.push((clan, outcome, tick));
                true
            }
        }
    }
}

/// A mineral lode of the mission (`data.tma`'s trailer records, `gameplay.md` §3.4;
/// read, measured): where it lies, whether it is found, how much ore it holds.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct MineralLode {
    /// Position across the ground (x, y; the runtime record keeps no height).
    pub position: [f32; 2],
    /// Found (a mine within reach or a builder's search marks it).
    pub found: bool,
    /// Ore it holds.
    pub amount: f32,
}

/// The mission's mineral lodes in file order (published by the mission load).
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct MineralLodes(pub Vec<MineralLode>);

/// Each clan's minds (published by production after each tick's step, read by the
/// strategic layer and the scripts): clan index → `(minds, free minds)`.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct MindBoard {
    /// Clan → `(minds, free minds)`.
    pub clans: std::collections::BTreeMap<i32, (u32, u32)>,
}

impl MindBoard {
    /// The free minds of `clan`; `None` when it has no cap (no mission clans).
    pub fn free(&self, clan: i32) -> Option<u32> {
        self.clans.get(&clan).map(|m| m.1)
    }
}

/// What each clan may research now (published by production after each tick's step,
/// read by the strategic layer): per clan, the tree's nodes that can start now, in tree
/// order, and whether a node is being researched or waiting.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct ResearchBoard {
    /// Clan → `(startable node indices, busy)`.
    pub clans: std::collections::BTreeMap<i32, (Vec<u32>, bool)>,
}

/// A robot being built, as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Reflect)]
pub struct JobView {
    /// The scheme built (its name).
    pub scheme: String,
    /// Milliseconds worked.
    pub elapsed_ms: u32,
    /// Milliseconds it takes.
    pub total_ms: u32,
}

/// A production building's queue, as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Reflect)]
pub struct QueueView {
    /// Schemes waiting (their names), first next.
    pub waiting: Vec<String>,
    /// The robot being built.
    pub active: Option<JobView>,
    /// Whether it builds in batch (`Order::Batch`).
    pub batch: bool,
}

/// What production publishes for the interface when a mission starts and after every
/// tick (a joined game lays the host's over it): every production building's queue and
/// the names of each clan's research nodes in tree order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct ProductionBoard {
    /// Production building (`OriginalObjectId`) → its queue.
    pub producers: std::collections::BTreeMap<u32, QueueView>,
    /// Clan → its research nodes' names.
    pub research: std::collections::BTreeMap<i32, Vec<String>>,
}

/// Each clan's economy as the economy publishes it after every tick (read by the
/// interface): clan index → its [`ClanEconomy`].
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct EconomyBoard {
    /// Clan → its economy.
    pub clans: std::collections::BTreeMap<i32, ClanEconomy>,
}

/// One clan's economy: the amounts the project's production rules spend, and the HUD's
/// two bars as the original computes them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Reflect)]
pub struct ClanEconomy {
    /// Ore held by its objects.
    pub ore: f32,
    /// Its power (the project's production rule).
    pub power: f32,
    /// The Ore bar: what its mines and storages hold over 4 500, in whole percent.
    pub ore_percent: u8,
    /// The Energy bar: its share of the whole map's power after its own draw, in whole
    /// percent.
    pub energy_percent: u8,
}

impl EconomyBoard {
    /// The economy of `clan` (all zero for a clan without one).
    pub fn of(&self, clan: i32) -> ClanEconomy {
        self.clans.get(&clan).copied().unwrap_or_default()
    }
}

/// One unit scheme a clan can build in this mission's data.
#[derive(Debug, Clone, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct BuildOption {
    /// The scheme (its name is in [`crate::SchemeNames`]).
    pub scheme: crate::SchemeRef,
    /// Its Unit DAT class word.
    pub class: u32,
    /// Its component types, root first (`docs/reference/registry.md` §2.3).
    pub component_types: Vec<u32>,
}

/// What each clan can build in this mission's data (published by production at game
/// start, read by the strategic layer): per clan, the robot schemes placed for any clan
/// of the mission, those its research tree names and the `mission.cfg` `object
/// prebuild` schemes that resolve to a robot with a production cost, in name order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct BuildOptions {
    /// Clan → its options.
    pub clans: std::collections::BTreeMap<i32, Vec<BuildOption>>,
}

/// One seat of a hosted game: a player and the clan it commands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    /// The name the player gave.
    pub name: String,
    /// The clan it commands (`None`: an observer).
    pub clan: Option<u32>,
    /// The hosting game's own player.
    pub host: bool,
}

/// Who commands which clan in a hosted game, by game player number (never 0; empty in a
/// single-player game): kept current by the network host, written into saves and put
/// back when one is loaded (not hashed; the objects' `Owner.player` is the simulation's).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seats(pub std::collections::BTreeMap<u16, Seat>);
