//! Located errors of the EU7B and E3D readers and writers.

use crate::prim::FourCc;
use std::fmt;

/// An error with its location: file (when known), chunk FourCC, absolute byte offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// File name, when the caller supplied one.
    pub file: Option<String>,
    /// FourCC of the chunk being parsed, if any.
    pub chunk: Option<FourCc>,
    /// Absolute byte offset in the file where the problem was detected.
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// The cause of an [`Error`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Fewer bytes remain than a field needs.
    #[error("unexpected end of data: needed {needed} bytes, {available} available")]
    Truncated {
        /// Bytes the field needs.
        needed: u64,
        /// Bytes left.
        available: u64,
    },
    /// The file does not start with `EU7B` / `E3D0`.
    #[error("bad magic {0:02X?}")]
    BadMagic([u8; 4]),
    /// A version outside 4..=9.
    #[error("unsupported version {0} (supported: 4..=9)")]
    UnsupportedVersion(u32),
    /// A chunk `total_size` below 8.
    #[error("corrupt chunk: total_size {0} < 8")]
    ChunkTooSmall(u32),
    /// A chunk claims more bytes than the file holds.
    #[error("chunk total_size {size} exceeds the {available} bytes left")]
    ChunkOverrun {
        /// Declared total size.
        size: u64,
        /// Bytes left in the file from the chunk start.
        available: u64,
    },
    /// A known chunk (or section) was not consumed exactly (strict mode).
    #[error("corrupt chunk payload: parsed {parsed} of {declared} bytes")]
    PayloadLength {
        /// Bytes the parser consumed.
        parsed: u64,
        /// Bytes declared.
        declared: u64,
    },
    /// A count times the minimum element size exceeds the remaining bytes.
    #[error("count {count} of {elem_size}-byte elements exceeds the {remaining} remaining bytes")]
    CountTooLarge {
        /// The count read.
        count: u64,
        /// Minimum size of one element.
        elem_size: u64,
        /// Bytes left.
        remaining: u64,
    },
    /// A string id at or beyond the `STRS` size (strict mode; quirk `eu7_string_id_out_of_range`).
    #[error("string id {id} out of range (table has {len} strings)")]
    StringIdOutOfRange {
        /// The id.
        id: u32,
        /// Table size.
        len: usize,
    },
    /// An unknown chunk id (strict mode only).
    #[error("unknown chunk")]
    UnknownChunk,
    /// Bytes after the last chunk that do not form a chunk header (strict mode only).
    #[error("trailing fragment of {0} bytes after the last chunk")]
    TrailingFragment(usize),
    /// A field holds a value the format forbids.
    #[error("invalid value: {0}")]
    Invalid(String),
    /// A value cannot be represented on disk (writer side).
    #[error("cannot encode: {0}")]
    TooLarge(&'static str),
    /// Strict mode: a PACK section starts with a format marker whose header does not validate.
    #[error("section starts with format marker {0} but its header does not validate (quirk eu7_pack_flat_v7_marker)")]
    FlatMarkerCollision(u8),
    /// No PIDX entry for the requested section.
    #[error("section row {row} column {col} not in PIDX")]
    SectionNotFound {
        /// Row (Z).
        row: u32,
        /// Column (X).
        col: u32,
    },
    /// The module has no PACK / PIDX.
    #[error("module has no PIDX/PACK")]
    NoPack,
    /// An instance references a prototype beyond PROT.
    #[error("prototype id {id} out of range (PROT has {len})")]
    PrototypeOutOfRange {
        /// The id.
        id: u32,
        /// PROT size.
        len: usize,
    },
    /// A file could not be loaded.
    #[error("cannot load {path}: {cause}")]
    Load {
        /// Path asked for.
        path: String,
        /// Loader message.
        cause: String,
    },
}

impl Error {
    /// An error at `offset` with no file/chunk context yet.
    pub fn at(offset: u64, kind: ErrorKind) -> Self {
        Self { file: None, chunk: None, offset, kind }
    }

    /// Attaches the chunk FourCC unless one is already set.
    #[must_use]
    pub fn in_chunk(mut self, id: FourCc) -> Self {
        self.chunk.get_or_insert(id);
        self
    }

    /// Attaches the file name unless one is already set.
    #[must_use]
    pub fn in_file(mut self, file: Option<&str>) -> Self {
        if self.file.is_none() {
            self.file = file.map(str::to_owned);
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(id) = &self.chunk {
            write!(f, "chunk {}: ", String::from_utf8_lossy(id))?;
        }
        write!(f, "byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for Error {}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, Error>;
