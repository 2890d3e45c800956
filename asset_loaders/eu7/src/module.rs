//! A whole `.eu7` module: header, chunk stream to EOF, lossless write, typed accessors.

use std::sync::Arc;

use crate::chunk::{self, Chunk, ChunkBody, PackPayload, ids};
use crate::cursor::{Cursor, Writer};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{PidxEntry, Prototype};
use crate::prim::{FourCc, Sid};

/// File magic.
pub const MAGIC: [u8; 4] = *b"EU7B";

/// Reader options.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Strict profile: reject unknown chunks, payload length mismatches, trailing fragments,
    /// out-of-range string ids.
    pub strict: bool,
    /// File name put into errors.
    pub file: Option<String>,
}

impl ReadOptions {
    /// Strict options.
    pub fn strict() -> Self {
        Self { strict: true, file: None }
    }
    /// Compatible options.
    pub fn compatible() -> Self {
        Self::default()
    }
    /// With a file name for errors.
    #[must_use]
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
}

/// A parsed module. Chunks are kept in file order so [`Module::write`] is lossless.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// File version.
    pub version: u32,
    /// Chunks in file order.
    pub chunks: Vec<Chunk>,
    /// Trailing fragment shorter than a chunk header (compatible mode), re-emitted verbatim.
    pub tail: Vec<u8>,
    /// The file name given in [`ReadOptions::file`], named by the errors of on-demand
    /// section decoding (not part of the encoding).
    pub file: Option<String>,
}

impl Module {
    /// An empty module of `version`.
    pub fn new(version: u32) -> Self {
        Self { version, chunks: Vec::new(), tail: Vec::new(), file: None }
    }

    /// Reads a module. PACK is not decoded: its payload stays shared with `data`.
    pub fn read(data: impl Into<Arc<[u8]>>, opts: &ReadOptions) -> Result<Self> {
        let data: Arc<[u8]> = data.into();
        let mut m = Self::read_shared(&data, opts).map_err(|e| match &opts.file {
            Some(file) => e.in_file(file.as_str()),
            None => e,
        })?;
        m.file.clone_from(&opts.file);
        Ok(m)
    }

    fn read_shared(data: &Arc<[u8]>, opts: &ReadOptions) -> Result<Self> {
        let bytes: &[u8] = data;
        let mut c = Cursor::new(bytes);
        let magic: [u8; 4] = c.array()?;
        if magic != MAGIC {
            return Err(Error::at(0, ErrorKind::BadMagic(magic)));
        }
        let version = c.u32()?;
        if !(4..=9).contains(&version) {
            return Err(Error::at(4, ErrorKind::UnsupportedVersion(version)));
        }
        let mut m = Module::new(version);
        let mut strings_len: Option<usize> = None;
        while c.remaining() > 0 {
            let at = c.offset();
            if c.remaining() < 8 {
                if opts.strict {
                    return Err(Error::at(at, ErrorKind::TrailingFragment(c.remaining())));
                }
                m.tail = c.rest().to_vec();
                break;
            }
            let id: FourCc = c.array()?;
            let size = c.u32()?;
            if size < 8 {
                return Err(Error::at(at, ErrorKind::ChunkTooSmall(size)).in_chunk(id));
            }
            let payload_len = (size - 8) as usize;
            let available = c.remaining() as u64 + 8;
            let payload = c.take(payload_len).map_err(|_| {
                Error::at(at, ErrorKind::ChunkOverrun { size: u64::from(size), available }).in_chunk(id)
            })?;
            let payload_start = at as usize + 8;
            let mut pc = Cursor::with_base(payload, at + 8);
            let shared = Arc::clone(data);
            let bare = chunk::bare_table(id).filter(|_| payload.is_empty());
            let is_bare = bare.is_some();
            let body = match bare {
                Some(empty) => Some(empty),
                None => chunk::parse_body(id, &mut pc, version, |start, len, abs| {
                    PackPayload::new(shared, payload_start + start, len, abs)
                })
                .map_err(|e| e.in_chunk(id))?,
            };
            let mut chunk = match body {
                Some(body) => Chunk { id, offset: at, body, trailing: Vec::new(), bare: is_bare },
                None if opts.strict => return Err(Error::at(at, ErrorKind::UnknownChunk).in_chunk(id)),
                None => {
                    pc.rest();
                    Chunk { offset: at, ..Chunk::new(id, ChunkBody::Unknown(payload.to_vec())) }
                }
            };
            if pc.remaining() > 0 {
                if opts.strict {
                    return Err(Error::at(
                        pc.offset(),
                        ErrorKind::PayloadLength { parsed: pc.position() as u64, declared: payload_len as u64 },
                    )
                    .in_chunk(id));
                }
                chunk.trailing = pc.rest().to_vec();
            }
            if let ChunkBody::Strs(s) = &chunk.body {
                strings_len = Some(s.len());
            }
            if opts.strict {
                check_sids(&mut chunk, strings_len.unwrap_or(0))?;
            }
            m.chunks.push(chunk);
        }
        Ok(m)
    }

    /// Writes the module exactly as its chunks describe (lossless for read modules).
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        w.bytes(&MAGIC);
        w.u32(self.version);
        for c in &self.chunks {
            chunk::write_chunk(c, &mut w, self.version)?;
        }
        w.bytes(&self.tail);
        Ok(w.buf)
    }

    /// The effective string table (the last `STRS`; empty if none).
    pub fn strings(&self) -> &[Vec<u8>] {
        self.last(|b| match b {
            ChunkBody::Strs(s) => Some(s.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// Resolves a string id; `0xFFFFFFFF` and out-of-range ids give the empty string.
    pub fn string(&self, id: Sid) -> &[u8] {
        resolve(self.strings(), id)
    }

    /// The effective PIDX (the last one).
    pub fn pidx(&self) -> &[PidxEntry] {
        self.last(|b| match b {
            ChunkBody::Pidx(s) => Some(s.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// The effective PROT (the last one).
    pub fn prototypes(&self) -> &[Prototype] {
        self.last(|b| match b {
            ChunkBody::Prot(s) => Some(s.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// The last PACK payload.
    pub fn pack(&self) -> Option<&PackPayload> {
        self.last(|b| match b {
            ChunkBody::Pack(p) => Some(p),
            _ => None,
        })
    }

    /// `PLAC` values (the last chunk wins), zeros when absent.
    pub fn placement(&self) -> [u8; 4] {
        self.last(|b| match b {
            ChunkBody::Plac(p) => Some(*p),
            _ => None,
        })
        .unwrap_or([0; 4])
    }

    /// `FINT` value (the last chunk wins), 0 when absent.
    pub fn first_init(&self) -> u32 {
        self.last(|b| match b {
            ChunkBody::Fint(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0)
    }

    fn last<'a, T: 'a>(&'a self, f: impl Fn(&'a ChunkBody) -> Option<T>) -> Option<T> {
        self.chunks.iter().rev().find_map(|c| f(&c.body))
    }

    /// All records of the appending chunks selected by `f`, in file order.
    pub fn records<'a, T: 'a>(
        &'a self,
        f: impl Fn(&'a ChunkBody) -> Option<&'a Vec<T>>,
    ) -> impl Iterator<Item = &'a T> {
        self.chunks.iter().filter_map(move |c| f(&c.body)).flatten()
    }

    /// Record counts per chunk id, summed over repeated chunks, in first-seen order.
    pub fn record_counts(&self) -> Vec<(FourCc, usize)> {
        let mut out: Vec<(FourCc, usize)> = Vec::new();
        for c in &self.chunks {
            let replaces = matches!(c.id, ids::STRS | ids::PIDX | ids::PROT | ids::FINT | ids::PLAC | ids::PACK);
            match out.iter_mut().find(|(id, _)| *id == c.id) {
                Some((_, n)) if replaces => *n = c.record_count(),
                Some((_, n)) => *n += c.record_count(),
                None => out.push((c.id, c.record_count())),
            }
        }
        out
    }

    /// True if the module holds terrain (`TERR`).
    pub fn is_terrain_file(&self) -> bool {
        self.chunks.iter().any(|c| c.id == ids::TERR)
    }
}

/// Resolves `id` in `table`; `0xFFFFFFFF` and out-of-range ids give the empty string.
pub fn resolve(table: &[Vec<u8>], id: Sid) -> &[u8] {
    table.get(id.0 as usize).map(Vec::as_slice).unwrap_or(&[])
}

fn check_sids(chunk: &mut Chunk, len: usize) -> Result<()> {
    let mut bad = None;
    chunk.visit_sids(&mut |s| {
        if !s.is_empty() && s.0 as usize >= len && bad.is_none() {
            bad = Some(s.0);
        }
    });
    match bad {
        Some(id) => Err(Error::at(chunk.offset, ErrorKind::StringIdOutOfRange { id, len }).in_chunk(chunk.id)),
        None => Ok(()),
    }
}
