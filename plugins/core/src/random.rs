//! Named seeded random streams: the engine's one **shared** stream (clan start order
//! changes its draws, spec `runtime.md` §3.6) and per-purpose streams, each advanced
//! only by its own users so adding a purpose never shifts another's numbers.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// One deterministic stream (SplitMix64 state).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct RandomStream {
    /// Generator state.
    pub state: u64,
}

impl RandomStream {
    /// The stream `name` of `seed`.
    pub fn named(seed: u64, name: &str) -> Self {
        Self { state: seed ^ fnv1a(name.as_bytes()) }
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
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
}

/// FNV-1a of a byte string.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.0
}

/// The simulation's random streams, reseeded when a mission starts.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Reflect)]
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
