//! The hero's Enter and leaving (openparkan `docs/39-boarding.md` and
//! `docs/27-ownership.md`, read; `gameplay.md` §10.2).
//!
//! **Enter** ([`Order::Board`], and [`Order::Capture`] naming a unit): only the hero
//! (Type `0x01020000`) enters, on a unit (a Type with no bit outside `0x0103e000`). He
//! walks until it is less than 20 away across the ground (the walk is the project's: the
//! original's Enter is a key on a target already that close), then a unit of a neutral
//! clan (type 3) joins his clan at once, holding no mind ([`Mindless`]), a `captured`
//! event; and a bot of size class 4 with a turret, of his clan, is boarded ([`Aboard`],
//! a `boarded` event; no landing, speed or order test, read). The turret node's own life
//! is not tested yet (the project's reading: a bot with a turret). A capture order
//! boards nothing; a board that neither captures nor boards is `rejected`.
//!
//! **Aboard** the hero keeps to his bot (the original leaves him where he boarded and
//! reports his route where the bot goes, seen; the project moves him with the bot) and
//! takes part in nothing. A bot that is destroyed or gone puts him out at (x − 1, y − 1),
//! a `left` event (read).
//!
//! **Leave** ([`Order::Leave`] of the hero aboard): eight places at the bot's radius plus
//! the hero's, at angles i·π/4 from +x; the first on the landscape and walkable takes
//! him (the original's liquid test is read as the areal map's cover, the project's; the
//! flyer's height test waits for flyers), facing the bot, a `left` event; none, he stays
//! aboard: "Risk area! Landing impossible." (`rejected`). The original drops him from 8
//! above the surface; he is put on it.

use crate::haul;
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    Aboard, ClanRelations, ClanType, CollisionProxy, GameClock, GameMessage, Health, Mindless, Movable, Order,
    OriginalObjectId, Owner, ProductionEvent, SimTransform, SizeClass, UnitClass, Weapon,
};
use iron3d_terrain::{Ground, NavMap};

/// Enter reaches a unit less than this far across the ground (read).
pub const ENTER_REACH: f32 = 20.0;

pub use iron3d_core::RISK_AREA;

type Rider<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a mut Owner,
    &'a mut SimTransform,
    &'a mut Navigator,
    (Option<&'a UnitClass>, Option<&'a SizeClass>, Has<Weapon>, Option<&'a CollisionProxy>),
    (Option<&'a Aboard>, Option<&'a Health>),
);

/// Why `class` may not take part in an Enter as the hero, or the target `target`.
fn refusal(hero: (u32, Option<u32>), target: (u32, Option<u32>)) -> Result<(), String> {
    if hero.1 != Some(UnitClass::HERO) {
        return Err(format!("enter: object {} is not the hero", hero.0));
    }
    match target.1 {
        Some(class) if class & !UnitClass::ENTERABLE == 0 => Ok(()),
        _ => Err(format!("enter: object {} is no unit the hero enters", target.0)),
    }
}

/// Runs the hero's Enter, his leaving and his keeping to his bot one tick, in id order.
pub(crate) fn step(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    table: Res<iron3d_core::ObjectTable>,
    (nav_map, ground): (Option<Res<NavMap>>, Option<Res<Ground>>),
    mut units: Query<Rider, With<Movable>>,
    mut out: MessageWriter<GameMessage>,
    mut commands: Commands,
) {
    let mut heroes: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| u.5.0.is_some_and(|c| c.is_hero()) || matches!(u.4.order, Order::Board(_) | Order::Capture(_)))
        .map(|u| (u.1.0, u.0))
        .collect();
    heroes.sort_unstable_by_key(|h| h.0);
    let usable = |p: [f32; 2]| crate::capture::landing(ground.as_deref(), nav_map.as_deref(), p);
    for (id, hero) in heroes {
        let Ok(rider) = units.get(hero) else { continue };
        let (order, aboard) = (rider.4.order, rider.6.0.copied());
        let report = |out: &mut MessageWriter<GameMessage>, event, ids, detail| {
            out.write(haul::report(&clock, event, ids, detail));
        };
        if let Some(Aboard(bot)) = aboard {
            let alive = |e: &Entity| units.get(*e).is_ok_and(|v| v.6.1.is_none_or(|life| life.hp > 0.0));
            let Some(vehicle) = table.entity_of(bot).filter(alive) else {
                // The bot is lost: out at (x - 1, y - 1), untested.
                let Ok(mut h) = units.get_mut(hero) else { continue };
                h.3.position[0] -= 1.0;
                h.3.position[1] -= 1.0;
                commands.entity(hero).remove::<Aboard>();
                report(&mut out, ProductionEvent::Left, vec![id, bot], "the bot is lost".into());
                continue;
            };
            let Ok([mut h, b]) = units.get_many_mut([hero, vehicle]) else { continue };
            if order != Order::Leave {
                h.3.position = b.3.position;
                continue;
            }
            let r = b.5.3.map_or(0.0, |p| p.radius) + h.5.3.map_or(0.0, |p| p.radius);
            let at = b.3.position;
            let landing = (0..8).find_map(|i| {
                let (s, c) = libm::sincosf(i as f32 * std::f32::consts::FRAC_PI_4);
                let p = [at[0] + r * c, at[1] + r * s];
                usable(p).map(|z| [p[0], p[1], z])
            });
            match landing {
                Some(p) => {
                    h.3.position = p;
                    h.3.orientation[2] = libm::atan2f(at[1] - p[1], at[0] - p[0]);
                    h.4.start(Order::Stop);
                    commands.entity(hero).remove::<Aboard>();
                    report(&mut out, ProductionEvent::Left, vec![id, bot], String::new());
                }
                None => {
                    h.4.start(Order::Stop);
                    report(&mut out, ProductionEvent::Rejected, vec![id, bot], RISK_AREA.into());
                }
            }
            continue;
        }
        let (Order::Board(target) | Order::Capture(target)) = order else { continue };
        let Some(goal) = table.entity_of(target).and_then(|e| units.get(e).ok()) else {
            // A building: the pod capture's.
            continue;
        };
        let checked = refusal((id, rider.5.0.map(|c| c.0)), (target, goal.5.0.map(|c| c.0)));
        let (goal_entity, goal_at) = (goal.0, [goal.3.position[0], goal.3.position[1]]);
        let Ok([mut h, mut t]) = units.get_many_mut([hero, goal_entity]) else { continue };
        if let Err(detail) = checked {
            report(&mut out, ProductionEvent::Rejected, vec![id, target], detail);
            h.4.start(Order::Stop);
            continue;
        }
        if dist([h.3.position[0], h.3.position[1]], goal_at) >= ENTER_REACH {
            if h.4.leg == 0 || dist(goal_at, h.4.goal) > 2.0 {
                h.4.head_for(goal_at);
            }
            continue;
        }
        let mut taken = false;
        if t.2.clan != h.2.clan && relations.kind(t.2.clan) == Some(ClanType::NEUTRAL) {
            let detail = format!("from={} to={}", t.2.clan, h.2.clan);
            *t.2 = *h.2;
            commands.entity(goal_entity).insert(Mindless);
            report(&mut out, ProductionEvent::Captured, vec![target, id], detail);
            taken = true;
        }
        let boardable = t.5.1.is_some_and(|s| s.0 == SizeClass::BOARDABLE) && t.5.2 && t.2.clan == h.2.clan;
        h.4.start(Order::Stop);
        h.4.clear_path();
        if matches!(order, Order::Board(_)) && boardable {
            commands.entity(hero).insert(Aboard(target));
            h.3.position = t.3.position;
            report(&mut out, ProductionEvent::Boarded, vec![id, target], String::new());
        } else if !taken {
            let why = if matches!(order, Order::Capture(_)) {
                format!("capture: unit {target} is of no neutral clan")
            } else {
                format!("board: unit {target} is no large bot with a turret of the hero's clan")
            };
            report(&mut out, ProductionEvent::Rejected, vec![id, target], why);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_hero_enters_and_only_units() {
        assert_eq!(refusal((1, Some(UnitClass::HERO)), (2, Some(UnitClass::BATTLE_UNIT))), Ok(()));
        let not_hero = refusal((1, Some(UnitClass::BATTLE_UNIT)), (2, Some(UnitClass::BATTLE_UNIT))).unwrap_err();
        assert!(not_hero.contains("not the hero"), "{not_hero}");
        let building = refusal((1, Some(UnitClass::HERO)), (2, Some(0x8000_0010))).unwrap_err();
        assert!(building.contains("no unit the hero enters"), "{building}");
        assert!(refusal((1, Some(UnitClass::HERO)), (2, Some(0x2000_0000))).is_err(), "an animal");
    }
}
