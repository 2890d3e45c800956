//! Rail network records: `TRAK` tracks (§6.4), `TRAC` traction wires (§6.5), `PWRS` power sources (§6.6).

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::Result;
use crate::node::{SlimNode, VisitSids};
use crate::prim::Sid;
use crate::record::{Record, sid};

/// One Bézier segment of a track path (60 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SegmentPath {
    /// Start point.
    pub p_start: [f32; 3],
    /// Roll at the start (degrees).
    pub roll_start: f32,
    /// Outgoing control point.
    pub cp_out: [f32; 3],
    /// Incoming control point.
    pub cp_in: [f32; 3],
    /// End point.
    pub p_end: [f32; 3],
    /// Roll at the end (degrees).
    pub roll_end: f32,
    /// Radius in m, 0 = straight.
    pub radius: f32,
}

impl SegmentPath {
    /// Encoded size.
    pub const SIZE: usize = 60;

    /// Point on the cubic Bézier at `t` in 0..=1.
    pub fn point(&self, t: f32) -> [f32; 3] {
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        std::array::from_fn(|i| a * self.p_start[i] + b * self.cp_out[i] + c * self.cp_in[i] + d * self.p_end[i])
    }
    fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            p_start: c.vec3()?,
            roll_start: c.f32()?,
            cp_out: c.vec3()?,
            cp_in: c.vec3()?,
            p_end: c.vec3()?,
            roll_end: c.f32()?,
            radius: c.f32()?,
        })
    }
    fn write(&self, w: &mut Writer) {
        w.vec3(self.p_start);
        w.f32(self.roll_start);
        w.vec3(self.cp_out);
        w.vec3(self.cp_in);
        w.vec3(self.p_end);
        w.f32(self.roll_end);
        w.f32(self.radius);
    }
}

/// One track tail entry: a predefined keyword code 1..18 or 255 with a custom key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TailEntry {
    /// Raw code (undefined codes kept as read).
    pub code: u8,
    /// Custom key (only stored when `code == 255`).
    pub key: Sid,
    /// Value.
    pub value: Sid,
}

/// The keyword of a predefined tail code (§6.4), `None` for 255 and undefined codes.
pub fn tail_keyword(code: u8) -> Option<&'static str> {
    const K: [&str; 18] = [
        "event0",
        "eventall0",
        "event1",
        "eventall1",
        "event2",
        "eventall2",
        "velocity",
        "isolated",
        "overhead",
        "vradius",
        "railprofile",
        "trackbed",
        "friction",
        "fouling1",
        "fouling2",
        "sleepermodel",
        "angle1",
        "angle2",
    ];
    K.get(usize::from(code).checked_sub(1)?).copied()
}

/// Visibility (texturing) part of a track.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TrackVisibility {
    /// Rail material.
    pub material1: Sid,
    /// Texture length.
    pub tex_length: f32,
    /// Ballast material.
    pub material2: Sid,
    /// Texture height.
    pub tex_height1: f32,
    /// Texture width.
    pub tex_width: f32,
    /// Texture slope.
    pub tex_slope: f32,
}

/// A `TRAK` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Track {
    /// Slim node.
    pub node: SlimNode,
    /// 0 Unknown, 1 Normal, 2 Switch, 3 Table, 4 Cross, 5 Tributary.
    pub track_type: u8,
    /// 1 Rail, 2 Road, 4 Water.
    pub category: u8,
    /// Length (m).
    pub length: f32,
    /// Track width (m).
    pub track_width: f32,
    /// Friction.
    pub friction: f32,
    /// Sound distance.
    pub sound_distance: f32,
    /// Quality flag.
    pub quality_flag: i32,
    /// Damage flag.
    pub damage_flag: i32,
    /// Stored environment (enum + 1).
    pub environment: u8,
    /// Raw `has_visibility` byte.
    pub has_visibility: u8,
    /// Visibility fields (meaningful when `has_visibility != 0`).
    pub visibility: TrackVisibility,
    /// Bézier segments.
    pub paths: Vec<SegmentPath>,
    /// Tail entries.
    pub tail: Vec<TailEntry>,
}

impl VisitSids for Track {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        if self.has_visibility != 0 {
            f(&mut self.visibility.material1);
            f(&mut self.visibility.material2);
        }
        for t in &mut self.tail {
            if t.code == 255 {
                f(&mut t.key);
            }
            f(&mut t.value);
        }
    }
}

impl Record for Track {
    const MIN_SIZE: usize = 1 + 2 + 16 + 8 + 2 + 8;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        let mut t = Track {
            node: SlimNode::read(c)?,
            track_type: c.u8()?,
            category: c.u8()?,
            length: c.f32()?,
            track_width: c.f32()?,
            friction: c.f32()?,
            sound_distance: c.f32()?,
            quality_flag: c.i32()?,
            damage_flag: c.i32()?,
            environment: c.u8()?,
            has_visibility: c.u8()?,
            ..Track::default()
        };
        if t.has_visibility != 0 {
            t.visibility = TrackVisibility {
                material1: sid(c)?,
                tex_length: c.f32()?,
                material2: sid(c)?,
                tex_height1: c.f32()?,
                tex_width: c.f32()?,
                tex_slope: c.f32()?,
            };
        }
        t.paths = c.list(SegmentPath::SIZE, SegmentPath::read)?;
        t.tail = c.list(5, |c| {
            let code = c.u8()?;
            let key = if code == 255 { sid(c)? } else { Sid::EMPTY };
            Ok(TailEntry { code, key, value: sid(c)? })
        })?;
        Ok(t)
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.u8(self.track_type);
        w.u8(self.category);
        for v in [self.length, self.track_width, self.friction, self.sound_distance] {
            w.f32(v);
        }
        w.i32(self.quality_flag);
        w.i32(self.damage_flag);
        w.u8(self.environment);
        w.u8(self.has_visibility);
        if self.has_visibility != 0 {
            let v = &self.visibility;
            w.u32(v.material1.0);
            w.f32(v.tex_length);
            w.u32(v.material2.0);
            w.f32(v.tex_height1);
            w.f32(v.tex_width);
            w.f32(v.tex_slope);
        }
        w.list(&self.paths, |w, p| {
            p.write(w);
            Ok(())
        })?;
        w.list(&self.tail, |w, t| {
            w.u8(t.code);
            if t.code == 255 {
                w.u32(t.key.0);
            }
            w.u32(t.value.0);
            Ok(())
        })
    }
}

/// A `TRAC` record (traction wire).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Traction {
    /// Slim node.
    pub node: SlimNode,
    /// Power supply name.
    pub power_supply_name: Sid,
    /// 0 None, 1 Copper, 2 Aluminium.
    pub material: u8,
    /// Nominal voltage (V).
    pub nominal_voltage: f32,
    /// Max current (A).
    pub max_current: f32,
    /// Resistivity (Ω/m).
    pub resistivity_ohm_per_m: f32,
    /// Legacy resistivity.
    pub resistivity_legacy: f32,
    /// Original material text.
    pub material_raw: Sid,
    /// Wire thickness (m).
    pub wire_thickness: f32,
    /// Damage flag.
    pub damage_flag: i32,
    /// Wire points p1..p4.
    pub wires: [[f32; 3]; 4],
    /// Minimum height (m).
    pub min_height: f32,
    /// Segment length (m).
    pub segment_length: f32,
    /// Wire count.
    pub wire_count: i32,
    /// Wire offset.
    pub wire_offset: f32,
    /// Raw `has_parallel` byte.
    pub has_parallel: u8,
    /// Parallel wire name (stored when `has_parallel != 0`).
    pub parallel_name: Sid,
}

impl VisitSids for Traction {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.power_supply_name);
        f(&mut self.material_raw);
        if self.has_parallel != 0 {
            f(&mut self.parallel_name);
        }
    }
}

impl Record for Traction {
    const MIN_SIZE: usize = 1 + 4 + 1 + 16 + 4 + 4 + 4 + 48 + 16 + 1;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        let mut t = Traction {
            node: SlimNode::read(c)?,
            power_supply_name: sid(c)?,
            material: c.u8()?,
            nominal_voltage: c.f32()?,
            max_current: c.f32()?,
            resistivity_ohm_per_m: c.f32()?,
            resistivity_legacy: c.f32()?,
            material_raw: sid(c)?,
            wire_thickness: c.f32()?,
            damage_flag: c.i32()?,
            wires: [c.vec3()?, c.vec3()?, c.vec3()?, c.vec3()?],
            min_height: c.f32()?,
            segment_length: c.f32()?,
            wire_count: c.i32()?,
            wire_offset: c.f32()?,
            has_parallel: c.u8()?,
            parallel_name: Sid::EMPTY,
        };
        if t.has_parallel != 0 {
            t.parallel_name = sid(c)?;
        }
        Ok(t)
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.u32(self.power_supply_name.0);
        w.u8(self.material);
        for v in [self.nominal_voltage, self.max_current, self.resistivity_ohm_per_m, self.resistivity_legacy] {
            w.f32(v);
        }
        w.u32(self.material_raw.0);
        w.f32(self.wire_thickness);
        w.i32(self.damage_flag);
        for p in self.wires {
            w.vec3(p);
        }
        w.f32(self.min_height);
        w.f32(self.segment_length);
        w.i32(self.wire_count);
        w.f32(self.wire_offset);
        w.u8(self.has_parallel);
        if self.has_parallel != 0 {
            w.u32(self.parallel_name.0);
        }
        Ok(())
    }
}

/// A `PWRS` record (traction power source).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PowerSource {
    /// Slim node.
    pub node: SlimNode,
    /// Position.
    pub position: [f32; 3],
    /// Nominal voltage, voltage frequency, legacy internal resistance, internal resistance,
    /// max output current, fast fuse timeout, fast fuse repetition, slow fuse timeout.
    pub values: [f32; 8],
    /// 0 None, 1 Recuperation, 2 Section.
    pub modifier: u8,
}

impl VisitSids for PowerSource {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
    }
}

impl Record for PowerSource {
    const MIN_SIZE: usize = 1 + 12 + 32 + 1;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        let node = SlimNode::read(c)?;
        let position = c.vec3()?;
        let mut values = [0f32; 8];
        for v in &mut values {
            *v = c.f32()?;
        }
        Ok(Self { node, position, values, modifier: c.u8()? })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.vec3(self.position);
        for v in self.values {
            w.f32(v);
        }
        w.u8(self.modifier);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keywords() {
        assert_eq!(tail_keyword(1), Some("event0"));
        assert_eq!(tail_keyword(18), Some("angle2"));
        assert_eq!(tail_keyword(0), None);
        assert_eq!(tail_keyword(19), None);
        assert_eq!(tail_keyword(255), None);
    }

    #[test]
    fn bezier_endpoints() {
        let s = SegmentPath {
            p_start: [0.0; 3],
            cp_out: [1.0, 0.0, 0.0],
            cp_in: [2.0, 0.0, 0.0],
            p_end: [3.0, 0.0, 0.0],
            ..Default::default()
        };
        assert_eq!(s.point(0.0), [0.0; 3]);
        assert_eq!(s.point(1.0), [3.0, 0.0, 0.0]);
        assert!((s.point(0.5)[0] - 1.5).abs() < 1e-6);
    }
}
