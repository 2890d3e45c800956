//! The `GMSG_*` message schema (`docs/reference/runtime.md` §11.2): each message's id, payload
//! layout and delivery policy. A packet is a *sequence*: frames `id: u32, length: u16,
//! payload` (little-endian) closed by `GMSG_END_MESSAGE_SEQ` with the frame count.
//! Every length is checked before a read, every count against the bytes left before
//! an allocation; a sequence that does not decode is refused whole, with the offset
//! and the frame that failed. Ids of `0x4000_0000..` are the project's own (orders and
//! their acknowledgement, lobby readiness and player flags, LAN discovery, a tick's
//! combat and effect events, and `SYSMSG_SET_TIME`, whose name only is known): the
//! original's ids for them are unknown.

use iron3d_core::{AutoDriver, Order, PilotInput};
use std::fmt;

/// The engine's message ids and the project's own ones.
pub mod id {
    /// `GMSG_NEW_GAME_TICK`: a checkpoint (game tick, replication tick, state hash).
    pub const NEW_GAME_TICK: u32 = 0x01;
    /// `GMSG_END_MESSAGE_SEQ`: closes a sequence.
    pub const END_MESSAGE_SEQ: u32 = 0x06;
    /// `GMSG_SET_STATE`: the session's phase from a tick on.
    pub const SET_STATE: u32 = 0x07;
    /// `GMSG_PAUSE_REMOTE_PLAYER`: a player asks to pause or resume.
    pub const PAUSE_REMOTE_PLAYER: u32 = 0x3EA;
    /// `GMSG_CONFIRM_PLAYER_DATA`: the host accepts a player.
    pub const CONFIRM_PLAYER_DATA: u32 = 0x3EC;
    /// `GMSG_KILL_PLAYER`: a player left or was refused.
    pub const KILL_PLAYER: u32 = 0x3ED;
    /// `GMSG_SET_GAME_STARTED`: the lobby ended, the game runs.
    pub const SET_GAME_STARTED: u32 = 0x3EF;
    /// `GMSG_CREATE_REMOTE_PLAYER`: a player joined.
    pub const CREATE_REMOTE_PLAYER: u32 = 0x8000_0001;
    /// `GMSG_TEXT_FOR_PLAYER`: chat.
    pub const TEXT_FOR_PLAYER: u32 = 0x8000_0002;
    /// `GMSG_MISSION_DATA_PATH`: the mission the session plays.
    pub const MISSION_DATA_PATH: u32 = 0x8000_0005;
    /// `GMSG_SET_PLAYER_DATA`: a client introduces itself.
    pub const SET_PLAYER_DATA: u32 = 0x8000_0006;
    /// `GMSG_REMOVE_RESOURCE`: a resource transfer is abandoned.
    pub const REMOVE_RESOURCE: u32 = 0x14;
    /// `GMSG_GET_SAVEGAME_FROM_HOST`: a client asks for the session's record.
    pub const GET_SAVEGAME_FROM_HOST: u32 = 0x3EE;
    /// `GMSG_APPEND_RESOURCE`: one chunk of a resource transfer.
    pub const APPEND_RESOURCE: u32 = 0x8000_0020;
    /// `GMSG_CHANGE_OBJECT_OWNER`: an object changed hands.
    pub const CHANGE_OBJECT_OWNER: u32 = 0x8000_0007;
    /// `GMSG_INVALID`: never valid on the wire.
    pub const INVALID: u32 = 0xFFFF_FFFF;
    /// Project's own: orders for the sender's units.
    pub const ORDER: u32 = 0x4000_0001;
    /// Project's own: the host's answer to an order.
    pub const ORDER_ACK: u32 = 0x4000_0002;
    /// Project's own: a player is ready (lobby).
    pub const READY: u32 = 0x4000_0003;
    /// Project's own: a LAN probe looking for sessions.
    pub const DISCOVER: u32 = 0x4000_0004;
    /// Project's own: a host's answer to a LAN probe.
    pub const SESSION: u32 = 0x4000_0005;
    /// Project's own: a player's flags (host, ready) for the lobby.
    pub const PLAYER_STATE: u32 = 0x4000_0006;
    /// `SYSMSG_SET_TIME` (its original id is unknown): the host's game clock.
    pub const SET_TIME: u32 = 0x4000_0007;
    /// Project's own: a tick's combat and effect events ([`crate::events`]).
    pub const EVENTS: u32 = 0x4000_0020;
    /// Project's own: a clan's economy, production queues and research.
    pub const CLAN_STATE: u32 = 0x4000_0010;
    /// Project's own: a production or research event of the receiver's clan.
    pub const CLAN_NEWS: u32 = 0x4000_0011;
    /// Project's own: a seat's rejoin token (host → client) or a claim on it.
    pub const SEAT: u32 = 0x4000_0012;
    /// Project's own: a client's per-object digests at a checkpoint that differed.
    pub const SYNC_DIGESTS: u32 = 0x4000_0013;
    /// Project's own: the host's values of the objects that differed.
    pub const SYNC_ROWS: u32 = 0x4000_0014;
}

/// Largest encoded sequence accepted (bytes).
pub const MAX_SEQUENCE: usize = 64 * 1024;
/// Most unit ids in one order.
pub const MAX_ORDER_UNITS: usize = 512;
const HEADER: usize = 6;

/// How a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Reliable and in order (every message but the checkpoint).
    ReliableOrdered,
    /// May be lost or reordered (checkpoints: a lost one is one check fewer; LAN
    /// probes and answers, plain UDP datagrams).
    Unreliable,
}

/// The session's phase (`GMSG_SET_STATE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionPhase {
    /// Players gather; nothing ticks.
    Lobby = 0,
    /// The simulation runs.
    Running = 1,
    /// Paused by a player.
    Paused = 2,
    /// The mission ended.
    Ended = 3,
}

/// One message.
#[derive(Debug, Clone, PartialEq)]
pub enum Gmsg {
    /// `GMSG_NEW_GAME_TICK`: the replicated state hash at a game tick.
    NewGameTick {
        /// Game tick.
        tick: u32,
        /// Replication tick the hash belongs to.
        replicated: u32,
        /// Hash of the replicated state.
        hash: u64,
    },
    /// `GMSG_SET_STATE`: the phase from game tick `tick` on.
    SetState {
        /// New phase.
        phase: SessionPhase,
        /// Tick boundary it applies at.
        tick: u32,
    },
    /// `GMSG_PAUSE_REMOTE_PLAYER`: pause (or resume) request.
    PauseRemotePlayer {
        /// Pause when true, resume when false.
        paused: bool,
    },
    /// `GMSG_CONFIRM_PLAYER_DATA`: the player's number and clan.
    ConfirmPlayerData {
        /// Game player number (never 0).
        player: u16,
        /// Clan the player commands (`u32::MAX`: observer).
        clan: u32,
    },
    /// `GMSG_KILL_PLAYER`: a player left or was refused.
    KillPlayer {
        /// Player number (0 when refused before getting one).
        player: u16,
        /// Why.
        reason: String,
    },
    /// `GMSG_SET_GAME_STARTED`: the game runs from `tick`.
    SetGameStarted {
        /// First game tick.
        tick: u32,
    },
    /// `GMSG_CREATE_REMOTE_PLAYER`: a player joined.
    CreateRemotePlayer {
        /// Player number.
        player: u16,
        /// Clan.
        clan: u32,
        /// Name.
        name: String,
    },
    /// `GMSG_TEXT_FOR_PLAYER`: chat from `from` (0: the host).
    TextForPlayer {
        /// Sender.
        from: u16,
        /// Only for the sender's clan (else for everyone).
        clan_only: bool,
        /// Text.
        text: String,
    },
    /// `GMSG_MISSION_DATA_PATH`: the mission.
    MissionDataPath {
        /// Mission name (folder under `MISSIONS`).
        mission: String,
    },
    /// `GMSG_SET_PLAYER_DATA`: the client's protocol version, name and raw data.
    SetPlayerData {
        /// Protocol version of the client.
        version: u32,
        /// Player name.
        name: String,
        /// The client's data layers ([`crate::layers`]; empty: it reads no game data).
        data: Vec<u8>,
    },
    /// `GMSG_CHANGE_OBJECT_OWNER`: an object's new owner.
    ChangeObjectOwner {
        /// Object (`OriginalObjectId`).
        id: u32,
        /// New clan.
        clan: i32,
        /// New player (0: the computer).
        player: u16,
    },
    /// Orders for the sender's units (project's own).
    Order {
        /// Client's sequence number, echoed in the acknowledgement.
        seq: u32,
        /// Units by `OriginalObjectId`.
        units: Vec<u32>,
        /// The order.
        order: WireOrder,
        /// Queue behind current orders.
        queued: bool,
    },
    /// The host's answer to an order (project's own).
    OrderAck {
        /// The order's sequence number.
        seq: u32,
        /// Tick it applies at (0 when refused).
        tick: u32,
        /// Units it was given to (the others are not the sender's).
        accepted: u16,
    },
    /// Lobby readiness (project's own).
    Ready {
        /// Ready to start.
        ready: bool,
    },
    /// `GMSG_GET_SAVEGAME_FROM_HOST`: send the session's record as transfer `transfer`.
    GetSavegameFromHost {
        /// Transfer id chosen by the client.
        transfer: u32,
    },
    /// `GMSG_APPEND_RESOURCE`: bytes `offset..` of transfer `transfer` of `total`.
    AppendResource {
        /// Transfer id.
        transfer: u32,
        /// Size of the whole resource.
        total: u32,
        /// Where this chunk starts.
        offset: u32,
        /// The chunk.
        chunk: Vec<u8>,
    },
    /// `GMSG_REMOVE_RESOURCE`: transfer `transfer` is abandoned.
    RemoveResource {
        /// Transfer id.
        transfer: u32,
        /// Why.
        reason: String,
    },
    /// A player's flags as the host holds them (project's own; the local flag is the
    /// receiver's own number).
    PlayerState {
        /// Player number (never 0).
        player: u16,
        /// The player is the host's own.
        host: bool,
        /// The player is ready to start.
        ready: bool,
    },
    /// `SYSMSG_SET_TIME`: the host's last completed game tick; a client sets its clock
    /// to it at its next tick boundary.
    SetTime {
        /// Game tick.
        tick: u32,
    },
    /// A clan's state as the host holds it (project's own, `crate::clan_state`).
    ClanState(crate::clan_state::ClanState),
    /// A production or research event of the receiver's clan (project's own).
    ClanNews(crate::clan_state::ClanNews),
    /// A seat's rejoin token: from the host at admission; from a client, before its
    /// `GMSG_SET_PLAYER_DATA`, a claim on the seat it held (project's own).
    Seat {
        /// Player number of the seat.
        player: u16,
        /// The token the host gave.
        token: u64,
    },
    /// A client's per-object digests at a checkpoint that differed (project's own,
    /// `crate::sync_report`).
    SyncDigests(crate::sync_report::Digests),
    /// The host's values of the objects that differed (project's own).
    SyncRows(crate::sync_report::HostRows),
    /// A LAN probe (project's own).
    Discover {
        /// Protocol version of the prober.
        version: u32,
    },
    /// A host's answer to a probe (project's own).
    Session {
        /// Protocol version of the host.
        version: u32,
        /// UDP port of the game.
        port: u16,
        /// Players in the session.
        players: u8,
        /// Most players.
        max_players: u8,
        /// Mission played.
        mission: String,
    },
    /// One tick's combat and effect events, the host's clock for clients (project's own).
    Events {
        /// Game tick they happened in.
        tick: u32,
        /// The events, in the order the host's queue had them.
        events: Vec<crate::events::NetEvent>,
    },
}

/// An order on the wire: [`Order`], a build's or a batch's scheme as [`WireScheme`].
#[derive(Debug, Clone, PartialEq)]
pub enum WireOrder {
    /// Any order but `Build` and `Batch`.
    Plain(Order),
    /// Build a robot of a scheme.
    Build(WireScheme),
    /// Build robots of a scheme in batch.
    Batch(WireScheme),
}

/// The scheme a build or batch order names on the wire.
#[derive(Debug, Clone, PartialEq)]
pub enum WireScheme {
    /// A unit scheme by name (the host interns it).
    Named(String),
    /// A design the game keeps (`iron3d_core::Designs`): its unit file.
    Design(Vec<u8>),
}

/// Why bytes are not a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than a read needs.
    Truncated {
        /// Offset of the read.
        offset: usize,
        /// Bytes it needs.
        need: usize,
        /// Bytes left.
        have: usize,
    },
    /// The sequence is larger than [`MAX_SEQUENCE`].
    Oversized {
        /// Its length.
        len: usize,
    },
    /// A frame id no message has (or `GMSG_INVALID`).
    UnknownId {
        /// The id.
        id: u32,
        /// Offset of its frame.
        offset: usize,
    },
    /// A payload that does not hold its message.
    BadPayload {
        /// Frame id.
        id: u32,
        /// Offset of the frame.
        offset: usize,
        /// What is wrong.
        detail: String,
    },
    /// No `GMSG_END_MESSAGE_SEQ` closes the sequence.
    MissingEnd,
    /// The end marker counts another number of frames.
    CountMismatch {
        /// Count in the marker.
        said: u16,
        /// Frames read.
        read: usize,
    },
    /// Bytes after the end marker.
    TrailingBytes {
        /// Offset of the first.
        offset: usize,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { offset, need, have } => {
                write!(f, "truncated at offset {offset}: need {need} bytes, have {have}")
            }
            Self::Oversized { len } => write!(f, "sequence of {len} bytes exceeds {MAX_SEQUENCE}"),
            Self::UnknownId { id, offset } => write!(f, "unknown message id {id:#x} at offset {offset}"),
            Self::BadPayload { id, offset, detail } => {
                write!(f, "bad payload of {} at offset {offset}: {detail}", name(*id))
            }
            Self::MissingEnd => write!(f, "no GMSG_END_MESSAGE_SEQ closes the sequence"),
            Self::CountMismatch { said, read } => {
                write!(f, "GMSG_END_MESSAGE_SEQ counts {said} frames, the sequence has {read}")
            }
            Self::TrailingBytes { offset } => write!(f, "bytes after GMSG_END_MESSAGE_SEQ at offset {offset}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The name of a message id (logs, the schema table).
pub fn name(id: u32) -> &'static str {
    match id {
        id::NEW_GAME_TICK => "GMSG_NEW_GAME_TICK",
        id::END_MESSAGE_SEQ => "GMSG_END_MESSAGE_SEQ",
        id::SET_STATE => "GMSG_SET_STATE",
        id::PAUSE_REMOTE_PLAYER => "GMSG_PAUSE_REMOTE_PLAYER",
        id::CONFIRM_PLAYER_DATA => "GMSG_CONFIRM_PLAYER_DATA",
        id::KILL_PLAYER => "GMSG_KILL_PLAYER",
        id::SET_GAME_STARTED => "GMSG_SET_GAME_STARTED",
        id::CREATE_REMOTE_PLAYER => "GMSG_CREATE_REMOTE_PLAYER",
        id::TEXT_FOR_PLAYER => "GMSG_TEXT_FOR_PLAYER",
        id::MISSION_DATA_PATH => "GMSG_MISSION_DATA_PATH",
        id::SET_PLAYER_DATA => "GMSG_SET_PLAYER_DATA",
        id::CHANGE_OBJECT_OWNER => "GMSG_CHANGE_OBJECT_OWNER",
        id::REMOVE_RESOURCE => "GMSG_REMOVE_RESOURCE",
        id::GET_SAVEGAME_FROM_HOST => "GMSG_GET_SAVEGAME_FROM_HOST",
        id::APPEND_RESOURCE => "GMSG_APPEND_RESOURCE",
        id::ORDER => "IRON3D_ORDER",
        id::ORDER_ACK => "IRON3D_ORDER_ACK",
        id::READY => "IRON3D_READY",
        id::DISCOVER => "IRON3D_DISCOVER",
        id::SESSION => "IRON3D_SESSION",
        id::PLAYER_STATE => "IRON3D_PLAYER_STATE",
        id::SET_TIME => "SYSMSG_SET_TIME",
        id::EVENTS => "IRON3D_EVENTS",
        id::CLAN_STATE => "IRON3D_CLAN_STATE",
        id::CLAN_NEWS => "IRON3D_CLAN_NEWS",
        id::SEAT => "IRON3D_SEAT",
        id::SYNC_DIGESTS => "IRON3D_SYNC_DIGESTS",
        id::SYNC_ROWS => "IRON3D_SYNC_ROWS",
        id::INVALID => "GMSG_INVALID",
        _ => "unknown",
    }
}

impl Gmsg {
    /// The message's id.
    pub fn id(&self) -> u32 {
        match self {
            Self::NewGameTick { .. } => id::NEW_GAME_TICK,
            Self::SetState { .. } => id::SET_STATE,
            Self::PauseRemotePlayer { .. } => id::PAUSE_REMOTE_PLAYER,
            Self::ConfirmPlayerData { .. } => id::CONFIRM_PLAYER_DATA,
            Self::KillPlayer { .. } => id::KILL_PLAYER,
            Self::SetGameStarted { .. } => id::SET_GAME_STARTED,
            Self::CreateRemotePlayer { .. } => id::CREATE_REMOTE_PLAYER,
            Self::TextForPlayer { .. } => id::TEXT_FOR_PLAYER,
            Self::MissionDataPath { .. } => id::MISSION_DATA_PATH,
            Self::SetPlayerData { .. } => id::SET_PLAYER_DATA,
            Self::ChangeObjectOwner { .. } => id::CHANGE_OBJECT_OWNER,
            Self::Order { .. } => id::ORDER,
            Self::OrderAck { .. } => id::ORDER_ACK,
            Self::Ready { .. } => id::READY,
            Self::Discover { .. } => id::DISCOVER,
            Self::GetSavegameFromHost { .. } => id::GET_SAVEGAME_FROM_HOST,
            Self::AppendResource { .. } => id::APPEND_RESOURCE,
            Self::RemoveResource { .. } => id::REMOVE_RESOURCE,
            Self::Session { .. } => id::SESSION,
            Self::PlayerState { .. } => id::PLAYER_STATE,
            Self::SetTime { .. } => id::SET_TIME,
            Self::Events { .. } => id::EVENTS,
            Self::ClanState(_) => id::CLAN_STATE,
            Self::ClanNews(_) => id::CLAN_NEWS,
            Self::Seat { .. } => id::SEAT,
            Self::SyncDigests(_) => id::SYNC_DIGESTS,
            Self::SyncRows(_) => id::SYNC_ROWS,
        }
    }

    /// How the message travels.
    pub fn delivery(&self) -> Delivery {
        match self {
            Self::NewGameTick { .. } | Self::Discover { .. } | Self::Session { .. } => Delivery::Unreliable,
            _ => Delivery::ReliableOrdered,
        }
    }

    fn write_payload(&self, w: &mut Writer) {
        match self {
            Self::NewGameTick { tick, replicated, hash } => {
                w.u32(*tick);
                w.u32(*replicated);
                w.u64(*hash);
            }
            Self::SetState { phase, tick } => {
                w.u8(*phase as u8);
                w.u32(*tick);
            }
            Self::PauseRemotePlayer { paused } | Self::Ready { ready: paused } => w.u8(u8::from(*paused)),
            Self::ConfirmPlayerData { player, clan } => {
                w.u16(*player);
                w.u32(*clan);
            }
            Self::KillPlayer { player, reason: text } => {
                w.u16(*player);
                w.str(text);
            }
            Self::TextForPlayer { from, clan_only, text } => {
                w.u16(*from);
                w.u8(u8::from(*clan_only));
                w.str(text);
            }
            Self::ClanState(state) => state.write(w),
            Self::ClanNews(news) => news.write(w),
            Self::Seat { player, token } => {
                w.u16(*player);
                w.u64(*token);
            }
            Self::SyncDigests(d) => d.write(w),
            Self::SyncRows(r) => r.write(w),
            Self::SetGameStarted { tick }
            | Self::SetTime { tick }
            | Self::Discover { version: tick }
            | Self::GetSavegameFromHost { transfer: tick } => w.u32(*tick),
            Self::AppendResource { transfer, total, offset, chunk } => {
                w.u32(*transfer);
                w.u32(*total);
                w.u32(*offset);
                w.bytes(chunk);
            }
            Self::RemoveResource { transfer, reason } => {
                w.u32(*transfer);
                w.str(reason);
            }
            Self::Session { version, port, players, max_players, mission } => {
                w.u32(*version);
                w.u16(*port);
                w.u8(*players);
                w.u8(*max_players);
                w.str(mission);
            }
            Self::CreateRemotePlayer { player, clan, name } => {
                w.u16(*player);
                w.u32(*clan);
                w.str(name);
            }
            Self::MissionDataPath { mission } => w.str(mission),
            Self::SetPlayerData { version, name, data } => {
                w.u32(*version);
                w.str(name);
                w.bytes(data);
            }
            Self::ChangeObjectOwner { id, clan, player } => {
                w.u32(*id);
                w.u32(*clan as u32);
                w.u16(*player);
            }
            Self::Order { seq, units, order, queued } => {
                w.u32(*seq);
                if units.len() > MAX_ORDER_UNITS {
                    w.overflow.get_or_insert_with(|| format!("{} units exceed {MAX_ORDER_UNITS}", units.len()));
                }
                w.len(units.len(), "units");
                units.iter().for_each(|u| w.u32(*u));
                write_order(w, order);
                w.u8(u8::from(*queued));
            }
            Self::OrderAck { seq, tick, accepted } => {
                w.u32(*seq);
                w.u32(*tick);
                w.u16(*accepted);
            }
            Self::PlayerState { player, host, ready } => {
                w.u16(*player);
                w.u8(u8::from(*host) | u8::from(*ready) << 1);
            }
            Self::Events { tick, events } => {
                w.u32(*tick);
                w.bytes(&crate::events::encode(events));
            }
        }
    }

    fn read_payload(message: u32, r: &mut Reader) -> Result<Self, String> {
        Ok(match message {
            id::NEW_GAME_TICK => Self::NewGameTick { tick: r.u32()?, replicated: r.u32()?, hash: r.u64()? },
            id::SET_STATE => {
                let phase = match r.u8()? {
                    0 => SessionPhase::Lobby,
                    1 => SessionPhase::Running,
                    2 => SessionPhase::Paused,
                    3 => SessionPhase::Ended,
                    other => return Err(format!("session phase {other} is not 0..=3")),
                };
                Self::SetState { phase, tick: r.u32()? }
            }
            id::PAUSE_REMOTE_PLAYER => Self::PauseRemotePlayer { paused: r.flag()? },
            id::READY => Self::Ready { ready: r.flag()? },
            id::CONFIRM_PLAYER_DATA => Self::ConfirmPlayerData { player: r.player()?, clan: r.u32()? },
            id::KILL_PLAYER => Self::KillPlayer { player: r.u16()?, reason: r.str()? },
            id::TEXT_FOR_PLAYER => Self::TextForPlayer { from: r.u16()?, clan_only: r.flag()?, text: r.str()? },
            id::CLAN_STATE => Self::ClanState(crate::clan_state::ClanState::read(r)?),
            id::CLAN_NEWS => Self::ClanNews(crate::clan_state::ClanNews::read(r)?),
            id::SEAT => Self::Seat { player: r.player()?, token: r.u64()? },
            id::SYNC_DIGESTS => Self::SyncDigests(crate::sync_report::Digests::read(r)?),
            id::SYNC_ROWS => Self::SyncRows(crate::sync_report::HostRows::read(r)?),
            id::SET_GAME_STARTED => Self::SetGameStarted { tick: r.u32()? },
            id::CREATE_REMOTE_PLAYER => {
                Self::CreateRemotePlayer { player: r.player()?, clan: r.u32()?, name: r.str()? }
            }
            id::MISSION_DATA_PATH => Self::MissionDataPath { mission: r.str()? },
            id::SET_PLAYER_DATA => Self::SetPlayerData { version: r.u32()?, name: r.str()?, data: r.bytes()? },
            id::CHANGE_OBJECT_OWNER => {
                Self::ChangeObjectOwner { id: r.u32()?, clan: r.u32()? as i32, player: r.u16()? }
            }
            id::ORDER => {
                let seq = r.u32()?;
                let count = usize::from(r.u16()?);
                if count > MAX_ORDER_UNITS {
                    return Err(format!("{count} units exceed {MAX_ORDER_UNITS}"));
                }
                r.need(count * 4)?;
                let units = (0..count).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
                Self::Order { seq, units, order: read_order(r)?, queued: r.flag()? }
            }
            id::ORDER_ACK => Self::OrderAck { seq: r.u32()?, tick: r.u32()?, accepted: r.u16()? },
            id::PLAYER_STATE => {
                let player = r.player()?;
                match r.u8()? {
                    flags @ 0..=3 => Self::PlayerState { player, host: flags & 1 != 0, ready: flags & 2 != 0 },
                    flags => return Err(format!("player flags {flags:#04x} have bits beyond host and ready")),
                }
            }
            id::SET_TIME => Self::SetTime { tick: r.u32()? },
            id::EVENTS => Self::Events { tick: r.u32()?, events: crate::events::decode(&r.bytes()?)? },
            id::DISCOVER => Self::Discover { version: r.u32()? },
            id::GET_SAVEGAME_FROM_HOST => Self::GetSavegameFromHost { transfer: r.u32()? },
            id::APPEND_RESOURCE => {
                Self::AppendResource { transfer: r.u32()?, total: r.u32()?, offset: r.u32()?, chunk: r.bytes()? }
            }
            id::REMOVE_RESOURCE => Self::RemoveResource { transfer: r.u32()?, reason: r.str()? },
            id::SESSION => Self::Session {
                version: r.u32()?,
                port: r.u16()?,
                players: r.u8()?,
                max_players: r.u8()?,
                mission: r.str()?,
            },
            _ => unreachable!("read_payload is called for known ids only"),
        })
    }
}

fn known(message: u32) -> bool {
    message != id::INVALID && message != id::END_MESSAGE_SEQ && name(message) != "unknown"
}

fn write_order(w: &mut Writer, order: &WireOrder) {
    let plain = match order {
        WireOrder::Build(scheme) | WireOrder::Batch(scheme) => {
            w.u8(if matches!(order, WireOrder::Build(_)) { 6 } else { 16 });
            match scheme {
                WireScheme::Named(name) => {
                    w.u8(0);
                    w.str(name);
                }
                WireScheme::Design(dat) => {
                    w.u8(1);
                    w.bytes(dat);
                }
            }
            return;
        }
        WireOrder::Plain(o) => o,
    };
    match *plain {
        Order::Stop => w.u8(0),
        Order::MoveTo([x, y]) => {
            w.u8(1);
            w.u32(x.to_bits());
            w.u32(y.to_bits());
        }
        Order::MoveToObject(v)
        | Order::Attack(v)
        | Order::Research(v)
        | Order::Haul(v)
        | Order::Upgrade(v)
        | Order::Capture(v)
        | Order::Board(v)
        | Order::Follow(v) => {
            w.u8(plain.key().0);
            w.u32(v);
        }
        Order::FollowPath(p) | Order::Patrol(p) => {
            w.u8(if matches!(plain, Order::FollowPath(_)) { 3 } else { 4 });
            w.u32(p as u32);
        }
        Order::Pilot(p) => {
            w.u8(8);
            w.u8(p.throttle as u8);
            w.u8(p.turn as u8);
            w.u8(p.strafe as u8);
            w.u16(p.aim_mrad as u16);
            w.u8(u8::from(p.fire));
            w.u8(u8::from(p.fire_missiles));
            w.u8(u8::from(p.fire_all));
            w.u8(u8::from(p.camouflage));
            w.u8(u8::from(p.turret_lock));
            w.u8(u8::from(p.target.is_some()));
            if let Some(t) = p.target {
                w.u32(t);
            }
        }
        Order::Release => w.u8(9),
        Order::SelectWeapon(n) | Order::AutoDriver(n) => {
            w.u8(plain.key().0);
            w.u8(n);
        }
        Order::Migrate => w.u8(11),
        Order::Refit => w.u8(12),
        Order::SearchLodes => w.u8(13),
        Order::Construct(site) => {
            w.u8(14);
            w.u64(site.bits());
        }
        Order::StopBuild => w.u8(17),
        Order::Leave | Order::StandGround | Order::Shutdown => w.u8(plain.key().0),
        Order::Search(_) => {
            let (tag, mode, _) = plain.key();
            w.u8(tag);
            w.u8(mode as u8);
        }
        Order::Guard(_) => {
            let (tag, value, extra) = plain.key();
            w.u8(tag);
            w.u64(value);
            if Order::has_extra(tag) {
                w.u64(extra);
            }
        }
        Order::Build(_) | Order::Batch(_) => unreachable!("a build or batch order travels by its scheme's name"),
    }
}

fn read_order(r: &mut Reader) -> Result<WireOrder, String> {
    let plain = match r.u8()? {
        0 => Order::Stop,
        1 => {
            let (x, y) = (f32::from_bits(r.u32()?), f32::from_bits(r.u32()?));
            if !(x.is_finite() && y.is_finite()) {
                return Err(format!("move target ({x}, {y}) is not finite"));
            }
            Order::MoveTo([x, y])
        }
        2 => Order::MoveToObject(r.u32()?),
        3 => Order::FollowPath(r.u32()? as i32),
        4 => Order::Patrol(r.u32()? as i32),
        5 => Order::Attack(r.u32()?),
        6 => return Ok(WireOrder::Build(read_scheme(r)?)),
        16 => return Ok(WireOrder::Batch(read_scheme(r)?)),
        17 => Order::StopBuild,
        7 => Order::Research(r.u32()?),
        8 => Order::Pilot(PilotInput {
            throttle: r.u8()? as i8,
            turn: r.u8()? as i8,
            strafe: r.u8()? as i8,
            aim_mrad: r.u16()? as i16,
            fire: r.flag()?,
            fire_missiles: r.flag()?,
            fire_all: r.flag()?,
            camouflage: r.flag()?,
            turret_lock: r.flag()?,
            target: if r.flag()? { Some(r.u32()?) } else { None },
        }),
        9 => Order::Release,
        10 => Order::Haul(r.u32()?),
        11 => Order::Migrate,
        12 => Order::Refit,
        13 => Order::SearchLodes,
        14 => Order::Construct(iron3d_core::Site::from_bits(r.u64()?)),
        15 => Order::Upgrade(r.u32()?),
        18 => Order::Capture(r.u32()?),
        19 => Order::Board(r.u32()?),
        20 => Order::Leave,
        21 => Order::StandGround,
        22 => Order::Shutdown,
        23 => Order::Follow(r.u32()?),
        24 => match r.u8()? {
            0 => Order::Search(iron3d_core::SearchFor::Capture),
            1 => Order::Search(iron3d_core::SearchFor::Enemies),
            mode => return Err(format!("search mode {mode} is not 0 (capture) or 1 (enemies)")),
        },
        tag @ (25 | 26) => {
            let value = r.u64()?;
            let extra = if Order::has_extra(tag) { r.u64()? } else { 0 };
            match Order::guard_of_key(tag, value, extra) {
                Some(Order::Guard(g)) if g.finite() => Order::Guard(g),
                _ => return Err(format!("guard order (tag {tag}) has a place or radius that is not finite")),
            }
        }
        27 => Order::SelectWeapon(r.u8()?),
        29 => match r.u8()? {
            n if n < AutoDriver::LEVELS => Order::AutoDriver(n),
            n => return Err(format!("auto-driver level {n} is not 0..=2")),
        },
        tag => return Err(format!("order tag {tag} is not 0..=27 or 29")),
    };
    Ok(WireOrder::Plain(plain))
}

fn read_scheme(r: &mut Reader) -> Result<WireScheme, String> {
    match r.u8()? {
        0 => Ok(WireScheme::Named(r.str()?)),
        1 => Ok(WireScheme::Design(r.bytes()?)),
        kind => Err(format!("scheme kind {kind} is not 0 (named) or 1 (a design)")),
    }
}

/// Encodes messages as one sequence (closed by its end marker).
///
/// # Errors
/// A field, payload or the sequence too long for its length word or [`MAX_SEQUENCE`]
/// (nothing is cut short).
pub fn encode(messages: &[Gmsg]) -> Result<Vec<u8>, String> {
    let mut w = Writer::default();
    for m in messages {
        let mut payload = Writer::default();
        m.write_payload(&mut payload);
        if let Some(e) = payload.overflow {
            return Err(format!("{}: {e}", name(m.id())));
        }
        w.u32(m.id());
        w.len(payload.out.len(), "payload bytes");
        w.out.extend_from_slice(&payload.out);
    }
    w.u32(id::END_MESSAGE_SEQ);
    w.u16(2);
    w.len(messages.len(), "frames in a sequence");
    match w.overflow {
        Some(e) => Err(e),
        None if w.out.len() > MAX_SEQUENCE => Err(format!("sequence of {} bytes exceeds {MAX_SEQUENCE}", w.out.len())),
        None => Ok(w.out),
    }
}

/// Decodes a whole sequence, in order; any defect refuses all of it.
///
/// # Errors
/// The first defect, located by offset and frame.
pub fn decode(bytes: &[u8]) -> Result<Vec<Gmsg>, DecodeError> {
    if bytes.len() > MAX_SEQUENCE {
        return Err(DecodeError::Oversized { len: bytes.len() });
    }
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let mut header = Reader { bytes, at: offset };
        let (message, len) = match (header.u32(), header.u16()) {
            (Ok(m), Ok(l)) => (m, usize::from(l)),
            _ if offset == bytes.len() => return Err(DecodeError::MissingEnd),
            _ => return Err(DecodeError::Truncated { offset, need: HEADER, have: bytes.len() - offset }),
        };
        let start = offset + HEADER;
        if bytes.len() - start < len {
            return Err(DecodeError::Truncated { offset: start, need: len, have: bytes.len() - start });
        }
        let mut r = Reader { bytes: &bytes[..start + len], at: start };
        let bad = |detail: String| DecodeError::BadPayload { id: message, offset, detail };
        if message == id::END_MESSAGE_SEQ {
            let said = r.u16().map_err(bad)?;
            if r.at != start + len {
                return Err(bad(format!("{} bytes after the count", start + len - r.at)));
            }
            if usize::from(said) != out.len() {
                return Err(DecodeError::CountMismatch { said, read: out.len() });
            }
            if start + len != bytes.len() {
                return Err(DecodeError::TrailingBytes { offset: start + len });
            }
            return Ok(out);
        }
        if !known(message) {
            return Err(DecodeError::UnknownId { id: message, offset });
        }
        out.push(Gmsg::read_payload(message, &mut r).map_err(bad)?);
        if r.at != start + len {
            return Err(bad(format!("{} bytes after the payload", start + len - r.at)));
        }
        offset = start + len;
    }
}

/// Little-endian output that remembers the first length too large for its word.
#[derive(Default)]
pub(crate) struct Writer {
    out: Vec<u8>,
    overflow: Option<String>,
}

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn len(&mut self, n: usize, what: &str) {
        match u16::try_from(n) {
            Ok(v) => self.u16(v),
            Err(_) => {
                self.overflow.get_or_insert_with(|| format!("{n} {what} exceed {}", u16::MAX));
                self.u16(u16::MAX);
            }
        }
    }
    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.len(v.len(), "bytes of a field");
        self.out.extend_from_slice(v);
    }
    pub(crate) fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }
}

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    pub(crate) fn need(&self, n: usize) -> Result<(), String> {
        let have = self.bytes.len() - self.at;
        if have < n { Err(format!("need {n} bytes at offset {}, have {have}", self.at)) } else { Ok(()) }
    }
    pub(crate) fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        self.need(N)?;
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        Ok(out)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    pub(crate) fn flag(&mut self) -> Result<bool, String> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(format!("flag {v} at offset {} is not 0 or 1", self.at - 1)),
        }
    }
    pub(crate) fn player(&mut self) -> Result<u16, String> {
        match self.u16()? {
            0 => Err("player number 0 with an active network".into()),
            n => Ok(n),
        }
    }
    pub(crate) fn bytes(&mut self) -> Result<Vec<u8>, String> {
        let len = usize::from(self.u16()?);
        self.need(len)?;
        let out = self.bytes[self.at..self.at + len].to_vec();
        self.at += len;
        Ok(out)
    }
    pub(crate) fn str(&mut self) -> Result<String, String> {
        let at = self.at;
        String::from_utf8(self.bytes()?).map_err(|_| format!("text at offset {at} is not UTF-8"))
    }
}
