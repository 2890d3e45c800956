//! Editable NRes documents: lossless save (gaps and unindexed regions kept byte for
//! byte, only derived fields recomputed) and the explicit canonical repack.

use super::{DirEntry, ENTRY_SIZE, HEADER_SIZE, MAGIC, NAME_SIZE, Nres, VERSION, sort_permutation};
use crate::bytes::fixed_field;
use crate::error::{Error, Result};
use crate::layout::{Span, relayout};

/// One entry of a document: its directory row and its (possibly edited) payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocEntry {
    /// The directory row; `size`, `data_offset` and `sort_index` are derived on save.
    pub row: DirEntry,
    /// Payload bytes.
    pub payload: Vec<u8>,
    edited: bool,
    original: Option<(usize, usize)>,
}

impl DocEntry {
    /// True when the payload was replaced since opening.
    pub fn is_edited(&self) -> bool {
        self.edited
    }
}

/// An owned, editable NRes archive that remembers the original layout.
#[derive(Debug, Clone)]
pub struct NresDocument {
    original: Vec<u8>,
    data_end: usize,
    entries: Vec<DocEntry>,
    names_changed: bool,
}

impl NresDocument {
    /// Opens a parsed archive for editing.
    pub fn from_archive(archive: &Nres<'_>) -> Self {
        let entries = archive
            .entries()
            .iter()
            .enumerate()
            .map(|(i, row)| DocEntry {
                row: *row,
                payload: archive.payload(i).unwrap_or_default().to_vec(),
                edited: false,
                original: Some((row.data_offset as usize, row.size as usize)),
            })
            .collect();
        Self { original: archive.bytes().to_vec(), data_end: archive.directory_offset(), entries, names_changed: false }
    }

    /// Entries in directory order.
    pub fn entries(&self) -> &[DocEntry] {
        &self.entries
    }

    /// Replaces the payload of entry `index`.
    pub fn set_payload(&mut self, index: usize, payload: Vec<u8>) -> Result<()> {
        let entry = self.entry_mut(index)?;
        entry.payload = payload;
        entry.edited = true;
        Ok(())
    }

    /// Sets the three attribute words of entry `index` (attributes are not derived).
    pub fn set_attributes(&mut self, index: usize, attr1: u32, attr2: u32, attr3: u32) -> Result<()> {
        let entry = self.entry_mut(index)?;
        entry.row.attr1 = attr1;
        entry.row.attr2 = attr2;
        entry.row.attr3 = attr3;
        Ok(())
    }

    /// Renames entry `index` (the whole 36-byte field is rewritten, as the engine does).
    pub fn rename(&mut self, index: usize, name: &[u8]) -> Result<()> {
        let field = fixed_field::<NAME_SIZE>(name)?;
        self.entry_mut(index)?.row.name_raw = field;
        self.names_changed = true;
        Ok(())
    }

    /// Appends a new entry (placed after the existing data on save).
    pub fn push(&mut self, type_id: u32, attrs: [u32; 3], name: &[u8], payload: Vec<u8>) -> Result<()> {
        let row = new_row(type_id, attrs, name)?;
        self.entries.push(DocEntry { row, payload, edited: true, original: None });
        self.names_changed = true;
        Ok(())
    }

    /// Removes entry `index` (its old bytes stay as an unindexed region on a lossless save).
    pub fn remove(&mut self, index: usize) -> Result<DocEntry> {
        self.entry_mut(index)?;
        self.names_changed = true;
        Ok(self.entries.remove(index))
    }

    fn entry_mut(&mut self, index: usize) -> Result<&mut DocEntry> {
        let count = self.entries.len();
        self.entries
            .get_mut(index)
            .ok_or_else(|| Error::invalid(0, "entry_index", format!("entry {index} of {count} does not exist")))
    }

    /// Lossless save: the original data region is re-emitted with gaps and unindexed
    /// bytes untouched; only sizes, offsets, counts, padding of edited payloads and (if
    /// names changed) the sort map are recomputed. An untouched document reproduces
    /// its input byte for byte.
    pub fn save(&self) -> Result<Vec<u8>> {
        let spans: Vec<Span<'_>> = self
            .entries
            .iter()
            .filter_map(|e| e.original.map(|(start, len)| Span { start, len, payload: &e.payload, repad: e.edited }))
            .collect();
        let (region, starts) = relayout(&self.original, HEADER_SIZE, self.data_end, &spans);
        let mut out = Vec::with_capacity(HEADER_SIZE + region.len() + self.entries.len() * ENTRY_SIZE);
        out.extend_from_slice(&self.original[..HEADER_SIZE]);
        out.extend_from_slice(&region);
        let mut rows = Vec::with_capacity(self.entries.len());
        let mut next_start = starts.iter();
        for e in &self.entries {
            let mut row = e.row;
            row.data_offset = match e.original {
                Some(_) => to_u32(*next_start.next().unwrap_or(&0), "data_offset")?,
                None => {
                    let at = out.len();
                    out.extend_from_slice(&e.payload);
                    pad8(&mut out);
                    to_u32(at, "data_offset")?
                }
            };
            row.size = to_u32(e.payload.len(), "size")?;
            rows.push(row);
        }
        if self.names_changed {
            assign_sort_indices(&mut rows);
        }
        finish(out, &rows)
    }

    /// Canonical repack (explicit): payloads in directory order, each 8-byte aligned
    /// with zero padding, a rebuilt sort map; unindexed regions are dropped.
    pub fn canonical_repack(&self) -> Result<Vec<u8>> {
        let mut writer = NresWriter::new();
        for e in &self.entries {
            writer.push_row(e.row, e.payload.clone());
        }
        writer.to_bytes()
    }
}

/// Authoring writer producing canonical archives (`docs/reference/containers.md` §1.7).
#[derive(Debug, Clone, Default)]
pub struct NresWriter {
    entries: Vec<(DirEntry, Vec<u8>)>,
}

impl NresWriter {
    /// An empty archive.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an entry; the name must be 1..=35 bytes without NUL.
    pub fn add(&mut self, type_id: u32, attrs: [u32; 3], name: &[u8], payload: Vec<u8>) -> Result<&mut Self> {
        if name.is_empty() {
            return Err(Error::invalid(0, "name_empty", "entry names must not be empty"));
        }
        let row = new_row(type_id, attrs, name)?;
        self.entries.push((row, payload));
        Ok(self)
    }

    fn push_row(&mut self, row: DirEntry, payload: Vec<u8>) {
        self.entries.push((row, payload));
    }

    /// Number of entries so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no entry was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Writes the canonical archive.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; HEADER_SIZE];
        let mut rows = Vec::with_capacity(self.entries.len());
        for (row, payload) in &self.entries {
            let mut row = *row;
            row.data_offset = to_u32(out.len(), "data_offset")?;
            row.size = to_u32(payload.len(), "size")?;
            out.extend_from_slice(payload);
            pad8(&mut out);
            rows.push(row);
        }
        assign_sort_indices(&mut rows);
        out[..4].copy_from_slice(&MAGIC);
        out[4..8].copy_from_slice(&VERSION.to_le_bytes());
        finish(out, &rows)
    }
}

fn new_row(type_id: u32, [attr1, attr2, attr3]: [u32; 3], name: &[u8]) -> Result<DirEntry> {
    Ok(DirEntry {
        type_id,
        attr1,
        attr2,
        size: 0,
        attr3,
        name_raw: fixed_field::<NAME_SIZE>(name)?,
        data_offset: 0,
        sort_index: 0,
    })
}

/// Rebuilds the `sort_index` column from the rows' names.
fn assign_sort_indices(rows: &mut [DirEntry]) {
    let names: Vec<&[u8]> = rows.iter().map(|r| r.name()).collect();
    let order = sort_permutation(&names);
    for (row, index) in rows.iter_mut().zip(order) {
        row.sort_index = index;
    }
}

fn pad8(out: &mut Vec<u8>) {
    let pad = (8 - out.len() % 8) % 8;
    out.resize(out.len() + pad, 0);
}

fn to_u32(value: usize, what: &'static str) -> Result<u32> {
    u32::try_from(value).map_err(|_| Error::invalid(0, "too_large", format!("{what} {value} exceeds 32 bits")))
}

/// Appends the directory and patches entry count and total size into the header.
fn finish(mut out: Vec<u8>, rows: &[DirEntry]) -> Result<Vec<u8>> {
    for row in rows {
        out.extend_from_slice(&row.to_bytes());
    }
    let count = i32::try_from(rows.len()).map_err(|_| Error::invalid(0, "too_large", "too many entries"))?;
    let total = to_u32(out.len(), "total_size")?;
    out[8..12].copy_from_slice(&count.to_le_bytes());
    out[12..16].copy_from_slice(&total.to_le_bytes());
    Ok(out)
}
