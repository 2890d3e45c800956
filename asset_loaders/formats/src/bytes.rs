//! Bounded little-endian reading, fixed-size string fields and the ASCII
//! case-insensitive name order shared by every format.

use crate::error::{Error, ErrorKind, Result};
use std::cmp::Ordering;

/// The workspace's one bounded sequential reader over a byte slice (the Iron3D formats
/// and, through `iron3d_eu7`, EU7B and E3D). Every read checks the remaining length first
/// and reports the absolute offset (`base + position`) on failure.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data` whose first byte is at absolute offset 0.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0, base: 0 }
    }

    /// A cursor whose first byte is at absolute offset `base` (for error reports).
    pub fn with_base(data: &'a [u8], base: u64) -> Self {
        Self { data, pos: 0, base }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Position relative to the start of the slice.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when every byte was read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Takes the next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(Error::at(
                self.offset(),
                ErrorKind::Truncated { needed: n as u64, available: self.remaining() as u64 },
            ));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Takes the next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// Reads a `u8`.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// Reads a little-endian `u16`.
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `i16`.
    pub fn i16(&mut self) -> Result<i16> {
        Ok(i16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `i32`.
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `f32` (bits kept exactly).
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `f64` (bits kept exactly).
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// Reads three little-endian `f32` values.
    pub fn vec3(&mut self) -> Result<[f32; 3]> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }

    /// Takes every byte not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        let out = &self.data[self.pos..];
        self.pos = self.data.len();
        out
    }

    /// Checks that `count` elements of `elem_size` bytes fit in the remaining bytes
    /// (overflow-checked) and returns the total byte length. Call before allocating.
    pub fn check_count(&self, count: u64, elem_size: u64, what: &'static str) -> Result<usize> {
        let total = count.checked_mul(elem_size).ok_or_else(|| {
            Error::invalid(self.offset(), "count_overflow", format!("{what}: {count} x {elem_size} overflows"))
        })?;
        if total > self.remaining() as u64 {
            return Err(Error::at(
                self.offset(),
                ErrorKind::Truncated { needed: total, available: self.remaining() as u64 },
            ))
            .map_err(|e| e.via(format!("{what} ({count} x {elem_size} bytes)")));
        }
        Ok(total as usize)
    }

    /// Fails unless every byte was consumed.
    pub fn expect_end(&self, what: &'static str) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid(
                self.offset(),
                "trailing_bytes",
                format!("{} unexpected bytes after {what}", self.remaining()),
            ))
        }
    }
}

/// The logical string of a fixed field: the bytes before the first NUL, or the whole
/// field when it has none.
pub fn fixed_str(field: &[u8]) -> &[u8] {
    match field.iter().position(|&b| b == 0) {
        Some(n) => &field[..n],
        None => field,
    }
}

/// True when the fixed field holds a NUL terminator.
pub fn has_nul(field: &[u8]) -> bool {
    field.contains(&0)
}

/// Builds a zero-filled fixed field of `N` bytes from `name`, rejecting embedded NULs
/// and names that leave no room for the terminator.
pub fn fixed_field<const N: usize>(name: &[u8]) -> Result<[u8; N]> {
    if name.contains(&0) {
        return Err(Error::invalid(0, "name_embedded_nul", display_name(name)));
    }
    if name.len() >= N {
        return Err(Error::invalid(
            0,
            "name_too_long",
            format!("{} is {} bytes, at most {} fit", display_name(name), name.len(), N - 1),
        ));
    }
    let mut out = [0u8; N];
    out[..name.len()].copy_from_slice(name);
    Ok(out)
}

/// ASCII lower-case fold of one byte.
pub fn fold(b: u8) -> u8 {
    b.to_ascii_lowercase()
}

/// Compares two names ASCII case-insensitively (folding to lower case), byte-wise,
/// shorter prefix first, each up to its first NUL.
pub fn compare_ci(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (fixed_str(a), fixed_str(b));
    for (&x, &y) in a.iter().zip(b) {
        if x != y {
            let (x, y) = (fold(x), fold(y));
            if x != y {
                return x.cmp(&y);
            }
        }
    }
    a.len().cmp(&b.len())
}

/// ASCII case-insensitive equality up to the first NUL.
pub fn eq_ci(a: &[u8], b: &[u8]) -> bool {
    fixed_str(a).eq_ignore_ascii_case(fixed_str(b))
}

/// Folds a game path for lookups: separators `\` and `/` become `/`, empty and `.`
/// components are dropped, ASCII letters are lower-cased.
pub fn fold_path(path: &str) -> String {
    path.split(['\\', '/'])
        .filter(|c| !c.is_empty() && *c != ".")
        .map(|c| c.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("/")
}

/// A name for messages: CP1251 bytes decoded lossily, as Rust string.
pub fn display_name(name: &[u8]) -> String {
    let (text, _, _) = encoding_rs::WINDOWS_1251.decode(fixed_str(name));
    text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_reports_absolute_offset_on_truncation() {
        let mut c = Cursor::with_base(&[1, 0, 0, 0, 9], 100);
        assert_eq!(c.u32().unwrap(), 1);
        let err = c.u32().unwrap_err();
        assert_eq!(err.offset, Some(104));
        assert_eq!(err.kind, ErrorKind::Truncated { needed: 4, available: 1 });
    }

    #[test]
    fn check_count_rejects_overflow_and_overrun_before_allocation() {
        let c = Cursor::new(&[0; 16]);
        assert_eq!(c.check_count(4, 4, "rows").unwrap(), 16);
        assert!(c.check_count(5, 4, "rows").is_err());
        assert!(matches!(
            c.check_count(u64::MAX, 64, "rows").unwrap_err().kind,
            ErrorKind::Invalid { rule: "count_overflow", .. }
        ));
    }

    #[test]
    fn fixed_strings_stop_at_nul_and_keep_full_field_without_one() {
        assert_eq!(fixed_str(b"abc\0xyz"), b"abc");
        assert_eq!(fixed_str(b"abcd"), b"abcd");
        assert!(fixed_field::<4>(b"abcd").is_err());
        assert!(fixed_field::<8>(b"a\0b").is_err());
        assert_eq!(fixed_field::<4>(b"abc").unwrap(), *b"abc\0");
    }

    #[test]
    fn case_insensitive_order_folds_to_lower_case() {
        assert_eq!(compare_ci(b"ABC", b"abc\0zz"), Ordering::Equal);
        assert_eq!(compare_ci(b"ab", b"abc"), Ordering::Less);
        // '_' (0x5F) sorts after letters when folding to lower case? no: 'a' = 0x61 > 0x5F.
        assert_eq!(compare_ci(b"_", b"A"), Ordering::Less);
        // ...but after upper-case letters' raw codes would put it the other way round.
        assert_eq!(compare_ci(b"Z", b"_"), Ordering::Greater);
        assert!(eq_ci(b"Tree.MSH", b"tree.msh\0\x01"));
    }
}
