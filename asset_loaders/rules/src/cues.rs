//! The cue table (the project's own format; the original's event-to-sample and
//! event-to-effect tables are not recovered): which FXID effect and which samples the
//! game plays for an event, keyed by event and selected by the object's Unit DAT class
//! word and, for a shot, its weapon. It belongs to the game data, not to the rules: the
//! names it holds are entries of that data's `effects.rlb` and sound libraries, so it is
//! read from [`CUES_FILE`] at the root of the data's layers (the demo ships one). Data
//! without one plays no event cues (effects still sound through their own opcode-2
//! records), and says so once.

use crate::{Origin, RulesError};
use serde::Deserialize;

/// The cue table's path in the data tree.
pub const CUES_FILE: &str = "iron3d.cues.ron";
/// The cue table version this reader understands.
pub const CUES_VERSION: u32 = 1;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum CueEvent {
    /// A unit moves (its engine loop).
    Engine,
    /// A unit answers the player's order (samples taken in turn).
    Response,
    /// An interface click.
    Click,
    /// A weapon fires (effect at the muzzle and the hit, sample at the muzzle).
    Shot,
    /// An object is destroyed.
    Explosion,
}

/// One entry: what plays for `event`, for objects of `class` and, for shots, weapon
/// `weapon`; an entry naming neither is the event's fallback.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cue {
    /// The event.
    pub event: CueEvent,
    /// Only for objects of this Unit DAT class word.
    #[serde(default)]
    pub class: Option<u32>,
    /// Only for this weapon of the combat rules (shots).
    #[serde(default)]
    pub weapon: Option<String>,
    /// The FXID effect of `effects.rlb` (shots and explosions).
    #[serde(default)]
    pub effect: Option<String>,
    /// Sound keys: a bare name (the mission's sound library) or `archive/name`.
    #[serde(default)]
    pub samples: Vec<String>,
}

/// The cue table of a data directory.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cues {
    /// [`CUES_VERSION`].
    pub version: u32,
    /// Origin label (only the project's own tables exist).
    pub origin: Origin,
    /// The entries, tried in order.
    pub cues: Vec<Cue>,
}

impl Default for Cues {
    /// The empty table (data without one).
    fn default() -> Self {
        Self { version: CUES_VERSION, origin: Origin::Project, cues: Vec::new() }
    }
}

impl Cues {
    /// Parses and checks a cue table named `file` (for messages).
    ///
    /// # Errors
    /// Bad syntax, an unknown version, a table not labelled `Project`, an entry that
    /// plays nothing, a weapon on an event other than a shot, an effect on an event
    /// that shows none, or an empty name.
    pub fn parse(file: &str, text: &str) -> Result<Self, RulesError> {
        let cues: Cues =
            ron::from_str(text).map_err(|e| RulesError::Syntax { file: file.into(), detail: e.to_string() })?;
        let bad = |at: String, detail: &str| RulesError::Invalid { file: file.into(), rule: at, detail: detail.into() };
        if cues.version != CUES_VERSION {
            return Err(bad("version".into(), "this build reads cue table version 1"));
        }
        if cues.origin != Origin::Project {
            return Err(bad("origin".into(), "only the project's own tables exist (origin: Project)"));
        }
        for (i, c) in cues.cues.iter().enumerate() {
            let at = format!("cues[{i}] ({:?})", c.event);
            let shows = matches!(c.event, CueEvent::Shot | CueEvent::Explosion);
            if c.effect.is_none() && c.samples.is_empty() {
                return Err(bad(at, "an entry plays an effect or a sample"));
            }
            if c.weapon.is_some() && c.event != CueEvent::Shot {
                return Err(bad(at, "only a shot has a weapon"));
            }
            if c.effect.is_some() && !shows {
                return Err(bad(at, "only shots and explosions show an effect"));
            }
            let names = c.weapon.iter().chain(&c.effect).chain(&c.samples);
            if names.into_iter().any(|n| n.trim().is_empty()) {
                return Err(bad(at, "a name is not empty"));
            }
        }
        Ok(cues)
    }

    /// The cue of `event` for an object of `class` (and, for a shot, `weapon`): the
    /// first entry whose selectors all match, else the event's first fallback.
    pub fn pick(&self, event: CueEvent, class: Option<u32>, weapon: Option<&str>) -> Option<&Cue> {
        let of_event = || self.cues.iter().filter(move |c| c.event == event);
        let selective = |c: &&Cue| c.class.is_some() || c.weapon.is_some();
        let matches = |c: &&Cue| {
            c.class.is_none_or(|k| Some(k) == class) && c.weapon.as_deref().is_none_or(|w| Some(w) == weapon)
        };
        of_event().filter(selective).find(matches).or_else(|| of_event().find(|c| !selective(c)))
    }

    /// Every effect the table names, in table order without repeats.
    pub fn effects(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for e in self.cues.iter().filter_map(|c| c.effect.as_deref()) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = r#"(version: 1, origin: Project, cues: [
        (event: Shot, weapon: Some("cannon"), class: Some(7), effect: Some("a"), samples: ["A.WAV"]),
        (event: Shot, weapon: Some("cannon"), effect: Some("b")),
        (event: Shot, effect: Some("c"), samples: ["C.WAV"]),
        (event: Engine, class: Some(7), samples: ["E7.WAV"]),
        (event: Engine, samples: ["E.WAV"]),
    ])"#;

    #[test]
    fn the_most_selective_matching_entry_wins_and_the_fallback_takes_the_rest() {
        let t = Cues::parse("t.ron", TABLE).unwrap();
        let effect = |class, weapon| t.pick(CueEvent::Shot, class, weapon).and_then(|c| c.effect.clone());
        assert_eq!(effect(Some(7), Some("cannon")).as_deref(), Some("a"));
        assert_eq!(effect(Some(8), Some("cannon")).as_deref(), Some("b"), "any class with the cannon");
        assert_eq!(effect(Some(7), Some("laser")).as_deref(), Some("c"), "the fallback");
        assert_eq!(t.pick(CueEvent::Engine, Some(7), None).unwrap().samples, ["E7.WAV"]);
        assert_eq!(t.pick(CueEvent::Engine, None, None).unwrap().samples, ["E.WAV"]);
        assert_eq!(t.pick(CueEvent::Click, None, None), None, "no entry, no cue");
        assert_eq!(t.effects(), ["a", "b", "c"]);
    }

    #[test]
    fn bad_tables_are_refused_naming_the_entry() {
        let err = |text: &str| Cues::parse("t.ron", text).unwrap_err().to_string();
        let one = |entry: &str| format!("(version: 1, origin: Project, cues: [{entry}])");
        assert!(err(&one("(event: Click)")).contains("cues[0] (Click): an entry plays"));
        assert!(err(&one("(event: Click, weapon: Some(\"x\"), samples: [\"A\"])")).contains("only a shot"));
        assert!(err(&one("(event: Engine, effect: Some(\"x\"))")).contains("only shots and explosions"));
        assert!(err(&one("(event: Shot, samples: [\" \"])")).contains("not empty"));
        assert!(err("(version: 2, origin: Project, cues: [])").contains("version"));
        assert!(err("(version: 1, origin: Spec, cues: [])").contains("origin"));
        assert!(err(&one("(event: Shot, sample: \"A\")")).starts_with("t.ron: "), "unknown fields are refused");
    }
}
