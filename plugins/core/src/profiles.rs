//! [`BehaviourProfiles`]: the behaviour profiles of the data's `behpsp.res` (gameplay.md
//! §3.1), read by the mission load, published at registration.

use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

/// The data's behaviour profiles: each `.var` member of `behpsp.res` (by its name in
/// lower case, without `.var`: `prof_generator`) with its variables' values by name.
/// Empty when the data has no `behpsp.res`: every building then holds the original's
/// compiled defaults.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BehaviourProfiles {
    /// The archive's path in the data tree, if it has one.
    pub source: Option<String>,
    /// Profile name → variable name → value (bools as 0 or 1).
    pub profiles: BTreeMap<String, BTreeMap<String, f64>>,
}

impl BehaviourProfiles {
    /// The value of `variable` in `profile`, if the data has both.
    pub fn value(&self, profile: &str, variable: &str) -> Option<f64> {
        self.profiles.get(profile)?.get(variable).copied()
    }
}
