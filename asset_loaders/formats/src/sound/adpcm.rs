//! Microsoft ADPCM (format tag 2): decoder to 16-bit PCM and encoder, both our own.
//!
//! Block layout (public codec definition, used by 306 of 399 Part 1 SWAV entries):
//! per channel a predictor index `u8`, then per channel `i16` delta, `i16` sample 1,
//! `i16` sample 2; then 4-bit codes, high nibble first, channels interleaved. The
//! block yields sample 2, sample 1, then one sample per code.

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// The seven standard predictor coefficient pairs.
pub const STANDARD_COEFS: [(i16, i16); 7] =
    [(256, 0), (512, -256), (0, 0), (192, 64), (240, 0), (460, -208), (392, -232)];

/// Step-size adaptation table, indexed by the 4-bit code.
const ADAPT: [i32; 16] = [230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230];

/// Smallest step size.
const MIN_DELTA: i32 = 16;
/// Largest step size kept (prevents overflow on hostile input; real streams stay far below).
const MAX_DELTA: i32 = i32::MAX / 768;

/// Codec parameters from the `fmt ` extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdpcmParams {
    /// Channel count (≥ 1).
    pub channels: u16,
    /// Bytes per block.
    pub block_align: u16,
    /// Samples (per channel) per block, including the two header samples.
    pub samples_per_block: u16,
    /// Predictor coefficient pairs.
    pub coefs: Vec<(i16, i16)>,
}

impl AdpcmParams {
    /// Parameters for encoding with the standard coefficients.
    pub fn standard(channels: u16, block_align: u16) -> Result<Self> {
        let header = 7 * usize::from(channels);
        if channels == 0 || usize::from(block_align) <= header {
            return Err(Error::invalid(
                0,
                "adpcm_block_align",
                format!("block_align {block_align} for {channels} channels"),
            ));
        }
        let spb = (usize::from(block_align) - header) * 2 / usize::from(channels) + 2;
        let samples_per_block =
            u16::try_from(spb).map_err(|_| Error::invalid(0, "adpcm_block_align", "block too large"))?;
        Ok(Self { channels, block_align, samples_per_block, coefs: STANDARD_COEFS.to_vec() })
    }

    /// Reads the extension (`cbSize`, samples per block, coefficient count, pairs) and
    /// checks it against the block size.
    pub fn parse(channels: u16, block_align: u16, extension: &[u8], base: u64) -> Result<Self> {
        let mut c = Cursor::with_base(extension, base);
        let cb_size = c.u16()?;
        if usize::from(cb_size) > c.remaining() {
            return Err(Error::invalid(base, "adpcm_cb_size", format!("cbSize {cb_size} exceeds the chunk")));
        }
        let samples_per_block = c.u16()?;
        let count = c.u16()?;
        c.check_count(u64::from(count), 4, "coefficient pairs")?;
        let mut coefs = Vec::with_capacity(usize::from(count));
        for _ in 0..count {
            coefs.push((c.i16()?, c.i16()?));
        }
        let p = Self { channels, block_align, samples_per_block, coefs };
        p.validate(base)?;
        Ok(p)
    }

    fn validate(&self, at: u64) -> Result<()> {
        let ch = usize::from(self.channels);
        let header = 7 * ch;
        if ch == 0 || usize::from(self.block_align) < header {
            return Err(Error::invalid(
                at,
                "adpcm_block_align",
                format!("block_align {} for {ch} channels", self.block_align),
            ));
        }
        let max = (usize::from(self.block_align) - header) * 2 / ch + 2;
        if self.samples_per_block < 2 || usize::from(self.samples_per_block) > max {
            return Err(Error::invalid(
                at,
                "adpcm_samples_per_block",
                format!(
                    "{} samples per block, a {}-byte block holds 2..={max}",
                    self.samples_per_block, self.block_align
                ),
            ));
        }
        if self.coefs.is_empty() {
            return Err(Error::invalid(at, "adpcm_coefficients", "no predictor coefficients"));
        }
        Ok(())
    }

    /// The `fmt ` extension bytes (`cbSize` first).
    pub fn extension(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(6 + 4 * self.coefs.len());
        out.extend_from_slice(&((4 + 4 * self.coefs.len()) as u16).to_le_bytes());
        out.extend_from_slice(&self.samples_per_block.to_le_bytes());
        out.extend_from_slice(&(self.coefs.len() as u16).to_le_bytes());
        for (a, b) in &self.coefs {
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }
}

/// Per-channel decoder state.
#[derive(Debug, Clone, Copy)]
struct State {
    c1: i32,
    c2: i32,
    delta: i32,
    s1: i32,
    s2: i32,
}

impl State {
    fn predict(&self) -> i32 {
        ((i64::from(self.s1) * i64::from(self.c1) + i64::from(self.s2) * i64::from(self.c2)) >> 8) as i32
    }

    /// Applies one 4-bit code and returns the new sample.
    #[inline]
    fn step(&mut self, code: u8) -> i16 {
        let signed = i64::from(code as i8) << 60 >> 60;
        let value = (i64::from(self.predict()) + signed * i64::from(self.delta)).clamp(-32768, 32767) as i32;
        self.s2 = self.s1;
        self.s1 = value;
        self.delta = ((ADAPT[usize::from(code & 15)] * self.delta) >> 8).clamp(MIN_DELTA, MAX_DELTA);
        value as i16
    }
}

/// Decodes a whole `data` payload (blocks of `block_align` bytes; the last block may be
/// shorter but must hold its header) into interleaved samples appended to `out`.
pub fn decode(data: &[u8], p: &AdpcmParams, base: u64, out: &mut Vec<i16>) -> Result<()> {
    p.validate(base)?;
    let ch = usize::from(p.channels);
    let header = 7 * ch;
    let spb = usize::from(p.samples_per_block);
    let blocks = data.len().div_ceil(usize::from(p.block_align));
    out.reserve(blocks.saturating_mul(spb).saturating_mul(ch).min(data.len().saturating_mul(2) + 16));
    let mut states = vec![State { c1: 0, c2: 0, delta: 0, s1: 0, s2: 0 }; ch];
    for (bi, block) in data.chunks(usize::from(p.block_align)).enumerate() {
        let at = base + (bi * usize::from(p.block_align)) as u64;
        if block.len() < header {
            return Err(Error::at(at, ErrorKind::Truncated { needed: header as u64, available: block.len() as u64 }))
                .map_err(|e| e.via(format!("ADPCM block {bi} header")));
        }
        let mut c = Cursor::with_base(block, at);
        for s in states.iter_mut() {
            let index = c.u8()?;
            let &(c1, c2) = p.coefs.get(usize::from(index)).ok_or_else(|| {
                Error::invalid(at, "adpcm_predictor", format!("predictor {index} of {} in block {bi}", p.coefs.len()))
            })?;
            s.c1 = i32::from(c1);
            s.c2 = i32::from(c2);
        }
        for s in states.iter_mut() {
            s.delta = i32::from(c.i16()?);
        }
        for s in states.iter_mut() {
            s.s1 = i32::from(c.i16()?);
        }
        for s in states.iter_mut() {
            s.s2 = i32::from(c.i16()?);
        }
        out.extend(states.iter().map(|s| s.s2 as i16));
        out.extend(states.iter().map(|s| s.s1 as i16));
        let codes = &block[header..];
        let frames = (spb - 2).min(codes.len() * 2 / ch);
        for k in 0..frames * ch {
            let byte = codes[k / 2];
            let code = if k % 2 == 0 { byte >> 4 } else { byte & 15 };
            out.push(states[k % ch].step(code));
        }
    }
    Ok(())
}

/// Encodes one channel of one block with the given coefficient pair; returns the header
/// delta, the codes and the squared error.
fn encode_channel(samples: &[i16], coef: (i16, i16), delta0: i32) -> (i32, Vec<u8>, u64) {
    let mut s = State {
        c1: i32::from(coef.0),
        c2: i32::from(coef.1),
        delta: delta0,
        s1: i32::from(samples.get(1).copied().unwrap_or(0)),
        s2: i32::from(samples.first().copied().unwrap_or(0)),
    };
    let mut codes = Vec::with_capacity(samples.len().saturating_sub(2));
    let mut err = 0u64;
    for &x in samples.iter().skip(2) {
        let pred = s.predict();
        let diff = i64::from(x) - i64::from(pred);
        let d = i64::from(s.delta);
        let q = if diff >= 0 { (diff + d / 2) / d } else { (diff - d / 2) / d };
        let code = (q.clamp(-8, 7) as i8 as u8) & 15;
        let y = s.step(code);
        let e = i64::from(x) - i64::from(y);
        err = err.saturating_add((e * e) as u64);
        codes.push(code);
    }
    (delta0, codes, err)
}

/// Chooses predictor and initial step for one channel of a block by trial encoding.
fn best_channel(samples: &[i16], coefs: &[(i16, i16)]) -> (u8, i32, Vec<u8>) {
    let mut best: Option<(u64, u8, i32, Vec<u8>)> = None;
    for (i, &coef) in coefs.iter().enumerate().take(256) {
        // Initial step: mean absolute prediction error of the first few samples, halved.
        let tmp = State { c1: i32::from(coef.0), c2: i32::from(coef.1), delta: 0, s1: 0, s2: 0 };
        let mut sum = 0i64;
        let mut n = 0i64;
        for w in samples.windows(3).take(4) {
            let t = State { s1: i32::from(w[1]), s2: i32::from(w[0]), ..tmp };
            sum += (i64::from(w[2]) - i64::from(t.predict())).abs();
            n += 1;
        }
        let delta0 = if n == 0 { MIN_DELTA } else { ((sum / n) / 2).clamp(i64::from(MIN_DELTA), 32767) as i32 };
        let (d, codes, err) = encode_channel(samples, coef, delta0);
        if best.as_ref().is_none_or(|b| err < b.0) {
            best = Some((err, i as u8, d, codes));
        }
    }
    match best {
        Some((_, i, d, codes)) => (i, d, codes),
        None => (0, MIN_DELTA, Vec::new()),
    }
}

/// Encodes interleaved samples to MS ADPCM blocks. The sample count per channel is
/// padded with silence up to a whole block; store the true frame count in `fact`.
pub fn encode(samples: &[i16], p: &AdpcmParams) -> Result<Vec<u8>> {
    p.validate(0)?;
    let ch = usize::from(p.channels);
    if !samples.len().is_multiple_of(ch) {
        return Err(Error::invalid(0, "adpcm_interleave", format!("{} samples for {ch} channels", samples.len())));
    }
    let spb = usize::from(p.samples_per_block);
    let frames = samples.len() / ch;
    let blocks = frames.div_ceil(spb).max(1);
    let mut out = Vec::with_capacity(blocks * usize::from(p.block_align));
    let mut channel = vec![0i16; spb];
    for b in 0..blocks {
        let mut heads = Vec::with_capacity(ch);
        for c in 0..ch {
            for (f, slot) in channel.iter_mut().enumerate() {
                *slot = samples.get((b * spb + f) * ch + c).copied().unwrap_or(0);
            }
            let (pred, delta, codes) = best_channel(&channel, &p.coefs);
            heads.push((pred, delta, channel[1], channel[0], codes));
        }
        let start = out.len();
        out.extend(heads.iter().map(|h| h.0));
        for h in &heads {
            out.extend_from_slice(&(h.1 as i16).to_le_bytes());
        }
        for h in &heads {
            out.extend_from_slice(&h.2.to_le_bytes());
        }
        for h in &heads {
            out.extend_from_slice(&h.3.to_le_bytes());
        }
        let mut nibble = 0usize;
        for f in 0..spb - 2 {
            for h in &heads {
                let code = h.4.get(f).copied().unwrap_or(0);
                if nibble.is_multiple_of(2) {
                    out.push(code << 4);
                } else if let Some(last) = out.last_mut() {
                    *last |= code;
                }
                nibble += 1;
            }
        }
        out.resize(start + usize::from(p.block_align), 0);
    }
    Ok(out)
}
