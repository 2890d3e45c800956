//! Building sites (openparkan `docs/32-builder.md`, read): what crosses the crates that
//! put a building up. Behavior walks a builder and fetches its ore, production makes
//! the building and runs its construction sphere, combat keeps the builder's beam, the
//! mission load gives each building its rung.

use crate::{ModelBounds, Order};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use std::collections::BTreeMap;

/// What a building's placement sphere adds to its reach: 5 past the contour's farthest
/// point and 5 more in the placement's test (read; the contour taken as the model's
/// bounds is the project's reading).
pub const SPHERE_MARGIN: f32 = 10.0;

/// The placement sphere's radius of a building with `bounds` across the ground.
pub fn placement_radius(bounds: Option<&ModelBounds>) -> f32 {
    bounds.map_or(0.0, ModelBounds::reach) + SPHERE_MARGIN
}

/// A builder reached its site, or the building it upgrades, this tick (Behavior writes
/// it; production takes it in the same tick, `BehaviorPhase::Production`, so none waits
/// across a save).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct BuilderArrived {
    /// The builder.
    pub builder: u32,
    /// Its order: [`Order::Construct`] or [`Order::Upgrade`].
    pub order: Order,
}

/// The condition of a builder's beam (its node's life fraction, combat keeps it): both
/// builder tasks refuse to run without an intact one, a beam above 0 (read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct BeamCondition(pub f32);

impl BeamCondition {
    /// The beam is intact.
    pub fn intact(&self) -> bool {
        self.0 > 0.0
    }
}

/// The condition of a factory's creation node's joint, its node's life over its full
/// life (combat keeps it, as [`BeamCondition`]): with it destroyed the factory builds
/// nothing ("Plant creation node destroyed", openparkan `docs/36-factory.md`, read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct CreationNodeCondition(pub f32);

impl CreationNodeCondition {
    /// The joint stands.
    pub fn intact(&self) -> bool {
        self.0 > 0.0
    }
}

/// A building whose construction sphere runs (the original's property `0x20c`, 1 while
/// the building's task is order 18, read): it neither digs nor trades ore with
/// transports, and cannot be upgraded. Production sets and clears it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct UnderConstruction;

/// The ground-plan obstacle a building's construction sphere raises (openparkan
/// `docs/32-builder.md`, "The sphere as an obstacle", read): a regular octagon round the
/// sphere in place of the building's outline, from the phase that raises it to the
/// sphere's end. Production derives it each tick from the sphere (not saved); Wizard
/// keeps units out of it. Its sides face the axes and the diagonals (the project's: the
/// octagon's turn is not read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Component)]
pub struct DomeObstacle {
    /// From its centre to its corners.
    pub radius: f32,
}

impl DomeObstacle {
    /// The octagon round a sphere of radius `r`: r / cos 22.5° + 20 to its corners (read).
    pub fn round(r: f32) -> Self {
        Self { radius: r / libm::cosf(std::f32::consts::FRAC_PI_8) + 20.0 }
    }

    /// How far `d` (from its centre) lies outside it: the most any of its eight sides has
    /// `d` beyond it (negative inside; off a corner, less than the true distance).
    pub fn distance(&self, d: [f32; 2]) -> f32 {
        let apothem = self.radius * libm::cosf(std::f32::consts::FRAC_PI_8);
        let side = |k: u8| {
            let a = f32::from(k) * std::f32::consts::FRAC_PI_4;
            d[0] * libm::cosf(a) + d[1] * libm::sinf(a)
        };
        (0..8).map(side).fold(f32::MIN, f32::max) - apothem
    }
}

/// A building's rung on its scheme's `BuildDat.lst` ladder: its entry and the ladder's
/// length (the mission load gives it to every building of a listed scheme; an upgrade
/// moves a building one entry on).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Rung {
    /// The entry (0 the first building).
    pub level: u8,
    /// Entries in the ladder.
    pub of: u8,
}

impl Rung {
    /// The building has a next entry to be upgraded to.
    pub fn upgradable(&self) -> bool {
        self.level.saturating_add(1) < self.of
    }
}

/// What a clan's builders may put up: a scheme's first building, its ore cost from the
/// clan's research tree (the sum of its parts' build ore, read) and the radius of its
/// sphere, or why it cannot be built.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub enum BuildingPrice {
    /// The building can be built.
    Ore {
        /// Its ore cost.
        ore: f32,
        /// Its sphere's radius across the ground (the placement's test).
        radius: f32,
    },
    /// It cannot ("Cannot build", read): why.
    Refused(String),
}

/// Every clan's [`BuildingPrice`]s by clan and category (its index in
/// `BuildCategory::TABLE`); production publishes it as its orders' step begins.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct BuildingPrices(pub BTreeMap<(i32, u8), BuildingPrice>);

/// A building's construction sphere kills an object inside it (the action group of its
/// dome's states, read): production asks, combat destroys the object through its life
/// (`destroyed`, by the building), in the same tick's combat step.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KillRequest {
    /// The object killed.
    pub object: u32,
    /// The building whose sphere kills it.
    pub by: u32,
}

/// A unit its task makes invulnerable (the original's property 162): a builder from
/// its arrival at the building it upgrades until the upgrade is done (read). Behavior
/// sets and clears it; combat's hits and a sphere's kill spare it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Invulnerable;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dome_is_an_octagon_round_the_sphere_20_past_its_corners() {
        let dome = DomeObstacle::round(30.0);
        assert!((dome.radius - (30.0 / 0.923_879_5 + 20.0)).abs() < 1e-3, "{}", dome.radius);
        let apothem = 30.0 + 20.0 * 0.923_879_5;
        assert!(dome.distance([apothem, 0.0]).abs() < 1e-3, "on a side facing x");
        assert!(dome.distance([0.0, -apothem - 5.0]) > 4.99, "5 beyond the side facing −y");
        assert!(dome.distance([0.0, 0.0]) < -apothem + 1e-3, "inside, as deep as its apothem");
        let corner = std::f32::consts::FRAC_PI_8;
        let at = [dome.radius * libm::cosf(corner), dome.radius * libm::sinf(corner)];
        assert!(dome.distance(at).abs() < 1e-3, "a corner between the sides facing x and the diagonal");
    }
}
