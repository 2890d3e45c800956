//! The visual chain of a model (`docs/reference/models.md`): MSH geometry streams and the mesh
//! build recipe, WEAR material tables, MAT0 materials, Texm textures, PAL palettes and
//! FXID effects.

pub mod assembly;
pub mod fxid;
pub mod fxid_fields;
pub mod mat0;
pub mod mesh_build;
pub mod msh;
pub mod palette;
pub mod texm;
pub mod wear;

/// Little-endian append helpers shared by the writers of this module.
pub(crate) trait Put {
    /// Appends a `u16`.
    fn put_u16(&mut self, v: u16);
    /// Appends a `u32`.
    fn put_u32(&mut self, v: u32);
    /// Appends an `f32` (bits kept exactly).
    fn put_f32(&mut self, v: f32);
}

impl Put for Vec<u8> {
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
}

/// Axis-aligned bounds `(min, max)` of points; the zero box for no points.
pub fn bounds(points: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    if points.is_empty() {
        return ([0.0; 3], [0.0; 3]);
    }
    points.iter().fold(([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]), |(lo, hi), p| {
        ([0, 1, 2].map(|k| lo[k].min(p[k])), [0, 1, 2].map(|k| hi[k].max(p[k])))
    })
}
