//! On-demand PACK access: the PIDX lookup, section byte ranges and single-section decoding.
//! Nothing here runs at module load except building the index.

use crate::chunk::ids;
use crate::error::{Error, ErrorKind, Result, chunk_frame, section_frame};
use crate::model::{ModelRecord, PidxEntry};
use crate::module::Module;
use crate::record::Record;
use crate::section::Section;
use iron3d_formats::Frame;

/// Section size in metres (§7.2).
pub const SECTION_SIZE: f64 = 1000.0;
/// Sections per region side (§7.2).
pub const REGION_SECTIONS: i64 = 500;

/// Section index of a coordinate, `floor(coord / 1000 + 250)`, not clamped.
pub fn section_of(coord: f64) -> i64 {
    (coord / SECTION_SIZE + 250.0).floor() as i64
}

/// Section index clamped to 0..=499 (used for models).
pub fn section_of_clamped(coord: f64) -> u16 {
    section_of(coord).clamp(0, REGION_SECTIONS - 1) as u16
}

/// Centre coordinate of section `s`.
pub fn section_centre(s: u16) -> f64 {
    ((f64::from(s) - 250.0) + 0.5) * SECTION_SIZE
}

/// Cell id of a point in section (`row`, `col`) (§7.2): 4 × 4 cells of 250 m.
pub fn cell_id(x: f64, z: f64, row: u16, col: u16) -> u8 {
    let cell = |v: f64, s: u16| ((v - (section_centre(s) - 500.0)) / 250.0).floor().clamp(0.0, 3.0) as u8;
    cell(z, row) * 4 + cell(x, col)
}

/// The PIDX with section byte lengths, sorted for lookup.
#[derive(Debug, Clone, Default)]
pub struct SectionIndex {
    /// PIDX entries as stored.
    pub entries: Vec<PidxEntry>,
    /// Byte length of each entry's section.
    pub lengths: Vec<u64>,
    by_key: Vec<(u32, usize)>,
}

impl SectionIndex {
    /// Builds the index from the module's PIDX and PACK size. Fails if an offset lies
    /// beyond the PACK payload.
    pub fn new(m: &Module) -> Result<Self> {
        let entries = m.pidx().to_vec();
        if entries.is_empty() {
            return Ok(Self::default());
        }
        let pack = m.pack().ok_or_else(|| Error::new(ErrorKind::NoPack).within(file_frames(m).as_slice()))?;
        let pack_len = pack.bytes().len() as u64;
        let mut offsets: Vec<u64> = entries.iter().map(|e| e.pack_offset).collect();
        offsets.sort_unstable();
        offsets.dedup();
        let mut lengths = Vec::with_capacity(entries.len());
        for (k, e) in entries.iter().enumerate() {
            if e.pack_offset > pack_len {
                // The effective PIDX is the last one; its records follow the chunk header
                // and the u32 count.
                let pidx_at = m.chunks.iter().rev().find(|c| c.id == ids::PIDX).map_or(0, |c| c.offset);
                let record_at = pidx_at + 12 + k as u64 * PidxEntry::MIN_SIZE as u64;
                return Err(Error::invalid(
                    record_at,
                    "pidx_offset",
                    format!(
                        "section row {} column {}: pack_offset {} beyond PACK size {pack_len}",
                        e.row, e.column, e.pack_offset
                    ),
                )
                .in_record("record", k)
                .in_chunk(ids::PIDX)
                .within(file_frames(m).as_slice()));
            }
            let next = offsets.partition_point(|&o| o <= e.pack_offset);
            lengths.push(offsets.get(next).copied().unwrap_or(pack_len) - e.pack_offset);
        }
        let mut by_key: Vec<(u32, usize)> =
            entries.iter().enumerate().map(|(i, e)| ((u32::from(e.row) << 16) | u32::from(e.column), i)).collect();
        // Stable sort: for duplicate keys the first entry wins.
        by_key.sort_by_key(|&(k, _)| k);
        Ok(Self { entries, lengths, by_key })
    }

    /// Entry index of section (`row`, `col`).
    pub fn find(&self, row: u32, col: u32) -> Option<usize> {
        let (row, col) = (u16::try_from(row).ok()?, u16::try_from(col).ok()?);
        let key = (u32::from(row) << 16) | u32::from(col);
        let i = self.by_key.partition_point(|&(k, _)| k < key);
        self.by_key.get(i).filter(|(k, _)| *k == key).map(|&(_, i)| i)
    }

    /// Frames naming entry `i`'s section, innermost first: the section (PIDX row and
    /// column), the PACK chunk, the module's file.
    pub fn frames(&self, m: &Module, i: usize) -> Vec<Frame> {
        let section = self.entries.get(i).map(|e| section_frame(e.row, e.column));
        section.into_iter().chain([chunk_frame(ids::PACK)]).chain(file_frames(m)).collect()
    }

    /// The bytes and absolute offset of entry `i`'s section.
    pub fn section_bytes<'m>(&self, m: &'m Module, i: usize) -> Result<(&'m [u8], u64)> {
        let located = |e: Error| e.within(&self.frames(m, i));
        let pack = m.pack().ok_or_else(|| located(Error::new(ErrorKind::NoPack)))?;
        let (e, len) = self
            .entries
            .get(i)
            .zip(self.lengths.get(i))
            .ok_or_else(|| located(Error::rule("section_in_pidx", format!("no PIDX entry {i}"))))?;
        let start = usize::try_from(e.pack_offset).ok();
        let end = start.and_then(|s| s.checked_add(usize::try_from(*len).ok()?));
        let bytes = start
            .zip(end)
            .and_then(|(s, e)| pack.bytes().get(s..e))
            .ok_or_else(|| located(Error::invalid(pack.file_offset, "section_bounds", "section range outside PACK")))?;
        Ok((bytes, pack.file_offset + e.pack_offset))
    }

    /// Decodes entry `i`'s section. Errors, and later expansion errors of the section,
    /// name the file, the PACK chunk and the section.
    pub fn decode(&self, m: &Module, i: usize, strict: bool) -> Result<Section> {
        self.decode_with(m, i, |bytes, base, count| Section::decode(bytes, base, count, strict))
    }

    /// Decodes only chunk `chunk` of entry `i`'s section (record indices in errors count
    /// from that chunk's first record).
    pub fn decode_chunk(&self, m: &Module, i: usize, chunk: usize, strict: bool) -> Result<Section> {
        self.decode_with(m, i, |bytes, base, count| Section::decode_chunk(bytes, base, count, chunk, strict))
    }

    fn decode_with(
        &self,
        m: &Module,
        i: usize,
        decode: impl FnOnce(&[u8], u64, u32) -> Result<Section>,
    ) -> Result<Section> {
        let (bytes, base) = self.section_bytes(m, i)?;
        let count = self.entries.get(i).map_or(0, |e| e.model_count);
        let frames = self.frames(m, i);
        let mut section = decode(bytes, base, count).map_err(|e| e.within(&frames))?;
        section.origin.chain = frames;
        Ok(section)
    }

    /// Decodes section (`row`, `col`) and expands it to world-space model records.
    pub fn models(&self, m: &Module, row: u32, col: u32, strict: bool) -> Result<Vec<ModelRecord>> {
        let i = self
            .find(row, col)
            .ok_or_else(|| Error::new(ErrorKind::SectionNotFound { row, col }).within(file_frames(m).as_slice()))?;
        self.decode(m, i, strict)?.models(m.prototypes())
    }

    /// Total models over all sections (from PIDX).
    pub fn total_models(&self) -> u64 {
        self.entries.iter().map(|e| u64::from(e.model_count)).sum()
    }
}

/// The frame naming the module's file, if it has one.
fn file_frames(m: &Module) -> Option<Frame> {
    m.file.clone().map(Frame::File)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_section_and_cell_vectors() {
        assert_eq!(section_of(-0.1), 249);
        assert_eq!(section_of(0.0), 250);
        assert_eq!(section_of(999.9), 250);
        assert_eq!(section_of_clamped(-1e9), 0);
        assert_eq!(section_of_clamped(1e9), 499);
        assert_eq!(section_centre(250), 500.0);
        assert_eq!(cell_id(130.0, 760.0, 250, 250), 12);
    }
}
