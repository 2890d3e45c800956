//! Primitive encodings: FourCC, string ids, `half16` (with the canonical rounding quirk) and `snorm16`.

/// A chunk identifier in file byte order, e.g. `*b"PACK"`.
pub type FourCc = [u8; 4];

/// A string id into the `STRS` table; [`Sid::EMPTY`] (`0xFFFFFFFF`) is the empty string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Sid(pub u32);

impl Sid {
    /// The empty-string id.
    pub const EMPTY: Sid = Sid(u32::MAX);
    /// True for `0xFFFFFFFF`.
    pub fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
}

/// Decodes an IEEE-754 binary16 value.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f32::from(h & 0x3FF);
    match exp {
        0 => sign * mant * (2.0f32).powi(-24),
        31 if mant == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + mant / 1024.0) * (2.0f32).powi(exp - 15),
    }
}

/// Encodes like the baking tool (quirk `eu7_half_round_carry`): the rounding carry is OR-ed
/// into the exponent, subnormals truncate, f32 subnormals flush to zero.
pub fn f32_to_half_canonical(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let fexp = ((bits >> 23) & 0xFF) as i32;
    let mant = bits & 0x7F_FFFF;
    if fexp == 0xFF {
        return sign | 0x7C00 | if mant != 0 { 0x0200 } else { 0 };
    }
    if fexp == 0 {
        return sign;
    }
    let hexp = fexp - 127 + 15;
    if hexp >= 31 {
        return sign | 0x7C00;
    }
    if hexp <= 0 {
        if hexp < -10 {
            return sign;
        }
        let m = (mant | 0x80_0000) >> (1 - hexp) as u32;
        return sign | (m >> 13) as u16;
    }
    sign | ((hexp as u16) << 10) | ((mant + 0x1000) >> 13) as u16
}

/// Decodes `snorm16` as `v / 32767`.
pub fn snorm16_to_f32(v: i16) -> f32 {
    f32::from(v) / 32767.0
}

/// Encodes `snorm16`: `lround(clamp(x, -1, 1) * 32767)`, half away from zero; NaN → 0.
pub fn f32_to_snorm16(x: f32) -> i16 {
    if x.is_nan() {
        return 0;
    }
    let v = f64::from(x.clamp(-1.0, 1.0)) * 32767.0;
    // `f64::round` rounds half away from zero, like `lround`; the clamp keeps it in range.
    v.round() as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_vectors_from_spec_section_11() {
        assert_eq!(f32_to_half_canonical(0.5), 0x3800);
        assert_eq!(f32_to_half_canonical(1.0), 0x3C00);
        assert_eq!(f32_to_half_canonical(1.9999), 0x3C00, "carry lost for odd exponent");
        assert_eq!(f32_to_half_canonical(3.9999), 0x4400);
        assert_eq!(f32_to_half_canonical(0.49999), 0x3400);
        assert_eq!(f32_to_half_canonical(65520.0), 0x7C00);
        assert_eq!(f32_to_half_canonical(1e-8), 0x0000);
        assert_eq!(f32_to_half_canonical(-2.0), 0xC000);
        assert_eq!(f32_to_half_canonical(f32::NAN) & 0x7E00, 0x7E00);
    }

    #[test]
    fn correct_rounding_differs_from_canonical() {
        // A correctly rounding encoder gives 2.0 (0x4000) for 1.9999; the canonical one must not.
        assert_ne!(f32_to_half_canonical(1.9999), 0x4000);
    }

    #[test]
    fn half_decode_exact_values_reencode_identically() {
        for h in 0u16..=0xFFFF {
            let exp = (h >> 10) & 0x1F;
            if exp == 31 {
                continue;
            }
            let f = half_to_f32(h);
            let back = f32_to_half_canonical(f);
            // -0 and +0 keep their sign; every finite half survives decode/encode.
            assert_eq!(back, h, "half {h:#06x} decoded {f}");
        }
    }

    #[test]
    fn snorm_vectors_from_spec_section_11() {
        assert_eq!(f32_to_snorm16(1.0), 0x7FFF);
        assert_eq!(f32_to_snorm16(-1.0) as u16, 0x8001);
        assert_eq!(f32_to_snorm16(0.5), 0x4000);
        assert_eq!(f32_to_snorm16(2.0), 0x7FFF);
        assert!(snorm16_to_f32(-32768) < -1.0);
    }
}
