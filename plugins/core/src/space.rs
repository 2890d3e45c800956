//! The axis rule: **all simulation state is in game units, Z up** (X/Y the ground
//! plane, as in `data.tma`); Bevy's Y-up appears only in presentation, which converts
//! [`SimTransform`] when it draws (`iron3d_assets::axes`).
//!
//! Orientation is the TMA triple `[x, y, z]` in radians with `R = Rz(z)·Ry(y)·Rx(x)`;
//! a unit's forward is game +X turned by `R`, so its heading is `z`.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// An object's simulated placement (game units, Z up).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct SimTransform {
    /// Position.
    pub position: [f32; 3],
    /// Euler angles `[roll, pitch, heading]`, `R = Rz·Ry·Rx`.
    pub orientation: [f32; 3],
    /// Scale per game axis.
    pub scale: [f32; 3],
}

impl SimTransform {
    /// The heading (rotation about Z, radians; 0 faces game +X).
    pub fn heading(&self) -> f32 {
        self.orientation[2]
    }
}

impl Default for SimTransform {
    fn default() -> Self {
        Self { position: [0.0; 3], orientation: [0.0; 3], scale: [1.0; 3] }
    }
}

/// The placement at the start of the last tick, so presentation can interpolate
/// between the last two ticks (written by Control before it moves anything).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PreviousSimTransform(pub SimTransform);

/// Where presentation draws an object instead of its [`SimTransform`] (a network
/// mirror between two updates); never read by the simulation.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PresentedTransform(pub SimTransform);

/// An object's model bounds in its local game space (the union over its components,
/// before scale); collision proxies and building footprints are built from them.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct ModelBounds {
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

impl ModelBounds {
    /// Horizontal reach of the bounds from the object's origin.
    pub fn reach(&self) -> f32 {
        let x = self.min[0].abs().max(self.max[0].abs());
        let y = self.min[1].abs().max(self.max[1].abs());
        libm::hypotf(x, y)
    }
}
