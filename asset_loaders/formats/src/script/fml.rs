//! Formula files (`<bundle>.fml`, gameplay.md §2.2, correcting
//! `docs/reference/runtime.md` §3.1: the engine evaluates them): `//FormulaSet export file`,
//! a blank line, then one `FUNCTION( , <expression>,  )` line per formula; a statement
//! node's trailer *n* names the *n*th `FUNCTION` line. Held here as lines (terminators
//! kept) for display and byte-exact writing; the script VM (`iron3d_superai`) reads the
//! expressions.

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

    /// The `FUNCTION(...)` lines (the formulas, in index order), decoded from CP1251,
    /// each with its line number (0-based).
    pub fn function_lines(&self) -> Vec<(usize, String)> {
        self.display_lines()
            .into_iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start().get(..8).is_some_and(|h| h.eq_ignore_ascii_case("FUNCTION")))
            .collect()
    }

    /// Lines decoded from CP1251 for display.
    pub fn display_lines(&self) -> Vec<String> {
        self.lines.iter().map(|(a, _)| decode(a)).collect()
    }
}
