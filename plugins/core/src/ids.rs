//! Object identity: the mission's [`OriginalObjectId`] (the key of every stable order),
//! World3D's generational [`ObjectHandle`], what an object is and who owns it.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// The identity of an object from the mission file (scripts, network, saves);
/// separate from `Entity` and the key of every stable ordering.
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflect, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct OriginalObjectId(pub u32);

/// A World3D object handle: a slot index and the generation the slot had when the
/// object got it. A handle of a deleted object resolves to nothing, even after its
/// slot is reused.
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflect, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct ObjectHandle {
    /// Slot in the object table.
    pub index: u32,
    /// Generation of the slot.
    pub generation: u32,
}

/// What a simulated object is (from the TMA `raw_kind`, `docs/reference/world.md` §1.5, inferred).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect, serde::Serialize, serde::Deserialize)]
pub enum ObjectKind {
    /// A building (static obstacle with a footprint).
    Building,
    /// A warbot: the only kind that moves.
    Unit,
    /// A tree.
    Tree,
    /// A stone.
    Stone,
    /// Any other raw kind, kept.
    Other(u32),
}

impl ObjectKind {
    /// The kind of a TMA `raw_kind` word.
    pub fn from_raw(raw: u32) -> Self {
        match raw {
            0 => Self::Building,
            1 => Self::Unit,
            2 => Self::Tree,
            3 => Self::Stone,
            other => Self::Other(other),
        }
    }

    /// The TMA `raw_kind` word of this kind.
    pub fn raw(self) -> u32 {
        match self {
            Self::Building => 0,
            Self::Unit => 1,
            Self::Tree => 2,
            Self::Stone => 3,
            Self::Other(raw) => raw,
        }
    }

    /// Whether objects of this kind take orders and move.
    pub fn movable(self) -> bool {
        self == Self::Unit
    }
}

/// Marks a registered mission object as part of the simulation (inserted at
/// registration, so no system ever sees a pending object).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct SimObject {
    /// What it is.
    pub kind: ObjectKind,
}

/// Marks an object that takes orders and moves (a [`ObjectKind::Unit`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Movable;

/// An object's logical id: the word after the clan index of its `data.tma` record
/// (gameplay.md §13; buildings and scenery carry `CLASS_BUILDING`, `0x80000000`). The
/// clan scripts name objects by it (functions 15, 32, 52, ...). The mission load gives
/// it to every placed object; a robot built at run time gets its `OriginalObjectId`
/// (the project's rule: the original's numbering of built objects is not read).
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflect, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct LogicalId(pub u32);

/// Ownership: the clan (SuperAI slot) and, when a player controls it, the player.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Owner {
    /// Clan index (0 is the environment).
    pub clan: i32,
    /// Player number, when a player owns the clan.
    pub player: Option<u8>,
}
