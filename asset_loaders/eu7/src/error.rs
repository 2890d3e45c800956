//! Located errors of the EU7B and E3D readers and writers.

use crate::prim::FourCc;
use iron3d_formats::Frame;
use std::fmt;

/// A located error: the chain of file, chunk, PACK section and record that led to it,
/// the absolute byte offset in the file, and what went wrong (with a stable rule name).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Absolute byte offset in the file where the problem was detected, when known.
    pub offset: Option<u64>,
    /// Frames innermost first (record, section, chunk, file), as pushed while the error
    /// propagates.
    pub chain: Vec<Frame>,
}

/// The cause of an [`Error`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Fewer bytes remain than a field needs.
    #[error("{needed} bytes needed, {available} available")]
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
    /// A field holds a value the format forbids (`rule` names the rule).
    #[error("{detail}")]
    Invalid {
        /// Short stable name of the rule.
        rule: &'static str,
        /// Human-readable detail.
        detail: String,
    },
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

impl ErrorKind {
    /// Short stable name of the violated rule, printed before the detail.
    pub fn rule(&self) -> &'static str {
        match self {
            Self::Truncated { .. } => "truncated",
            Self::BadMagic(_) => "magic",
            Self::UnsupportedVersion(_) => "version",
            Self::ChunkTooSmall(_) => "chunk_size",
            Self::ChunkOverrun { .. } => "chunk_bounds",
            Self::PayloadLength { .. } => "payload_length",
            Self::CountTooLarge { .. } => "count_bounds",
            Self::StringIdOutOfRange { .. } => "string_id_range",
            Self::UnknownChunk => "unknown_chunk",
            Self::TrailingFragment(_) => "trailing_fragment",
            Self::Invalid { rule, .. } => rule,
            Self::TooLarge(_) => "encodable",
            Self::FlatMarkerCollision(_) => "pack_flat_marker",
            Self::SectionNotFound { .. } => "section_in_pidx",
            Self::NoPack => "pack_present",
            Self::PrototypeOutOfRange { .. } => "prototype_range",
            Self::Load { .. } => "load",
        }
    }
}

impl Error {
    /// An error at absolute file offset `offset`, with no context yet.
    pub fn at(offset: u64, kind: ErrorKind) -> Self {
        Self { kind, offset: Some(offset), chain: Vec::new() }
    }

    /// An error without a byte offset (a rule about the module rather than its bytes).
    pub fn new(kind: ErrorKind) -> Self {
        Self { kind, offset: None, chain: Vec::new() }
    }

    /// Shorthand for an [`ErrorKind::Invalid`] error at `offset` (built like every
    /// format reader's rule violation).
    pub fn invalid(offset: u64, rule: &'static str, detail: impl Into<String>) -> Self {
        iron3d_formats::Error::invalid(offset, rule, detail).into()
    }

    /// Shorthand for an [`ErrorKind::Invalid`] error without a byte offset.
    pub fn rule(rule: &'static str, detail: impl Into<String>) -> Self {
        iron3d_formats::Error::rule(rule, detail).into()
    }

    /// Adds the frames of `outer` (innermost first) as the error propagates outwards.
    #[must_use]
    pub fn within(mut self, outer: &[Frame]) -> Self {
        self.chain.extend_from_slice(outer);
        self
    }

    /// Adds a file frame.
    #[must_use]
    pub fn in_file(mut self, path: impl Into<String>) -> Self {
        self.chain.push(Frame::File(path.into()));
        self
    }

    /// Adds a chunk frame.
    #[must_use]
    pub fn in_chunk(mut self, id: FourCc) -> Self {
        self.chain.push(chunk_frame(id));
        self
    }

    /// Adds a record frame (`what` is e.g. `record` or `instance record`; `index` counts
    /// from 0 within the enclosing chunk or section).
    #[must_use]
    pub fn in_record(mut self, what: &str, index: usize) -> Self {
        self.chain.push(Frame::Link(format!("{what} {index}")));
        self
    }
}

/// The frame naming chunk `id`.
pub fn chunk_frame(id: FourCc) -> Frame {
    Frame::Link(format!("chunk {}", String::from_utf8_lossy(&id)))
}

/// The frame naming the PACK section of PIDX row `row` (Z) and column `col` (X).
pub fn section_frame(row: u16, col: u16) -> Frame {
    Frame::Link(format!("section row {row} column {col}"))
}

impl From<iron3d_formats::Error> for Error {
    fn from(e: iron3d_formats::Error) -> Self {
        use iron3d_formats::ErrorKind as F;
        let kind = match e.kind {
            F::Truncated { needed, available } => ErrorKind::Truncated { needed, available },
            F::Invalid { rule, detail } => ErrorKind::Invalid { rule, detail },
            other => ErrorKind::Invalid { rule: "bytes", detail: other.to_string() },
        };
        Self { kind, offset: e.offset, chain: e.chain }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = format_args!("{}: {}", self.kind.rule(), self.kind);
        iron3d_formats::error::write_located(f, &self.chain, self.offset, &what)
    }
}

impl std::error::Error for Error {}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, Error>;
