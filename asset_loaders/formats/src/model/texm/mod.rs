//! Texm textures (`docs/reference/models.md` §4): 32-byte header, optional 1024-byte palette,
//! mip levels, optional `Page` atlas chunk; every pixel format decoded to RGBA8 and
//! encoded back for authoring; the loader's mip-skip policy. Lightmaps in
//! `LightMap.lib` are ordinary Texm entries (565, one mip in the demo).

mod codec;

pub use codec::{DecodeOptions, LumAlphaOrder, Order8888, build_mips, decode_pixels, encode_pixels};

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::model::Put;

/// Magic `Texm`.
pub const MAGIC: u32 = 0x6D78_6554;
/// Magic of the atlas chunk, `Page`.
pub const PAGE_MAGIC: u32 = 0x6567_6150;
/// Palette size of format 0.
pub const PALETTE_SIZE: usize = 1024;

/// Pixel formats (decimal codes; `docs/reference/models.md` §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PixelFormat {
    /// 0: 8-bit index into the 256-entry palette (corpus).
    Indexed,
    /// 565: R5 G6 B5 (corpus).
    Rgb565,
    /// 556: R5 G5 B6 (code-only).
    Rgb556,
    /// 4444: A4 R4 G4 B4 (corpus).
    Argb4444,
    /// 88: luminance + alpha (code-only; byte order disputed).
    LumAlpha88,
    /// 888: R, G, B, X in 4 bytes (corpus; order unverified).
    Rgb888,
    /// 8888: ARGB in 4 bytes (corpus; byte order disputed).
    Argb8888,
}

impl PixelFormat {
    /// Every format.
    pub const ALL: [PixelFormat; 7] =
        [Self::Indexed, Self::Rgb565, Self::Rgb556, Self::Argb4444, Self::LumAlpha88, Self::Rgb888, Self::Argb8888];

    /// The format of a header code.
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.code() == code)
    }

    /// The header code.
    pub fn code(self) -> u32 {
        match self {
            Self::Indexed => 0,
            Self::Rgb565 => 565,
            Self::Rgb556 => 556,
            Self::Argb4444 => 4444,
            Self::LumAlpha88 => 88,
            Self::Rgb888 => 888,
            Self::Argb8888 => 8888,
        }
    }

    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            Self::Indexed => 1,
            Self::Rgb565 | Self::Rgb556 | Self::Argb4444 | Self::LumAlpha88 => 2,
            Self::Rgb888 | Self::Argb8888 => 4,
        }
    }
}

/// The 32-byte header; every word raw (confirmed layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TexmHeader {
    /// `+0x04` width (> 0).
    pub width: u32,
    /// `+0x08` height (> 0).
    pub height: u32,
    /// `+0x0C` mip level count (> 0).
    pub mip_count: u32,
    /// `+0x10` opaque flags (32 in most `Textures.lib` entries).
    pub flags4: u32,
    /// `+0x14` mip-skip policy bits (§4.5), otherwise opaque.
    pub flags5: u32,
    /// `+0x18` opaque.
    pub unknown6: u32,
    /// `+0x1C` format code.
    pub format: u32,
}

/// One `Page` rectangle in pixels of the full-size base level (stored order x, w, y, h).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRect {
    /// Left.
    pub x: i16,
    /// Width.
    pub w: i16,
    /// Top.
    pub y: i16,
    /// Height.
    pub h: i16,
}

/// A parsed texture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texm {
    /// Header.
    pub header: TexmHeader,
    /// 256 × 4 palette bytes (format 0 only).
    pub palette: Option<Vec<u8>>,
    /// Raw pixel bytes of each mip level.
    pub mips: Vec<Vec<u8>>,
    /// `Page` rectangles when the chunk is present.
    pub page: Option<Vec<PageRect>>,
}

/// Dimensions of mip level `i`: `max(1, w >> i) × max(1, h >> i)`.
pub fn level_dims(width: u32, height: u32, level: u32) -> (u32, u32) {
    let shift = |v: u32| v.checked_shr(level).unwrap_or(0).max(1);
    (shift(width), shift(height))
}

/// Mip levels the loader skips (`docs/reference/models.md` §4.5); apply at load time only.
pub fn mip_skip(flags5: u32, w: u32, h: u32, mips: u32) -> u32 {
    if mips <= 1 {
        return 0;
    }
    let two = if mips > 2 { 2 } else { 1 };
    match flags5 & 0x7200_0000 {
        0x0200_0000 => two,
        0x1000_0000 => 1,
        0x2000_0000 => u32::from(w >= 256 || h >= 256),
        0x4000_0000 if w > 128 && h > 128 => two,
        0x4000_0000 if w == 128 || h == 128 => 1,
        _ => 0,
    }
}

impl Texm {
    /// Parses a Texm payload (the whole entry must be consumed).
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(bytes);
        let magic = c.u32()?;
        if magic != MAGIC {
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "Texm", found: magic.to_le_bytes().to_vec() }));
        }
        let header = TexmHeader {
            width: c.u32()?,
            height: c.u32()?,
            mip_count: c.u32()?,
            flags4: c.u32()?,
            flags5: c.u32()?,
            unknown6: c.u32()?,
            format: c.u32()?,
        };
        if header.width == 0 || header.height == 0 || header.mip_count == 0 {
            return Err(Error::invalid(4, "texm_dimensions", format!("{header:?}")));
        }
        let format = header_format(&header)?;
        let palette = if format == PixelFormat::Indexed { Some(c.take(PALETTE_SIZE)?.to_vec()) } else { None };
        let bpp = format.bytes_per_pixel() as u64;
        // every level has at least one pixel: bound the level count before looping
        c.check_count(u64::from(header.mip_count), bpp, "mip levels")?;
        let mut mips = Vec::with_capacity(header.mip_count as usize);
        for level in 0..header.mip_count {
            let (w, h) = level_dims(header.width, header.height, level);
            let n = c.check_count(u64::from(w) * u64::from(h), bpp, "mip level")?;
            mips.push(c.take(n)?.to_vec());
        }
        let page = if c.is_empty() { None } else { Some(parse_page(&mut c)?) };
        Ok(Self { header, palette, mips, page })
    }

    /// The pixel format.
    pub fn format(&self) -> Result<PixelFormat> {
        header_format(&self.header)
    }

    /// Serialises the texture (byte-identical for a parsed one).
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = Vec::new();
        for w in [MAGIC, h.width, h.height, h.mip_count, h.flags4, h.flags5, h.unknown6, h.format] {
            out.put_u32(w);
        }
        self.palette.iter().for_each(|p| out.extend_from_slice(p));
        self.mips.iter().for_each(|m| out.extend_from_slice(m));
        if let Some(rects) = &self.page {
            out.put_u32(PAGE_MAGIC);
            out.put_u32(rects.len() as u32);
            for r in rects {
                for v in [r.x, r.w, r.y, r.h] {
                    out.put_u16(v as u16);
                }
            }
        }
        out
    }

    /// Mip levels skipped at load by the header's policy.
    pub fn mip_skip(&self) -> u32 {
        mip_skip(self.header.flags5, self.header.width, self.header.height, self.header.mip_count)
    }

    /// Dimensions of level `i`.
    pub fn level_dims(&self, level: u32) -> (u32, u32) {
        level_dims(self.header.width, self.header.height, level)
    }

    /// Decodes mip level `level` to RGBA8.
    pub fn decode_level(&self, level: usize, options: DecodeOptions) -> Result<Vec<u8>> {
        let data = self
            .mips
            .get(level)
            .ok_or_else(|| Error::new(ErrorKind::NotFound(format!("mip level {level} of {}", self.mips.len()))))?;
        decode_pixels(self.format()?, data, self.palette.as_deref(), options)
    }

    /// Atlas UV rectangles `[u0, v0, du, dv]`: the implicit full rectangle 0 first,
    /// then each `Page` rectangle relative to the original dimensions.
    pub fn page_uvs(&self) -> Vec<[f32; 4]> {
        let (w, h) = (self.header.width as f32, self.header.height as f32);
        let mut out = vec![[0.0, 0.0, 1.0, 1.0]];
        for r in self.page.iter().flatten() {
            out.push([f32::from(r.x) / w, f32::from(r.y) / h, f32::from(r.w) / w, f32::from(r.h) / h]);
        }
        out
    }

    /// Authoring: a texture of `format` from RGBA8 levels (level `i` must have the
    /// dimensions of [`level_dims`]). Indexed textures need `palette` (RGBA order);
    /// 888 writes 0 as the 4th byte.
    pub fn encode(
        width: u32,
        height: u32,
        format: PixelFormat,
        levels: &[Vec<u8>],
        palette: Option<&[u8]>,
        options: DecodeOptions,
    ) -> Result<Self> {
        if width == 0 || height == 0 || levels.is_empty() {
            return Err(Error::invalid(0, "texm_dimensions", "empty texture"));
        }
        let mut mips = Vec::with_capacity(levels.len());
        for (i, rgba) in levels.iter().enumerate() {
            let (w, h) = level_dims(width, height, i as u32);
            if rgba.len() as u64 != u64::from(w) * u64::from(h) * 4 {
                return Err(Error::invalid(
                    0,
                    "texm_level_size",
                    format!("level {i}: {} bytes for {w}x{h}", rgba.len()),
                ));
            }
            mips.push(encode_pixels(format, rgba, palette, options)?);
        }
        let palette = match format {
            PixelFormat::Indexed => Some(palette.map(<[u8]>::to_vec).unwrap_or_default()),
            _ => None,
        };
        let header = TexmHeader {
            width,
            height,
            mip_count: levels.len() as u32,
            flags4: 0,
            flags5: 0,
            unknown6: 0,
            format: format.code(),
        };
        Ok(Self { header, palette, mips, page: None })
    }
}

fn header_format(header: &TexmHeader) -> Result<PixelFormat> {
    PixelFormat::from_code(header.format)
        .ok_or_else(|| Error::at(0x1C, ErrorKind::Unsupported(format!("Texm pixel format {}", header.format))))
}

fn parse_page(c: &mut Cursor<'_>) -> Result<Vec<PageRect>> {
    let at = c.offset();
    let magic = c.u32()?;
    if magic != PAGE_MAGIC {
        return Err(Error::invalid(at, "texm_tail", "bytes after the mip levels are not a Page chunk"));
    }
    let count = c.u32()?;
    c.check_count(u64::from(count), 8, "page rectangles")?;
    let rects = (0..count)
        .map(|_| Ok(PageRect { x: c.i16()?, w: c.i16()?, y: c.i16()?, h: c.i16()? }))
        .collect::<Result<Vec<_>>>()?;
    c.expect_end("Page chunk")?;
    Ok(rects)
}

#[cfg(test)]
mod tests;
