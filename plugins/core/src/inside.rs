//! Where a unit is when it is not out on the ground, and what it may take: a small unit
//! gone into a building's hall way to stand on its control pod ([`Indoors`]), the hero
//! aboard a bot he boarded ([`Aboard`]), a unit taken by the hero from a neutral clan
//! ([`Mindless`]), and an object's size class ([`SizeClass`]), which decides who may
//! capture and what may be boarded (openparkan `docs/27-ownership.md` and
//! `docs/39-boarding.md`, read and measured). Behavior sets and clears the first three.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// An object's size class, the original's object property `0x201`: 1 tiny, 2 small,
/// 3 medium, 4 large, 5 a building's `e` (read). A unit's comes from its chassis key's
/// third letter (`R_T_02`: `t` 1, `l` and `h` 2, `m` 3, `b` 4), a building's from its
/// model key's fourth (`fr_l_plant`: `l` 2, `m` 3, `b` 4, `e` 5); set when the object
/// is made.
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Reflect, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct SizeClass(pub u8);

impl SizeClass {
    /// The largest class that captures (order 17 refuses bigger, read): every hero.
    pub const CAPTURER: u8 = 2;
    /// The only class the hero boards (read).
    pub const BOARDABLE: u8 = 4;

    /// The class a prototype key's size letter names (`None` for a letter naming none):
    /// a chassis key's third letter, or a building model key's fourth (`building`).
    pub fn of_key(key: &str, building: bool) -> Option<Self> {
        let letter = key.as_bytes().get(if building { 3 } else { 2 })?.to_ascii_lowercase();
        let class = match (letter, building) {
            (b't', false) => 1,
            (b'l', _) | (b'h', false) => 2,
            (b'm', _) => 3,
            (b'b', _) => 4,
            (b'e', true) => 5,
            _ => return None,
        };
        Some(Self(class))
    }
}

/// A unit inside a building's hall way (by the building's id): it went in to stand on
/// the control pod. The building's walls do not push it out while it is there.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Indoors(pub u32);

/// The hero aboard the bot he boarded (by the bot's id): detached from the world, he is
/// not drawn, not hit, on no radar and pushes nothing, and keeps his place until he
/// leaves (read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Aboard(pub u32);

/// A unit that holds no mind of its clan's: taken from a neutral clan by the hero's
/// Enter (`gameplay.md` §5.1, read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Mindless;
