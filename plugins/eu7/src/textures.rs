//! Scenery textures: the files a texture name may live in (`docs/reference/eu7.md` §8.4,
//! docs/reference/e3d.md "Coordinates and resolution"), decoding of the formats MaSzyna ships (DDS with
//! DXT1/DXT3/DXT5 or 32-bit BGRA, TGA raw or RLE, BMP 24/32-bit; PNG through Bevy's image
//! loader) into RGBA8, and [`TextureLibrary`]: one image per name, a magenta checker
//! fallback for names not found, one warning per missing name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageSamplerDescriptor, ImageType};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Extensions probed, in order (the formats decoded here, in the §8.4 probe order).
pub const EXTENSIONS: [&str; 4] = ["dds", "tga", "png", "bmp"];

/// Files tried for texture `name` (any extension dropped), de-duplicated, in order: for
/// every base folder, the name itself, then beside the model (`model_dir` + name), then
/// `textures/` + name unless it already starts with `dynamic/`, `textures/`, `scenery/`
/// or `models/`; each with the [`EXTENSIONS`], as given and lower-cased.
pub fn texture_candidates(bases: &[PathBuf], model_dir: &str, name: &str) -> Vec<PathBuf> {
    let name = name.replace('\\', "/");
    let stem = match name.rfind('.') {
        Some(dot) if !name[dot..].contains('/') => &name[..dot],
        _ => name.as_str(),
    };
    let lower = stem.to_ascii_lowercase();
    let rooted = ["dynamic/", "textures/", "scenery/", "models/"].iter().any(|p| lower.starts_with(p));
    let mut rels = vec![stem.to_string()];
    if !model_dir.is_empty() {
        rels.push(format!("{}/{stem}", model_dir.trim_end_matches('/')));
    }
    if !rooted {
        rels.push(format!("textures/{stem}"));
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for base in bases {
        for rel in &rels {
            for r in [rel.clone(), rel.to_ascii_lowercase()] {
                for ext in EXTENSIONS {
                    let p = base.join(format!("{r}.{ext}"));
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// A decoded picture: `width × height` RGBA8 pixels, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels.
    pub pixels: Vec<u8>,
}

impl Rgba {
    /// True if any pixel is not fully opaque.
    pub fn has_alpha(&self) -> bool {
        self.pixels.chunks_exact(4).any(|p| p[3] < 255)
    }
}

fn le16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?)))
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Decodes a TGA (types 2/3 raw and 10/11 RLE; 8, 24 or 32 bits per pixel).
pub fn decode_tga(b: &[u8]) -> Result<Rgba, String> {
    let bad = |what: &str| format!("TGA: {what}");
    let (id_len, cmap, kind) = (*b.first().ok_or_else(|| bad("empty"))?, b.get(1), b.get(2).copied());
    if cmap != Some(&0) {
        return Err(bad("colour-mapped images are not supported"));
    }
    let (w, h) = (le16(b, 12).ok_or_else(|| bad("short header"))?, le16(b, 14).ok_or_else(|| bad("short header"))?);
    let (bpp, desc) = (b.get(16).copied().unwrap_or(0), b.get(17).copied().unwrap_or(0));
    let px = usize::from(bpp / 8);
    let (rle, grey) = match kind {
        Some(2) => (false, false),
        Some(3) => (false, true),
        Some(10) => (true, false),
        Some(11) => (true, true),
        other => return Err(bad(&format!("image type {other:?} is not supported"))),
    };
    if !matches!((grey, px), (true, 1) | (false, 3 | 4)) {
        return Err(bad(&format!("{bpp} bits per pixel is not supported")));
    }
    let n = w as usize * h as usize;
    let mut data = b.get(18 + usize::from(id_len)..).ok_or_else(|| bad("short header"))?;
    let mut raw: Vec<u8> = Vec::with_capacity(n * px);
    if rle {
        while raw.len() < n * px {
            let (&head, rest) = data.split_first().ok_or_else(|| bad("RLE data ends early"))?;
            let count = usize::from(head & 0x7F) + 1;
            let take = if head & 0x80 != 0 { px } else { count * px };
            let chunk = rest.get(..take).ok_or_else(|| bad("RLE data ends early"))?;
            if head & 0x80 != 0 {
                (0..count).for_each(|_| raw.extend_from_slice(chunk));
            } else {
                raw.extend_from_slice(chunk);
            }
            data = &rest[take..];
        }
        raw.truncate(n * px);
    } else {
        raw.extend_from_slice(data.get(..n * px).ok_or_else(|| bad("pixel data ends early"))?);
    }
    let top_first = desc & 0x20 != 0;
    let mut pixels = vec![0u8; n * 4];
    for (i, p) in raw.chunks_exact(px).enumerate() {
        let (x, y) = (i % w as usize, i / w as usize);
        let row = if top_first { y } else { h as usize - 1 - y };
        let rgba = match px {
            1 => [p[0], p[0], p[0], 255],
            3 => [p[2], p[1], p[0], 255],
            _ => [p[2], p[1], p[0], p[3]],
        };
        pixels[(row * w as usize + x) * 4..][..4].copy_from_slice(&rgba);
    }
    Ok(Rgba { width: w, height: h, pixels })
}

/// Decodes an uncompressed 24- or 32-bit BMP (bottom-up or top-down).
pub fn decode_bmp(b: &[u8]) -> Result<Rgba, String> {
    let bad = |what: &str| format!("BMP: {what}");
    if b.get(..2) != Some(b"BM") {
        return Err(bad("no BM signature"));
    }
    let offset = le32(b, 10).ok_or_else(|| bad("short header"))? as usize;
    let w = le32(b, 18).ok_or_else(|| bad("short header"))?;
    let h_raw = le32(b, 22).ok_or_else(|| bad("short header"))? as i32;
    let bpp = le16(b, 28).ok_or_else(|| bad("short header"))?;
    let compression = le32(b, 30).unwrap_or(0);
    if !matches!((bpp, compression), (24, 0) | (32, 0 | 3)) {
        return Err(bad(&format!("{bpp} bits per pixel, compression {compression} is not supported")));
    }
    let (h, top_first) = (h_raw.unsigned_abs(), h_raw < 0);
    let px = bpp as usize / 8;
    let stride = (w as usize * px).div_ceil(4) * 4;
    let mut pixels = vec![0u8; w as usize * h as usize * 4];
    for y in 0..h as usize {
        let src = offset + y * stride;
        let line = b.get(src..src + w as usize * px).ok_or_else(|| bad("pixel data ends early"))?;
        let row = if top_first { y } else { h as usize - 1 - y };
        for (x, p) in line.chunks_exact(px).enumerate() {
            let a = if px == 4 { p[3] } else { 255 };
            pixels[(row * w as usize + x) * 4..][..4].copy_from_slice(&[p[2], p[1], p[0], a]);
        }
    }
    Ok(Rgba { width: w, height: h, pixels })
}

/// RGB565 → RGBA8.
fn rgb565(c: u16) -> [u8; 4] {
    let (r, g, b) = ((c >> 11) & 31, (c >> 5) & 63, c & 31);
    [((r * 527 + 23) >> 6) as u8, ((g * 259 + 33) >> 6) as u8, ((b * 527 + 23) >> 6) as u8, 255]
}

/// The four colours of a BC1 colour block (`three` = the 3-colour + transparent mode).
fn bc1_palette(c0: u16, c1: u16, three: bool) -> [[u8; 4]; 4] {
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix = |wa: u16, wb: u16, d: u16| -> [u8; 4] {
        std::array::from_fn(|k| if k == 3 { 255 } else { ((u16::from(a[k]) * wa + u16::from(b[k]) * wb) / d) as u8 })
    };
    if three { [a, b, mix(1, 1, 2), [0, 0, 0, 0]] } else { [a, b, mix(2, 1, 3), mix(1, 2, 3)] }
}

/// Decodes a DDS: DXT1, DXT3, DXT5 or uncompressed 32-bit BGRA (first mip level only).
pub fn decode_dds(b: &[u8]) -> Result<Rgba, String> {
    let bad = |what: &str| format!("DDS: {what}");
    if b.get(..4) != Some(b"DDS ") {
        return Err(bad("no DDS signature"));
    }
    let h = le32(b, 12).ok_or_else(|| bad("short header"))?;
    let w = le32(b, 16).ok_or_else(|| bad("short header"))?;
    let pf_flags = le32(b, 80).ok_or_else(|| bad("short header"))?;
    let four_cc = b.get(84..88).ok_or_else(|| bad("short header"))?;
    let data = b.get(128..).unwrap_or(&[]);
    let (wu, hu) = (w as usize, h as usize);
    let mut pixels = vec![0u8; wu * hu * 4];
    if pf_flags & 0x4 == 0 {
        if le32(b, 88) != Some(32) {
            return Err(bad("only 32-bit uncompressed pixels are supported"));
        }
        let src = data.get(..wu * hu * 4).ok_or_else(|| bad("pixel data ends early"))?;
        for (d, s) in pixels.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
            d.copy_from_slice(&[s[2], s[1], s[0], s[3]]);
        }
        return Ok(Rgba { width: w, height: h, pixels });
    }
    let block = match four_cc {
        b"DXT1" => 8,
        b"DXT3" | b"DXT5" => 16,
        other => return Err(bad(&format!("compression {} is not supported", String::from_utf8_lossy(other)))),
    };
    let (bw, bh) = (wu.div_ceil(4), hu.div_ceil(4));
    let blocks = data.get(..bw * bh * block).ok_or_else(|| bad("block data ends early"))?;
    for (i, blk) in blocks.chunks_exact(block).enumerate() {
        let (bx, by) = (i % bw * 4, i / bw * 4);
        let colour = &blk[block - 8..];
        let (c0, c1) = (u16::from_le_bytes([colour[0], colour[1]]), u16::from_le_bytes([colour[2], colour[3]]));
        let palette = bc1_palette(c0, c1, block == 8 && c0 <= c1);
        let bits = u32::from_le_bytes([colour[4], colour[5], colour[6], colour[7]]);
        let alpha: [u8; 16] = match four_cc {
            b"DXT3" => std::array::from_fn(|k| ((blk[k / 2] >> (4 * (k % 2))) & 15) * 17),
            b"DXT5" => {
                let (a0, a1) = (u16::from(blk[0]), u16::from(blk[1]));
                let idx = blk[2..8].iter().rev().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
                std::array::from_fn(|k| match ((idx >> (3 * k)) & 7) as u16 {
                    0 => a0 as u8,
                    1 => a1 as u8,
                    j if a0 > a1 => (((8 - j) * a0 + (j - 1) * a1) / 7) as u8,
                    6 => 0,
                    7 => 255,
                    j => (((6 - j) * a0 + (j - 1) * a1) / 5) as u8,
                })
            }
            _ => [255; 16],
        };
        for k in 0..16 {
            let (x, y) = (bx + k % 4, by + k / 4);
            if x < wu && y < hu {
                let mut p = palette[((bits >> (2 * k)) & 3) as usize];
                if block == 16 {
                    p[3] = alpha[k];
                }
                pixels[(y * wu + x) * 4..][..4].copy_from_slice(&p);
            }
        }
    }
    Ok(Rgba { width: w, height: h, pixels })
}

/// A Bevy image of `rgba` (sRGB, repeating).
pub fn rgba_image(rgba: Rgba) -> Image {
    let size = Extent3d { width: rgba.width.max(1), height: rgba.height.max(1), depth_or_array_layers: 1 };
    let mut image = Image::new(
        size,
        TextureDimension::D2,
        rgba.pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: bevy::image::ImageAddressMode::Repeat,
        address_mode_v: bevy::image::ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::linear()
    });
    image
}

/// Reads and decodes the texture file `path` (format by extension).
pub fn load_texture(path: &Path) -> Result<(Image, bool), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let located = |e: String| format!("{}: {e}", path.display());
    let rgba = match ext.as_str() {
        "tga" => decode_tga(&bytes).map_err(located)?,
        "bmp" => decode_bmp(&bytes).map_err(located)?,
        "dds" => decode_dds(&bytes).map_err(located)?,
        _ => {
            let image = Image::from_buffer(
                &bytes,
                ImageType::Extension(&ext),
                CompressedImageFormats::NONE,
                true,
                ImageSampler::Default,
                RenderAssetUsages::default(),
            )
            .map_err(|e| located(e.to_string()))?;
            let rgba = image.clone().try_into_dynamic().map_err(|e| located(e.to_string()))?.into_rgba8();
            Rgba { width: rgba.width(), height: rgba.height(), pixels: rgba.into_raw() }
        }
    };
    let alpha = rgba.has_alpha();
    Ok((rgba_image(rgba), alpha))
}

/// The fallback: an 8 × 8 magenta and black checker.
pub fn fallback_rgba() -> Rgba {
    let pixels =
        (0..64).flat_map(|i| if (i % 8 + i / 8) % 2 == 0 { [255, 0, 255, 255] } else { [0, 0, 0, 255] }).collect();
    Rgba { width: 8, height: 8, pixels }
}

/// A loaded texture: the image and whether it has transparent pixels.
#[derive(Debug, Clone)]
pub struct LoadedTexture {
    /// The image.
    pub image: Handle<Image>,
    /// Any pixel with alpha below 255.
    pub alpha: bool,
    /// False for the fallback.
    pub found: bool,
}

/// Textures by name (as written in the data, `\` and case kept), their fallback, and the
/// names reported missing.
#[derive(Resource, Default)]
pub struct TextureLibrary {
    /// Folders names are resolved against (the scenery's folder and its parent).
    pub bases: Vec<PathBuf>,
    loaded: BTreeMap<(String, String), LoadedTexture>,
    fallback: Option<Handle<Image>>,
    /// Names with no file, each warned about once.
    pub missing: BTreeSet<String>,
}

impl TextureLibrary {
    /// A library resolving names against `bases`.
    pub fn new(bases: Vec<PathBuf>) -> Self {
        Self { bases, ..Self::default() }
    }

    /// The texture `name` used by a model in `model_dir` (empty for terrain and shapes):
    /// loaded once; the fallback, with one warning per name, when no file decodes.
    pub fn get(&mut self, name: &str, model_dir: &str, images: &mut Assets<Image>) -> LoadedTexture {
        let key = (name.to_string(), model_dir.to_string());
        if let Some(t) = self.loaded.get(&key) {
            return t.clone();
        }
        let mut failure = None;
        let found = texture_candidates(&self.bases, model_dir, name)
            .into_iter()
            .filter(|p| p.is_file())
            .find_map(|p| load_texture(&p).map_err(|e| failure = Some(e)).ok());
        let t = match found {
            Some((image, alpha)) => LoadedTexture { image: images.add(image), alpha, found: true },
            None => {
                if self.missing.insert(name.to_string()) {
                    warn!("texture {name}: {}", failure.unwrap_or_else(|| "no file found".to_string()));
                }
                let image = self.fallback.get_or_insert_with(|| images.add(rgba_image(fallback_rgba()))).clone();
                LoadedTexture { image, alpha: false, found: false }
            }
        };
        self.loaded.insert(key, t.clone());
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tga(w: u16, h: u16, top_first: bool, pixels: &[[u8; 4]]) -> Vec<u8> {
        let mut b = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        b.extend(w.to_le_bytes());
        b.extend(h.to_le_bytes());
        b.extend([32, if top_first { 0x28 } else { 8 }]);
        pixels.iter().for_each(|p| b.extend([p[2], p[1], p[0], p[3]]));
        b
    }

    #[test]
    fn candidates_follow_the_lookup_order() {
        let c = texture_candidates(&[PathBuf::from("/s")], "models/gen", "Gen\\T1.dds");
        let first: Vec<_> = c.iter().take(5).map(|p| p.display().to_string()).collect();
        assert_eq!(first, ["/s/Gen/T1.dds", "/s/Gen/T1.tga", "/s/Gen/T1.png", "/s/Gen/T1.bmp", "/s/gen/t1.dds"]);
        assert!(c.contains(&PathBuf::from("/s/models/gen/Gen/T1.tga")));
        assert_eq!(c.last(), Some(&PathBuf::from("/s/textures/gen/t1.bmp")));
        let rooted = texture_candidates(&[PathBuf::from("/s")], "", "textures/a");
        assert!(rooted.iter().all(|p| !p.starts_with("/s/textures/textures")));
    }

    #[test]
    fn tga_rle_bmp_and_dxt1_decode() {
        let px = [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 255], [9, 9, 9, 255]];
        let bottom_up = decode_tga(&tga(2, 2, false, &px)).unwrap();
        assert_eq!(&bottom_up.pixels[..4], &[0, 0, 255, 255], "the last stored row is the top");
        assert!(bottom_up.has_alpha());
        let top = decode_tga(&tga(2, 2, true, &px)).unwrap();
        assert_eq!(&top.pixels[4..8], &[0, 255, 0, 128]);
        // RLE: one run of 4 red pixels, 24 bpp, top-first.
        let mut rle = vec![0u8, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0x20];
        rle.extend([0x83, 0, 0, 255]);
        assert_eq!(decode_tga(&rle).unwrap().pixels, [255, 0, 0, 255].repeat(4));
        // BMP 1 × 2, 24 bits, bottom-up, rows padded to 4 bytes.
        let mut bmp = b"BM".to_vec();
        bmp.extend([0u8; 8]);
        bmp.extend(54u32.to_le_bytes());
        bmp.extend(40u32.to_le_bytes());
        bmp.extend(1u32.to_le_bytes());
        bmp.extend(2u32.to_le_bytes());
        bmp.extend(1u16.to_le_bytes());
        bmp.extend(24u16.to_le_bytes());
        bmp.extend([0u8; 24]);
        bmp.extend([255, 0, 0, 0, 0, 255, 0, 0]);
        assert_eq!(decode_bmp(&bmp).unwrap().pixels, [0, 255, 0, 255, 0, 0, 255, 255]);
        // DXT1 4 × 4: colour 0 white, colour 1 black, every index 1 → black.
        let mut dds = b"DDS ".to_vec();
        dds.resize(128, 0);
        dds[12..16].copy_from_slice(&4u32.to_le_bytes());
        dds[16..20].copy_from_slice(&4u32.to_le_bytes());
        dds[80..84].copy_from_slice(&4u32.to_le_bytes());
        dds[84..88].copy_from_slice(b"DXT1");
        dds.extend([0xFF, 0xFF, 0, 0, 0x55, 0x55, 0x55, 0x55]);
        assert_eq!(decode_dds(&dds).unwrap().pixels, [0, 0, 0, 255].repeat(16));
        assert!(decode_tga(&[0, 1, 1]).unwrap_err().contains("colour-mapped"));
        assert!(decode_dds(&dds[..130]).unwrap_err().contains("ends early"));
    }

    #[test]
    fn lookup_finds_files_and_falls_back_once_per_name() {
        let dir = std::env::temp_dir().join(format!("iron3d_eu7_tex_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("textures/gen")).unwrap();
        std::fs::write(dir.join("textures/gen/a.tga"), tga(1, 1, true, &[[1, 2, 3, 255]])).unwrap();
        let mut images = Assets::<Image>::default();
        let mut lib = TextureLibrary::new(vec![dir.clone()]);
        let a = lib.get("gen/A.dds", "", &mut images);
        assert!(a.found && !a.alpha);
        assert_eq!(images.get(&a.image).and_then(|i| i.data.clone()), Some(vec![1, 2, 3, 255]));
        let m1 = lib.get("gen/missing", "", &mut images);
        let m2 = lib.get("other/missing", "models/x", &mut images);
        assert!(!m1.found && m1.image == m2.image, "one shared fallback");
        assert_eq!(images.get(&m1.image).map(|i| i.width()), Some(8));
        lib.get("gen/missing", "", &mut images);
        assert_eq!(lib.missing.len(), 2, "each missing name once");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
