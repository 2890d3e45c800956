//! NDPR damage/life parts (`.ndp`, `docs/reference/registry.md` §5.2) — *inferred layout* from
//! one public decompilation: `u32 count`, `count` 76-byte records. Records are kept
//! raw; file size must equal `4 + 76·count`. Writers keep order.

use super::{count_u32, float, word};
use crate::bytes::{Cursor, fixed_str};
use crate::error::{Error, Result};

/// Record size (inferred).
pub const RECORD_SIZE: usize = 76;
/// Runtime flag bit "depleted/destroyed" (inferred).
pub const FLAG_DESTROYED: u32 = 0x10;

/// One raw NDPR record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdprRecord {
    /// Record bytes.
    pub raw: [u8; RECORD_SIZE],
}

impl NdprRecord {
    /// `+0x00` flags — *inferred*.
    pub fn flags(&self) -> u32 {
        word(&self.raw, 0)
    }
    /// `+0x04` life amount of the piece — *inferred*.
    pub fn max_volume(&self) -> f32 {
        float(&self.raw, 4)
    }
    /// `+0x08` mobility contribution per volume — *inferred*.
    pub fn mobility_per_volume(&self) -> f32 {
        float(&self.raw, 8)
    }
    /// `+0x0C` archive (may be empty) — *inferred*.
    pub fn archive(&self) -> &[u8] {
        fixed_str(&self.raw[0x0C..0x2C])
    }
    /// `+0x2C` resource (e.g. `explode_*.exp`) — *inferred*.
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
