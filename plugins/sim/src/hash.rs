//! The per-tick state hash, seeded with the data's layers (each layer's name and content
//! fingerprint, `DataLayers`, so runs on different data never agree), then the state the
//! crates declared (`iron3d_core::SimState`): each crate's hasher in crate order, then
//! the types hashed by their bytes, in tag order, as IEEE bits in `OriginalObjectId` /
//! clan order (word-wise FNV-1a). Same command log, same hash, on every machine.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{DataLayers, Fnv1a, GameClock, SimState};

/// The hash of every tick so far.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct StateHash {
    /// `(tick, hash)` for each tick run, in order.
    pub history: Vec<(u32, u64)>,
}

impl StateHash {
    /// The hash of the last tick.
    pub fn last(&self) -> Option<(u32, u64)> {
        self.history.last().copied()
    }
}

/// The hash of the world's simulation state now.
pub fn state_hash(world: &World) -> u64 {
    let mut h = Fnv1a::default();
    if let Some(layers) = world.get_resource::<DataLayers>() {
        for layer in &layers.0 {
            h.write(layer.name.as_bytes());
            h.wide(layer.fingerprint);
        }
    }
    if let Some(state) = world.get_resource::<SimState>() {
        state.hash_into(world, &mut h);
    }
    h.0
}

/// Records the hash at the end of each tick.
pub(crate) fn record(world: &mut World) {
    let hash = state_hash(world);
    let tick = world.resource::<GameClock>().tick;
    world.resource_mut::<StateHash>().history.push((tick, hash));
}
