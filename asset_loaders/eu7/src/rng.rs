//! A small seeded PRNG (splitmix64) and a Zipf sampler, for deterministic generation.

/// splitmix64 generator: deterministic for a given seed, no global state.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// Uniform integer in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

/// Zipf(s) over ranks `0..n` by inverse CDF lookup.
#[derive(Debug, Clone)]
pub struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    /// Distribution over `n` ranks with exponent `s`.
    pub fn new(n: usize, s: f64) -> Self {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (1..=n.max(1)).map(|k| {
            acc += 1.0 / (k as f64).powf(s);
            acc
        }).collect();
        for c in &mut cdf {
            *c /= acc;
        }
        Self { cdf }
    }
    /// Samples a rank.
    pub fn sample(&self, rng: &mut SplitMix64) -> usize {
        let u = rng.unit();
        self.cdf.partition_point(|&c| c <= u).min(self.cdf.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_skewed() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        assert_eq!(a.next_u64(), b.next_u64());
        let z = Zipf::new(100, 1.0);
        let mut hits = [0u32; 100];
        for _ in 0..10_000 {
            hits[z.sample(&mut a)] += 1;
        }
        // Rank 0 carries about 1/H(100) ≈ 19 % of the mass, rank 99 about 0.2 %.
        assert!(hits[0] > 1500 && hits[0] < 2400, "{}", hits[0]);
        assert!(hits[0] > 20 * hits[99]);
    }
}
