//! Pixel conversion between the Texm formats and RGBA8. Short channels widen by bit
//! replication (`docs/reference/models.md` §4.2); encoding rounds to the nearest representable value.

use super::{PALETTE_SIZE, PixelFormat};
use crate::error::{Error, Result};

/// Byte order of format 8888 in memory (`docs/reference/models.md` §4.2, **disputed**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order8888 {
    /// Reading A: D3D `A8R8G8B8`, memory B, G, R, A (recommended).
    #[default]
    Bgra,
    /// Reading B: memory A, R, G, B (the Rust reference).
    Argb,
}

/// Byte order of format 88 (code-only, **disputed**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LumAlphaOrder {
    /// Reading A: D3D `A8L8`, L = byte 0, A = byte 1 (recommended).
    #[default]
    LumFirst,
    /// Reading B: A = byte 0, L = byte 1.
    AlphaFirst,
}

/// Switches for the disputed channel orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeOptions {
    /// 8888 order.
    pub order8888: Order8888,
    /// 88 order.
    pub order88: LumAlphaOrder,
}

fn w5(v: u16) -> u8 {
    let v = (v & 31) as u8;
    (v << 3) | (v >> 2)
}
fn w6(v: u16) -> u8 {
    let v = (v & 63) as u8;
    (v << 2) | (v >> 4)
}
fn w4(v: u16) -> u8 {
    (v & 15) as u8 * 17
}
fn n(v: u8, max: u16) -> u16 {
    (u16::from(v) * max + 127) / 255
}

fn wrong_size(format: PixelFormat, len: usize) -> Error {
    Error::invalid(0, "texm_pixel_bytes", format!("{len} bytes is not a whole number of {format:?} pixels"))
}

/// Decodes pixels of `format` to RGBA8. Format 0 needs the 1024-byte palette (read as
/// R, G, B, A as both public decoders do; the on-disk order is not proven).
pub fn decode_pixels(
    format: PixelFormat,
    data: &[u8],
    palette: Option<&[u8]>,
    options: DecodeOptions,
) -> Result<Vec<u8>> {
    let bpp = format.bytes_per_pixel();
    if !data.len().is_multiple_of(bpp) {
        return Err(wrong_size(format, data.len()));
    }
    let mut out = Vec::with_capacity(data.len() / bpp * 4);
    let word = |p: &[u8]| u16::from_le_bytes([p[0], p[1]]);
    match format {
        PixelFormat::Indexed => {
            let pal = palette
                .filter(|p| p.len() == PALETTE_SIZE)
                .ok_or_else(|| Error::invalid(0, "texm_palette", "indexed texture without a 1024-byte palette"))?;
            for &i in data {
                let at = usize::from(i) * 4;
                out.extend_from_slice(&pal[at..at + 4]);
            }
        }
        PixelFormat::Rgb565 => {
            data.chunks_exact(2).map(word).for_each(|v| out.extend_from_slice(&[w5(v >> 11), w6(v >> 5), w5(v), 255]))
        }
        PixelFormat::Rgb556 => {
            data.chunks_exact(2).map(word).for_each(|v| out.extend_from_slice(&[w5(v >> 11), w5(v >> 6), w6(v), 255]))
        }
        PixelFormat::Argb4444 => data
            .chunks_exact(2)
            .map(word)
            .for_each(|v| out.extend_from_slice(&[w4(v >> 8), w4(v >> 4), w4(v), w4(v >> 12)])),
        PixelFormat::LumAlpha88 => {
            for p in data.chunks_exact(2) {
                let (l, a) = match options.order88 {
                    LumAlphaOrder::LumFirst => (p[0], p[1]),
                    LumAlphaOrder::AlphaFirst => (p[1], p[0]),
                };
                out.extend_from_slice(&[l, l, l, a]);
            }
        }
        PixelFormat::Rgb888 => data.chunks_exact(4).for_each(|p| out.extend_from_slice(&[p[0], p[1], p[2], 255])),
        PixelFormat::Argb8888 => match options.order8888 {
            Order8888::Bgra => data.chunks_exact(4).for_each(|p| out.extend_from_slice(&[p[2], p[1], p[0], p[3]])),
            Order8888::Argb => data.chunks_exact(4).for_each(|p| out.extend_from_slice(&[p[1], p[2], p[3], p[0]])),
        },
    }
    Ok(out)
}

fn nearest(pal: &[u8], px: &[u8]) -> u8 {
    let mut best = (u32::MAX, 0u8);
    for (i, e) in pal.chunks_exact(4).enumerate() {
        let d: u32 = (0..4).map(|k| (i32::from(e[k]) - i32::from(px[k])).unsigned_abs().pow(2)).sum();
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

/// Encodes RGBA8 pixels to `format` (format 0 picks the nearest palette entry).
pub fn encode_pixels(
    format: PixelFormat,
    rgba: &[u8],
    palette: Option<&[u8]>,
    options: DecodeOptions,
) -> Result<Vec<u8>> {
    if !rgba.len().is_multiple_of(4) {
        return Err(Error::invalid(0, "texm_pixel_bytes", "RGBA8 input is not a whole number of pixels"));
    }
    let mut out = Vec::with_capacity(rgba.len() / 4 * format.bytes_per_pixel());
    let put = |out: &mut Vec<u8>, v: u16| out.extend_from_slice(&v.to_le_bytes());
    for p in rgba.chunks_exact(4) {
        let (r, g, b, a) = (p[0], p[1], p[2], p[3]);
        match format {
            PixelFormat::Indexed => {
                let pal = palette
                    .filter(|p| p.len() == PALETTE_SIZE)
                    .ok_or_else(|| Error::invalid(0, "texm_palette", "indexed texture without a 1024-byte palette"))?;
                out.push(nearest(pal, p));
            }
            PixelFormat::Rgb565 => put(&mut out, n(r, 31) << 11 | n(g, 63) << 5 | n(b, 31)),
            PixelFormat::Rgb556 => put(&mut out, n(r, 31) << 11 | n(g, 31) << 6 | n(b, 63)),
            PixelFormat::Argb4444 => put(&mut out, n(a, 15) << 12 | n(r, 15) << 8 | n(g, 15) << 4 | n(b, 15)),
            PixelFormat::LumAlpha88 => {
                let l = ((u32::from(r) * 77 + u32::from(g) * 150 + u32::from(b) * 29 + 128) >> 8) as u8;
                out.extend_from_slice(&match options.order88 {
                    LumAlphaOrder::LumFirst => [l, a],
                    LumAlphaOrder::AlphaFirst => [a, l],
                });
            }
            PixelFormat::Rgb888 => out.extend_from_slice(&[r, g, b, 0]),
            PixelFormat::Argb8888 => out.extend_from_slice(&match options.order8888 {
                Order8888::Bgra => [b, g, r, a],
                Order8888::Argb => [a, r, g, b],
            }),
        }
    }
    Ok(out)
}

/// RGBA8 mip chain by 2×2 box filtering (edge pixels repeat for odd sizes), `count`
/// levels starting with `rgba` itself.
pub fn build_mips(rgba: &[u8], width: u32, height: u32, count: u32) -> Vec<Vec<u8>> {
    let mut out = vec![rgba.to_vec()];
    let (mut w, mut h) = (width.max(1) as usize, height.max(1) as usize);
    for _ in 1..count {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let Some(prev) = out.last() else { break };
        let mut next = vec![0u8; nw * nh * 4];
        for y in 0..nh {
            for x in 0..nw {
                for k in 0..4 {
                    let mut sum = 0u32;
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let sx = (x * 2 + dx).min(w - 1);
                        let sy = (y * 2 + dy).min(h - 1);
                        sum += u32::from(prev.get((sy * w + sx) * 4 + k).copied().unwrap_or(0));
                    }
                    next[(y * nw + x) * 4 + k] = ((sum + 2) / 4) as u8;
                }
            }
        }
        out.push(next);
        (w, h) = (nw, nh);
    }
    out
}
