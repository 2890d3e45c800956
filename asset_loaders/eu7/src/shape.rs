//! Geometry records: `TERR` terrain (§6.7), `MESH` triangle shapes (§6.8), `LINE` line shapes (§6.9).

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::Result;
use crate::node::{Lighting, PackedVertex, SlimNode, TaggedLighting, VisitSids, read_vertices, write_vertices};
use crate::prim::Sid;
use crate::record::{Record, sid};

/// `TERR` flag bits.
pub mod terr_flags {
    /// Translucent material.
    pub const TRANSLUCENT: u8 = 1;
    /// A lighting block follows the material.
    pub const LIGHTING: u8 = 2;
    /// Batched layout.
    pub const BATCHED: u8 = 4;
}

/// One terrain batch (a triangle list of one section).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TerrainBatch {
    /// Section column (ignored by readers).
    pub section_x: i32,
    /// Section row (ignored by readers).
    pub section_z: i32,
    /// Triangle list; length is a multiple of 3.
    pub vertices: Vec<PackedVertex>,
}

/// Terrain geometry body.
#[derive(Debug, Clone, PartialEq)]
pub enum TerrainBody {
    /// Batched layout (flag bit 2).
    Batched(Vec<TerrainBatch>),
    /// Legacy triangle list.
    Legacy(Vec<PackedVertex>),
}

/// One `TERR` chunk: one material's terrain triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct Terrain {
    /// Raw flags byte.
    pub flags: u8,
    /// Material.
    pub material: Sid,
    /// Lighting (stored when flag bit 1 is set).
    pub lighting: Lighting,
    /// Geometry.
    pub body: TerrainBody,
}

fn read_triangle_list(c: &mut Cursor<'_>, count: usize) -> Result<Vec<PackedVertex>> {
    let mut v = Vec::with_capacity(count);
    for _ in 0..count {
        v.push(PackedVertex::read(c)?);
    }
    Ok(v)
}

impl Terrain {
    /// Reads a whole `TERR` payload (there is no count before the flags).
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let flags = c.u8()?;
        let material = sid(c)?;
        let lighting = if flags & terr_flags::LIGHTING != 0 { Lighting::read(c)? } else { Lighting::default() };
        let body = if flags & terr_flags::BATCHED != 0 {
            TerrainBody::Batched(c.list(12, |c| {
                let section_x = c.i32()?;
                let section_z = c.i32()?;
                let at = c.offset();
                let n = c.u32()?;
                if n % 3 != 0 {
                    return Err(crate::Error::invalid(
                        at,
                        "triangle_list",
                        format!("terrain vertex_count {n} is not a multiple of 3"),
                    ));
                }
                let n = c.check_items(u64::from(n), PackedVertex::SIZE, at)?;
                Ok(TerrainBatch { section_x, section_z, vertices: read_triangle_list(c, n)? })
            })?)
        } else {
            let at = c.offset();
            let tris = c.u32()?;
            let n = c.check_items(u64::from(tris) * 3, PackedVertex::SIZE, at)?;
            TerrainBody::Legacy(read_triangle_list(c, n)?)
        };
        Ok(Self { flags, material, lighting, body })
    }

    /// Writes the payload.
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        w.u8(self.flags);
        w.u32(self.material.0);
        if self.flags & terr_flags::LIGHTING != 0 {
            self.lighting.write(w);
        }
        match &self.body {
            TerrainBody::Batched(batches) => w.list(batches, |w, b| {
                w.i32(b.section_x);
                w.i32(b.section_z);
                if b.vertices.len() % 3 != 0 {
                    return Err(crate::Error::rule("triangle_list", "terrain batch not a triangle list"));
                }
                write_vertices(w, &b.vertices)
            }),
            TerrainBody::Legacy(v) => {
                if v.len() % 3 != 0 {
                    return Err(crate::Error::rule("triangle_list", "terrain legacy list not a triangle list"));
                }
                w.count(v.len() / 3)?;
                for p in v {
                    p.write(w);
                }
                Ok(())
            }
        }
    }

    /// Triangle count.
    pub fn triangle_count(&self) -> usize {
        match &self.body {
            TerrainBody::Batched(b) => b.iter().map(|b| b.vertices.len() / 3).sum(),
            TerrainBody::Legacy(v) => v.len() / 3,
        }
    }
}

impl VisitSids for Terrain {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        f(&mut self.material);
    }
}

/// A `MESH` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shape {
    /// 0 triangles, 1 strip, 2 fan.
    pub subtype: u8,
    /// Slim node.
    pub node: SlimNode,
    /// Raw translucent byte.
    pub translucent: u8,
    /// Material path.
    pub material: Sid,
    /// Tagged lighting.
    pub lighting: TaggedLighting,
    /// Local reference point.
    pub origin: [f32; 3],
    /// Vertices.
    pub vertices: Vec<PackedVertex>,
}

impl VisitSids for Shape {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.material);
    }
}

impl Record for Shape {
    const MIN_SIZE: usize = 1 + 1 + 1 + 4 + 1 + 12 + 4;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self {
            subtype: c.u8()?,
            node: SlimNode::read(c)?,
            translucent: c.u8()?,
            material: sid(c)?,
            lighting: TaggedLighting::read(c)?,
            origin: c.vec3()?,
            vertices: read_vertices(c)?,
        })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        w.u8(self.subtype);
        self.node.write(w)?;
        w.u8(self.translucent);
        w.u32(self.material.0);
        self.lighting.write(w);
        w.vec3(self.origin);
        write_vertices(w, &self.vertices)
    }
}

/// A `LINE` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineShape {
    /// 0 lines, 1 strip, 2 loop.
    pub subtype: u8,
    /// Slim node.
    pub node: SlimNode,
    /// Tagged lighting.
    pub lighting: TaggedLighting,
    /// Line width.
    pub line_width: f32,
    /// Local reference point.
    pub origin: [f32; 3],
    /// Positions.
    pub positions: Vec<[f32; 3]>,
}

impl VisitSids for LineShape {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
    }
}

impl Record for LineShape {
    const MIN_SIZE: usize = 1 + 1 + 1 + 4 + 12 + 4;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self {
            subtype: c.u8()?,
            node: SlimNode::read(c)?,
            lighting: TaggedLighting::read(c)?,
            line_width: c.f32()?,
            origin: c.vec3()?,
            positions: c.list(12, |c| Ok(c.vec3()?))?,
        })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        w.u8(self.subtype);
        self.node.write(w)?;
        self.lighting.write(w);
        w.f32(self.line_width);
        w.vec3(self.origin);
        w.list(&self.positions, |w, p| {
            w.vec3(*p);
            Ok(())
        })
    }
}
