//! Procedural textures (`Textures.lib`), lightmaps (`LightMap.lib`) and the palette bank
//! (`palettes.lib`). Every texture is drawn from the seeded `textures/<name>` stream
//! with integer-friendly value noise, then encoded in one of several Texm pixel
//! formats with a full mip chain.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::model::palette::Palette;
use iron3d_formats::model::texm::{DecodeOptions, MAGIC, PixelFormat, Texm, build_mips};
use iron3d_formats::nres::NresWriter;
use iron3d_formats::rng::SplitMix64;

/// The pattern of a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Riveted metal panels.
    Panels,
    /// Blotchy camouflage.
    Camo,
    /// Tracks and treads.
    Treads,
    /// Concrete slabs.
    Concrete,
    /// Rock.
    Rock,
    /// Bark stripes.
    Bark,
    /// Leaves with transparent gaps.
    Leaves,
    /// Crystal facets.
    Crystal,
    /// Glowing lamp panel.
    Glow,
    /// Ground cover (terrain).
    Ground,
    /// Ground cover in ragged patches over transparent gaps (terrain overlays).
    Patches,
    /// Trodden earth: dense, thinning out in places (terrain overlays).
    Trodden,
    /// Water ripples.
    Water,
    /// Yellow-black hazard stripes.
    Hazard,
    /// A wavering vertical streak on transparency (rain, lightning).
    Streak,
    /// A soft round flake on transparency (snow).
    Flake,
}

/// One texture of `Textures.lib`.
#[derive(Debug, Clone, Copy)]
pub struct TextureSpec {
    /// Entry name (with the `.` the engine requires; the letter after it picks a palette).
    pub name: &'static str,
    /// Pattern.
    pub pattern: Pattern,
    /// Base colour.
    pub rgb: [u8; 3],
    /// Side in pixels.
    pub size: u32,
    /// Pixel format.
    pub format: PixelFormat,
}

const fn t(name: &'static str, pattern: Pattern, rgb: [u8; 3], size: u32, format: PixelFormat) -> TextureSpec {
    TextureSpec { name, pattern, rgb, size, format }
}

/// Every texture.
pub const TEXTURES: &[TextureSpec] = &[
    t("PANEL.0", Pattern::Panels, [150, 156, 160], 64, PixelFormat::Argb8888),
    t("PANEL2.0", Pattern::Panels, [88, 92, 98], 64, PixelFormat::Rgb565),
    t("CAMO.A", Pattern::Camo, [86, 110, 62], 64, PixelFormat::Indexed),
    t("DESERT.0", Pattern::Camo, [176, 150, 98], 64, PixelFormat::Argb4444),
    t("TRACK.0", Pattern::Treads, [52, 50, 48], 32, PixelFormat::Rgb565),
    t("HAZARD.0", Pattern::Hazard, [220, 180, 30], 32, PixelFormat::Argb4444),
    t("GLOW1.0", Pattern::Glow, [90, 200, 255], 32, PixelFormat::Rgb565),
    t("GLOW2.0", Pattern::Glow, [255, 140, 40], 32, PixelFormat::Rgb565),
    t("CONCRETE.0", Pattern::Concrete, [150, 146, 138], 64, PixelFormat::Rgb565),
    t("ROOF.0", Pattern::Panels, [120, 60, 48], 64, PixelFormat::Rgb888),
    t("ROCK.0", Pattern::Rock, [120, 112, 100], 64, PixelFormat::Rgb565),
    t("BARK.0", Pattern::Bark, [96, 70, 44], 32, PixelFormat::Rgb565),
    t("LEAVES.0", Pattern::Leaves, [60, 120, 40], 64, PixelFormat::Argb4444),
    t("CRYSTAL.0", Pattern::Crystal, [120, 220, 200], 32, PixelFormat::Argb8888),
    t("GRASS.0", Pattern::Ground, [84, 124, 56], 64, PixelFormat::Rgb565),
    t("DIRT.0", Pattern::Ground, [120, 96, 66], 64, PixelFormat::Rgb565),
    t("LROCK.0", Pattern::Rock, [128, 124, 118], 64, PixelFormat::Rgb565),
    t("SAND.0", Pattern::Ground, [196, 178, 130], 64, PixelFormat::Rgb565),
    t("SHORE.0", Pattern::Patches, [204, 186, 140], 64, PixelFormat::Argb4444),
    t("TRACK_DIRT.0", Pattern::Trodden, [74, 60, 46], 64, PixelFormat::Argb4444),
    t("SCORCH.0", Pattern::Patches, [48, 42, 38], 64, PixelFormat::Argb8888),
    t("WATER1.0", Pattern::Water, [40, 90, 140], 64, PixelFormat::Rgb565),
    t("WATER2.0", Pattern::Water, [50, 110, 160], 64, PixelFormat::Rgb565),
    // Weather (`sky.wea`).
    t("RAIN.0", Pattern::Streak, [170, 190, 210], 16, PixelFormat::Argb4444),
    t("SNOW.0", Pattern::Flake, [245, 248, 255], 16, PixelFormat::Argb4444),
    t("LIGHTNING.0", Pattern::Streak, [200, 220, 255], 32, PixelFormat::Argb8888),
    // Combat effects: a soft flare and a smoke puff.
    t("FX_FLARE.0", Pattern::Flake, [255, 214, 150], 32, PixelFormat::Argb8888),
    t("FX_SMOKE.0", Pattern::Flake, [128, 124, 120], 32, PixelFormat::Argb8888),
];

/// Smooth periodic value noise on a `cells x cells` lattice (tileable).
struct Noise {
    cells: usize,
    lattice: Vec<f32>,
}

impl Noise {
    fn new(rng: &mut SplitMix64, cells: usize) -> Self {
        Self { cells, lattice: (0..cells * cells).map(|_| rng.unit()).collect() }
    }

    /// `u, v` in `[0, 1)`.
    fn at(&self, u: f32, v: f32) -> f32 {
        let n = self.cells;
        let (fx, fy) = (u * n as f32, v * n as f32);
        let (ix, iy) = (fx as usize % n, fy as usize % n);
        let s = |t: f32| t * t * (3.0 - 2.0 * t);
        let (tx, ty) = (s(fx - fx.floor()), s(fy - fy.floor()));
        let g = |x: usize, y: usize| self.lattice[(y % n) * n + x % n];
        let top = g(ix, iy) + (g(ix + 1, iy) - g(ix, iy)) * tx;
        let bottom = g(ix, iy + 1) + (g(ix + 1, iy + 1) - g(ix, iy + 1)) * tx;
        top + (bottom - top) * ty
    }
}

fn shade(rgb: [u8; 3], k: f32) -> [u8; 3] {
    rgb.map(|c| (f32::from(c) * k).clamp(0.0, 255.0) as u8)
}

/// RGBA8 pixels of a texture.
pub fn pixels(spec: &TextureSpec, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::stream(seed, &format!("textures/{}", spec.name));
    let coarse = Noise::new(&mut rng, 4);
    let fine = Noise::new(&mut rng, 16);
    let n = spec.size as usize;
    let mut out = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let (u, v) = (x as f32 / n as f32, y as f32 / n as f32);
            let (c, f) = (coarse.at(u, v), fine.at(u, v));
            let grain = 0.85 + 0.3 * f;
            let (k, alpha, tint): (f32, u8, Option<[u8; 3]>) = match spec.pattern {
                Pattern::Panels => {
                    let (px, py) = (x % (n / 2), y % (n / 4));
                    let seam = px == 0 || py == 0;
                    let rivet = (px == 3 || px == n / 2 - 4) && (py == 3 || py == n / 4 - 4);
                    let k = if seam {
                        0.55
                    } else if rivet {
                        1.3
                    } else {
                        0.9 + 0.15 * c + 0.05 * f
                    };
                    (k, 255, None)
                }
                Pattern::Camo => {
                    let b = c * 0.7 + f * 0.3;
                    let k = if b < 0.35 {
                        0.55
                    } else if b < 0.6 {
                        1.0
                    } else {
                        1.25
                    };
                    (k * (0.95 + 0.1 * f), 255, None)
                }
                Pattern::Treads => (if y % 8 < 3 { 0.6 } else { 1.1 } * grain, 255, None),
                Pattern::Hazard => {
                    let stripe = (x + y) % 16 < 8;
                    (grain, 255, (!stripe).then_some([30, 30, 30]))
                }
                Pattern::Concrete => {
                    let seam = x % 32 == 0 || y % 32 == 0;
                    (if seam { 0.7 } else { 0.85 + 0.25 * c } * (0.92 + 0.16 * f), 255, None)
                }
                Pattern::Rock => {
                    let crack = (f - 0.5).abs() < 0.03;
                    (if crack { 0.55 } else { 0.7 + 0.5 * c * f + 0.2 * f }, 255, None)
                }
                Pattern::Bark => (0.7 + 0.4 * fine.at(u * 0.25, v * 4.0 % 1.0) * grain, 255, None),
                Pattern::Leaves => {
                    let hole = f < 0.3;
                    (0.7 + 0.6 * c, if hole { 0 } else { 255 }, None)
                }
                Pattern::Crystal => (0.7 + 0.5 * ((u + v * 0.5) % 0.25) * 4.0 * (0.8 + 0.2 * f), 220, None),
                Pattern::Glow => {
                    let (dx, dy) = (u - 0.5, v - 0.5);
                    (1.3 - 1.6 * (dx * dx + dy * dy).sqrt(), 255, None)
                }
                Pattern::Ground => (0.8 + 0.3 * c + 0.15 * f, 255, None),
                Pattern::Patches => {
                    let cover = ((c * 0.55 + f * 0.45 - 0.36) * 5.0).clamp(0.0, 1.0);
                    (0.75 + 0.2 * c + 0.2 * f, (cover * 235.0) as u8, None)
                }
                Pattern::Trodden => {
                    let cover = ((c * 0.4 + f * 0.6 - 0.25) * 5.0).clamp(0.0, 1.0);
                    (0.8 + 0.3 * f, (cover * 235.0) as u8, None)
                }
                Pattern::Water => (0.85 + 0.3 * fine.at(u, (v + 0.3 * c) % 1.0), 200, None),
                Pattern::Streak => {
                    let d = (u - 0.5 - 0.25 * (c - 0.5)).abs() * 8.0;
                    (1.0 + 0.1 * f, ((1.0 - d).max(0.0) * 255.0) as u8, None)
                }
                Pattern::Flake => {
                    let (dx, dy) = (u - 0.5, v - 0.5);
                    (1.0, ((1.0 - 2.2 * (dx * dx + dy * dy).sqrt()).clamp(0.0, 1.0) * 255.0) as u8, None)
                }
            };
            let rgb = shade(tint.unwrap_or(spec.rgb), k);
            out.extend_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
        }
    }
    out
}

/// The 256-colour palette `A.PAL`: a ramp of olive, khaki and dark greens for camouflage.
pub fn palette_rgba() -> Vec<u8> {
    (0..256u32)
        .flat_map(|i| {
            let (band, k) = (i / 64, (i % 64) as f32 / 63.0);
            let base: [f32; 3] =
                [[40.0, 60.0, 30.0], [86.0, 110.0, 62.0], [130.0, 140.0, 90.0], [60.0, 50.0, 40.0]][band as usize];
            let c = base.map(|v| (v * (0.5 + k)).clamp(0.0, 255.0) as u8);
            [c[0], c[1], c[2], 255]
        })
        .collect()
}

fn mip_count(size: u32) -> u32 {
    32 - size.leading_zeros()
}

/// The encoded Texm of a texture (full mip chain).
pub fn texm(spec: &TextureSpec, seed: u64) -> Result<Texm> {
    let rgba = pixels(spec, seed);
    let levels = build_mips(&rgba, spec.size, spec.size, mip_count(spec.size));
    let palette = (spec.format == PixelFormat::Indexed).then(palette_rgba);
    let mut texm =
        Texm::encode(spec.size, spec.size, spec.format, &levels, palette.as_deref(), DecodeOptions::default())?;
    texm.header.flags4 = 32;
    Ok(texm)
}

/// A 32 x 32 lightmap (565, one mip): a soft ambient-occlusion blob darker at the centre.
pub fn lightmap(seed: u64, name: &str) -> Result<Texm> {
    let mut rng = SplitMix64::stream(seed, &format!("lightmaps/{name}"));
    let noise = Noise::new(&mut rng, 4);
    let n = 32usize;
    let mut rgba = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let (u, v) = (x as f32 / n as f32, y as f32 / n as f32);
            let (dx, dy) = (u - 0.5, v - 0.5);
            let k = (0.55 + 1.4 * (dx * dx + dy * dy) + 0.15 * noise.at(u, v)).min(1.0);
            let c = (255.0 * k) as u8;
            rgba.extend_from_slice(&[c, c, (f32::from(c) * 0.95) as u8, 255]);
        }
    }
    Texm::encode(32, 32, PixelFormat::Rgb565, &[rgba], None, DecodeOptions::default())
}

/// Writes `Textures.lib`, `LightMap.lib` (one lightmap per name) and `palettes.lib`.
pub fn write(tree: &mut DemoTree, seed: u64, lightmaps: &[String]) -> Result<()> {
    let mut lib = NresWriter::new();
    for spec in TEXTURES {
        lib.add(MAGIC, [0, 0, 0], spec.name.as_bytes(), texm(spec, seed)?.to_bytes())?;
    }
    tree.add("Textures.lib", lib.to_bytes()?)?;
    let mut lm = NresWriter::new();
    for name in lightmaps {
        lm.add(MAGIC, [0, 0, 0], name.as_bytes(), lightmap(seed, name)?.to_bytes())?;
    }
    tree.add("LightMap.lib", lm.to_bytes()?)?;
    let mut pal = NresWriter::new();
    pal.add(u32::from_le_bytes(*b"PAL\0"), [0, 0, 0], b"A.PAL", Palette::from_rgba(&palette_rgba())?.to_bytes())?;
    tree.add("palettes.lib", pal.to_bytes()?)?;
    Ok(())
}
