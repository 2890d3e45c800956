//! MAT0 materials (`docs/reference/models.md` §3): versioned payload with blend codes, two
//! floats, 34-byte phases and animation blocks; phase selection by game time and the
//! phase interpolation mask. The 18 parameter bytes, texture-name tails and every
//! unused word are kept raw.

use crate::bytes::{Cursor, fixed_field, fixed_str};
use crate::error::{Error, ErrorKind, Result};
use crate::model::Put;

/// NRes type id `MAT0`.
pub const TYPE_ID: u32 = 0x3054_414D;
/// The engine's limit: `anim_block_count` must be below this.
pub const MAX_ANIM_BLOCKS: u16 = 20;

/// One phase (34 bytes): 18 parameter bytes and a 16-byte texture name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    /// Bytes 0–17 raw (colours, power, stage); channel names inferred, offsets confirmed.
    pub params: [u8; 18],
    /// Bytes 18–33: texture name `char[16]` (tail after NUL kept).
    pub texture: [u8; 16],
}

/// Runtime colours of a phase (the engine's 76-byte conversion).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PhaseColors {
    /// Ambient RGB `/255`, A `× 0.01`.
    pub ambient: [f32; 4],
    /// Diffuse RGBA `/255`.
    pub diffuse: [f32; 4],
    /// Specular RGBA `/255`.
    pub specular: [f32; 4],
    /// Emissive RGBA `/255`.
    pub emissive: [f32; 4],
    /// Specular power.
    pub power: f32,
    /// Texture stage (−1 = default).
    pub stage: i32,
}

impl Phase {
    /// Record size.
    pub const SIZE: usize = 34;

    /// Authoring: a phase from RGBA colours (ambient alpha in percent), power, stage and
    /// texture name (empty = untextured).
    pub fn new(
        ambient: [u8; 4],
        diffuse: [u8; 4],
        specular: [u8; 4],
        emissive: [u8; 4],
        power: u8,
        stage: i8,
        texture: &[u8],
    ) -> Result<Self> {
        let mut params = [0u8; 18];
        params[..4].copy_from_slice(&ambient);
        params[4..8].copy_from_slice(&diffuse);
        params[8..12].copy_from_slice(&specular);
        params[12..16].copy_from_slice(&emissive);
        params[16] = power;
        params[17] = stage as u8;
        Ok(Self { params, texture: fixed_field::<16>(texture)? })
    }

    /// Texture name, `None` when the first byte is 0 (intentionally untextured).
    pub fn texture_name(&self) -> Option<&[u8]> {
        (self.texture[0] != 0).then(|| fixed_str(&self.texture))
    }

    /// The runtime colours.
    pub fn colors(&self) -> PhaseColors {
        let p = &self.params;
        let c = |i: usize| [0, 1, 2, 3].map(|k| f32::from(p[i + k]) / 255.0);
        let mut ambient = c(0);
        ambient[3] = f32::from(p[3]) * 0.01;
        let stage = if self.texture[0] == 0 { -1 } else { i32::from(p[17] as i8) };
        PhaseColors { ambient, diffuse: c(4), specular: c(8), emissive: c(12), power: f32::from(p[16]), stage }
    }
}

/// One animation key: phase index, segment length in ms, unused word (preserved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimKey {
    /// `k0`: phase index.
    pub phase: u16,
    /// `k1`: segment length in ms (one source; see `docs/reference/models.md` §3.5).
    pub duration_ms: u16,
    /// `k2`: unused (always 0 in data).
    pub unused: u16,
}

/// An animation block: `header & 7` = mode, `header >> 3` = interpolation mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnimBlock {
    /// Raw header word.
    pub header: u32,
    /// Keys.
    pub keys: Vec<AnimKey>,
}

/// Playback mode of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnimMode {
    /// 0: loop.
    Loop,
    /// 1: ping-pong.
    PingPong,
    /// 2: one-shot, clamped to the last key.
    OneShot,
    /// 3: random start.
    Random,
}

impl AnimBlock {
    /// The mode, `None` for the unassigned values 4–7.
    pub fn mode(&self) -> Option<AnimMode> {
        match self.header & 7 {
            0 => Some(AnimMode::Loop),
            1 => Some(AnimMode::PingPong),
            2 => Some(AnimMode::OneShot),
            3 => Some(AnimMode::Random),
            _ => None,
        }
    }

    /// Interpolation mask (`0x01` ambient RGB, `0x02` diffuse RGB, `0x04` specular RGB,
    /// `0x08` emissive RGB, `0x10` ambient A).
    pub fn interp_mask(&self) -> u32 {
        self.header >> 3
    }

    /// Cycle length in ms.
    pub fn cycle(&self) -> u32 {
        self.keys.iter().map(|k| u32::from(k.duration_ms)).sum()
    }
}

/// A selected pair of phases and the blend factor between them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Selection {
    /// Current phase index.
    pub phase: usize,
    /// Next phase index.
    pub next: usize,
    /// Blend factor in `[0, 1]`.
    pub alpha: f32,
    /// Mode 3: the value the engine writes back into the row's start time.
    pub new_start_time: Option<u32>,
}

/// A MAT0 material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    /// NRes `attr1`: runtime flags (confirmed bits, see `docs/reference/models.md` §3.1).
    pub attr1: u32,
    /// NRes `attr2`: payload version (6 in all retail entries).
    pub version: u32,
    /// Source/destination `D3DBLEND` codes (version ≥ 2; `0xFF` = not set).
    pub blend: Option<[u8; 2]>,
    /// Raw bits of the alpha multiplier (version ≥ 3; name inferred).
    pub alpha_multiplier: Option<u32>,
    /// Raw bits of the emissive intensity (version ≥ 4; name inferred).
    pub emissive_intensity: Option<u32>,
    /// Phases.
    pub phases: Vec<Phase>,
    /// Animation blocks.
    pub anims: Vec<AnimBlock>,
}

impl Material {
    /// Parses a payload with the entry's `attr1` and `attr2` (version).
    pub fn parse(payload: &[u8], attr1: u32, version: u32) -> Result<Self> {
        let mut c = Cursor::new(payload);
        let phase_count = c.u16()?;
        let anim_count = c.u16()?;
        if anim_count >= MAX_ANIM_BLOCKS {
            return Err(Error::invalid(
                2,
                "mat0_anim_blocks",
                format!("Too many animations for material ({anim_count})"),
            ));
        }
        let blend = (version >= 2).then(|| c.array()).transpose()?;
        let alpha_multiplier = (version >= 3).then(|| c.u32()).transpose()?;
        let emissive_intensity = (version >= 4).then(|| c.u32()).transpose()?;
        c.check_count(u64::from(phase_count), Phase::SIZE as u64, "phases")?;
        let phases = (0..phase_count)
            .map(|_| Ok(Phase { params: c.array()?, texture: c.array()? }))
            .collect::<Result<Vec<_>>>()?;
        let mut anims = Vec::with_capacity(usize::from(anim_count));
        for _ in 0..anim_count {
            let header = c.u32()?;
            let n = c.u16()?;
            c.check_count(u64::from(n), 6, "animation keys")?;
            let mut keys = Vec::with_capacity(usize::from(n));
            for _ in 0..n {
                let at = c.offset();
                let key = AnimKey { phase: c.u16()?, duration_ms: c.u16()?, unused: c.u16()? };
                if key.phase >= phase_count {
                    return Err(Error::invalid(at, "mat0_key_phase", format!("phase {} of {phase_count}", key.phase)));
                }
                keys.push(key);
            }
            anims.push(AnimBlock { header, keys });
        }
        c.expect_end("material")?;
        Ok(Self { attr1, version, blend, alpha_multiplier, emissive_intensity, phases, anims })
    }

    /// Authoring: a version-6 material with unset blends, alpha multiplier 1, emissive 0.
    pub fn new(attr1: u32, phases: Vec<Phase>, anims: Vec<AnimBlock>) -> Self {
        Self {
            attr1,
            version: 6,
            blend: Some([0xFF, 0xFF]),
            alpha_multiplier: Some(1f32.to_bits()),
            emissive_intensity: Some(0f32.to_bits()),
            phases,
            anims,
        }
    }

    /// Serialises the payload (`attr1`/`version` go to the NRes row).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let count =
            |n: usize, what| u16::try_from(n).map_err(|_| Error::invalid(0, "mat0_count", format!("{what} {n}")));
        let anims = count(self.anims.len(), "animation blocks")?;
        if anims >= MAX_ANIM_BLOCKS {
            return Err(Error::invalid(0, "mat0_anim_blocks", format!("{anims} blocks")));
        }
        let shape_ok = self.blend.is_some() == (self.version >= 2)
            && self.alpha_multiplier.is_some() == (self.version >= 3)
            && self.emissive_intensity.is_some() == (self.version >= 4);
        if !shape_ok {
            return Err(Error::invalid(
                0,
                "mat0_version_fields",
                format!("fields do not match version {}", self.version),
            ));
        }
        let mut out = Vec::new();
        out.put_u16(count(self.phases.len(), "phases")?);
        out.put_u16(anims);
        self.blend.iter().for_each(|b| out.extend_from_slice(b));
        self.alpha_multiplier.iter().chain(&self.emissive_intensity).for_each(|&w| out.put_u32(w));
        for p in &self.phases {
            out.extend_from_slice(&p.params);
            out.extend_from_slice(&p.texture);
        }
        for a in &self.anims {
            out.put_u32(a.header);
            out.put_u16(count(a.keys.len(), "keys")?);
            for k in &a.keys {
                [k.phase, k.duration_ms, k.unused].into_iter().for_each(|w| out.put_u16(w));
            }
        }
        Ok(out)
    }

    /// Rendering type `(attr1 >> 2) & 0xF`.
    pub fn render_type(&self) -> u32 {
        (self.attr1 >> 2) & 0xF
    }

    /// Phase selection of block `block` at `game_time` (ms) for a row started at
    /// `start_time` (`docs/reference/models.md` §3.5). `rand` is the engine RNG, used by mode 3 only.
    pub fn select(
        &self,
        block: usize,
        game_time: u32,
        start_time: u32,
        rand: &mut dyn FnMut() -> u32,
    ) -> Result<Selection> {
        let Some(b) = self.anims.get(block) else { return Ok(static_phase()) };
        let cycle = b.cycle();
        if cycle == 0 {
            return Ok(Selection { phase: b.keys.first().map_or(0, |k| usize::from(k.phase)), ..static_phase() });
        }
        let d = game_time.wrapping_sub(start_time);
        let (q, mut r) = (d / cycle, d % cycle);
        let mut new_start_time = None;
        match b.mode() {
            Some(AnimMode::Loop) => {}
            Some(AnimMode::PingPong) => {
                if q % 2 == 1 {
                    r = cycle - r;
                }
            }
            Some(AnimMode::OneShot) => {
                if q > 0 {
                    let last = b.keys.last().map_or(0, |k| usize::from(k.phase));
                    return Ok(Selection { phase: last, next: last, alpha: 0.0, new_start_time: None });
                }
            }
            Some(AnimMode::Random) => {
                r = rand() % cycle;
                new_start_time = Some(r);
            }
            None => {
                return Err(Error::new(ErrorKind::Unsupported(format!("material animation mode {}", b.header & 7))));
            }
        }
        Ok(Selection { new_start_time, ..segment(b, r) })
    }

    /// Normalised-time selection: `r = t × cycle`, `t` outside `[0, 1]` treated as 0.5.
    pub fn select_normalized(&self, block: usize, t: f32) -> Selection {
        let Some(b) = self.anims.get(block) else { return static_phase() };
        let t = if (0.0..=1.0).contains(&t) { t } else { 0.5 };
        segment(b, (t * b.cycle() as f32) as u32)
    }

    /// Interpolated colours of a selection under block `block`'s mask; every channel not
    /// in the mask (and power, stage, texture) comes from the current phase.
    pub fn colors(&self, block: usize, sel: &Selection) -> Option<PhaseColors> {
        let a = self.phases.get(sel.phase)?.colors();
        let b = self.phases.get(sel.next)?.colors();
        let mask = self.anims.get(block).map_or(0, AnimBlock::interp_mask);
        let mix = |x: f32, y: f32| x + (y - x) * sel.alpha;
        let mut out = a;
        let groups: [(u32, &mut [f32; 4], [f32; 4]); 4] = [
            (0x01, &mut out.ambient, b.ambient),
            (0x02, &mut out.diffuse, b.diffuse),
            (0x04, &mut out.specular, b.specular),
            (0x08, &mut out.emissive, b.emissive),
        ];
        for (bit, dst, src) in groups {
            if mask & bit != 0 {
                for k in 0..3 {
                    dst[k] = mix(dst[k], src[k]);
                }
            }
        }
        if mask & 0x10 != 0 {
            out.ambient[3] = mix(a.ambient[3], b.ambient[3]);
        }
        Some(out)
    }
}

fn static_phase() -> Selection {
    Selection { phase: 0, next: 0, alpha: 0.0, new_start_time: None }
}

fn segment(b: &AnimBlock, r: u32) -> Selection {
    let mut start = 0u32;
    for (k, key) in b.keys.iter().enumerate() {
        let len = u32::from(key.duration_ms);
        if r < start + len {
            let next = if k + 1 == b.keys.len() { 0 } else { k + 1 };
            let alpha = (r - start) as f32 / len as f32;
            let next_phase = b.keys.get(next).map_or(0, |n| usize::from(n.phase));
            return Selection { phase: usize::from(key.phase), next: next_phase, alpha, new_start_time: None };
        }
        start += len;
    }
    // r == cycle (ping-pong turning point): the end of the last segment
    let last = b.keys.last().map_or(0, |k| usize::from(k.phase));
    let first = b.keys.first().map_or(0, |k| usize::from(k.phase));
    Selection { phase: last, next: first, alpha: 1.0, new_start_time: None }
}

#[cfg(test)]
#[path = "mat0_tests.rs"]
mod tests;
