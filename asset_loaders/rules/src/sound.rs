//! Sound rules (the project's own): how loud an engine hums and when a unit counts as
//! moving. Which samples play for an event is the data's cue table
//! ([`crate::Cues`]), never the rules'.

use crate::{Origin, RulesError};
use serde::Deserialize;

/// The engine sound's numbers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundRules {
    /// Loop volume of one engine (0..1).
    pub engine_volume: f32,
    /// A unit whose speed is at least this (units per second) hums.
    pub engine_min_speed: f32,
    /// Origin label.
    pub origin: Origin,
}

fn bad(file: &str, rule: String, detail: &str) -> RulesError {
    RulesError::Invalid { file: file.into(), rule, detail: detail.into() }
}

impl SoundRules {
    /// Checks the label and the numbers.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        if self.origin != Origin::Project {
            return Err(bad(file, "sound".into(), "only the project's own rules belong in the rules file"));
        }
        if !(0.0..=1.0).contains(&self.engine_volume) {
            return Err(bad(file, "sound.engine_volume".into(), "a volume is in 0..1"));
        }
        if !(self.engine_min_speed.is_finite() && self.engine_min_speed > 0.0) {
            return Err(bad(file, "sound.engine_min_speed".into(), "a speed is finite and > 0"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bad_sound_rules_are_refused_with_the_rule_named() {
        let cases = [
            ("engine_volume: 0.5", "engine_volume: 2.0", "sound.engine_volume"),
            ("engine_min_speed: 0.5", "engine_min_speed: 0.0", "sound.engine_min_speed"),
            (
                "engine_min_speed: 0.5,\n        origin: Project",
                "engine_min_speed: 0.5,\n        origin: Spec",
                "sound",
            ),
        ];
        crate::tests::assert_refused(&cases);
    }
}
