//! Arming: hit points, weapon and radar of each object from the combat rules by its
//! Unit DAT class word, and the clans' relations from the mission.

use crate::CombatRules;
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanRelations, Difficulty, Health, MissionClans, Owner, PropertyBag, Radar, SimObject, TICK_MS, UnitClass, Weapon,
    relation,
};
use iron3d_formats::world::PropertyValue;
use iron3d_rules::Combat;
use iron3d_terrain::BehaviorIni;

/// The class bit of buildings (`docs/reference/registry.md` §2.2).
const BUILDING_BIT: u32 = 0x8000_0000;

/// Builds [`ClanRelations`] from the mission's clan records.
pub(crate) fn relations(clans: Option<Res<MissionClans>>, mut relations: ResMut<ClanRelations>) {
    if let Some(clans) = clans {
        *relations = ClanRelations::from_clans(&clans.clans);
    }
}

/// What an object of class `class` gets, scaled by its `Life state` fraction.
pub(crate) fn loadout(rules: &Combat, class: u32, life: f32, invulnerable: bool) -> (Health, Option<(Weapon, Radar)>) {
    let entry = rules.class(class);
    let max = entry
        .map_or(if class & BUILDING_BIT != 0 { rules.default_building_hp } else { rules.default_robot_hp }, |c| c.hp);
    let health = Health { hp: max * life, max, armour: entry.map_or(0.0, |c| c.armour), invulnerable };
    let armed = entry.and_then(|c| {
        let (kind, w) = rules.weapon(c.weapon.as_deref()?)?;
        let reload_ticks = ((w.reload_seconds * 1000.0 / TICK_MS as f32).round() as u32).max(1);
        let weapon = Weapon {
            kind,
            range: w.range,
            damage: w.damage,
            reload_ticks,
            cooldown: 0,
            projectile_speed: w.projectile_speed,
            turn_rate: w.turn_degrees.to_radians(),
            turret: 0.0,
        };
        Some((weapon, Radar { range: c.radar.max(w.range), target: None }))
    });
    (health, armed)
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
    new: Query<(Entity, &UnitClass, Option<&PropertyBag>, Option<&Owner>), (With<SimObject>, Without<Health>)>,
    ini: Option<Res<BehaviorIni>>,
) {
    let (difficulty, relations, clans) = scaled;
    let player = clans.as_deref().and_then(MissionClans::player).map(|p| p as i32);
    // `ImmortalHero` of `Behavior.ini`: the hero takes no damage (the effect inferred
    // from the name).
    let immortal_hero = ini.and_then(|i| BehaviorIni::switch(&i.0.immortal_hero)).unwrap_or(false);
    for (entity, class, bag, owner) in &new {
        let property = |name: &str| bag.and_then(|b| b.first(name)).map(|p| p.value());
        let life = match property("Life state") {
            Some(PropertyValue::Float(f)) if f.is_finite() && f > 0.0 => f.min(1.0),
            _ => 1.0,
        };
        let invulnerable = matches!(property("Invulnerability"), Some(PropertyValue::Int(v)) if v != 0)
            || immortal_hero && class.is_hero();
        let (mut health, armed) = loadout(&rules.0, class.0, life, invulnerable);
        let ratio = difficulty_factor(class.0, owner.map_or(-1, |o| o.clan), player, &relations, &difficulty);
        health.hp *= ratio;
        health.max *= ratio;
        let mut e = commands.entity(entity);
        e.insert(health);
        if let Some((mut weapon, radar)) = armed {
            weapon.damage *= ratio;
            e.insert((weapon, radar));
        }
    }
}
