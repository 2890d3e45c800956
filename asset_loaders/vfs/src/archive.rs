//! An open archive: the file's bytes (memory-mapped) with its parsed directory.

use iron3d_formats::nres::{Nres, NresIndex};
use iron3d_formats::rsli::{Rsli, RsliIndex};
use iron3d_formats::{Error, ErrorKind, ReadOptions, Result, ResultExt};
use std::borrow::Cow;
use std::path::Path;

/// The container format of an archive and its parsed directory.
#[derive(Debug)]
pub enum ArchiveKind {
    /// An NRes archive.
    Nres(NresIndex),
    /// An RsLi library.
    Rsli(RsliIndex),
}

/// One row of an archive listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    /// Entry name.
    pub name: String,
    /// NRes type id, or the RsLi flags word.
    pub type_or_flags: u32,
    /// Stored (packed) size.
    pub packed_size: u64,
    /// Decoded size.
    pub size: u64,
    /// Storage method (`stored` for NRes).
    pub method: String,
    /// Absolute payload offset.
    pub offset: u64,
    /// Position in name order, when the sort map is usable.
    pub sort_position: Option<usize>,
}

enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

/// An open archive (shared through the game directory's archive cache).
pub struct Archive {
    name: String,
    bytes: Bytes,
    kind: ArchiveKind,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("name", &self.name).field("kind", &self.kind).finish_non_exhaustive()
    }
}

impl Archive {
    /// Memory-maps and parses the archive at `path`; `name` is used in errors.
    pub fn open(path: &Path, name: &str, options: ReadOptions) -> Result<Self> {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(name.to_string());
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let bytes = if len == 0 {
            Bytes::Owned(Vec::new())
        } else {
            // SAFETY: the map is read-only and the game tree is not modified while the
            // game runs; a concurrent writer could change bytes under us, which the
            // parsers tolerate as ordinary bad input (every access is bounds-checked).
            #[expect(unsafe_code, reason = "memory-mapping a read-only archive file")]
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
            Bytes::Mapped(map)
        };
        Self::from_bytes(bytes, name, options)
    }

    /// Parses an archive held in memory.
    pub fn from_vec(bytes: Vec<u8>, name: &str, options: ReadOptions) -> Result<Self> {
        Self::from_bytes(Bytes::Owned(bytes), name, options)
    }

    fn from_bytes(bytes: Bytes, name: &str, options: ReadOptions) -> Result<Self> {
        let data = match &bytes {
            Bytes::Mapped(m) => &m[..],
            Bytes::Owned(v) => &v[..],
        };
        let kind = if data.starts_with(b"NRes") {
            ArchiveKind::Nres(NresIndex::parse(data, options).in_file(name.to_string())?)
        } else if data.starts_with(b"NL") {
            ArchiveKind::Rsli(RsliIndex::parse(data, options).in_file(name.to_string())?)
        } else {
            let found = data.get(..4).unwrap_or(data).to_vec();
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "NRes or NL", found }).in_file(name.to_string()));
        };
        Ok(Self { name: name.to_string(), bytes, kind })
    }

    /// The name this archive was opened under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The raw file bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    /// The container kind and directory.
    pub fn kind(&self) -> &ArchiveKind {
        &self.kind
    }

    /// A borrowed NRes view, for NRes archives.
    pub fn nres(&self) -> Option<Nres<'_>> {
        match &self.kind {
            ArchiveKind::Nres(index) => Some(Nres::with_index(self.bytes(), index)),
            ArchiveKind::Rsli(_) => None,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match &self.kind {
            ArchiveKind::Nres(i) => i.len(),
            ArchiveKind::Rsli(i) => i.len(),
        }
    }

    /// True for an archive without entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Finds an entry by name with the container's own lookup rule.
    pub fn find(&self, entry: &str) -> Option<usize> {
        match &self.kind {
            ArchiveKind::Nres(i) => i.find(entry.as_bytes()),
            ArchiveKind::Rsli(i) => i.find(entry.as_bytes()),
        }
    }

    /// The decoded bytes of entry `index` (borrowed where no decoding is needed).
    pub fn read_index(&self, index: usize) -> Result<Cow<'_, [u8]>> {
        let data = self.bytes();
        let out = match &self.kind {
            ArchiveKind::Nres(i) => i
                .payload_in(data, index)
                .map(Cow::Borrowed)
                .ok_or_else(|| Error::new(ErrorKind::NotFound(format!("entry #{index}")))),
            ArchiveKind::Rsli(i) => Rsli::with_index(data, i).decode(index),
        };
        out.in_file(self.name.clone())
    }

    /// The decoded bytes of the entry named `entry`.
    pub fn read(&self, entry: &str) -> Result<Cow<'_, [u8]>> {
        let index = self
            .find(entry)
            .ok_or_else(|| Error::new(ErrorKind::NotFound(format!("entry {entry}"))).in_file(self.name.clone()))?;
        self.read_index(index)
    }

    /// A listing of every entry in directory order.
    pub fn list(&self) -> Vec<EntryInfo> {
        match &self.kind {
            ArchiveKind::Nres(i) => i
                .entries()
                .iter()
                .enumerate()
                .map(|(n, e)| EntryInfo {
                    name: e.display_name(),
                    type_or_flags: e.type_id,
                    packed_size: e.size.into(),
                    size: e.size.into(),
                    method: "stored".into(),
                    offset: e.data_offset.into(),
                    sort_position: i.sort_position(n),
                })
                .collect(),
            ArchiveKind::Rsli(i) => i
                .entries()
                .iter()
                .enumerate()
                .map(|(n, e)| EntryInfo {
                    name: e.display_name(),
                    type_or_flags: u32::from(e.flags as u16),
                    packed_size: e.packed_size.into(),
                    size: e.unpacked_size.into(),
                    method: e
                        .method()
                        .map_or_else(|| format!("unknown {:#05x}", (e.flags as u16) & 0x1E0), |m| m.name().into()),
                    offset: i.effective_offset(n).unwrap_or(0) as u64,
                    sort_position: i.map().iter().position(|&m| usize::from(m) == n),
                })
                .collect(),
        }
    }
}
