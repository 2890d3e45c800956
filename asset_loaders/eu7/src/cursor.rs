//! The one bounded byte cursor (reading) and byte sink (writing) used by every codec.

use crate::error::{Error, ErrorKind, Result};

/// A little-endian reader over a byte slice that never reads past its end.
///
/// `base` is the absolute file offset of the slice start, so errors carry file offsets.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, whose first byte lies at absolute offset `base`.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        Self { data, pos: 0, base }
    }

    /// Bytes consumed so far.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Absolute file offset of the next byte.
    pub fn abs(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Bytes not yet consumed.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// An error located at the current position.
    pub fn err(&self, kind: ErrorKind) -> Error {
        Error::at(self.abs(), kind)
    }

    /// Takes the next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.data.get(self.pos..end).map(|s| (s, end))) {
            Some((s, end)) => {
                self.pos = end;
                Ok(s)
            }
            None => Err(self.err(ErrorKind::Truncated {
                needed: n as u64,
                available: self.remaining() as u64,
            })),
        }
    }

    /// All bytes not yet consumed.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = self.data.get(self.pos..).unwrap_or(&[]);
        self.pos = self.data.len();
        s
    }

    /// Takes `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// Reads a `u8`.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    /// Reads a `u16`.
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    /// Reads an `i16`.
    pub fn i16(&mut self) -> Result<i16> {
        Ok(i16::from_le_bytes(self.array()?))
    }
    /// Reads a `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    /// Reads an `i32`.
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    /// Reads a `u64`.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    /// Reads an `f32` (also used for on-disk `f64d`).
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array()?))
    }
    /// Reads an `f64`.
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }
    /// Reads a `vec3` (three on-disk binary32 values).
    pub fn vec3(&mut self) -> Result<[f32; 3]> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }

    /// Reads a `u32` count and checks `count * min_elem_size` against the remaining bytes
    /// before anything is allocated.
    pub fn count(&mut self, min_elem_size: usize) -> Result<usize> {
        let at = self.abs();
        let count = self.u32()?;
        self.check_count(u64::from(count), min_elem_size, at)
    }

    /// Checks an already read count against the remaining bytes.
    pub fn check_count(&self, count: u64, min_elem_size: usize, at: u64) -> Result<usize> {
        let need = count.checked_mul(min_elem_size as u64);
        let remaining = self.remaining() as u64;
        match need {
            Some(need) if need <= remaining => usize::try_from(count).map_err(|_| {
                Error::at(at, ErrorKind::TooLarge("count exceeds the address space"))
            }),
            _ => Err(Error::at(
                at,
                ErrorKind::CountTooLarge { count, elem_size: min_elem_size as u64, remaining },
            )),
        }
    }

    /// Reads `count`-prefixed elements with `read`, `min_elem_size` bytes each at least.
    pub fn list<T>(
        &mut self,
        min_elem_size: usize,
        mut read: impl FnMut(&mut Cursor<'a>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let n = self.count(min_elem_size)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(read(self)?);
        }
        Ok(v)
    }
}

/// A little-endian byte sink.
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
        let n = u32::try_from(len)
            .map_err(|_| Error::at(self.len() as u64, ErrorKind::TooLarge("count above u32::MAX")))?;
        self.u32(n);
        Ok(())
    }
    /// Writes a count followed by each element.
    pub fn list<T>(
        &mut self,
        items: &[T],
        mut write: impl FnMut(&mut Writer, &T) -> Result<()>,
    ) -> Result<()> {
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
        let mut c = Cursor::new(&[1, 2, 3], 100);
        assert_eq!(c.u16().ok(), Some(0x0201));
        let e = c.u32().err().map(|e| (e.offset, e.kind));
        assert_eq!(e, Some((102, ErrorKind::Truncated { needed: 4, available: 1 })));
    }

    #[test]
    fn lying_count_rejected_before_allocation() {
        let mut c = Cursor::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0], 0);
        assert!(matches!(c.count(1).map_err(|e| e.kind), Err(ErrorKind::CountTooLarge { .. })));
    }
}
