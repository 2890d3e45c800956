//! Netcode: a server-authoritative session over `bevy_replicon` and renet (UDP). The
//! host runs `SimPlugins`; clients send orders as `GMSG_*` sequences ([`schema`]); the
//! host validates them (a player orders only its clan's units), stamps them for the
//! next tick and replicates every simulated object quantised ([`NetPose`] and company). At
//! checkpoints the host sends the hash of what it replicated; each client compares it
//! with the hash of what it holds.
//!
//! * [`NetProtocolPlugin`]: what host and clients must register identically.
//! * [`NetHostPlugin`] + [`listen`]: the host (dedicated server or the game's host).
//! * [`NetClientPlugin`] + [`connect`]: a client (the game joining, or a bot).
//! * [`NetGamePlugin`]: the game hosting or joining (the menu, `--host`, `--join`).
//! * Mirrors move smoothly between their sparse updates ([`NetMotion`]).
//! * Combat, effects and outcomes reach clients as per-tick event batches ([`events`]).
//! * [`NetSimPlugin`]: the ownership changes of joins and departures, applied at the
//!   World3D boundary, and the [`SessionLog`] that replays a session.
//!
//! The protocol id of the UDP transport comes from the original's application GUID;
//! [`PROTOCOL_VERSION`] is checked in `GMSG_SET_PLAYER_DATA`, so a client of another
//! version gets a message saying so instead of silence; so are the client's data layers
//! ([`layers`]): a client playing other data than the host's is refused, with both
//! lists. DirectPlay wire compatibility is not claimed.

mod apps;
pub mod bots;
pub mod chat;
pub mod clan_state;
mod client;
pub mod discovery;
pub mod events;
pub mod fuzzing;
mod game;
mod host;
pub mod layers;
mod replicated;
pub mod schema;
mod sender;
mod session;
mod smooth;
pub mod speed;
mod state;
pub mod sync_report;
pub mod transfer;
mod watcher;

pub use apps::{Clock, client_app, host_app};
pub use client::{
    Checkpoints, ClientSession, Mirrors, NetClientPlugin, OutgoingOrders, PlayerRecord, connect, disconnect, rejoin,
    wire,
};
pub use events::{EventCounts, NetShell, SessionEnd};
pub use game::{NetGamePlugin, NetRole, NetStatus, rejoin_game};
pub use host::{
    DEFAULT_REJOIN_SECONDS, HostConnection, HostSettings, HostState, NetHostPlugin, SIGNED_TICKS, listen,
    seat_host_player,
};
pub use replicated::{
    BLEND_DRIFT, BLEND_STEPS, DuplicateMirror, HEADING_STEPS, NetAnimation, NetBlend, NetObject, NetPose, NetTilt,
    NetTurret, POSITION_STEPS, ReplicatedRow, replicated_hash, replicated_rows,
};
pub use session::{LeavePolicy, LogEntry, NetQueue, NetSimPlugin, OwnershipChange, SessionLog};
pub use smooth::NetMotion;
pub use state::NetState;
pub use watcher::{NetPlayer, NetWatcher};

use bevy_app::{App, Plugin, PluginGroup};
use bevy_ecs::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RepliconRenetPlugins;
use serde::{Deserialize, Serialize};

/// The original's application GUID (`docs/reference/runtime.md` §11.1).
pub const APPLICATION_GUID: &str = "{3C1D1F01-A870-11D1-8400-000021B14415}";

/// The project's protocol version: raised whenever the schema, the meaning of a field
/// or the replicated components change (3: `GMSG_SET_PLAYER_DATA`'s data is the client's
/// layer list; session logs record the layers; 4: `IRON3D_EVENTS`, turret headings, clan
/// state and news, seats, sync reports, chat to a clan, the `Away` ownership change;
/// 5: `NetAnimation`; 6: the owner and hit points in one component, the piece animation
/// in the object's, a tilt only once an object stands tilted; 7: the migrate order, animals' state in the
/// state hash; 8: the declared replicated components in `NetState`, sync rows carrying it,
/// the refit order; 9: designs on the wire, the batch and stop orders; 10: a producer's
/// batch in the clan state; 11: the capture, board, leave, stand ground, shutdown and follow
/// orders, who is aboard a bot; 12: the guard order; 13: clan news of lodes, buildings
/// raised and upgraded, captures, boarding, leaving and a pod's opening; 14: the pilot order's target; 15: the weapon selection
/// order, the pilot's strafe and its missiles' and every gun's triggers; 16: the
/// auto-driver order and each unit's level, replicated; 17: an object's name as the host
/// named it, in `NetObject` and the sync rows; 18: the pilot's turret lock switch).
pub const PROTOCOL_VERSION: u32 = 18;

/// Default UDP port.
pub const DEFAULT_PORT: u16 = 5_150;

/// Most players in a session.
pub const MAX_PLAYERS: u8 = 8;

/// The transport's protocol id: the GUID's first 64 bits (`3C1D1F01-A870-11D1`), so
/// only this game's packets are accepted.
pub const fn protocol_id() -> u64 {
    0x3C1D_1F01_A870_11D1
}

/// A client's sequences for the host (reliable, ordered).
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct HostBound(pub Vec<u8>);

/// The host's reliable, ordered sequences for a client.
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ClientBound(pub Vec<u8>);

/// The host's unreliable sequences (checkpoints).
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ClientBoundUnreliable(pub Vec<u8>);

/// Registers replicon, renet and everything host and clients exchange, in one order.
#[derive(Debug, Default)]
pub struct NetProtocolPlugin;

impl Plugin for NetProtocolPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            RepliconPlugins
                .set(RepliconSharedPlugin { auth_method: AuthMethod::Custom })
                .set(ServerPlugin { track_mutate_messages: true, ..ServerPlugin::default() }),
            RepliconRenetPlugins,
        ))
        .replicate::<NetObject>()
        .replicate::<NetPose>()
        .replicate::<NetState>()
        .replicate::<NetTilt>()
        .replicate::<NetTurret>()
        .add_client_message::<HostBound>(Channel::Ordered)
        .add_server_message::<ClientBound>(Channel::Ordered)
        .add_server_message::<ClientBoundUnreliable>(Channel::Unreliable)
        .make_message_independent::<ClientBound>()
        .make_message_independent::<ClientBoundUnreliable>()
        .register_type::<NetObject>()
        .register_type::<NetPose>()
        .register_type::<NetState>()
        .register_type::<NetTilt>()
        .register_type::<NetTurret>()
        .register_type::<DuplicateMirror>()
        .register_type::<EventCounts>()
        .register_type::<SessionEnd>()
        .register_type::<NetShell>()
        .register_type::<NetMotion>();
    }
}

/// Why a session could not start.
#[derive(Debug)]
pub enum NetError {
    /// The socket could not be opened.
    Socket(std::io::Error),
    /// The transport refused its configuration.
    Transport(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Socket(e) => write!(f, "opening the UDP socket: {e}"),
            Self::Transport(e) => write!(f, "starting the transport: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// The renet connection both sides open: replicon's channels (registered identically
/// on both by [`NetProtocolPlugin`]).
pub(crate) fn connection_config(world: &World) -> bevy_replicon_renet::renet::ConnectionConfig {
    use bevy_replicon_renet::RenetChannelsExt;
    let channels = world.resource::<RepliconChannels>();
    bevy_replicon_renet::renet::ConnectionConfig {
        server_channels_config: channels.server_configs(),
        client_channels_config: channels.client_configs(),
        ..Default::default()
    }
}

/// Wall-clock time since the Unix epoch (netcode's connection clock).
pub(crate) fn unix_time() -> std::time::Duration {
    std::time::SystemTime::now().duration_since(std::time::SystemTime::UNIX_EPOCH).unwrap_or_default()
}

/// Logs to stderr for the headless tools (the dedicated server, bots): `RUST_LOG`
/// filters (default: `info`, the transport crates at `warn`).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new("info,bevy_replicon=warn,renet=warn,renet_netcode=warn,renetcode=warn")
    });
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false).try_init();
}

/// Encodes and logs a failure (the host's own messages always fit; a defect is
/// reported, never sent cut short).
pub(crate) fn encoded(messages: &[schema::Gmsg]) -> Option<Vec<u8>> {
    schema::encode(messages).map_err(|e| tracing::error!(target: "resnet", "not sent: {e}")).ok()
}

#[cfg(test)]
mod tests;
