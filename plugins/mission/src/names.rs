//! Objects' names as the original gives them (openparkan `docs/35-hud.md`, "Name and
//! status", read and measured; `docs/38-designs.md`, "The name", read):
//!
//! * a unit: the hero *Human*, an animal *Animal*, a robot with a battery of negative
//!   capacity *Tiny Tower*, any other `"%s-%d %s"`: its size letter (T, S, M, L for
//!   size classes 1–4), its chassis's `ChassisType` letter (F, S, W, T, A, U for 1–6),
//!   its Type's letter (B, T, W, C, H), `?` for what names none, `-`, one more than its
//!   clan's count and its Type's word (*Unknown* for any other Type). Every unit raises
//!   its clan's count, whichever name it gets, placed units in file order at the load;
//! * a building: by its Type and its size class (strings 6031–6098), *Unknown* where the
//!   original has no string. The towers' Types (`Tower_Medium`, `Tower_Large`) taken
//!   for the light and the heavy tower is the project's reading (a guess: the strings
//!   are read, not which Type each belongs to).
//!
//! The words are the original's English strings (6200–6205, 6230, 6253, 6076, 6031–
//! 6098).

use crate::PreparedObject;
use iron3d_core::{ObjectKind, SizeClass, UnitClass};
use std::collections::BTreeMap;

/// Unit Types with their name's letter and word (strings 6200–6204, 6230's "Human").
pub const UNIT_TYPES: [(u32, char, &str); 5] = [
    (UnitClass::BATTLE_UNIT, 'W', "Warrior"),
    (UnitClass::TRANSPORT, 'T', "Transport"),
    (UnitClass::BUILDER, 'B', "Builder"),
    (UnitClass::HQ, 'C', "Comm. Center"),
    (UnitClass::HERO, 'H', "Human"),
];
/// The word of a Type that names none (string 6205).
pub const UNKNOWN: &str = "Unknown";
/// An animal's Type (`0x20000000`, read).
const ANIMAL: u32 = 0x2000_0000;
/// The size letters of size classes 1–4 (property `0x201`).
const SIZE_LETTERS: &str = "TSML";
/// The letters of a `ChassisType`, 1 to 6 (property `0x207`).
const CHASSIS_LETTERS: &str = "FSWTAU";

/// A building Type's names.
enum Names {
    /// One name at any size.
    One(&'static str),
    /// The names of sizes 2, 3, 4 and 5 (`None` where the original has no string).
    Sized([Option<&'static str>; 4]),
}

/// Buildings by Type.
const BUILDINGS: [(u32, Names); 14] = [
    (UnitClass::MINE, Names::Sized([Some("Small Mine"), Some("Medium Mine"), Some("Large Mine"), None])),
    (
        UnitClass::STORAGE,
        Names::Sized([Some("Small Warehouse"), Some("Medium Warehouse"), Some("Large Warehouse"), None]),
    ),
    (
        0x8000_0400,
        Names::Sized([
            Some("Small Res. Center"),
            Some("Medium Res. Center"),
            Some("Large Res. Center"),
            Some("Enhanced Res. Center"),
        ]),
    ),
    (0x8000_0010, Names::Sized([Some("Small Factory"), Some("Medium Factory"), Some("Large Factory"), None])),
    (0x8000_2000, Names::Sized([Some("Ruins"); 4])),
    (0x8000_1000, Names::Sized([Some("Bridge"); 4])),
    (0x8000_0200, Names::Sized([Some("Teleport"), Some("Teleport"), None, None])),
    (UnitClass::GENERATOR, Names::One("Small Generator")),
    (0x8000_0040, Names::One("Small Outpost")),
    (0x8010_0000, Names::One("Light Tower")),
    (0x8020_0000, Names::One("Heavy Tower")),
    (0x8001_0000, Names::One("Small Bunker")),
    (0x8002_0000, Names::One("Medium Bunker")),
    (0x8004_0000, Names::One("Large Bunker")),
];

/// A robot's name `"%s-%d %s"` from its chassis's key (whose letter gives its size
/// class, [`SizeClass::of_key`]), its `ChassisType` and Type, and its number (`X` in the
/// designer, `None`).
pub fn robot_name(chassis: &str, chassis_type: Option<u32>, class_word: u32, number: Option<u32>) -> String {
    unit_name(SizeClass::of_key(chassis, false).map(|s| s.0), chassis_type, class_word, number)
}

/// A robot's name `"%s-%d %s"`: size letter, chassis letter, Type letter, `-`, its
/// number (`X` in the designer, `None`) and its Type's word.
fn unit_name(size: Option<u8>, chassis_type: Option<u32>, class_word: u32, number: Option<u32>) -> String {
    let letter = |letters: &str, n: Option<u32>| {
        n.and_then(|n| letters.chars().nth((n as usize).checked_sub(1)?)).unwrap_or('?')
    };
    let (class, word) = UNIT_TYPES.iter().find(|t| t.0 == class_word).map_or(('?', UNKNOWN), |t| (t.1, t.2));
    let number = number.map_or_else(|| "X".to_string(), |n| n.to_string());
    let (size, kind) = (letter(SIZE_LETTERS, size.map(u32::from)), letter(CHASSIS_LETTERS, chassis_type));
    format!("{size}{kind}{class}-{number} {word}")
}

/// A building's name by its Type and size class.
pub fn building_name(class_word: Option<u32>, size: Option<u8>) -> &'static str {
    let names = BUILDINGS.iter().find(|b| Some(b.0) == class_word).map(|b| &b.1);
    let name = match names {
        Some(Names::One(name)) => Some(*name),
        Some(Names::Sized(names)) => size.and_then(|s| names.get(usize::from(s).checked_sub(2)?).copied().flatten()),
        None => None,
    };
    name.unwrap_or(UNKNOWN)
}

/// A resolved unit's name, given one more than its clan's count: *Human*, *Animal*,
/// *Tiny Tower*, or the robot's (its chassis its first component).
pub fn unit_of(o: &PreparedObject, number: u32) -> String {
    let class = o.extras.unit_class.unwrap_or(0);
    let tiny = o.extras.combat.as_ref().is_some_and(|c| c.batteries.iter().any(|b| b.capacity < 0.0));
    match class {
        UnitClass::HERO => "Human".into(),
        ANIMAL => "Animal".into(),
        _ if tiny && class & iron3d_rules::ROBOT_CLASS_BIT != 0 => "Tiny Tower".into(),
        _ => {
            let chassis = o.components.first().map_or("", |c| c.key.as_str());
            robot_name(chassis, o.extras.chassis_type, class, Some(number))
        }
    }
}

/// Names every placed unit and building (in the order given, the file's); trees,
/// stones and other objects keep theirs.
pub fn name_placed(objects: &mut [PreparedObject]) {
    let mut counts = BTreeMap::new();
    for o in objects {
        match ObjectKind::from_raw(o.record.raw_kind) {
            ObjectKind::Unit => {
                let count: &mut u32 = counts.entry(o.clan).or_default();
                *count = count.saturating_add(1);
                o.name = unit_of(o, *count);
            }
            ObjectKind::Building => {
                let size = o.components.first().and_then(|c| SizeClass::of_key(&c.key, true)).map(|s| s.0);
                o.name = building_name(o.extras.unit_class, size).into();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_robot_is_named_by_its_size_chassis_and_type_letters_its_number_and_word() {
        assert_eq!(unit_name(Some(3), Some(1), UnitClass::BATTLE_UNIT, Some(1)), "MFW-1 Warrior", "tut1_mf1");
        assert_eq!(unit_name(Some(1), Some(1), UnitClass::BATTLE_UNIT, Some(2)), "TFW-2 Warrior", "helic");
        assert_eq!(unit_name(Some(2), Some(3), UnitClass::BUILDER, Some(2)), "SWB-2 Builder", "The Field Base");
        assert_eq!(unit_name(Some(4), Some(1), UnitClass::BATTLE_UNIT, None), "LFW-X Warrior", "in the designer");
        assert_eq!(unit_name(None, Some(9), 0, Some(3)), "???-3 Unknown");
    }

    #[test]
    fn a_building_is_named_by_its_type_and_size() {
        assert_eq!(building_name(Some(UnitClass::MINE), Some(3)), "Medium Mine");
        assert_eq!(building_name(Some(0x8000_0400), Some(5)), "Enhanced Res. Center");
        assert_eq!(building_name(Some(0x8000_0010), Some(4)), "Large Factory");
        assert_eq!(building_name(Some(0x8000_1000), Some(3)), "Bridge", "the same at every size");
        assert_eq!(building_name(Some(UnitClass::GENERATOR), None), "Small Generator", "by its Type alone");
        assert_eq!(building_name(Some(0x8004_0000), Some(4)), "Large Bunker");
        assert_eq!(building_name(Some(0x8000_0200), Some(4)), UNKNOWN, "no string for a large teleport");
        assert_eq!(building_name(Some(UnitClass::MINE), None), UNKNOWN, "no size");
        assert_eq!(building_name(None, Some(2)), UNKNOWN);
    }

    /// Placed units are numbered in file order by their clan's count, which the hero,
    /// an animal and a tiny tower raise too; buildings take no number; a tree keeps its
    /// name.
    #[test]
    fn placed_objects_are_named_in_file_order_each_raising_its_clans_count() {
        let object = |kind: u32, clan: i32, key: &str, class: Option<u32>, chassis: Option<u32>| PreparedObject {
            id: 0,
            name: key.into(),
            key: key.into(),
            components: vec![crate::ObjectComponent::root(key.to_string())],
            clan,
            record: crate::PlacedRecord { raw_kind: kind, ..Default::default() },
            properties: Default::default(),
            extras: crate::ObjectExtras { unit_class: class, chassis_type: chassis, ..Default::default() },
        };
        let tower = iron3d_core::CombatSheet {
            batteries: vec![iron3d_core::BatterySheet { capacity: -1.0, output: 0.0, node: 0 }],
            ..Default::default()
        };
        let mut objects = vec![
            object(1, 1, "r_h_01", Some(UnitClass::HERO), Some(2)),
            object(1, 1, "r_l_05", Some(UnitClass::BATTLE_UNIT), Some(3)),
            object(1, 2, "r_t_01", Some(UnitClass::BATTLE_UNIT), Some(2)),
            object(1, 2, "r_b_06", Some(UnitClass::BATTLE_UNIT), Some(2)),
            object(1, 2, "r_t_01", Some(UnitClass::BATTLE_UNIT), Some(2)),
            object(1, 0, "a_bird", Some(0x2000_0000), None),
            object(0, 2, "fr_l_plant", Some(0x8000_0010), None),
            object(2, 0, "tree_01", None, None),
        ];
        objects[3].extras.combat = Some(tower);
        name_placed(&mut objects);
        let names: Vec<&str> = objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Human",
                "SWW-2 Warrior",
                "TSW-1 Warrior",
                "Tiny Tower",
                "TSW-3 Warrior",
                "Animal",
                "Small Factory",
                "tree_01"
            ]
        );
    }
}
