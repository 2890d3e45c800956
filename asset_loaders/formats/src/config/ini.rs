//! INI-style configuration files (`docs/reference/runtime.md` §2.1): `key=value` lines with
//! optional spaces around `=`, `//` comments (whole line or trailing), `[SECTION]`
//! headers, CRLF (LF accepted). Keys and sections match ASCII case-insensitively.
//!
//! Lossless: every line is kept with its terminator; unknown keys, sections, comments
//! and unparsable lines survive. [`IniFile::set`] rewrites only the value bytes of the
//! line it edits; new keys are appended as `key = value` with CRLF.

use super::text::{Line, decode, lines, range_in, strip_comment, trim};
use crate::error::{Error, Result};
use std::ops::Range;

/// What a line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// Empty or whitespace only.
    Blank,
    /// A `//` comment line.
    Comment,
    /// `[name]` (range of the name inside the line).
    Section(Range<usize>),
    /// `key = value` (ranges inside the line; the value excludes a trailing comment and
    /// surrounding spaces).
    Entry {
        /// Key range.
        key: Range<usize>,
        /// Value range.
        value: Range<usize>,
    },
    /// Anything else (kept raw, not interpreted).
    Other,
}

/// One stored line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IniLine {
    /// Content without terminator.
    pub text: Vec<u8>,
    /// Terminator as stored.
    pub eol: Vec<u8>,
    /// Classification.
    pub kind: LineKind,
}

impl IniLine {
    fn classify(l: &Line<'_>) -> Self {
        let text = l.content;
        let body = trim(text);
        let kind = if body.is_empty() {
            LineKind::Blank
        } else if body.starts_with(b"//") {
            LineKind::Comment
        } else if body.starts_with(b"[") && trim(strip_comment(body)).ends_with(b"]") {
            let inner = trim(strip_comment(body));
            let name = trim(&inner[1..inner.len() - 1]);
            LineKind::Section(range_in(text, name))
        } else {
            let code = strip_comment(text);
            match code.iter().position(|&b| b == b'=') {
                Some(eq) if !trim(&code[..eq]).is_empty() => {
                    let key = trim(&code[..eq]);
                    let value = trim(&code[eq + 1..]);
                    let value_range = if value.is_empty() { eq + 1..eq + 1 } else { range_in(text, value) };
                    LineKind::Entry { key: range_in(text, key), value: value_range }
                }
                _ => LineKind::Other,
            }
        };
        Self { text: text.to_vec(), eol: l.eol.to_vec(), kind }
    }

    /// The key of an entry line.
    pub fn key(&self) -> Option<&[u8]> {
        match &self.kind {
            LineKind::Entry { key, .. } => self.text.get(key.clone()),
            _ => None,
        }
    }

    /// The raw value text of an entry line.
    pub fn value(&self) -> Option<&[u8]> {
        match &self.kind {
            LineKind::Entry { value, .. } => self.text.get(value.clone()),
            _ => None,
        }
    }

    /// The section name of a header line.
    pub fn section(&self) -> Option<&[u8]> {
        match &self.kind {
            LineKind::Section(r) => self.text.get(r.clone()),
            _ => None,
        }
    }
}

/// A located value: raw text and its line index. Absent keys are `None` at lookup, so
/// "absent" and "explicit default" stay distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IniValue<'a> {
    /// Section the key was found in (empty = before any header).
    pub section: &'a [u8],
    /// Raw value bytes.
    pub raw: &'a [u8],
    /// Line index.
    pub line: usize,
}

impl IniValue<'_> {
    /// As an integer (decimal, optional sign, or `0x` hex).
    pub fn as_int(&self) -> Option<i64> {
        parse_int(self.raw)
    }
    /// As a float.
    pub fn as_float(&self) -> Option<f64> {
        std::str::from_utf8(self.raw).ok()?.parse().ok()
    }
    /// As text (CP1251 decoded).
    pub fn as_text(&self) -> String {
        decode(self.raw)
    }
}

/// Parses a decimal or `0x` hexadecimal integer.
pub fn parse_int(raw: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(raw).ok()?;
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// A parsed INI file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IniFile {
    /// Lines in file order.
    pub lines: Vec<IniLine>,
}

impl IniFile {
    /// Parses (never fails: unrecognised lines are kept as [`LineKind::Other`]).
    pub fn parse(data: &[u8]) -> Self {
        Self { lines: lines(data).iter().map(IniLine::classify).collect() }
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::config::text::join(self.lines.iter().map(|l| (l.text.as_slice(), l.eol.as_slice())))
    }

    /// Every entry with its section, in file order.
    pub fn entries(&self) -> Vec<IniValue<'_>> {
        let mut section: &[u8] = b"";
        let mut out = Vec::new();
        for (i, l) in self.lines.iter().enumerate() {
            if let Some(s) = l.section() {
                section = s;
            } else if let Some(raw) = l.value() {
                out.push(IniValue { section, raw, line: i });
            }
        }
        out
    }

    /// The first value of `key` in `section` (`None` = any section), case-insensitive.
    pub fn get(&self, section: Option<&str>, key: &str) -> Option<IniValue<'_>> {
        self.entries().into_iter().find(|v| {
            section.is_none_or(|s| v.section.eq_ignore_ascii_case(s.as_bytes()))
                && self.lines[v.line].key().is_some_and(|k| k.eq_ignore_ascii_case(key.as_bytes()))
        })
    }

    /// Sets `key` in `section` (`None` = any section for lookup, the top of the file for
    /// insertion): an existing line keeps its spelling, spacing, comment and terminator;
    /// a new key is appended at the end of its section (created if missing) as
    /// `key = value` + CRLF.
    pub fn set(&mut self, section: Option<&str>, key: &str, value: &[u8]) -> Result<()> {
        if value.iter().any(|&b| b == b'\r' || b == b'\n') || value.windows(2).any(|w| w == b"//") {
            return Err(Error::invalid(0, "ini_value", "a value cannot hold a line break or `//`"));
        }
        if let Some(v) = self.get(section, key) {
            let line = v.line;
            let l = &mut self.lines[line];
            if let LineKind::Entry { key: k, value: r } = l.kind.clone() {
                l.text.splice(r.clone(), value.iter().copied());
                l.kind = LineKind::Entry { key: k, value: r.start..r.start + value.len() };
            }
            return Ok(());
        }
        let mut text = key.as_bytes().to_vec();
        text.extend_from_slice(b" = ");
        let vstart = text.len();
        text.extend_from_slice(value);
        let new = IniLine {
            kind: LineKind::Entry { key: 0..key.len(), value: vstart..text.len() },
            text,
            eol: b"\r\n".to_vec(),
        };
        let at = self.insertion_point(section);
        if let Some(prev) = at.checked_sub(1).and_then(|p| self.lines.get_mut(p))
            && prev.eol.is_empty()
        {
            prev.eol = b"\r\n".to_vec();
        }
        self.lines.insert(at, new);
        Ok(())
    }

    fn insertion_point(&mut self, section: Option<&str>) -> usize {
        let Some(name) = section else {
            return self.lines.iter().position(|l| l.section().is_some()).unwrap_or(self.lines.len());
        };
        let header =
            self.lines.iter().position(|l| l.section().is_some_and(|s| s.eq_ignore_ascii_case(name.as_bytes())));
        match header {
            Some(h) => {
                let mut end = h + 1;
                while end < self.lines.len() && self.lines[end].section().is_none() {
                    end += 1;
                }
                // Insert after the last non-blank line of the section.
                while end > h + 1 && self.lines[end - 1].kind == LineKind::Blank {
                    end -= 1;
                }
                end
            }
            None => {
                if let Some(last) = self.lines.last_mut()
                    && last.eol.is_empty()
                {
                    last.eol = b"\r\n".to_vec();
                }
                let text = format!("[{name}]").into_bytes();
                let kind = LineKind::Section(1..1 + name.len());
                self.lines.push(IniLine { text, eol: b"\r\n".to_vec(), kind });
                self.lines.len()
            }
        }
    }
}
