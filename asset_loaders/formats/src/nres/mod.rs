//! NRes archives (`docs/reference/containers.md` §1): 16-byte header, payloads, and a directory
//! of 64-byte entries at the end of the file. Reading is zero-copy: entries borrow
//! their payloads from the input (typically a memory map).

mod document;

pub use document::{NresDocument, NresWriter};

use crate::bytes::{Cursor, compare_ci, display_name, fixed_str, has_nul};
use crate::error::{Error, ErrorKind, Result};
use crate::options::ReadOptions;
use std::cmp::Ordering;

/// File magic `NRes`.
pub const MAGIC: [u8; 4] = *b"NRes";
/// The only valid version.
pub const VERSION: u32 = 0x100;
/// Header size.
pub const HEADER_SIZE: usize = 16;
/// Directory entry size.
pub const ENTRY_SIZE: usize = 64;
/// Size of the fixed name field.
pub const NAME_SIZE: usize = 36;

/// One directory row, every word kept raw (`docs/reference/containers.md` §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirEntry {
    /// Resource type (FourCC or small integer).
    pub type_id: u32,
    /// Type-specific attribute 1 (often element count).
    pub attr1: u32,
    /// Type-specific attribute 2.
    pub attr2: u32,
    /// Payload size.
    pub size: u32,
    /// Type-specific attribute 3 (often element stride).
    pub attr3: u32,
    /// The 36-byte name field including any bytes after the NUL.
    pub name_raw: [u8; NAME_SIZE],
    /// Absolute payload offset.
    pub data_offset: u32,
    /// The sort-map cell stored in this row (not a property of this entry).
    pub sort_index: u32,
}

impl DirEntry {
    /// The logical name: bytes before the first NUL.
    pub fn name(&self) -> &[u8] {
        fixed_str(&self.name_raw)
    }

    /// The name decoded for display.
    pub fn display_name(&self) -> String {
        display_name(&self.name_raw)
    }

    fn from_row(row: &[u8; ENTRY_SIZE]) -> Self {
        let word = |at: usize| u32::from_le_bytes([row[at], row[at + 1], row[at + 2], row[at + 3]]);
        let mut name_raw = [0u8; NAME_SIZE];
        name_raw.copy_from_slice(&row[0x14..0x38]);
        Self {
            type_id: word(0),
            attr1: word(4),
            attr2: word(8),
            size: word(12),
            attr3: word(16),
            name_raw,
            data_offset: word(0x38),
            sort_index: word(0x3C),
        }
    }

    /// Serialises the row.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0u8; ENTRY_SIZE];
        let words = [self.type_id, self.attr1, self.attr2, self.size, self.attr3];
        for (i, w) in words.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        out[0x14..0x38].copy_from_slice(&self.name_raw);
        out[0x38..0x3C].copy_from_slice(&self.data_offset.to_le_bytes());
        out[0x3C..0x40].copy_from_slice(&self.sort_index.to_le_bytes());
        out
    }
}

/// How name lookup works for an archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupMode {
    /// Binary search through the stored `sort_index` permutation.
    SortMap,
    /// Linear scan (quirk `nres_linear_lookup`): the stored map is unusable.
    Linear,
}

/// The validated directory of an archive, owned (it can live beside a memory map).
#[derive(Debug, Clone)]
pub struct NresIndex {
    entries: Vec<DirEntry>,
    directory_offset: usize,
    lookup: LookupMode,
}

/// A parsed NRes archive borrowing its bytes; derefs to its [`NresIndex`].
#[derive(Debug, Clone)]
pub struct Nres<'a> {
    data: &'a [u8],
    index: std::borrow::Cow<'a, NresIndex>,
}

impl std::ops::Deref for Nres<'_> {
    type Target = NresIndex;
    fn deref(&self) -> &NresIndex {
        &self.index
    }
}

impl<'a> Nres<'a> {
    /// Parses and validates an archive with the given options.
    pub fn parse(data: &'a [u8], options: ReadOptions) -> Result<Self> {
        Ok(Self { data, index: std::borrow::Cow::Owned(NresIndex::parse(data, options)?) })
    }

    /// Wraps bytes with an index parsed from the same bytes earlier.
    pub fn with_index(data: &'a [u8], index: &'a NresIndex) -> Self {
        Self { data, index: std::borrow::Cow::Borrowed(index) }
    }

    /// The owned index.
    pub fn index(&self) -> &NresIndex {
        &self.index
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The payload of entry `index` (a borrowed slice).
    pub fn payload(&self, index: usize) -> Option<&'a [u8]> {
        self.index.payload_in(self.data, index)
    }

    /// Finds an entry and returns its row and payload.
    pub fn get(&self, name: &[u8]) -> Option<(&DirEntry, &'a [u8])> {
        let index = self.find(name)?;
        Some((&self.index.entries[index], self.payload(index)?))
    }
}

impl NresIndex {
    /// Parses and validates the directory of `data`.
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let mut c = Cursor::new(data);
        let magic = c.array::<4>()?;
        if magic != MAGIC {
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "NRes", found: magic.to_vec() }));
        }
        let version = c.u32()?;
        if version != VERSION {
            return Err(Error::at(4, ErrorKind::UnsupportedVersion(version.into())));
        }
        let count = c.i32()?;
        if count < 0 {
            return Err(Error::invalid(8, "entry_count", format!("negative entry count {count}")));
        }
        let total_size = c.u32()?;
        if u64::from(total_size) != data.len() as u64 {
            return Err(Error::invalid(
                12,
                "total_size",
                format!("header says {total_size} bytes, file has {}", data.len()),
            ));
        }
        let dir_size = (count as u64) * ENTRY_SIZE as u64;
        let directory_offset =
            u64::from(total_size).checked_sub(dir_size).filter(|&off| off >= HEADER_SIZE as u64).ok_or_else(|| {
                Error::invalid(8, "directory_offset", format!("{count} entries do not fit in {total_size} bytes"))
            })? as usize;
        // The directory fills the file from `directory_offset` to the end exactly.
        let entries: Vec<DirEntry> = data[directory_offset..]
            .chunks_exact(ENTRY_SIZE)
            .filter_map(|row| row.try_into().ok().map(DirEntry::from_row))
            .collect();
        let archive = Self { entries, directory_offset, lookup: LookupMode::SortMap };
        archive.validate_entries()?;
        archive.choose_lookup(options)
    }

    fn row_offset(&self, index: usize) -> u64 {
        (self.directory_offset + index * ENTRY_SIZE) as u64
    }

    fn validate_entries(&self) -> Result<()> {
        let mut ranges = Vec::with_capacity(self.entries.len());
        for (i, e) in self.entries.iter().enumerate() {
            let at = self.row_offset(i);
            let start = u64::from(e.data_offset);
            let end = start + u64::from(e.size);
            if start < HEADER_SIZE as u64 || end > self.directory_offset as u64 {
                return Err(Error::invalid(
                    at + 0x38,
                    "entry_bounds",
                    format!(
                        "entry {i} ({}) payload {start:#x}..{end:#x} is outside the data region 0x10..{:#x}",
                        e.display_name(),
                        self.directory_offset
                    ),
                ));
            }
            if !has_nul(&e.name_raw) {
                return Err(Error::invalid(at + 0x14, "name_nul", format!("entry {i} name has no NUL in 36 bytes")));
            }
            if e.name().is_empty() {
                return Err(Error::invalid(at + 0x14, "name_empty", format!("entry {i} has an empty name")));
            }
            if e.size > 0 {
                ranges.push((start, end, i));
            }
        }
        // Archives are normally laid out in directory order: sort only when needed.
        if !ranges.is_sorted() {
            ranges.sort_unstable();
        }
        for pair in ranges.windows(2) {
            let ((_, a_end, a), (b_start, _, b)) = (pair[0], pair[1]);
            if b_start < a_end {
                return Err(Error::invalid(
                    self.row_offset(b) + 0x38,
                    "entry_overlap",
                    format!("entries {a} and {b} have overlapping payloads"),
                ));
            }
        }
        Ok(())
    }

    /// Checks that `sort_index` is a permutation in name order; otherwise strict
    /// reading fails and compatible reading falls back to a linear scan.
    fn choose_lookup(mut self, options: ReadOptions) -> Result<Self> {
        if let Err(problem) = self.check_sort_map() {
            if options.quirks.nres_linear_lookup {
                self.lookup = LookupMode::Linear;
            } else {
                return Err(Error::at(
                    problem.0,
                    ErrorKind::QuirkRejected { quirk: "nres_linear_lookup", detail: problem.1 },
                ));
            }
        }
        Ok(self)
    }

    fn check_sort_map(&self) -> std::result::Result<(), (u64, String)> {
        let n = self.entries.len();
        let mut seen = vec![false; n];
        for (row, e) in self.entries.iter().enumerate() {
            let target = e.sort_index as usize;
            match seen.get_mut(target) {
                Some(slot) if !*slot => *slot = true,
                _ => {
                    return Err((
                        self.row_offset(row) + 0x3C,
                        format!("sort_index {} in row {row} is not part of a permutation", e.sort_index),
                    ));
                }
            }
        }
        for row in 1..n {
            let prev = self.entries[self.entries[row - 1].sort_index as usize].name();
            let cur = self.entries[self.entries[row].sort_index as usize].name();
            if compare_ci(prev, cur) == Ordering::Greater {
                return Err((self.row_offset(row) + 0x3C, format!("sort map row {row} is out of name order")));
            }
        }
        Ok(())
    }

    /// Directory rows in directory order.
    pub fn entries(&self) -> &[DirEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for an archive without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Offset of the directory (end of the data region).
    pub fn directory_offset(&self) -> usize {
        self.directory_offset
    }

    /// How lookups are done (the sort map, or the linear quirk).
    pub fn lookup_mode(&self) -> LookupMode {
        self.lookup
    }

    /// The payload of entry `index` inside `data` (the bytes this index was parsed from).
    pub fn payload_in<'d>(&self, data: &'d [u8], index: usize) -> Option<&'d [u8]> {
        let e = self.entries.get(index)?;
        let start = e.data_offset as usize;
        data.get(start..start + e.size as usize)
    }

    /// Finds an entry by name (ASCII case-insensitive, up to the first NUL); among
    /// case-insensitively equal names the first in directory order wins.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        match self.lookup {
            LookupMode::Linear => self.entries.iter().position(|e| compare_ci(name, e.name()) == Ordering::Equal),
            LookupMode::SortMap => {
                let (mut lo, mut hi) = (0usize, self.entries.len());
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    let index = self.entries[mid].sort_index as usize;
                    match compare_ci(name, self.entries[index].name()) {
                        Ordering::Less => hi = mid,
                        Ordering::Greater => lo = mid + 1,
                        Ordering::Equal => {
                            // The stable sort keeps directory order among equal names:
                            // step back to the first of them.
                            let mut row = mid;
                            while row > 0 {
                                let prev = self.entries[row - 1].sort_index as usize;
                                if compare_ci(name, self.entries[prev].name()) != Ordering::Equal {
                                    break;
                                }
                                row -= 1;
                            }
                            return Some(self.entries[row].sort_index as usize);
                        }
                    }
                }
                None
            }
        }
    }

    /// The sort-map position of every entry (row `p` of the map holds the `p`-th entry
    /// in name order); `None` when the map is unusable.
    pub fn sort_position(&self, index: usize) -> Option<usize> {
        match self.lookup {
            LookupMode::Linear => None,
            LookupMode::SortMap => self.entries.iter().position(|e| e.sort_index as usize == index),
        }
    }
}

/// Computes the `sort_index` column for `names` (stable sort by folded name).
pub fn sort_permutation<N: AsRef<[u8]>>(names: &[N]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by(|&a, &b| compare_ci(names[a as usize].as_ref(), names[b as usize].as_ref()));
    order
}

#[cfg(test)]
mod tests;
