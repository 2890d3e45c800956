//! Named seeded random streams: the engine's one **shared** stream (clan start order
//! changes its draws, `docs/reference/runtime.md` §3.6) and per-purpose streams, each advanced
//! only by its own users so adding a purpose never shifts another's numbers.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_formats::rng::SplitMix64;

/// One deterministic stream: the state of the workspace's SplitMix64, kept here so the
/// inspector and the state hash see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct RandomStream {
    /// Generator state.
    pub state: u64,
}

impl RandomStream {
    /// The stream `name` of `seed`.
    pub fn named(seed: u64, name: &str) -> Self {
        Self { state: SplitMix64::stream(seed, name).state() }
    }

    fn draw<T>(&mut self, f: impl FnOnce(&mut SplitMix64) -> T) -> T {
        let mut g = SplitMix64::new(self.state);
        let v = f(&mut g);
        self.state = g.state();
        v
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.draw(SplitMix64::next_u64)
    }

    /// Uniform in `0..1`, in steps of 2⁻¹⁶.
    pub fn fraction(&mut self) -> f32 {
        self.below(1 << 16) as f32 / 65_536.0
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        self.draw(|g| g.below(n))
    }
}

/// An incremental FNV-1a 64-bit hash (stream names, state hashes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv1a(pub u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self(0xCBF2_9CE4_8422_2325)
    }
}

impl Fnv1a {
    /// Adds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// Adds a 32-bit word in one step (word-wise FNV-1a: four times fewer steps than
    /// [`Fnv1a::write`] of its bytes, and a different value).
    pub fn word(&mut self, w: u32) {
        self.0 = (self.0 ^ u64::from(w)).wrapping_mul(0x0000_0100_0000_01B3);
    }

    /// Adds a 64-bit word as two words, low first.
    pub fn wide(&mut self, v: u64) {
        self.word(v as u32);
        self.word((v >> 32) as u32);
    }

    /// Adds each float's IEEE bits as a word.
    pub fn floats(&mut self, v: &[f32]) {
        v.iter().for_each(|x| self.word(x.to_bits()));
    }
}

/// FNV-1a of a byte string.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.0
}

/// The simulation's random streams, reseeded when a mission starts.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct SimRandom {
    /// The seed every stream derives from.
    pub seed: u64,
    /// The shared stream of the original engine (Behavior's first step, ...).
    pub shared: RandomStream,
    /// Per-purpose streams by name, in name order.
    pub streams: Vec<(String, RandomStream)>,
}

/// The default seed of a mission run (replays record theirs).
pub const DEFAULT_SEED: u64 = 0x1998_0000;

impl SimRandom {
    /// Fresh streams of `seed`.
    pub fn new(seed: u64) -> Self {
        Self { seed, shared: RandomStream::named(seed, "shared"), streams: Vec::new() }
    }

    /// The per-purpose stream `name`, created on first use.
    pub fn stream(&mut self, name: &str) -> &mut RandomStream {
        let i = match self.streams.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => i,
            Err(i) => {
                self.streams.insert(i, (name.to_string(), RandomStream::named(self.seed, name)));
                i
            }
        };
        &mut self.streams[i].1
    }
}

impl Default for SimRandom {
    fn default() -> Self {
        Self::new(DEFAULT_SEED)
    }
}
