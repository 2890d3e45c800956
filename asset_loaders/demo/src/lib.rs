//! Deterministic generator of a small but complete game tree in the real Iron3D
//! formats, written with the project's own writers. Same seed -> byte-identical tree
//! on every machine: no wall clock, no hash-order iteration, no float formatting.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

pub mod arms;
pub mod catalogue;
pub mod configs;
pub mod controls;
pub mod effects;
pub mod geometry;
pub mod hud_art;
mod libraries;
pub mod materials;
pub mod missions;
pub mod models;
pub mod original_like;
pub mod profiles;
mod registry;
pub mod scripts;
pub mod sounds;
pub mod terrain;
pub mod texts;
pub mod textures;
mod tree;
pub mod weather;

pub use tree::DemoTree;

use iron3d_formats::Result;

/// The default seed of the bundled demo.
pub const DEFAULT_SEED: u64 = 0x1998_0000;

/// Generates the whole demo tree in memory.
pub fn build(seed: u64) -> Result<DemoTree> {
    let mut tree = DemoTree::default();
    registry::write(&mut tree)?;
    libraries::write(&mut tree, seed)?;
    missions::write(&mut tree, seed)?;
    sounds::write(&mut tree, seed)?;
    effects::write(&mut tree)?;
    scripts::write(&mut tree)?;
    configs::write(&mut tree)?;
    models::write(&mut tree, seed)?;
    weather::write(&mut tree)?;
    profiles::write(&mut tree)?;
    controls::write(&mut tree)?;
    hud_art::write(&mut tree)?;
    Ok(tree)
}

#[cfg(test)]
mod tests;
