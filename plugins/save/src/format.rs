//! The container: a header (magic, format version, engine version, the mission, the
//! tick, the data layers with their fingerprints, the chunk count, a CRC-32 of the
//! header), then chunks, each named (four ASCII bytes), versioned, length-prefixed,
//! deflate-compressed and closed by a CRC-32 of its framing and stored bytes. Every
//! byte of a file is covered by one checksum; bytes after the last chunk are refused.
//! Little-endian throughout; `docs/save-format.md` is the reference.

use crate::codec::{Reader, Writer};
use flate2::read::DeflateDecoder;
use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use iron3d_core::{DataLayer, DataLayers};
use std::io::Read;

/// The format version this engine writes (3: a save holds the simulation state,
/// `Snapshot`, written through serde derives; 4: a hosted game's seats, chunk `seat`;
/// 5: the objects chunk in columns, one per saved component; 6: the original's clan
/// relations and types, the clans' minds and the research tree's items in the
/// snapshot; 7: animals' migration, the clans' pastures and each object's last hit; 8:
/// the snapshot's parts named by the tags the crates declare, `iron3d_core::SimState`;
/// 9: machines' engines, running gear and payload in their combat sheets and limits,
/// and their `iron3d_core::Drive`; 10: the buildings' batteries and efficiency parts;
/// 11: a haul's route, the original's, in `iron3d_behavior::HaulTrip`; 12: the
/// builders' sites and spheres, and the designs the game keeps, `iron3d_core::Designs`,
/// also in a replay's chunk `dsgn`; 13: the guns' selection and arms, the pilot's
/// hand-over tick, and a pilot input's second word (strafe, missiles, every gun); 14:
/// each unit's auto-driver level, `iron3d_core::AutoDriver`, and the level its driver
/// took it at; 15: each clan's design draw, `iron3d_superai::designs::DesignDraw`, in
/// its script VM's state, and the computer clans' design store, `iron3d_core::AiDesigns`;
/// 16: the turn a driven bot's hull made following its turret, `iron3d_core::Kinematics`;
/// 17: the body node each drawn piece shows, `iron3d_core::CombatSheet::pieces`, and the
/// turret lock's switch, `iron3d_core::ManualControl::unlocked`).
pub const FORMAT_VERSION: u16 = 17;
/// The oldest format version this engine loads: 1, whose saves hold no snapshot and are
/// resumed by re-simulation (`migrate`).
pub const OLDEST_LOADABLE_VERSION: u16 = 1;
/// The engine version written into files.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The largest chunk accepted, stored or inflated (a damaged length cannot make the
/// reader allocate more).
pub const MAX_CHUNK_BYTES: u32 = 256 << 20;
/// Chunk data is deflated in pieces of this many bytes, on parallel threads: each piece
/// starts a fresh compressor and ends at a byte boundary (a sync flush), the last ends
/// the stream, so a chunk's pieces make one ordinary deflate stream.
const PIECE_BYTES: usize = 1 << 20;

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A saved game, resumed from its tick.
    Save,
    /// A replay, re-simulated from the mission's start and checked against its hashes.
    Replay,
}

impl FileKind {
    const fn magic(self) -> &'static [u8; 8] {
        match self {
            Self::Save => b"IRON3DSV",
            Self::Replay => b"IRON3DRP",
        }
    }

    /// The kind of a file by its magic (`None`: neither).
    pub fn detect(bytes: &[u8]) -> Option<Self> {
        [Self::Save, Self::Replay].into_iter().find(|k| bytes.starts_with(k.magic()))
    }

    /// `save` or `replay`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Save => "save",
            Self::Replay => "replay",
        }
    }
}

/// The header's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Save or replay.
    pub kind: FileKind,
    /// The format version the file was written in.
    pub format_version: u16,
    /// The engine version that wrote it.
    pub engine_version: String,
    /// The mission name as loaded (`single.02`, `campaign.01/mission.02`).
    pub mission: String,
    /// The tick the file ends at (a save: the tick it resumes after).
    pub tick: u32,
    /// The data layers the game ran on, bottom first.
    pub layers: DataLayers,
}

/// One chunk, inflated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Four ASCII bytes (`cmds`, `hash`, ...).
    pub name: [u8; 4],
    /// The chunk's own layout version.
    pub version: u16,
    /// The inflated payload.
    pub data: Vec<u8>,
    /// Where the chunk starts in the file (0 for a chunk not read from a file).
    pub offset: usize,
    /// Its stored (compressed) size in bytes.
    pub stored: u32,
}

impl Chunk {
    /// A chunk to write.
    pub fn new(name: [u8; 4], version: u16, data: Vec<u8>) -> Self {
        Self { name, version, data, offset: 0, stored: 0 }
    }

    /// The name as text.
    pub fn name(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }
}

/// A whole file: header and chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// The header.
    pub header: Header,
    /// The chunks in file order.
    pub chunks: Vec<Chunk>,
}

/// A refused file: the part (`header`, a chunk's name, `end`) and the byte offset where
/// the problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// `header`, the chunk's name, or `end` (bytes after the last chunk).
    pub chunk: String,
    /// Byte offset in the file.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at offset {}: {}", self.chunk, self.offset, self.message)
    }
}

impl std::error::Error for FormatError {}

fn crc(bytes: &[u8]) -> u32 {
    let mut c = Crc::new();
    c.update(bytes);
    c.sum()
}

impl Container {
    /// The file's bytes (in the header's format version).
    ///
    /// # Errors
    /// A chunk larger than [`MAX_CHUNK_BYTES`] or a name or mission too long for its field.
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        encode(&self.header, &self.chunks.iter().collect::<Vec<_>>())
    }

    /// Reads a file of `kind`, migrated to [`FORMAT_VERSION`].
    ///
    /// # Errors
    /// Empty, foreign, truncated, damaged (checksum), newer or too old, or with bytes
    /// after the last chunk; the error names the part and the offset.
    pub fn decode(bytes: &[u8], kind: FileKind) -> Result<Self, FormatError> {
        let mut r = Reader::new(bytes, "header");
        if bytes.is_empty() {
            return Err(r.error("the file is empty"));
        }
        let magic = r.take(8)?;
        if magic != kind.magic() {
            let other = [FileKind::Save, FileKind::Replay].into_iter().find(|k| magic == k.magic());
            return Err(match other {
                Some(o) => r.error_at(0, format!("this is a {}, not a {}", o.name(), kind.name())),
                None => r.error_at(0, format!("not an iron3d {} (magic {:02x?})", kind.name(), magic)),
            });
        }
        let at = r.offset();
        let format_version = r.u16()?;
        if format_version > FORMAT_VERSION {
            return Err(r.error_at(
                at,
                format!("format version {format_version} is newer than this engine's {FORMAT_VERSION}"),
            ));
        }
        if format_version < OLDEST_LOADABLE_VERSION {
            return Err(r.error_at(
                at,
                format!(
                    "format version {format_version} is older than the oldest this engine loads, {OLDEST_LOADABLE_VERSION}"
                ),
            ));
        }
        let engine_version = r.short_str()?;
        let mission = r.str()?;
        let tick = r.u32()?;
        let layers = (0..r.u8()?)
            .map(|_| Ok(DataLayer { name: r.short_str()?, fingerprint: r.u64()? }))
            .collect::<Result<Vec<_>, FormatError>>()?;
        let count = r.u16()?;
        let end = r.offset();
        let stored = r.u32()?;
        if stored != crc(&bytes[..end]) {
            return Err(r.error_at(end, format!("header checksum {stored:08x} does not match its bytes")));
        }
        let header = Header { kind, format_version, engine_version, mission, tick, layers: DataLayers(layers) };
        let chunks = (0..count).map(|k| read_chunk(&mut r, bytes, k, count)).collect::<Result<Vec<_>, _>>()?;
        if r.offset() < bytes.len() {
            return Err(FormatError {
                chunk: "end".into(),
                offset: r.offset(),
                message: format!("{} bytes after the last chunk", bytes.len() - r.offset()),
            });
        }
        let container = Self { header, chunks };
        migrate(&container)?;
        Ok(container)
    }

    /// The chunk named `name`, if present.
    pub fn chunk(&self, name: &[u8; 4]) -> Option<&Chunk> {
        self.chunks.iter().find(|c| &c.name == name)
    }
}

/// The bytes of a file of `header` and `chunks` ([`Container::encode`], without copying
/// the chunks).
pub(crate) fn encode(h: &Header, chunks: &[&Chunk]) -> Result<Vec<u8>, String> {
    let mut w = Writer::default();
    w.bytes(h.kind.magic());
    w.u16(h.format_version);
    w.short_str(&h.engine_version)?;
    w.str(&h.mission)?;
    w.u32(h.tick);
    w.u8(u8::try_from(h.layers.0.len()).map_err(|_| "more than 255 data layers")?);
    for layer in &h.layers.0 {
        w.short_str(&layer.name)?;
        w.u64(layer.fingerprint);
    }
    w.u16(u16::try_from(chunks.len()).map_err(|_| "too many chunks")?);
    let sum = crc(&w.0);
    w.u32(sum);
    let pieces: Vec<(&[u8], bool)> = chunks
        .iter()
        .flat_map(|c| {
            let n = c.data.len().div_ceil(PIECE_BYTES).max(1);
            (0..n).map(move |k| (&c.data[k * PIECE_BYTES..c.data.len().min((k + 1) * PIECE_BYTES)], k + 1 == n))
        })
        .collect();
    let mut deflated = crate::pieces::map(&pieces, |(data, last)| deflate(data, *last)).into_iter();
    for chunk in chunks {
        let start = w.0.len();
        let mut stored = Vec::new();
        for _ in 0..chunk.data.len().div_ceil(PIECE_BYTES).max(1) {
            stored.extend(deflated.next().ok_or("a deflated piece is missing")??);
        }
        let too_big = |n: usize| u32::try_from(n).ok().filter(|n| *n <= MAX_CHUNK_BYTES);
        let raw = too_big(chunk.data.len()).ok_or(format!("chunk {} is too large", chunk.name()))?;
        w.bytes(&chunk.name);
        w.u16(chunk.version);
        w.u32(raw);
        w.u32(too_big(stored.len()).ok_or(format!("chunk {} is too large", chunk.name()))?);
        w.bytes(&stored);
        let sum = crc(&w.0[start..]);
        w.u32(sum);
    }
    Ok(w.0)
}

/// One piece of a chunk's data deflated at the fastest level: a sync flush after it,
/// or the stream's end after the `last`.
fn deflate(data: &[u8], last: bool) -> Result<Vec<u8>, String> {
    let mut compress = Compress::new(Compression::fast(), false);
    let flush = if last { FlushCompress::Finish } else { FlushCompress::Sync };
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    loop {
        let read = usize::try_from(compress.total_in()).map_err(|e| e.to_string())?;
        let status = compress.compress_vec(&data[read..], &mut out, flush).map_err(|e| e.to_string())?;
        let all_read = compress.total_in() == data.len() as u64;
        match status {
            Status::StreamEnd => return Ok(out),
            _ if !last && all_read && out.len() < out.capacity() => return Ok(out),
            _ => out.reserve(out.capacity().max(64)),
        }
    }
}

/// One chunk at the reader's position: framing, checksum, inflation.
fn read_chunk(r: &mut Reader, bytes: &[u8], index: u16, count: u16) -> Result<Chunk, FormatError> {
    let start = r.offset();
    r.part = format!("chunk {} of {count}", index + 1);
    let name: [u8; 4] = r.take(4)?.try_into().map_err(|_| r.error("short name"))?;
    if !name.iter().all(u8::is_ascii_alphanumeric) {
        return Err(r.error_at(start, format!("chunk name {name:02x?} is not four ASCII letters or digits")));
    }
    r.part = String::from_utf8_lossy(&name).into_owned();
    let version = r.u16()?;
    let raw = r.u32()?;
    let stored = r.u32()?;
    if raw > MAX_CHUNK_BYTES || stored > MAX_CHUNK_BYTES {
        return Err(r.error_at(start, format!("length {raw} / {stored} exceeds {MAX_CHUNK_BYTES}")));
    }
    let payload_at = r.offset();
    let payload = r.take(stored as usize)?;
    let end = r.offset();
    let sum = r.u32()?;
    if sum != crc(&bytes[start..end]) {
        return Err(r.error_at(start, format!("checksum {sum:08x} does not match the chunk's {} bytes", end - start)));
    }
    let mut data = Vec::with_capacity(raw as usize);
    let inflated = DeflateDecoder::new(payload).take(u64::from(raw) + 1).read_to_end(&mut data);
    match inflated {
        Err(e) => Err(r.error_at(payload_at, format!("does not inflate: {e}"))),
        Ok(n) if n != raw as usize => {
            Err(r.error_at(payload_at, format!("inflates to {} bytes, its header says {raw}", data.len())))
        }
        Ok(_) => Ok(Chunk { name, version, data, offset: start, stored }),
    }
}

/// Brings a file of an older supported format version to [`FORMAT_VERSION`], one named
/// step per version, each tested by reading a file of the version before. Version 1 → 2
/// changes no bytes: version 1 has the same chunks without the snapshot, and its header
/// keeps version 1, for which `resume` re-simulates the save (`migrate_v1`). Version
/// 2 → 3: version 2's snapshot chunks (layout 1) were written through reflection; the
/// record reader leaves them out, and the save is re-simulated as a version-1 save is.
/// Version 3 → 4 changes no bytes: version 3 has no `seat` chunk, so a file of it reads
/// as a game without seats (single player, or a hosted game whose seats were not kept).
/// Versions 3, 4 and 5 → 6: their snapshots hold the state of the project's older clan
/// and research rules (relations read as war or peace, no minds, the research tree
/// misread); the record reader leaves them out and the save is re-simulated under
/// the current rules, as a version-2 save is. Version 6 → 7 likewise: its snapshot
/// has no animals' migration, and animals did not graze. Version 7 → 8 likewise: its
/// snapshot lists its parts by position, not by the tags the crates declare, and its
/// state hashes were computed differently. Version 8 → 9 likewise: its machines moved
/// at their authored limits, which damage did not lower. Version 9 → 10 likewise: its
/// buildings ran at full power, with no batteries. Version 10 → 11 likewise: its
/// transports hauled from the mine their order named to any building with room, and a
/// research could stop a hundredth short. Version 11 → 12 likewise: its builders could
/// not build, and its snapshot holds neither sites nor designs. Version 12 → 13
/// likewise: every gun of its snapshot took the player's fire, none rode an arm; its
/// pilot commands (key kind 8, one word) read as inputs without strafe or the other
/// triggers. Version 13 → 14 likewise: its snapshot holds no auto-driver levels. Version
/// 14 → 15 likewise: its script VMs' state holds no design draw. Version 15 → 16
/// likewise: its machines' kinematics hold no hull-follow turn. Version 16 → 17
/// likewise: its combat sheets hold no pieces, its direct controls no turret lock.
fn migrate(container: &Container) -> Result<(), FormatError> {
    match container.header.format_version {
        1..=16 | FORMAT_VERSION => Ok(()),
        version => Err(FormatError {
            chunk: "header".into(),
            offset: 8,
            message: format!("no migration from format version {version} to {FORMAT_VERSION}"),
        }),
    }
}
