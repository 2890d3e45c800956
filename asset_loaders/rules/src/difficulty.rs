//! What the difficulty level scales (the project's own rule: the original keeps three
//! coefficients in `Iron_3D.ini` `[LEVEL_RATIO]`, what they scale is not recovered).
//! The level's coefficient divided by the normal level's is the *scale* (1 at normal);
//! each switch here says whether the computer clans' quantity follows it.

use crate::{Origin, RulesError};
use serde::Deserialize;

/// The quantities the difficulty scale applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DifficultyRules {
    /// The computer clans' weapons do damage × scale.
    pub computer_damage: bool,
    /// The computer clans' robots build in seconds ÷ scale.
    pub computer_build_speed: bool,
    /// The computer clans' research runs in seconds ÷ scale.
    pub computer_research_speed: bool,
    /// Always `Project`.
    pub origin: Origin,
}

impl Default for DifficultyRules {
    /// Nothing scales (a rules file without the section).
    fn default() -> Self {
        Self {
            computer_damage: false,
            computer_build_speed: false,
            computer_research_speed: false,
            origin: Origin::Project,
        }
    }
}

impl DifficultyRules {
    /// Checks the label.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        if self.origin == Origin::Project {
            return Ok(());
        }
        Err(RulesError::Invalid {
            file: file.into(),
            rule: "difficulty".into(),
            detail: "only the project's own rules belong in the rules file".into(),
        })
    }

    /// The factor on a computer clan's weapon damage at `scale`.
    pub fn damage(&self, scale: f32) -> f32 {
        if self.computer_damage { scale } else { 1.0 }
    }

    /// The factor on a computer clan's build time at `scale`.
    pub fn build_time(&self, scale: f32) -> f32 {
        if self.computer_build_speed { 1.0 / scale } else { 1.0 }
    }

    /// The factor on a computer clan's research time at `scale`.
    pub fn research_time(&self, scale: f32) -> f32 {
        if self.computer_research_speed { 1.0 / scale } else { 1.0 }
    }
}
