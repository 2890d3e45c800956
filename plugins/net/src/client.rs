//! A client: introduces itself (`GMSG_SET_PLAYER_DATA`), learns its player number,
//! clan and mission, turns every replicated object into a mirror (once per id: a
//! duplicate create is ignored), keeps the mirrors' simulation components in step
//! with what the host replicates (the declared ones through [`NetState`]), sends orders, and compares the host's checkpoint
//! hashes with the hash of what it holds at the same replication tick. The host's
//! `SYSMSG_SET_TIME` and event batches set the game clock at the next tick boundary;
//! the batches' events play as the host's ([`crate::events`]).

use crate::chat::{Chat, ChatLine};
use crate::clan_state::ClanView;
use crate::replicated::{
    DuplicateMirror, NetObject, NetPose, NetTilt, NetTurret, ReplicatedRow, replicated_hash, replicated_rows,
};
use crate::schema::{self, Gmsg, SessionPhase, WireOrder, WireScheme};
use crate::state::NetState;
use crate::sync_report::{HostRows, OwnCase, SyncReports};
use crate::{ClientBound, ClientBoundUnreliable, HostBound, NetError, PROTOCOL_VERSION, encoded, protocol_id};
use bevy_app::{App, FixedUpdate, Plugin, PostUpdate, PreUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_reflect::Reflect;
use bevy_replicon::client::ServerUpdateTick;
use bevy_replicon::client::server_mutate_ticks::ServerMutateTicks;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use bevy_state::prelude::*;
use iron3d_core::{
    GameClock, GameMessage, ObjectKind, Order, OriginalObjectId, Owner, PieceAnimation, PropertyBag, SimObject,
    SimState, SimSystems, SimTransform, TICK_MS, Weapon,
};
use iron3d_mission::{LoadedMission, ObjectExtras, PlacedRecord, PreparedObject, spawn_object_on};
use std::collections::{BTreeMap, VecDeque};
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering};

/// What the client knows of its session.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct ClientSession {
    /// Name sent to the host.
    pub name: String,
    /// Player data sent to the host: the client's data layers ([`crate::layers`]; empty
    /// for a client that reads no game data).
    pub data: Vec<u8>,
    /// Protocol version announced ([`PROTOCOL_VERSION`]).
    pub version: u32,
    /// Say ready (take the world) as soon as admitted; a game that loads the mission
    /// first clears it and says ready once the mission is in the world.
    pub ready_when_admitted: bool,
    /// Player number the host gave.
    pub player: Option<u16>,
    /// Clan commanded (`None`: not yet known, or an observer).
    pub clan: Option<u32>,
    /// Mission of the session.
    pub mission: Option<String>,
    /// Session phase and the tick it applies from.
    pub phase: Option<(u8, u32)>,
    /// The session's players by number, this client's own among them (`local`).
    pub players: BTreeMap<u16, PlayerRecord>,
    /// The host's time (`SYSMSG_SET_TIME`) waiting for the next tick boundary.
    pub set_time: Option<u32>,
    /// Why the host refused or dropped this client.
    pub refused: Option<String>,
    /// Orders the host accepted (for at least one unit).
    pub orders_acked: u32,
    /// Orders the host refused whole.
    pub orders_refused: u32,
    /// Objects the host announced changing owner.
    pub owner_changes: u32,
    /// First and last game tick heard from the host (checkpoints, state changes).
    pub first_tick: Option<u32>,
    /// The last of them.
    pub last_tick: u32,
    /// Chat received: (sender, text).
    pub texts: Vec<(u16, String)>,
    /// The seat the host gave and its rejoin token.
    pub seat: Option<(u16, u64)>,
    /// The seat claimed back when connecting ([`rejoin`]).
    pub claim: Option<(u16, u64)>,
}

/// One player as a client knows it (`docs/reference/runtime.md` §11.1: name, local and host
/// flags), with its lobby readiness.
#[derive(Debug, Clone, Default, PartialEq, Eq, Reflect)]
pub struct PlayerRecord {
    /// Name.
    pub name: String,
    /// Clan commanded (`None`: an observer).
    pub clan: Option<u32>,
    /// The host's own player.
    pub host: bool,
    /// This client's player.
    pub local: bool,
    /// Ready to start.
    pub ready: bool,
}

/// Messages waiting to be sent to the host (orders get their sequence number here).
#[derive(Resource, Debug, Clone, Default)]
pub struct OutgoingOrders {
    /// Messages in send order.
    pub messages: Vec<Gmsg>,
    /// Sequence number of the next order.
    pub next_seq: u32,
}

impl OutgoingOrders {
    /// Queues an order and returns its sequence number.
    pub fn order(&mut self, units: Vec<u32>, order: WireOrder, queued: bool) -> u32 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.messages.push(Gmsg::Order { seq, units, order, queued });
        seq
    }
}

/// Checkpoint comparisons: the host's hash at a replication tick against the hash of
/// this client's replicated objects when it held exactly that tick.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct Checkpoints {
    /// Checkpoints compared.
    pub checks: u32,
    /// Checkpoints whose hashes differed.
    pub mismatches: u32,
    /// Checkpoints this client never held exactly (it received a later tick first).
    pub skipped: u32,
    /// Host checkpoints not yet compared: (replication tick, game tick, hash).
    pending: Vec<(u32, u32, u64)>,
    /// This client's hash at each fully received replication tick, newest last.
    history: VecDeque<(u32, u64)>,
    /// This client's values at the last checkpoint it held (a sync report's side).
    #[reflect(ignore)]
    held: Option<(u32, Vec<ReplicatedRow>)>,
    /// The first mismatch, waiting for the host's values.
    #[reflect(ignore)]
    case: Option<OwnCase>,
    /// The host's values for the case, once they arrived.
    #[reflect(ignore)]
    answer: Option<HostRows>,
    /// The sync report this client wrote.
    pub report: Option<std::path::PathBuf>,
}

impl Checkpoints {
    const HISTORY: usize = 64;

    /// Compares the pending checkpoints this client held; returns the mismatches
    /// `(replication tick, game tick, mine, host's)`.
    fn settle(&mut self) -> Vec<(u32, u32, u64, u64)> {
        let newest = self.history.back().map(|(t, _)| *t);
        let history = &self.history;
        let (mut checks, mut mismatches, mut skipped) = (0, Vec::new(), 0);
        self.pending.retain(|&(at, tick, hash)| {
            if let Some((_, mine)) = history.iter().find(|(t, _)| *t == at) {
                checks += 1;
                if *mine != hash {
                    mismatches.push((at, tick, *mine, hash));
                    tracing::error!(target: "resnet", "checkpoint at tick {tick}: hash {mine:016x}, host {hash:016x}");
                }
                false
            } else if newest.is_some_and(|n| n > at) {
                skipped += 1;
                false
            } else {
                true
            }
        });
        self.checks += checks;
        self.mismatches += mismatches.len() as u32;
        self.skipped += skipped;
        mismatches
    }

    /// Forgets the checkpoints of a lost connection (the counts stay).
    fn forget(&mut self) {
        self.pending.clear();
        self.history.clear();
        self.held = None;
    }
}

/// Mirrors by `OriginalObjectId`.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct Mirrors {
    /// The entity holding each object.
    pub by_id: BTreeMap<u32, Entity>,
}

/// Connects to the host at `server` (an unspecified address means this machine) as
/// `name`.
///
/// # Errors
/// The socket or the transport cannot be opened.
pub fn connect(world: &mut World, server: SocketAddr, name: &str, data: Vec<u8>) -> Result<(), NetError> {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let server = match server.ip().is_unspecified() {
        true => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), server.port()),
        false => server,
    };
    let client = RenetClient::new(crate::connection_config(world));
    let now = crate::unix_time();
    let client_id =
        (now.as_nanos() as u64) ^ u64::from(std::process::id()) << 40 ^ NEXT.fetch_add(1, Ordering::Relaxed);
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).map_err(NetError::Socket)?;
    let authentication =
        ClientAuthentication::Unsecure { client_id, protocol_id: protocol_id(), server_addr: server, user_data: None };
    let transport =
        NetcodeClientTransport::new(now, authentication, socket).map_err(|e| NetError::Transport(e.to_string()))?;
    world.insert_resource(client);
    world.insert_resource(transport);
    world.insert_resource(ClientSession {
        name: name.into(),
        data,
        version: PROTOCOL_VERSION,
        ready_when_admitted: true,
        ..ClientSession::default()
    });
    tracing::info!(target: "resnet", "connecting to {server} as '{name}'");
    Ok(())
}

/// Leaves the session: tells the host at once (it hands this player's objects on) and
/// closes the transport.
pub fn disconnect(world: &mut World) {
    if let Some(mut transport) = world.get_resource_mut::<NetcodeClientTransport>() {
        transport.disconnect();
        tracing::info!(target: "resnet", "left the session");
    }
    world.remove_resource::<NetcodeClientTransport>();
    world.remove_resource::<RenetClient>();
}

/// Connects again after the connection dropped, claiming back the seat the host gave
/// (the same number, clan and units while the host's rejoin time runs; after it, a new
/// seat). The mirrors of the lost connection are dropped: the host sends its world again.
///
/// # Errors
/// The socket or the transport cannot be opened.
pub fn rejoin(world: &mut World, server: SocketAddr) -> Result<(), NetError> {
    disconnect(world);
    let old = world.resource::<ClientSession>().clone();
    let mirrors = std::mem::take(&mut world.resource_mut::<Mirrors>().by_id);
    for e in mirrors.into_values() {
        world.try_despawn(e).ok();
    }
    world.resource_mut::<Checkpoints>().forget();
    connect(world, server, &old.name, old.data.clone())?;
    let mut session = world.resource_mut::<ClientSession>();
    session.claim = old.seat;
    (session.orders_acked, session.orders_refused, session.owner_changes) =
        (old.orders_acked, old.orders_refused, old.owner_changes);
    (session.texts, session.first_tick, session.last_tick) = (old.texts, old.first_tick, old.last_tick);
    Ok(())
}

/// The client's systems (needs [`crate::NetProtocolPlugin`] and `iron3d_core::CorePlugin`;
/// call [`connect`]).
#[derive(Debug, Default)]
pub struct NetClientPlugin;

impl Plugin for NetClientPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ClientSession>()
            .init_resource::<OutgoingOrders>()
            .init_resource::<Checkpoints>()
            .init_resource::<Mirrors>()
            .init_resource::<crate::transfer::ClientTransfers>()
            .init_resource::<crate::events::Inbox>()
            .init_resource::<crate::events::EventCounts>()
            .init_resource::<ClanView>()
            .init_resource::<Chat>()
            .init_resource::<SyncReports>()
            .register_type::<crate::transfer::ClientTransfers>()
            .register_type::<Chat>()
            .register_type::<ClientSession>()
            .register_type::<Checkpoints>()
            .register_type::<Mirrors>()
            .add_observer(forget_mirror)
            .add_systems(OnEnter(ClientState::Connected), introduce)
            .add_systems(OnEnter(ClientState::Disconnected), dropped)
            .add_systems(
                PreUpdate,
                (
                    receive,
                    mirror,
                    drop_unmatched,
                    crate::state::apply,
                    sync,
                    crate::events::play,
                    record_checkpoints,
                    crate::transfer::expire,
                    crate::events::leave_when_ended,
                )
                    .chain()
                    .after(ClientSystems::Receive)
                    .run_if(in_state(ClientState::Connected)),
            )
            .add_systems(
                PreUpdate,
                crate::clan_state::apply.after(record_checkpoints).run_if(in_state(ClientState::Connected)),
            )
            .add_systems(
                PostUpdate,
                (crate::chat::send_client_lines, send)
                    .chain()
                    .before(ClientSystems::Send)
                    .run_if(in_state(ClientState::Connected)),
            )
            .add_systems(FixedUpdate, (set_clock.before(SimSystems::Input), crate::events::fly_shells))
            .add_systems(FixedUpdate, pose_pieces.after(SimSystems::Input).run_if(in_state(ClientState::Connected)))
            .add_systems(PreUpdate, crate::smooth::track.after(sync).run_if(in_state(ClientState::Connected)))
            .add_systems(Update, crate::smooth::present.run_if(in_state(ClientState::Connected)));
    }
}

fn introduce(session: Res<ClientSession>, mut out: MessageWriter<HostBound>) {
    let hello =
        Gmsg::SetPlayerData { version: session.version, name: session.name.clone(), data: session.data.clone() };
    let claim = session.claim.map(|(player, token)| Gmsg::Seat { player, token });
    if let Some(bytes) = encoded(&claim.into_iter().chain([hello]).collect::<Vec<_>>()) {
        out.write(HostBound(bytes));
    }
}

fn dropped(mut session: ResMut<ClientSession>, transport: Option<Res<NetcodeClientTransport>>) {
    let Some(reason) = transport.and_then(|t| t.disconnect_reason()) else { return };
    tracing::warn!(target: "resnet", "disconnected from the host: {reason:?}");
    session.refused.get_or_insert_with(|| format!("disconnected: {reason:?}"));
}

/// What the client's receive step writes besides its session.
#[derive(SystemParam)]
struct Received<'w> {
    checkpoints: ResMut<'w, Checkpoints>,
    outgoing: ResMut<'w, OutgoingOrders>,
    transfers: ResMut<'w, crate::transfer::ClientTransfers>,
    clan: ResMut<'w, ClanView>,
    chat: ResMut<'w, Chat>,
    events: ResMut<'w, crate::events::Inbox>,
    clock: Res<'w, GameClock>,
    game_messages: MessageWriter<'w, GameMessage>,
}

fn receive(
    mut reliable: MessageReader<ClientBound>,
    mut unreliable: MessageReader<ClientBoundUnreliable>,
    mut session: ResMut<ClientSession>,
    mut r: Received,
) {
    let (checkpoints, outgoing, transfers) = (&mut r.checkpoints, &mut r.outgoing, &mut r.transfers);
    let admitted = session.player.is_some();
    let packets = reliable.read().map(|m| &m.0).chain(unreliable.read().map(|m| &m.0));
    for packet in packets {
        let Ok(messages) = schema::decode(packet)
            .map_err(|e| tracing::warn!(target: "resnet", "malformed packet from the host dropped: {e}"))
        else {
            continue;
        };
        for m in messages {
            match m {
                Gmsg::AppendResource { transfer, total, offset, chunk } => {
                    if let Err(why) = transfers.append(transfer, total, offset, chunk) {
                        outgoing.messages.push(Gmsg::RemoveResource { transfer, reason: why.clone() });
                        transfers.abandon(transfer, why);
                    }
                }
                Gmsg::RemoveResource { transfer, reason } => transfers.abandon(transfer, format!("the host: {reason}")),
                Gmsg::Events { tick, events: batch } => r.events.0.push((tick, batch)),
                Gmsg::ClanState(state) => (r.clan.state, r.clan.fresh) = (Some(state), true),
                Gmsg::ClanNews(news) => {
                    r.clan.news += 1;
                    crate::clan_state::replay_news(vec![news], &r.clock, &mut r.game_messages);
                }
                Gmsg::SyncRows(rows) => checkpoints.answer = Some(rows),
                Gmsg::TextForPlayer { from, clan_only, text } => {
                    session.texts.push((from, text.clone()));
                    r.chat.receive(ChatLine { from, clan_only, text });
                }
                other => handle(&mut session, checkpoints, other),
            }
        }
    }
    if !admitted && session.player.is_some() && session.ready_when_admitted {
        outgoing.messages.push(Gmsg::Ready { ready: true });
    }
}

fn handle(session: &mut ClientSession, checkpoints: &mut Checkpoints, message: Gmsg) {
    let clan = |c: u32| (c != u32::MAX).then_some(c);
    if let Gmsg::NewGameTick { tick, .. }
    | Gmsg::SetState { tick, .. }
    | Gmsg::SetGameStarted { tick }
    | Gmsg::SetTime { tick } = message
    {
        session.first_tick.get_or_insert(tick);
        session.last_tick = session.last_tick.max(tick);
    }
    match message {
        Gmsg::ConfirmPlayerData { player, clan: c } => {
            tracing::info!(target: "netwatch", "this client is player {player}, clan {c}");
            session.player = Some(player);
            session.clan = clan(c);
            let record =
                PlayerRecord { name: session.name.clone(), clan: clan(c), local: true, ..PlayerRecord::default() };
            session.players.insert(player, record);
        }
        Gmsg::KillPlayer { player, reason } if player == 0 || Some(player) == session.player => {
            tracing::error!(target: "resnet", "the host refused this client: {reason}");
            session.refused = Some(reason);
        }
        Gmsg::KillPlayer { player, reason } => {
            tracing::info!(target: "netwatch", "player {player} left: {reason}");
            session.players.remove(&player);
        }
        Gmsg::CreateRemotePlayer { player, clan: c, name } => {
            session.players.insert(player, PlayerRecord { name, clan: clan(c), ..PlayerRecord::default() });
        }
        Gmsg::PlayerState { player, host, ready } => match session.players.get_mut(&player) {
            Some(record) => (record.host, record.ready) = (host, ready),
            None => tracing::warn!(target: "netwatch", "flags of unknown player {player} ignored"),
        },
        Gmsg::SetTime { tick } => session.set_time = Some(tick),
        Gmsg::MissionDataPath { mission } => session.mission = Some(mission),
        Gmsg::SetState { phase, tick } => session.phase = Some((phase as u8, tick)),
        Gmsg::SetGameStarted { tick } => session.phase = session.phase.or(Some((SessionPhase::Running as u8, tick))),
        Gmsg::OrderAck { accepted, .. } if accepted > 0 => session.orders_acked += 1,
        Gmsg::OrderAck { .. } => session.orders_refused += 1,
        Gmsg::NewGameTick { tick, replicated, hash } => checkpoints.pending.push((replicated, tick, hash)),
        Gmsg::ChangeObjectOwner { .. } => session.owner_changes += 1,
        Gmsg::Seat { player, token } => session.seat = Some((player, token)),
        other => tracing::warn!(target: "resnet", "{} is not a host's message; ignored", schema::name(other.id())),
    }
}

/// Makes each newly replicated object a mirror, unless its id already has one. A
/// game that loaded the mission resolves the object's prototype as a placed object
/// (models, parts); a bot keeps a bare mirror.
fn mirror(
    mut commands: Commands,
    added: Query<
        (Entity, &NetObject, Option<&NetPose>, Option<&NetTilt>, Option<&NetState>, Has<OriginalObjectId>),
        Added<NetObject>,
    >,
    mut mirrors: ResMut<Mirrors>,
    mission: Option<Res<LoadedMission>>,
    registry: Option<Res<SimState>>,
) {
    for (e, object, pose, tilt, state, local) in &added {
        if let Some(&other) = mirrors.by_id.get(&object.id).filter(|o| **o != e) {
            tracing::warn!(target: "netwatch", "duplicate GMSG_CREATE_MIRROR of object {} ignored (mirror {other})", object.id);
            commands.entity(e).insert(DuplicateMirror);
            continue;
        }
        mirrors.by_id.insert(object.id, e);
        if local {
            // The client's own object of the mission (matched by signature): it is the
            // mirror already.
            continue;
        }
        let placement = pose.map(|p| transform(&SimTransform::default(), p, tilt)).unwrap_or_default();
        let owner = state.zip(registry.as_deref()).and_then(|(s, r)| s.value::<Owner>(r)).unwrap_or_default();
        let bare =
            (OriginalObjectId(object.id), SimObject { kind: ObjectKind::from_raw(object.kind) }, placement, owner);
        if mission.is_none() || object.key.is_empty() {
            commands.entity(e).insert(bare);
            continue;
        }
        let prepared = prepared(object, &placement, owner.clan);
        commands.queue(move |world: &mut World| {
            if let Err(err) = spawn_object_on(world, e, prepared) {
                tracing::warn!(target: "netwatch", "mirror of object {}: {err}; shown without its models", bare.0.0);
                world.entity_mut(e).insert(bare);
            } else {
                world.entity_mut(e).insert(owner);
            }
        });
    }
}

/// Once the host's world arrived (its first objects are mirrored), an object of the
/// client's own mission that matched none of the host's is gone on the host (destroyed
/// before this game joined): it goes here too.
fn drop_unmatched(
    mut commands: Commands,
    mirrors: Res<Mirrors>,
    unmatched: Query<(Entity, &OriginalObjectId), (With<SimObject>, Without<NetObject>)>,
) {
    if mirrors.by_id.is_empty() {
        return;
    }
    for (e, id) in &unmatched {
        tracing::info!(target: "netwatch", "object {} of the mission is gone on the host; removed", id.0);
        commands.entity(e).despawn();
    }
}

/// A replicated object as the mission would have placed it.
fn prepared(object: &NetObject, at: &SimTransform, clan: i32) -> PreparedObject {
    let record = PlacedRecord {
        raw_kind: object.kind,
        resource_name: object.key.clone(),
        raw_after_resource: clan as u32,
        position: at.position,
        orientation: at.orientation,
        scale: [1.0; 3],
        ..PlacedRecord::default()
    };
    PreparedObject {
        id: object.id,
        name: match object.name.is_empty() {
            false => object.name.clone(),
            true => format!("{} {}", object.key.rsplit(['\\', '/']).next().unwrap_or(&object.key), object.id),
        },
        key: object.key.clone(),
        components: Vec::new(),
        clan,
        record,
        properties: PropertyBag::default(),
        extras: ObjectExtras::default(),
    }
}

fn forget_mirror(
    remove: On<Remove, NetObject>,
    objects: Query<&NetObject, Without<DuplicateMirror>>,
    mut mirrors: ResMut<Mirrors>,
) {
    let Ok(object) = objects.get(remove.entity) else { return };
    if mirrors.by_id.get(&object.id) == Some(&remove.entity) {
        mirrors.by_id.remove(&object.id);
    }
}

/// A mirror's transform from its replicated pose and tilt (without a tilt it stands level).
fn transform(old: &SimTransform, pose: &NetPose, tilt: Option<&NetTilt>) -> SimTransform {
    let [rx, ry] = tilt.map_or([0.0; 2], NetTilt::radians);
    SimTransform { position: pose.position(), orientation: [rx, ry, pose.heading()], ..*old }
}

/// Keeps mirrors' simulation components in step with the replicated ones.
#[expect(clippy::type_complexity, reason = "one query per replicated component")]
fn sync(
    mut poses: Query<
        (&NetPose, Option<&NetTilt>, &mut SimTransform),
        (Or<(Changed<NetPose>, Changed<NetTilt>)>, Without<DuplicateMirror>),
    >,
    mut turrets: Query<(&NetTurret, &mut Weapon), (Changed<NetTurret>, Without<DuplicateMirror>)>,
) {
    for (pose, tilt, mut t) in &mut poses {
        *t = transform(&t, pose, tilt);
    }
    for (turret, mut weapon) in &mut turrets {
        weapon.turret = turret.radians();
    }
}

/// At each tick, a mirror's CTLD pieces take the blends their replicated phase and rate
/// give at this client's clock (its own bindings, from the mission, must be the host's:
/// a mirror with other bindings keeps its own pose and is logged once).
fn pose_pieces(
    clock: Res<GameClock>,
    mut mirrors: Query<(Entity, &NetObject, &mut PieceAnimation), Without<DuplicateMirror>>,
    mut unlike: Local<std::collections::HashSet<Entity>>,
) {
    for (e, net, mut animation) in &mut mirrors {
        let Some(net) = &net.animation else { continue };
        if net.blends.len() != animation.bindings.len() {
            if unlike.insert(e) {
                let (theirs, ours) = (net.blends.len(), animation.bindings.len());
                tracing::warn!(target: "netwatch", "mirror {e}: the host has {theirs} piece bindings, this client {ours}; posed as loaded");
            }
            continue;
        }
        let ticks = clock.tick.wrapping_sub(net.tick);
        if animation.bindings.iter().zip(&net.blends).any(|(b, n)| b.blend != n.after(ticks)) {
            animation.bindings.iter_mut().zip(&net.blends).for_each(|(b, n)| b.blend = n.after(ticks));
        }
    }
}

/// Hashes the replicated objects whenever a replication tick is fully held, then
/// compares the host's checkpoints.
fn record_checkpoints(world: &mut World) {
    let Some(mutate) = world.get_resource::<ServerMutateTicks>() else { return };
    let last = mutate.last_tick();
    let whole = mutate.contains(last) && world.get_resource::<ServerUpdateTick>().is_none_or(|u| !u.is_newer(last));
    let fresh = world.resource::<Checkpoints>().history.back().is_none_or(|(t, _)| *t != last.get());
    if whole && fresh {
        let hash = replicated_hash(world);
        let checkpoint = world.resource::<Checkpoints>().pending.iter().any(|p| p.0 == last.get());
        let held = checkpoint.then(|| (last.get(), replicated_rows(world)));
        let mut c = world.resource_mut::<Checkpoints>();
        c.history.push_back((last.get(), hash));
        if c.history.len() > Checkpoints::HISTORY {
            c.history.pop_front();
        }
        if held.is_some() {
            c.held = held;
        }
    }
    if let Some(rows) = world.resource_mut::<Checkpoints>().answer.take() {
        write_sync_report(world, &rows);
    }
    let mismatches = world.resource_mut::<Checkpoints>().settle();
    let first = mismatches.first().filter(|_| {
        let c = world.resource::<Checkpoints>();
        c.case.is_none() && c.report.is_none()
    });
    if let Some(&(replicated, tick, mine, theirs)) = first {
        let held = world.resource_mut::<Checkpoints>().held.take().filter(|h| h.0 == replicated);
        let (rows_at, rows) = held.unwrap_or_else(|| (last.get(), replicated_rows(world)));
        let case = OwnCase { tick, replicated, hashes: (mine, theirs), rows, rows_at };
        world.resource_mut::<OutgoingOrders>().messages.push(Gmsg::SyncDigests(case.digests()));
        world.resource_mut::<Checkpoints>().case = Some(case);
    }
}

/// The host's values of the objects that differed: this client writes its report.
fn write_sync_report(world: &mut World, rows: &HostRows) {
    let Some(case) = world.resource_mut::<Checkpoints>().case.take() else {
        tracing::warn!(target: "resnet", "the host's sync rows came unasked; ignored");
        return;
    };
    let dir = world.resource::<SyncReports>().dir.clone();
    let player = world.resource::<ClientSession>().player.unwrap_or(0);
    match case.write_report(&dir, player, rows, world.get_resource::<SimState>()) {
        Ok(path) => {
            tracing::error!(target: "resnet", "checkpoint mismatch at tick {}: sync report {}", case.tick, path.display());
            world.resource_mut::<Checkpoints>().report = Some(path);
        }
        Err(e) => tracing::error!(target: "resnet", "sync report not written: {e}"),
    }
}

/// At the tick boundary: the clock takes the host's time, if it sent one.
fn set_clock(mut session: ResMut<ClientSession>, mut clock: ResMut<GameClock>) {
    let Some(tick) = session.set_time else { return };
    session.set_time = None;
    *clock = GameClock { tick, time_ms: tick.wrapping_mul(TICK_MS) };
}

fn send(mut outgoing: ResMut<OutgoingOrders>, session: Res<ClientSession>, mut out: MessageWriter<HostBound>) {
    if session.player.is_none() || outgoing.messages.is_empty() {
        return;
    }
    for chunk in std::mem::take(&mut outgoing.messages).chunks(64) {
        if let Some(bytes) = encoded(chunk) {
            out.write(HostBound(bytes));
        }
    }
}

/// An order as it travels (a build's or a batch's scheme by name, a design by its unit
/// file).
pub fn wire(order: Order, schemes: &iron3d_core::SchemeNames, designs: &iron3d_core::Designs) -> Option<WireOrder> {
    let scheme = |r: iron3d_core::SchemeRef| match designs.0.get(&r.0) {
        Some(dat) => Some(WireScheme::Design(dat.clone())),
        None => schemes.name(r).map(|n| WireScheme::Named(n.to_string())),
    };
    match order {
        Order::Build(r) => scheme(r).map(WireOrder::Build),
        Order::Batch(r) => scheme(r).map(WireOrder::Batch),
        other => Some(WireOrder::Plain(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::Checkpoints;

    #[test]
    fn checkpoints_compare_in_any_order_and_skip_ticks_never_held() {
        let mut c = Checkpoints::default();
        c.history.extend([(10, 0xA), (11, 0xB), (12, 0xC)]);
        // Out of order: 12 before 10; 11 differs; 9 was never held exactly; 13 waits.
        c.pending.extend([(12, 120, 0xC), (10, 100, 0xA), (11, 110, 0xF), (9, 90, 0x9), (13, 130, 0xD)]);
        c.settle();
        assert_eq!((c.checks, c.mismatches, c.skipped), (3, 1, 1));
        assert_eq!(c.pending, [(13, 130, 0xD)]);
        c.history.push_back((13, 0xD));
        c.settle();
        assert_eq!((c.checks, c.mismatches, c.pending.len()), (4, 1, 0));
    }
}
