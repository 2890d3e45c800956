//! Ambient music, `docs/reference/runtime.md` §9 (confirmed), as pure logic: the variation pools
//! of `ambient_music_variation`, the day/night choice, the timer and the two-word 16-bit
//! index generator. The Bevy side is [`crate::ambient::AmbientMusic`].
//!
//! Where the spec is silent the project decides (each marked *project* below): the
//! pools' keys are numbered from 1 and end at the first gap; the timer restarts from 0
//! when it fires, and fires on schedule even when the pool is empty (the spec: the
//! timer keeps running); `rand()` is a 15-bit draw (the C runtime's `RAND_MAX`
//! 0x7FFF) from the named stream [`MUSIC_STREAM`] of the mission seed; the generator's
//! two words start from that stream too (never both 0, which would never change); and
//! a draw loop that finds no new index in 2¹⁶ rounds keeps the previous one rather than
//! hang.

use bevy::prelude::*;
use iron3d_core::{RandomStream, SoundKey};
use iron3d_formats::config::CfgBlock;

/// Name of the random stream of the music (of the mission seed; not the simulation's,
/// so the state hash never depends on sound).
pub const MUSIC_STREAM: &str = "audio/music";
/// The sky's base colour length above which the day pool plays.
pub const DAY_THRESHOLD: f32 = 1.1;
/// Rounds the index draw may take before it keeps the previous index (*project*).
pub const MAX_DRAWS: u32 = 1 << 16;

/// The three pools of `ambient_music_variation`.
#[derive(Debug, Clone, PartialEq, Default, Reflect)]
pub struct VariationPools {
    /// `DEFAULT_VARIATION1..n`.
    pub default: Vec<SoundKey>,
    /// `DAY_VARIATION1..n`.
    pub day: Vec<SoundKey>,
    /// `NIGHT_VARIATION1..n`.
    pub night: Vec<SoundKey>,
}

impl VariationPools {
    /// Reads the pools of a variation block; keys without an archive get the block's
    /// `LIBRARY`, or `fallback_library` (the theme loop's) when it has none.
    pub fn from_block(block: &CfgBlock, fallback_library: &str) -> Self {
        let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
        let library = block.library().map(text).filter(|l| !l.is_empty()).unwrap_or_else(|| fallback_library.into());
        let pool = |prefix: &str| {
            (1..)
                .map_while(|i| block.param(&format!("{prefix}{i}")).map(text))
                .map(|name| {
                    let key = SoundKey::parse(&name);
                    if key.library.is_empty() { SoundKey { library: library.clone(), ..key } } else { key }
                })
                .collect()
        };
        Self { default: pool("DEFAULT_VARIATION"), day: pool("DAY_VARIATION"), night: pool("NIGHT_VARIATION") }
    }

    /// The pool that plays under a sky of base colour `rgb`: the default pool when
    /// neither a day nor a night pool exists; otherwise day when the colour's length
    /// exceeds [`DAY_THRESHOLD`], else night — an empty chosen pool stays empty.
    pub fn selected(&self, rgb: [f32; 3]) -> &[SoundKey] {
        if self.day.is_empty() && self.night.is_empty() {
            &self.default
        } else if (rgb[0] * rgb[0] + rgb[1] * rgb[1] + rgb[2] * rgb[2]).sqrt() > DAY_THRESHOLD {
            &self.day
        } else {
            &self.night
        }
    }
}

/// The variation index generator: two 16-bit words and the previous index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct IndexGenerator {
    /// State word `a`.
    pub a: u16,
    /// State word `b`.
    pub b: u16,
    /// The last index returned (-1: none yet); survives day/night switches.
    pub previous: i32,
    /// The index of the last pick (-1 after an empty pool).
    pub index: i32,
}

impl IndexGenerator {
    /// A generator with these words (`previous` and `index` -1).
    pub fn new(a: u16, b: u16) -> Self {
        Self { a, b, previous: -1, index: -1 }
    }

    /// The next index into a pool of `len` (none for an empty pool).
    pub fn next_index(&mut self, len: usize) -> Option<usize> {
        if len == 0 {
            self.index = -1;
            return None;
        }
        let len = len.min(usize::from(u16::MAX)) as u16;
        let mut i;
        let mut draws = 0;
        loop {
            self.a = (self.a << 1) ^ self.b;
            self.b = (self.b >> 1) ^ self.a;
            i = self.b % len;
            draws += 1;
            if len == 1 || i32::from(i) != self.previous || draws >= MAX_DRAWS {
                break;
            }
        }
        self.previous = i32::from(i);
        self.index = i32::from(i);
        Some(usize::from(i))
    }
}

/// When the next variation plays: seconds accumulated and the delay to exceed.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect)]
pub struct VariationTimer {
    /// Seconds since the last variation (or the mission start).
    pub elapsed: f32,
    /// Seconds to exceed (0 at first, so the first positive frame fires).
    pub delay: f32,
}

impl VariationTimer {
    /// Adds a frame's `dt`; when `elapsed > delay` (strict) it fires, restarts from 0
    /// and takes the next delay, `10 + rand() % 10` seconds.
    pub fn advance(&mut self, dt: f32, rand: impl FnOnce() -> u32) -> bool {
        self.elapsed += dt;
        if self.elapsed > self.delay {
            self.elapsed = 0.0;
            self.delay = (10 + rand() % 10) as f32;
            true
        } else {
            false
        }
    }
}

/// The C runtime's `rand()`: 15 bits (0..=0x7FFF) from `stream`.
pub fn rand15(stream: &mut RandomStream) -> u32 {
    (stream.next_u64() >> 49) as u32
}

/// A generator seeded from `stream` (*project*: two 16-bit draws, never both 0).
pub fn seeded_generator(stream: &mut RandomStream) -> IndexGenerator {
    let bits = stream.next_u64();
    let (a, b) = ((bits >> 48) as u16, (bits >> 32) as u16);
    IndexGenerator::new(a, if a == 0 && b == 0 { 1 } else { b })
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::config::BlockCfg;

    fn keys(names: &[&str]) -> Vec<SoundKey> {
        names.iter().map(|n| SoundKey::parse(n)).collect()
    }

    #[test]
    fn the_generator_runs_the_two_word_recurrence_mod_2_16() {
        let mut g = IndexGenerator::new(0x1234, 0xABCD);
        let (mut a, mut b) = (0x1234u16, 0xABCDu16);
        let mut expected = Vec::new();
        let mut previous = -1i32;
        while expected.len() < 40 {
            a = a.wrapping_shl(1) ^ b;
            b = (b >> 1) ^ a;
            let i = i32::from(b % 5);
            if i != previous {
                expected.push(i as usize);
                previous = i;
            }
        }
        let got: Vec<usize> = (0..40).map(|_| g.next_index(5).unwrap()).collect();
        assert_eq!(got, expected);
        assert!(got.windows(2).all(|w| w[0] != w[1]), "never the same variation twice in a row");
        // Shift overflow is mod 2^16: a = 0x8000 shifted out, b folded in.
        let mut g = IndexGenerator::new(0x8000, 0x0001);
        g.next_index(7);
        assert_eq!((g.a, g.b), (0x0001, 0x0001));
    }

    #[test]
    fn a_pool_of_one_repeats_and_an_empty_pool_gives_none_and_keeps_previous() {
        let mut g = IndexGenerator::new(3, 5);
        assert_eq!((g.next_index(1), g.next_index(1)), (Some(0), Some(0)));
        let mut g = IndexGenerator::new(3, 5);
        let first = g.next_index(4).unwrap();
        let state = (g.a, g.b);
        assert_eq!(g.next_index(0), None);
        assert_eq!((g.index, g.previous, (g.a, g.b)), (-1, first as i32, state), "no draw, previous kept");
        assert_ne!(g.next_index(4), Some(first), "still avoids the previous index");
    }

    #[test]
    fn the_previous_index_survives_a_day_night_switch() {
        let pools = VariationPools { day: keys(&["D1", "D2", "D3"]), night: keys(&["N1", "N2"]), ..Default::default() };
        // The day pool's last pick was index 1; night falls and the night pool has 2.
        // From words (0, 1) the draws give 1, 1, 0 for a pool of 2.
        let mut g = IndexGenerator { previous: 1, index: 1, ..IndexGenerator::new(0, 1) };
        assert_eq!(g.next_index(pools.selected([0.2, 0.2, 0.2]).len()), Some(0), "the day's index 1 is redrawn");
        assert_eq!((g.a, g.b), (5, 4), "three draws");
        let mut forgetful = IndexGenerator::new(0, 1);
        assert_eq!(forgetful.next_index(2), Some(1), "without a previous index the first draw stands");
    }

    #[test]
    fn a_stuck_generator_gives_up_after_max_draws() {
        let mut g = IndexGenerator { previous: 0, ..IndexGenerator::new(0, 0) };
        assert_eq!(g.next_index(2), Some(0), "zero words never change: the loop ends anyway");
    }

    #[test]
    fn pools_choose_by_sky_length_with_no_fallback_and_default_only_without_day_or_night() {
        let only_default = VariationPools { default: keys(&["X"]), ..Default::default() };
        assert_eq!(only_default.selected([2.0, 2.0, 2.0]), keys(&["X"]));
        assert_eq!(only_default.selected([0.0, 0.0, 0.0]), keys(&["X"]));
        let day_only = VariationPools { default: keys(&["X"]), day: keys(&["D"]), ..Default::default() };
        assert_eq!(day_only.selected([0.7, 0.7, 0.7]), keys(&["D"]), "length 1.212 > 1.1: day");
        assert!(day_only.selected([0.6, 0.6, 0.6]).is_empty(), "length 1.039: night, empty, no fallback");
        assert!(day_only.selected([1.1, 0.0, 0.0]).is_empty(), "exactly 1.1 is night");
    }

    #[test]
    fn pools_are_read_from_the_variation_block_with_its_library_or_the_loops() {
        let cfg = BlockCfg::parse(
            b"object ambient_music_variation\r\n    DAY_VARIATION1 A.WAV\r\n    DAY_VARIATION2 other.lib/B.WAV\r\n    DAY_VARIATION4 GAP.WAV\r\n    NIGHT_VARIATION1 N.WAV\r\nend\r\nobject v2\r\n    library music.lib\r\n    DEFAULT_VARIATION1 M.WAV\r\nend\r\n",
        )
        .unwrap();
        let pools = VariationPools::from_block(cfg.block("ambient_music_variation").unwrap(), "sounds.lib");
        assert_eq!(pools.day, keys(&["sounds.lib/A.WAV", "other.lib/B.WAV"]), "numbered from 1 to the first gap");
        assert_eq!(pools.night, keys(&["sounds.lib/N.WAV"]));
        assert!(pools.default.is_empty());
        let own = VariationPools::from_block(cfg.block("v2").unwrap(), "sounds.lib");
        assert_eq!(own.default, keys(&["music.lib/M.WAV"]));
    }

    #[test]
    fn the_first_positive_frame_fires_then_delays_are_10_plus_rand_mod_10_exceeded_strictly() {
        let mut t = VariationTimer::default();
        let mut draws = [13u32, 9, 25].into_iter();
        assert!(!t.advance(0.0, || unreachable!()), "a zero frame does not fire");
        assert!(t.advance(0.016, || draws.next().unwrap()), "the first positive frame fires");
        assert_eq!(t, VariationTimer { elapsed: 0.0, delay: 13.0 });
        assert!(!t.advance(6.5, || unreachable!()));
        assert!(!t.advance(6.5, || unreachable!()), "elapsed == delay does not fire");
        assert!(t.advance(0.001, || draws.next().unwrap()));
        assert_eq!(t.delay, 19.0);
        assert!(!t.advance(19.0, || unreachable!()));
        assert!(t.advance(0.5, || draws.next().unwrap()));
        assert_eq!(t.delay, 15.0);
    }

    #[test]
    fn rand_is_a_15_bit_draw_of_the_named_stream() {
        let mut s = RandomStream::named(7, MUSIC_STREAM);
        let mut same = RandomStream::named(7, MUSIC_STREAM);
        let draws: Vec<u32> = (0..200).map(|_| rand15(&mut s)).collect();
        assert!(draws.iter().all(|d| *d <= 0x7FFF) && draws.iter().any(|d| *d > 0x3FFF));
        assert_eq!(draws[0], (same.next_u64() >> 49) as u32);
        let g = seeded_generator(&mut RandomStream::named(7, MUSIC_STREAM));
        assert!((g.a, g.b) != (0, 0) && g.previous == -1);
    }
}
