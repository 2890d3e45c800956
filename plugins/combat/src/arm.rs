//! Arming: each object's body and guns from its data ([`CombatSheet`]: `.ndp` nodes,
//! armour and guns with their rounds), or, for an object whose data carries no node
//! table, from the combat rules by its Unit DAT class word (the project's); its turret
//! and radar target; its radar and detection shield when its data carries them (an
//! armed object whose data carries none is blind: it picks no targets of its own); and
//! the clans' relations from the mission.

use crate::CombatRules;
use crate::body::Body;
use crate::guns::{GunState, Guns, STROKE_MS};
use crate::repair::Repair;
use crate::sensors::{Sensor, Stealth};
use crate::shield::Shield;
use bevy_ecs::prelude::*;
use iron3d_core::{
    BeamCondition, ClanRelations, CombatSheet, CreationNodeCondition, Difficulty, GunSheet, Health, HitSheet,
    MissionClans, OriginalObjectId, Owner, Places, Power, PropertyBag, Radar, RadarContacts, RoundSheet, SimObject,
    Supply, UnitClass, Weapon, relation,
};
use iron3d_formats::world::PropertyValue;
use iron3d_rules::Combat;
use iron3d_terrain::BehaviorIni;

/// Whether an object of class `class` is a building (its class word's high bit:
/// [`UnitClass::registers`]).
pub(crate) fn is_building(class: u32) -> bool {
    UnitClass(class).registers()
}
/// A turret's turn rate when neither its data (its turret component's yaw channel) nor
/// the rules name one for the class (degrees a second; the project's).
const TURN_DEGREES: f32 = 120.0;

/// Builds [`ClanRelations`] from the mission's clan records.
pub(crate) fn relations(clans: Option<Res<MissionClans>>, mut relations: ResMut<ClanRelations>) {
    if let Some(clans) = clans {
        *relations = ClanRelations::from_clans(&clans.clans);
    }
}

/// What an armed object carries.
pub(crate) struct Loadout {
    pub body: Body,
    pub guns: Guns,
    pub turret: Option<(Weapon, Radar)>,
    pub shield: Option<Shield>,
    pub repair: Option<Repair>,
}

/// The gun of a rules weapon: unlimited rounds, no capacitor, no stroke, its reload as
/// the interval, a direct round of its damage.
fn rules_gun(w: &iron3d_rules::WeaponRule) -> GunSheet {
    let round = RoundSheet {
        speed: w.projectile_speed,
        range: w.range,
        hit_points: w.damage,
        flags: 0,
        hit: HitSheet { kind: 2, damage: 0.0, radius: 0.0 },
        seeker: None,
    };
    GunSheet {
        node: 0,
        magazine: -1,
        capacitor: 0.0,
        shot_energy: 0.0,
        interval_ms: w.reload_seconds * 1000.0,
        barrels: 1,
        volley: false,
        stroke_ms: None,
        arm: false,
        round,
    }
}

/// What an object of class `class` gets: its body and guns from `sheet` when its data
/// has one, else from the rules; every node's life and every round's damage times
/// `ratio`, its life then `life` of full.
pub(crate) fn loadout(rules: &Combat, class: u32, sheet: Option<&CombatSheet>, life: f32, ratio: f32) -> Loadout {
    let entry = rules.class(class);
    let rule_weapon = entry.and_then(|c| rules.weapon(c.weapon.as_deref()?));
    let (mut body, guns) = match sheet {
        Some(sheet) => {
            let guns = sheet.guns.iter().map(|g| GunState::new(*g, g.stroke_ms.unwrap_or(STROKE_MS), ratio)).collect();
            (Body::from_sheet(sheet, ratio), guns)
        }
        None => {
            let hp = entry
                .map_or(if is_building(class) { rules.default_building_hp } else { rules.default_robot_hp }, |c| c.hp)
                * ratio;
            let armour = [1.0 - entry.map_or(0.0, |c| c.armour), 0.0];
            let guns = rule_weapon.map(|(_, w)| GunState::new(rules_gun(w), 0.0, ratio)).into_iter().collect();
            (Body::single(hp, hp, armour), guns)
        }
    };
    for n in &mut body.nodes {
        n.life *= life;
    }
    let mut guns = Guns(guns);
    guns.start_selection(UnitClass(class).is_hero());
    let turret = guns.0.first().map(|first| {
        let range = guns.0.iter().map(|g| g.sheet.round.range).fold(0.0, f32::max);
        let weapon = Weapon {
            kind: rule_weapon.map_or(0, |(k, _)| k),
            range,
            damage: first.round_damage(),
            projectile_speed: first.sheet.round.speed,
            turn_rate: sheet
                .and_then(|s| s.turret_yaw_rate)
                .unwrap_or_else(|| rule_weapon.map_or(TURN_DEGREES, |(_, w)| w.turn_degrees).to_radians()),
            turret: 0.0,
        };
        let sight = match sheet.and_then(|s| s.radar) {
            Some(radar) => radar.range,
            None => entry.map_or(0.0, |c| c.radar).max(range),
        };
        (weapon, Radar { range: sight, target: None, ordered: false })
    });
    let shield = sheet.and_then(|s| s.shield).map(|s| Shield::new(s, ratio));
    let building = is_building(class);
    let repair = sheet.and_then(|s| s.repair).map(|sheet| Repair { sheet, on: false, building });
    Loadout { body, guns, turret, shield, repair }
}

/// The Types the difficulty ratio reaches: warriors, HQs and heroes (`prof_war`,
/// `prof_hq`, `prof_hero`), never builders, transports or explorers.
const RATED: [u32; 3] = [0x0100_8000, 0x0101_0000, UnitClass::HERO];

/// The factor the difficulty gives an object of `class` of `clan` (the original's,
/// openparkan `docs/26-damage.md`, read and measured): the level's ratio as is for a
/// warrior, HQ or hero of a clan not allied with the player's (its word towards the
/// player's clan: the project's reading of "not allied"), 1 for everything else.
fn difficulty_factor(
    class: u32,
    clan: i32,
    player: Option<i32>,
    relations: &ClanRelations,
    difficulty: &Difficulty,
) -> f32 {
    let allied = player.is_none_or(|p| relations.word(clan, p) == Some(relation::ALLIED));
    if RATED.contains(&class) && !allied { difficulty.ratio() } else { 1.0 }
}

/// Arms the objects that joined the world.
pub(crate) fn arm(
    mut commands: Commands,
    rules: Res<CombatRules>,
    scaled: (Res<Difficulty>, Res<ClanRelations>, Option<Res<MissionClans>>),
    new: Query<
        (
            Entity,
            &OriginalObjectId,
            &UnitClass,
            Option<&PropertyBag>,
            Option<&Owner>,
            Option<&CombatSheet>,
            Option<&Places>,
        ),
        (With<SimObject>, Without<Health>),
    >,
    ini: Option<Res<BehaviorIni>>,
) {
    let (difficulty, relations, clans) = scaled;
    let player = clans.as_deref().and_then(MissionClans::player).map(|p| p as i32);
    // `ImmortalHero` of `Behavior.ini`: the hero takes no damage (the effect inferred
    // from the name).
    let immortal_hero = ini.and_then(|i| BehaviorIni::switch(&i.0.immortal_hero)).unwrap_or(false);
    for (entity, id, class, bag, owner, sheet, places) in &new {
        let property = |name: &str| bag.and_then(|b| b.first(name)).map(|p| p.value());
        let life = match property("Life state") {
            Some(PropertyValue::Float(f)) if f.is_finite() && f > 0.0 => f.min(1.0),
            _ => 1.0,
        };
        let invulnerable = matches!(property("Invulnerability"), Some(PropertyValue::Int(v)) if v != 0)
            || immortal_hero && class.is_hero();
        let ratio = difficulty_factor(class.0, owner.map_or(-1, |o| o.clan), player, &relations, &difficulty);
        let Loadout { body, guns, turret, shield, repair } = loadout(&rules.0, class.0, sheet, life, ratio);
        let (hp, max) = body.total();
        let drive = sheet.and_then(|s| crate::drive::drive(s, &body));
        let efficiency = sheet.and_then(|s| crate::efficiency::efficiency(s, &body, 1.0));
        let beam = sheet.and_then(|s| s.beam).map(|node| BeamCondition(body.condition(node)));
        let creation = places.and_then(Places::creation_node).map(|n| CreationNodeCondition(body.condition(n.joint)));
        let mut e = commands.entity(entity);
        e.insert((Health { hp, max, invulnerable }, body, Supply::FULL));
        if let Some(creation) = creation {
            e.insert(creation);
        }
        if let Some(shield) = shield {
            e.insert(shield);
        }
        if let Some(repair) = repair {
            e.insert(repair);
        }
        let armed = turret.is_some();
        if let Some(turret) = turret {
            e.insert((guns, turret.0, turret.1));
        }
        if let Some(sheet) = sheet {
            if let Some(radar) = sheet.radar {
                e.insert((Sensor::new(radar, id.0), RadarContacts::default()));
            } else if armed {
                e.insert(RadarContacts::default());
            }
            if let Some(stealth) = sheet.stealth {
                e.insert(Stealth::new(stealth));
            }
            if let Some(drive) = drive {
                e.insert(drive);
            }
            if let Some(efficiency) = efficiency {
                e.insert(efficiency);
            }
            if let Some(beam) = beam {
                e.insert(beam);
            }
            if !sheet.batteries.is_empty() {
                e.insert(Power::new(sheet.batteries.clone(), id.0));
            }
        }
    }
}
