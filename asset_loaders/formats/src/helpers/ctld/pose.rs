//! CTLD piece-binding rows and the static initial pose (`docs/reference/registry.md` §5.5,
//! native reader Control RVA `0x9950`).

use super::RowLayout;
use crate::error::Result;
use crate::helpers::{check_finite, float, put_word, word};

/// Flag `0x1`: wrap the blend once across the range instead of clamping (*confirmed*).
pub const FLAG_WRAP: u32 = 0x1;
/// Flag `0x2`: invert the blend (`1 − blend`) (*confirmed*).
pub const FLAG_INVERT: u32 = 0x2;
/// Flag `0x4`: row skipped by the static initial pose (*confirmed*).
pub const FLAG_SKIP_POSE: u32 = 0x4;
/// Flag `0x8`: auto-referenced by the item system (*inferred*, one decompilation).
pub const FLAG_ITEM_REF: u32 = 0x8;
/// Flag `0x100`: conditional link added from MSH piece flags (*inferred*).
pub const FLAG_CONDITIONAL: u32 = 0x100;

/// One piece-binding row, raw (36 or 48 bytes according to the table's layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingRow {
    /// Row bytes.
    pub raw: Vec<u8>,
}

/// The frame chosen for one node by the initial pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseEntry {
    /// MSH node id.
    pub node: i32,
    /// Animation frame `(1 − blend)·a + blend·b`.
    pub frame: f32,
    /// Index of the row that defined it (the last enabled row for the node).
    pub row: usize,
}

impl BindingRow {
    /// Authoring (36-byte layout): opaque bytes `+0x10..+0x17` are zero, and so are the
    /// channel's rate and span ([`BindingRow::set_channel`]).
    pub fn new(node_id: i32, endpoint_a: f32, endpoint_b: f32, initial_blend: f32, flags: u32) -> Result<Self> {
        check_finite(&[endpoint_a, endpoint_b, initial_blend], 0, "binding row")?;
        let mut raw = vec![0u8; RowLayout::Native36.size()];
        put_word(&mut raw, 0, node_id as u32);
        put_word(&mut raw, 4, endpoint_a.to_bits());
        put_word(&mut raw, 8, endpoint_b.to_bits());
        put_word(&mut raw, 0x0C, initial_blend.to_bits());
        put_word(&mut raw, 0x20, flags);
        Ok(Self { raw })
    }

    /// `+0x00` MSH node id — *confirmed*.
    pub fn node_id(&self) -> i32 {
        word(&self.raw, 0) as i32
    }

    /// `+0x04/+0x08` endpoints (animation frames) — *confirmed* (36); animation-1
    /// start/end in the 48-byte reading.
    pub fn endpoints(&self) -> (f32, f32) {
        (float(&self.raw, 4), float(&self.raw, 8))
    }

    /// Initial blend: `+0x0C` (36, *confirmed*) or `+0x14` (48, disputed reading).
    pub fn initial_blend(&self, layout: RowLayout) -> f32 {
        match layout {
            RowLayout::Native36 => float(&self.raw, 0x0C),
            RowLayout::Decompiled48 => float(&self.raw, 0x14),
        }
    }

    /// A channel's rate (value per second, `+0x18`) and span (radians from value 0 to 1,
    /// `+0x1C`): openparkan `docs/30-turrets.md`, read and measured on the 36-byte
    /// layout; `None` on the 48-byte reading, where they were not placed.
    pub fn channel(&self, layout: RowLayout) -> Option<(f32, f32)> {
        (layout == RowLayout::Native36).then(|| (float(&self.raw, 0x18), float(&self.raw, 0x1C)))
    }

    /// Authoring (36-byte layout): sets the channel's rate and span.
    pub fn set_channel(&mut self, rate: f32, span: f32) {
        put_word(&mut self.raw, 0x18, rate.to_bits());
        put_word(&mut self.raw, 0x1C, span.to_bits());
    }

    /// Flags: `+0x20` (36, *confirmed*) or `+0x2C` (48).
    pub fn flags(&self, layout: RowLayout) -> u32 {
        match layout {
            RowLayout::Native36 => word(&self.raw, 0x20),
            RowLayout::Decompiled48 => word(&self.raw, 0x2C),
        }
    }

    /// The normalised blend: flag `0x1` wraps once (> 1 → −1, < 0 → +1), otherwise
    /// clamp to [0, 1]; then flag `0x2` inverts. A NaN blend stays NaN.
    pub fn normalised_blend(&self, layout: RowLayout) -> f32 {
        normalise(self.initial_blend(layout), self.flags(layout))
    }

    /// The static initial frame, or `None` for rows with flag `0x4`.
    pub fn initial_frame(&self, layout: RowLayout) -> Option<f32> {
        if self.flags(layout) & FLAG_SKIP_POSE != 0 {
            return None;
        }
        Some(frame_at(self.endpoints(), self.initial_blend(layout), self.flags(layout)))
    }
}

/// The animation frame of a binding at a raw blend value: the blend normalised by the
/// flags (see [`normalise`]), then `(1 − blend)·a + blend·b`.
pub fn frame_at((a, b): (f32, f32), value: f32, flags: u32) -> f32 {
    let blend = normalise(value, flags);
    (1.0 - blend) * a + blend * b
}

/// Blend normalisation of Control RVA `0x99C4..0x9A66`.
pub fn normalise(value: f32, flags: u32) -> f32 {
    let mut v = value;
    if flags & FLAG_WRAP != 0 {
        if v > 1.0 {
            v -= 1.0;
        } else if v < 0.0 {
            v += 1.0;
        }
    } else {
        v = v.clamp(0.0, 1.0);
    }
    if flags & FLAG_INVERT != 0 { 1.0 - v } else { v }
}

pub(super) fn initial_pose(rows: &[BindingRow], layout: RowLayout) -> Vec<PoseEntry> {
    let mut out: Vec<PoseEntry> = Vec::new();
    for (row, r) in rows.iter().enumerate() {
        let Some(frame) = r.initial_frame(layout) else { continue };
        let node = r.node_id();
        match out.iter_mut().find(|e| e.node == node) {
            Some(e) => *e = PoseEntry { node, frame, row },
            None => out.push(PoseEntry { node, frame, row }),
        }
    }
    out
}
