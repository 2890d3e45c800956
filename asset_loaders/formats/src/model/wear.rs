//! WEAR material tables (`docs/reference/models.md` §2): CP1251 text, CRLF or LF line ends,
//! `<count>` material rows, a blank separator and an optional `LIGHTMAPS` section.
//! Lines are kept as raw bytes (with their own line ends) so a read → write cycle is
//! byte for byte; typed views parse on demand. Also the material and lightmap
//! resolution rules with the `material_fallback` and `lightmap_missing_slot` quirks.

use crate::bytes::display_name;
use crate::error::{Error, ErrorKind, Result};
use crate::nres::Nres;
use crate::options::ReadOptions;

/// One text line: content and its own line end (`\r\n`, `\n` or empty at EOF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Bytes without the line end.
    pub text: Vec<u8>,
    /// The line end as stored.
    pub eol: Vec<u8>,
}

impl Line {
    /// A CRLF-terminated line.
    pub fn crlf(text: &[u8]) -> Self {
        Self { text: text.to_vec(), eol: b"\r\n".to_vec() }
    }

    fn trimmed(&self) -> &[u8] {
        self.text.trim_ascii()
    }

    fn is_blank(&self) -> bool {
        self.text.iter().all(|&b| b.is_ascii_whitespace() || b == 0)
    }

    /// Row view: `<legacy_id> <name>`; `None` when the line is not a row.
    pub fn row(&self) -> Option<(i64, &[u8])> {
        let t = self.trimmed();
        let split = t.iter().position(|b| b.is_ascii_whitespace())?;
        let id = std::str::from_utf8(&t[..split]).ok()?.parse().ok()?;
        let name = t[split..].trim_ascii();
        (!name.is_empty()).then_some((id, name))
    }

    fn count(&self) -> Option<i64> {
        std::str::from_utf8(self.trimmed()).ok()?.parse().ok()
    }
}

/// The `LIGHTMAPS` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LightmapSection {
    /// The `LIGHTMAPS` line.
    pub keyword: Line,
    /// The count line.
    pub count_line: Line,
    /// Lightmap rows.
    pub rows: Vec<Line>,
}

/// A WEAR table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wear {
    /// The material count line.
    pub count_line: Line,
    /// Material rows (selection is by position; `legacy_id` is kept, not the key).
    pub rows: Vec<Line>,
    /// Blank lines after the material rows (the separator before `LIGHTMAPS`).
    pub separator: Vec<Line>,
    /// Optional lightmap section.
    pub lightmaps: Option<LightmapSection>,
    /// Blank (whitespace/NUL) lines after the last section.
    pub trailer: Vec<Line>,
}

fn split_lines(bytes: &[u8]) -> Vec<Line> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        match rest.iter().position(|&b| b == b'\n') {
            Some(n) => {
                let cr = n > 0 && rest[n - 1] == b'\r';
                let end = if cr { n - 1 } else { n };
                out.push(Line { text: rest[..end].to_vec(), eol: rest[end..=n].to_vec() });
                rest = &rest[n + 1..];
            }
            None => {
                out.push(Line { text: rest.to_vec(), eol: Vec::new() });
                rest = &[];
            }
        }
    }
    out
}

struct Lines {
    lines: std::vec::IntoIter<Line>,
    number: usize,
}

impl Lines {
    fn next(&mut self, what: &str) -> Result<Line> {
        self.number += 1;
        self.lines
            .next()
            .ok_or_else(|| Error::invalid(0, "wear_truncated", format!("line {}: {what} missing", self.number)))
    }

    fn counted(&mut self, rule: &'static str, what: &str) -> Result<(Line, Vec<Line>)> {
        let count_line = self.next(what)?;
        let count = count_line.count().filter(|&c| c > 0).ok_or_else(|| {
            Error::invalid(0, rule, format!("line {}: {what} {:?}", self.number, display_name(&count_line.text)))
        })?;
        let mut rows = Vec::new();
        for _ in 0..count {
            let line = self.next("row")?;
            if line.row().is_none() {
                return Err(Error::invalid(
                    0,
                    "wear_row",
                    format!("line {}: {:?}", self.number, display_name(&line.text)),
                ));
            }
            rows.push(line);
        }
        Ok((count_line, rows))
    }

    fn blanks(&mut self) -> (Vec<Line>, Option<Line>) {
        let mut blank = Vec::new();
        for line in self.lines.by_ref() {
            self.number += 1;
            if !line.is_blank() {
                return (blank, Some(line));
            }
            blank.push(line);
        }
        (blank, None)
    }
}

impl Wear {
    /// Parses a WEAR payload.
    pub fn parse(bytes: &[u8], options: ReadOptions) -> Result<Self> {
        let mut lines = Lines { lines: split_lines(bytes).into_iter(), number: 0 };
        let (count_line, rows) = lines.counted("wear_count", "Illegal wear length.")?;
        let (separator, next) = lines.blanks();
        let Some(keyword) = next else {
            return Ok(Self { count_line, rows, separator, lightmaps: None, trailer: Vec::new() });
        };
        if keyword.trimmed() != b"LIGHTMAPS" {
            return Err(Error::invalid(0, "wear_trailing_text", format!("line {}: unexpected text", lines.number)));
        }
        if separator.is_empty() && !options.quirks.wear_blank_before_lightmaps {
            return Err(Error::new(ErrorKind::QuirkRejected {
                quirk: "wear_blank_before_lightmaps",
                detail: format!("line {}: LIGHTMAPS without the blank line before it", lines.number),
            }));
        }
        let (count_line_lm, lm_rows) = lines.counted("wear_lightmap_count", "Illegal lightmaps length.")?;
        let (trailer, next) = lines.blanks();
        if next.is_some() {
            return Err(Error::invalid(
                0,
                "wear_trailing_text",
                format!("line {}: text after LIGHTMAPS rows", lines.number),
            ));
        }
        let lightmaps = Some(LightmapSection { keyword, count_line: count_line_lm, rows: lm_rows });
        Ok(Self { count_line, rows, separator, lightmaps, trailer })
    }

    /// Authoring: a table with CRLF lines, legacy ids equal to positions and the blank
    /// separator before `LIGHTMAPS`.
    pub fn new(materials: &[&[u8]], lightmaps: &[&[u8]]) -> Result<Self> {
        let rows = |names: &[&[u8]]| -> Result<Vec<Line>> {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    if n.is_empty() || n.iter().any(|b| b.is_ascii_whitespace() || *b == 0) {
                        return Err(Error::invalid(0, "wear_name", format!("name {:?}", display_name(n))));
                    }
                    Ok(Line::crlf(&[format!("{i} ").as_bytes(), n].concat()))
                })
                .collect()
        };
        if materials.is_empty() {
            return Err(Error::invalid(0, "wear_count", "a WEAR needs at least one material"));
        }
        let lightmaps = (!lightmaps.is_empty())
            .then(|| -> Result<LightmapSection> {
                Ok(LightmapSection {
                    keyword: Line::crlf(b"LIGHTMAPS"),
                    count_line: Line::crlf(lightmaps.len().to_string().as_bytes()),
                    rows: rows(lightmaps)?,
                })
            })
            .transpose()?;
        Ok(Self {
            count_line: Line::crlf(materials.len().to_string().as_bytes()),
            rows: rows(materials)?,
            separator: vec![Line::crlf(b"")],
            lightmaps,
            trailer: Vec::new(),
        })
    }

    /// Serialises the table: every stored line as read; a blank separator is emitted
    /// before `LIGHTMAPS` when the source lacked it (`wear_blank_before_lightmaps`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut put = |l: &Line| {
            out.extend_from_slice(&l.text);
            out.extend_from_slice(&l.eol);
        };
        put(&self.count_line);
        self.rows.iter().for_each(&mut put);
        self.separator.iter().for_each(&mut put);
        if let Some(lm) = &self.lightmaps {
            if self.separator.is_empty() {
                put(&Line::crlf(b""));
            }
            put(&lm.keyword);
            put(&lm.count_line);
            lm.rows.iter().for_each(&mut put);
        }
        self.trailer.iter().for_each(&mut put);
        out
    }

    /// Material name of row `i` (raw CP1251).
    pub fn material(&self, i: usize) -> Option<&[u8]> {
        Some(self.rows.get(i)?.row()?.1)
    }

    /// Lightmap name of lightmap row `i`.
    pub fn lightmap(&self, i: usize) -> Option<&[u8]> {
        Some(self.lightmaps.as_ref()?.rows.get(i)?.row()?.1)
    }

    /// Replaces the name of material row `i`, keeping its legacy id and line end.
    pub fn set_material(&mut self, i: usize, name: &[u8]) -> Result<()> {
        let line =
            self.rows.get_mut(i).ok_or_else(|| Error::invalid(0, "wear_row", format!("row {i} does not exist")))?;
        let id = line.row().map_or(i as i64, |(id, _)| id);
        line.text = [format!("{id} ").as_bytes(), name].concat();
        Ok(())
    }
}

/// How a material name was resolved in `Material.lib`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialMatch {
    /// The exact (case-insensitive) name; entry index.
    Exact(usize),
    /// Fallback to `DEFAULT` (quirk `material_fallback`).
    Default(usize),
    /// Fallback to entry 0 (quirk `material_fallback`).
    First,
}

impl MaterialMatch {
    /// The entry index.
    pub fn index(self) -> usize {
        match self {
            Self::Exact(i) | Self::Default(i) => i,
            Self::First => 0,
        }
    }
}

/// Resolves a material name: exact name → `DEFAULT` → entry 0 (`docs/reference/models.md` §2.2). Without the
/// `material_fallback` quirk a missing name is reported.
pub fn resolve_material(library: &Nres<'_>, name: &[u8], options: ReadOptions) -> Result<MaterialMatch> {
    if let Some(i) = library.find(name) {
        return Ok(MaterialMatch::Exact(i));
    }
    let missing = || Error::new(ErrorKind::NotFound(format!("Material {} not found.", display_name(name))));
    if !options.quirks.material_fallback {
        return Err(missing());
    }
    if let Some(i) = library.find(b"DEFAULT") {
        return Ok(MaterialMatch::Default(i));
    }
    if library.is_empty() { Err(missing()) } else { Ok(MaterialMatch::First) }
}

/// Resolves lightmap row `row` of a WEAR in `LightMap.lib`: `Some(entry)`, or `None`
/// (slot −1, no lightmap; never the diffuse texture) under `lightmap_missing_slot`.
pub fn resolve_lightmap(wear: &Wear, row: usize, library: &Nres<'_>, options: ReadOptions) -> Result<Option<usize>> {
    let found = wear.lightmap(row).and_then(|name| library.find(name));
    match found {
        Some(i) => Ok(Some(i)),
        None if options.quirks.lightmap_missing_slot => Ok(None),
        None => {
            let name = wear.lightmap(row).map_or_else(|| format!("row {row}"), display_name);
            Err(Error::new(ErrorKind::NotFound(format!("LightMap {name} not found."))))
        }
    }
}

#[cfg(test)]
#[path = "wear_tests.rs"]
mod tests;
