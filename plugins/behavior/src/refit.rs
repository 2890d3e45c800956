//! Refits (the original's orders 8 and 9, `M_Task_Reload`, openparkan
//! `docs/27-ownership.md`, read): a unit with [`Order::Refit`] goes to the nearest
//! ground-level dock of its clan or an ally (ties by the building's id), waits there
//! until its life, charge and ammunition are at 98 % ([`Supply::refitted`]), and takes
//! its next order; with no such dock the order fails at once (`rejected`). A machine of
//! a clan that is neither nature nor neutral orders itself there when its life or
//! battery is under half or more than 80 % of its magazines are under a fifth
//! ([`Supply::wants_refit`]), and takes up what it was doing afterwards; with no dock it
//! goes on as it was; a unit that may not be ordered takes no such task. A unit the
//! player drives is left alone.

use crate::haul;
use crate::navigator::Walker;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    ClanRelations, ClanType, Drive, GameClock, GameMessage, ManualControl, MotionLimits, Movable, NavState, Order,
    OriginalObjectId, Owner, Places, ProductionEvent, SimTransform, Supply, place, relation, world_point,
};

/// A building that may hold docks.
type Dockyard<'a> = (&'a OriginalObjectId, &'a Places, &'a SimTransform, &'a Owner);

type Refitter<'a> =
    Walker<'a, (Option<&'a Supply>, Option<&'a ManualControl>, Option<&'a MotionLimits>, Option<&'a Drive>)>;

/// The nearest ground-level dock of `clan` or an ally from `from` (ties by the
/// building's id), as a point on the ground.
fn nearest_dock(
    yards: &Query<Dockyard, Without<Movable>>,
    relations: &ClanRelations,
    clan: i32,
    from: [f32; 2],
) -> Option<[f32; 2]> {
    let friend = |c: i32| c == clan || relations.word(c, clan) == Some(relation::ALLIED);
    yards
        .iter()
        .filter(|(_, _, _, owner)| friend(owner.clan))
        .flat_map(|(id, places, t, _)| {
            places.of(place::DOCK).filter(|p| p.is(place::GROUND)).map(move |p| {
                let [x, y, _] = world_point(t, p.at);
                (dist(from, [x, y]), id.0, [x, y])
            })
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, _, at)| at)
}

/// Runs every refit one tick, and sends the machines that need it to a dock.
pub(crate) fn refit(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    yards: Query<Dockyard, Without<Movable>>,
    mut units: Query<Refitter, With<Movable>>,
    mut out: MessageWriter<GameMessage>,
) {
    // Only the units refitting or low on something: the rest have nothing to do here.
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| {
            let wants = u.6.0.is_some_and(Supply::wants_refit)
                && crate::orders::orderable(u.6.2, u.6.3)
                && !u.4.order.holds_station();
            !ManualControl::moving(u.6.1) && (u.4.order == Order::Refit || wants)
        })
        .map(|u| (u.1.0, u.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, owner, t, mut nav, status, (supply, ..))) = units.get_mut(entity) else { continue };
        let supply = supply.copied().unwrap_or(Supply::FULL);
        let dock = nearest_dock(&yards, &relations, owner.clan, [t.position[0], t.position[1]]);
        if nav.order != Order::Refit {
            let kind = relations.kind(owner.clan);
            let machine = kind.is_some_and(|k| k != ClanType::NATURE && k != ClanType::NEUTRAL);
            if !(machine && supply.wants_refit() && dock.is_some()) {
                continue;
            }
            let current = nav.order;
            if current != Order::Stop {
                nav.queued.insert(0, current);
            }
            nav.start(Order::Refit);
        }
        let Some(dock) = dock else {
            let detail = format!("refit: no ground-level dock of clan {} or an ally", owner.clan);
            out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], detail));
            nav.finish();
            continue;
        };
        if nav.leg == 0 || dist(dock, nav.goal) > 0.5 {
            nav.head_for(dock);
        } else if status.state == NavState::Arrived && supply.refitted() {
            nav.finish();
        }
    }
}
