//! Ore properties (`docs/reference/runtime.md` §4.4, confirmed): Behavior keeps `CurrentOre` and
//! `MaximumOre` in one property record (key `0x02000100`) — current in the main float
//! word, maximum in an extra DWORD. The mission load passes the `raw_value[1]` word of
//! the **first** property whose name matches a descriptor exactly (case-sensitive) to
//! that descriptor's setter, chosen by handler code (4 `CurrentOre` stores the raw
//! bits, 5 `MaximumOre` is a no-op), so reordering descriptor rows changes nothing.
//! Values not given by the mission come from the class default table.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::UnitClass;

/// Key of the ore property record.
pub const ORE_PROPERTY_KEY: u32 = 0x0200_0100;
/// Handler code of `CurrentOre`.
pub const CODE_CURRENT_ORE: u32 = 4;
/// Handler code of `MaximumOre`.
pub const CODE_MAXIMUM_ORE: u32 = 5;

/// A property descriptor: the name the mission load looks up and the handler code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Property name (exact, case-sensitive).
    pub name: &'static str,
    /// Handler code.
    pub code: u32,
}

/// Behavior's ore descriptors.
pub const DESCRIPTORS: [Descriptor; 2] = [
    Descriptor { name: "CurrentOre", code: CODE_CURRENT_ORE },
    Descriptor { name: "MaximumOre", code: CODE_MAXIMUM_ORE },
];

/// An object's ore property record.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct OreProperty {
    /// `CurrentOre`: the main float word's raw bits (kept without a float round trip).
    pub current_bits: u32,
    /// `MaximumOre`: the class's capacity, or a consumer's request (what its task
    /// asks the distributor for).
    pub maximum: f32,
}

impl OreProperty {
    /// The current amount.
    pub fn current(&self) -> f32 {
        f32::from_bits(self.current_bits)
    }

    /// Room left below `MaximumOre` (never negative).
    pub fn room(&self) -> f32 {
        (self.maximum - self.current()).max(0.0)
    }

    /// Sets the current amount.
    pub fn set(&mut self, amount: f32) {
        self.current_bits = amount.to_bits();
    }

    /// Adds `amount` (negative to take), without a bound: the distributor's step and
    /// production's payments decide how much.
    pub fn add(&mut self, amount: f32) {
        self.set(self.current() + amount);
    }

    /// Moves up to `amount` ore from `from` to `to` (never below 0 nor past `to`'s
    /// `MaximumOre` or `cap`): ore is moved, never made.
    pub fn transfer(from: &mut Self, to: &mut Self, amount: f32, cap: f32) {
        let space = (cap.min(to.maximum) - to.current()).max(0.0);
        let moved = amount.min(from.current()).min(space).max(0.0);
        from.add(-moved);
        to.set(if moved == space { cap.min(to.maximum) } else { to.current() + moved });
    }
}

/// Class defaults (Behavior RVA `0x8790`): `(CurrentOre, MaximumOre)`.
pub fn class_defaults(class: u32) -> (f32, f32) {
    match class {
        UnitClass::MINE => (0.0, 500.0),
        UnitClass::STORAGE => (0.0, 4000.0),
        UnitClass::TRANSPORT => (0.0, 2000.0),
        0x0100_4000 => (2000.0, 2000.0),
        _ => (0.0, 0.0),
    }
}

/// Applies a descriptor's setter.
fn set(p: &mut OreProperty, code: u32, raw: u32) {
    match code {
        CODE_CURRENT_ORE => p.current_bits = raw,
        // MaximumOre's setter reads the extra word but changes nothing.
        CODE_MAXIMUM_ORE => {}
        _ => {}
    }
}

/// The initial ore property of an object of `class` with the mission `properties`
/// (`(name, raw_value)` in bag order), through `descriptors`:
/// `current = first_exact("CurrentOre").raw_value[1] ?? class default`,
/// `maximum = class default`.
pub fn initial<'a>(
    class: u32,
    properties: impl Iterator<Item = (&'a str, [u32; 4])> + Clone,
    descriptors: &[Descriptor],
) -> OreProperty {
    let (current, maximum) = class_defaults(class);
    let mut p = OreProperty { current_bits: current.to_bits(), maximum };
    for d in descriptors {
        if let Some((_, raw)) = properties.clone().find(|(name, _)| *name == d.name) {
            set(&mut p, d.code, raw[1]);
        }
    }
    p
}
