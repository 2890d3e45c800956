//! Orders and the command path: player input, the network, replays and the headless
//! CLI all queue tick-stamped [`SimCommand`]s; Behavior applies those of a tick at its
//! start, in a stable order that does not depend on how they were queued.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// What a unit is told to do.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect)]
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
        }
    }
}

/// An order for some units, applied at the start of tick `tick`.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct SimCommand {
    /// Tick it applies at (a tick already past applies at the next one).
    pub tick: u32,
    /// Units by `OriginalObjectId`.
    pub units: Vec<u32>,
    /// The order.
    pub order: Order,
}

impl SimCommand {
    /// The stable application order of commands of one tick.
    pub fn cmp_stable(&self, other: &Self) -> std::cmp::Ordering {
        self.tick.cmp(&other.tick).then(self.units.cmp(&other.units)).then(self.order.key().cmp(&other.order.key()))
    }
}

/// Commands waiting for their tick.
#[derive(Resource, Debug, Clone, Default, Reflect)]
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
        let (mut due, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.pending).into_iter().partition(|c| c.tick <= tick);
        self.pending = rest;
        due.sort_by(SimCommand::cmp_stable);
        due
    }
}

/// Behavior tells Wizard to forget the wizard path of a unit: its target changed, its
/// global path became invalid, or it was deactivated (spec `runtime.md` §1).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClearWizardPath(pub Entity);
