//! Terrain surface masks (`docs/reference/world.md` §2.3, confirmed): the 32-bit face mask and
//! its two compact forms (16-bit compact mask, 6-bit material class) are bit
//! permutations implemented as table lookups. [`SplitMask`] keeps the full-mask bits
//! that neither table maps, so `join(split(x)) == x` for every mask.

/// Full → 16-bit compact bit pairs (compact `0x4000` has no full-mask source).
pub const COMPACT_TABLE: [(u32, u16); 15] = [
    (0x0000_0001, 0x0001),
    (0x0000_0008, 0x0002),
    (0x0000_0010, 0x0004),
    (0x0000_0020, 0x0008),
    (0x0000_1000, 0x0010),
    (0x0000_4000, 0x0020),
    (0x0000_0002, 0x0040),
    (0x0000_0400, 0x0080),
    (0x0000_0800, 0x0100),
    (0x0002_0000, 0x0200),
    (0x0000_2000, 0x0400),
    (0x0000_0200, 0x0800),
    (0x0000_0004, 0x1000),
    (0x0000_0040, 0x2000),
    (0x0020_0000, 0x8000),
];

/// Full → 6-bit material class bit pairs.
pub const CLASS_TABLE: [(u32, u8); 6] = [
    (0x0000_0100, 0x01),
    (0x0000_8000, 0x02),
    (0x0001_0000, 0x04),
    (0x0004_0000, 0x08),
    (0x0008_0000, 0x10),
    (0x0000_0080, 0x20),
];

/// Full-mask bit of a reflective (water) surface (inferred consumer).
pub const REFLECTIVE: u32 = 0x2_0000;
/// Full-mask bit "has microtexture" (inferred consumer).
pub const MICROTEXTURE: u32 = 0x400;
/// Full-mask bit "disable back-face test" (inferred consumer).
pub const NO_BACKFACE_TEST: u32 = 0x8;

/// Maps a full mask to the 16-bit compact mask (unmapped bits dropped).
pub fn full_to_compact(full: u32) -> u16 {
    COMPACT_TABLE.iter().filter(|(f, _)| full & f != 0).fold(0, |acc, (_, c)| acc | c)
}

/// Maps a compact mask back to full-mask bits (compact `0x4000` has no source and is dropped).
pub fn compact_to_full(compact: u16) -> u32 {
    COMPACT_TABLE.iter().filter(|(_, c)| compact & c != 0).fold(0, |acc, (f, _)| acc | f)
}

/// Maps a full mask to the 6-bit material class.
pub fn full_to_material_class(full: u32) -> u8 {
    CLASS_TABLE.iter().filter(|(f, _)| full & f != 0).fold(0, |acc, (_, c)| acc | c)
}

/// Maps a 6-bit material class back to full-mask bits (bits 6 and 7 dropped).
pub fn material_class_to_full(class: u8) -> u32 {
    CLASS_TABLE.iter().filter(|(_, c)| class & c != 0).fold(0, |acc, (f, _)| acc | f)
}

/// Every full-mask bit one of the two tables maps.
pub fn known_full_bits() -> u32 {
    COMPACT_TABLE.iter().map(|p| p.0).chain(CLASS_TABLE.iter().map(|p| p.0)).fold(0, |a, b| a | b)
}

/// A full mask split into its compact forms plus the bits no table maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplitMask {
    /// 16-bit compact mask.
    pub compact: u16,
    /// 6-bit material class.
    pub material_class: u8,
    /// Full-mask bits outside both tables, kept so the inverse is exact.
    pub unknown_full: u32,
}

impl SplitMask {
    /// Splits a full mask.
    pub fn split(full: u32) -> Self {
        Self {
            compact: full_to_compact(full),
            material_class: full_to_material_class(full),
            unknown_full: full & !known_full_bits(),
        }
    }

    /// Rebuilds the full mask (exact inverse of [`SplitMask::split`]).
    pub fn join(&self) -> u32 {
        compact_to_full(self.compact) | material_class_to_full(self.material_class) | self.unknown_full
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn single_bits_follow_the_spec_tables() {
        assert_eq!(full_to_compact(0x20000), 0x0200);
        assert_eq!(full_to_compact(0x200000), 0x8000);
        assert_eq!(full_to_compact(0x4), 0x1000);
        assert_eq!(compact_to_full(0x0080), 0x400);
        assert_eq!(compact_to_full(0x4000), 0, "compact 0x4000 has no full source");
        assert_eq!(full_to_material_class(0x80), 0x20);
        assert_eq!(full_to_material_class(0x8000 | 0x100), 0x03);
        assert_eq!(material_class_to_full(0x10), 0x80000);
        // Not a truncation: full 0x2 is compact 0x40, not 0x2.
        assert_eq!(full_to_compact(0x2), 0x40);
        // No full bit maps into both tables.
        let compact: u32 = COMPACT_TABLE.iter().fold(0, |a, p| a | p.0);
        let class: u32 = CLASS_TABLE.iter().fold(0, |a, p| a | p.0);
        assert_eq!(compact & class, 0);
    }

    #[test]
    fn unknown_bits_survive() {
        let full = 0xF000_0000 | 0x20000 | 0x100 | 0x0010_0000u32;
        let s = SplitMask::split(full);
        assert_eq!(s.unknown_full & 0xF000_0000, 0xF000_0000);
        assert_eq!(s.join(), full);
    }

    proptest! {
        #[test]
        fn split_join_is_identity(full in any::<u32>()) {
            prop_assert_eq!(SplitMask::split(full).join(), full);
            prop_assert_eq!(compact_to_full(full_to_compact(full)), full & COMPACT_TABLE.iter().fold(0, |a, p| a | p.0));
        }

        #[test]
        fn compact_round_trip_without_the_sourceless_bit(c in any::<u16>()) {
            prop_assert_eq!(full_to_compact(compact_to_full(c)), c & !0x4000);
            prop_assert_eq!(full_to_material_class(material_class_to_full(c as u8)), (c as u8) & 0x3F);
        }
    }
}
