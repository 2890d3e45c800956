//! The game rules the data does not carry: one versioned RON file,
//! `assets/rules/iron3d.rules.ron`, used for any data directory. Most are the project's
//! own, labelled `origin: Project`; the original's compiled-in constants (a mine's dig
//! rate, a transport's load, its rates on and off board) are labelled `origin:
//! Original`, the file naming their source beside each, and only those rules may carry
//! that label. Anything else is refused, so no other value can claim to be the
//! original's.
//! It holds production costs (a robot's cost is the cost of its unit scheme's class
//! word plus one entry per component by component type, and the building classes that
//! build robots), research (ore per TRF cost unit, seconds per TRF time unit, the
//! building classes that research), combat (hit points, armour and armament per class
//! word, the weapon table), the computer clans' parameters (with their transports), the
//! sound table (engine, unit response and click samples) and haulage (what a transport
//! robot carries, how fast it loads and unloads, how close it must be).

mod ai;
mod combat;
mod cues;
mod haul;
mod sound;

pub use ai::{Ai, ClassRole, ROBOT_CLASS_BIT, Role};
pub use combat::{Combat, Durability, WeaponRule};
pub use cues::{CUES_FILE, CUES_VERSION, Cue, CueEvent, Cues};
pub use haul::HaulRules;
pub use sound::SoundRules;

use serde::Deserialize;

/// The rules file version this reader understands.
pub const VERSION: u32 = 9;
/// The rules file's path in the data tree: at the root of the project's data layer
/// (`assets/rules/`), so a game directory or a mod replaces it with a file of this name
/// at its root.
pub const FILE_NAME: &str = "iron3d.rules.ron";
/// The shipped rules file, relative to the repository's `assets/`.
pub const SHIPPED_PATH: &str = "rules/iron3d.rules.ron";
/// The shipped rules text, compiled in: the rules in force for data read without the
/// project's layer (a game directory opened alone, synthetic test worlds).
pub const SHIPPED: &str = include_str!("../../../assets/rules/iron3d.rules.ron");

/// Where a rule comes from. Only the project's own rules belong in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Origin {
    /// A design decision of the iron3d project.
    Project,
    /// Proven by the spec (refused: such values live in the code).
    Spec,
    /// A constant the original's engine compiles in (openparkan's docs, with their
    /// evidence tag beside it in the file); allowed only on the rules that are one.
    Original,
}

impl Origin {
    /// The label as checked on a rule that may be the original's: `Original` passes as
    /// the project's own would.
    pub(crate) fn unless_original(self) -> Self {
        if self == Self::Original { Self::Project } else { self }
    }
}

/// What building something costs.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// Ore.
    pub ore: f32,
    /// Power.
    pub power: f32,
    /// Build time in seconds.
    pub seconds: f32,
}

/// The cost of a unit scheme class word.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassCost {
    /// Unit DAT class word.
    pub class: u32,
    /// Readable name.
    pub name: String,
    /// The cost.
    pub cost: Cost,
    /// Origin label.
    pub origin: Origin,
}

/// The cost added per component of a component type.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentCost {
    /// Component type (`docs/reference/registry.md` §2.3).
    pub component_type: u32,
    /// Readable name.
    pub name: String,
    /// The cost.
    pub cost: Cost,
    /// Origin label.
    pub origin: Origin,
}

/// A building class that produces robots.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Producer {
    /// Building class word.
    pub class: u32,
    /// Readable name.
    pub name: String,
    /// Origin label.
    pub origin: Origin,
}

/// Production rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Production {
    /// Costs by scheme class word.
    pub classes: Vec<ClassCost>,
    /// Costs per component type.
    pub components: Vec<ComponentCost>,
    /// Producing building classes.
    pub producers: Vec<Producer>,
    /// Free ground between a producer's model and a new robot's, game units.
    pub spawn_gap: Scalar,
    /// Ore a mine digs per second at efficiency 1 (`Mine_OrePerSecond`), its running
    /// total up to its `MaximumOre`.
    pub mine_ore_per_second: Scalar,
}

/// One labelled number.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scalar {
    /// The value (finite, >= 0).
    pub value: f32,
    /// Origin label.
    pub origin: Origin,
}

/// Research rules: where research happens (what an item costs is the research tree's,
/// the original's `TRF0`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Research {
    /// Building classes that research (a research order names one of the clan's).
    pub institutes: Vec<Producer>,
}

/// The rules file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// File version.
    pub version: u32,
    /// Production costs.
    pub production: Production,
    /// Combat.
    pub combat: Combat,
    /// Computer clans.
    pub ai: Ai,
    /// Research costs and places.
    pub research: Research,
    /// The sound table.
    pub sound: SoundRules,
    /// Haulage by transport robots.
    pub haul: HaulRules,
}

/// Why a rules file was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// Not valid RON for the schema.
    #[error("{file}: {detail}")]
    Syntax {
        /// File name.
        file: String,
        /// Parser message with position.
        detail: String,
    },
    /// A version this reader does not know.
    #[error("{file}: rules version {found}, this build reads version {VERSION}{}", upgrade_hint(*.found))]
    Version {
        /// File name.
        file: String,
        /// Version found.
        found: u32,
    },
    /// A rule is invalid (`rule` names it).
    #[error("{file} -> {rule}: {detail}")]
    Invalid {
        /// File name.
        file: String,
        /// Which rule (e.g. `production.classes[2]`).
        rule: String,
        /// What is wrong.
        detail: String,
    },
}

/// What to change in a file of an older version (appended to the version error).
fn upgrade_hint(found: u32) -> &'static str {
    match found {
        4 => {
            "; version 4 named the computer clans' unit schemes by file (`ai.build`, \
             `ai.transport`): version 5 chooses them by role from the mission's data, so replace \
             those two keys with `roles`, `armed_component` and `army` (see the shipped file)"
        }
        5 => {
            "; version 5 named effects and samples (`combat` weapons' `effect` and `sound`, \
             `explosion_effect`, `explosion_sound`, `sound.engine_hum`, `responses`, `click`): \
             version 6 keeps no file name, so remove those keys and put the names in the data's \
             cue table `iron3d.cues.ron` (see the demo's)"
        }
        6 => {
            "; version 6 scaled a research item's cost and time (`research.ore_per_cost`, \
             `research.seconds_per_time`): version 7 takes them from the research tree as the \
             original does, so remove those two keys"
        }
        7 => {
            "; version 7 gave mining and haulage numbers of the project's own \
             (`production.mine_ore_per_second` 3, `haul` 200 a trip at 40 and 50 a second): \
             version 8 holds the original's constants there (50 a second, a mine writing its \
             running total over what it holds; 2000 a trip at 100 a second on and off \
             board), labelled `origin: Original`, so take those values and labels from the \
             shipped file"
        }
        8 => {
            "; version 8's `difficulty` section switched the project's scaling of the \
             computer clans' damage, build and research times: version 9 follows the \
             original, which gives the level's ratio as is to the life and damage of the \
             warriors, HQs and heroes of every clan not allied with the player, and has no \
             switch, so remove the section"
        }
        _ => "",
    }
}

impl Cost {
    fn valid(&self) -> bool {
        [self.ore, self.power, self.seconds].iter().all(|x| x.is_finite() && *x >= 0.0)
    }
}

/// Checks one labelled rule: the project's, a valid cost, a unique key.
fn check(file: &str, at: String, origin: Origin, cost: Option<&Cost>, fresh: bool) -> Result<(), RulesError> {
    let bad = |detail: &str| Err(RulesError::Invalid { file: file.into(), rule: at.clone(), detail: detail.into() });
    if origin != Origin::Project {
        return bad("only the project's own rules belong in the rules file");
    }
    if cost.is_some_and(|c| !c.valid()) {
        return bad("costs must be finite and >= 0");
    }
    if !fresh {
        return bad("the key is used by an earlier rule");
    }
    Ok(())
}

impl Rules {
    /// Parses and checks a rules file named `file` (for messages).
    ///
    /// # Errors
    /// Bad syntax, an unknown version, a rule not labelled `Project`, a negative or
    /// non-finite cost, or a duplicate key.
    pub fn parse(file: &str, text: &str) -> Result<Self, RulesError> {
        let rules: Rules =
            ron::from_str(text).map_err(|e| RulesError::Syntax { file: file.into(), detail: e.to_string() })?;
        if rules.version != VERSION {
            return Err(RulesError::Version { file: file.into(), found: rules.version });
        }
        let p = &rules.production;
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in p.classes.iter().enumerate() {
            let at = format!("production.classes[{i}] ({})", c.name);
            check(file, at, c.origin, Some(&c.cost), seen.insert(c.class))?;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in p.components.iter().enumerate() {
            let at = format!("production.components[{i}] ({})", c.name);
            check(file, at, c.origin, Some(&c.cost), seen.insert(c.component_type))?;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in p.producers.iter().enumerate() {
            check(file, format!("production.producers[{i}] ({})", c.name), c.origin, None, seen.insert(c.class))?;
        }
        rules.combat.check(file)?;
        rules.ai.check(file)?;
        rules.sound.check(file)?;
        rules.haul.check(file)?;
        let gap = Cost { ore: p.spawn_gap.value, ..Cost::default() };
        check(file, "production.spawn_gap".into(), p.spawn_gap.origin, Some(&gap), true)?;
        let mining = Cost { ore: p.mine_ore_per_second.value, ..Cost::default() };
        let origin = p.mine_ore_per_second.origin.unless_original();
        check(file, "production.mine_ore_per_second".into(), origin, Some(&mining), true)?;
        let r = &rules.research;
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in r.institutes.iter().enumerate() {
            check(file, format!("research.institutes[{i}] ({})", c.name), c.origin, None, seen.insert(c.class))?;
        }
        Ok(rules)
    }

    /// The shipped rules.
    ///
    /// # Errors
    /// When the shipped file is broken (a test keeps it valid).
    pub fn shipped() -> Result<Self, RulesError> {
        // Parsed once per process: every simulation plugin reads the same file.
        static PARSED: std::sync::OnceLock<Result<Rules, RulesError>> = std::sync::OnceLock::new();
        PARSED.get_or_init(|| Self::parse(SHIPPED_PATH, SHIPPED)).clone()
    }

    /// The cost of a robot of scheme class `class` with components of these types;
    /// `None` when the class has no cost (it cannot be built).
    pub fn robot_cost(&self, class: u32, component_types: &[u32]) -> Option<Cost> {
        let base = self.production.classes.iter().find(|c| c.class == class)?;
        let mut cost = base.cost;
        for t in component_types {
            if let Some(c) = self.production.components.iter().find(|c| c.component_type == *t) {
                cost.ore += c.cost.ore;
                cost.power += c.cost.power;
                cost.seconds += c.cost.seconds;
            }
        }
        Some(cost)
    }

    /// Whether buildings of `class` produce robots.
    pub fn produces(&self, class: u32) -> bool {
        self.production.producers.iter().any(|p| p.class == class)
    }

    /// Whether buildings of `class` research.
    pub fn researches(&self, class: u32) -> bool {
        self.research.institutes.iter().any(|p| p.class == class)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Each `(from, to, rule)`: the shipped file with `from` replaced by `to` is refused
    /// with an error that names `rule`.
    pub(crate) fn assert_refused(cases: &[(&str, &str, &str)]) {
        for (from, to, rule) in cases {
            assert!(SHIPPED.contains(from), "{from}");
            let e = Rules::parse("x.ron", &SHIPPED.replacen(from, to, 1)).unwrap_err().to_string();
            assert!(e.starts_with(&format!("x.ron -> {rule}: ")), "{e}");
        }
    }

    #[test]
    fn the_shipped_rules_parse_and_only_the_originals_constants_say_so() {
        let r = Rules::shipped().unwrap();
        assert_eq!(r.version, VERSION);
        assert!(!r.production.classes.is_empty() && !r.production.components.is_empty());
        assert!(r.produces(0x8000_0010) && !r.produces(0x8000_0004));
        assert!(r.researches(0x8000_0400) && !r.researches(0x8000_0010));
        let originals =
            [r.production.mine_ore_per_second, r.haul.capacity, r.haul.load_per_second, r.haul.unload_per_second];
        assert!(originals.iter().all(|s| s.origin == Origin::Original), "{originals:?}");
        assert_eq!(
            originals.map(|s| s.value),
            [50.0, 2000.0, 100.0, 100.0],
            "openparkan docs/23-economy.md's constants"
        );
        assert_eq!(
            SHIPPED.matches("origin: Original)").count(),
            originals.len(),
            "no other rule claims to be the original's"
        );
        assert_eq!((r.sound.engine_volume, r.sound.engine_min_speed), (0.5, 0.5));
    }

    #[test]
    fn a_robot_costs_its_class_plus_its_components() {
        let r = Rules::shipped().unwrap();
        let c = r.robot_cost(0x0100_8000, &[0, 1, 4]).unwrap();
        assert_eq!((c.ore, c.power, c.seconds), (150.0 + 50.0 + 40.0 + 60.0, 40.0 + 10.0 + 10.0 + 20.0, 17.0));
        assert_eq!(r.robot_cost(0x8000_0010, &[0]), None, "a building class is not a robot");
    }

    #[test]
    fn bad_files_are_refused_with_the_rule_named() {
        let other = SHIPPED.replace("version: 9", "version: 10");
        assert!(matches!(Rules::parse("x.ron", &other), Err(RulesError::Version { found: 10, .. })));
        // An unknown field is refused, never ignored (a typo would silently keep a default).
        let typo = SHIPPED.replace("engine_volume:", "engine_volum:");
        let e = Rules::parse("x.ron", &typo).unwrap_err().to_string();
        assert!(e.starts_with("x.ron: ") && e.contains("engine_volum"), "{e}");
        let old = SHIPPED.replace("version: 9", "version: 3");
        assert!(matches!(Rules::parse("x.ron", &old), Err(RulesError::Version { found: 3, .. })));
        let spec = SHIPPED.replacen("seconds: 10.0), origin: Project", "seconds: 10.0), origin: Spec", 1);
        let e = Rules::parse("x.ron", &spec).unwrap_err();
        assert!(e.to_string().contains("production.classes[0]"), "{e}");
        let negative = SHIPPED.replacen("ore: 150.0", "ore: -1.0", 1);
        assert!(Rules::parse("x.ron", &negative).unwrap_err().to_string().contains("finite"));
        assert!(matches!(Rules::parse("x.ron", &negative), Err(RulesError::Invalid { .. })));
        let unarmed = SHIPPED.replacen("weapon: Some(\"cannon\")", "weapon: Some(\"slingshot\")", 1);
        assert!(Rules::parse("x.ron", &unarmed).unwrap_err().to_string().contains("weapon table"));
        let armour = SHIPPED.replacen("armour: 0.2", "armour: 1.5", 1);
        assert!(Rules::parse("x.ron", &armour).unwrap_err().to_string().contains("combat.classes[0]"));
        let slow = SHIPPED.replacen("think_seconds: 4.0", "think_seconds: 0.0", 1);
        assert!(Rules::parse("x.ron", &slow).unwrap_err().to_string().contains("ai"));
        let institute =
            SHIPPED.replacen("name: \"Institute\", origin: Project", "name: \"Institute\", origin: Spec", 1);
        assert!(Rules::parse("x.ron", &institute).unwrap_err().to_string().contains("research.institutes[0]"));
        let broken = SHIPPED.replacen("classes: [", "classes: (", 1);
        assert!(matches!(Rules::parse("x.ron", &broken), Err(RulesError::Syntax { .. })));
        assert_refused(&[
            ("capacity: (value: 2000.0", "capacity: (value: 0.0", "haul.capacity"),
            ("load_per_second: (value: 100.0", "load_per_second: (value: -1.0", "haul.load_per_second"),
            (
                "unload_per_second: (value: 100.0, origin: Original",
                "unload_per_second: (value: 5.0, origin: Spec",
                "haul.unload_per_second",
            ),
            ("reach: (value: 30.0", "reach: (value: inf", "haul.reach"),
            ("reach: (value: 30.0, origin: Project", "reach: (value: 30.0, origin: Original", "haul.reach"),
            (
                "spawn_gap: (value: 4.0, origin: Project",
                "spawn_gap: (value: 4.0, origin: Original",
                "production.spawn_gap",
            ),
        ]);
    }

    #[test]
    fn version_4_to_8_files_are_refused_with_what_to_change() {
        let old = SHIPPED.replace("version: 9", "version: 4");
        let e = Rules::parse("old.ron", &old).unwrap_err();
        assert!(matches!(e, RulesError::Version { found: 4, .. }));
        let e = e.to_string();
        assert!(e.starts_with("old.ron: rules version 4, this build reads version 9; "), "{e}");
        assert!(e.contains("`ai.build`") && e.contains("by role"), "{e}");
        let e = Rules::parse("old.ron", &SHIPPED.replace("version: 9", "version: 5")).unwrap_err().to_string();
        assert!(e.contains("`explosion_effect`") && e.contains("iron3d.cues.ron"), "{e}");
        let e = Rules::parse("old.ron", &SHIPPED.replace("version: 9", "version: 6")).unwrap_err().to_string();
        assert!(e.contains("`research.ore_per_cost`") && e.contains("research tree"), "{e}");
        let e = Rules::parse("old.ron", &SHIPPED.replace("version: 9", "version: 7")).unwrap_err().to_string();
        assert!(e.contains("`production.mine_ore_per_second`") && e.contains("origin: Original"), "{e}");
        let e = Rules::parse("old.ron", &SHIPPED.replace("version: 9", "version: 8")).unwrap_err().to_string();
        assert!(e.contains("`difficulty` section") && e.contains("not allied with the player"), "{e}");
    }

    #[test]
    fn the_rules_file_names_no_file_of_a_game_tree() {
        // The rules hold for any data directory: no unit scheme, archive or mission file.
        let lower = SHIPPED.to_ascii_lowercase();
        for ext in [".dat", ".tma", ".rlb", ".lib", ".msh", ".trf", ".cfg", ".wav", "fx_"] {
            assert!(!lower.contains(ext), "the rules file names a {ext} file");
        }
    }
}
