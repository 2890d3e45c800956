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
}

/// One tick of direct control, quantised so it is exact on every machine and in a
/// command log. Held values last until the next pilot command; `aim_mrad`, `fire` and
/// `camouflage` act once, in the tick the command applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct PilotInput {
    /// Throttle in 127ths of full speed (forward positive).
    pub throttle: i8,
    /// Turn in 127ths of the turn rate (counter-clockwise positive).
    pub turn: i8,
    /// Turret turn, milliradians (counter-clockwise positive).
    pub aim_mrad: i16,
    /// Fire the weapon.
    pub fire: bool,
    /// Switch the detection shield's camouflage on or off (the original's
    /// `CMD_CAMOUFLAGE_WEAR`, openparkan `docs/25-sensors.md`).
    pub camouflage: bool,
}

impl PilotInput {
    /// The input as one word (the order key).
    pub fn bits(&self) -> u64 {
        u64::from(self.throttle as u8)
            | u64::from(self.turn as u8) << 8
            | u64::from(self.aim_mrad as u16) << 16
            | u64::from(self.fire) << 32
            | u64::from(self.camouflage) << 33
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

impl Order {
    /// A total order over orders (kind, then parameters by IEEE bits); also what the
    /// state hash records of an order.
    pub fn key(&self) -> (u8, u64) {
        match *self {
            Self::Stop => (0, 0),
            Self::MoveTo([x, y]) => (1, u64::from(x.to_bits()) << 32 | u64::from(y.to_bits())),
            Self::MoveToObject(id) => (2, u64::from(id)),
            Self::FollowPath(p) => (3, u64::from(p as u32)),
            Self::Patrol(p) => (4, u64::from(p as u32)),
            Self::Attack(id) => (5, u64::from(id)),
            Self::Build(s) => (6, s.0),
            Self::Research(n) => (7, u64::from(n)),
            Self::Pilot(p) => (8, p.bits()),
            Self::Release => (9, 0),
            Self::Haul(id) => (10, u64::from(id)),
            Self::Migrate => (11, 0),
            Self::Refit => (12, 0),
            Self::SearchLodes => (13, 0),
        }
    }

    /// Whether production (not Behavior) takes this order: build and research.
    pub fn is_production(&self) -> bool {
        matches!(self, Self::Build(_) | Self::Research(_))
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
