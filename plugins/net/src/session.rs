//! The simulation side of a session: ownership changes of players joining and leaving,
//! queued for a tick and applied at the World3D boundary (never inside a receive
//! callback), and the [`SessionLog`] of everything that changed the world (and of the
//! data layers it was played with), which replays a session to the same state.

use crate::schema::{self, Gmsg, WireOrder, WireScheme};
use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{
    DataLayers, DeleteRequest, Designs, GameClock, MissionClans, ObjectHandle, Order, OriginalObjectId, Owner,
    SchemeNames, SchemeRef, SimCommand, World3dPhase,
};
use serde::{Deserialize, Serialize};

/// What happens to a departing player's objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Reflect)]
pub enum LeavePolicy {
    /// Another player of the clan takes them, else the computer plays the clan on.
    #[default]
    Transfer,
    /// They are deleted.
    Delete,
}

/// An ownership change at a tick boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Reflect)]
pub enum OwnershipChange {
    /// A player takes a clan: the clan's objects without a player become its own and
    /// the computer stops playing the clan.
    Join {
        /// Player number.
        player: u16,
        /// Clan.
        clan: u32,
    },
    /// A player's connection dropped: its objects keep their player while its seat
    /// waits for it to rejoin; the computer plays the clan meanwhile unless another
    /// player of it does (a rejoin is a `Join`).
    Away {
        /// Player number.
        player: u16,
        /// Clan.
        clan: u32,
        /// No other player of the clan is left: the computer plays it.
        computer: bool,
    },
    /// A player left: its objects go to `heir` (another player of the clan) or, with
    /// none, to the computer, which plays the clan on; or they are deleted.
    Leave {
        /// Player number.
        player: u16,
        /// Clan.
        clan: u32,
        /// The player who inherits, if any.
        heir: Option<u16>,
        /// What happens to the objects.
        policy: LeavePolicy,
    },
}

/// Changes waiting for their tick.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct NetQueue {
    /// `(tick, change)`, applied at the World3D boundary of that tick, in queue order.
    pub pending: Vec<(u32, OwnershipChange)>,
}

/// One entry of a session log: what changed the world and at which tick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LogEntry {
    /// An ownership change.
    Change {
        /// Tick it applied at.
        tick: u32,
        /// The change.
        change: OwnershipChange,
    },
    /// An accepted order: the GMSG sequence of the order as the host applied it (its
    /// units cut to the sender's).
    Order {
        /// Tick it applied at.
        tick: u32,
        /// Sender.
        player: u16,
        /// The encoded `IRON3D_ORDER` sequence.
        message: Vec<u8>,
    },
}

/// The record of a session (`ron`).
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionLog {
    /// Protocol version that wrote it.
    pub version: u32,
    /// Mission played.
    pub mission: String,
    /// The data layers played with, bottom first (`NAME FINGERPRINT`): a replay needs
    /// the same.
    pub layers: Vec<String>,
    /// Entries in the order they happened.
    pub entries: Vec<LogEntry>,
}

impl SessionLog {
    /// An empty record of `mission` played with `layers`, by this protocol version.
    pub fn new(mission: String, layers: &DataLayers) -> Self {
        let layers = layers.0.iter().map(ToString::to_string).collect();
        Self { version: crate::PROTOCOL_VERSION, mission, layers, entries: Vec::new() }
    }

    /// Records an accepted order.
    pub fn order(&mut self, tick: u32, player: u16, units: &[u32], order: &WireOrder, queued: bool) {
        let message = Gmsg::Order { seq: 0, units: units.to_vec(), order: order.clone(), queued };
        if let Some(bytes) = crate::encoded(&[message]) {
            self.entries.push(LogEntry::Order { tick, player, message: bytes });
        }
    }

    /// The log as RON text.
    ///
    /// # Errors
    /// Serialisation failure.
    pub fn to_ron(&self) -> Result<String, String> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())
    }

    /// A log from RON text.
    ///
    /// # Errors
    /// Malformed text, or a log of another protocol version.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let log: Self = ron::from_str(text).map_err(|e| format!("session log: {e}"))?;
        if log.version != crate::PROTOCOL_VERSION {
            return Err(format!(
                "session log of protocol {}, this build reads {}",
                log.version,
                crate::PROTOCOL_VERSION
            ));
        }
        Ok(log)
    }

    /// Queues the log's changes and orders into a world that has the same mission
    /// loaded from the same data layers and has not yet run the logged ticks.
    ///
    /// # Errors
    /// Other data layers (both lists named), or an order that does not decode, named by
    /// its index.
    pub fn queue_into(&self, world: &mut World) -> Result<(), String> {
        let own = world.get_resource::<DataLayers>().cloned().unwrap_or_default();
        let own: Vec<String> = own.0.iter().map(ToString::to_string).collect();
        if own != self.layers {
            return Err(format!(
                "session log of data layers [{}], this world has [{}]",
                self.layers.join(", "),
                own.join(", ")
            ));
        }
        for (i, entry) in self.entries.iter().enumerate() {
            match entry {
                LogEntry::Change { tick, change } => world.resource_mut::<NetQueue>().pending.push((*tick, *change)),
                LogEntry::Order { tick, message, .. } => {
                    let decoded = schema::decode(message).map_err(|e| format!("entry {i}: {e}"))?;
                    let Some(Gmsg::Order { units, order, queued, .. }) = decoded.into_iter().next() else {
                        return Err(format!("entry {i}: not an IRON3D_ORDER"));
                    };
                    let command =
                        command(world, *tick, units, &order, queued).map_err(|e| format!("entry {i}: {e}"))?;
                    world.resource_mut::<iron3d_core::CommandQueue>().push(command);
                }
            }
        }
        Ok(())
    }
}

/// The reference of a scheme on the wire: a name interned, a design kept.
fn scheme(world: &mut World, s: &WireScheme) -> Result<SchemeRef, String> {
    match s {
        WireScheme::Named(name) => world.resource_mut::<SchemeNames>().intern(name),
        WireScheme::Design(dat) => Designs::keep(world, dat.clone()),
    }
}

/// A wire order as a simulation command at `tick` (a build's scheme is interned).
///
/// # Errors
/// A scheme name the interner refuses.
pub(crate) fn command(
    world: &mut World,
    tick: u32,
    units: Vec<u32>,
    order: &WireOrder,
    queued: bool,
) -> Result<SimCommand, String> {
    let order = match order {
        WireOrder::Plain(o) => *o,
        WireOrder::Build(s) => Order::Build(scheme(world, s)?),
        WireOrder::Batch(s) => Order::Batch(scheme(world, s)?),
    };
    Ok(SimCommand { tick, units, order, queued })
}

/// Installs the change queue and its application at the World3D boundary.
#[derive(Debug, Default)]
pub struct NetSimPlugin;

impl Plugin for NetSimPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NetQueue>()
            .register_type::<NetQueue>()
            .add_systems(FixedUpdate, apply_changes.in_set(World3dPhase::Net));
    }
}

fn apply_changes(
    clock: Res<GameClock>,
    mut queue: ResMut<NetQueue>,
    mut clans: Option<ResMut<MissionClans>>,
    mut owners: Query<(&OriginalObjectId, &ObjectHandle, &mut Owner)>,
    mut deletions: MessageWriter<DeleteRequest>,
    mut log: Option<ResMut<SessionLog>>,
) {
    let (due, rest): (Vec<_>, Vec<_>) =
        std::mem::take(&mut queue.pending).into_iter().partition(|(t, _)| *t <= clock.tick);
    queue.pending = rest;
    for (_, change) in due {
        let (clan, mode) = match change {
            OwnershipChange::Join { player, clan } => {
                let number = u8::try_from(player).ok();
                owners
                    .iter_mut()
                    .filter(|(_, _, o)| o.clan == clan as i32 && o.player.is_none())
                    .for_each(|(_, _, mut o)| o.player = number);
                (clan, 1)
            }
            OwnershipChange::Leave { player, clan, heir, policy } => {
                let mine = |o: &Owner| o.player.map(u16::from) == Some(player);
                let mut moved: Vec<_> = owners.iter_mut().filter(|(_, _, o)| mine(o)).collect();
                moved.sort_unstable_by_key(|(id, _, _)| **id);
                for (_, handle, mut o) in moved {
                    match policy {
                        LeavePolicy::Delete => {
                            deletions.write(DeleteRequest { object: *handle });
                        }
                        LeavePolicy::Transfer => o.player = heir.and_then(|h| u8::try_from(h).ok()),
                    }
                }
                (clan, if heir.is_some() { 1 } else { 2 })
            }
            OwnershipChange::Away { clan, computer, .. } => (clan, if computer { 2 } else { 1 }),
        };
        if let Some(c) = clans.as_mut().and_then(|c| c.clans.iter_mut().find(|c| c.index == clan)) {
            c.mode = mode;
        }
        tracing::info!(target: "netwatch", "tick {}: {change:?}", clock.tick);
        if let Some(log) = log.as_mut() {
            log.entries.push(LogEntry::Change { tick: clock.tick, change });
        }
    }
}
