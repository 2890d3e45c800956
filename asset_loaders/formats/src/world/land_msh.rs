//! `Land.msh` terrain (`docs/reference/world.md` §2): an NRes archive with the streams
//! `1, 2, 3, 4, 5, 18, 14, 11, 21` in that order. Every stream is validated (types,
//! strides, counts, face indices and neighbours) and written back byte for byte.

use super::surface_mask::SplitMask;
use super::{StreamEntry, count_u32, save_container};
use crate::bytes::Cursor;
use crate::error::{Error, Result, ResultExt};
use crate::nres::{DirEntry, Nres, NresDocument};
use crate::options::ReadOptions;

mod builder;
pub use builder::TerrainBuilder;

/// Stream types in their required order.
pub const STREAM_ORDER: [u32; 9] = [1, 2, 3, 4, 5, 18, 14, 11, 21];
/// Type-2 header size.
pub const SLOT_HEADER_SIZE: usize = 0x8C;
/// Type-2 slot size.
pub const SLOT_SIZE: usize = 68;
/// Node size (type 1).
pub const NODE_SIZE: usize = 38;
/// Face size (type 21).
pub const FACE_SIZE: usize = 28;
/// "No neighbour" marker.
pub const NO_FACE: u16 = 0xFFFF;
/// High material selector of a face without overlay.
pub const NO_OVERLAY: u8 = 0xFF;

fn stride_of(type_id: u32) -> usize {
    match type_id {
        1 => NODE_SIZE,
        3 => 12,
        21 => FACE_SIZE,
        _ => 4,
    }
}

/// A terrain face (28 bytes): confirmed core, inferred/opaque tail kept raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerrainFace28 {
    /// `+0x00` full surface mask / flags (confirmed position; see [`SplitMask`]).
    pub flags: u32,
    /// `+0x04` material selector "low" (inferred, disputed reading).
    pub material_low: u8,
    /// `+0x05` material selector "high", `0xFF` = none (inferred, disputed reading).
    pub material_high: u8,
    /// `+0x06` auxiliary tag (opaque, observed `0xFFFF`).
    pub aux_tag: u16,
    /// `+0x08` vertex indices (confirmed).
    pub vertices: [u16; 3],
    /// `+0x0E` neighbour faces, `0xFFFF` = none (confirmed).
    pub neighbours: [u16; 3],
    /// `+0x14` packed normal (3 × i16) and edge selector (u16): inferred/opaque, raw.
    pub tail: [u8; 8],
}

impl TerrainFace28 {
    fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            flags: c.u32()?,
            material_low: c.u8()?,
            material_high: c.u8()?,
            aux_tag: c.u16()?,
            vertices: [c.u16()?, c.u16()?, c.u16()?],
            neighbours: [c.u16()?, c.u16()?, c.u16()?],
            tail: c.array()?,
        })
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&[self.material_low, self.material_high]);
        out.extend_from_slice(&self.aux_tag.to_le_bytes());
        for w in self.vertices.iter().chain(&self.neighbours) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.tail);
    }

    /// The surface mask split into compact forms (lossless).
    pub fn surface(&self) -> SplitMask {
        SplitMask::split(self.flags)
    }

    /// The material tag as one u16 (`high << 8 | low`), as histogrammed by the spec.
    pub fn material_tag(&self) -> u16 {
        u16::from_le_bytes([self.material_low, self.material_high])
    }

    /// The overlay row: the high selector unless [`NO_OVERLAY`] (reading A of `docs/reference/world.md` §2.4:
    /// a `Land1.wea` row drawn over the base layer).
    pub fn overlay(&self) -> Option<u8> {
        (self.material_high != NO_OVERLAY).then_some(self.material_high)
    }

    /// The packed face normal of the tail (one source; inferred/opaque).
    pub fn packed_normal(&self) -> [i16; 3] {
        let t = &self.tail;
        [i16::from_le_bytes([t[0], t[1]]), i16::from_le_bytes([t[2], t[3]]), i16::from_le_bytes([t[4], t[5]])]
    }

    /// The packed edge selector of the tail (opaque).
    pub fn edge_selector(&self) -> u16 {
        u16::from_le_bytes([self.tail[6], self.tail[7]])
    }
}

/// A type-2 slot (68 bytes, kept raw) with typed views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot68 {
    /// The raw record.
    pub raw: [u8; SLOT_SIZE],
}

impl Slot68 {
    fn u16_at(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.raw[at], self.raw[at + 1]])
    }

    fn vec3_at(&self, at: usize) -> [f32; 3] {
        let f = |i: usize| f32::from_le_bytes([self.raw[i], self.raw[i + 1], self.raw[i + 2], self.raw[i + 3]]);
        [f(at), f(at + 4), f(at + 8)]
    }

    /// `+0x00` first face (indexes types 21 and 11 in parallel; confirmed).
    pub fn first_face(&self) -> u16 {
        self.u16_at(0)
    }

    /// `+0x02` face count (confirmed).
    pub fn face_count(&self) -> u16 {
        self.u16_at(2)
    }

    /// `+0x08` AABB minimum (layout as in MSH slots; inferred for terrain).
    pub fn aabb_min(&self) -> [f32; 3] {
        self.vec3_at(0x08)
    }

    /// `+0x14` AABB maximum.
    pub fn aabb_max(&self) -> [f32; 3] {
        self.vec3_at(0x14)
    }
}

/// Type-11 per-face pair reading (disputed, `docs/reference/world.md` §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShadingReading {
    /// Reading A (recommended): `u16 lookup_key, u16 flags`, flag `0x10` = batch boundary.
    LookupKeyFlags,
    /// Reading B: `u16 material index, u16 sequential triangle index`.
    MaterialTriangle,
}

/// One decoded type-11 word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaceShading {
    /// Reading A.
    Lookup {
        /// Key into the generated shading cache.
        key: u16,
        /// Flags (`0x10` batch boundary).
        flags: u16,
    },
    /// Reading B.
    Material {
        /// Material index.
        material: u16,
        /// Sequential triangle index.
        triangle: u16,
    },
}

/// A parsed `Land.msh`.
#[derive(Debug, Clone)]
pub struct LandMsh {
    /// Type 1: tile nodes (Node38, raw).
    pub nodes: Vec<[u8; NODE_SIZE]>,
    /// Type 2: header (35 floats, raw).
    pub slot_header: [u8; SLOT_HEADER_SIZE],
    /// Type 2: slots.
    pub slots: Vec<Slot68>,
    /// Type 3: positions.
    pub positions: Vec<[f32; 3]>,
    /// Type 4: packed normals (`i8 / 127` ×3 + one raw byte).
    pub normals: Vec<[u8; 4]>,
    /// Type 5: packed UV0 (`i16 / 1024` ×2).
    pub uv0: Vec<[u8; 4]>,
    /// Type 18: microtexture mapping (opaque).
    pub microtexture: Vec<u32>,
    /// Type 14: auxiliary per-vertex stream (opaque).
    pub aux: Vec<u32>,
    /// Type 11: per-face shading pair (disputed; raw words).
    pub face_shading: Vec<u32>,
    /// Type 21: faces.
    pub faces: Vec<TerrainFace28>,
    /// Directory rows in stream order (names, `attr2` and type-2 `attr3` kept raw;
    /// counts and strides are derived on write).
    pub rows: Vec<DirEntry>,
    doc: Option<NresDocument>,
}

fn read_all<T>(
    payload: &[u8],
    base: u64,
    stride: usize,
    mut f: impl FnMut(&mut Cursor<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut c = Cursor::with_base(payload, base);
    let mut out = Vec::with_capacity(payload.len() / stride);
    while !c.is_empty() {
        out.push(f(&mut c)?);
    }
    Ok(out)
}

impl LandMsh {
    /// Parses and validates a terrain archive.
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let nres = Nres::parse(data, options)?;
        let rows = nres.entries().to_vec();
        let types: Vec<u32> = rows.iter().map(|e| e.type_id).collect();
        if types != STREAM_ORDER {
            return Err(Error::invalid(
                nres.directory_offset() as u64,
                "land_msh_streams",
                format!("stream types {types:?}, expected {STREAM_ORDER:?}"),
            ));
        }
        let mut payloads = Vec::with_capacity(9);
        for (i, row) in rows.iter().enumerate() {
            let p = nres.payload(i).unwrap_or_default();
            check_stream(row, p).in_entry(row.display_name())?;
            payloads.push((p, u64::from(row.data_offset)));
        }
        let vec4 = |i: usize| read_all(payloads[i].0, payloads[i].1, 4, |c| c.array::<4>());
        let words = |i: usize| read_all(payloads[i].0, payloads[i].1, 4, |c| c.u32());
        let (p2, b2) = payloads[1];
        let mut slot_header = [0u8; SLOT_HEADER_SIZE];
        slot_header.copy_from_slice(&p2[..SLOT_HEADER_SIZE]);
        let msh = Self {
            nodes: read_all(payloads[0].0, payloads[0].1, NODE_SIZE, |c| c.array())?,
            slot_header,
            slots: read_all(&p2[SLOT_HEADER_SIZE..], b2 + SLOT_HEADER_SIZE as u64, SLOT_SIZE, |c| {
                Ok(Slot68 { raw: c.array()? })
            })?,
            positions: read_all(payloads[2].0, payloads[2].1, 12, |c| c.vec3())?,
            normals: vec4(3)?,
            uv0: vec4(4)?,
            microtexture: words(5)?,
            aux: words(6)?,
            face_shading: words(7)?,
            faces: read_all(payloads[8].0, payloads[8].1, FACE_SIZE, TerrainFace28::read)?,
            rows,
            doc: Some(NresDocument::from_archive(&nres)),
        };
        msh.validate_faces(payloads[8].1).in_entry(msh.rows[8].display_name())?;
        Ok(msh)
    }

    fn validate_faces(&self, base: u64) -> Result<()> {
        let (nv, nf) = (self.positions.len(), self.faces.len());
        for (i, f) in self.faces.iter().enumerate() {
            let at = base + (i * FACE_SIZE) as u64;
            for (k, &v) in f.vertices.iter().enumerate() {
                if usize::from(v) >= nv {
                    return Err(Error::invalid(
                        at + 8 + 2 * k as u64,
                        "face_vertex",
                        format!("face {i} vertex {v} >= {nv} positions"),
                    ));
                }
            }
            for (k, &n) in f.neighbours.iter().enumerate() {
                if n != NO_FACE && usize::from(n) >= nf {
                    return Err(Error::invalid(
                        at + 14 + 2 * k as u64,
                        "face_neighbour",
                        format!("face {i} neighbour {n} >= {nf} faces"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The decoded normal of vertex `i` (`i8 / 127`).
    pub fn normal(&self, i: usize) -> Option<[f32; 3]> {
        self.normals.get(i).map(|n| [0, 1, 2].map(|k| f32::from(n[k] as i8) / 127.0))
    }

    /// The decoded UV0 of vertex `i` (`i16 / 1024`).
    pub fn uv(&self, i: usize) -> Option<[f32; 2]> {
        self.uv0.get(i).map(|u| {
            [f32::from(i16::from_le_bytes([u[0], u[1]])) / 1024.0, f32::from(i16::from_le_bytes([u[2], u[3]])) / 1024.0]
        })
    }

    /// The type-11 word of face `i` under a reading.
    pub fn shading(&self, i: usize, reading: ShadingReading) -> Option<FaceShading> {
        let w = *self.face_shading.get(i)?;
        let (lo, hi) = (w as u16, (w >> 16) as u16);
        Some(match reading {
            ShadingReading::LookupKeyFlags => FaceShading::Lookup { key: lo, flags: hi },
            ShadingReading::MaterialTriangle => FaceShading::Material { material: lo, triangle: hi },
        })
    }

    /// The corners of face `i`.
    pub fn triangle(&self, i: usize) -> Option<[[f32; 3]; 3]> {
        let f = self.faces.get(i)?;
        Some(
            [
                self.positions.get(usize::from(f.vertices[0]))?,
                self.positions.get(usize::from(f.vertices[1]))?,
                self.positions.get(usize::from(f.vertices[2]))?,
            ]
            .map(|p| *p),
        )
    }

    /// Serialises the archive (byte-identical to the input for an unedited parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut entries = Vec::with_capacity(9);
        for (i, &type_id) in STREAM_ORDER.iter().enumerate() {
            let mut payload = Vec::new();
            match type_id {
                1 => self.nodes.iter().for_each(|n| payload.extend_from_slice(n)),
                2 => {
                    payload.extend_from_slice(&self.slot_header);
                    self.slots.iter().for_each(|s| payload.extend_from_slice(&s.raw));
                }
                3 => self.positions.iter().flatten().for_each(|f| payload.extend_from_slice(&f.to_le_bytes())),
                4 => self.normals.iter().for_each(|n| payload.extend_from_slice(n)),
                5 => self.uv0.iter().for_each(|n| payload.extend_from_slice(n)),
                18 | 14 | 11 => {
                    let words = match type_id {
                        18 => &self.microtexture,
                        14 => &self.aux,
                        _ => &self.face_shading,
                    };
                    words.iter().for_each(|w| payload.extend_from_slice(&w.to_le_bytes()));
                }
                _ => self.faces.iter().for_each(|f| f.write(&mut payload)),
            }
            let row = self.rows.get(i);
            let attr2 = row.map_or(0, |r| r.attr2);
            let attrs = if type_id == 2 {
                [count_u32(self.slots.len(), "slots")?, attr2, row.map_or(0, |r| r.attr3)]
            } else {
                let stride = stride_of(type_id);
                [count_u32(payload.len() / stride, "elements")?, attr2, stride as u32]
            };
            let name = row.map_or_else(|| format!("stream_{type_id:02}").into_bytes(), |r| r.name().to_vec());
            entries.push(StreamEntry { type_id, attrs, name, payload });
        }
        save_container(self.doc.as_ref(), &entries)
    }
}

fn check_stream(row: &DirEntry, payload: &[u8]) -> Result<()> {
    let at = u64::from(row.data_offset);
    if row.type_id == 2 {
        let body = payload.len().checked_sub(SLOT_HEADER_SIZE).ok_or_else(|| {
            Error::invalid(at, "slot_header", format!("type 2 payload of {} bytes is shorter than 0x8C", payload.len()))
        })?;
        if !body.is_multiple_of(SLOT_SIZE) || (body / SLOT_SIZE) as u64 != u64::from(row.attr1) {
            return Err(Error::invalid(
                at,
                "slot_count",
                format!("{body} slot bytes are not attr1 = {} slots of {SLOT_SIZE}", row.attr1),
            ));
        }
        return Ok(());
    }
    let stride = stride_of(row.type_id);
    if row.attr3 as usize != stride {
        return Err(Error::invalid(
            at,
            "stream_stride",
            format!("type {} stride {} != {stride}", row.type_id, row.attr3),
        ));
    }
    if !payload.len().is_multiple_of(stride) || (payload.len() / stride) as u64 != u64::from(row.attr1) {
        return Err(Error::invalid(
            at,
            "stream_count",
            format!("type {} has {} bytes, attr1 = {} elements of {stride}", row.type_id, payload.len(), row.attr1),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
