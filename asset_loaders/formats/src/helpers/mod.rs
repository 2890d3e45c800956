//! Helper formats of the prototype archives (`docs/reference/registry.md` §5): CTPT control
//! points, NDPR damage parts, EXPL explosions, SUND suns, reference arrays, CTLD control
//! descriptions, BASE basements, TRF research trees, ANI and SKE.
//!
//! Framing is exact; meaning is exposed only where the spec proves it. Every field's
//! evidence status (*confirmed*, *inferred*, *opaque*, *disputed*) is stated on its
//! accessor. Every reader has a writer that reproduces its input byte for byte.

pub mod base;
pub mod ctld;
pub mod ctpt;
pub mod exp;
pub mod ndpr;
pub mod opaque;
pub mod trf;

pub use base::Base;
pub use ctld::{Ctld, RowLayout};
pub use ctpt::{ControlPoint, Ctpt};
pub use exp::{Expl, HitKind};
pub use ndpr::Ndpr;
pub use opaque::{Ani, OpaqueResource, ReferenceArray, Ske, Sund};
pub use trf::Trf;

use crate::error::{Error, Result};

/// Reads a little-endian `u32` at `at` of a raw record (caller guarantees bounds by
/// construction of fixed-size arrays).
pub(crate) fn word(raw: &[u8], at: usize) -> u32 {
    match raw.get(at..at + 4) {
        Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        None => 0,
    }
}

/// Reads a little-endian `f32` at `at` of a raw record.
pub(crate) fn float(raw: &[u8], at: usize) -> f32 {
    f32::from_bits(word(raw, at))
}

/// Reads a `vec3` at `at`.
pub(crate) fn vec3(raw: &[u8], at: usize) -> [f32; 3] {
    [float(raw, at), float(raw, at + 4), float(raw, at + 8)]
}

/// Writes a `u32` at `at` (no-op when out of bounds; callers use fixed arrays).
pub(crate) fn put_word(raw: &mut [u8], at: usize, value: u32) {
    if let Some(w) = raw.get_mut(at..at + 4) {
        w.copy_from_slice(&value.to_le_bytes());
    }
}

/// Writes `text` as a 32-byte NUL-padded name at `at` (cut to 31 bytes; authoring).
pub(crate) fn put_name(raw: &mut [u8], at: usize, text: &str) {
    if let Some(field) = raw.get_mut(at..at + 32) {
        field.fill(0);
        let n = text.len().min(31);
        field[..n].copy_from_slice(&text.as_bytes()[..n]);
    }
}

/// Writes a `vec3` at `at`.
pub(crate) fn put_vec3(raw: &mut [u8], at: usize, v: [f32; 3]) {
    for (i, x) in v.iter().enumerate() {
        put_word(raw, at + 4 * i, x.to_bits());
    }
}

/// Converts a collection length to a `u32` count field.
pub(crate) fn count_u32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid(0, "count_overflow", format!("{n} {what} do not fit a u32 count")))
}

/// Requires every float to be finite.
pub(crate) fn check_finite(values: &[f32], at: u64, what: &str) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(Error::invalid(at, "non_finite_float", format!("{what}: component {i} is {}", values[i]))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
