//! The one error type of every format reader: what went wrong, where (byte offset), and
//! the chain of files, archive entries and links that led there.

use std::fmt;

/// One step of the chain that led to an error, outermost first when displayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A file on disk (path as given by the caller).
    File(String),
    /// An entry inside an archive.
    Entry(String),
    /// A named link between resources, e.g. `placed object 12` or `component key r_h_01`.
    Link(String),
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The magic bytes do not match the format.
    BadMagic {
        /// Which format was expected.
        expected: &'static str,
        /// The bytes found (up to 8).
        found: Vec<u8>,
    },
    /// A version field holds an unsupported value.
    UnsupportedVersion(u64),
    /// Fewer bytes remain than a field or count needs.
    Truncated {
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
    /// A structural rule of the format is violated (`rule` names it).
    Invalid {
        /// Short stable name of the rule.
        rule: &'static str,
        /// Human-readable detail.
        detail: String,
    },
    /// The data needs a named compatibility quirk that the reading mode does not allow.
    QuirkRejected {
        /// The quirk id from the spec (e.g. `deflate_eof_plus_one`).
        quirk: &'static str,
        /// Detail.
        detail: String,
    },
    /// A feature (storage method, record tag, ...) that this implementation does not support.
    Unsupported(String),
    /// A compressed stream is corrupt.
    Corrupt(String),
    /// A named resource was not found.
    NotFound(String),
    /// An operating-system I/O failure.
    Io(String),
}

/// A located format error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset inside the innermost frame's bytes, when known.
    pub offset: Option<u64>,
    /// Chain of frames, innermost first (as they are pushed while the error propagates).
    pub chain: Vec<Frame>,
}

/// Result type of the format readers.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A new error at `offset`.
    pub fn at(offset: u64, kind: ErrorKind) -> Self {
        Self { kind, offset: Some(offset), chain: Vec::new() }
    }

    /// A new error without an offset.
    pub fn new(kind: ErrorKind) -> Self {
        Self { kind, offset: None, chain: Vec::new() }
    }

    /// Shorthand for an [`ErrorKind::Invalid`] error at `offset`.
    pub fn invalid(offset: u64, rule: &'static str, detail: impl Into<String>) -> Self {
        Self::at(offset, ErrorKind::Invalid { rule, detail: detail.into() })
    }

    /// Shorthand for an [`ErrorKind::Invalid`] error that has no byte offset (a rule
    /// about resources rather than bytes).
    pub fn rule(rule: &'static str, detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid { rule, detail: detail.into() })
    }

    /// Adds a frame as the error propagates outwards.
    #[must_use]
    pub fn within(mut self, frame: Frame) -> Self {
        self.chain.push(frame);
        self
    }

    /// Adds a file frame.
    #[must_use]
    pub fn in_file(self, path: impl Into<String>) -> Self {
        self.within(Frame::File(path.into()))
    }

    /// Adds an archive-entry frame.
    #[must_use]
    pub fn in_entry(self, name: impl Into<String>) -> Self {
        self.within(Frame::Entry(name.into()))
    }

    /// Adds a link frame.
    #[must_use]
    pub fn via(self, link: impl Into<String>) -> Self {
        self.within(Frame::Link(link.into()))
    }
}

/// Extension to add frames to a `Result`.
pub trait ResultExt<T> {
    /// Adds a file frame to an error.
    fn in_file(self, path: impl Into<String>) -> Result<T>;
    /// Adds an entry frame to an error.
    fn in_entry(self, name: impl Into<String>) -> Result<T>;
    /// Adds a link frame to an error.
    fn via(self, link: impl Into<String>) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    fn in_file(self, path: impl Into<String>) -> Result<T> {
        self.map_err(|e| e.in_file(path))
    }
    fn in_entry(self, name: impl Into<String>) -> Result<T> {
        self.map_err(|e| e.in_entry(name))
    }
    fn via(self, link: impl Into<String>) -> Result<T> {
        self.map_err(|e| e.via(link))
    }
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Frame::File(p) => write!(f, "file {p}"),
            Frame::Entry(n) => write!(f, "entry {n}"),
            Frame::Link(l) => write!(f, "{l}"),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::BadMagic { expected, found } => {
                write!(f, "bad magic: expected {expected}, found {found:02X?}")
            }
            ErrorKind::UnsupportedVersion(v) => write!(f, "unsupported version {v:#x}"),
            ErrorKind::Truncated { needed, available } => {
                write!(f, "truncated: {needed} bytes needed, {available} available")
            }
            ErrorKind::Invalid { rule, detail } => write!(f, "{rule}: {detail}"),
            ErrorKind::QuirkRejected { quirk, detail } => {
                write!(f, "needs compatibility quirk `{quirk}` (rejected in this mode): {detail}")
            }
            ErrorKind::Unsupported(what) => write!(f, "unsupported: {what}"),
            ErrorKind::Corrupt(what) => write!(f, "corrupt data: {what}"),
            ErrorKind::NotFound(what) => write!(f, "not found: {what}"),
            ErrorKind::Io(what) => write!(f, "I/O error: {what}"),
        }
    }
}

/// Writes a located error the one way every reader does: the frames outermost first
/// (`chain` is innermost first), then the offset, then what went wrong.
pub fn write_located(
    f: &mut fmt::Formatter<'_>,
    chain: &[Frame],
    offset: Option<u64>,
    what: &dyn fmt::Display,
) -> fmt::Result {
    for frame in chain.iter().rev() {
        write!(f, "{frame} -> ")?;
    }
    if let Some(offset) = offset {
        write!(f, "at offset {offset:#x}: ")?;
    }
    write!(f, "{what}")
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, &self.chain, self.offset, &self.kind)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_chain_outermost_first_then_offset() {
        let e = Error::invalid(0x40, "entry_bounds", "payload ends past directory")
            .in_entry("tree.msh")
            .in_file("static.rlb")
            .via("placed object 7");
        assert_eq!(
            e.to_string(),
            "placed object 7 -> file static.rlb -> entry tree.msh -> at offset 0x40: \
             entry_bounds: payload ends past directory"
        );
    }
}
