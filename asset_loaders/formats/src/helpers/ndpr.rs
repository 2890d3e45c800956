//! NDPR node tables (`.ndp`): `u32 count`, `count` 76-byte records, one per node of
//! the part's mesh, in node order (openparkan `docs/07-objects.md` and
//! `docs/26-damage.md`: size measured on all 542 shipped files, meaning read). File size
//! must equal `4 + 76·count`. Writers keep order and every byte.

use super::{count_u32, float, put_name, put_word, word};
use crate::bytes::{Cursor, fixed_str};
use crate::error::{Error, Result};

/// Record size (measured).
pub const RECORD_SIZE: usize = 76;
/// Flag of a node of the left running gear: a leg, wheel or track (openparkan
/// `docs/24-motion.md`, read and measured).
pub const GEAR_LEFT: u32 = 0x20;
/// Flag of a node of the right running gear (same source).
pub const GEAR_RIGHT: u32 = 0x40;

/// One node's record, raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdprRecord {
    /// Record bytes.
    pub raw: [u8; RECORD_SIZE],
}

impl NdprRecord {
    /// A record of `hit_points` whose explosion is `explosion` (archive, member), flags
    /// and density 0 (authoring; names are cut to 31 bytes).
    pub fn new(hit_points: f32, explosion: Option<(&str, &str)>) -> Self {
        let mut raw = [0u8; RECORD_SIZE];
        put_word(&mut raw, 4, hit_points.to_bits());
        if let Some((archive, member)) = explosion {
            put_name(&mut raw, 0x0C, archive);
            put_name(&mut raw, 0x2C, member);
        }
        Self { raw }
    }

    /// Authoring: sets the density (`+0x08`).
    pub fn set_density(&mut self, density: f32) {
        put_word(&mut self.raw, 8, density.to_bits());
    }

    /// Authoring: sets the flags (`+0x00`).
    pub fn set_flags(&mut self, flags: u32) {
        put_word(&mut self.raw, 0, flags);
    }

    /// `+0x00` flags (0 on most nodes, 1 scenery, 112 rounds; measured): [`GEAR_LEFT`]
    /// and [`GEAR_RIGHT`] mark running gear (read).
    pub fn flags(&self) -> u32 {
        word(&self.raw, 0)
    }
    /// `+0x04` the node's hit points (read; 1 000 000 is effectively indestructible).
    pub fn hit_points(&self) -> f32 {
        float(&self.raw, 4)
    }
    /// `+0x08` density: the node's mass is density × its level-0 volume (read).
    pub fn density(&self) -> f32 {
        float(&self.raw, 8)
    }
    /// `+0x0C` archive of the node's explosion (may be empty).
    pub fn archive(&self) -> &[u8] {
        fixed_str(&self.raw[0x0C..0x2C])
    }
    /// `+0x2C` member: the node's `.exp` (empty: none).
    pub fn resource(&self) -> &[u8] {
        fixed_str(&self.raw[0x2C..0x4C])
    }
}

/// A parsed `.ndp` file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ndpr {
    /// Records in file order.
    pub records: Vec<NdprRecord>,
}

impl Ndpr {
    /// Parses; the size must match the count exactly.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let n = c.u32()?;
        let total = c.check_count(u64::from(n), RECORD_SIZE as u64, "NDPR records")?;
        if total != c.remaining() {
            return Err(Error::invalid(
                0,
                "ndpr_size",
                format!("{n} records need {} bytes, file has {}", 4 + total, data.len()),
            ));
        }
        let mut records = Vec::with_capacity(n as usize);
        for _ in 0..n {
            records.push(NdprRecord { raw: c.array()? });
        }
        Ok(Self { records })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = count_u32(self.records.len(), "records")?.to_le_bytes().to_vec();
        for r in &self.records {
            out.extend_from_slice(&r.raw);
        }
        Ok(out)
    }
}
