//! CTPT control points (`.cpt`, `docs/reference/registry.md` §5.1) — *confirmed layout*:
//! `u32 count`, `count` 36-byte records, then `count` parallel 32-byte names.
//! File size must equal `4 + count × 68`; all six floats must be finite.

use super::{check_finite, count_u32, put_vec3, put_word, vec3, word};
use crate::bytes::{Cursor, display_name, fixed_field, fixed_str};
use crate::error::{Error, Result};

/// Record size.
pub const RECORD_SIZE: usize = 36;
/// Name field size.
pub const NAME_SIZE: usize = 32;

/// One control point: the raw 36-byte record and its raw 32-byte name field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControlPoint {
    /// The record bytes.
    pub raw: [u8; RECORD_SIZE],
    /// The name field, bytes after the NUL kept.
    pub name_raw: [u8; NAME_SIZE],
}

impl ControlPoint {
    /// A new point (authoring). `flags_raw` is opaque: use 0 unless copying.
    pub fn new(
        name: &str,
        flags_raw: u32,
        owner_piece: i32,
        target_piece: i32,
        position: [f32; 3],
        direction: [f32; 3],
    ) -> Result<Self> {
        check_finite(
            &[position[0], position[1], position[2], direction[0], direction[1], direction[2]],
            0,
            "control point",
        )?;
        let mut raw = [0u8; RECORD_SIZE];
        put_word(&mut raw, 0, flags_raw);
        put_word(&mut raw, 4, owner_piece as u32);
        put_word(&mut raw, 8, target_piece as u32);
        put_vec3(&mut raw, 0x0C, position);
        put_vec3(&mut raw, 0x18, direction);
        Ok(Self { raw, name_raw: fixed_field::<NAME_SIZE>(name.as_bytes())? })
    }

    /// `+0x00` flags — *opaque* (usually 0, also `0x80000000`).
    pub fn flags_raw(&self) -> u32 {
        word(&self.raw, 0)
    }

    /// `+0x04` owner piece — *inferred* (handed to the model-node selection callback).
    pub fn owner_piece(&self) -> i32 {
        word(&self.raw, 4) as i32
    }

    /// `+0x08` target piece — *opaque/inferred*.
    pub fn target_piece(&self) -> i32 {
        word(&self.raw, 8) as i32
    }

    /// `+0x0C` position — *inferred* (node-local frame assumed, unproven).
    pub fn position(&self) -> [f32; 3] {
        vec3(&self.raw, 0x0C)
    }

    /// `+0x18` direction — *inferred*.
    pub fn direction(&self) -> [f32; 3] {
        vec3(&self.raw, 0x18)
    }

    /// Logical name (bytes before the NUL).
    pub fn name(&self) -> &[u8] {
        fixed_str(&self.name_raw)
    }

    /// Name decoded for display.
    pub fn display_name(&self) -> String {
        display_name(&self.name_raw)
    }
}

/// A control-point file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ctpt {
    /// Points in file order.
    pub points: Vec<ControlPoint>,
}

impl Ctpt {
    /// Parses a `.cpt` payload.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let count = c.u32()?;
        let total = c.check_count(u64::from(count), (RECORD_SIZE + NAME_SIZE) as u64, "control points")?;
        if total != c.remaining() {
            return Err(Error::invalid(
                0,
                "ctpt_size",
                format!("{count} points need {} bytes, file has {}", 4 + total, data.len()),
            ));
        }
        let mut records = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let at = c.offset();
            let raw: [u8; RECORD_SIZE] = c.array()?;
            let v = vec3(&raw, 0x0C);
            let d = vec3(&raw, 0x18);
            check_finite(&[v[0], v[1], v[2], d[0], d[1], d[2]], at + 0x0C, &format!("control point {i}"))?;
            records.push(raw);
        }
        let mut points = Vec::with_capacity(records.len());
        for raw in records {
            points.push(ControlPoint { raw, name_raw: c.array()? });
        }
        c.expect_end("control point names")?;
        Ok(Self { points })
    }

    /// Serialises the file byte for byte.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(4 + self.points.len() * (RECORD_SIZE + NAME_SIZE));
        out.extend_from_slice(&count_u32(self.points.len(), "control points")?.to_le_bytes());
        for p in &self.points {
            out.extend_from_slice(&p.raw);
        }
        for p in &self.points {
            out.extend_from_slice(&p.name_raw);
        }
        Ok(out)
    }

    /// The first point whose name equals `name` (ASCII case-insensitive).
    pub fn find(&self, name: &str) -> Option<(usize, &ControlPoint)> {
        self.points.iter().enumerate().find(|(_, p)| crate::bytes::eq_ci(p.name(), name.as_bytes()))
    }
}
