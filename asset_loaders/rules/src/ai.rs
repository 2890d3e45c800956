//! The computer clans' rules (the project's own: the original's strategic AI is not
//! recovered): when they think, defend and attack, and what they build. They build from
//! what their clan can build in the mission's data (the production crate publishes it)
//! and choose by **role**, never by file name: a scheme's role comes from its Unit DAT
//! class word (`docs/reference/registry.md` §2.2) through [`Ai::roles`], or, for a robot of no listed
//! class, from its components (one of type [`Ai::armed_component`] makes it a battle unit).

use crate::combat::{bad, finite_non_negative};
use crate::{Origin, RulesError};
use serde::Deserialize;

/// What a unit scheme is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Role {
    /// Fights (the army).
    Battle,
    /// Carries ore (haulage).
    Transport,
    /// Builds.
    Builder,
    /// A clan's headquarters robot.
    Hq,
}

/// The role of a Unit DAT class word.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassRole {
    /// Unit DAT class word.
    pub class: u32,
    /// Its role.
    pub role: Role,
    /// Origin label.
    pub origin: Origin,
}

/// The computer clans' strategic layer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ai {
    /// Seconds between two decisions of one clan.
    pub think_seconds: f32,
    /// Enemy units this close to a clan's base anchor make it defend (game units).
    pub defend_radius: f32,
    /// It attacks when its idle battle strength is at least this times the strongest
    /// enemy's.
    pub attack_ratio: f32,
    /// Battle units it keeps at home while attacking.
    pub home_guard: u32,
    /// The fewest battle units it sends in one attack (besides the home guard).
    pub min_wave: u32,
    /// It orders a robot from each idle producer while it holds fewer than this many.
    pub unit_cap: u32,
    /// Roles by class word.
    pub roles: Vec<ClassRole>,
    /// A robot scheme (class bit `0x01000000`) of no listed class with a component of
    /// this type (`docs/reference/registry.md` §2.3) is a battle unit.
    pub armed_component: u32,
    /// The roles of the schemes it builds for its army, taken in turn.
    pub army: Vec<Role>,
    /// Seconds a clan waits before ordering a refused scheme again.
    pub retry_seconds: f32,
    /// A clan with a mine builds transport robots until it has this many.
    pub transports: u32,
    /// Origin label.
    pub origin: Origin,
}

/// The robot class bit of a Unit DAT class word (`docs/reference/registry.md` §2.2).
pub const ROBOT_CLASS_BIT: u32 = 0x0100_0000;

impl Ai {
    /// Checks the labels, the numbers and that every class has one role.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        let foreign = "only the project's own rules belong in the rules file";
        if self.origin != Origin::Project {
            return Err(bad(file, "ai".into(), foreign));
        }
        let ok = finite_non_negative(&[self.think_seconds, self.defend_radius, self.attack_ratio, self.retry_seconds])
            && self.think_seconds > 0.0;
        if !ok {
            return Err(bad(file, "ai".into(), "numbers must be finite and >= 0, think_seconds > 0"));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, r) in self.roles.iter().enumerate() {
            let at = format!("ai.roles[{i}] ({:#010x})", r.class);
            if r.origin != Origin::Project {
                return Err(bad(file, at, foreign));
            }
            if !seen.insert(r.class) {
                return Err(bad(file, at, "the key is used by an earlier rule"));
            }
        }
        if self.army.is_empty() {
            return Err(bad(file, "ai.army".into(), "at least one role to build an army of"));
        }
        Ok(())
    }

    /// The role of a scheme of class word `class` with components of these types:
    /// its class's role, else [`Role::Battle`] for a robot with an
    /// [`armed_component`](Self::armed_component), else none (it is not built).
    pub fn role(&self, class: u32, component_types: &[u32]) -> Option<Role> {
        let listed = self.roles.iter().find(|r| r.class == class).map(|r| r.role);
        let armed = class & ROBOT_CLASS_BIT != 0 && component_types.contains(&self.armed_component);
        listed.or(armed.then_some(Role::Battle))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_schemes_role_comes_from_its_class_or_its_components() {
        let ai = crate::Rules::shipped().unwrap().ai;
        assert_eq!(ai.role(0x0100_8000, &[0]), Some(Role::Battle));
        assert_eq!(ai.role(0x0100_2000, &[0]), Some(Role::Transport));
        assert_eq!(ai.role(0x0101_0000, &[0, 1, 4]), Some(Role::Hq), "the class decides first");
        assert_eq!(ai.role(0x0120_0000, &[0, 1, ai.armed_component]), Some(Role::Battle), "an armed robot");
        assert_eq!(ai.role(0x0120_0000, &[0, 1]), None, "an unarmed robot of no listed class");
        assert_eq!(ai.role(0x8000_0010, &[ai.armed_component]), None, "a building is no robot");
    }

    #[test]
    fn bad_ai_rules_are_refused_with_the_rule_named() {
        crate::tests::assert_refused(&[
            ("army: [Battle]", "army: []", "ai.army"),
            (
                "(class: 0x01002000, role: Transport, origin: Project)",
                "(class: 0x01008000, role: Transport, origin: Project)",
                "ai.roles[1] (0x01008000)",
            ),
            (
                "(class: 0x01010000, role: Hq, origin: Project)",
                "(class: 0x01010000, role: Hq, origin: Spec)",
                "ai.roles[2] (0x01010000)",
            ),
        ]);
    }
}
