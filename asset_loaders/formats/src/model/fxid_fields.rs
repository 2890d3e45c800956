//! Typed views of every FXID command body (`docs/reference/models.md` §6.7): sizes and offsets
//! are confirmed, field names inferred. Each opcode is a table of named fields read
//! from the raw body on demand; the body bytes stay canonical. Resource references
//! are read by [`Command::reference`].

use super::fxid::Command;

/// The shape of one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// One `u32`.
    U32,
    /// One `f32`.
    F32,
    /// `n` consecutive `f32` (vectors and float groups).
    Floats(usize),
}

impl FieldKind {
    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            FieldKind::U32 | FieldKind::F32 => 4,
            FieldKind::Floats(n) => 4 * n,
        }
    }
}

/// A named field at an offset from the command start (the command word is at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Inferred name.
    pub name: &'static str,
    /// Offset from the command start.
    pub offset: usize,
    /// Shape.
    pub kind: FieldKind,
}

/// A decoded field value.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// An unsigned word.
    U32(u32),
    /// A float.
    F32(f32),
    /// Several floats.
    Floats(Vec<f32>),
}

const fn u(name: &'static str, offset: usize) -> Field {
    Field { name, offset, kind: FieldKind::U32 }
}
const fn f(name: &'static str, offset: usize) -> Field {
    Field { name, offset, kind: FieldKind::F32 }
}
const fn v(name: &'static str, offset: usize, n: usize) -> Field {
    Field { name, offset, kind: FieldKind::Floats(n) }
}

const EMITTER: &[Field] = &[
    u("mode", 4),
    f("t_start", 8),
    f("t_end", 12),
    v("p0_min", 16, 3),
    v("p0_max", 28, 3),
    v("p1_min", 40, 3),
    v("p1_max", 52, 3),
    v("q0_min", 64, 4),
    v("q0_max", 80, 4),
    v("q0_random_span", 96, 4),
    f("scalar_min", 112),
    f("scalar_max", 116),
    f("scalar_random_amp", 120),
    v("colour", 124, 3),
    v("opaque", 136, 6),
];
const SOUND: &[Field] = &[
    u("mode", 4),
    f("t_start", 8),
    f("t_end", 12),
    v("a_min", 16, 3),
    v("a_max", 28, 3),
    v("b_min", 40, 3),
    v("b_max", 52, 3),
    f("c0", 64),
    f("c1", 68),
    f("c2", 72),
    f("c2_max", 76),
    u("manager_arg", 80),
];
const QUAD: &[Field] = &[
    u("mode", 4),
    f("alpha_source", 8),
    f("alpha_pow0", 12),
    f("alpha_pow1", 16),
    f("out_min", 20),
    f("out_max", 24),
    f("out_pow", 28),
    f("active_t0", 32),
    f("active_t1", 36),
    v("v0_min", 40, 3),
    v("v0_max", 52, 3),
    v("pow0", 64, 3),
    v("v1_min", 76, 3),
    v("v1_max", 88, 3),
    v("v2_min", 100, 3),
    v("v2_max", 112, 3),
    v("pow1", 124, 3),
];
const TRAIL: &[Field] = &[
    u("mode", 4),
    u("unused8", 8),
    u("unused12", 12),
    f("active_t0", 16),
    u("max_segments", 20),
    f("t1_min", 24),
    f("t1_max", 28),
    f("step", 32),
    f("segment_length", 36),
    f("alpha_source", 40),
    f("alpha_pow", 44),
];
const PARTICLES: &[Field] = &[
    u("mode", 4),
    f("eval_min", 8),
    f("eval_max", 12),
    f("eval_pow", 16),
    f("active_t0", 20),
    f("active_t1", 24),
    f("phase_span", 28),
    f("phase_rate", 32),
    u("count_a", 36),
    u("count_b", 40),
    v("set0", 44, 12),
    v("set1", 92, 12),
    f("gravity_drag", 140),
];
const RINGS: &[Field] = &[
    u("mode", 4),
    f("eval_t0", 8),
    f("eval_t1", 12),
    f("gate_t0", 16),
    f("gate_t1", 20),
    f("period_min", 24),
    f("period_max", 28),
    f("phase_pow", 32),
    u("slots", 36),
    v("set0", 40, 9),
    v("set1", 76, 9),
    v("set2", 112, 6),
    v("radius0", 136, 3),
    v("radius1", 148, 3),
    v("radius2", 160, 3),
    v("render_pow", 172, 3),
];

/// The typed fields of `opcode` (empty for opcode 6 and unknown opcodes).
pub fn fields(opcode: u8) -> Vec<Field> {
    match opcode {
        1 => EMITTER.to_vec(),
        2 => SOUND.to_vec(),
        3 => QUAD.to_vec(),
        4 => [QUAD, &[f("distance_normaliser", 200)]].concat(),
        5 => TRAIL.to_vec(),
        7 | 10 => PARTICLES.to_vec(),
        8 => RINGS.to_vec(),
        9 => [QUAD, &[u("render_kind", 200), u("render_flag", 204)]].concat(),
        _ => Vec::new(),
    }
}

fn word(body: &[u8], at: usize) -> Option<[u8; 4]> {
    body.get(at..at + 4)?.try_into().ok()
}

impl Command {
    /// Every typed field of this command with its value, in offset order. Fields
    /// outside a (malformed) body are left out.
    pub fn typed_fields(&self) -> Vec<(&'static str, FieldValue)> {
        fields(self.opcode())
            .into_iter()
            .filter_map(|field| {
                let at = field.offset.checked_sub(4)?;
                let value = match field.kind {
                    FieldKind::U32 => FieldValue::U32(u32::from_le_bytes(word(&self.body, at)?)),
                    FieldKind::F32 => FieldValue::F32(f32::from_le_bytes(word(&self.body, at)?)),
                    FieldKind::Floats(n) => FieldValue::Floats(
                        (0..n).map(|k| word(&self.body, at + 4 * k).map(f32::from_le_bytes)).collect::<Option<_>>()?,
                    ),
                };
                Some((field.name, value))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fxid::{command_size, reference_offset};
    use super::*;

    #[test]
    fn every_table_fits_its_command_without_overlaps() {
        for opcode in 1..=10u8 {
            let size = command_size(opcode).unwrap();
            let mut spans: Vec<(usize, usize, &str)> =
                fields(opcode).iter().map(|f| (f.offset, f.offset + f.kind.size(), f.name)).collect();
            if let Some(r) = reference_offset(opcode) {
                spans.push((r, r + 64, "reference"));
            }
            spans.sort_unstable();
            let mut end = 4; // after the command word
            for (start, stop, name) in spans {
                assert!(start >= end, "opcode {opcode}: {name} at {start} overlaps the field ending at {end}");
                end = stop;
            }
            assert!(end <= size, "opcode {opcode}: fields end at {end}, command is {size} bytes");
        }
    }

    #[test]
    fn fields_read_from_their_spec_offsets() {
        // An opcode-9 body built by hand: distinct values at the spec's offsets.
        let mut body = vec![0u8; 208 - 4];
        let put = |body: &mut Vec<u8>, offset: usize, bytes: [u8; 4]| body[offset - 4..offset].copy_from_slice(&bytes);
        put(&mut body, 4, 7u32.to_le_bytes());
        put(&mut body, 8, (-1.5f32).to_le_bytes());
        put(&mut body, 52, 2.0f32.to_le_bytes());
        put(&mut body, 60, 4.0f32.to_le_bytes());
        put(&mut body, 200, 2u32.to_le_bytes());
        put(&mut body, 204, 1u32.to_le_bytes());
        let command = Command { word: 0x109, body };
        let typed = command.typed_fields();
        let get = |name: &str| typed.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
        assert_eq!(get("mode"), Some(FieldValue::U32(7)));
        assert_eq!(get("alpha_source"), Some(FieldValue::F32(-1.5)));
        assert_eq!(get("v0_max"), Some(FieldValue::Floats(vec![2.0, 0.0, 4.0])));
        assert_eq!(get("render_kind"), Some(FieldValue::U32(2)));
        assert_eq!(get("render_flag"), Some(FieldValue::U32(1)));
        assert!(Command { word: 0x106, body: Vec::new() }.typed_fields().is_empty());
        let short = Command { word: 0x109, body: vec![0; 10] };
        assert_eq!(short.typed_fields().len(), 2, "fields past a short body are left out");
    }
}
