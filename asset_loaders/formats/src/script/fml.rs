//! Formula exports (`<bundle>.fml`, `docs/reference/runtime.md` §3.1): a text export of the
//! formula set, used as a symbol/formula oracle; the engine path documented by the spec
//! does not parse it. Held as lines (terminators kept) for display and byte-exact
//! writing; no grammar is imposed.

use crate::config::text::{decode, lines};

/// A formula text file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FmlText {
    /// Lines: content and terminator.
    pub lines: Vec<(Vec<u8>, Vec<u8>)>,
}

impl FmlText {
    /// Splits the text into lines (never fails).
    pub fn parse(data: &[u8]) -> Self {
        Self { lines: lines(data).iter().map(|l| (l.content.to_vec(), l.eol.to_vec())).collect() }
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.lines.iter().flat_map(|(a, b)| a.iter().chain(b)).copied().collect()
    }

    /// Lines decoded from CP1251 for display.
    pub fn display_lines(&self) -> Vec<String> {
        self.lines.iter().map(|(a, _)| decode(a)).collect()
    }
}
