//! EXPL explosions (`.exp`, openparkan `docs/26-damage.md` and `docs/11-effects.md`,
//! measured on all 144 shipped files and read): 792 bytes, a 24-byte head saying what
//! the explosion does to what it reaches, then twelve 64-byte effect slots saying what
//! it plays. The two floats at `+0x0C` and `+0x10` are never read by the engine (1.0 on
//! every shipped file); they are kept, as is every byte.

use super::{float, put_name, put_word, word};
use crate::bytes::fixed_str;
use crate::error::{Error, Result};

/// Size of every `.exp` (measured).
pub const SIZE: usize = 792;
/// Effect slots (slot 0 the default, slot `s + 1` for surface class `s`).
pub const SLOTS: usize = 12;
/// Size of the head before the slots.
const HEAD: usize = 0x18;

/// What an explosion does to what it reaches (`+0x00`, read and measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitKind {
    /// 1: plays its effect, hurts nothing.
    Effect,
    /// 2: hurts the node the round struck.
    Direct,
    /// 3: hurts every node within its radius, by the falloff.
    Blast,
    /// 4: reaches shields only.
    ShieldsOnly,
}

impl HitKind {
    /// The kind of a stored word (`None` outside 1..=4).
    pub fn from_word(word: u32) -> Option<Self> {
        Some(match word {
            1 => Self::Effect,
            2 => Self::Direct,
            3 => Self::Blast,
            4 => Self::ShieldsOnly,
            _ => return None,
        })
    }

    /// The stored word.
    pub fn word(self) -> u32 {
        match self {
            Self::Effect => 1,
            Self::Direct => 2,
            Self::Blast => 3,
            Self::ShieldsOnly => 4,
        }
    }
}

/// A parsed `.exp`, every byte kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expl {
    /// The file.
    pub raw: [u8; SIZE],
}

impl Expl {
    /// Parses; the size must be 792 and the hit kind 1..=4.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let raw: [u8; SIZE] = data.try_into().map_err(|_| {
            Error::invalid(0, "exp_size", format!("an explosion is {SIZE} bytes, this one {}", data.len()))
        })?;
        let kind = word(&raw, 0);
        if HitKind::from_word(kind).is_none() {
            return Err(Error::invalid(0, "exp_hit_kind", format!("hit kind {kind} is not 1 to 4")));
        }
        Ok(Self { raw })
    }

    /// An explosion of `kind`, `damage` and `radius`, placement 0, the two unread floats
    /// 1.0 as shipped, `effect` (archive, member) in the default slot (authoring).
    pub fn new(kind: HitKind, damage: f32, radius: f32, effect: Option<(&str, &str)>) -> Self {
        let mut raw = [0u8; SIZE];
        put_word(&mut raw, 0, kind.word());
        for (at, value) in [(0x04, damage), (0x08, radius), (0x0C, 1.0), (0x10, 1.0)] {
            put_word(&mut raw, at, value.to_bits());
        }
        if let Some((archive, member)) = effect {
            put_name(&mut raw, HEAD, archive);
            put_name(&mut raw, HEAD + 32, member);
        }
        Self { raw }
    }

    /// `+0x00` what it does (checked by the parse).
    pub fn kind(&self) -> HitKind {
        HitKind::from_word(word(&self.raw, 0)).unwrap_or(HitKind::Effect)
    }

    /// `+0x04` damage (read).
    pub fn damage(&self) -> f32 {
        float(&self.raw, 0x04)
    }

    /// `+0x08` radius: absolute on a round, times the node's bounding radius otherwise
    /// (read).
    pub fn radius(&self) -> f32 {
        float(&self.raw, 0x08)
    }

    /// `+0x14` where the effect is placed (0 node axis 2, ... 7 the struck face's normal).
    pub fn placement(&self) -> u32 {
        word(&self.raw, 0x14)
    }

    /// Effect slot `slot` as (archive, member) (`None` past the last slot).
    pub fn effect(&self, slot: usize) -> Option<(&[u8], &[u8])> {
        (slot < SLOTS).then(|| {
            let at = HEAD + 64 * slot;
            (fixed_str(&self.raw[at..at + 32]), fixed_str(&self.raw[at + 32..at + 64]))
        })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.raw.to_vec()
    }
}
