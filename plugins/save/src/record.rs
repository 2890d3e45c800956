//! [`Record`]: what a save or a replay holds (the mission, the data layers, the
//! difficulty, the external command log with the tick each command applied at, the
//! commands still queued, the scheme names orders refer to, state hashes, a save's
//! [`Snapshot`] of the simulation state and the game's camera and interface state),
//! taken from a world at a tick boundary, and its chunks.

use crate::codec::{Reader, Writer};
use crate::format::{Chunk, Container, ENGINE_VERSION, FileKind, FormatError, Header};
use crate::game::SaveView;
use crate::log::CommandLog;
use crate::snapshot::{self, Snapshot};
use bevy_ecs::prelude::*;
use iron3d_core::{
    CommandQueue, DataLayers, Designs, Difficulty, DifficultyLevel, GameClock, Order, PilotInput, SchemeNames,
    SchemeRef, Seat, Seats, SimCommand,
};
use iron3d_sim::StateHash;
use std::collections::BTreeMap;

/// A save or a replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Save or replay.
    pub kind: FileKind,
    /// The engine version that wrote it.
    pub engine_version: String,
    /// The mission name as loaded.
    pub mission: String,
    /// The tick it ends at.
    pub tick: u32,
    /// The data layers, bottom first.
    pub layers: DataLayers,
    /// The difficulty level.
    pub difficulty: DifficultyLevel,
    /// External commands, `(tick applied, command)`, in application order.
    pub commands: Vec<(u32, SimCommand)>,
    /// Commands queued for later ticks (a save's; empty in a replay).
    pub pending: Vec<SimCommand>,
    /// The scheme names build orders refer to.
    pub schemes: BTreeMap<u64, String>,
    /// The designs build orders refer to ([`Designs`]; empty in files before format
    /// version 12).
    pub designs: BTreeMap<u64, Vec<u8>>,
    /// `(tick, state hash)` checkpoints, the last at [`Record::tick`].
    pub hashes: Vec<(u32, u64)>,
    /// A save's simulation state at [`Record::tick`] (`None` in a replay and in a save
    /// of format version 1, which is resumed by re-simulation).
    pub snapshot: Option<Snapshot>,
    /// A save's camera and interface state as the game encodes it ([`SaveView`]; not
    /// hashed, never read by the simulation).
    pub view: Option<Vec<u8>>,
    /// Who commanded which clan in a hosted game ([`Seats`]; empty in a single-player
    /// game and in files before format version 4).
    pub seats: BTreeMap<u16, Seat>,
}

const META: [u8; 4] = *b"meta";
const COMMANDS: [u8; 4] = *b"cmds";
const PENDING: [u8; 4] = *b"pend";
const SCHEMES: [u8; 4] = *b"schm";
const HASHES: [u8; 4] = *b"hash";
const VIEW: [u8; 4] = *b"view";
const SEATS: [u8; 4] = *b"seat";
const DESIGNS: [u8; 4] = *b"dsgn";
/// The format version that added the seats chunk.
const SEATS_SINCE: u16 = 4;
/// Every chunk this version knows, with its layout version.
const CHUNKS: [([u8; 4], u16); 5] = [(META, 1), (COMMANDS, 1), (PENDING, 1), (SCHEMES, 1), (HASHES, 1)];
/// The chunks a file may hold or not.
const OPTIONAL: [([u8; 4], u16); 3] = [(VIEW, 1), (SEATS, 1), (DESIGNS, 1)];

impl Record {
    /// The record of `world` now (call between ticks, never inside a schedule): the
    /// state hash at every `every`-th tick and at the last; a save's snapshot.
    ///
    /// # Errors
    /// A part of the state the encoding refuses.
    pub fn capture(world: &World, kind: FileKind, mission: &str, every: u32) -> Result<Self, String> {
        let tick = world.resource::<GameClock>().tick;
        let history = &world.resource::<StateHash>().history;
        let hashes = history.iter().copied().filter(|(t, _)| t.is_multiple_of(every.max(1)) || *t == tick).collect();
        let pending = match kind {
            FileKind::Save => world.resource::<CommandQueue>().pending.clone(),
            FileKind::Replay => Vec::new(),
        };
        let (snapshot, view) = match kind {
            FileKind::Save => (Some(Snapshot::capture(world)?), world.get_resource::<SaveView>().map(|v| v.0.clone())),
            FileKind::Replay => (None, None),
        };
        Ok(Self {
            kind,
            engine_version: ENGINE_VERSION.into(),
            mission: mission.into(),
            tick,
            layers: world.get_resource::<DataLayers>().cloned().unwrap_or_default(),
            difficulty: world.get_resource::<Difficulty>().map(|d| d.level).unwrap_or_default(),
            commands: world.get_resource::<CommandLog>().map(|l| l.0.clone()).unwrap_or_default(),
            pending,
            schemes: world.resource::<SchemeNames>().0.clone(),
            designs: world.get_resource::<Designs>().map(|d| d.0.clone()).unwrap_or_default(),
            hashes,
            snapshot,
            view,
            seats: world.get_resource::<Seats>().map(|s| s.0.clone()).unwrap_or_default(),
        })
    }

    /// The format version the record is written in: a save without a snapshot is a
    /// version-1 save (it is resumed by re-simulation), everything else the current.
    pub fn format_version(&self) -> u16 {
        match (self.kind, &self.snapshot) {
            (FileKind::Save, None) => 1,
            _ => crate::format::FORMAT_VERSION,
        }
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// A field too large for the format.
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let mut meta = Writer::default();
        meta.u8(self.difficulty as u8);
        let mut commands = Writer::default();
        commands.count(self.commands.len())?;
        for (tick, c) in &self.commands {
            commands.u32(*tick);
            write_command(&mut commands, c)?;
        }
        let mut pending = Writer::default();
        pending.count(self.pending.len())?;
        self.pending.iter().try_for_each(|c| write_command(&mut pending, c))?;
        let mut schemes = Writer::default();
        schemes.count(self.schemes.len())?;
        for (key, name) in &self.schemes {
            schemes.u64(*key);
            schemes.str(name)?;
        }
        let mut hashes = Writer::default();
        hashes.count(self.hashes.len())?;
        for (tick, hash) in &self.hashes {
            hashes.u32(*tick);
            hashes.u64(*hash);
        }
        let data = [meta, commands, pending, schemes, hashes];
        let own: Vec<Chunk> = CHUNKS.iter().zip(data).map(|((name, v), w)| Chunk::new(*name, *v, w.0)).collect();
        let mut optional: Vec<Chunk> = self.view.iter().map(|v| Chunk::new(VIEW, OPTIONAL[0].1, v.clone())).collect();
        if !self.seats.is_empty() {
            let mut seats = Writer::default();
            seats.serde(&self.seats)?;
            optional.push(Chunk::new(SEATS, OPTIONAL[1].1, seats.0));
        }
        if !self.designs.is_empty() {
            let mut designs = Writer::default();
            designs.serde(&self.designs)?;
            optional.push(Chunk::new(DESIGNS, OPTIONAL[2].1, designs.0));
        }
        // The snapshot's chunks are written where they are, not copied.
        let snapshot = self.snapshot.iter().flat_map(|s| &s.0);
        let chunks: Vec<&Chunk> = own.iter().chain(snapshot).chain(&optional).collect();
        let header = Header {
            kind: self.kind,
            format_version: self.format_version(),
            engine_version: self.engine_version.clone(),
            mission: self.mission.clone(),
            tick: self.tick,
            layers: self.layers.clone(),
        };
        crate::format::encode(&header, &chunks)
    }

    /// Reads a file of `kind`.
    ///
    /// # Errors
    /// What [`Container::decode`] refuses, an unknown, repeated, missing or newer chunk,
    /// or a chunk whose data does not parse (each naming the chunk and its offset).
    pub fn decode(bytes: &[u8], kind: FileKind) -> Result<Self, FormatError> {
        let container = Container::decode(bytes, kind)?;
        for (i, chunk) in container.chunks.iter().enumerate() {
            let known = CHUNKS.iter().chain(&snapshot::CHUNKS).chain(&OPTIONAL).find(|(n, _)| *n == chunk.name);
            let problem = match known {
                None => Some("is not a chunk this engine knows".to_string()),
                Some((_, v)) if chunk.version > *v => {
                    Some(format!("version {} is newer than this engine's {v}", chunk.version))
                }
                _ if container.chunks[..i].iter().any(|c| c.name == chunk.name) => Some("appears twice".into()),
                _ if chunk.name == SEATS && container.header.format_version < SEATS_SINCE => Some(format!(
                    "is not in format version {} (added in {SEATS_SINCE})",
                    container.header.format_version
                )),
                _ => None,
            };
            if let Some(message) = problem {
                return Err(FormatError { chunk: chunk.name(), offset: chunk.offset, message });
            }
        }
        let get = |name: [u8; 4]| {
            container.chunk(&name).map(Reader::chunk).ok_or_else(|| FormatError {
                chunk: String::from_utf8_lossy(&name).into_owned(),
                offset: bytes.len(),
                message: "the chunk is missing".into(),
            })
        };
        let mut r = get(META)?;
        let difficulty =
            DifficultyLevel::ALL.get(usize::from(r.u8()?)).copied().ok_or(r.error("unknown difficulty"))?;
        r.done()?;
        let mut r = get(COMMANDS)?;
        let commands = (0..r.count(14)?).map(|_| Ok((r.u32()?, read_command(&mut r)?))).collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = get(PENDING)?;
        let pending = (0..r.count(10)?).map(|_| read_command(&mut r)).collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = get(SCHEMES)?;
        let schemes = (0..r.count(10)?).map(|_| Ok((r.u64()?, r.str()?))).collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = get(HASHES)?;
        let hashes = (0..r.count(12)?).map(|_| Ok((r.u32()?, r.u64()?))).collect::<Result<_, _>>()?;
        r.done()?;
        let view = container.chunk(&VIEW).map(|c| c.data.clone());
        let seats = optional(&container, &SEATS, "the seats")?.unwrap_or_default();
        let designs = optional(&container, &DESIGNS, "the designs")?.unwrap_or_default();
        let h = container.header;
        let snapshot = match h.format_version {
            // Its snapshot went through reflection (2), holds the older rules' state
            // (3 to 6 and 8 to 16) or lists its parts by position (7): re-simulated
            // instead (`format::migrate`).
            2..=16 => None,
            _ => Snapshot::from_chunks(&container.chunks, bytes.len())?,
        };
        if let Some(s) = &snapshot {
            s.check_layout()?;
        }
        if kind == FileKind::Save && h.format_version >= crate::format::FORMAT_VERSION && snapshot.is_none() {
            return Err(FormatError {
                chunk: "objs".into(),
                offset: bytes.len(),
                message: format!("a save of format version {} must hold the snapshot", h.format_version),
            });
        }
        Ok(Self {
            kind,
            engine_version: h.engine_version,
            mission: h.mission,
            tick: h.tick,
            layers: h.layers,
            difficulty,
            commands,
            pending,
            schemes,
            designs,
            hashes,
            snapshot,
            view,
            seats,
        })
    }
}

/// The value of optional chunk `name`, `None` when the file has none.
fn optional<T: serde::de::DeserializeOwned>(
    container: &Container,
    name: &[u8; 4],
    what: &str,
) -> Result<Option<T>, FormatError> {
    match container.chunk(name).map(Reader::chunk) {
        None => Ok(None),
        Some(mut r) => {
            let value = r.serde(what)?;
            r.done()?;
            Ok(Some(value))
        }
    }
}

/// A command: tick, queued, units, order (its key: kind byte and value word).
fn write_command(w: &mut Writer, c: &SimCommand) -> Result<(), String> {
    w.u32(c.tick);
    w.u8(u8::from(c.queued));
    w.count(c.units.len())?;
    c.units.iter().for_each(|u| w.u32(*u));
    let (kind, value, extra) = c.order.key();
    w.u8(kind);
    w.u64(value);
    if Order::has_extra(kind) {
        w.u64(extra);
    }
    Ok(())
}

fn read_command(r: &mut Reader) -> Result<SimCommand, FormatError> {
    let tick = r.u32()?;
    let queued = match r.u8()? {
        0 => false,
        1 => true,
        q => return Err(r.error(format!("queued flag {q} is not 0 or 1"))),
    };
    let units = (0..r.count(4)?).map(|_| r.u32()).collect::<Result<_, _>>()?;
    let at = r.offset();
    let (kind, value) = (r.u8()?, r.u64()?);
    let extra = if Order::has_extra(kind) { r.u64()? } else { 0 };
    let order = order_of_key(kind, value, extra).ok_or_else(|| r.error_at(at, format!("unknown order kind {kind}")))?;
    Ok(SimCommand { tick, units, order, queued })
}

/// The order of an [`Order::key`] (the key is lossless).
fn order_of_key(kind: u8, value: u64, extra: u64) -> Option<Order> {
    if let Some(guard) = Order::guard_of_key(kind, value, extra) {
        return Some(guard);
    }
    let low = value as u32;
    Some(match kind {
        0 => Order::Stop,
        1 => Order::MoveTo([f32::from_bits((value >> 32) as u32), f32::from_bits(low)]),
        2 => Order::MoveToObject(low),
        3 => Order::FollowPath(low as i32),
        4 => Order::Patrol(low as i32),
        5 => Order::Attack(low),
        6 => Order::Build(SchemeRef(value)),
        7 => Order::Research(low),
        // A pilot input of format 12 and before had no second word.
        8 => Order::Pilot(PilotInput::from_bits(value, 0)),
        28 => Order::Pilot(PilotInput::from_bits(value, extra)),
        9 => Order::Release,
        10 => Order::Haul(low),
        11 => Order::Migrate,
        12 => Order::Refit,
        13 => Order::SearchLodes,
        14 => Order::Construct(iron3d_core::Site::from_bits(value)),
        15 => Order::Upgrade(low),
        16 => Order::Batch(SchemeRef(value)),
        17 => Order::StopBuild,
        18 => Order::Capture(low),
        19 => Order::Board(low),
        20 => Order::Leave,
        21 => Order::StandGround,
        22 => Order::Shutdown,
        23 => Order::Follow(low),
        24 if value == 0 => Order::Search(iron3d_core::SearchFor::Capture),
        24 if value == 1 => Order::Search(iron3d_core::SearchFor::Enemies),
        27 => Order::SelectWeapon(u8::try_from(value).ok()?),
        29 => Order::AutoDriver(u8::try_from(value).ok().filter(|n| *n < iron3d_core::AutoDriver::LEVELS)?),
        _ => return None,
    })
}
