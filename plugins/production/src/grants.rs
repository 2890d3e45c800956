//! The grants a mission gives a building (openparkan `docs/23-economy.md`, "The four grants",
//! read and measured): a factory builds its `FreeBotNum` robots free, a research centre
//! researches its `FreeTechnoNum` technologies free. A free robot costs no ore and 1
//! power, and takes a time set by the factory's and the chassis's sizes
//! ([`free_bot_seconds`]); a free technology costs no ore and no power.

use bevy_ecs::prelude::*;
use iron3d_core::PropertyBag;

/// What is left of a building's grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, bevy_reflect::Reflect, serde::Serialize, serde::Deserialize)]
pub struct Grants {
    /// Free robots left (`FreeBotNum`).
    pub bots: u32,
    /// Free technologies left (`FreeTechnoNum`).
    pub technologies: u32,
}

/// A whole-number property of the mission (`None`: absent, negative or not a number).
pub fn count(bag: &PropertyBag, name: &str) -> Option<u32> {
    match bag.first(name)?.value() {
        iron3d_formats::world::PropertyValue::Int(v) => u32::try_from(v).ok(),
        iron3d_formats::world::PropertyValue::Float(v) if v.is_finite() && v >= 0.0 => Some(v as u32),
        _ => None,
    }
}

/// The grants the mission's properties give (`None`: none).
pub fn of(bag: &PropertyBag) -> Option<Grants> {
    let g =
        Grants { bots: count(bag, "FreeBotNum").unwrap_or(0), technologies: count(bag, "FreeTechnoNum").unwrap_or(0) };
    (g != Grants::default()).then_some(g)
}

/// A size class from a prototype key's size letter (`Behavior.dll:0x10029e10` for a
/// chassis, its third letter, `R_T_02`; `0x1000cee0` for a building, its fourth,
/// `fr_l_plant`): `None` for a letter that names no size.
pub fn size(key: &str, building: bool) -> Option<u8> {
    iron3d_core::SizeClass::of_key(key, building).map(|s| s.0)
}

/// A free robot's time (seconds) by (factory size, chassis size)
/// (`Behavior.dll:0x1002a000`, read).
const FREE_BOT_SECONDS: [((u8, u8), f32); 9] = [
    ((2, 1), 30.0),
    ((2, 2), 60.0),
    ((3, 1), 20.0),
    ((3, 2), 35.0),
    ((3, 3), 60.0),
    ((4, 1), 10.0),
    ((4, 2), 20.0),
    ((4, 3), 40.0),
    ((4, 4), 60.0),
];

/// A free robot's time (seconds) at a factory of size `factory` for a chassis of size
/// `chassis`; any pair not listed takes 20.
pub fn free_bot_seconds(factory: Option<u8>, chassis: Option<u8>) -> f32 {
    let listed = FREE_BOT_SECONDS.iter().find(|((f, c), _)| factory == Some(*f) && chassis == Some(*c));
    listed.map_or(20.0, |p| p.1)
}

/// Every placed object's grants, by `OriginalObjectId`.
pub(crate) fn placed(world: &mut World) -> std::collections::BTreeMap<u32, Grants> {
    let mut q = world.query::<(&iron3d_core::OriginalObjectId, &PropertyBag)>();
    q.iter(world).filter_map(|(id, bag)| Some((id.0, of(bag)?))).collect()
}
