//! A test-side little-endian byte builder, independent of the crate's writer, for
//! hand-written golden fixtures.

use iron3d_eu7::{Module, ReadOptions};

/// Byte builder.
#[derive(Default, Clone)]
pub struct B(pub Vec<u8>);

impl B {
    pub fn new() -> Self {
        Self(Vec::new())
    }
    pub fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    pub fn u16(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i32(self, v: i32) -> Self {
        self.u32(v as u32)
    }
    pub fn u64(mut self, v: u64) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(mut self, v: f32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn v3(self, x: f32, y: f32, z: f32) -> Self {
        self.f32(x).f32(y).f32(z)
    }
    pub fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
    /// Empty sid.
    pub fn none(self) -> Self {
        self.u32(0xFFFF_FFFF)
    }
    /// A chunk: id, total size (payload + 8), payload.
    pub fn chunk(self, id: &[u8; 4], payload: B) -> Self {
        let n = payload.0.len() as u32 + 8;
        self.raw(id).u32(n).raw(&payload.0)
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// `EU7B` + version.
pub fn header(version: u32) -> B {
    B::new().raw(b"EU7B").u32(version)
}

/// A STRS payload.
pub fn strs(list: &[&str]) -> B {
    let mut b = B::new().u32(list.len() as u32);
    for s in list {
        b = b.u32(s.len() as u32).raw(s.as_bytes());
    }
    b
}

/// Reads strictly, checks the lossless writer reproduces the bytes, returns the module.
pub fn read_back(bytes: &[u8]) -> Module {
    let m = Module::read(bytes.to_vec(), &ReadOptions::strict());
    let m = match m {
        Ok(m) => m,
        Err(e) => panic!("strict read failed: {e}"),
    };
    assert_eq!(m.write().ok().as_deref(), Some(bytes), "lossless rewrite differs");
    m
}
