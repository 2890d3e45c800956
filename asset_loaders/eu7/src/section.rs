//! PACK section formats (§7.3): flat v7 and formats 1–6, with format detection
//! (quirk `eu7_pack_flat_v7_marker`), decoding, expansion and encoding.

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{InstRecord, ModelRecord, Prototype};
use crate::node::{SlimNode, TransformContext};
use crate::prim::Sid;
use crate::record::{Record, f32s, sid, u32s, write_f32s, write_sids, write_u32s};
use iron3d_formats::Frame;

/// Section layout, named after the format byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SectionFormat {
    /// Headerless list of model records ("v7").
    Flat,
    /// 1: solo + inst ("v8").
    V8,
    /// 2: with unique meshes ("v9").
    V9,
    /// 3: chunked ("v10").
    V10,
    /// 4: chunked with unique textures ("v11").
    V11,
    /// 5: chunked solo + inst ("v12").
    V12,
    /// 6: mesh/texture indices and cells ("v13").
    V13,
}

impl SectionFormat {
    /// The format for a marker byte 1..=6.
    pub fn from_marker(b: u8) -> Option<Self> {
        Some(match b {
            1 => Self::V8,
            2 => Self::V9,
            3 => Self::V10,
            4 => Self::V11,
            5 => Self::V12,
            6 => Self::V13,
            _ => return None,
        })
    }
    /// The marker byte (`None` for flat).
    pub fn marker(self) -> Option<u8> {
        Some(match self {
            Self::Flat => return None,
            Self::V8 => 1,
            Self::V9 => 2,
            Self::V10 => 3,
            Self::V11 => 4,
            Self::V12 => 5,
            Self::V13 => 6,
        })
    }
    fn has_meshes(self) -> bool {
        matches!(self, Self::V9 | Self::V10 | Self::V11 | Self::V12 | Self::V13)
    }
    fn has_textures(self) -> bool {
        matches!(self, Self::V11 | Self::V12 | Self::V13)
    }
    /// True for the chunked formats 3–6.
    pub fn chunked(self) -> bool {
        matches!(self, Self::V10 | Self::V11 | Self::V12 | Self::V13)
    }
    fn chunk_has_inst(self) -> bool {
        matches!(self, Self::V12 | Self::V13)
    }
}

/// A format-6 solo record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SoloV13 {
    /// Slim node (transform always empty).
    pub node: SlimNode,
    /// Raw `is_terrain`.
    pub is_terrain: u8,
    /// Raw `transition`.
    pub transition: u8,
    /// Location.
    pub location: [f32; 3],
    /// Angles.
    pub angles: [f32; 3],
    /// Scale.
    pub scale: [f32; 3],
    /// Index into the section's unique meshes, `0xFFFF` = none.
    pub mesh_index: u16,
    /// Index into the section's unique textures, `0xFFFF` = none.
    pub texture_index: u16,
    /// Light states.
    pub light_states: Vec<f32>,
    /// Light colours.
    pub light_colors: Vec<u32>,
    /// Cell id (§7.2).
    pub cell_id: u8,
}

impl SoloV13 {
    const MIN_SIZE: usize = 1 + 2 + 36 + 4 + 8 + 1;
    fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            node: SlimNode::read(c)?,
            is_terrain: c.u8()?,
            transition: c.u8()?,
            location: c.vec3()?,
            angles: c.vec3()?,
            scale: c.vec3()?,
            mesh_index: c.u16()?,
            texture_index: c.u16()?,
            light_states: f32s(c)?,
            light_colors: u32s(c)?,
            cell_id: c.u8()?,
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        self.node.write(w)?;
        w.u8(self.is_terrain);
        w.u8(self.transition);
        w.vec3(self.location);
        w.vec3(self.angles);
        w.vec3(self.scale);
        w.u16(self.mesh_index);
        w.u16(self.texture_index);
        write_f32s(w, &self.light_states)?;
        write_u32s(w, &self.light_colors)?;
        w.u8(self.cell_id);
        Ok(())
    }
}

/// One entry of a chunk table (formats 3–6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SectionChunk {
    /// Solo (model) records in the chunk.
    pub solo_count: u32,
    /// Instance records in the chunk (formats 5–6).
    pub inst_count: u32,
    /// Byte offset from the section start.
    pub offset: u32,
}

/// A decoded section header.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionHeader {
    /// Total solo records.
    pub solo_count: u32,
    /// Total instance records.
    pub inst_count: u32,
    /// Unique mesh paths (formats 2–6).
    pub unique_meshes: Vec<Sid>,
    /// Unique texture paths (formats 4–6).
    pub unique_textures: Vec<Sid>,
    /// Chunk table (formats 3–6).
    pub chunks: Vec<SectionChunk>,
    /// Header size in bytes.
    pub size: usize,
}

/// A decoded section, raw enough to re-encode byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Layout.
    pub format: SectionFormat,
    /// Header (counts/lists/chunks; zeroes for flat).
    pub header: SectionHeader,
    /// Solo records (all formats but 6), chunk by chunk.
    pub solo: Vec<ModelRecord>,
    /// Format-6 solo records, chunk by chunk.
    pub solo_v13: Vec<SoloV13>,
    /// Instance records, chunk by chunk.
    pub inst: Vec<InstRecord>,
    /// Where the records lie in the file (empty for sections built in memory).
    pub origin: SectionOrigin,
}

/// Where a decoded section's records lie, so that expansion errors are located like
/// decoding errors. Not part of the encoding.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionOrigin {
    /// Frames naming the section (PIDX row and column, PACK chunk, file), innermost first;
    /// set by [`crate::SectionIndex::decode`].
    pub chain: Vec<Frame>,
    /// Absolute file offset of each solo record (of either kind), in order.
    pub solo_offsets: Vec<u64>,
    /// Absolute file offset of each instance record, in order.
    pub inst_offsets: Vec<u64>,
}

impl SectionOrigin {
    /// `e` located at record `index` of the kind whose offsets are `offsets`.
    fn locate(&self, mut e: Error, what: &str, offsets: &[u64], index: usize) -> Error {
        e.offset = offsets.get(index).copied().or(e.offset);
        e.in_record(what, index).within(&self.chain)
    }
}

fn parse_header(
    c: &mut Cursor<'_>,
    format: SectionFormat,
    model_count: u32,
    section_len: usize,
) -> Result<SectionHeader> {
    let start = c.offset();
    let bad = |msg: &str| Error::invalid(start, "section_header", msg);
    let _marker = c.u8()?;
    let mut h = SectionHeader { solo_count: c.u32()?, inst_count: c.u32()?, ..SectionHeader::default() };
    if format.has_meshes() {
        h.unique_meshes = c.list(4, sid)?;
    }
    if format.has_textures() {
        h.unique_textures = c.list(4, sid)?;
    }
    if h.solo_count.checked_add(h.inst_count) != Some(model_count) {
        return Err(bad("solo_count + inst_count differs from the PIDX model_count"));
    }
    if format.chunked() {
        let entry = if format.chunk_has_inst() { 12 } else { 8 };
        h.chunks = c.list(entry, |c| {
            let solo_count = c.u32()?;
            let inst_count = if format.chunk_has_inst() { c.u32()? } else { 0 };
            Ok(SectionChunk { solo_count, inst_count, offset: c.u32()? })
        })?;
    }
    h.size = c.position();
    if format.chunked() {
        let mut prev: Option<u32> = None;
        let (mut solos, mut insts) = (0u64, 0u64);
        for ch in &h.chunks {
            let ok_order = match prev {
                None => ch.offset as usize == h.size,
                Some(p) => ch.offset >= p,
            };
            if !ok_order || ch.offset as usize > section_len {
                return Err(bad("inconsistent chunk table"));
            }
            prev = Some(ch.offset);
            solos += u64::from(ch.solo_count);
            insts += u64::from(ch.inst_count);
        }
        if h.chunks.is_empty() || solos != u64::from(h.solo_count) || insts != u64::from(h.inst_count) {
            return Err(bad("chunk counts do not add up to the header counts"));
        }
    }
    Ok(h)
}

/// Chooses the section format from its first byte (§7.3.1). A marker 1..=6 is accepted only
/// if the header that follows validates; otherwise the section is flat, as MaSzyna's
/// first v7 writer wrote it with no format byte (its first model's node flags in
/// 1..=6). Compatible mode reads it so; strict mode too when its `model_count` flat
/// records fill it exactly, and reports the collision when they do not.
pub fn detect(bytes: &[u8], base: u64, model_count: u32, strict: bool) -> Result<(SectionFormat, SectionHeader)> {
    let first = bytes.first().copied();
    let Some(format) = first.and_then(SectionFormat::from_marker) else {
        return Ok((SectionFormat::Flat, SectionHeader::default()));
    };
    match parse_header(&mut Cursor::with_base(bytes, base), format, model_count, bytes.len()) {
        Ok(h) => Ok((format, h)),
        Err(_) if strict && !fills_flat(bytes, base, model_count) => {
            Err(Error::at(base, ErrorKind::FlatMarkerCollision(first.unwrap_or(0))))
        }
        Err(_) => Ok((SectionFormat::Flat, SectionHeader::default())),
    }
}

/// Whether `model_count` flat model records fill `bytes` exactly.
fn fills_flat(bytes: &[u8], base: u64, model_count: u32) -> bool {
    let mut c = Cursor::with_base(bytes, base);
    let read = c
        .check_items(u64::from(model_count), ModelRecord::MIN_SIZE, base)
        .and_then(|n| (0..n).try_for_each(|_| ModelRecord::read(&mut c, 0).map(drop)));
    read.is_ok() && c.remaining() == 0
}

/// Implicit chunk list of formats flat, 1 and 2 (one chunk holding everything).
fn effective_chunks(format: SectionFormat, h: &SectionHeader) -> Vec<SectionChunk> {
    if format.chunked() {
        h.chunks.clone()
    } else {
        vec![SectionChunk { solo_count: h.solo_count, inst_count: h.inst_count, offset: h.size as u32 }]
    }
}

/// Next chunk's start (or the section end) for chunk `i`.
fn chunk_end(chunks: &[SectionChunk], i: usize, section_len: usize) -> usize {
    chunks.get(i + 1).map_or(section_len, |n| n.offset as usize)
}

impl Section {
    /// Decodes a whole section of `model_count` models (from PIDX).
    pub fn decode(bytes: &[u8], base: u64, model_count: u32, strict: bool) -> Result<Self> {
        let (format, mut header) = detect(bytes, base, model_count, strict)?;
        if format == SectionFormat::Flat {
            header.solo_count = model_count;
        }
        let mut s = Section::empty(format, header);
        let chunks = effective_chunks(format, &s.header);
        let mut c = Cursor::with_base(bytes, base);
        c.take(s.header.size)?;
        for i in 0..chunks.len() {
            s.read_chunk(&mut c, &chunks, i, bytes.len())?;
        }
        if strict && c.remaining() > 0 {
            return Err(c.err(ErrorKind::PayloadLength { parsed: c.position() as u64, declared: bytes.len() as u64 }));
        }
        Ok(s)
    }

    /// Decodes only chunk `index` of a section (formats 3–6; formats 0–2 have one chunk).
    pub fn decode_chunk(bytes: &[u8], base: u64, model_count: u32, index: usize, strict: bool) -> Result<Self> {
        let (format, header) = detect(bytes, base, model_count, strict)?;
        let chunks = effective_chunks(
            format,
            &SectionHeader {
                solo_count: if format == SectionFormat::Flat { model_count } else { header.solo_count },
                ..header.clone()
            },
        );
        let mut s = Section::empty(format, header);
        let ch = chunks
            .get(index)
            .ok_or_else(|| Error::invalid(base, "section_chunk", format!("section has no chunk {index}")))?;
        let mut c = Cursor::with_base(bytes, base);
        c.take(ch.offset as usize)?;
        s.read_chunk(&mut c, &chunks, index, bytes.len())?;
        Ok(s)
    }

    fn read_chunk(&mut self, c: &mut Cursor<'_>, chunks: &[SectionChunk], i: usize, section_len: usize) -> Result<()> {
        let Some(ch) = chunks.get(i) else { return Ok(()) };
        if c.position() != ch.offset as usize {
            return Err(c.err(ErrorKind::Invalid {
                rule: "section_chunk",
                detail: format!("chunk {i} starts at {} but data ends at {}", ch.offset, c.position()),
            }));
        }
        let at = c.offset();
        let min = if self.format == SectionFormat::V13 { SoloV13::MIN_SIZE } else { ModelRecord::MIN_SIZE };
        let n = c.check_items(u64::from(ch.solo_count), min, at)?;
        self.origin.solo_offsets.reserve(n);
        for _ in 0..n {
            let (index, at) = (self.origin.solo_offsets.len(), c.offset());
            let named = |e: Error| e.in_record("solo record", index);
            if self.format == SectionFormat::V13 {
                self.solo_v13.push(SoloV13::read(c).map_err(named)?);
            } else {
                self.solo.push(ModelRecord::read(c, 0).map_err(named)?);
            }
            self.origin.solo_offsets.push(at);
        }
        let n_inst = u64::from(ch.inst_count);
        let with_cell = match self.format {
            SectionFormat::V13 => true,
            // Disputed 44 vs 45 bytes: pick the size that ends exactly at the next chunk.
            SectionFormat::V12 if n_inst > 0 => {
                let left = chunk_end(chunks, i, section_len).saturating_sub(c.position()) as u64;
                left == n_inst * 45
            }
            _ => false,
        };
        let size = if with_cell { 45 } else { InstRecord::SIZE };
        let n = c.check_items(n_inst, size, at)?;
        self.inst.reserve(n);
        for _ in 0..n {
            let (index, at) = (self.inst.len(), c.offset());
            self.inst.push(InstRecord::read(c, with_cell).map_err(|e| e.in_record("instance record", index))?);
            self.origin.inst_offsets.push(at);
        }
        Ok(())
    }

    /// A section of `format` with `header` and no records yet.
    pub fn empty(format: SectionFormat, header: SectionHeader) -> Self {
        Section {
            format,
            header,
            solo: Vec::new(),
            solo_v13: Vec::new(),
            inst: Vec::new(),
            origin: SectionOrigin::default(),
        }
    }

    /// Total model count (solo + instances).
    pub fn model_count(&self) -> usize {
        self.solo.len() + self.solo_v13.len() + self.inst.len()
    }

    /// Expands the section into world-space model records: solo transforms cleared,
    /// format-6 indices mapped, instances expanded against `prot` (§8.3). Chunk order kept.
    /// Errors name the record, its offset and the section ([`Section::origin`]).
    pub fn models(&self, prot: &[Prototype]) -> Result<Vec<ModelRecord>> {
        let mut out = Vec::with_capacity(self.model_count());
        let chunks = effective_chunks(self.format, &self.header);
        let (mut si, mut ii) = (0usize, 0usize);
        let lookup = |list: &[Sid], idx: u16, what: &str, si: usize| -> Result<Sid> {
            if idx == 0xFFFF {
                return Ok(Sid::EMPTY);
            }
            list.get(usize::from(idx)).copied().ok_or_else(|| {
                let e =
                    Error::rule("format6_index", format!("{what} index {idx} out of range ({} unique)", list.len()));
                self.origin.locate(e, "solo record", &self.origin.solo_offsets, si)
            })
        };
        for ch in &chunks {
            for _ in 0..ch.solo_count {
                let mut m = if self.format == SectionFormat::V13 {
                    let Some(s) = self.solo_v13.get(si) else { break };
                    ModelRecord {
                        node: s.node.clone(),
                        is_terrain: s.is_terrain,
                        transition: s.transition,
                        location: s.location,
                        angles: s.angles,
                        scale: s.scale,
                        model_file: lookup(&self.header.unique_meshes, s.mesh_index, "mesh", si)?,
                        texture_file: lookup(&self.header.unique_textures, s.texture_index, "texture", si)?,
                        light_states: s.light_states.clone(),
                        light_colors: s.light_colors.clone(),
                    }
                } else {
                    let Some(s) = self.solo.get(si) else { break };
                    s.clone()
                };
                si += 1;
                m.node.flags &= !crate::node::flags::TRANSFORM;
                m.node.transform = TransformContext::default();
                out.push(m);
            }
            for _ in 0..ch.inst_count {
                let Some(inst) = self.inst.get(ii) else { break };
                let p = prot.get(inst.proto_id as usize).ok_or_else(|| {
                    let e = Error::new(ErrorKind::PrototypeOutOfRange { id: inst.proto_id, len: prot.len() });
                    self.origin.locate(e, "instance record", &self.origin.inst_offsets, ii)
                })?;
                ii += 1;
                out.push(p.expand(inst));
            }
        }
        Ok(out)
    }

    /// Encodes the section. Header counts and chunk offsets are derived from `header.chunks`
    /// (their counts) and the records; formats 1/2/flat use the header totals.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        let f = self.format;
        let mut chunks = effective_chunks(f, &self.header);
        if let Some(marker) = f.marker() {
            w.u8(marker);
            w.u32(self.header.solo_count);
            w.u32(self.header.inst_count);
            if f.has_meshes() {
                write_sids(&mut w, &self.header.unique_meshes)?;
            }
            if f.has_textures() {
                write_sids(&mut w, &self.header.unique_textures)?;
            }
        }
        let table_at = w.len();
        if f.chunked() {
            w.count(chunks.len())?;
            for ch in &chunks {
                w.u32(ch.solo_count);
                if f.chunk_has_inst() {
                    w.u32(ch.inst_count);
                }
                w.u32(0);
            }
        }
        let (mut si, mut ii) = (0usize, 0usize);
        for ch in &mut chunks {
            ch.offset = u32::try_from(w.len()).map_err(|_| Error::new(ErrorKind::TooLarge("section of 4 GiB")))?;
            for _ in 0..ch.solo_count {
                if f == SectionFormat::V13 {
                    self.solo_v13.get(si).ok_or(missing())?.write(&mut w)?;
                } else {
                    self.solo.get(si).ok_or(missing())?.write(&mut w, 0)?;
                }
                si += 1;
            }
            for _ in 0..ch.inst_count {
                self.inst.get(ii).ok_or(missing())?.write(&mut w);
                ii += 1;
            }
        }
        if si != self.solo.len() + self.solo_v13.len() || ii != self.inst.len() {
            return Err(Error::rule("section_counts", "section records do not match the chunk counts"));
        }
        if f.chunked() {
            let entry = if f.chunk_has_inst() { 12 } else { 8 };
            for (i, ch) in chunks.iter().enumerate() {
                w.patch_u32(table_at + 4 + i * entry + entry - 4, ch.offset);
            }
        }
        Ok(w.buf)
    }
}

fn missing() -> Error {
    Error::rule("section_counts", "section has fewer records than its counts")
}
