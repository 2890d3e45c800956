//! An object's batteries and power channels, shared by the two subsystems that move
//! their charge (openparkan `docs/23-economy.md`, read and measured): combat's power tick
//! spends the batteries and sets each channel's level, a dock refills a unit's, and the
//! economy's distribution step refills a building's by what it lacks. [`PowerUsage`]
//! is what a building's task draws besides, and [`Efficiency`] what its efficiency
//! parts answer.

use crate::BatterySheet;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// The power tick's period (ms; `Control.dll:0x1000c756`, read).
pub const POWER_TICK_MS: u32 = 250;

/// An object's batteries and its channels' levels.
#[derive(Component, Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Power {
    /// Its batteries.
    pub batteries: Vec<BatterySheet>,
    /// What they hold, a fraction of their capacity (0..1; every battery alike).
    pub charge: f32,
    /// Each channel's level at the last power tick.
    pub levels: [f32; 6],
    /// Queue time of its next power tick (ms).
    pub next_ms: u32,
}

impl Power {
    /// Full batteries of `batteries` on the object `id`, every level 1; its first power
    /// tick falls at `id` modulo [`POWER_TICK_MS`] (the project's: the original's jitter
    /// of ±31 ms is not drawn).
    pub fn new(batteries: Vec<BatterySheet>, id: u32) -> Self {
        Self { batteries, charge: 1.0, levels: [1.0; 6], next_ms: id % POWER_TICK_MS }
    }

    /// Their whole capacity.
    pub fn capacity(&self) -> f32 {
        self.batteries.iter().map(|b| b.capacity).sum()
    }

    /// A battery of negative capacity makes the whole object read full (a generator's
    /// −1, `fr_l_gener`; `Control.dll:0x1002b42b`, read).
    pub fn reads_full(&self) -> bool {
        self.batteries.iter().any(|b| b.capacity < 0.0)
    }

    /// What the distribution step tops it up by at most: capacity × (1 − fill); nothing
    /// when it reads full.
    pub fn lacks(&self) -> f32 {
        if self.reads_full() { 0.0 } else { (self.capacity() * (1.0 - self.charge)).max(0.0) }
    }

    /// Adds `amount` to the batteries (the new fill written into every battery, never
    /// over full).
    pub fn top_up(&mut self, amount: f32) {
        let capacity = self.capacity();
        if capacity > 0.0 {
            self.charge = (self.charge + amount / capacity).min(1.0);
        }
    }
}

/// What a building's task draws per second besides its idle draw (the original's
/// `SetPowerUsage`, written on each of its efficiency parts): a digging mine its
/// `Use_Power`, a factory collecting a build's power or a centre a research's, 0
/// otherwise. The economy and production set it; combat's power tick draws it from the
/// batteries on channel 3, and the HUD's Energy bar counts it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PowerUsage(pub f32);

/// A building's efficiency (KPD) as its control system answers it: Σ its efficiency
/// parts' value × their node's condition (life over full life) × its channel-3 level
/// (openparkan `docs/23-economy.md`, read). Combat publishes it when it arms the
/// building and after each change of its body or its power; the economy digs, offers
/// ore and collects power by it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Efficiency(pub f32);
