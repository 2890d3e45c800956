//! Little-endian byte writing and bounds-checked reading; every read error names the
//! part being read and the offset.

use crate::format::{Chunk, FormatError};

/// Bytes being written.
#[derive(Debug, Default)]
pub(crate) struct Writer(pub Vec<u8>);

impl Writer {
    pub fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// A length (u32) then the items.
    pub fn count(&mut self, n: usize) -> Result<(), String> {
        self.u32(u32::try_from(n).map_err(|_| format!("{n} items do not fit a file"))?);
        Ok(())
    }

    /// A string of at most 255 bytes.
    pub fn short_str(&mut self, s: &str) -> Result<(), String> {
        self.u8(u8::try_from(s.len()).map_err(|_| format!("`{s}` is longer than 255 bytes"))?);
        self.bytes(s.as_bytes());
        Ok(())
    }

    /// A value in the compact binary serde encoding (postcard: variable-length
    /// integers, floats as their IEEE bits).
    pub fn serde(&mut self, value: &impl serde::Serialize) -> Result<(), String> {
        self.0 = postcard::to_extend(value, std::mem::take(&mut self.0)).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// A string of at most 65535 bytes.
    pub fn str(&mut self, s: &str) -> Result<(), String> {
        self.u16(u16::try_from(s.len()).map_err(|_| "a string is longer than 65535 bytes")?);
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// Bytes being read: the file (offsets are file offsets) or one chunk's inflated data
/// (errors give the chunk's offset and the byte inside its data).
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The part being read (`header`, a chunk name).
    pub part: String,
    /// For chunk data: the chunk's offset in the file.
    chunk_at: Option<usize>,
}

impl<'a> Reader<'a> {
    /// Reads a file from its start.
    pub fn new(bytes: &'a [u8], part: &str) -> Self {
        Self { bytes, at: 0, part: part.into(), chunk_at: None }
    }

    /// Reads a chunk's inflated data.
    pub fn chunk(chunk: &'a Chunk) -> Self {
        Self { bytes: &chunk.data, at: 0, part: chunk.name(), chunk_at: Some(chunk.offset) }
    }

    pub fn offset(&self) -> usize {
        self.at
    }

    /// An error at the current position.
    pub fn error(&self, message: impl Into<String>) -> FormatError {
        self.error_at(self.at, message)
    }

    /// An error at `at` (a file offset, or a byte of the chunk's data).
    pub fn error_at(&self, at: usize, message: impl Into<String>) -> FormatError {
        let message = message.into();
        match self.chunk_at {
            None => FormatError { chunk: self.part.clone(), offset: at, message },
            Some(offset) => {
                FormatError { chunk: self.part.clone(), offset, message: format!("byte {at} of its data: {message}") }
            }
        }
    }

    /// Whether everything was read.
    pub fn done(&self) -> Result<(), FormatError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            n => Err(self.error(format!("{n} bytes left over"))),
        }
    }

    /// Refuses reading `n` bytes more than are left.
    fn has(&self, n: usize) -> Result<(), FormatError> {
        match self.bytes.len() - self.at {
            left if n > left => Err(self.error(format!("truncated: needs {n} bytes, {left} left"))),
            _ => Ok(()),
        }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        self.has(n)?;
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], FormatError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.array::<1>()?[0])
    }

    pub fn u16(&mut self) -> Result<u16, FormatError> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u32(&mut self) -> Result<u32, FormatError> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn u64(&mut self) -> Result<u64, FormatError> {
        self.array().map(u64::from_le_bytes)
    }

    /// A length written by [`Writer::count`], checked against the bytes left (each item
    /// takes at least `min_item` bytes), so a damaged count cannot allocate.
    pub fn count(&mut self, min_item: usize) -> Result<usize, FormatError> {
        let at = self.at;
        let n = self.u32()? as usize;
        if n.saturating_mul(min_item.max(1)) > self.bytes.len() - self.at {
            return Err(self.error_at(at, format!("count {n} exceeds the data left")));
        }
        Ok(n)
    }

    fn utf8(&mut self, n: usize) -> Result<String, FormatError> {
        let at = self.at;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| self.error_at(at, "text is not UTF-8"))
    }

    /// A value written by [`Writer::serde`]; `what` names it in the error.
    pub fn serde<T: serde::Deserialize<'a>>(&mut self, what: &str) -> Result<T, FormatError> {
        let (value, left) = postcard::take_from_bytes(&self.bytes[self.at..])
            .map_err(|e| self.error(format!("{what} does not parse: {e}")))?;
        self.at = self.bytes.len() - left.len();
        Ok(value)
    }

    pub fn short_str(&mut self) -> Result<String, FormatError> {
        let n = self.u8()?;
        self.utf8(n.into())
    }

    pub fn str(&mut self) -> Result<String, FormatError> {
        let n = self.u16()?;
        self.utf8(n.into())
    }
}
