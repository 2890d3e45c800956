//! RIFF/WAVE framing (`docs/reference/runtime.md` §10.2): the `RIFF` header, a list of chunks
//! kept raw (id, payload, pad byte) and a typed view of the `fmt ` chunk.
//!
//! Evidence: the framing is the public RIFF/WAVE container (every non-empty SWAV entry
//! is one, *confirmed corpus*). Lossless: the declared RIFF size, chunk order, unknown
//! chunks and pad-byte values are kept; [`RiffWave::to_bytes`] reproduces the input.

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// Format tag of linear PCM.
pub const FORMAT_PCM: u16 = 1;
/// Format tag of Microsoft ADPCM.
pub const FORMAT_MS_ADPCM: u16 = 2;

/// One chunk: four-byte id, payload and (for odd sizes) the stored pad byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Chunk id (`fmt `, `data`, `fact`, ...).
    pub id: [u8; 4],
    /// Payload bytes (exactly the declared size).
    pub data: Vec<u8>,
    /// The pad byte after an odd-sized payload, kept raw (normally 0).
    pub pad: Option<u8>,
}

/// A parsed RIFF/WAVE file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiffWave {
    /// The declared RIFF size word (must equal file length − 8).
    pub riff_size: u32,
    /// Chunks in file order.
    pub chunks: Vec<Chunk>,
}

/// The `fmt ` chunk: the 16-byte common part typed, the extension kept raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveFormat {
    /// `wFormatTag` (1 PCM, 2 MS ADPCM).
    pub format_tag: u16,
    /// Channel count.
    pub channels: u16,
    /// Sample rate in Hz (22 050 in the retail corpus).
    pub sample_rate: u32,
    /// Declared average byte rate (informative only).
    pub avg_bytes_per_sec: u32,
    /// Block alignment in bytes.
    pub block_align: u16,
    /// Bits per sample (16 or 8 for PCM, 4 for MS ADPCM).
    pub bits_per_sample: u16,
    /// Bytes after the first 16 (`cbSize` and the codec extension), raw.
    pub extension: Vec<u8>,
}

impl WaveFormat {
    /// Parses a `fmt ` payload (at least 16 bytes).
    pub fn parse(data: &[u8], base: u64) -> Result<Self> {
        let mut c = Cursor::with_base(data, base);
        Ok(Self {
            format_tag: c.u16()?,
            channels: c.u16()?,
            sample_rate: c.u32()?,
            avg_bytes_per_sec: c.u32()?,
            block_align: c.u16()?,
            bits_per_sample: c.u16()?,
            extension: c.take(c.remaining())?.to_vec(),
        })
    }

    /// Serialises the chunk payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.extension.len());
        out.extend_from_slice(&self.format_tag.to_le_bytes());
        out.extend_from_slice(&self.channels.to_le_bytes());
        out.extend_from_slice(&self.sample_rate.to_le_bytes());
        out.extend_from_slice(&self.avg_bytes_per_sec.to_le_bytes());
        out.extend_from_slice(&self.block_align.to_le_bytes());
        out.extend_from_slice(&self.bits_per_sample.to_le_bytes());
        out.extend_from_slice(&self.extension);
        out
    }
}

impl RiffWave {
    /// Parses the RIFF framing. The declared size must cover the file exactly, every
    /// chunk must fit, and an odd chunk must be followed by its pad byte.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let magic: [u8; 4] = c.array()?;
        if &magic != b"RIFF" {
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "RIFF", found: magic.to_vec() }));
        }
        let riff_size = c.u32()?;
        if u64::from(riff_size) != data.len() as u64 - 8 {
            return Err(Error::invalid(
                4,
                "riff_size",
                format!("RIFF declares {riff_size} bytes, {} follow", data.len() - 8),
            ));
        }
        let form: [u8; 4] = c.array()?;
        if &form != b"WAVE" {
            return Err(Error::at(8, ErrorKind::BadMagic { expected: "WAVE", found: form.to_vec() }));
        }
        let mut chunks = Vec::new();
        while !c.is_empty() {
            let at = c.offset();
            let id: [u8; 4] = c.array()?;
            let size = c.u32()?;
            let len =
                c.check_count(u64::from(size), 1, "chunk payload").map_err(|e| e.via(format!("chunk at {at:#x}")))?;
            let payload = c.take(len)?.to_vec();
            let pad = if size % 2 == 1 { Some(c.u8().map_err(|e| e.via("chunk pad byte"))?) } else { None };
            chunks.push(Chunk { id, data: payload, pad });
        }
        Ok(Self { riff_size, chunks })
    }

    /// Serialises the file byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.riff_size as usize + 8);
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&self.riff_size.to_le_bytes());
        out.extend_from_slice(b"WAVE");
        for ch in &self.chunks {
            out.extend_from_slice(&ch.id);
            out.extend_from_slice(&(ch.data.len() as u32).to_le_bytes());
            out.extend_from_slice(&ch.data);
            if let Some(p) = ch.pad {
                out.push(p);
            }
        }
        out
    }

    /// Builds a file from chunks, computing the RIFF size and zero pad bytes.
    pub fn from_chunks(chunks: Vec<(&[u8; 4], Vec<u8>)>) -> Result<Self> {
        let chunks: Vec<Chunk> = chunks
            .into_iter()
            .map(|(id, data)| {
                let pad = (data.len() % 2 == 1).then_some(0);
                Chunk { id: *id, data, pad }
            })
            .collect();
        let total: usize = 4 + chunks.iter().map(|c| 8 + c.data.len() + usize::from(c.pad.is_some())).sum::<usize>();
        let riff_size = u32::try_from(total).map_err(|_| Error::invalid(0, "riff_size", "wave larger than 4 GiB"))?;
        Ok(Self { riff_size, chunks })
    }

    /// Byte offset of chunk `index`'s payload in the file (for error reports).
    pub fn payload_offset(&self, index: usize) -> u64 {
        let mut at = 12u64;
        for ch in self.chunks.iter().take(index) {
            at += 8 + ch.data.len() as u64 + u64::from(ch.pad.is_some());
        }
        at + 8
    }

    /// The first chunk with this id, with its index.
    pub fn chunk(&self, id: &[u8; 4]) -> Option<(usize, &Chunk)> {
        self.chunks.iter().enumerate().find(|(_, c)| &c.id == id)
    }

    /// The typed `fmt ` chunk (required, at least 16 bytes, before `data`).
    pub fn format(&self) -> Result<WaveFormat> {
        let (i, fmt) = self.chunk(b"fmt ").ok_or_else(|| Error::invalid(12, "wave_fmt_missing", "no `fmt ` chunk"))?;
        if let Some((d, _)) = self.chunk(b"data")
            && d < i
        {
            return Err(Error::invalid(self.payload_offset(d), "wave_chunk_order", "`data` precedes `fmt `"));
        }
        WaveFormat::parse(&fmt.data, self.payload_offset(i)).map_err(|e| e.via("`fmt ` chunk"))
    }

    /// The `data` chunk payload and its offset.
    pub fn data(&self) -> Result<(&[u8], u64)> {
        let (i, data) =
            self.chunk(b"data").ok_or_else(|| Error::invalid(12, "wave_data_missing", "no `data` chunk"))?;
        Ok((&data.data, self.payload_offset(i)))
    }

    /// The sample count of a `fact` chunk, when present (first four bytes).
    pub fn fact_samples(&self) -> Option<u32> {
        let (_, f) = self.chunk(b"fact")?;
        let w: [u8; 4] = f.data.get(..4)?.try_into().ok()?;
        Some(u32::from_le_bytes(w))
    }
}
