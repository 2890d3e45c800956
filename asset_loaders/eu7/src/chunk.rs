//! Chunk ids, the parsed chunk bodies and their payload codecs (§3).

use std::sync::Arc;

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::{ErrorKind, Result};
use crate::logic::{Dynamic, Event, Include, Launcher, MemCell, Sound, Trainset};
use crate::model::{ModelRecord, PidxEntry, Prototype};
use crate::node::VisitSids;
use crate::prim::{FourCc, Sid};
use crate::record::{read_records, write_records};
use crate::shape::{LineShape, Shape, Terrain};
use crate::track::{PowerSource, Track, Traction};

/// Known chunk ids.
pub mod ids {
    use crate::prim::FourCc;
    /// String table.
    pub const STRS: FourCc = *b"STRS";
    /// Includes.
    pub const INCL: FourCc = *b"INCL";
    /// Include placement.
    pub const PLAC: FourCc = *b"PLAC";
    /// Tracks.
    pub const TRAK: FourCc = *b"TRAK";
    /// Traction wires.
    pub const TRAC: FourCc = *b"TRAC";
    /// Power sources.
    pub const PWRS: FourCc = *b"PWRS";
    /// Terrain.
    pub const TERR: FourCc = *b"TERR";
    /// Triangle shapes.
    pub const MESH: FourCc = *b"MESH";
    /// Line shapes.
    pub const LINE: FourCc = *b"LINE";
    /// Models.
    pub const MODL: FourCc = *b"MODL";
    /// Memory cells.
    pub const MEMC: FourCc = *b"MEMC";
    /// Launchers.
    pub const LAUN: FourCc = *b"LAUN";
    /// Dynamics.
    pub const DYNM: FourCc = *b"DYNM";
    /// Sounds.
    pub const SOND: FourCc = *b"SOND";
    /// Trainsets.
    pub const TRSE: FourCc = *b"TRSE";
    /// Events.
    pub const EVNT: FourCc = *b"EVNT";
    /// First-init counter.
    pub const FINT: FourCc = *b"FINT";
    /// Section index.
    pub const PIDX: FourCc = *b"PIDX";
    /// Section payloads.
    pub const PACK: FourCc = *b"PACK";
    /// Prototypes.
    pub const PROT: FourCc = *b"PROT";
}

/// The PACK payload, kept undecoded: shared bytes plus its absolute file offset.
#[derive(Debug, Clone, PartialEq)]
pub struct PackPayload {
    data: Arc<[u8]>,
    start: usize,
    len: usize,
    /// Absolute file offset of the payload start.
    pub file_offset: u64,
}

impl PackPayload {
    /// A payload over `data[start..start + len]` at absolute `file_offset`.
    /// Out-of-range bounds yield an empty payload view.
    pub fn new(data: Arc<[u8]>, start: usize, len: usize, file_offset: u64) -> Self {
        Self { data, start, len, file_offset }
    }
    /// A payload owning `bytes` (for modules built in memory).
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        let len = bytes.len();
        Self { data: bytes.into(), start: 0, len, file_offset: 0 }
    }
    /// The payload bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data.get(self.start..self.start.saturating_add(self.len)).unwrap_or(&[])
    }
}

/// A parsed chunk payload.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChunkBody {
    /// `STRS`: raw byte strings.
    Strs(Vec<Vec<u8>>),
    /// `INCL`.
    Incl(Vec<Include>),
    /// `PLAC`: origin x/y/z and rotation-y parameter numbers.
    Plac([u8; 4]),
    /// `TRAK`.
    Trak(Vec<Track>),
    /// `TRAC`.
    Trac(Vec<Traction>),
    /// `PWRS`.
    Pwrs(Vec<PowerSource>),
    /// `TERR` (one material).
    Terr(Terrain),
    /// `MESH`.
    Mesh(Vec<Shape>),
    /// `LINE`.
    Line(Vec<LineShape>),
    /// `MODL`.
    Modl(Vec<ModelRecord>),
    /// `MEMC`.
    Memc(Vec<MemCell>),
    /// `LAUN`.
    Laun(Vec<Launcher>),
    /// `DYNM`.
    Dynm(Vec<Dynamic>),
    /// `SOND`.
    Sond(Vec<Sound>),
    /// `TRSE`.
    Trse(Vec<Trainset>),
    /// `EVNT`.
    Evnt(Vec<Event>),
    /// `FINT`.
    Fint(u32),
    /// `PIDX`.
    Pidx(Vec<PidxEntry>),
    /// `PROT`.
    Prot(Vec<Prototype>),
    /// `PACK`, not decoded.
    Pack(PackPayload),
    /// Any other id: the raw payload.
    Unknown(Vec<u8>),
}

/// One chunk in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// Id in file byte order.
    pub id: FourCc,
    /// Absolute file offset of the chunk header (0 for chunks built in memory).
    pub offset: u64,
    /// Parsed payload.
    pub body: ChunkBody,
    /// Bytes after the parsed payload (compatible mode only; re-emitted verbatim).
    pub trailing: Vec<u8>,
    /// An empty table stored as the chunk header alone, without its count: MaSzyna's
    /// tree bake writes a root without models so, with `PROT` of 8 bytes (its reader
    /// takes it as an empty table); written back the same way while the table is empty.
    pub bare: bool,
}

/// Whether a chunk of `id` with no payload at all is an empty table ([`Chunk::bare`]):
/// `PROT`, as MaSzyna's reader takes it (`PACK` needs nothing: its payload is raw).
pub(crate) fn bare_table(id: FourCc) -> Option<ChunkBody> {
    (id == ids::PROT).then(|| ChunkBody::Prot(Vec::new()))
}

impl Chunk {
    /// A chunk built in memory.
    pub fn new(id: FourCc, body: ChunkBody) -> Self {
        Self { id, offset: 0, body, trailing: Vec::new(), bare: false }
    }

    /// Number of records (strings for STRS, triangles for TERR, entries for PIDX/PROT).
    pub fn record_count(&self) -> usize {
        match &self.body {
            ChunkBody::Strs(v) => v.len(),
            ChunkBody::Incl(v) => v.len(),
            ChunkBody::Plac(_) | ChunkBody::Fint(_) | ChunkBody::Pack(_) | ChunkBody::Unknown(_) => 1,
            ChunkBody::Trak(v) => v.len(),
            ChunkBody::Trac(v) => v.len(),
            ChunkBody::Pwrs(v) => v.len(),
            ChunkBody::Terr(t) => t.triangle_count(),
            ChunkBody::Mesh(v) => v.len(),
            ChunkBody::Line(v) => v.len(),
            ChunkBody::Modl(v) => v.len(),
            ChunkBody::Memc(v) => v.len(),
            ChunkBody::Laun(v) => v.len(),
            ChunkBody::Dynm(v) => v.len(),
            ChunkBody::Sond(v) => v.len(),
            ChunkBody::Trse(v) => v.len(),
            ChunkBody::Evnt(v) => v.len(),
            ChunkBody::Pidx(v) => v.len(),
            ChunkBody::Prot(v) => v.len(),
        }
    }

    /// Visits every serialised string id of the chunk's records, in order.
    pub fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        fn all<T: VisitSids>(v: &mut [T], f: &mut dyn FnMut(&mut Sid)) {
            for r in v {
                r.visit_sids(f);
            }
        }
        match &mut self.body {
            ChunkBody::Incl(v) => all(v, f),
            ChunkBody::Trak(v) => all(v, f),
            ChunkBody::Trac(v) => all(v, f),
            ChunkBody::Pwrs(v) => all(v, f),
            ChunkBody::Terr(t) => t.visit_sids(f),
            ChunkBody::Mesh(v) => all(v, f),
            ChunkBody::Line(v) => all(v, f),
            ChunkBody::Modl(v) => all(v, f),
            ChunkBody::Memc(v) => all(v, f),
            ChunkBody::Laun(v) => all(v, f),
            ChunkBody::Dynm(v) => all(v, f),
            ChunkBody::Sond(v) => all(v, f),
            ChunkBody::Trse(v) => all(v, f),
            ChunkBody::Evnt(v) => all(v, f),
            ChunkBody::Prot(v) => all(v, f),
            _ => {}
        }
    }
}

/// Parses a known chunk payload; `None` for unknown ids. `base` is the payload's
/// absolute offset; `pack` gives the shared file bytes and the payload start for PACK.
pub(crate) fn parse_body(
    id: FourCc,
    c: &mut Cursor<'_>,
    version: u32,
    pack: impl FnOnce(usize, usize, u64) -> PackPayload,
) -> Result<Option<ChunkBody>> {
    let v = version;
    Ok(Some(match id {
        ids::STRS => ChunkBody::Strs(c.list(4, |c| {
            let at = c.offset();
            let n = c.u32()?;
            let n = c.check_items(u64::from(n), 1, at)?;
            Ok(c.take(n)?.to_vec())
        })?),
        ids::INCL => ChunkBody::Incl(read_records(c, v)?),
        ids::PLAC => ChunkBody::Plac(c.array()?),
        ids::TRAK => ChunkBody::Trak(read_records(c, v)?),
        ids::TRAC => ChunkBody::Trac(read_records(c, v)?),
        ids::PWRS => ChunkBody::Pwrs(read_records(c, v)?),
        ids::TERR => ChunkBody::Terr(Terrain::read(c)?),
        ids::MESH => ChunkBody::Mesh(read_records(c, v)?),
        ids::LINE => ChunkBody::Line(read_records(c, v)?),
        ids::MODL => ChunkBody::Modl(read_records(c, v)?),
        ids::MEMC => ChunkBody::Memc(read_records(c, v)?),
        ids::LAUN => ChunkBody::Laun(read_records(c, v)?),
        ids::DYNM => ChunkBody::Dynm(read_records(c, v)?),
        ids::SOND => ChunkBody::Sond(read_records(c, v)?),
        ids::TRSE => ChunkBody::Trse(read_records(c, v)?),
        ids::EVNT => ChunkBody::Evnt(read_records(c, v)?),
        ids::FINT => ChunkBody::Fint(c.u32()?),
        ids::PIDX => ChunkBody::Pidx(read_records(c, v)?),
        ids::PROT => ChunkBody::Prot(read_records(c, v)?),
        ids::PACK => {
            let abs = c.offset();
            let start = c.position();
            let len = c.rest().len();
            ChunkBody::Pack(pack(start, len, abs))
        }
        _ => return Ok(None),
    }))
}

/// Writes a chunk body's payload.
pub(crate) fn write_body(body: &ChunkBody, w: &mut Writer, version: u32) -> Result<()> {
    let v = version;
    match body {
        ChunkBody::Strs(s) => w.list(s, |w, s| {
            w.count(s.len())?;
            w.bytes(s);
            Ok(())
        }),
        ChunkBody::Incl(r) => write_records(w, r, v),
        ChunkBody::Plac(p) => {
            w.bytes(p);
            Ok(())
        }
        ChunkBody::Trak(r) => write_records(w, r, v),
        ChunkBody::Trac(r) => write_records(w, r, v),
        ChunkBody::Pwrs(r) => write_records(w, r, v),
        ChunkBody::Terr(t) => t.write(w),
        ChunkBody::Mesh(r) => write_records(w, r, v),
        ChunkBody::Line(r) => write_records(w, r, v),
        ChunkBody::Modl(r) => write_records(w, r, v),
        ChunkBody::Memc(r) => write_records(w, r, v),
        ChunkBody::Laun(r) => write_records(w, r, v),
        ChunkBody::Dynm(r) => write_records(w, r, v),
        ChunkBody::Sond(r) => write_records(w, r, v),
        ChunkBody::Trse(r) => write_records(w, r, v),
        ChunkBody::Evnt(r) => write_records(w, r, v),
        ChunkBody::Fint(n) => {
            w.u32(*n);
            Ok(())
        }
        ChunkBody::Pidx(r) => write_records(w, r, v),
        ChunkBody::Prot(r) => write_records(w, r, v),
        ChunkBody::Pack(p) => {
            w.bytes(p.bytes());
            Ok(())
        }
        ChunkBody::Unknown(b) => {
            w.bytes(b);
            Ok(())
        }
    }
}

/// Writes a whole chunk: header with back-patched `total_size`, payload, trailing bytes.
pub(crate) fn write_chunk(chunk: &Chunk, w: &mut Writer, version: u32) -> Result<()> {
    let start = w.len();
    w.bytes(&chunk.id);
    w.u32(0);
    if !(chunk.bare && chunk.record_count() == 0) {
        write_body(&chunk.body, w, version)?;
    }
    w.bytes(&chunk.trailing);
    let size = u32::try_from(w.len() - start)
        .map_err(|_| crate::Error::new(ErrorKind::TooLarge("chunk of 4 GiB or more")).in_chunk(chunk.id))?;
    w.patch_u32(start + 4, size);
    Ok(())
}
