//! RsLi libraries (`docs/reference/containers.md` §2): 32-byte header, an XOR-encrypted table of
//! 32-byte entries, payloads stored raw, XORed, LZSS, adaptive-Huffman LZSS or raw
//! Deflate, and an optional `AO` overlay trailer.

pub mod cipher;
mod document;
pub mod lzhuf;
pub mod lzss;
#[cfg(test)]
mod tests;

pub use document::{NewEntry, RsliDocument, RsliWriter};

use crate::bytes::{Cursor, display_name, fixed_str};
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::options::ReadOptions;
use cipher::XorStream;
use std::borrow::Cow;
use std::io::Read;

/// Header size.
pub const HEADER_SIZE: usize = 32;
/// Table row size.
pub const ENTRY_SIZE: usize = 32;
/// Header value marking the stored lookup map as authoritative.
pub const PRESORTED: u16 = 0xABBA;
/// The entry registered for quirk `deflate_eof_plus_one`.
pub const EOF_PLUS_ONE_ENTRY: &[u8] = b"INTERF8.TEX";
const TRAILER_SIZE: usize = 6;

/// Storage method, `flags & 0x1E0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// `0x000`: stored.
    Stored,
    /// `0x020`: XOR only.
    Xor,
    /// `0x040`: LZSS.
    Lzss,
    /// `0x060`: XOR, then LZSS.
    XorLzss,
    /// `0x080`: adaptive Huffman + LZSS.
    Huffman,
    /// `0x0A0`: XOR, then adaptive Huffman + LZSS.
    XorHuffman,
    /// `0x100`: raw Deflate.
    Deflate,
}

impl Method {
    /// Every method, in flag order.
    pub const ALL: [Method; 7] =
        [Self::Stored, Self::Xor, Self::Lzss, Self::XorLzss, Self::Huffman, Self::XorHuffman, Self::Deflate];

    /// The method of a flags word, or `None` for an unknown value.
    pub fn from_flags(flags: i16) -> Option<Self> {
        Some(match (flags as u16) & 0x1E0 {
            0x000 => Self::Stored,
            0x020 => Self::Xor,
            0x040 => Self::Lzss,
            0x060 => Self::XorLzss,
            0x080 => Self::Huffman,
            0x0A0 => Self::XorHuffman,
            0x100 => Self::Deflate,
            _ => return None,
        })
    }

    /// The flag bits of this method.
    pub fn bits(self) -> u16 {
        match self {
            Self::Stored => 0x000,
            Self::Xor => 0x020,
            Self::Lzss => 0x040,
            Self::XorLzss => 0x060,
            Self::Huffman => 0x080,
            Self::XorHuffman => 0x0A0,
            Self::Deflate => 0x100,
        }
    }

    /// True when payload bytes pass through the XOR cipher.
    pub fn uses_xor(self) -> bool {
        matches!(self, Self::Xor | Self::XorLzss | Self::XorHuffman)
    }

    /// Largest plausible `unpacked / packed` ratio, used to refuse absurd sizes
    /// before allocating.
    fn max_ratio(self) -> u64 {
        match self {
            Self::Stored | Self::Xor => 1,
            Self::Lzss | Self::XorLzss => 9,
            Self::Huffman | Self::XorHuffman => 480,
            Self::Deflate => 1032,
        }
    }

    /// Short name for listings.
    pub fn name(self) -> &'static str {
        match self {
            Self::Stored => "stored",
            Self::Xor => "xor",
            Self::Lzss => "lzss",
            Self::XorLzss => "xor+lzss",
            Self::Huffman => "lzhuf",
            Self::XorHuffman => "xor+lzhuf",
            Self::Deflate => "deflate",
        }
    }
}

/// One decrypted table row, every field kept raw (`docs/reference/containers.md` §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RsliEntry {
    /// 12-byte name field (may be full, without NUL).
    pub name_raw: [u8; 12],
    /// Service bytes (ignored by the engine).
    pub service: [u8; 4],
    /// Flags; the method is `flags & 0x1E0`.
    pub flags: i16,
    /// The lookup-map cell stored in this row on disk.
    pub sort_cell: i16,
    /// Size after decoding.
    pub unpacked_size: u32,
    /// Payload offset before the overlay is added.
    pub data_offset_raw: u32,
    /// Bytes consumed from the file by the decoder.
    pub packed_size: u32,
}

impl RsliEntry {
    fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            name_raw: c.array()?,
            service: c.array()?,
            flags: c.i16()?,
            sort_cell: c.i16()?,
            unpacked_size: c.u32()?,
            data_offset_raw: c.u32()?,
            packed_size: c.u32()?,
        })
    }

    /// Serialises the (plain) row.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0u8; ENTRY_SIZE];
        out[..12].copy_from_slice(&self.name_raw);
        out[12..16].copy_from_slice(&self.service);
        out[16..18].copy_from_slice(&self.flags.to_le_bytes());
        out[18..20].copy_from_slice(&self.sort_cell.to_le_bytes());
        out[20..24].copy_from_slice(&self.unpacked_size.to_le_bytes());
        out[24..28].copy_from_slice(&self.data_offset_raw.to_le_bytes());
        out[28..32].copy_from_slice(&self.packed_size.to_le_bytes());
        out
    }

    /// The name: bytes before the first NUL, at most 12.
    pub fn name(&self) -> &[u8] {
        fixed_str(&self.name_raw)
    }

    /// The name for display.
    pub fn display_name(&self) -> String {
        display_name(&self.name_raw)
    }

    /// The storage method, `None` when unknown.
    pub fn method(&self) -> Option<Method> {
        Method::from_flags(self.flags)
    }
}

/// A parsed RsLi library borrowing its bytes; derefs to its [`RsliIndex`].
#[derive(Debug, Clone)]
pub struct Rsli<'a> {
    data: &'a [u8],
    index: std::borrow::Cow<'a, RsliIndex>,
}

impl std::ops::Deref for Rsli<'_> {
    type Target = RsliIndex;
    fn deref(&self) -> &RsliIndex {
        &self.index
    }
}

impl<'a> Rsli<'a> {
    /// Parses and validates a library.
    pub fn parse(data: &'a [u8], options: ReadOptions) -> Result<Self> {
        Ok(Self { data, index: std::borrow::Cow::Owned(RsliIndex::parse(data, options)?) })
    }

    /// Wraps bytes with an index parsed from the same bytes earlier.
    pub fn with_index(data: &'a [u8], index: &'a RsliIndex) -> Self {
        Self { data, index: std::borrow::Cow::Borrowed(index) }
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The packed bytes the decoder reads for entry `index`.
    pub fn packed(&self, index: usize) -> Option<&'a [u8]> {
        let start = self.effective_offset(index)?;
        self.data.get(start..start + *self.index.readable.get(index)?)
    }

    /// Decodes entry `index` to exactly `unpacked_size` bytes. Stored entries borrow.
    pub fn decode(&self, index: usize) -> Result<Cow<'a, [u8]>> {
        let e = self.entries.get(index).ok_or_else(|| Error::new(ErrorKind::NotFound(format!("entry #{index}"))))?;
        let start = self.effective_offset(index).unwrap_or(0);
        let packed = self.packed(index).unwrap_or_default();
        let key = self.key(index).unwrap_or(0);
        decode_payload(e, packed, key, self.options)
            .map_err(|err| Error { offset: err.offset.map(|o| o + start as u64), ..err })
            .in_entry(e.display_name())
    }
}

/// The validated table of a library, owned (it can live beside a memory map).
#[derive(Debug, Clone)]
pub struct RsliIndex {
    header: [u8; HEADER_SIZE],
    entries: Vec<RsliEntry>,
    map: Vec<u16>,
    map_rebuilt: bool,
    overlay: Option<u32>,
    /// Bytes read from each entry's packed range (differs from `packed_size` only for
    /// the `deflate_eof_plus_one` quirk).
    readable: Vec<usize>,
    options: ReadOptions,
}

impl RsliIndex {
    /// Parses and validates the header and table of `data`.
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let mut c = Cursor::new(data);
        let header: [u8; HEADER_SIZE] = c.array()?;
        if &header[..2] != b"NL" {
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "NL", found: header[..4].to_vec() }));
        }
        if header[2] != 0 {
            return Err(Error::invalid(2, "reserved_byte", format!("reserved byte is {:#04x}, not 0", header[2])));
        }
        if header[3] != 1 {
            return Err(Error::at(3, ErrorKind::UnsupportedVersion(header[3].into())));
        }
        let count = i16::from_le_bytes([header[4], header[5]]);
        if count < 0 {
            return Err(Error::invalid(4, "entry_count", format!("negative entry count {count}")));
        }
        let count = count as usize;
        let table_len = c.check_count(count as u64, ENTRY_SIZE as u64, "entry table")?;
        let mut table = c.take(table_len)?.to_vec();
        XorStream::new(seed(&header)).apply_all(&mut table);
        let mut rows = Cursor::with_base(&table, HEADER_SIZE as u64);
        let entries = (0..count).map(|_| RsliEntry::parse(&mut rows)).collect::<Result<Vec<_>>>()?;
        let mut lib =
            Self { header, entries, map: Vec::new(), map_rebuilt: false, overlay: None, readable: Vec::new(), options };
        lib.read_trailer(data)?;
        lib.prepare_map()?;
        lib.check_ranges(data.len())?;
        Ok(lib)
    }

    fn table_end(&self) -> usize {
        HEADER_SIZE + self.entries.len() * ENTRY_SIZE
    }

    fn row_offset(&self, index: usize) -> u64 {
        (HEADER_SIZE + index * ENTRY_SIZE) as u64
    }

    fn read_trailer(&mut self, data: &[u8]) -> Result<()> {
        let len = data.len();
        if len < self.table_end() + TRAILER_SIZE || &data[len - TRAILER_SIZE..len - 4] != b"AO" {
            return Ok(());
        }
        let at = (len - TRAILER_SIZE) as u64;
        if !self.options.quirks.rsli_ao_overlay {
            return Err(Error::at(
                at,
                ErrorKind::QuirkRejected {
                    quirk: "rsli_ao_overlay",
                    detail: "file ends with an AO overlay trailer".into(),
                },
            ));
        }
        let mut word = [0u8; 4];
        word.copy_from_slice(&data[len - 4..]);
        let overlay = u32::from_le_bytes(word);
        if overlay as usize > len {
            return Err(Error::invalid(at + 2, "ao_overlay", format!("overlay {overlay} exceeds file size {len}")));
        }
        self.overlay = Some(overlay);
        Ok(())
    }

    fn prepare_map(&mut self) -> Result<()> {
        let sorted = sorted_map(self.entries.iter().map(|e| e.name()));
        let presorted = u16::from_le_bytes([self.header[0x0E], self.header[0x0F]]) == PRESORTED;
        if !presorted {
            self.map = sorted;
            self.map_rebuilt = true;
            return Ok(());
        }
        let stored: Vec<u16> = self.entries.iter().map(|e| e.sort_cell as u16).collect();
        if let Some(row) = self.map_problem(&stored) {
            if !self.options.quirks.rsli_presorted_rebuild {
                return Err(Error::at(
                    self.row_offset(row) + 0x12,
                    ErrorKind::QuirkRejected {
                        quirk: "rsli_presorted_rebuild",
                        detail: format!("presorted map row {row} is not a sorted permutation"),
                    },
                ));
            }
            self.map = sorted;
            self.map_rebuilt = true;
        } else {
            self.map = stored;
        }
        Ok(())
    }

    /// The first row at which `map` stops being a permutation in name order.
    fn map_problem(&self, map: &[u16]) -> Option<usize> {
        let mut seen = vec![false; map.len()];
        for (row, &cell) in map.iter().enumerate() {
            match seen.get_mut(usize::from(cell)) {
                Some(s) if !*s => *s = true,
                _ => return Some(row),
            }
            if row > 0 && self.entries[usize::from(map[row - 1])].name() > self.entries[usize::from(cell)].name() {
                return Some(row);
            }
        }
        None
    }

    fn check_ranges(&mut self, data_len: usize) -> Result<()> {
        let overlay = u64::from(self.overlay.unwrap_or(0));
        let end = (data_len - if self.overlay.is_some() { TRAILER_SIZE } else { 0 }) as u64;
        let mut readable = Vec::with_capacity(self.entries.len());
        for (i, e) in self.entries.iter().enumerate() {
            let at = self.row_offset(i);
            let method = e.method();
            if self.options.strict {
                if method.is_none() {
                    return Err(Error::at(at + 0x10, unsupported_method(e.flags)).in_entry(e.display_name()));
                }
                if matches!(method, Some(Method::Stored | Method::Xor)) && e.packed_size != e.unpacked_size {
                    return Err(Error::invalid(at + 0x1C, "stored_size", "packed and unpacked sizes differ")
                        .in_entry(e.display_name()));
                }
            }
            let start = u64::from(e.data_offset_raw) + overlay;
            let stop = start + u64::from(e.packed_size);
            let mut len = e.packed_size as usize;
            if stop > end {
                let quirk = method == Some(Method::Deflate)
                    && stop == end + 1
                    && e.name().eq_ignore_ascii_case(EOF_PLUS_ONE_ENTRY);
                if !quirk {
                    return Err(Error::invalid(
                        at + 0x18,
                        "entry_bounds",
                        format!("packed range {start:#x}..{stop:#x} ends past {end:#x}"),
                    )
                    .in_entry(e.display_name()));
                }
                if !self.options.quirks.deflate_eof_plus_one {
                    return Err(Error::at(
                        at + 0x1C,
                        ErrorKind::QuirkRejected {
                            quirk: "deflate_eof_plus_one",
                            detail: "raw Deflate range ends one byte past end of file".into(),
                        },
                    )
                    .in_entry(e.display_name()));
                }
                len -= 1;
            }
            if start < self.table_end() as u64 {
                return Err(Error::invalid(at + 0x18, "entry_bounds", "payload starts inside the header or table")
                    .in_entry(e.display_name()));
            }
            readable.push(len);
        }
        self.readable = readable;
        Ok(())
    }

    /// The 32 header bytes.
    pub fn header(&self) -> &[u8; HEADER_SIZE] {
        &self.header
    }

    /// Rows in table order.
    pub fn entries(&self) -> &[RsliEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for an empty library.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `AO` overlay, when present.
    pub fn overlay(&self) -> Option<u32> {
        self.overlay
    }

    /// The effective lookup map (row `p` = original index of the `p`-th name).
    pub fn map(&self) -> &[u16] {
        &self.map
    }

    /// True when the map was computed rather than taken from disk.
    pub fn map_rebuilt(&self) -> bool {
        self.map_rebuilt
    }

    /// Absolute offset of an entry's packed bytes.
    pub fn effective_offset(&self, index: usize) -> Option<usize> {
        let e = self.entries.get(index)?;
        Some(e.data_offset_raw as usize + self.overlay.unwrap_or(0) as usize)
    }

    /// The payload XOR key of entry `index` (its own row's prepared map cell).
    pub fn key(&self, index: usize) -> Option<u16> {
        self.map.get(index).copied()
    }

    /// Finds an entry like `rsFind`: the query is cut to 15 bytes and upper-cased,
    /// binary search through the map, then a linear search.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        let query: Vec<u8> = fixed_str(&name[..name.len().min(15)]).to_ascii_uppercase();
        let (mut lo, mut hi) = (0usize, self.map.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let index = usize::from(self.map[mid]);
            match query.as_slice().cmp(self.entries[index].name()) {
                std::cmp::Ordering::Less => hi = mid,
                std::cmp::Ordering::Greater => lo = mid + 1,
                std::cmp::Ordering::Equal => return Some(index),
            }
        }
        self.entries.iter().position(|e| e.name() == query.as_slice())
    }
}

fn seed(header: &[u8; HEADER_SIZE]) -> u16 {
    u16::from_le_bytes([header[0x14], header[0x15]])
}

fn unsupported_method(flags: i16) -> ErrorKind {
    ErrorKind::Unsupported(format!("storage method {:#05x}", (flags as u16) & 0x1E0))
}

/// The lookup map for `names`: indices stably sorted by name bytes.
fn sorted_map<'n>(names: impl Iterator<Item = &'n [u8]>) -> Vec<u16> {
    let names: Vec<&[u8]> = names.collect();
    let mut order: Vec<u16> = (0..names.len() as u16).collect();
    order.sort_by(|&a, &b| names[usize::from(a)].cmp(names[usize::from(b)]));
    order
}

/// Decodes one payload from its packed bytes (offsets in errors are relative to them).
fn decode_payload<'a>(e: &RsliEntry, packed: &'a [u8], key: u16, options: ReadOptions) -> Result<Cow<'a, [u8]>> {
    let method = e.method().ok_or_else(|| Error::at(0, unsupported_method(e.flags)))?;
    let size = e.unpacked_size as usize;
    if u64::from(e.unpacked_size) > (packed.len() as u64).saturating_mul(method.max_ratio()) + 64 {
        return Err(Error::at(
            0,
            ErrorKind::Corrupt(format!(
                "unpacked size {size} is implausible for {} packed bytes ({})",
                packed.len(),
                method.name()
            )),
        ));
    }
    let xor = method.uses_xor().then(|| XorStream::new(key));
    let out = match method {
        Method::Stored | Method::Xor => {
            let raw = packed.get(..size).ok_or_else(|| {
                Error::at(0, ErrorKind::Truncated { needed: size as u64, available: packed.len() as u64 })
            })?;
            match xor {
                None => return Ok(Cow::Borrowed(raw)),
                Some(mut x) => {
                    let mut buf = raw.to_vec();
                    x.apply_all(&mut buf);
                    buf
                }
            }
        }
        Method::Lzss | Method::XorLzss => lzss::decode(&mut lzss::Input::new(packed, xor), size)?,
        Method::Huffman | Method::XorHuffman => {
            lzhuf::decode(&mut lzss::Input::new(packed, xor), size, options.quirks.lzhuf_alternate_position)?
        }
        Method::Deflate => inflate(packed, size)?,
    };
    Ok(Cow::Owned(out))
}

fn inflate(packed: &[u8], size: usize) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(size);
    flate2::read::DeflateDecoder::new(packed)
        .take(size as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::at(0, ErrorKind::Corrupt(format!("raw Deflate: {e}"))))?;
    if out.len() != size {
        return Err(Error::at(
            0,
            ErrorKind::Corrupt(format!("raw Deflate produced {} bytes, entry declares {size}", out.len())),
        ));
    }
    Ok(out)
}
