//! What an FXID effect (`docs/reference/models.md` §6) shows and plays, read from its records
//! into an [`EffectPlan`]: pure data, no Bevy entities. The framing, sizes and offsets
//! are the spec's (confirmed); the meaning of most body fields is not (§6.7 names are
//! inferred, §8 lists them as a gap), so the readings below are the **project's own**:
//!
//! * Lifetime: the header's `duration` in seconds (`end_ms = start_ms + duration ×
//!   1000`, confirmed); it must be a positive finite number.
//! * Placement: a record's offset is in effect-local game axes; the effect's point
//!   `pivot` sits where it is played and `scale` multiplies offsets and sizes
//!   (`world = at + scale ∘ (offset − pivot)`).
//! * Opcode 1 (point light): `t_start`/`t_end` are seconds from the start, `colour`
//!   its colour, `scalar_max` its range in game units ([`DEFAULT_LIGHT_RANGE`] when not
//!   positive), `p0` (the middle of `p0_min..p0_max`) its offset; it fades out over
//!   its window.
//! * Opcode 2 (3D sound): plays once when the effect's age reaches `t_start` seconds
//!   (range and ratio as `iron3d_audio::sound_cue` reads them).
//! * Opcodes 3, 4, 9 (billboard): `active_t0`/`active_t1` are fractions of the
//!   duration (as `alpha_source ≥ 0` is "normalised time"); the quad grows from `v0`
//!   to `v1` (middles of their ranges; width the game X size, height the game Z size)
//!   with exponent `pow0.x`, sits at `v2`, and its opacity goes from `out_max` to
//!   `out_min` with exponent `out_pow`. The opcode-4 distance normaliser and the
//!   opcode-9 render kinds are not used.
//! * Opcodes 7, 10 (particles): `count_a` sprites (at most [`MAX_PARTICLES`]) leave
//!   the offset `set0.random` with a velocity between `set0.min` and `set0.max` (game
//!   units per second), fall with `gravity_drag` (units per second²), grow from
//!   `set1.min.x` to `set1.max.x` and fade out over the window `active_t0..active_t1`
//!   (fractions of the duration).
//! * Opcodes 5 (trail) and 8 (rings) are not drawn; opcode 6 is a no-op (spec).
//!   Disabled records (`enabled` bit clear) are skipped. Header flags and time modes
//!   are not interpreted: every record runs on the effect's own clock.

use iron3d_formats::bytes::display_name;
use iron3d_formats::model::fxid::{Command, Effect, SoundCommand};
use iron3d_formats::model::fxid_fields::FieldValue;

/// The range of a point light whose record gives none (game units; the project's).
pub const DEFAULT_LIGHT_RANGE: f32 = 20.0;
/// The most particles one record spawns (the project's bound).
pub const MAX_PARTICLES: u32 = 64;

/// A record's material (`archive / name`, e.g. `material.lib / FX_FIRE`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MaterialRef {
    /// Archive field.
    pub archive: String,
    /// Material name.
    pub name: String,
}

/// How a planned record looks and moves (game axes, before the header's scale).
#[derive(Debug, Clone, PartialEq)]
pub enum RecordKind {
    /// A point light that fades out.
    Light {
        /// Linear RGB colour.
        colour: [f32; 3],
        /// Range (game units).
        range: f32,
        /// Offset from the effect's point.
        offset: [f32; 3],
    },
    /// A camera-facing quad.
    Billboard {
        /// Its material.
        material: MaterialRef,
        /// `[width, height]` at the start and the end of its window.
        size: [[f32; 2]; 2],
        /// Growth exponent.
        grow_pow: f32,
        /// Offset from the effect's point.
        offset: [f32; 3],
        /// Opacity at the start and the end.
        alpha: [f32; 2],
        /// Fade exponent.
        alpha_pow: f32,
    },
    /// Sprites thrown from a point.
    Particles {
        /// Their material.
        material: MaterialRef,
        /// How many.
        count: u32,
        /// Where they start.
        offset: [f32; 3],
        /// Velocity range (min, max).
        velocity: [[f32; 3]; 2],
        /// Downward acceleration.
        gravity: f32,
        /// Side at the start and the end.
        size: [f32; 2],
    },
    /// A 3D sound.
    Sound(SoundCommand),
}

/// One record of an effect as the playback runs it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedRecord {
    /// Command index in the effect.
    pub command: usize,
    /// Seconds from the effect's start: `[begin, end]` (a sound starts at `begin`).
    pub window: [f32; 2],
    /// What it is.
    pub kind: RecordKind,
}

/// An effect ready to play.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectPlan {
    /// Lifetime (seconds).
    pub duration: f32,
    /// The header's local anchor.
    pub pivot: [f32; 3],
    /// The header's base scale.
    pub scale: [f32; 3],
    /// The played records, in command order.
    pub records: Vec<PlannedRecord>,
}

impl EffectPlan {
    /// True when a record sounds.
    pub fn has_sound(&self) -> bool {
        self.records.iter().any(|r| matches!(r.kind, RecordKind::Sound(_)))
    }

    /// A local offset placed relative to the effect's point (`scale ∘ (offset − pivot)`).
    pub fn place(&self, offset: [f32; 3]) -> [f32; 3] {
        std::array::from_fn(|i| self.scale[i] * (offset[i] - self.pivot[i]))
    }
}

/// Why an effect cannot be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The header's lifetime is not a positive finite number.
    #[error("duration {0} s is not a positive number")]
    Duration(f32),
    /// A header vector is not finite.
    #[error("header {0} is not finite")]
    Header(&'static str),
    /// A field a record needs is missing or not finite.
    #[error("command {command} (opcode {opcode}): field {field} is missing or not finite")]
    Field {
        /// Command index.
        command: usize,
        /// Its opcode.
        opcode: u8,
        /// The field.
        field: &'static str,
    },
}

/// The named fields of one command.
struct Fields {
    command: usize,
    opcode: u8,
    values: Vec<(&'static str, FieldValue)>,
}

impl Fields {
    fn of(command: usize, source: &Command) -> Self {
        Self { command, opcode: source.opcode(), values: source.typed_fields() }
    }

    fn missing(&self, field: &'static str) -> PlanError {
        PlanError::Field { command: self.command, opcode: self.opcode, field }
    }

    fn floats(&self, field: &'static str, n: usize) -> Result<Vec<f32>, PlanError> {
        let found = self.values.iter().find(|(name, _)| *name == field).map(|(_, v)| match v {
            FieldValue::F32(f) => vec![*f],
            FieldValue::Floats(v) => v.clone(),
            FieldValue::U32(u) => vec![*u as f32],
        });
        found.filter(|v| v.len() >= n && v.iter().all(|f| f.is_finite())).ok_or_else(|| self.missing(field))
    }

    fn f(&self, field: &'static str) -> Result<f32, PlanError> {
        Ok(self.floats(field, 1)?[0])
    }

    fn u(&self, field: &'static str) -> Result<u32, PlanError> {
        match self.values.iter().find(|(name, _)| *name == field) {
            Some((_, FieldValue::U32(u))) => Ok(*u),
            _ => Err(self.missing(field)),
        }
    }

    fn v3(&self, field: &'static str, at: usize) -> Result<[f32; 3], PlanError> {
        let v = self.floats(field, at + 3)?;
        Ok([v[at], v[at + 1], v[at + 2]])
    }

    /// The middle of the `min` and `max` vectors.
    fn middle(&self, min: &'static str, max: &'static str) -> Result<[f32; 3], PlanError> {
        let (a, b) = (self.v3(min, 0)?, self.v3(max, 0)?);
        Ok(std::array::from_fn(|i| (a[i] + b[i]) / 2.0))
    }
}

/// A positive finite exponent, or 1.
fn exponent(p: f32) -> f32 {
    if p > 0.0 { p } else { 1.0 }
}

/// A window given in fractions of `duration`, clamped to the effect; an empty or
/// reversed one runs from its start to the end.
fn fraction_window(t0: f32, t1: f32, duration: f32) -> [f32; 2] {
    let begin = t0.clamp(0.0, 1.0) * duration;
    let end = t1.clamp(0.0, 1.0) * duration;
    [begin, if end > begin { end } else { duration }]
}

/// A window given in seconds, clamped to the effect the same way.
fn seconds_window(t0: f32, t1: f32, duration: f32) -> [f32; 2] {
    fraction_window(t0 / duration, t1 / duration, duration)
}

fn material(c: &Command) -> Option<MaterialRef> {
    let r = c.reference().filter(|r| r.is_set())?;
    Some(MaterialRef { archive: display_name(&r.archive), name: display_name(&r.name) })
}

fn record(index: usize, c: &Command, duration: f32) -> Result<Option<PlannedRecord>, PlanError> {
    let f = Fields::of(index, c);
    let planned = |window, kind| Ok(Some(PlannedRecord { command: index, window, kind }));
    match c.opcode() {
        1 => {
            let range = f.f("scalar_max")?;
            let kind = RecordKind::Light {
                colour: f.v3("colour", 0)?,
                range: if range > 0.0 { range } else { DEFAULT_LIGHT_RANGE },
                offset: f.middle("p0_min", "p0_max")?,
            };
            planned(seconds_window(f.f("t_start")?, f.f("t_end")?, duration), kind)
        }
        2 => {
            let Some(sound) = c.sound() else { return Err(f.missing("reference")) };
            let start = if sound.t_start.is_finite() { sound.t_start.clamp(0.0, duration) } else { 0.0 };
            planned([start, duration], RecordKind::Sound(sound))
        }
        3 | 4 | 9 => {
            let Some(material) = material(c) else { return Err(f.missing("reference")) };
            let (v0, v1) = (f.middle("v0_min", "v0_max")?, f.middle("v1_min", "v1_max")?);
            let size = |v: [f32; 3]| [v[0], if v[2] > 0.0 { v[2] } else { v[0] }];
            let kind = RecordKind::Billboard {
                material,
                size: [size(v0), size(v1)],
                grow_pow: exponent(f.v3("pow0", 0)?[0]),
                offset: f.middle("v2_min", "v2_max")?,
                alpha: [f.f("out_max")?, f.f("out_min")?],
                alpha_pow: exponent(f.f("out_pow")?),
            };
            planned(fraction_window(f.f("active_t0")?, f.f("active_t1")?, duration), kind)
        }
        7 | 10 => {
            let Some(material) = material(c) else { return Err(f.missing("reference")) };
            let kind = RecordKind::Particles {
                material,
                count: f.u("count_a")?.min(MAX_PARTICLES),
                offset: f.v3("set0", 6)?,
                velocity: [f.v3("set0", 0)?, f.v3("set0", 3)?],
                gravity: f.f("gravity_drag")?,
                size: [f.v3("set1", 0)?[0], f.v3("set1", 3)?[0]],
            };
            planned(fraction_window(f.f("active_t0")?, f.f("active_t1")?, duration), kind)
        }
        _ => Ok(None),
    }
}

/// The plan of an effect: its lifetime and the enabled records it draws or plays.
pub fn plan(effect: &Effect) -> Result<EffectPlan, PlanError> {
    let h = &effect.header;
    if !(h.duration.is_finite() && h.duration > 0.0) {
        return Err(PlanError::Duration(h.duration));
    }
    for (name, v) in [("pivot", h.pivot), ("scale", h.scale)] {
        if !v.iter().all(|f| f.is_finite()) {
            return Err(PlanError::Header(name));
        }
    }
    let mut records = Vec::new();
    for (i, c) in effect.commands.iter().enumerate().filter(|(_, c)| c.enabled()) {
        records.extend(record(i, c, h.duration)?);
    }
    Ok(EffectPlan { duration: h.duration, pivot: h.pivot, scale: h.scale, records })
}

/// Where a record is at `age` seconds of its effect: `None` outside its window, else
/// the progress `0..=1` through it.
pub fn progress(window: [f32; 2], age: f32) -> Option<f32> {
    let [begin, end] = window;
    (begin..=end).contains(&age).then(|| if end > begin { (age - begin) / (end - begin) } else { 1.0 })
}

/// `from → to` at progress `u` with exponent `pow`.
pub fn ease(from: f32, to: f32, u: f32, pow: f32) -> f32 {
    from + (to - from) * u.clamp(0.0, 1.0).powf(pow)
}

#[cfg(test)]
#[path = "effect_plan_tests.rs"]
mod tests;
