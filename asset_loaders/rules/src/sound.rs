//! Sound rules (the project's own: the original's event-to-sample table is not
//! recovered): which samples the game plays for engines, unit responses and interface
//! clicks, and when a unit counts as moving. Weapon and explosion samples are named by
//! the combat rules.

use crate::{Origin, RulesError};
use serde::Deserialize;

/// The sample table of the simulation's and the interface's sounds. Sample names are
/// sound keys: a bare name (the mission's sound library) or `archive/name`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundRules {
    /// The engine loop of a moving unit.
    pub engine_hum: String,
    /// Loop volume of one engine (0..1).
    pub engine_volume: f32,
    /// A unit whose speed is at least this (units per second) hums.
    pub engine_min_speed: f32,
    /// A unit's responses to an order of the player, taken in turn.
    pub responses: Vec<String>,
    /// An interface click.
    pub click: String,
    /// Origin label.
    pub origin: Origin,
}

fn bad(file: &str, rule: String, detail: &str) -> RulesError {
    RulesError::Invalid { file: file.into(), rule, detail: detail.into() }
}

impl SoundRules {
    /// Checks the label, the numbers and that every sample is named.
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
        if self.responses.is_empty() {
            return Err(bad(file, "sound.responses".into(), "at least one response sample"));
        }
        let named = [("sound.engine_hum".to_string(), &self.engine_hum), ("sound.click".to_string(), &self.click)];
        let responses = self.responses.iter().enumerate().map(|(i, r)| (format!("sound.responses[{i}]"), r));
        for (at, name) in named.into_iter().chain(responses) {
            if name.trim().is_empty() {
                return Err(bad(file, at, "a sample name is not empty"));
            }
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
            ("\"UNIT_ACK2.WAV\"", "\" \"", "sound.responses[1]"),
            ("responses: [\"UNIT_ACK1.WAV\", \"UNIT_ACK2.WAV\"]", "responses: []", "sound.responses"),
            ("\"UI_CLICK.WAV\",\n        origin: Project", "\"UI_CLICK.WAV\",\n        origin: Spec", "sound"),
        ];
        crate::tests::assert_refused(&cases);
    }
}
