//! The World3D message queue vocabulary: message kinds carrying the engine's `GMSG_*`
//! ids (`docs/reference/runtime.md` §11.2), each stamped with tick, queue time and the phase that
//! posted it, and the deferred deletion request any system or observer may send.

use crate::clock::GameClock;
use crate::ids::{ObjectHandle, OriginalObjectId};
use bevy_ecs::prelude::*;

/// Engine message ids (`docs/reference/runtime.md` §11.2, confirmed).
pub mod gmsg {
    /// `GMSG_NEW_GAME_TICK`.
    pub const NEW_GAME_TICK: u32 = 0x01;
    /// `GMSG_INIT`.
    pub const INIT: u32 = 0x04;
    /// `GMSG_KILL_GAMEOBJECT`.
    pub const KILL_GAMEOBJECT: u32 = 0x16;
    /// `GMSG_COLLISION_DETECTED` (local queue).
    pub const COLLISION_DETECTED: u32 = 0x1B;
    /// `GMSG_INVALID`.
    pub const INVALID: u32 = 0xFFFF_FFFF;
}

/// A simulated object named in a message: its handle and its mission id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectRef {
    /// Mission id (the stable key).
    pub id: OriginalObjectId,
    /// World3D handle at the time of the message.
    pub handle: ObjectHandle,
}

/// Where a message was posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DispatchPhase {
    /// Mission registration (before the first tick).
    Registration,
    /// The clock and command step of a tick.
    Input,
    /// SuperAI (clan scripts).
    SuperAi,
    /// Production and research (the project's own rules).
    Production,
    /// Behavior.
    Behavior,
    /// Wizard.
    Wizard,
    /// Control, after the narrow phase.
    Control,
    /// The World3D boundary (deferred operations).
    World3d,
}

/// Why Behavior refused or stopped a movement (`docs/reference/runtime.md` §1: reported, never
/// fixed by teleporting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// (1) No system areal map is published.
    NoSystemArealMap,
    /// (2) No terrain interface is published.
    NoTerrain,
    /// (3) The object's behaviour has no areal map to work on (the map has no areals).
    NoBehaviourArealMap,
    /// (4) The target cannot be reached from the object's area (no route, or the
    /// target lies outside every areal).
    NonReachableArea,
    /// (5) The object stands outside every walkable areal and was asked to move.
    LeavingNonWalkable,
    /// (6) The path generator would cycle forever (a route revisiting an areal, or a
    /// path whose legs make no progress).
    PathCycle,
}

impl DiagnosticKind {
    /// Stable snake-case name (logs, JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::NoSystemArealMap => "no_system_areal_map",
            Self::NoTerrain => "no_terrain",
            Self::NoBehaviourArealMap => "no_behaviour_areal_map",
            Self::NonReachableArea => "non_reachable_area",
            Self::LeavingNonWalkable => "leaving_non_walkable",
            Self::PathCycle => "path_cycle",
        }
    }
}

/// The line the original shows when no landing place is free for the hero (6211): the
/// detail of the `Rejected` event of his leaving.
pub const RISK_AREA: &str = "Risk area! Landing impossible.";

/// What production, research or haulage reports (the project's own events).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProductionEvent {
    /// A robot was built: ids `[producer, new object]`, detail the scheme.
    Produced,
    /// A research node completed: ids `[research building]`, detail the clan and node.
    Researched,
    /// An order or a queued job was refused or failed (nothing spawned, costs
    /// refunded): ids the building, detail the reason; a refused haul order: ids the
    /// transport and the mine named.
    Rejected,
    /// A transport robot left a mine loaded: ids `[transport, mine]`, detail `ore=N`
    /// (what it loaded there).
    Loaded,
    /// A transport robot left a store it unloaded into: ids `[transport, store]`, detail
    /// `ore=N` (what it unloaded there).
    Unloaded,
    /// A builder's search found a mineral lode, for every clan: ids `[builder]`, detail
    /// `lode=N` (its index among the mission's lodes).
    LodeFound,
    /// A building a builder put up stands finished (its construction sphere ended): ids
    /// `[builder, building]`, detail its scheme.
    Constructed,
    /// An upgrade's new building stands finished: ids `[builder, new building]`, detail
    /// `from=OLD` and its scheme.
    Upgraded,
    /// An object changed clan by capture: ids `[object, capturer]`, detail `from=OLD
    /// to=NEW` (the clans).
    Captured,
    /// The hero boarded a bot: ids `[hero, bot]`.
    Boarded,
    /// The hero left the bot he was aboard: ids `[hero, bot]`.
    Left,
    /// A building's control pod fired for an object of its clan (after a capture too,
    /// the original's same-clan callback): ids `[building, object]`.
    Opened,
}

impl ProductionEvent {
    /// Lower-case name (JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Produced => "produced",
            Self::Researched => "researched",
            Self::Rejected => "rejected",
            Self::Loaded => "loaded",
            Self::Unloaded => "unloaded",
            Self::LodeFound => "lode_found",
            Self::Constructed => "constructed",
            Self::Upgraded => "upgraded",
            Self::Captured => "captured",
            Self::Boarded => "boarded",
            Self::Left => "left",
            Self::Opened => "opened",
        }
    }
}

/// What a queued message says.
#[derive(Debug, Clone, PartialEq)]
pub enum GameMessageKind {
    /// A new tick started.
    NewGameTick,
    /// An object joined the world.
    Init(ObjectRef),
    /// An object was deleted (announced after the deletion was applied).
    KillGameObject(ObjectRef),
    /// A new contact between two objects (the lower id first), posted after the
    /// narrow phase.
    CollisionDetected(ObjectRef, ObjectRef),
    /// A unit reached the end of its order's path (the project's own event).
    Arrived(ObjectRef),
    /// A Behavior diagnostic (the project's own event), with the object's areal.
    Diagnostic {
        /// The object.
        object: ObjectRef,
        /// Its areal, when it stands in one.
        areal: Option<u32>,
        /// The condition.
        kind: DiagnosticKind,
        /// Human-readable detail.
        detail: String,
    },
    /// A clan script reported something (a function the VM does not implement, a node
    /// that failed, a located package error, an unhandled host command): the project's
    /// own event.
    Script {
        /// Clan index.
        clan: u32,
        /// Script bundle (first resource of the clan record).
        bundle: String,
        /// The handler's name (empty for package errors).
        handler: String,
        /// The node's index inside the handler.
        node: Option<u32>,
        /// The function the node calls (`head0`), when it is a call.
        function: Option<u32>,
        /// What happened.
        detail: String,
    },
    /// A weapon fired (the project's own event; presentation plays its effect and sound).
    Fired {
        /// The shooter.
        shooter: ObjectRef,
        /// Its target.
        target: ObjectRef,
        /// Weapon kind (index in the combat rules' weapon table).
        weapon: u16,
    },
    /// An object took damage (the project's own event).
    Damaged {
        /// The object hit.
        target: ObjectRef,
        /// Who fired (`None` once the shooter is gone).
        attacker: Option<ObjectRef>,
        /// The node of its body struck.
        node: u16,
        /// Life the node lost (after armour).
        amount: f32,
        /// The object's life left.
        hp: f32,
    },
    /// A node of an object's body was destroyed (with every node below it) and the
    /// object lives on.
    PartDestroyed {
        /// The object.
        object: ObjectRef,
        /// The node destroyed.
        node: u16,
        /// Who fired the hit.
        by: Option<ObjectRef>,
    },
    /// An object was destroyed (the project's own event; its deletion is requested
    /// and applied at the World3D boundary). Presentation shows the explosion.
    Destroyed {
        /// The object.
        object: ObjectRef,
        /// Who fired the last hit.
        by: Option<ObjectRef>,
        /// Where (game units).
        position: [f32; 3],
    },
    /// A clan script raised a `messages.cfg` message (function 30, `MESSAGE_INFO`).
    Message {
        /// The clan whose script raised it (any clan's message reaches the player).
        clan: u32,
        /// The message's `message_index` id.
        id: u32,
    },
    /// A clan script changed an objective (function 30, `OBJECTIVE_COMPLETE`,
    /// `OBJECTIVE_FAILED`, `OBJECTIVE_PROGRESS`).
    Objective {
        /// The clan whose script changed it.
        clan: u32,
        /// The objective's index (its position in `mission.cfg`'s combined list).
        id: u32,
        /// What changed.
        change: crate::goals::ObjectiveChange,
    },
    /// A clan's mission outcome was recorded (host callback or the project's rules).
    Outcome {
        /// Clan index.
        clan: u32,
        /// The outcome.
        outcome: crate::clans::Outcome,
    },
    /// Production, research or haulage reports something (the project's own event).
    Production {
        /// What happened.
        event: ProductionEvent,
        /// Objects involved (`OriginalObjectId`).
        ids: Vec<u32>,
        /// Scheme, node or reason.
        detail: String,
    },
    /// A setting of the game's configuration that the project does not apply (the
    /// project's own event, posted once when the game starts).
    Unsupported {
        /// The file (`Behavior.ini`).
        file: String,
        /// The key.
        key: String,
        /// Why it has no effect.
        detail: String,
    },
}

impl GameMessageKind {
    /// The engine's `GMSG_*` id, or `None` for the project's own events.
    pub fn gmsg_id(&self) -> Option<u32> {
        match self {
            Self::NewGameTick => Some(gmsg::NEW_GAME_TICK),
            Self::Init(_) => Some(gmsg::INIT),
            Self::KillGameObject(_) => Some(gmsg::KILL_GAMEOBJECT),
            Self::CollisionDetected(..) => Some(gmsg::COLLISION_DETECTED),
            Self::Arrived(_)
            | Self::Diagnostic { .. }
            | Self::Script { .. }
            | Self::Message { .. }
            | Self::Objective { .. }
            | Self::Outcome { .. }
            | Self::Fired { .. }
            | Self::Damaged { .. }
            | Self::Destroyed { .. }
            | Self::PartDestroyed { .. }
            | Self::Production { .. }
            | Self::Unsupported { .. } => None,
        }
    }
}

/// One message of the World3D queue.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct GameMessage {
    /// Tick it was posted in.
    pub tick: u32,
    /// Queue time (ms) it was posted at.
    pub time_ms: u32,
    /// Phase that posted it.
    pub phase: DispatchPhase,
    /// Content.
    pub kind: GameMessageKind,
}

impl GameMessage {
    /// A message stamped with the clock's tick and time.
    pub fn new(clock: &GameClock, phase: DispatchPhase, kind: GameMessageKind) -> Self {
        Self { tick: clock.tick, time_ms: clock.time_ms, phase, kind }
    }
}

/// Asks World3D to delete an object. Send it from anywhere (a system, an observer, a
/// collision callback); the deletion is applied only at the `SimSystems::World3d`
/// boundary, then announced with [`GameMessageKind::KillGameObject`].
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeleteRequest {
    /// The object.
    pub object: ObjectHandle,
}

/// Triggered on an object's entity for each new contact, after the narrow phase (the
/// collision callback). Observers may request deletions; none is applied before the
/// World3D boundary.
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collided {
    /// The object touched.
    pub entity: Entity,
    /// The other object.
    pub other: Entity,
}
