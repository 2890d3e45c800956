//! Reading with the workspace's bounded [`Cursor`] (EU7B count-prefixed lists on top of it)
//! and the byte sink (writing) used by every codec.

use crate::error::{Error, ErrorKind, Result};
pub use iron3d_formats::bytes::Cursor;

/// EU7B reading on top of [`Cursor`]: located errors and `u32`-count-prefixed lists
/// whose counts are checked against the remaining bytes before anything is allocated.
pub trait CursorExt<'a> {
    /// An error located at the current absolute offset.
    fn err(&self, kind: ErrorKind) -> Error;
    /// Reads a `u32` count of elements of at least `min_elem_size` bytes and checks it.
    fn count(&mut self, min_elem_size: usize) -> Result<usize>;
    /// Checks an already read `count` (read at absolute offset `at`) against the
    /// remaining bytes.
    fn check_items(&self, count: u64, min_elem_size: usize, at: u64) -> Result<usize>;
    /// Reads `count`-prefixed elements with `read`, `min_elem_size` bytes each at least.
    fn list<T>(&mut self, min_elem_size: usize, read: impl FnMut(&mut Cursor<'a>) -> Result<T>) -> Result<Vec<T>>;
}

impl<'a> CursorExt<'a> for Cursor<'a> {
    fn err(&self, kind: ErrorKind) -> Error {
        Error::at(self.offset(), kind)
    }

    fn count(&mut self, min_elem_size: usize) -> Result<usize> {
        let at = self.offset();
        let count = self.u32()?;
        self.check_items(u64::from(count), min_elem_size, at)
    }

    fn check_items(&self, count: u64, min_elem_size: usize, at: u64) -> Result<usize> {
        let remaining = self.remaining() as u64;
        match count.checked_mul(min_elem_size as u64) {
            Some(need) if need <= remaining => usize::try_from(count)
                .map_err(|_| Error::at(at, ErrorKind::TooLarge("count exceeds the address space"))),
            _ => Err(Error::at(at, ErrorKind::CountTooLarge { count, elem_size: min_elem_size as u64, remaining })),
        }
    }

    fn list<T>(&mut self, min_elem_size: usize, mut read: impl FnMut(&mut Cursor<'a>) -> Result<T>) -> Result<Vec<T>> {
        let n = self.count(min_elem_size)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(read(self)?);
        }
        Ok(v)
    }
}

/// A little-endian byte sink. Its errors carry no offset: they are about values that do
/// not fit the format, not about bytes of a file.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    /// Bytes written so far.
    pub buf: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// Writes a `u8`.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    /// Writes a `u16`.
    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes an `i16`.
    pub fn i16(&mut self, v: i16) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes a `u32`.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes an `i32`.
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes a `u64`.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes an `f32`.
    pub fn f32(&mut self, v: f32) {
        self.bytes(&v.to_le_bytes());
    }
    /// Writes a `vec3`.
    pub fn vec3(&mut self, v: [f32; 3]) {
        for c in v {
            self.f32(c);
        }
    }
    /// Writes a length as a `u32` count, failing if it does not fit.
    pub fn count(&mut self, len: usize) -> Result<()> {
        let n = u32::try_from(len).map_err(|_| Error::new(ErrorKind::TooLarge("count above u32::MAX")))?;
        self.u32(n);
        Ok(())
    }
    /// Writes a count followed by each element.
    pub fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Writer, &T) -> Result<()>) -> Result<()> {
        self.count(items.len())?;
        for it in items {
            write(self, it)?;
        }
        Ok(())
    }
    /// Overwrites 4 bytes at `at` with `v` (for back-patched sizes). No-op if out of range.
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        if let Some(s) = self.buf.get_mut(at..at.saturating_add(4)) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_past_end_is_error_not_panic() {
        let mut c = Cursor::with_base(&[1, 2, 3], 100);
        assert_eq!(c.u16().ok(), Some(0x0201));
        let e = c.u32().map_err(Error::from).err().map(|e| (e.offset, e.kind));
        assert_eq!(e, Some((Some(102), ErrorKind::Truncated { needed: 4, available: 1 })));
    }

    #[test]
    fn lying_count_rejected_before_allocation() {
        let mut c = Cursor::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
        assert!(matches!(c.count(1).map_err(|e| e.kind), Err(ErrorKind::CountTooLarge { .. })));
    }
}
