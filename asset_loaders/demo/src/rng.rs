//! Named, seeded random streams (splitmix64): each generator part draws from its own
//! stream, so adding content to one part never changes another part's output.

/// A deterministic random stream.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The stream `name` of `seed` (name hashed with FNV-1a).
    pub fn stream(seed: u64, name: &str) -> Self {
        let mut h = 0xCBF2_9CE4_8422_2325u64;
        for b in name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
        Self(seed ^ h)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// Uniform in `[0, 1)` with 24 bits (exact in `f32`, identical on every platform).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_independent() {
        let a: Vec<u64> = (0..4).map({
            let mut r = Rng::stream(7, "terrain");
            move |_| r.next_u64()
        }).collect();
        let b: Vec<u64> = (0..4).map({
            let mut r = Rng::stream(7, "terrain");
            move |_| r.next_u64()
        }).collect();
        assert_eq!(a, b);
        assert_ne!(Rng::stream(7, "terrain").next_u64(), Rng::stream(7, "models").next_u64());
        let mut r = Rng::stream(1, "x");
        assert!((0..1000).all(|_| r.below(10) < 10 && (0.0..1.0).contains(&r.unit())));
    }
}
