//! SWAV sounds (`docs/reference/runtime.md` §10): RIFF/WAVE entries of `sounds.lib` / `voices.lib`,
//! decoded to interleaved 16-bit PCM (linear PCM and Microsoft ADPCM), the four load
//! results of the spec, and WAV writers (PCM and our own MS ADPCM encoder) for authoring.
//!
//! Evidence: framing *confirmed corpus* (every non-empty entry is RIFF/WAVE at
//! 22 050 Hz; Part 1: 306 ADPCM + 93 PCM; Part 2 has one empty entry).

pub mod adpcm;
pub mod riff;

#[cfg(test)]
mod tests;

pub use adpcm::AdpcmParams;
pub use riff::{Chunk, FORMAT_MS_ADPCM, FORMAT_PCM, RiffWave, WaveFormat};

use crate::error::{Error, ErrorKind, Result};
use crate::nres::Nres;

/// NRes type id of sound entries (`SWAV`).
pub const SWAV: u32 = u32::from_le_bytes(*b"SWAV");

/// A decoded sound: interleaved signed 16-bit samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedSample {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channel count.
    pub channels: u16,
    /// Interleaved samples (`frames × channels`).
    pub samples: Vec<i16>,
    /// Source format tag (1 PCM, 2 MS ADPCM).
    pub format_tag: u16,
}

impl DecodedSample {
    /// Number of frames (samples per channel).
    pub fn frames(&self) -> usize {
        self.samples.len() / usize::from(self.channels.max(1))
    }

    /// Duration in seconds.
    pub fn seconds(&self) -> f64 {
        if self.sample_rate == 0 { 0.0 } else { self.frames() as f64 / f64::from(self.sample_rate) }
    }
}

/// Result of loading one sound resource (`docs/reference/runtime.md` §10.2); the four cases
/// are kept distinct.
#[derive(Debug, Clone, PartialEq)]
pub enum SoundLoad {
    /// No such key in the archive.
    EntryMissing,
    /// Key present, payload size 0 (never passed to the RIFF parser).
    EntryEmpty,
    /// RIFF/WAVE framing or format chunk invalid.
    WaveInvalid(Error),
    /// Success.
    DecodedSample(DecodedSample),
}

impl SoundLoad {
    /// The stable result name of the spec (`entry_missing`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            SoundLoad::EntryMissing => "entry_missing",
            SoundLoad::EntryEmpty => "entry_empty",
            SoundLoad::WaveInvalid(_) => "wave_invalid",
            SoundLoad::DecodedSample(_) => "decoded_sample",
        }
    }

    /// Classifies an archive lookup result: `None` = missing, empty = empty, otherwise
    /// decode.
    pub fn from_lookup(payload: Option<&[u8]>) -> Self {
        match payload {
            None => SoundLoad::EntryMissing,
            Some([]) => SoundLoad::EntryEmpty,
            Some(bytes) => match decode_wave(bytes) {
                Ok(s) => SoundLoad::DecodedSample(s),
                Err(e) => SoundLoad::WaveInvalid(e),
            },
        }
    }

    /// Loads `name` (ASCII case-insensitive) from an NRes sound archive.
    pub fn from_nres(archive: &Nres<'_>, name: &str) -> Self {
        Self::from_lookup(archive.get(name.as_bytes()).map(|(_, payload)| payload))
    }
}

/// Decodes a RIFF/WAVE file (PCM 8/16-bit or MS ADPCM) to 16-bit PCM.
pub fn decode_wave(bytes: &[u8]) -> Result<DecodedSample> {
    let wave = RiffWave::parse(bytes)?;
    decode_riff(&wave)
}

/// Decodes an already parsed RIFF/WAVE file.
pub fn decode_riff(wave: &RiffWave) -> Result<DecodedSample> {
    let fmt = wave.format()?;
    let (data, at) = wave.data()?;
    let f = wave.chunk(b"fmt ").map_or(20, |(i, _)| wave.payload_offset(i));
    if fmt.channels == 0 || fmt.sample_rate == 0 {
        return Err(Error::invalid(f, "wave_format", format!("{} channels at {} Hz", fmt.channels, fmt.sample_rate)));
    }
    let samples = match fmt.format_tag {
        FORMAT_PCM => decode_pcm(&fmt, data, f, at)?,
        FORMAT_MS_ADPCM => {
            if fmt.bits_per_sample != 4 {
                return Err(Error::invalid(
                    f + 14,
                    "adpcm_bits",
                    format!("{} bits per sample, expected 4", fmt.bits_per_sample),
                ));
            }
            let p = AdpcmParams::parse(fmt.channels, fmt.block_align, &fmt.extension, f + 16)?;
            let mut out = Vec::new();
            adpcm::decode(data, &p, at, &mut out)?;
            if let Some(frames) = wave.fact_samples() {
                let want = (frames as usize).saturating_mul(usize::from(fmt.channels));
                out.truncate(want);
            }
            out
        }
        other => return Err(Error::at(f, ErrorKind::Unsupported(format!("wave format tag {other}")))),
    };
    Ok(DecodedSample { sample_rate: fmt.sample_rate, channels: fmt.channels, samples, format_tag: fmt.format_tag })
}

fn decode_pcm(fmt: &WaveFormat, data: &[u8], f: u64, at: u64) -> Result<Vec<i16>> {
    let width = match fmt.bits_per_sample {
        8 => 1,
        16 => 2,
        b => return Err(Error::at(f + 14, ErrorKind::Unsupported(format!("{b}-bit PCM")))),
    };
    let frame = width * usize::from(fmt.channels);
    if usize::from(fmt.block_align) != frame {
        return Err(Error::invalid(
            f + 12,
            "pcm_block_align",
            format!("block_align {} for {frame}-byte frames", fmt.block_align),
        ));
    }
    if !data.len().is_multiple_of(frame) {
        return Err(Error::invalid(
            at,
            "pcm_partial_frame",
            format!("{} data bytes are not whole {frame}-byte frames", data.len()),
        ));
    }
    Ok(if width == 1 {
        data.iter().map(|&b| (i16::from(b) - 128) << 8).collect()
    } else {
        data.chunks_exact(2).map(|w| i16::from_le_bytes([w[0], w[1]])).collect()
    })
}

/// Writes interleaved samples as a 16-bit PCM WAV file.
pub fn write_pcm16(samples: &[i16], channels: u16, sample_rate: u32) -> Result<Vec<u8>> {
    if channels == 0 || !samples.len().is_multiple_of(usize::from(channels)) {
        return Err(Error::invalid(0, "wave_interleave", format!("{} samples for {channels} channels", samples.len())));
    }
    let block_align = 2 * channels;
    let fmt = WaveFormat {
        format_tag: FORMAT_PCM,
        channels,
        sample_rate,
        avg_bytes_per_sec: sample_rate.saturating_mul(u32::from(block_align)),
        block_align,
        bits_per_sample: 16,
        extension: Vec::new(),
    };
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    Ok(RiffWave::from_chunks(vec![(b"fmt ", fmt.to_bytes()), (b"data", data)])?.to_bytes())
}

/// Writes interleaved samples as an MS ADPCM WAV file (standard coefficients, `fact`
/// chunk with the true frame count). `block_align` 256 per channel is the common choice.
pub fn write_ms_adpcm(samples: &[i16], channels: u16, sample_rate: u32, block_align: u16) -> Result<Vec<u8>> {
    let p = AdpcmParams::standard(channels, block_align)?;
    let data = adpcm::encode(samples, &p)?;
    let frames = u32::try_from(samples.len() / usize::from(channels))
        .map_err(|_| Error::invalid(0, "wave_length", "too many samples"))?;
    let avg = (u64::from(sample_rate) * u64::from(block_align) / u64::from(p.samples_per_block)) as u32;
    let fmt = WaveFormat {
        format_tag: FORMAT_MS_ADPCM,
        channels,
        sample_rate,
        avg_bytes_per_sec: avg,
        block_align,
        bits_per_sample: 4,
        extension: p.extension(),
    };
    Ok(RiffWave::from_chunks(vec![
        (b"fmt ", fmt.to_bytes()),
        (b"fact", frames.to_le_bytes().to_vec()),
        (b"data", data),
    ])?
    .to_bytes())
}
