//! RsLi writers: an authoring writer that can produce every storage method, and a
//! lossless document that re-emits an opened library byte for byte.

use super::cipher::XorStream;
use super::{ENTRY_SIZE, HEADER_SIZE, Method, PRESORTED, Rsli, RsliEntry, TRAILER_SIZE, lzhuf, lzss, sorted_map};
use crate::bytes::fixed_field;
use crate::error::{Error, Result};
use crate::layout::{Span, relayout};
use std::io::Write;

/// Packs `data` with `method`, XOR-keyed with `key` where the method needs it.
pub fn encode_payload(method: Method, data: &[u8], key: u16) -> Result<Vec<u8>> {
    let mut packed = match method {
        Method::Stored | Method::Xor => data.to_vec(),
        Method::Lzss | Method::XorLzss => lzss::encode(data),
        Method::Huffman | Method::XorHuffman => lzhuf::encode(data),
        Method::Deflate => {
            let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
            enc.write_all(data)
                .and_then(|_| enc.finish())
                .map_err(|e| Error::new(crate::error::ErrorKind::Io(format!("deflate: {e}"))))?
        }
    };
    if method.uses_xor() {
        XorStream::new(key).apply_all(&mut packed);
    }
    Ok(packed)
}

/// An entry for [`RsliWriter`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    /// Name (upper case by convention), at most 12 bytes.
    pub name: Vec<u8>,
    /// Storage method.
    pub method: Method,
    /// Unpacked contents.
    pub data: Vec<u8>,
}

/// Writes new libraries.
#[derive(Debug, Clone)]
pub struct RsliWriter {
    header: [u8; HEADER_SIZE],
    entries: Vec<NewEntry>,
}

impl RsliWriter {
    /// A writer whose table is encrypted with `seed`.
    pub fn new(seed: u16) -> Self {
        let mut header = [0u8; HEADER_SIZE];
        header[..4].copy_from_slice(b"NL\0\x01");
        header[0x14..0x16].copy_from_slice(&seed.to_le_bytes());
        Self { header, entries: Vec::new() }
    }

    /// Adds an entry.
    pub fn add(&mut self, entry: NewEntry) -> &mut Self {
        self.entries.push(entry);
        self
    }

    /// Writes the library: payloads contiguous in table order, the sorted map stored
    /// and flagged presorted (required when any XOR method is used).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let count = i16::try_from(self.entries.len())
            .map_err(|_| Error::invalid(0, "entry_count", "more than 32767 entries"))?;
        let mut header = self.header;
        header[4..6].copy_from_slice(&count.to_le_bytes());
        header[0x0E..0x10].copy_from_slice(&PRESORTED.to_le_bytes());
        let names = self
            .entries
            .iter()
            .map(|e| fixed_field::<13>(&e.name).map(|f| (f, e.name.len())))
            .collect::<Result<Vec<_>>>()?;
        let map = sorted_map(self.entries.iter().map(|e| e.name.as_slice()));
        let mut rows = Vec::with_capacity(self.entries.len());
        let mut payloads = Vec::new();
        let mut offset = HEADER_SIZE + self.entries.len() * ENTRY_SIZE;
        for (i, e) in self.entries.iter().enumerate() {
            let packed = encode_payload(e.method, &e.data, map[i])?;
            let mut name_raw = [0u8; 12];
            name_raw[..names[i].1].copy_from_slice(&names[i].0[..names[i].1]);
            rows.push(RsliEntry {
                name_raw,
                service: [0; 4],
                flags: e.method.bits() as i16,
                sort_cell: map[i] as i16,
                unpacked_size: to_u32(e.data.len())?,
                data_offset_raw: to_u32(offset)?,
                packed_size: to_u32(packed.len())?,
            });
            offset += packed.len();
            payloads.push(packed);
        }
        let mut out = header.to_vec();
        out.extend(encrypt_table(&header, &rows));
        for p in payloads {
            out.extend_from_slice(&p);
        }
        Ok(out)
    }
}

fn to_u32(v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::invalid(0, "too_large", format!("{v} exceeds 32 bits")))
}

fn encrypt_table(header: &[u8; HEADER_SIZE], rows: &[RsliEntry]) -> Vec<u8> {
    let mut table: Vec<u8> = rows.iter().flat_map(|r| r.to_bytes()).collect();
    XorStream::new(super::seed(header)).apply_all(&mut table);
    table
}

/// An opened library kept for lossless editing.
#[derive(Debug, Clone)]
pub struct RsliDocument {
    original: Vec<u8>,
    header: [u8; HEADER_SIZE],
    rows: Vec<RsliEntry>,
    packed: Vec<Vec<u8>>,
    spans: Vec<(usize, usize)>,
    keys: Vec<u16>,
    overlay: Option<u32>,
}

impl RsliDocument {
    /// Opens a parsed library; fails when payload ranges overlap (no lossless layout).
    pub fn from_library(lib: &Rsli<'_>) -> Result<Self> {
        let mut spans = Vec::with_capacity(lib.len());
        let mut packed = Vec::with_capacity(lib.len());
        for (i, e) in lib.entries().iter().enumerate() {
            let start = lib.effective_offset(i).unwrap_or(0);
            let bytes = lib.packed(i).unwrap_or_default();
            spans.push((start, (e.packed_size as usize).min(bytes.len())));
            packed.push(bytes.to_vec());
        }
        let mut sorted: Vec<(usize, usize)> = spans.iter().copied().filter(|s| s.1 > 0).collect();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[1].0 < w[0].0 + w[0].1) {
            return Err(Error::invalid(0, "entry_overlap", "payload ranges overlap; only a repack can rewrite it"));
        }
        Ok(Self {
            original: lib.bytes().to_vec(),
            header: *lib.header(),
            rows: lib.entries().to_vec(),
            packed,
            spans,
            keys: lib.map().to_vec(),
            overlay: lib.overlay(),
        })
    }

    /// Rows in table order.
    pub fn rows(&self) -> &[RsliEntry] {
        &self.rows
    }

    /// Replaces the contents of entry `index`, re-encoding with its own method and key.
    pub fn set_data(&mut self, index: usize, data: &[u8]) -> Result<()> {
        let row = self.rows.get(index).ok_or_else(|| Error::invalid(0, "entry_index", format!("no entry {index}")))?;
        let method = row.method().ok_or_else(|| Error::invalid(0, "method", "entry has an unknown method"))?;
        let packed = encode_payload(method, data, self.keys[index])?;
        self.rows[index].unpacked_size = to_u32(data.len())?;
        self.rows[index].packed_size = to_u32(packed.len())?;
        self.packed[index] = packed;
        Ok(())
    }

    /// Lossless save: header, re-encrypted table, the data region with every byte
    /// outside payloads kept, and the `AO` trailer. Untouched = byte identical.
    pub fn save(&self) -> Result<Vec<u8>> {
        let table_end = HEADER_SIZE + self.rows.len() * ENTRY_SIZE;
        let data_end = self.original.len() - if self.overlay.is_some() { TRAILER_SIZE } else { 0 };
        // Spans cover the bytes present in the file (the `deflate_eof_plus_one` entry's
        // declared size is one more); sizes are kept in the rows, updated by edits.
        let spans: Vec<Span<'_>> = self
            .spans
            .iter()
            .zip(&self.packed)
            .map(|(&(start, len), payload)| Span { start, len, payload, repad: false })
            .collect();
        let (region, starts) = relayout(&self.original, table_end, data_end, &spans);
        let overlay = self.overlay.unwrap_or(0) as usize;
        let mut rows = self.rows.clone();
        for (row, start) in rows.iter_mut().zip(starts) {
            let raw = start
                .checked_sub(overlay)
                .ok_or_else(|| Error::invalid(0, "ao_overlay", "a payload would start before the overlay base"))?;
            row.data_offset_raw = to_u32(raw)?;
        }
        let mut out = self.header.to_vec();
        out.extend(encrypt_table(&self.header, &rows));
        out.extend_from_slice(&region);
        if self.overlay.is_some() {
            out.extend_from_slice(&self.original[data_end..]);
        }
        Ok(out)
    }
}
