//! Haulage rules: a mine keeps what it digs in its own store and transport robots carry
//! it to the clan's other stores; these are the numbers of a trip (the load and the
//! rates the original's constants, the reach the project's).

use crate::{Origin, RulesError, Scalar};
use serde::Deserialize;

/// What one transport robot carries and how fast it loads and unloads.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HaulRules {
    /// Ore one trip carries at most (also capped by the transport's `MaximumOre`).
    pub capacity: Scalar,
    /// Ore per second a transport loads from a mine.
    pub load_per_second: Scalar,
    /// Ore per second a transport unloads into a store.
    pub unload_per_second: Scalar,
    /// How close (game units, centre to centre) a transport loads and unloads.
    pub reach: Scalar,
}

impl HaulRules {
    /// Checks every number: the project's (or the original's), finite and > 0.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        // The load and the rates are the original's constants; the reach is the project's.
        let numbers = [
            ("capacity", self.capacity.origin.unless_original(), self.capacity),
            ("load_per_second", self.load_per_second.origin.unless_original(), self.load_per_second),
            ("unload_per_second", self.unload_per_second.origin.unless_original(), self.unload_per_second),
            ("reach", self.reach.origin, self.reach),
        ];
        for (name, origin, s) in numbers {
            let detail = if origin != Origin::Project {
                "only the project's own rules belong in the rules file"
            } else if !(s.value.is_finite() && s.value > 0.0) {
                "a haul number is finite and > 0"
            } else {
                continue;
            };
            return Err(RulesError::Invalid { file: file.into(), rule: format!("haul.{name}"), detail: detail.into() });
        }
        Ok(())
    }
}
