//! Model records: `MODL` model record (§6.10, also the PACK solo record), PACK instance
//! records (§7.3), `PROT` prototypes (§8.2) and `PIDX` entries (§7.1).

use crate::cursor::{Cursor, Writer};
use crate::error::Result;
use crate::node::{SlimNode, TransformContext, VisitSids, flags};
use crate::prim::Sid;
use crate::record::{Record, f32s, sid, u32s, write_f32s, write_u32s};

/// A model instance (`MODL` record and PACK solo record of formats 0–5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelRecord {
    /// Slim node.
    pub node: SlimNode,
    /// Raw `is_terrain` byte.
    pub is_terrain: u8,
    /// Raw `transition` byte.
    pub transition: u8,
    /// World location.
    pub location: [f32; 3],
    /// Euler angles (degrees).
    pub angles: [f32; 3],
    /// Scale.
    pub scale: [f32; 3],
    /// `.e3d` path (or `notload`).
    pub model_file: Sid,
    /// Replacement skin.
    pub texture_file: Sid,
    /// Light states.
    pub light_states: Vec<f32>,
    /// Packed RGBA light colours.
    pub light_colors: Vec<u32>,
}

impl VisitSids for ModelRecord {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.model_file);
        f(&mut self.texture_file);
    }
}

impl Record for ModelRecord {
    const MIN_SIZE: usize = 1 + 2 + 36 + 8 + 8;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self {
            node: SlimNode::read(c)?,
            is_terrain: c.u8()?,
            transition: c.u8()?,
            location: c.vec3()?,
            angles: c.vec3()?,
            scale: c.vec3()?,
            model_file: sid(c)?,
            texture_file: sid(c)?,
            light_states: f32s(c)?,
            light_colors: u32s(c)?,
        })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.u8(self.is_terrain);
        w.u8(self.transition);
        w.vec3(self.location);
        w.vec3(self.angles);
        w.vec3(self.scale);
        w.u32(self.model_file.0);
        w.u32(self.texture_file.0);
        write_f32s(w, &self.light_states)?;
        write_u32s(w, &self.light_colors)
    }
}

/// A PACK instance record (44 bytes; 45 with `cell_id` in format 6).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct InstRecord {
    /// Index into PROT.
    pub proto_id: u32,
    /// Location.
    pub location: [f32; 3],
    /// Euler angles (degrees).
    pub angles: [f32; 3],
    /// Scale.
    pub scale: [f32; 3],
    /// Instance name.
    pub name: Sid,
    /// Cell id (format 6, or the 45-byte format-5 variant).
    pub cell_id: Option<u8>,
}

impl InstRecord {
    /// Size without the cell byte.
    pub const SIZE: usize = 44;

    /// Reads one record, with a trailing `cell_id` byte if `with_cell`.
    pub fn read(c: &mut Cursor<'_>, with_cell: bool) -> Result<Self> {
        Ok(Self {
            proto_id: c.u32()?,
            location: c.vec3()?,
            angles: c.vec3()?,
            scale: c.vec3()?,
            name: sid(c)?,
            cell_id: if with_cell { Some(c.u8()?) } else { None },
        })
    }
    /// Writes one record (the cell byte if present).
    pub fn write(&self, w: &mut Writer) {
        w.u32(self.proto_id);
        w.vec3(self.location);
        w.vec3(self.angles);
        w.vec3(self.scale);
        w.u32(self.name.0);
        if let Some(cell) = self.cell_id {
            w.u8(cell);
        }
    }
}

/// The `PROT` v9 record tail (§8.2).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProtTail {
    /// Texture resolved on the baking machine, empty if not resolvable.
    pub resolved_texture: Sid,
    /// Bit 0 needs full load, bit 1 instanceable.
    pub pack_flags: u8,
    /// Reserved (kept as read).
    pub reserved: u32,
    /// `sqrt(max(0, range_sq_min))`.
    pub baked_range_min: f32,
    /// `sqrt(range_sq_max)` or −1.
    pub baked_range_max: f32,
}

/// A `PROT` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prototype {
    /// Slim node (name/ranges/bounds of the first occurrence).
    pub node: SlimNode,
    /// Raw `is_terrain`.
    pub is_terrain: u8,
    /// Raw `transition`.
    pub transition: u8,
    /// Model file.
    pub model_file: Sid,
    /// Texture file.
    pub texture_file: Sid,
    /// Light states.
    pub light_states: Vec<f32>,
    /// Light colours.
    pub light_colors: Vec<u32>,
    /// Version-9 tail (present iff the file version is ≥ 9).
    pub tail: Option<ProtTail>,
}

impl VisitSids for Prototype {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.model_file);
        f(&mut self.texture_file);
        if let Some(t) = &mut self.tail {
            f(&mut t.resolved_texture);
        }
    }
}

impl Record for Prototype {
    const MIN_SIZE: usize = 1 + 2 + 8 + 8;
    fn read(c: &mut Cursor<'_>, version: u32) -> Result<Self> {
        let mut p = Self {
            node: SlimNode::read(c)?,
            is_terrain: c.u8()?,
            transition: c.u8()?,
            model_file: sid(c)?,
            texture_file: sid(c)?,
            light_states: f32s(c)?,
            light_colors: u32s(c)?,
            tail: None,
        };
        if version >= 9 {
            p.tail = Some(ProtTail {
                resolved_texture: sid(c)?,
                pack_flags: c.u8()?,
                reserved: c.u32()?,
                baked_range_min: c.f32()?,
                baked_range_max: c.f32()?,
            });
        }
        Ok(p)
    }
    fn write(&self, w: &mut Writer, version: u32) -> Result<()> {
        self.node.write(w)?;
        w.u8(self.is_terrain);
        w.u8(self.transition);
        w.u32(self.model_file.0);
        w.u32(self.texture_file.0);
        write_f32s(w, &self.light_states)?;
        write_u32s(w, &self.light_colors)?;
        if version >= 9 {
            let t = self.tail.unwrap_or_default();
            w.u32(t.resolved_texture.0);
            w.u8(t.pack_flags);
            w.u32(t.reserved);
            w.f32(t.baked_range_min);
            w.f32(t.baked_range_max);
        }
        Ok(())
    }
}

impl Prototype {
    /// Canonical `pack_flags` (§8.2).
    pub fn canonical_pack_flags(&self) -> u8 {
        if !self.light_states.is_empty() || !self.light_colors.is_empty() || self.transition == 0 {
            1
        } else if self.is_terrain == 0 {
            2
        } else {
            0
        }
    }

    /// Expands an instance against this prototype (§8.3): prototype node with the instance
    /// name and a cleared transform; location/angles/scale from the instance.
    pub fn expand(&self, inst: &InstRecord) -> ModelRecord {
        let mut node = self.node.clone();
        node.name = inst.name;
        node.flags &= !(flags::NAME | flags::TRANSFORM);
        if !inst.name.is_empty() {
            node.flags |= flags::NAME;
        }
        node.transform = TransformContext::default();
        ModelRecord {
            node,
            is_terrain: self.is_terrain,
            transition: self.transition,
            location: inst.location,
            angles: inst.angles,
            scale: inst.scale,
            model_file: self.model_file,
            texture_file: self.texture_file,
            light_states: self.light_states.clone(),
            light_colors: self.light_colors.clone(),
        }
    }
}

/// A `PIDX` entry (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PidxEntry {
    /// Section index along Z.
    pub row: u16,
    /// Section index along X.
    pub column: u16,
    /// Models in the section (solo + instances).
    pub model_count: u32,
    /// Offset of the section from the PACK payload start.
    pub pack_offset: u64,
}

impl VisitSids for PidxEntry {
    fn visit_sids(&mut self, _f: &mut dyn FnMut(&mut Sid)) {}
}

impl Record for PidxEntry {
    const MIN_SIZE: usize = 16;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self { row: c.u16()?, column: c.u16()?, model_count: c.u32()?, pack_offset: c.u64()? })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        w.u16(self.row);
        w.u16(self.column);
        w.u32(self.model_count);
        w.u64(self.pack_offset);
        Ok(())
    }
}
