//! A little-endian byte builder for the hand-written fixtures of the world-format
//! tests (independent of the writers under test).

/// Bytes appended field by field.
#[derive(Debug, Default, Clone)]
pub(crate) struct B(pub(crate) Vec<u8>);

impl B {
    pub(crate) fn u16(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn i32(self, v: i32) -> Self {
        self.u32(v as u32)
    }
    pub(crate) fn f32(self, v: f32) -> Self {
        self.u32(v.to_bits())
    }
    pub(crate) fn v3(self, v: [f32; 3]) -> Self {
        self.f32(v[0]).f32(v[1]).f32(v[2])
    }
    /// A length-prefixed string.
    pub(crate) fn lp(mut self, s: &[u8]) -> Self {
        self = self.u32(s.len() as u32);
        self.0.extend_from_slice(s);
        self
    }
}
