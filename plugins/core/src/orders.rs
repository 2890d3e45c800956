//! Orders and the command path: player input, the network, replays and the headless
//! CLI all queue tick-stamped [`SimCommand`]s; Behavior applies those of a tick at its
//! start, in a stable order that does not depend on how they were queued.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// What a unit is told to do.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// Stop and stay (also the state of a unit without orders).
    #[default]
    Stop,
    /// Move to a point (game units).
    MoveTo([f32; 2]),
    /// Move to an object (its current position, re-planned when it moves).
    MoveToObject(u32),
    /// Follow a mission path (`Paths` of `data.tma`, by path id) once.
    FollowPath(i32),
    /// Patrol a mission path: to its end, back to its start, and again.
    Patrol(i32),
    /// Attack an object: close in to weapon range and fire until it is destroyed,
    /// then stop.
    Attack(u32),
    /// Build a robot of a unit scheme (the project's own production rules; the command's
    /// units are production buildings, each queues one robot).
    Build(SchemeRef),
    /// Research a node of the clan's research tree (by node index; the command's units
    /// are research buildings, the clan is their owner).
    Research(u32),
    /// Build robots of a unit scheme one after another (the factory panel's batch,
    /// openparkan `docs/36-factory.md`, read): a producer in batch with nothing to build
    /// is given the scheme again whenever its clan has a free mind, and waits otherwise.
    Batch(SchemeRef),
    /// Stop a producer (the factory panel's stop, read): its batch ends, its build is
    /// aborted and what waits is dropped; the ore its build had collected goes back to
    /// the clan's stores (the project's).
    StopBuild,
    /// Direct control by the player for this and the following ticks (piloting): the
    /// unit keeps its orders and resumes them on [`Order::Release`].
    Pilot(PilotInput),
    /// End direct control: the unit returns to its orders.
    Release,
    /// Haul ore (the unit is a transport robot; the id names a mine of its clan): as the
    /// original's transport task, the unit chooses its own route, its clan's nearest
    /// mine with a loading place and nearest storage (waiting beside it while it is
    /// full), and goes back and forth until another order.
    Haul(u32),
    /// Graze the clan's current pasture (an animal's default order, the original's
    /// order 15, `gameplay.md` §1.4): walk to points of it, stand, and attack what is
    /// hostile inside it.
    Migrate,
    /// Refit at a dock (the original's orders 8, reload, and 9, repair: one task,
    /// openparkan `docs/27-ownership.md`, read): to the nearest ground-level dock of the
    /// unit's clan or an ally, wait there until life, charge and ammunition are at 98 %,
    /// then the next order; with no such dock it fails at once (`rejected`).
    Refit,
    /// Search for mineral lodes (the builders' *Search minerals* row, the original's
    /// order 5 by type `0x10001000`, `gameplay.md` §9.2–9.3): to the nearest lode not yet
    /// found anywhere on the map; within 10 of it the lode is found for every clan; then
    /// the next, until none is left.
    SearchLodes,
    /// Put up a building (the original's `ORDER_ROBOT_BUILD`, 7, openparkan
    /// `docs/32-builder.md`, read): the builder fetches ore when it holds less than
    /// `Building_Cost` (never for a mine), walks to the site, and there its scheme's first
    /// building is made for its clan; its construction sphere runs on the building.
    Construct(Site),
    /// Upgrade a building of the builder's clan (by id) to the next entry of its
    /// scheme's ladder (the original's `ORDER_ROBOT_UPGRADE`, 24, read).
    Upgrade(u32),
    /// Capture an object (by id; openparkan `docs/27-ownership.md`, read): a building of
    /// another clan through its control pod (the original's `ORDER_ROBOT_CAPTURE`, 17:
    /// units of size class 2 at most, never a main teleport), then escape from it; or,
    /// for the hero, a unit of a neutral clan by his Enter within 20.
    Capture(u32),
    /// The hero's Enter on a unit (by id; openparkan `docs/39-boarding.md`, read): within
    /// 20 across the ground a neutral unit is captured first, then a large bot of his
    /// clan with a turret is boarded.
    Board(u32),
    /// Leave where the unit is: the hero aboard a bot gets out at the first free landing
    /// place around it (or stays, "Risk area! Landing impossible."); any other unit
    /// escapes to open ground (the original's `ORDER_ROBOT_LEAVE`, 20, read).
    Leave,
    /// Standby (the original's `ORDER_ROBOT_STAYGROUND`, 21, openparkan
    /// `docs/31-packages.md`, read): the unit stays where it is, its guns firing through
    /// its own fire control, and nothing pulls it off station (no refit of its own).
    StandGround,
    /// Shut down (`ORDER_ROBOT_SHUTDOWN`, 19, read): the unit stands and its guns pick
    /// no target.
    Shutdown,
    /// Follow a unit of the clan (by id; `ORDER_ROBOT_FOLLOW`, 22, read): within 20 of
    /// it, a new spot whenever it is more than 40 away across the ground or 30 above or
    /// below; the order fails once the leader is gone or of another clan.
    Follow(u32),
    /// Search (`ORDER_ROBOT_SEARCH`, 5, openparkan `docs/31-packages.md`, read): for other
    /// clans' buildings to capture one after another, or for hostile robots to fight;
    /// it never ends by itself.
    Search(SearchFor),
    /// Guard (`ORDER_ROBOT_PATROL`, 4, openparkan `docs/31-packages.md`, read): walk loops
    /// of random points about a place, a unit of the clan or a building, drawing a fresh
    /// loop on a timer, and take up a fight only against what comes inside the ground; it
    /// never ends by itself.
    Guard(Guard),
    /// Select the driven unit's guns (the original's `MCMD_SELECT`, openparkan
    /// `docs/29-weapons.md`, "The button reaches the selected guns", read): 0 selects
    /// every gun (`CMD_SELECT_ALL_WEAPON`, index −1), *n* toggles the *n*-th
    /// (`CMD_SELECT_WEAPON_n`); the player's fire reaches only the selected guns. Combat
    /// takes it; the unit's orders stay as they are.
    SelectWeapon(u8),
    /// Set the auto-driver level of a unit the player drives (`CMD_JAMES_AUTO_DRIVER`
    /// steps it, openparkan `docs/31-packages.md`, read; [`crate::AutoDriver`]):
    /// Behavior takes it; the unit's orders stay as they are.
    AutoDriver(u8),
}

/// What a guard order watches and how wide.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Guard {
    /// The place or object.
    pub ward: Ward,
    /// The ground's radius (0: the task's own by what it guards; the original's order
    /// parameter, which a script's 0 or −1 leaves to the task).
    pub radius: f32,
}

impl Guard {
    /// Whether its place and radius are finite numbers.
    pub fn finite(&self) -> bool {
        let place = match self.ward {
            Ward::Object(_) => true,
            Ward::Place { at, z } => at.iter().chain(z.iter()).all(|v| v.is_finite()),
        };
        place && self.radius.is_finite()
    }
}

/// A guard's place or object.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub enum Ward {
    /// An object by id: a unit of the guard's clan or a building of any clan.
    Object(u32),
    /// A place, its height as given (`None`: the ground's there).
    Place {
        /// X and Y.
        at: [f32; 2],
        /// Z (a script's place carries one, 0 in most).
        z: Option<f32>,
    },
}

/// What a search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub enum SearchFor {
    /// *Search and capture*: the nearest building of another clan, through its pod.
    Capture,
    /// *Seek and destroy*: the nearest hostile warrior, builder or transport.
    Enemies,
}

/// A building site as a construct order names it: the scheme (a `BuildDat.lst`
/// category, by its index in `BuildCategory::TABLE`), the origin held to
/// [`Site::GRID`] of a unit, and the turn about z in whole [`Site::TURN`] steps (the
/// original's `,` and `.` turn a model by 0.05 rad from 0). The whole site is one word,
/// so an order stays `Copy` and its key lossless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Site {
    /// The category's index in `BuildCategory::TABLE`.
    pub scheme: u8,
    /// The origin's x in [`Site::GRID`] steps (24 bits).
    pub x: u32,
    /// The origin's y in [`Site::GRID`] steps (24 bits).
    pub y: u32,
    /// The turn in [`Site::TURN`] steps, counter-clockwise from +x.
    pub turns: i8,
}

impl Site {
    /// Steps of a unit an origin is held to.
    pub const GRID: f32 = 16.0;
    /// The original's turn of a site per key press, radians (read).
    pub const TURN: f32 = 0.05;
    const COORD_LIMIT: u32 = 1 << 24;

    /// The site of category `scheme` at `at` turned by `angle` radians.
    ///
    /// # Errors
    /// The origin is negative, not finite or beyond the grid, or the angle is not a whole
    /// number of [`Site::TURN`] steps within ±127 of them.
    pub fn new(scheme: u8, at: [f32; 2], angle: f32) -> Result<Self, String> {
        let coord = |v: f32| {
            let steps = libm::roundf(v * Self::GRID);
            match steps.is_finite() && steps >= 0.0 && steps < Self::COORD_LIMIT as f32 {
                true => Ok(steps as u32),
                false => Err(format!("site coordinate {v} is outside 0..{}", Self::COORD_LIMIT as f32 / Self::GRID)),
            }
        };
        let turns = libm::roundf(angle / Self::TURN);
        if !(turns.abs() <= 127.0 && (turns * Self::TURN - angle).abs() < 1e-3) {
            return Err(format!("angle {angle} is not a whole number of the original's 0.05 rad turns (at most 127)"));
        }
        Ok(Self { scheme, x: coord(at[0])?, y: coord(at[1])?, turns: turns as i8 })
    }

    /// The scheme's `BuildDat.lst` category (`None` for an index past the table).
    pub fn category(&self) -> Option<iron3d_formats::registry::BuildCategory> {
        iron3d_formats::registry::BuildCategory::TABLE.get(usize::from(self.scheme)).map(|row| row.0)
    }

    /// The origin, game units.
    pub fn at(&self) -> [f32; 2] {
        [self.x as f32 / Self::GRID, self.y as f32 / Self::GRID]
    }

    /// The turn, radians.
    pub fn angle(&self) -> f32 {
        f32::from(self.turns) * Self::TURN
    }

    /// The site as one word (scheme, turns, x, y: 8, 8, 24 and 24 bits).
    pub fn bits(&self) -> u64 {
        u64::from(self.scheme) << 56 | u64::from(self.turns as u8) << 48 | u64::from(self.x) << 24 | u64::from(self.y)
    }

    /// The site of a word [`Site::bits`] made.
    pub fn from_bits(bits: u64) -> Self {
        let mask = u64::from(Self::COORD_LIMIT - 1);
        Self {
            scheme: (bits >> 56) as u8,
            turns: (bits >> 48) as u8 as i8,
            x: (bits >> 24 & mask) as u32,
            y: (bits & mask) as u32,
        }
    }
}

/// One tick of direct control, quantised so it is exact on every machine and in a
/// command log. Held values (throttle, turn, strafe, target) last until the next pilot
/// command; `aim_mrad`, the triggers, `camouflage` and `turret_lock` act once, in the
/// tick the command applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct PilotInput {
    /// Throttle in 127ths of full speed (forward positive).
    pub throttle: i8,
    /// Turn in 127ths of the turn rate (counter-clockwise positive).
    pub turn: i8,
    /// Sideways in 127ths of the side speed, to the left positive (the original's
    /// `CMD_OBJ_MOVE_LEFT` / `_RIGHT`: the hero's strafe).
    pub strafe: i8,
    /// Turret turn, milliradians (counter-clockwise positive).
    pub aim_mrad: i16,
    /// Fire the selected guns (`CMD_FIRE_SELECTED_CONT`).
    pub fire: bool,
    /// Fire the selected guided guns: those whose round carries frame flag 0x10
    /// (`CMD_FIRE_MISSILE`, the original's `MCMD_MISSILE`, openparkan `docs/29-weapons.md`).
    pub fire_missiles: bool,
    /// Fire every gun, selected or not (`CMD_FIRE_ALL`, `MCMD_FIRE_ALL`).
    pub fire_all: bool,
    /// Switch the detection shield's camouflage on or off (the original's
    /// `CMD_CAMOUFLAGE_WEAR`, openparkan `docs/25-sensors.md`).
    pub camouflage: bool,
    /// Switch the turret lock on or off: whether a driven bot's hull follows its turret
    /// (the original's `MCMD_LOCK`, keypad 5, openparkan `docs/14-controls.md`).
    pub turret_lock: bool,
    /// The player's target (`OriginalObjectId`), which the original hands to the driven
    /// unit's guns (openparkan `docs/25-sensors.md`, "The player's target", read); `None`
    /// leaves the unit's radar target.
    pub target: Option<u32>,
}

impl PilotInput {
    /// The input as one word (the order key; a save's command log keeps it): the target
    /// plus one in its top 30 bits (ids below 2³⁰ − 1, every mission's).
    pub fn bits(&self) -> u64 {
        u64::from(self.throttle as u8)
            | u64::from(self.turn as u8) << 8
            | u64::from(self.aim_mrad as u16) << 16
            | u64::from(self.fire) << 32
            | u64::from(self.camouflage) << 33
            | u64::from(self.target.map_or(0, |t| t.wrapping_add(1)) & 0x3fff_ffff) << 34
    }

    /// The input's second word: the strafe, the missiles' and every gun's triggers and the
    /// turret lock's switch (8, 1, 1 and 1 bits).
    pub fn extra_bits(&self) -> u64 {
        u64::from(self.strafe as u8)
            | u64::from(self.fire_missiles) << 8
            | u64::from(self.fire_all) << 9
            | u64::from(self.turret_lock) << 10
    }

    /// The input of the words [`Self::bits`] and [`Self::extra_bits`] made.
    pub fn from_bits(value: u64, extra: u64) -> Self {
        Self {
            throttle: value as u8 as i8,
            turn: (value >> 8) as u8 as i8,
            strafe: extra as u8 as i8,
            aim_mrad: (value >> 16) as u16 as i16,
            fire: value >> 32 & 1 == 1,
            fire_missiles: extra >> 8 & 1 == 1,
            fire_all: extra >> 9 & 1 == 1,
            camouflage: value >> 33 & 1 == 1,
            turret_lock: extra >> 10 & 1 == 1,
            target: match value >> 34 & 0x3fff_ffff {
                0 => None,
                t => Some(t as u32 - 1),
            },
        }
    }

    /// Whether any trigger is held.
    pub fn fires(&self) -> bool {
        self.fire || self.fire_missiles || self.fire_all
    }
}

/// A unit scheme named in an order: the 64-bit FNV-1a of its normalised name
/// ([`SchemeRef::normalise`]), so the order stays `Copy` and its key does not depend on
/// the order names were seen in; [`SchemeNames`] gives the name back.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Reflect, serde::Serialize, serde::Deserialize,
)]
pub struct SchemeRef(pub u64);

impl SchemeRef {
    /// A scheme path as compared: trimmed, ASCII lower case, `/` as a backslash.
    pub fn normalise(name: &str) -> String {
        name.trim().to_ascii_lowercase().replace('/', "\\")
    }

    /// The reference of a scheme name.
    pub fn of(name: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in Self::normalise(name).bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Self(h)
    }
}

/// The names of the schemes orders refer to (whoever queues a build order names its
/// scheme here; production reads it back).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct SchemeNames(pub std::collections::BTreeMap<u64, String>);

impl SchemeNames {
    /// Records `name` and returns its reference.
    ///
    /// # Errors
    /// Another name already has the same reference (a hash collision).
    pub fn intern(&mut self, name: &str) -> Result<SchemeRef, String> {
        let r = SchemeRef::of(name);
        let normal = SchemeRef::normalise(name);
        match self.0.get(&r.0) {
            Some(known) if *known != normal => Err(format!("schemes {known} and {normal} collide")),
            _ => {
                self.0.insert(r.0, normal);
                Ok(r)
            }
        }
    }

    /// The normalised name of a reference.
    pub fn name(&self, r: SchemeRef) -> Option<&str> {
        self.0.get(&r.0).map(String::as_str)
    }
}

/// The warbot designs of this game by the scheme reference orders build them under:
/// a design accepted in the designer, or a `build_design` file, is built from these
/// bytes (its unit file, `UNITS\*.dat`'s layout), so saves, replays and every peer
/// carry it rather than a file in the data layers.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Designs(pub std::collections::BTreeMap<u64, Vec<u8>>);

impl Designs {
    /// The game path a design is named by: `UNITS\design_<FNV-1a of its bytes>.dat`
    /// (the same bytes, the same name).
    pub fn path_of(bytes: &[u8]) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("UNITS\\design_{h:016x}.dat")
    }

    /// Keeps `bytes` as a design, names it in `names` and returns its reference.
    ///
    /// # Errors
    /// Its name collides with another scheme's ([`SchemeNames::intern`]).
    pub fn add(&mut self, names: &mut SchemeNames, bytes: Vec<u8>) -> Result<SchemeRef, String> {
        let r = names.intern(&Self::path_of(&bytes))?;
        self.0.insert(r.0, bytes);
        Ok(r)
    }

    /// Keeps `bytes` as a design of `world`'s game ([`Designs::add`] on its resources).
    ///
    /// # Errors
    /// Its name collides with another scheme's.
    pub fn keep(world: &mut World, bytes: Vec<u8>) -> Result<SchemeRef, String> {
        world.resource_scope(|world, mut designs: Mut<Designs>| {
            designs.add(&mut world.resource_mut::<SchemeNames>(), bytes)
        })
    }

    /// The unit file of the design named `name`, if it is one.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.0.get(&SchemeRef::of(name).0).map(Vec::as_slice)
    }
}

impl Order {
    /// The key kind of a guard of a place.
    const GUARD_OF_PLACE: u8 = 26;
    /// The key kind of a pilot input (a pilot key of kind 8, without the second word, is
    /// an older file's: [`PilotInput::from_bits`] with 0).
    const PILOT: u8 = 28;

    /// Whether orders of key kind `kind` carry a second word ([`Order::key`]): a guard of a
    /// place and a pilot input. Every writer of a key writes the second word when this
    /// says so, and only then.
    pub fn has_extra(kind: u8) -> bool {
        kind == Self::GUARD_OF_PLACE || kind == Self::PILOT
    }

    /// A total order over orders (kind, then parameters by IEEE bits, then a second word
    /// only [`Order::has_extra`] kinds fill); also what the state hash records of an
    /// order and the save writes of it.
    pub fn key(&self) -> (u8, u64, u64) {
        let none = f32::NAN.to_bits();
        match *self {
            Self::Guard(Guard { ward: Ward::Object(id), radius }) => {
                (25, u64::from(radius.to_bits()) << 32 | u64::from(id), 0)
            }
            Self::Guard(Guard { ward: Ward::Place { at: [x, y], z }, radius }) => (
                Self::GUARD_OF_PLACE,
                u64::from(x.to_bits()) << 32 | u64::from(y.to_bits()),
                u64::from(radius.to_bits()) << 32 | u64::from(z.map_or(none, f32::to_bits)),
            ),
            Self::Stop => (0, 0, 0),
            Self::MoveTo([x, y]) => (1, u64::from(x.to_bits()) << 32 | u64::from(y.to_bits()), 0),
            Self::MoveToObject(id) => (2, u64::from(id), 0),
            Self::FollowPath(p) => (3, u64::from(p as u32), 0),
            Self::Patrol(p) => (4, u64::from(p as u32), 0),
            Self::Attack(id) => (5, u64::from(id), 0),
            Self::Build(s) => (6, s.0, 0),
            Self::Research(n) => (7, u64::from(n), 0),
            Self::Pilot(p) => (Self::PILOT, p.bits(), p.extra_bits()),
            Self::Release => (9, 0, 0),
            Self::Haul(id) => (10, u64::from(id), 0),
            Self::Migrate => (11, 0, 0),
            Self::Refit => (12, 0, 0),
            Self::SearchLodes => (13, 0, 0),
            Self::Construct(site) => (14, site.bits(), 0),
            Self::Upgrade(id) => (15, u64::from(id), 0),
            Self::Batch(s) => (16, s.0, 0),
            Self::StopBuild => (17, 0, 0),
            Self::Capture(id) => (18, u64::from(id), 0),
            Self::Board(id) => (19, u64::from(id), 0),
            Self::Leave => (20, 0, 0),
            Self::StandGround => (21, 0, 0),
            Self::Shutdown => (22, 0, 0),
            Self::Follow(id) => (23, u64::from(id), 0),
            Self::Search(SearchFor::Capture) => (24, 0, 0),
            Self::Search(SearchFor::Enemies) => (24, 1, 0),
            Self::SelectWeapon(n) => (27, u64::from(n), 0),
            Self::AutoDriver(n) => (29, u64::from(n), 0),
        }
    }

    /// The order of a key [`Order::key`] made of a guard (`None` for other kinds).
    pub fn guard_of_key(kind: u8, value: u64, extra: u64) -> Option<Self> {
        let low = |w: u64| f32::from_bits(w as u32);
        let high = |w: u64| f32::from_bits((w >> 32) as u32);
        let ward = match kind {
            25 => Ward::Object(value as u32),
            Self::GUARD_OF_PLACE => {
                Ward::Place { at: [high(value), low(value)], z: Some(low(extra)).filter(|z| !z.is_nan()) }
            }
            _ => return None,
        };
        let radius = if kind == 25 { high(value) } else { high(extra) };
        Some(Self::Guard(Guard { ward, radius }))
    }

    /// Whether Behavior's task steps choose where this order walks (a leg the step sets,
    /// never the order's own target): refit, lode search, construct, upgrade, capture,
    /// board, leave, follow, search and guard.
    pub fn is_task(&self) -> bool {
        matches!(
            self,
            Self::Refit
                | Self::SearchLodes
                | Self::Construct(_)
                | Self::Upgrade(_)
                | Self::Capture(_)
                | Self::Board(_)
                | Self::Leave
                | Self::Follow(_)
                | Self::Search(_)
                | Self::Guard(_)
        )
    }

    /// Whether a unit under this order holds its station against its own wants: standby,
    /// shutdown and the escape (interrupt priority 0 for every reason, read).
    pub fn holds_station(&self) -> bool {
        matches!(self, Self::StandGround | Self::Shutdown | Self::Leave)
    }

    /// Whether Behavior takes this order (production takes its own, combat a weapon
    /// selection).
    pub fn is_behaviors(&self) -> bool {
        !self.is_production() && !matches!(self, Self::SelectWeapon(_))
    }

    /// Whether production (not Behavior) takes this order: build, batch, stop and
    /// research.
    pub fn is_production(&self) -> bool {
        matches!(self, Self::Build(_) | Self::Batch(_) | Self::StopBuild | Self::Research(_))
    }

    /// The scheme a build or batch order names.
    pub fn scheme(&self) -> Option<SchemeRef> {
        match *self {
            Self::Build(s) | Self::Batch(s) => Some(s),
            _ => None,
        }
    }
}

/// An order for some units, applied at the start of tick `tick`.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct SimCommand {
    /// Tick it applies at (a tick already past applies at the next one).
    pub tick: u32,
    /// Units by `OriginalObjectId`.
    pub units: Vec<u32>,
    /// The order.
    pub order: Order,
    /// Queue after the units' current orders (waypoints) instead of replacing them.
    pub queued: bool,
}

impl SimCommand {
    /// The stable application order of commands of one tick.
    pub fn cmp_stable(&self, other: &Self) -> std::cmp::Ordering {
        self.tick
            .cmp(&other.tick)
            .then(self.units.cmp(&other.units))
            .then(self.order.key().cmp(&other.order.key()))
            .then(self.queued.cmp(&other.queued))
    }
}

/// Commands waiting for their tick.
#[derive(Resource, Debug, Clone, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct CommandQueue {
    /// Pending commands (any order; applied sorted).
    pub pending: Vec<SimCommand>,
}

impl CommandQueue {
    /// Queues a command.
    pub fn push(&mut self, command: SimCommand) {
        self.pending.push(command);
    }

    /// Removes and returns the commands due at `tick`, in their stable order.
    pub fn take_due(&mut self, tick: u32) -> Vec<SimCommand> {
        self.take_due_where(tick, |_| true)
    }

    /// Removes and returns the commands due at `tick` whose order passes `pick`, in
    /// their stable order (production takes its orders this way before Behavior).
    pub fn take_due_where(&mut self, tick: u32, pick: impl Fn(&Order) -> bool) -> Vec<SimCommand> {
        let (mut due, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.pending).into_iter().partition(|c| c.tick <= tick && pick(&c.order));
        self.pending = rest;
        due.sort_by(SimCommand::cmp_stable);
        due
    }
}

/// Behavior tells Wizard to forget the wizard path of a unit: its target changed, its
/// global path became invalid, or it was deactivated (`docs/reference/runtime.md` §1).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClearWizardPath(pub Entity);
