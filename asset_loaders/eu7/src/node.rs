//! Shared record parts: slim node (§4), transform context (§4.1), packed vertex and
//! lighting block (§5), and the string-id visitor every record implements.

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::{ErrorKind, Result};
use crate::prim::{self, Sid};

/// Visits every string id a record writes, in on-disk field order (the canonical
/// interning order of §6.1). Only ids that are actually serialised are visited.
pub trait VisitSids {
    /// Calls `f` on each string id in field order.
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid));
}

/// Slim node flag bits (§4).
pub mod flags {
    /// `name` present.
    pub const NAME: u8 = 0x01;
    /// `range_sq_min` present.
    pub const RANGE_MIN: u8 = 0x02;
    /// `range_sq_max` present.
    pub const RANGE_MAX: u8 = 0x04;
    /// Bounding sphere present.
    pub const BOUNDS: u8 = 0x08;
    /// Group handle present.
    pub const GROUP: u8 = 0x10;
    /// Transform context present.
    pub const TRANSFORM: u8 = 0x20;
    /// Node not visible (flag only).
    pub const HIDDEN: u8 = 0x40;
}

/// Transform context (§4.1); values kept as their on-disk binary32.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransformContext {
    /// Nested `origin` directives; the last one is applied.
    pub origins: Vec<[f32; 3]>,
    /// Nested `scale` directives; the last one is applied.
    pub scales: Vec<[f32; 3]>,
    /// Euler angles in degrees.
    pub rotation: [f32; 3],
    /// Group nesting depth.
    pub group_depth: u8,
}

impl TransformContext {
    /// Minimum encoded size (both stacks empty).
    pub const MIN_SIZE: usize = 15;

    /// "Non-empty" per §4.1.
    pub fn is_empty(&self) -> bool {
        self.origins.is_empty()
            && self.scales.is_empty()
            && self.group_depth == 0
            && self.rotation.iter().all(|&r| r == 0.0)
    }

    /// Reads a transform context.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let n = usize::from(c.u8()?);
        let origins = read_vec3s(c, n)?;
        let n = usize::from(c.u8()?);
        let scales = read_vec3s(c, n)?;
        Ok(Self { origins, scales, rotation: c.vec3()?, group_depth: c.u8()? })
    }

    /// Writes it; stacks deeper than 255 fail like the baking tool.
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        for stack in [&self.origins, &self.scales] {
            let n = u8::try_from(stack.len())
                .map_err(|_| crate::Error::new(ErrorKind::TooLarge("transform stack deeper than 255")))?;
            w.u8(n);
            for v in stack.iter() {
                w.vec3(*v);
            }
        }
        w.vec3(self.rotation);
        w.u8(self.group_depth);
        Ok(())
    }

    /// Applies the context to a point the way the baking tool does: rotate about Y by
    /// `rotation.y` degrees, multiply by the last scale, add the last origin.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let (s, c) = f64::from(self.rotation[1]).to_radians().sin_cos();
        let mut q = [c * p[0] + s * p[2], p[1], -s * p[0] + c * p[2]];
        if let Some(sc) = self.scales.last() {
            for (qi, si) in q.iter_mut().zip(sc) {
                *qi *= f64::from(*si);
            }
        }
        if let Some(o) = self.origins.last() {
            for (qi, oi) in q.iter_mut().zip(o) {
                *qi += f64::from(*oi);
            }
        }
        q
    }
}

fn read_vec3s(c: &mut Cursor<'_>, n: usize) -> Result<Vec<[f32; 3]>> {
    let at = c.offset();
    let n = c.check_items(n as u64, 12, at)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(c.vec3()?);
    }
    Ok(v)
}

/// Slim node (§4). The raw flags byte is kept; absent fields hold their defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct SlimNode {
    /// Raw flags byte (bit 7 kept as read).
    pub flags: u8,
    /// Name.
    pub name: Sid,
    /// Squared minimum visibility range.
    pub range_sq_min: f32,
    /// Squared maximum visibility range (`+inf` when absent, standing for `DBL_MAX`).
    pub range_sq_max: f32,
    /// Bounding sphere centre.
    pub center: [f32; 3],
    /// Bounding sphere radius; negative = no bounds.
    pub radius: f32,
    /// Group handle (meaningful with flag bit 4).
    pub group: u32,
    /// Transform context (meaningful with flag bit 5).
    pub transform: TransformContext,
}

impl Default for SlimNode {
    fn default() -> Self {
        Self {
            flags: 0,
            name: Sid::EMPTY,
            range_sq_min: 0.0,
            range_sq_max: f32::INFINITY,
            center: [0.0; 3],
            radius: -1.0,
            group: 0,
            transform: TransformContext::default(),
        }
    }
}

impl SlimNode {
    /// Reads a node, fields in the order of §4.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let mut n = SlimNode { flags: c.u8()?, ..Self::default() };
        if n.flags & flags::NAME != 0 {
            n.name = Sid(c.u32()?);
        }
        if n.flags & flags::RANGE_MIN != 0 {
            n.range_sq_min = c.f32()?;
        }
        if n.flags & flags::RANGE_MAX != 0 {
            n.range_sq_max = c.f32()?;
        }
        if n.flags & flags::BOUNDS != 0 {
            n.center = c.vec3()?;
            n.radius = c.f32()?;
        }
        if n.flags & flags::GROUP != 0 {
            n.group = c.u32()?;
        }
        if n.flags & flags::TRANSFORM != 0 {
            n.transform = TransformContext::read(c)?;
        }
        Ok(n)
    }

    /// Writes exactly the fields the stored flags announce.
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        w.u8(self.flags);
        if self.flags & flags::NAME != 0 {
            w.u32(self.name.0);
        }
        if self.flags & flags::RANGE_MIN != 0 {
            w.f32(self.range_sq_min);
        }
        if self.flags & flags::RANGE_MAX != 0 {
            w.f32(self.range_sq_max);
        }
        if self.flags & flags::BOUNDS != 0 {
            w.vec3(self.center);
            w.f32(self.radius);
        }
        if self.flags & flags::GROUP != 0 {
            w.u32(self.group);
        }
        if self.flags & flags::TRANSFORM != 0 {
            self.transform.write(w)?;
        }
        Ok(())
    }

    /// The flags the canonical writer derives from the values (§4 emission rules);
    /// `has_group` says whether a group is assigned (not derivable from the value).
    pub fn canonical_flags(&self, has_group: bool, visible: bool) -> u8 {
        let mut f = 0;
        if !self.name.is_empty() {
            f |= flags::NAME;
        }
        if self.range_sq_min != 0.0 {
            f |= flags::RANGE_MIN;
        }
        if self.range_sq_max < f32::INFINITY {
            f |= flags::RANGE_MAX;
        }
        if self.radius >= 0.0 {
            f |= flags::BOUNDS;
        }
        if has_group {
            f |= flags::GROUP;
        }
        if !self.transform.is_empty() {
            f |= flags::TRANSFORM;
        }
        if !visible {
            f |= flags::HIDDEN;
        }
        f
    }

    /// Replaces the flags by the canonical ones, keeping group and visibility as stored.
    pub fn canonicalize(&mut self) {
        let has_group = self.flags & flags::GROUP != 0;
        self.flags = self.canonical_flags(has_group, self.is_visible());
    }

    /// Visibility (flag bit 6 clear).
    pub fn is_visible(&self) -> bool {
        self.flags & flags::HIDDEN == 0
    }
}

impl VisitSids for SlimNode {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        if self.flags & flags::NAME != 0 {
            f(&mut self.name);
        }
    }
}

/// Packed vertex (§5.1), stored as its raw encoded fields.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PackedVertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal as `snorm16`.
    pub normal: [i16; 3],
    /// Texture coordinates as `half16` bits.
    pub uv: [u16; 2],
}

impl PackedVertex {
    /// Encoded size.
    pub const SIZE: usize = 22;

    /// Encodes from floats with the canonical `snorm16` and `half16` rules.
    pub fn from_floats(position: [f32; 3], normal: [f32; 3], uv: [f32; 2]) -> Self {
        Self { position, normal: normal.map(prim::f32_to_snorm16), uv: uv.map(prim::f32_to_half_canonical) }
    }
    /// Decoded normal.
    pub fn normal_f32(&self) -> [f32; 3] {
        self.normal.map(prim::snorm16_to_f32)
    }
    /// Decoded texture coordinates.
    pub fn uv_f32(&self) -> [f32; 2] {
        self.uv.map(prim::half_to_f32)
    }
    /// Reads one vertex.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self { position: c.vec3()?, normal: [c.i16()?, c.i16()?, c.i16()?], uv: [c.u16()?, c.u16()?] })
    }
    /// Writes one vertex.
    pub fn write(&self, w: &mut Writer) {
        w.vec3(self.position);
        for n in self.normal {
            w.i16(n);
        }
        for t in self.uv {
            w.u16(t);
        }
    }
}

/// Reads `count`-prefixed packed vertices.
pub fn read_vertices(c: &mut Cursor<'_>) -> Result<Vec<PackedVertex>> {
    c.list(PackedVertex::SIZE, PackedVertex::read)
}

/// Writes `count`-prefixed packed vertices.
pub fn write_vertices(w: &mut Writer, v: &[PackedVertex]) -> Result<()> {
    w.list(v, |w, p| {
        p.write(w);
        Ok(())
    })
}

/// Lighting block (§5.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lighting {
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
}

impl Default for Lighting {
    fn default() -> Self {
        Self { diffuse: [0.8, 0.8, 0.8, 1.0], ambient: [0.2, 0.2, 0.2, 1.0], specular: [0.0, 0.0, 0.0, 1.0] }
    }
}

impl Lighting {
    /// Encoded size.
    pub const SIZE: usize = 48;

    fn components(&self) -> impl Iterator<Item = f32> + '_ {
        self.diffuse.iter().chain(&self.ambient).chain(&self.specular).copied()
    }
    /// All twelve components within `tol` of `other`'s.
    pub fn approx_eq(&self, other: &Lighting, tol: f32) -> bool {
        self.components().zip(other.components()).all(|(a, b)| (a - b).abs() <= tol)
    }
    /// Within 1e-4 of the defaults (the canonical writer then omits the block).
    pub fn is_default(&self) -> bool {
        self.approx_eq(&Lighting::default(), 1e-4)
    }
    /// Reads the block.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let mut q = [[0f32; 4]; 3];
        for row in &mut q {
            for v in row.iter_mut() {
                *v = c.f32()?;
            }
        }
        Ok(Self { diffuse: q[0], ambient: q[1], specular: q[2] })
    }
    /// Writes the block.
    pub fn write(&self, w: &mut Writer) {
        for v in self.components() {
            w.f32(v);
        }
    }
}

/// Tagged lighting (`u8 has_lighting` + block if non-zero); the raw tag is kept.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TaggedLighting {
    /// Raw `has_lighting` byte.
    pub tag: u8,
    /// The block (defaults when `tag == 0`).
    pub block: Lighting,
}

impl TaggedLighting {
    /// Reads tag and optional block.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let tag = c.u8()?;
        let block = if tag != 0 { Lighting::read(c)? } else { Lighting::default() };
        Ok(Self { tag, block })
    }
    /// Writes tag and optional block.
    pub fn write(&self, w: &mut Writer) {
        w.u8(self.tag);
        if self.tag != 0 {
            self.block.write(w);
        }
    }
    /// The canonical tag for a block (§5.2).
    pub fn canonical(block: Lighting) -> Self {
        Self { tag: u8::from(!block.is_default()), block }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_node_vectors() {
        // §11: flags 0x09, name = string 0, centre (0,0,0), radius 1.
        let bytes = [9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3F];
        let mut c = Cursor::new(&bytes);
        let n = SlimNode::read(&mut c).ok();
        assert_eq!(c.remaining(), 0);
        let n = n.unwrap_or_default();
        assert_eq!((n.name, n.radius), (Sid(0), 1.0));
        assert_eq!(n.canonical_flags(false, true), 0x09);
        let hidden = SlimNode { flags: 0x40, ..SlimNode::default() };
        assert_eq!(hidden.canonical_flags(false, false), 0x40);
        assert_eq!(SlimNode::default().canonical_flags(false, true), 0x00);
    }

    #[test]
    fn transform_apply_order_rotate_scale_translate() {
        let t = TransformContext {
            origins: vec![[100.0, 0.0, 0.0], [10.0, 0.0, 0.0]],
            scales: vec![[2.0, 2.0, 2.0]],
            rotation: [0.0, 90.0, 0.0],
            group_depth: 0,
        };
        let p = t.apply([1.0, 0.0, 0.0]);
        // Rotated +90° about Y: (1,0,0) -> (0,0,-1); scaled ×2; last origin (10,0,0) added.
        assert!((p[0] - 10.0).abs() < 1e-9 && (p[2] + 2.0).abs() < 1e-9, "{p:?}");
    }
}
