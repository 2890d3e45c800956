//! Combat rules (the project's own: the original's are not recovered): hit points,
//! armour and armament by Unit DAT class word, and the weapon table.

use crate::{Origin, RulesError};
use serde::Deserialize;

/// How tough an object class is and what it fights with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Durability {
    /// Unit DAT class word (`docs/reference/registry.md` §2.2).
    pub class: u32,
    /// Readable name.
    pub name: String,
    /// Full hit points.
    pub hp: f32,
    /// Fraction of each hit absorbed (0..1).
    pub armour: f32,
    /// The weapon (by name in [`Combat::weapons`]), if it is armed.
    pub weapon: Option<String>,
    /// Radar range (game units); 0 for an unarmed object.
    pub radar: f32,
    /// Origin label.
    pub origin: Origin,
}

/// One weapon.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponRule {
    /// Name (what classes refer to).
    pub name: String,
    /// Reach (game units).
    pub range: f32,
    /// Damage per hit before armour.
    pub damage: f32,
    /// Seconds between shots.
    pub reload_seconds: f32,
    /// Projectile speed (units per second); 0 for an instant beam.
    pub projectile_speed: f32,
    /// Turret turn rate (degrees per second).
    pub turn_degrees: f32,
    /// Origin label.
    pub origin: Origin,
}

/// Combat rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combat {
    /// Durability and armament per class word.
    pub classes: Vec<Durability>,
    /// Hit points of any other building (class bit `0x80000000`) and any other robot.
    pub default_building_hp: f32,
    /// Hit points of a robot of a class without its own entry.
    pub default_robot_hp: f32,
    /// The weapon table.
    pub weapons: Vec<WeaponRule>,
    /// Origin label.
    pub origin: Origin,
}

pub(crate) fn bad(file: &str, rule: String, detail: &str) -> RulesError {
    RulesError::Invalid { file: file.into(), rule, detail: detail.into() }
}

pub(crate) fn finite_non_negative(values: &[f32]) -> bool {
    values.iter().all(|v| v.is_finite() && *v >= 0.0)
}

impl Combat {
    /// Checks labels, numbers, unique keys and that every referenced weapon exists.
    pub(crate) fn check(&self, file: &str) -> Result<(), RulesError> {
        let project = |at: String, o: Origin| {
            (o == Origin::Project)
                .then_some(())
                .ok_or_else(|| bad(file, at, "only the project's own rules belong in the rules file"))
        };
        project("combat".into(), self.origin)?;
        if !finite_non_negative(&[self.default_building_hp, self.default_robot_hp]) {
            return Err(bad(file, "combat".into(), "hit points must be finite and >= 0"));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, w) in self.weapons.iter().enumerate() {
            let at = format!("combat.weapons[{i}] ({})", w.name);
            project(at.clone(), w.origin)?;
            let numbers = [w.range, w.damage, w.reload_seconds, w.projectile_speed, w.turn_degrees];
            if !finite_non_negative(&numbers) || w.reload_seconds == 0.0 || w.turn_degrees == 0.0 {
                return Err(bad(file, at, "numbers must be finite and >= 0, reload and turn rate > 0"));
            }
            if !names.insert(w.name.as_str()) {
                return Err(bad(file, at, "the key is used by an earlier rule"));
            }
        }
        let mut classes = std::collections::BTreeSet::new();
        for (i, c) in self.classes.iter().enumerate() {
            let at = format!("combat.classes[{i}] ({})", c.name);
            project(at.clone(), c.origin)?;
            if !finite_non_negative(&[c.hp, c.radar]) || !(0.0..1.0).contains(&c.armour) {
                return Err(bad(file, at, "hit points and radar must be finite and >= 0, armour in 0..1"));
            }
            if c.weapon.as_ref().is_some_and(|w| !names.contains(w.as_str())) {
                return Err(bad(file, at, "names a weapon the weapon table does not have"));
            }
            if !classes.insert(c.class) {
                return Err(bad(file, at, "the key is used by an earlier rule"));
            }
        }
        Ok(())
    }

    /// The durability entry of `class`.
    pub fn class(&self, class: u32) -> Option<&Durability> {
        self.classes.iter().find(|c| c.class == class)
    }

    /// A weapon and its table index.
    pub fn weapon(&self, name: &str) -> Option<(u16, &WeaponRule)> {
        self.weapons.iter().enumerate().find(|(_, w)| w.name == name).map(|(i, w)| (i as u16, w))
    }
}
