//! The opaque helper formats (`docs/reference/registry.md` §5.4, §5.8): SUND suns, reference arrays, ANI and SKE. Their field layouts are not documented, so
//! they are held as raw bytes; only the framing the spec states is checked. Editors
//! must not synthesise new variants of these formats.

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
