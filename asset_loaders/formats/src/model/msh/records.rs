//! Fixed-size records of the MSH streams (`docs/reference/models.md` §1.4–§1.10): nodes, model
//! header, slots, triangle descriptors, batches and animation keys. Every word is kept
//! raw; typed views are methods.

use crate::bytes::Cursor;
use crate::error::Result;
use crate::model::Put;

/// "None" marker of 16-bit indices (root parent, missing slot, no frame map).
pub const NONE: u16 = 0xFFFF;

/// Type 1: one node (38 bytes with 15 slot words, or the rare 24-byte variant with 8).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// `+0x00` flags — inferred bit meanings (`docs/reference/models.md` §1.4); kept raw.
    pub flags: u16,
    /// `+0x02` parent node index, `0xFFFF` = root — confirmed.
    pub parent: u16,
    /// `+0x04` start offset into the type-19 frame map, `0xFFFF` = none — confirmed.
    pub anim_map_start: u16,
    /// `+0x06` fallback key index into type 8 (also exclusive bound of mapped keys) — confirmed.
    pub fallback_key: u16,
    /// `+0x08` slot matrix `slot_index[a * 5 + b]` (15 words; 8 in the 24-byte variant),
    /// `0xFFFF` = none — confirmed layout, disputed axis naming.
    pub slots: Vec<u16>,
}

impl Node {
    /// Stride of the regular node record.
    pub const STRIDE: usize = 38;
    /// Stride of the rare variant (`MTCHECK.MSH`).
    pub const STRIDE_SHORT: usize = 24;

    pub(crate) fn parse(c: &mut Cursor<'_>, stride: usize) -> Result<Self> {
        let (flags, parent, anim_map_start, fallback_key) = (c.u16()?, c.u16()?, c.u16()?, c.u16()?);
        let slots = (0..(stride - 8) / 2).map(|_| c.u16()).collect::<Result<_>>()?;
        Ok(Self { flags, parent, anim_map_start, fallback_key, slots })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        for w in [self.flags, self.parent, self.anim_map_start, self.fallback_key] {
            out.put_u16(w);
        }
        self.slots.iter().for_each(|&s| out.put_u16(s));
    }

    /// Slot at matrix cell `(a, b)` (`a * 5 + b`), `None` for `0xFFFF` or a cell outside
    /// the stored matrix.
    pub fn slot(&self, a: usize, b: usize) -> Option<u16> {
        if b >= 5 {
            return None;
        }
        self.slots.get(a * 5 + b).copied().filter(|&s| s != NONE)
    }

    /// Parent index, `None` for a root.
    pub fn parent(&self) -> Option<u16> {
        (self.parent != NONE).then_some(self.parent)
    }
}

/// Type 2 header: 35 floats (0x8C bytes), confirmed as copied by the loader.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelHeader {
    /// The 35 raw floats.
    pub words: [f32; 35],
}

impl ModelHeader {
    /// Header size in bytes.
    pub const SIZE: usize = 0x8C;

    pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        let mut words = [0f32; 35];
        for w in &mut words {
            *w = c.f32()?;
        }
        Ok(Self { words })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        self.words.iter().for_each(|&w| out.put_f32(w));
    }

    fn v3(&self, i: usize) -> [f32; 3] {
        [self.words[i], self.words[i + 1], self.words[i + 2]]
    }

    /// `+0x00` the 8 hull corners (bottom FL, FR, BR, BL, then top FL, FR, BR, BL).
    pub fn corners(&self) -> [[f32; 3]; 8] {
        std::array::from_fn(|i| self.v3(i * 3))
    }

    /// `+0x60` bounding sphere centre and radius.
    pub fn sphere(&self) -> ([f32; 3], f32) {
        (self.v3(24), self.words[27])
    }

    /// `+0x70` / `+0x7C` capsule points A ("bottom") and B ("top").
    pub fn capsule(&self) -> ([f32; 3], [f32; 3]) {
        (self.v3(28), self.v3(31))
    }

    /// `+0x88` XY-plane radius.
    pub fn xy_radius(&self) -> f32 {
        self.words[34]
    }

    /// Builds a header from an axis-aligned box (authoring): corners, enclosing sphere,
    /// capsule along Z through the box centre, XY radius.
    pub fn from_bounds(min: [f32; 3], max: [f32; 3]) -> Self {
        let mut words = [0f32; 35];
        let xs = [min[0], max[0], max[0], min[0]];
        let ys = [min[1], min[1], max[1], max[1]];
        for (i, z) in [min[2], max[2]].into_iter().enumerate() {
            for k in 0..4 {
                let at = (i * 4 + k) * 3;
                words[at..at + 3].copy_from_slice(&[xs[k], ys[k], z]);
            }
        }
        let c = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0, (min[2] + max[2]) / 2.0];
        let h = [max[0] - c[0], max[1] - c[1], max[2] - c[2]];
        words[24..27].copy_from_slice(&c);
        words[27] = (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt();
        words[28..31].copy_from_slice(&[c[0], c[1], min[2]]);
        words[31..34].copy_from_slice(&[c[0], c[1], max[2]]);
        words[34] = (h[0] * h[0] + h[1] * h[1]).sqrt();
        Self { words }
    }
}

/// Type 2 slot (68 bytes): a geometry piece of one node at one (row, column).
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// `+0x00` first triangle descriptor (type 7) — confirmed.
    pub tri_start: u16,
    /// `+0x02` descriptor count — confirmed.
    pub tri_count: u16,
    /// `+0x04` first batch (type 13) — confirmed.
    pub batch_start: u16,
    /// `+0x06` batch count — confirmed.
    pub batch_count: u16,
    /// `+0x08` node-local AABB minimum — confirmed.
    pub aabb_min: [f32; 3],
    /// `+0x14` AABB maximum — confirmed.
    pub aabb_max: [f32; 3],
    /// `+0x20` bounding sphere centre — confirmed.
    pub sphere_center: [f32; 3],
    /// `+0x2C` bounding sphere radius — confirmed.
    pub sphere_radius: f32,
    /// `+0x30` base XY area — inferred (one source).
    pub area: f32,
    /// `+0x34` base volume — inferred (one source).
    pub volume: f32,
    /// `+0x38` three opaque words.
    pub tail: [u32; 3],
}

impl Slot {
    /// Record size.
    pub const SIZE: usize = 68;

    pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            tri_start: c.u16()?,
            tri_count: c.u16()?,
            batch_start: c.u16()?,
            batch_count: c.u16()?,
            aabb_min: c.vec3()?,
            aabb_max: c.vec3()?,
            sphere_center: c.vec3()?,
            sphere_radius: c.f32()?,
            area: c.f32()?,
            volume: c.f32()?,
            tail: [c.u32()?, c.u32()?, c.u32()?],
        })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        for w in [self.tri_start, self.tri_count, self.batch_start, self.batch_count] {
            out.put_u16(w);
        }
        for v in [self.aabb_min, self.aabb_max, self.sphere_center] {
            v.iter().for_each(|&f| out.put_f32(f));
        }
        for f in [self.sphere_radius, self.area, self.volume] {
            out.put_f32(f);
        }
        self.tail.iter().for_each(|&w| out.put_u32(w));
    }
}

/// Type 7: triangle descriptor (16 bytes) for collision/picking — confirmed layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TriDescriptor {
    /// `+0x00` filter flags (meaning of bits unknown).
    pub flags: u16,
    /// `+0x02` related descriptor indices (adjacency).
    pub links: [u16; 3],
    /// `+0x08` face normal, `/ 32767`.
    pub normal: [i16; 3],
    /// `+0x0E` three 2-bit selectors; 3 = none.
    pub selectors: u16,
}

impl TriDescriptor {
    /// Record size.
    pub const SIZE: usize = 16;

    pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            flags: c.u16()?,
            links: [c.u16()?, c.u16()?, c.u16()?],
            normal: [c.i16()?, c.i16()?, c.i16()?],
            selectors: c.u16()?,
        })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.put_u16(self.flags);
        self.links.iter().for_each(|&l| out.put_u16(l));
        self.normal.iter().for_each(|&n| out.put_u16(n as u16));
        out.put_u16(self.selectors);
    }

    /// Selector `i` (0..3), `None` for the "none" value 3.
    pub fn selector(&self, i: u32) -> Option<u16> {
        let v = (self.selectors >> (2 * i)) & 3;
        (v != 3).then_some(v)
    }
}

/// Type 13: batch (20 bytes, packed): one indexed triangle list with one material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    /// `+0x00` flags — inferred (`0x0002` two-sided, `0x2000` lightmap, ...).
    pub flags: u16,
    /// `+0x02` material index / "hi" part — **disputed** (see [`MaterialField`]).
    pub material_hi: u16,
    /// `+0x04` material "lo" (WEAR row in the recommended reading) — **disputed**.
    pub material_lo: u8,
    /// `+0x05` lightmap index (WEAR `LIGHTMAPS` row) — inferred.
    pub lightmap: u8,
    /// `+0x06` local batch / node index — opaque.
    pub local_index: u16,
    /// `+0x08` index count (multiple of 3) — confirmed.
    pub index_count: u16,
    /// `+0x0A` first element in type 6 — confirmed.
    pub index_start: u32,
    /// `+0x0E` vertex count of the primitive — opaque.
    pub vertex_count: u16,
    /// `+0x10` base vertex added to every index — confirmed.
    pub base_vertex: u32,
}

/// Which batch field names the WEAR row (`docs/reference/models.md` §1.8, disputed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MaterialField {
    /// The byte at `+0x04` (recommended: the visually validated viewer).
    #[default]
    Lo,
    /// The `u16` at `+0x02` (the Rust reference).
    Hi,
}

impl Batch {
    /// Record size.
    pub const SIZE: usize = 20;

    pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            flags: c.u16()?,
            material_hi: c.u16()?,
            material_lo: c.u8()?,
            lightmap: c.u8()?,
            local_index: c.u16()?,
            index_count: c.u16()?,
            index_start: c.u32()?,
            vertex_count: c.u16()?,
            base_vertex: c.u32()?,
        })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.put_u16(self.flags);
        out.put_u16(self.material_hi);
        out.extend_from_slice(&[self.material_lo, self.lightmap]);
        out.put_u16(self.local_index);
        out.put_u16(self.index_count);
        out.put_u32(self.index_start);
        out.put_u16(self.vertex_count);
        out.put_u32(self.base_vertex);
    }

    /// The WEAR row under the chosen reading of the disputed field.
    pub fn material(&self, field: MaterialField) -> u16 {
        match field {
            MaterialField::Lo => u16::from(self.material_lo),
            MaterialField::Hi => self.material_hi,
        }
    }

    /// Batch flag `0x0002`: explicitly two-sided (inferred).
    pub fn two_sided(&self) -> bool {
        self.flags & 0x0002 != 0
    }

    /// Batch flag `0x2000`: lightmapped, has second texture coordinates (inferred).
    pub fn has_lightmap(&self) -> bool {
        self.flags & LIGHTMAP_FLAG != 0
    }
}

/// Batch flag `0x2000`: lightmap / second texture coordinates (inferred, `docs/reference/models.md` §1.8).
pub const LIGHTMAP_FLAG: u16 = 0x2000;

/// Type 8: animation key (24 bytes) — confirmed layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimKey {
    /// `+0x00` translation in parent space.
    pub translation: [f32; 3],
    /// `+0x0C` time in frames.
    pub time: f32,
    /// `+0x10` quaternion x, y, z, w, each `/ 32767`.
    pub rotation: [i16; 4],
}

impl AnimKey {
    /// Record size.
    pub const SIZE: usize = 24;

    pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self { translation: c.vec3()?, time: c.f32()?, rotation: [c.i16()?, c.i16()?, c.i16()?, c.i16()?] })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        self.translation.iter().for_each(|&f| out.put_f32(f));
        out.put_f32(self.time);
        self.rotation.iter().for_each(|&q| out.put_u16(q as u16));
    }

    /// The quaternion `[x, y, z, w]` as floats (not renormalised).
    pub fn quaternion(&self) -> [f32; 4] {
        self.rotation.map(|q| f32::from(q) / 32767.0)
    }

    /// A key from float values (authoring): quaternion components are scaled by
    /// 32767 and rounded.
    pub fn new(translation: [f32; 3], time: f32, rotation: [f32; 4]) -> Self {
        let rotation = rotation.map(|q| (q.clamp(-1.0, 1.0) * 32767.0).round() as i16);
        Self { translation, time, rotation }
    }
}

/// Decodes a packed normal (`i8 / 127`, clamped); the 4th byte is ignored.
pub fn decode_normal(n: [u8; 4]) -> [f32; 3] {
    [0, 1, 2].map(|i| (f32::from(n[i] as i8) / 127.0).clamp(-1.0, 1.0))
}

/// Encodes a normal: `clamp(round(n * 127), -128, 127)`, 4th byte `w`.
pub fn encode_normal(n: [f32; 3], w: u8) -> [u8; 4] {
    let e = |v: f32| (v * 127.0).round().clamp(-128.0, 127.0) as i8 as u8;
    [e(n[0]), e(n[1]), e(n[2]), w]
}

/// Decodes a packed UV (`i16 / 1024`, no V flip).
pub fn decode_uv(uv: [i16; 2]) -> [f32; 2] {
    uv.map(|v| f32::from(v) / 1024.0)
}

/// Encodes a UV: `clamp(round(uv * 1024), -32768, 32767)`.
pub fn encode_uv(uv: [f32; 2]) -> [i16; 2] {
    uv.map(|v| (v * 1024.0).round().clamp(-32768.0, 32767.0) as i16)
}
