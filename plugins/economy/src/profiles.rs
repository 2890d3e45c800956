//! The economy's numbers of each building's behaviour profile (`behpsp.res`, gameplay.md
//! §3.1; dragonee/openparkan `docs/23-economy.md`, measured): a Type runs the profile
//! [`BY_TYPE`] names, and a Type without one, or data without `behpsp.res`, holds the
//! block's compiled defaults ([`Profile::COMPILED`]).

use bevy_ecs::prelude::*;
use iron3d_core::{BehaviourProfiles, UnitClass};
use std::collections::BTreeMap;

/// The profile each Type runs (`Behavior.dll:0x10008a80`): the generator, mine,
/// storage, factory (`prof_plant`) and the three bunkers are read (op23); the others
/// are openparkan's engine code's reading (a *guess* here: its docs do not state them).
pub const BY_TYPE: [(u32, &str); 19] = [
    (UnitClass::GENERATOR, "prof_generator"),
    (UnitClass::MINE, "prof_mine"),
    (UnitClass::STORAGE, "prof_storage"),
    (0x8000_0010, "prof_plant"),
    (0x8001_0000, "prof_bunker"),
    (0x8002_0000, "prof_bunker"),
    (0x8004_0000, "prof_bunker"),
    (0x8000_0040, "prof_angar"),
    (0x8000_0080, "prof_mast"),
    (0x8000_0100, "prof_teleport"),
    (0x8000_0200, "prof_mtp"),
    (0x8000_0400, "prof_institute"),
    (0x8010_0000, "prof_tower"),
    (0x8020_0000, "prof_tower"),
    (UnitClass::TRANSPORT, "prof_trn"),
    (0x0100_4000, "prof_bld"),
    (0x0100_8000, "prof_war"),
    (UnitClass::HERO, "prof_hero"),
    (UnitClass::ANIMAL, "prof_animal"),
];

/// The Types that supply power (`Behavior.dll:0x10019e80`, read): the generator and the
/// three bunkers; each gives its `Transfer_Power_Out` per second.
pub const SUPPLIERS: [u32; 4] = [UnitClass::GENERATOR, 0x8001_0000, 0x8002_0000, 0x8004_0000];

/// A profile's economy variables.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// `Transfer_Power_Out`: power given per second (a supplier's).
    pub power_out: f32,
    /// `Use_Power`: power drawn per second while the building works.
    pub use_power: f32,
    /// `Use_Ore`: ore taken in per second while it researches.
    pub use_ore: f32,
    /// `Transfer_Ore_OnBoard`: ore taken on per second.
    pub ore_onboard: f32,
    /// `Transfer_Ore_OffBoard`: ore given off per second per unit of efficiency.
    pub ore_offboard: f32,
}

impl Profile {
    /// The behaviour block's compiled defaults before a profile binds (runtime.md §4.5:
    /// `Transfer_Power_Out` 100, `Transfer_Ore_OffBoard` 5); the others' defaults are
    /// unknown and 0 here (the project's).
    pub const COMPILED: Self =
        Self { power_out: 100.0, use_power: 0.0, use_ore: 0.0, ore_onboard: 0.0, ore_offboard: 5.0 };

    /// `name`'s variables in `data`, each missing one at its compiled default.
    fn read(data: &BehaviourProfiles, name: &str) -> Self {
        let get = |variable: &str, default: f32| data.value(name, variable).map_or(default, |v| v as f32);
        let d = Self::COMPILED;
        Self {
            power_out: get("Transfer_Power_Out", d.power_out),
            use_power: get("Use_Power", d.use_power),
            use_ore: get("Use_Ore", d.use_ore),
            ore_onboard: get("Transfer_Ore_OnBoard", d.ore_onboard),
            ore_offboard: get("Transfer_Ore_OffBoard", d.ore_offboard),
        }
    }
}

/// The profile of each Type the data has one for.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct EconomyProfiles(pub BTreeMap<u32, Profile>);

impl EconomyProfiles {
    /// The profiles `data` gives the Types of [`BY_TYPE`] (those whose profile it has).
    pub fn from_data(data: &BehaviourProfiles) -> Self {
        let known = BY_TYPE.iter().filter(|(_, name)| data.profiles.contains_key(*name));
        Self(known.map(|&(ty, name)| (ty, Profile::read(data, name))).collect())
    }

    /// The profile of Type `class` ([`Profile::COMPILED`] without one).
    pub fn of(&self, class: u32) -> Profile {
        self.0.get(&class).copied().unwrap_or(Profile::COMPILED)
    }
}

/// Takes the mission's profiles when the scenario starts.
pub(crate) fn adopt(data: Option<Res<BehaviourProfiles>>, mut profiles: ResMut<EconomyProfiles>) {
    *profiles = data.map(|d| EconomyProfiles::from_data(&d)).unwrap_or_default();
}
