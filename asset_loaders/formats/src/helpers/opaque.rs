//! The opaque helper formats (`docs/reference/registry.md` §5.3, §5.4, §5.8): EXPL explosions,
//! SUND suns, reference arrays, ANI and SKE. Their field layouts are not documented, so
//! they are held as raw bytes; only the framing the spec states is checked. Editors
//! must not synthesise new variants of these formats.

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// A resource whose layout is unknown: bytes kept 1:1 (SUND, reference arrays, ANI,
/// SKE, `sky.ske`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpaqueResource {
    /// The payload.
    pub raw: Vec<u8>,
}

impl OpaqueResource {
    /// Wraps a payload (never fails: nothing is interpreted).
    pub fn parse(data: &[u8]) -> Self {
        Self { raw: data.to_vec() }
    }

    /// The payload, byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.raw.clone()
    }
}

/// SUND sun definitions (`sun_01`/`sun_02`): *opaque*; load as parameters of a system
/// object, never as geometry.
pub type Sund = OpaqueResource;
/// Reference arrays (585 resources, homogeneous reference records): *opaque*.
pub type ReferenceArray = OpaqueResource;
/// ANI resources (8 in the demo, structurally valid, layout undocumented): *opaque*.
pub type Ani = OpaqueResource;
/// SKE resources (6 in the demo, layout undocumented): *opaque*.
pub type Ske = OpaqueResource;

/// EXPL explosion description (`.exp`): *opaque*. The spec says a version field (1, 2
/// or 3 in the corpus) selects the layout but does not give its position or the
/// per-version sizes. This reader assumes the version is the first `u32` (a gap,
/// recorded in the docs) and keeps everything after it raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expl {
    /// Version word (assumed first `u32`).
    pub version: u32,
    /// The version-specific body, raw.
    pub body: Vec<u8>,
}

impl Expl {
    /// Parses; versions other than 1..=3 are [`ErrorKind::UnsupportedVersion`].
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let version = c.u32()?;
        if !(1..=3).contains(&version) {
            return Err(Error::at(0, ErrorKind::UnsupportedVersion(u64::from(version))));
        }
        Ok(Self { version, body: c.take(c.remaining())?.to_vec() })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.version.to_le_bytes().to_vec();
        out.extend_from_slice(&self.body);
        out
    }
}
