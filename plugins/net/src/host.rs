//! The host: accepts players of its data layers (`GMSG_SET_PLAYER_DATA` → `GMSG_CONFIRM_PLAYER_DATA`, or
//! `GMSG_KILL_PLAYER` with the reason), gives each a clan, takes their orders for the
//! next tick (only for their clan's units), applies pauses at a tick boundary, hands a
//! departed player's objects on through the World3D queue, and replicates every
//! simulated object with a checkpoint hash every [`HostSettings::checkpoint_every`]
//! ticks. A client's own clan's objects reach it every tick, the others' less often. The
//! start can be held until [`HostSettings::wait_players`] joined players are ready.
//! It runs [`HostSettings::speed`] ticks per 64 ms of wall time ([`crate::speed`]) and
//! sends each tick's combat and effect events ([`crate::events`]).
//! Logs: `resnet` (transport, packets), `netwatch` (players and objects).

use crate::replicated::{NetAnimation, NetObject, NetPose, NetTilt, NetTurret, replicated_rows, rows_hash, signature};
use crate::schema::{self, Gmsg, SessionPhase};
use crate::sender::{broadcast, send};
use crate::session::{self, LeavePolicy, NetQueue, OwnershipChange, SessionLog};
use crate::state::NetState;
use crate::watcher::{NetPlayer, NetWatcher};
use crate::{HostBound, NetError, PROTOCOL_VERSION, protocol_id};
use bevy_app::{App, FixedUpdate, Last, Plugin, PostUpdate, PreUpdate};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_replicon::prelude::*;
use bevy_replicon::server::server_tick::ServerTick;
use bevy_replicon::shared::backend::connected_client::NetworkId;
use bevy_replicon_renet::RenetServer;
use bevy_replicon_renet::netcode::{NetcodeServerTransport, ServerAuthentication, ServerConfig};
use bevy_state::prelude::*;
use iron3d_control::ControlConfig;
use iron3d_core::{
    CommandQueue, DataLayers, GameClock, MissionClans, ObjectTable, OriginalObjectId, Owner, Pause, PieceAnimation,
    SimObject, SimSystems, SimTransform, TICK_SECONDS, Weapon,
};
use iron3d_mission::MissionObject;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};

/// How the host runs its session.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct HostSettings {
    /// Mission played (sent in `GMSG_MISSION_DATA_PATH`).
    pub mission: String,
    /// Most players (1..=8).
    pub max_players: u8,
    /// Ticks between checkpoints (the replicated hash is sent, every change is sent).
    pub checkpoint_every: u32,
    /// Mutation priority of other clans' moving objects between checkpoints (1: every
    /// tick; 0.0625: every sixteenth tick); a client's own clan's always have 1. See
    /// `bevy_replicon::server::ReplicatePriority`.
    pub moving_priority: f32,
    /// What happens to a departed player's objects.
    pub leave: LeavePolicy,
    /// Malformed packets a client may send before it is disconnected.
    pub max_bad_packets: u32,
    /// UDP port LAN probes are answered on (`None`: no discovery).
    pub discovery_port: Option<u16>,
    /// The clan the host's own player commands (a game that hosts): remote players
    /// take the other playing clans first.
    pub local_clan: Option<u32>,
    /// Joined players who must be ready before the mission clock starts (0: it runs
    /// at once).
    pub wait_players: u8,
    /// Ticks run per 64 ms of wall time (1..=[`crate::speed::MAX_SPEED`]).
    pub speed: u8,
    /// Side of the squares of the events' sight rule (game units; [`crate::events`]).
    pub event_sight: f32,
    /// Seconds of game time a dropped player's seat, number and units wait for it to
    /// rejoin while the computer plays its clan (0: it leaves at once).
    pub rejoin_seconds: u32,
}

impl Default for HostSettings {
    fn default() -> Self {
        Self {
            mission: String::new(),
            max_players: crate::MAX_PLAYERS,
            checkpoint_every: 32,
            moving_priority: 0.0625,
            leave: LeavePolicy::Transfer,
            max_bad_packets: 16,
            local_clan: None,
            wait_players: 0,
            discovery_port: Some(crate::discovery::DISCOVERY_PORT),
            speed: 1,
            event_sight: crate::events::SIGHT,
            rejoin_seconds: DEFAULT_REJOIN_SECONDS,
        }
    }
}

/// The project's default of [`HostSettings::rejoin_seconds`].
pub const DEFAULT_REJOIN_SECONDS: u32 = 60;

/// Per-connection bookkeeping of the host.
#[derive(Component, Debug, Default, Clone, Copy, Reflect)]
#[reflect(Component)]
pub struct HostConnection {
    /// Malformed packets received so far.
    pub bad_packets: u32,
    /// The seat this connection claims back (`IRON3D_SEAT` before its player data).
    pub claim: Option<(u16, u64)>,
    /// The host cut it off (its seat is not kept for a rejoin).
    pub expelled: bool,
}

/// The host's state between frames.
#[derive(Resource, Debug, Default, Clone, Reflect)]
#[reflect(Resource)]
pub struct HostState {
    /// Game tick of the last checkpoint sent.
    pub last_checkpoint: u32,
    /// Whether this frame's replication raised every priority (a checkpoint).
    pub raised: bool,
    /// Departures seen by the transport, handled at the next frame's receive: the
    /// connection, why, and whether its seat waits for a rejoin.
    pub departed: Vec<(Entity, String, bool)>,
    /// The mission clock waits for [`HostSettings::wait_players`] ready players.
    pub held: bool,
    /// Server tick after which the objects' signatures are dropped ([`SIGNED_TICKS`]).
    pub signed_until: Option<u32>,
}

/// Server ticks the objects keep their [`Signature`] after one was created or a client
/// was let in. The signature's mapping (which lets a client that loaded the mission keep
/// its own entity for the object) goes out with the object's first replication to each
/// client; replicon looks at every signed object for every client on every tick, so
/// the signatures are not kept longer.
pub const SIGNED_TICKS: u32 = 2;

/// Signs every replicated object again, for a client let in.
fn sign_all(world: &mut World) {
    let mut q = world.query_filtered::<(Entity, &NetObject), Without<Signature>>();
    let unsigned: Vec<(Entity, u32)> = q.iter(world).map(|(e, o)| (e, o.id)).collect();
    for (e, id) in unsigned {
        world.entity_mut(e).insert(signature(id));
    }
    keep_signatures(world);
}

/// Keeps the signatures for [`SIGNED_TICKS`] from now.
fn keep_signatures(world: &mut World) {
    let until = world.resource::<ServerTick>().get() + SIGNED_TICKS;
    world.resource_mut::<HostState>().signed_until = Some(until);
}

/// Drops the objects' signatures once [`SIGNED_TICKS`] have passed.
fn drop_signatures(world: &mut World) {
    let tick = world.resource::<ServerTick>().get();
    if world.resource::<HostState>().signed_until.is_none_or(|until| tick <= until) {
        return;
    }
    let mut q = world.query_filtered::<Entity, (With<Signature>, With<NetObject>)>();
    let signed: Vec<Entity> = q.iter(world).collect();
    for e in signed {
        world.entity_mut(e).remove::<Signature>();
    }
    world.resource_mut::<HostState>().signed_until = None;
}

/// Opens the UDP socket on `port` (0: any free port) and starts the host's transport.
/// Returns the bound address.
///
/// # Errors
/// The socket or the transport cannot be opened.
pub fn listen(world: &mut World, port: u16, max_players: u8) -> Result<SocketAddr, NetError> {
    let server = RenetServer::new(crate::connection_config(world));
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port)).map_err(NetError::Socket)?;
    let addr = socket.local_addr().map_err(NetError::Socket)?;
    let config = ServerConfig {
        current_time: crate::unix_time(),
        max_clients: usize::from(max_players.clamp(1, crate::MAX_PLAYERS)),
        protocol_id: protocol_id(),
        authentication: ServerAuthentication::Unsecure,
        public_addresses: vec![addr],
    };
    let transport = NetcodeServerTransport::new(config, socket).map_err(|e| NetError::Transport(e.to_string()))?;
    world.insert_resource(server);
    world.insert_resource(transport);
    let wait = world.resource::<HostSettings>().wait_players;
    world.resource_mut::<HostState>().held = wait > 0;
    tracing::info!(target: "resnet", "host listening on {addr} for up to {max_players} players");
    if wait > 0 {
        tracing::info!(target: "netwatch", "the mission clock starts once {wait} joined players are ready");
    }
    Ok(addr)
}

/// Seats the hosting game's own player in the [`NetWatcher`] (host and local flags,
/// the host's clan, always ready), so joined players see who hosts. Returns its number.
pub fn seat_host_player(world: &mut World, name: &str) -> Option<u16> {
    let settings = world.resource::<HostSettings>();
    let (max, clan) = (settings.max_players, settings.local_clan);
    let number = world.resource::<NetWatcher>().free_number(max)?;
    let remote = NetPlayer::remote(0, Entity::PLACEHOLDER, name.into(), Vec::new(), clan);
    world.resource_mut::<NetWatcher>().insert(number, NetPlayer { ready: true, host: true, local: true, ..remote });
    Some(number)
}

/// The host's systems (needs [`crate::NetProtocolPlugin`], [`crate::NetSimPlugin`] and
/// `SimPlugins`; insert [`HostSettings`] and call [`listen`]).
#[derive(Debug, Default)]
pub struct NetHostPlugin;

impl Plugin for NetHostPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HostSettings>()
            .init_resource::<HostState>()
            .init_resource::<NetWatcher>()
            .init_resource::<SessionLog>()
            .init_resource::<crate::transfer::HostTransfers>()
            .init_resource::<crate::events::SessionEnd>()
            .init_resource::<crate::clan_state::SentClanStates>()
            .init_resource::<crate::sync_report::HostSyncState>()
            .init_resource::<crate::sync_report::SyncReports>()
            .init_resource::<crate::chat::Chat>()
            .init_resource::<crate::chat::HostRecentLines>()
            .register_type::<crate::transfer::HostTransfers>()
            .register_type::<HostSettings>()
            .register_type::<HostState>()
            .register_type::<HostConnection>()
            .register_type::<NetWatcher>()
            .add_observer(connected)
            .add_observer(disconnected)
            .add_systems(
                PreUpdate,
                (receive, crate::transfer::send_chunks, crate::chat::send_host_lines)
                    .chain()
                    .after(ServerSystems::Receive)
                    .run_if(in_state(ServerState::Running)),
            )
            .add_systems(
                PostUpdate,
                (publish, crate::clan_state::publish, prioritise, crate::events::gather)
                    .chain()
                    .before(ServerSystems::Send)
                    .run_if(in_state(ServerState::Running).and_then(resource_changed::<GameClock>)),
            )
            .add_systems(PreUpdate, crate::speed::pace.run_if(resource_changed::<HostSettings>))
            .add_systems(
                PostUpdate,
                crate::clan_state::news.before(ServerSystems::Send).run_if(in_state(ServerState::Running)),
            )
            .add_systems(
                PreUpdate,
                (crate::discovery::open_beacon, crate::discovery::answer).chain().run_if(crate::discovery::hosting),
            )
            .add_systems(Last, publish_seats.run_if(resource_changed::<NetWatcher>));
        for set in SimSystems::ORDER {
            app.configure_sets(FixedUpdate, set.run_if(not_held).run_if(crate::events::running));
        }
    }
}

/// The players' seats as `iron3d_core::Seats`, which a save keeps.
fn publish_seats(watcher: Res<NetWatcher>, mut commands: Commands) {
    commands.insert_resource(watcher.seats());
}

fn not_held(state: Option<Res<HostState>>) -> bool {
    state.is_none_or(|s| !s.held)
}

fn connected(add: On<Add, ConnectedClient>, mut commands: Commands) {
    commands.entity(add.entity).insert(HostConnection::default());
}

fn disconnected(remove: On<Remove, ConnectedClient>, conns: Query<&HostConnection>, mut state: ResMut<HostState>) {
    let expelled = conns.get(remove.entity).is_ok_and(|c| c.expelled);
    let why = if expelled { "cut off by the host" } else { "disconnected" };
    state.departed.push((remove.entity, why.into(), !expelled));
}

fn receive(world: &mut World) {
    let departed = std::mem::take(&mut world.resource_mut::<HostState>().departed);
    for (client, why, may_rejoin) in departed {
        depart(world, client, &why, may_rejoin);
    }
    expire_seats(world);
    let incoming: Vec<FromClient<HostBound>> =
        world.resource_mut::<Messages<FromClient<HostBound>>>().drain().collect();
    for m in incoming {
        let Some(client) = m.client_id.entity() else { continue };
        match schema::decode(&m.message.0) {
            Ok(messages) => messages.into_iter().for_each(|g| handle(world, client, g)),
            Err(e) => malformed(world, client, &e.to_string()),
        }
    }
}

fn malformed(world: &mut World, client: Entity, error: &str) {
    let limit = world.resource::<HostSettings>().max_bad_packets;
    let Some(mut conn) = world.get_mut::<HostConnection>(client) else { return };
    conn.bad_packets += 1;
    let count = conn.bad_packets;
    tracing::warn!(target: "resnet", "client {client}: malformed packet dropped ({count}/{limit}): {error}");
    if count >= limit {
        tracing::warn!(target: "resnet", "client {client}: disconnected after {count} malformed packets");
        conn.expelled = true;
        world.write_message(DisconnectRequest { client });
    }
}

pub(crate) fn handle(world: &mut World, client: Entity, message: Gmsg) {
    let player = world.resource::<NetWatcher>().by_client(client).map(|(n, p)| (n, p.clan));
    match (message, player) {
        (Gmsg::SetPlayerData { version, name, data }, None) => admit(world, client, version, name, data),
        (Gmsg::SetPlayerData { .. }, Some((n, _))) => {
            tracing::warn!(target: "resnet", "player {n}: second GMSG_SET_PLAYER_DATA ignored");
        }
        (Gmsg::Seat { player, token }, None) => {
            if let Some(mut conn) = world.get_mut::<HostConnection>(client) {
                conn.claim = Some((player, token));
            }
        }
        (other, None) => {
            tracing::warn!(target: "resnet", "client {client}: {} before GMSG_SET_PLAYER_DATA ignored", schema::name(other.id()));
        }
        (Gmsg::Order { seq, units, order, queued }, Some((n, clan))) => {
            take_order(world, client, n, clan, seq, units, &order, queued);
        }
        (Gmsg::PauseRemotePlayer { paused }, Some((n, _))) => pause(world, n, paused),
        (Gmsg::Ready { ready }, Some((n, _))) => set_ready(world, client, n, ready),
        (Gmsg::GetSavegameFromHost { transfer }, Some(_)) => crate::transfer::start_savegame(world, client, transfer),
        (Gmsg::RemoveResource { transfer, reason }, Some((n, _))) => {
            tracing::warn!(target: "resnet", "player {n} abandoned transfer {transfer}: {reason}");
            world
                .resource_mut::<crate::transfer::HostTransfers>()
                .active
                .retain(|t| !(t.client == client && t.id == transfer));
        }
        (Gmsg::TextForPlayer { clan_only, text, .. }, Some((n, _))) => {
            crate::chat::take(world, client, n, clan_only, text)
        }
        (Gmsg::SyncDigests(digests), Some((n, _))) => {
            if world.resource::<crate::sync_report::HostSyncState>().written.contains_key(&n) {
                tracing::warn!(target: "resnet", "player {n}: a second sync report ignored");
                return;
            }
            let name = world.resource::<NetWatcher>().players.get(&n).map(|p| p.name.clone()).unwrap_or_default();
            let rows = crate::sync_report::host_side(world, n, &name, &digests);
            send(world, &[client], &[Gmsg::SyncRows(rows)]);
        }
        (other, Some((n, _))) => {
            tracing::warn!(target: "resnet", "player {n}: {} is not a client's message; ignored", schema::name(other.id()));
        }
    }
}

fn admit(world: &mut World, client: Entity, version: u32, name: String, data: Vec<u8>) {
    let max = world.resource::<HostSettings>().max_players;
    let own = world.get_resource::<DataLayers>().cloned().unwrap_or_default();
    let refusal = if version != PROTOCOL_VERSION {
        Some(format!("protocol version {version}, the host speaks {PROTOCOL_VERSION}"))
    } else {
        crate::layers::refusal(&own, &data).or_else(|| {
            world
                .resource::<NetWatcher>()
                .free_number(max)
                .is_none()
                .then(|| format!("the session is full ({max} players)"))
        })
    };
    if let Some(reason) = refusal {
        tracing::warn!(target: "resnet", "client {client} '{name}' refused: {reason}");
        send(world, &[client], &[Gmsg::KillPlayer { player: 0, reason }]);
        world.write_message(DisconnectRequest { client });
        return;
    }
    let transport = world.get::<NetworkId>(client).map_or(0, NetworkId::get);
    let (number, clan, token) = match reseat(world, client, transport) {
        Some(seat) => seat,
        None => {
            let Some(number) = world.resource::<NetWatcher>().free_number(max) else { return };
            let clan = clan_for(world, number);
            let player = NetPlayer::remote(transport, client, name.clone(), data, clan);
            let token = player.token;
            world.resource_mut::<NetWatcher>().insert(number, player);
            (number, clan, token)
        }
    };
    let tick = world.resource::<GameClock>().tick;
    if let Some(clan) = clan {
        world.resource_mut::<NetQueue>().pending.push((tick + 1, OwnershipChange::Join { player: number, clan }));
        world.resource_mut::<crate::clan_state::SentClanStates>().resend(clan);
    }
    let wire_clan = clan.unwrap_or(u32::MAX);
    let mission = world.resource::<HostSettings>().mission.clone();
    let phase = phase(world);
    let mut welcome = vec![
        Gmsg::ConfirmPlayerData { player: number, clan: wire_clan },
        Gmsg::Seat { player: number, token },
        Gmsg::MissionDataPath { mission },
        Gmsg::SetTime { tick },
    ];
    if phase != SessionPhase::Lobby {
        welcome.push(Gmsg::SetGameStarted { tick });
    }
    welcome.push(Gmsg::SetState { phase, tick });
    for (n, p) in world.resource::<NetWatcher>().players.iter().filter(|(n, _)| **n != number) {
        let (player, clan, name) = (*n, p.clan.unwrap_or(u32::MAX), p.name.clone());
        welcome.push(Gmsg::CreateRemotePlayer { player, clan, name });
        welcome.push(Gmsg::PlayerState { player, host: p.host, ready: p.ready });
    }
    send(world, &[client], &welcome);
    broadcast(world, &[Gmsg::CreateRemotePlayer { player: number, clan: wire_clan, name }], Some(number));
}

/// A player says it is (or is no longer) ready: everyone is told; a ready client takes
/// the world from now on (it holds the mission) and the outcomes it missed; a held
/// start may begin.
fn set_ready(world: &mut World, client: Entity, player: u16, ready: bool) {
    let mut watcher = world.resource_mut::<NetWatcher>();
    let Some(host) = watcher.players.get_mut(&player).map(|p| {
        p.ready = ready;
        p.host
    }) else {
        return;
    };
    if ready && !world.entity(client).contains::<AuthorizedClient>() {
        tracing::info!(target: "netwatch", "player {player} is ready; replication starts");
        world.entity_mut(client).insert(AuthorizedClient);
        sign_all(world);
        let missed = crate::events::catch_up(world);
        if !missed.is_empty() {
            send(world, &[client], &missed);
        }
    }
    broadcast(world, &[Gmsg::PlayerState { player, host, ready }], None);
    start_when_ready(world);
}

/// Starts a held mission clock once [`HostSettings::wait_players`] joined players are
/// ready, for everyone at the same tick.
fn start_when_ready(world: &mut World) {
    let wanted = world.resource::<HostSettings>().wait_players;
    if !world.resource::<HostState>().held || world.resource::<NetWatcher>().ready() < usize::from(wanted) {
        return;
    }
    world.resource_mut::<HostState>().held = false;
    let tick = world.resource::<GameClock>().tick;
    tracing::info!(target: "netwatch", "{wanted} players ready: the mission clock starts after tick {tick}");
    let running = SessionPhase::Running;
    let start = [Gmsg::SetGameStarted { tick }, Gmsg::SetState { phase: running, tick }, Gmsg::SetTime { tick }];
    broadcast(world, &start, None);
}

/// The clan of joined player `number`: the mission's playing clans in turn (the host's
/// own player's number skipped), the host's own clan last (a third player of a two-clan
/// mission shares a clan); none without mission clans.
fn clan_for(world: &World, number: u16) -> Option<u32> {
    let clans = world.get_resource::<MissionClans>()?;
    let local = world.resource::<HostSettings>().local_clan;
    let mut playing: Vec<u32> = clans.clans.iter().filter(|c| c.plays()).map(|c| c.index).collect();
    playing.sort_by_key(|c| Some(*c) == local);
    let seated = world.resource::<NetWatcher>().players.iter().filter(|(n, p)| p.local && **n < number).count();
    let turn = usize::from(number - 1).saturating_sub(seated);
    (!playing.is_empty()).then(|| playing[turn % playing.len()])
}

fn phase(world: &World) -> SessionPhase {
    if world.resource::<HostState>().held {
        return SessionPhase::Lobby;
    }
    match world.get_resource::<State<Pause>>().map(|p| *p.get()) {
        Some(Pause::Paused) => SessionPhase::Paused,
        _ => SessionPhase::Running,
    }
}

#[expect(clippy::too_many_arguments, reason = "the fields of one order message")]
fn take_order(
    world: &mut World,
    client: Entity,
    player: u16,
    clan: Option<u32>,
    seq: u32,
    units: Vec<u32>,
    order: &schema::WireOrder,
    queued: bool,
) {
    let mine = |world: &World, id: u32| {
        let entity = world.resource::<ObjectTable>().entity_of(id)?;
        let owner = world.get::<Owner>(entity)?;
        (Some(owner.clan) == clan.map(|c| c as i32)).then_some(id)
    };
    let (accepted, refused): (Vec<u32>, Vec<u32>) = units.iter().partition(|id| mine(world, **id).is_some());
    if !refused.is_empty() {
        tracing::warn!(target: "resnet", "player {player}: order {seq} names units {refused:?} not of its clan; those are dropped");
    }
    let tick = world.resource::<GameClock>().tick + 1;
    let command = match accepted.is_empty() {
        true => None,
        false => session::command(world, tick, accepted.clone(), order, queued)
            .map_err(|e| tracing::warn!(target: "resnet", "player {player}: order {seq} refused: {e}"))
            .ok(),
    };
    let ack = match command {
        Some(c) => {
            world.resource_mut::<CommandQueue>().push(c);
            world.resource_mut::<SessionLog>().order(tick, player, &accepted, order, queued);
            Gmsg::OrderAck { seq, tick, accepted: accepted.len() as u16 }
        }
        None => Gmsg::OrderAck { seq, tick: 0, accepted: 0 },
    };
    send(world, &[client], &[ack]);
}

fn pause(world: &mut World, player: u16, paused: bool) {
    if world.get_resource::<State<Pause>>().is_none() {
        return;
    }
    if world.resource::<HostState>().held {
        tracing::warn!(target: "netwatch", "player {player}: no pause before the start; ignored");
        return;
    }
    let tick = world.resource::<GameClock>().tick;
    world.resource_mut::<NextState<Pause>>().set(if paused { Pause::Paused } else { Pause::Running });
    tracing::info!(target: "netwatch", "player {player} {} the game at tick {tick}", if paused { "paused" } else { "resumed" });
    let phase = if paused { SessionPhase::Paused } else { SessionPhase::Running };
    broadcast(world, &[Gmsg::SetState { phase, tick }, Gmsg::SetTime { tick }], None);
}

/// A connection's seat taken back (a claim matching a seat waiting for its player):
/// `(number, clan, token)`.
fn reseat(world: &mut World, client: Entity, transport: u64) -> Option<(u16, Option<u32>, u64)> {
    let (number, token) = world.get::<HostConnection>(client)?.claim?;
    let mut watcher = world.resource_mut::<NetWatcher>();
    let Some(seat) = watcher.players.get_mut(&number).filter(|p| p.away.is_some() && p.token == token) else {
        tracing::warn!(target: "netwatch", "client {client}: claim on seat {number} refused (no such seat waits); a new seat");
        return None;
    };
    (seat.client, seat.transport, seat.away, seat.ready) = (client, transport, None, false);
    tracing::info!(target: "netwatch", "player {number} '{}' rejoined (transport {transport})", seat.name);
    Some((number, seat.clan, token))
}

/// A connection was lost: its seat waits [`HostSettings::rejoin_seconds`] for the
/// player while the computer plays its clan (the units keep their player), or, with
/// none (or a connection the host cut off), the player leaves.
fn depart(world: &mut World, client: Entity, why: &str, may_rejoin: bool) {
    let Some((number, clan)) = world.resource::<NetWatcher>().by_client(client).map(|(n, p)| (n, p.clan)) else {
        return;
    };
    let grace = world.resource::<HostSettings>().rejoin_seconds;
    let tick = world.resource::<GameClock>().tick;
    if let (Some(clan), true) = (clan, grace > 0 && may_rejoin) {
        let until = tick + (grace * 1000).div_ceil(iron3d_core::TICK_MS);
        let mut watcher = world.resource_mut::<NetWatcher>();
        let heir = watcher.co_player(clan, number).is_some();
        if let Some(seat) = watcher.players.get_mut(&number) {
            (seat.away, seat.client, seat.ready) = (Some(until), Entity::PLACEHOLDER, false);
        }
        tracing::info!(target: "netwatch", "player {number} dropped ({why}); the seat waits until tick {until}");
        let away = OwnershipChange::Away { player: number, clan, computer: !heir };
        world.resource_mut::<NetQueue>().pending.push((tick + 1, away));
        broadcast(world, &[Gmsg::PlayerState { player: number, host: false, ready: false }], None);
        return;
    }
    leave(world, number, why);
}

/// Seats whose grace ran out are left.
fn expire_seats(world: &mut World) {
    let tick = world.resource::<GameClock>().tick;
    let expired: Vec<u16> = world
        .resource::<NetWatcher>()
        .players
        .iter()
        .filter(|(_, p)| p.away.is_some_and(|t| t <= tick))
        .map(|(n, _)| *n)
        .collect();
    for number in expired {
        leave(world, number, "did not rejoin in time");
    }
}

/// Player `number` leaves: its objects go to another player of its clan, the computer,
/// or are deleted; everyone is told.
fn leave(world: &mut World, number: u16, why: &str) {
    let Some(clan) = world.resource_mut::<NetWatcher>().remove(number, why).map(|p| p.clan) else { return };
    if let Some(clan) = clan {
        let heir = world.resource::<NetWatcher>().co_player(clan, number);
        let policy = world.resource::<HostSettings>().leave;
        let tick = world.resource::<GameClock>().tick + 1;
        world
            .resource_mut::<NetQueue>()
            .pending
            .push((tick, OwnershipChange::Leave { player: number, clan, heir, policy }));
    }
    broadcast(world, &[Gmsg::KillPlayer { player: number, reason: why.into() }], None);
}

type Unpublished<'a> =
    (Entity, &'a OriginalObjectId, &'a SimObject, &'a SimTransform, (Option<&'a Weapon>, Option<&'a PieceAnimation>));

type Published<'a> = (
    (Entity, &'a SimTransform, Option<&'a Weapon>),
    (&'a mut NetPose, Option<&'a mut NetTilt>, Option<&'a mut NetTurret>),
);

/// After a tick: writes each object's replicated form where it changed (a tilt from the
/// first tick an object stands tilted), marks new objects for replication (signed for
/// [`SIGNED_TICKS`]), and at a checkpoint raises
/// every priority and sends the hash and the time.
fn publish(world: &mut World) {
    drop_signatures(world);
    let tick = world.resource::<GameClock>().tick;
    let settings = world.resource::<HostSettings>().clone();
    let frames = world.get_resource::<ControlConfig>().map_or(0.0, |c| c.piece_frames_per_second * TICK_SECONDS);
    let mut new = world.query_filtered::<Unpublished, (Without<NetPose>, With<Owner>)>();
    let inserts: Vec<_> = new
        .iter(world)
        .map(|(e, id, object, t, (weapon, animation))| {
            let key = world.get::<MissionObject>(e).map(|m| m.key.clone()).unwrap_or_default();
            let animation = animation.filter(|a| !a.bindings.is_empty()).map(|a| NetAnimation::of(a, frames, tick));
            let name = world.get::<Name>(e).map(|n| n.as_str().to_string()).unwrap_or_default();
            let object = NetObject { id: id.0, kind: object.kind.raw(), key, name, animation };
            let tilt = Some(NetTilt::of(t)).filter(|tilt| *tilt != NetTilt::default());
            (e, object, (NetPose::of(t), tilt), weapon.map(NetTurret::of))
        })
        .collect();
    if !inserts.is_empty() {
        keep_signatures(world);
    }
    for (e, object, (p, tilt), turret) in inserts {
        let mut entity = world.entity_mut(e);
        let signed = signature(object.id);
        let priority = ReplicatePriority(settings.moving_priority);
        entity.insert((Replicated, signed, object, p, NetState::default(), priority));
        if let Some(t) = tilt {
            entity.insert(t);
        }
        if let Some(t) = turret {
            entity.insert(t);
        }
    }
    let mut published = world.query::<Published>();
    let mut tilted = Vec::new();
    for ((e, t, weapon), (mut pose, tilt, turret)) in published.iter_mut(world) {
        pose.set_if_neq(NetPose::of(t));
        let now = NetTilt::of(t);
        match tilt {
            Some(mut tilt) => _ = tilt.set_if_neq(now),
            None if now != NetTilt::default() => tilted.push((e, now)),
            None => {}
        }
        if let (Some(w), Some(mut n)) = (weapon, turret) {
            n.set_if_neq(NetTurret::of(w));
        }
    }
    for (e, tilt) in tilted {
        world.entity_mut(e).insert(tilt);
    }
    crate::state::publish(world);
    // Cycling pieces follow their phase and rate on the clients: sent again only when
    // they stray.
    let mut animated = world.query_filtered::<(&PieceAnimation, &mut NetObject), Changed<PieceAnimation>>();
    for (animation, mut object) in animated.iter_mut(world) {
        if object.animation.as_ref().is_some_and(|net| !net.follows(animation, frames, tick)) {
            object.animation = Some(NetAnimation::of(animation, frames, tick));
        }
    }
    let checkpoint = tick >= world.resource::<HostState>().last_checkpoint + settings.checkpoint_every;
    let raised = world.resource::<HostState>().raised;
    if checkpoint != raised {
        let priority = if checkpoint { f32::MAX } else { settings.moving_priority };
        let mut q = world.query::<&mut ReplicatePriority>();
        q.iter_mut(world).for_each(|mut p| p.0 = priority);
        world.resource_mut::<HostState>().raised = checkpoint;
    }
    if checkpoint {
        let rows = replicated_rows(world);
        let hash = rows_hash(&rows);
        let replicated = world.resource::<ServerTick>().get();
        world.resource_mut::<crate::sync_report::HostSyncState>().keep(replicated, tick, hash, rows);
        world.resource_mut::<HostState>().last_checkpoint = tick;
        broadcast(world, &[Gmsg::NewGameTick { tick, replicated, hash }], None);
        broadcast(world, &[Gmsg::SetTime { tick }], None);
    }
}

/// Each client's own clan's objects: every change every tick (priority 1 in its
/// `PriorityMap`); the others' wait on [`HostSettings::moving_priority`].
fn prioritise(
    watcher: Res<NetWatcher>,
    mut clients: Query<(Entity, &mut PriorityMap, Ref<AuthorizedClient>)>,
    objects: Query<(Entity, Ref<Owner>), With<NetState>>,
) {
    for (client, mut map, authorized) in &mut clients {
        let Some(clan) = watcher.by_client(client).and_then(|(_, p)| p.clan) else { continue };
        for (e, owner) in objects.iter().filter(|(_, o)| authorized.is_added() || o.is_changed()) {
            if owner.clan == clan as i32 {
                map.insert(e, 1.0);
            } else {
                map.remove(&e);
            }
        }
    }
}
