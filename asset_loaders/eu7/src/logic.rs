//! Scenario logic records: `INCL` (§6.2), `MEMC` (§6.11), `LAUN` (§6.12), `DYNM` (§6.13),
//! `SOND` (§6.14), `TRSE` (§6.15), `EVNT` (§6.16).

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::Result;
use crate::node::{SlimNode, TransformContext, VisitSids};
use crate::prim::Sid;
use crate::record::{Record, sid, sid_pairs, sids, u32s, visit_pairs, write_sid_pairs, write_sids, write_u32s};

/// An `INCL` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Include {
    /// Line in the text source.
    pub source_line: u32,
    /// `.scm`/`.inc` path.
    pub source_path: Sid,
    /// `.eu7` path.
    pub binary_path: Sid,
    /// Parameters.
    pub params: Vec<Sid>,
    /// Site transform (version ≥ 6).
    pub site_transform: Option<TransformContext>,
}

impl VisitSids for Include {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        f(&mut self.source_path);
        f(&mut self.binary_path);
        self.params.iter_mut().for_each(f);
    }
}

impl Record for Include {
    const MIN_SIZE: usize = 16;
    fn read(c: &mut Cursor<'_>, version: u32) -> Result<Self> {
        Ok(Self {
            source_line: c.u32()?,
            source_path: sid(c)?,
            binary_path: sid(c)?,
            params: sids(c)?,
            site_transform: if version >= 6 { Some(TransformContext::read(c)?) } else { None },
        })
    }
    fn write(&self, w: &mut Writer, version: u32) -> Result<()> {
        w.u32(self.source_line);
        w.u32(self.source_path.0);
        w.u32(self.binary_path.0);
        write_sids(w, &self.params)?;
        if version >= 6 {
            self.site_transform.clone().unwrap_or_default().write(w)?;
        }
        Ok(())
    }
}

/// A `MEMC` record. Memory cells have no position of their own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemCell {
    /// Slim node.
    pub node: SlimNode,
    /// Text value.
    pub text: Sid,
    /// First number.
    pub value1: f32,
    /// Second number.
    pub value2: f32,
    /// Track name, empty = none.
    pub track_name: Sid,
}

impl VisitSids for MemCell {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.text);
        f(&mut self.track_name);
    }
}

impl Record for MemCell {
    const MIN_SIZE: usize = 1 + 16;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self { node: SlimNode::read(c)?, text: sid(c)?, value1: c.f32()?, value2: c.f32()?, track_name: sid(c)? })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.u32(self.text.0);
        w.f32(self.value1);
        w.f32(self.value2);
        w.u32(self.track_name.0);
        Ok(())
    }
}

/// Condition part of a launcher.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LaunchCondition {
    /// Memory cell.
    pub memcell_name: Sid,
    /// Text to compare.
    pub compare_text: Sid,
    /// First value.
    pub compare_value1: f32,
    /// Second value.
    pub compare_value2: f32,
    /// Check mask.
    pub check_mask: i32,
}

/// A `LAUN` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Launcher {
    /// Slim node.
    pub node: SlimNode,
    /// Location.
    pub location: [f32; 3],
    /// Squared radius (m²).
    pub radius_sq: f32,
    /// Activation key text.
    pub activation_key_raw: Sid,
    /// Activation key code.
    pub activation_key: i32,
    /// Delta time (s, −1 = no limit).
    pub delta_time: f32,
    /// First event.
    pub event1_name: Sid,
    /// Second event.
    pub event2_name: Sid,
    /// Hour (−1 = none).
    pub launch_hour: i32,
    /// Minute.
    pub launch_minute: i32,
    /// Raw `has_condition` byte.
    pub has_condition: u8,
    /// Condition (stored when `has_condition != 0`).
    pub condition: LaunchCondition,
    /// Raw `train_triggered` byte.
    pub train_triggered: u8,
}

impl VisitSids for Launcher {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.activation_key_raw);
        f(&mut self.event1_name);
        f(&mut self.event2_name);
        if self.has_condition != 0 {
            f(&mut self.condition.memcell_name);
            f(&mut self.condition.compare_text);
        }
    }
}

impl Record for Launcher {
    const MIN_SIZE: usize = 1 + 12 + 4 + 4 + 4 + 4 + 8 + 8 + 1 + 1;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        let mut l = Self {
            node: SlimNode::read(c)?,
            location: c.vec3()?,
            radius_sq: c.f32()?,
            activation_key_raw: sid(c)?,
            activation_key: c.i32()?,
            delta_time: c.f32()?,
            event1_name: sid(c)?,
            event2_name: sid(c)?,
            launch_hour: c.i32()?,
            launch_minute: c.i32()?,
            has_condition: c.u8()?,
            ..Self::default()
        };
        if l.has_condition != 0 {
            l.condition = LaunchCondition {
                memcell_name: sid(c)?,
                compare_text: sid(c)?,
                compare_value1: c.f32()?,
                compare_value2: c.f32()?,
                check_mask: c.i32()?,
            };
        }
        l.train_triggered = c.u8()?;
        Ok(l)
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.vec3(self.location);
        w.f32(self.radius_sq);
        w.u32(self.activation_key_raw.0);
        w.i32(self.activation_key);
        w.f32(self.delta_time);
        w.u32(self.event1_name.0);
        w.u32(self.event2_name.0);
        w.i32(self.launch_hour);
        w.i32(self.launch_minute);
        w.u8(self.has_condition);
        if self.has_condition != 0 {
            let k = &self.condition;
            w.u32(k.memcell_name.0);
            w.u32(k.compare_text.0);
            w.f32(k.compare_value1);
            w.f32(k.compare_value2);
            w.i32(k.check_mask);
        }
        w.u8(self.train_triggered);
        Ok(())
    }
}

/// A `DYNM` record (vehicle).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dynamic {
    /// Slim node.
    pub node: SlimNode,
    /// data_folder, skin_file, mmd_file, track_name, driver_type, load_type,
    /// coupling_params, coupling_raw — in this order.
    pub strings: [Sid; 8],
    /// Offset from the track start (m, −1 = automatic).
    pub offset: f32,
    /// Coupling 0..3.
    pub coupling: i32,
    /// Load count.
    pub load_count: i32,
    /// Velocity (km/h).
    pub velocity: f32,
    /// Raw `has_destination`.
    pub has_destination: u8,
    /// Destination.
    pub destination: Sid,
    /// Raw `has_trainset_index`.
    pub has_trainset_index: u8,
    /// Trainset index.
    pub trainset_index: u32,
}

impl VisitSids for Dynamic {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        self.strings.iter_mut().for_each(&mut *f);
        if self.has_destination != 0 {
            f(&mut self.destination);
        }
    }
}

impl Record for Dynamic {
    const MIN_SIZE: usize = 1 + 32 + 16 + 2;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        let node = SlimNode::read(c)?;
        let mut strings = [Sid::EMPTY; 8];
        for s in &mut strings {
            *s = sid(c)?;
        }
        let mut d = Self {
            node,
            strings,
            offset: c.f32()?,
            coupling: c.i32()?,
            load_count: c.i32()?,
            velocity: c.f32()?,
            ..Self::default()
        };
        d.has_destination = c.u8()?;
        d.destination = if d.has_destination != 0 { sid(c)? } else { Sid::EMPTY };
        d.has_trainset_index = c.u8()?;
        if d.has_trainset_index != 0 {
            d.trainset_index = c.u32()?;
        }
        Ok(d)
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        for s in self.strings {
            w.u32(s.0);
        }
        w.f32(self.offset);
        w.i32(self.coupling);
        w.i32(self.load_count);
        w.f32(self.velocity);
        w.u8(self.has_destination);
        if self.has_destination != 0 {
            w.u32(self.destination.0);
        }
        w.u8(self.has_trainset_index);
        if self.has_trainset_index != 0 {
            w.u32(self.trainset_index);
        }
        Ok(())
    }
}

/// A `SOND` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sound {
    /// Slim node.
    pub node: SlimNode,
    /// Location.
    pub location: [f32; 3],
    /// Sound file.
    pub wav_file: Sid,
}

impl VisitSids for Sound {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        self.node.visit_sids(f);
        f(&mut self.wav_file);
    }
}

impl Record for Sound {
    const MIN_SIZE: usize = 1 + 12 + 4;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self { node: SlimNode::read(c)?, location: c.vec3()?, wav_file: sid(c)? })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        self.node.write(w)?;
        w.vec3(self.location);
        w.u32(self.wav_file.0);
        Ok(())
    }
}

/// A `TRSE` record. Assignments are kept as an ordered list (duplicates kept).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trainset {
    /// Name.
    pub name: Sid,
    /// Track.
    pub track: Sid,
    /// Offset (m).
    pub offset: f32,
    /// Velocity (km/h).
    pub velocity: f32,
    /// Key/value assignments.
    pub assignments: Vec<(Sid, Sid)>,
    /// Indices into this module's DYNM records.
    pub vehicle_indices: Vec<u32>,
    /// Couplings.
    pub couplings: Vec<i32>,
    /// Driving vehicle index.
    pub driver_index: u32,
}

impl VisitSids for Trainset {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        f(&mut self.name);
        f(&mut self.track);
        visit_pairs(&mut self.assignments, f);
    }
}

impl Record for Trainset {
    const MIN_SIZE: usize = 32;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self {
            name: sid(c)?,
            track: sid(c)?,
            offset: c.f32()?,
            velocity: c.f32()?,
            assignments: sid_pairs(c)?,
            vehicle_indices: u32s(c)?,
            couplings: c.list(4, |c| Ok(c.i32()?))?,
            driver_index: c.u32()?,
        })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        w.u32(self.name.0);
        w.u32(self.track.0);
        w.f32(self.offset);
        w.f32(self.velocity);
        write_sid_pairs(w, &self.assignments)?;
        write_u32s(w, &self.vehicle_indices)?;
        w.list(&self.couplings, |w, v| {
            w.i32(*v);
            Ok(())
        })?;
        w.u32(self.driver_index);
        Ok(())
    }
}

/// Event type names by code (§6.16).
pub const EVENT_TYPES: [&str; 19] = [
    "AddValues",
    "UpdateValues",
    "CopyValues",
    "GetValues",
    "PutValues",
    "Whois",
    "LogValues",
    "Multiple",
    "Switch",
    "TrackVel",
    "Sound",
    "Texture",
    "Animation",
    "Lights",
    "Voltage",
    "Visible",
    "Friction",
    "Message",
    "Unknown",
];

/// An `EVNT` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    /// Name.
    pub name: Sid,
    /// Type code (see [`EVENT_TYPES`]).
    pub event_type: u8,
    /// Delay (s).
    pub delay: f32,
    /// Targets.
    pub targets: Vec<Sid>,
    /// Random delay (s).
    pub delay_random: f32,
    /// Departure delay (s).
    pub delay_departure: f32,
    /// Raw `ignored`.
    pub ignored: u8,
    /// Raw `passive`.
    pub passive: u8,
    /// Key/value payload.
    pub payload: Vec<(Sid, Sid)>,
}

impl VisitSids for Event {
    fn visit_sids(&mut self, f: &mut dyn FnMut(&mut Sid)) {
        f(&mut self.name);
        self.targets.iter_mut().for_each(&mut *f);
        visit_pairs(&mut self.payload, f);
    }
}

impl Record for Event {
    const MIN_SIZE: usize = 4 + 1 + 4 + 4 + 8 + 2 + 4;
    fn read(c: &mut Cursor<'_>, _version: u32) -> Result<Self> {
        Ok(Self {
            name: sid(c)?,
            event_type: c.u8()?,
            delay: c.f32()?,
            targets: sids(c)?,
            delay_random: c.f32()?,
            delay_departure: c.f32()?,
            ignored: c.u8()?,
            passive: c.u8()?,
            payload: sid_pairs(c)?,
        })
    }
    fn write(&self, w: &mut Writer, _version: u32) -> Result<()> {
        w.u32(self.name.0);
        w.u8(self.event_type);
        w.f32(self.delay);
        write_sids(w, &self.targets)?;
        w.f32(self.delay_random);
        w.f32(self.delay_departure);
        w.u8(self.ignored);
        w.u8(self.passive);
        write_sid_pairs(w, &self.payload)
    }
}
