//! Mineral lode searches (the builders' *Search minerals* row, the original's order 5 by
//! type `0x10001000`, `gameplay.md` §9.2–9.3, read): a builder with
//! `Order::SearchLodes` walks to the nearest lode not yet found anywhere on the map
//! (across the ground; ties by the lode's index); within 10 of it the lode is found for
//! every clan (`lode_found`). It then goes on to the next and stops when none is left
//! (the project's: what the original's task does after a find is not read). Only
//! builders take the order (`rejected` otherwise, the unit keeps its order: the
//! commander's row is the builders' alone, the check on the order is the project's).

use crate::haul;
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    GameClock, GameMessage, ManualControl, MineralLodes, Movable, Order, OriginalObjectId, ProductionEvent,
    SimTransform, UnitClass,
};

/// A lode within this of a searching builder, across the ground, is found (read).
pub const FIND_REACH: f32 = 10.0;

/// Why `unit` (its class, `None` without one) may not search for lodes, or `Ok`.
///
/// # Errors
/// The unit is no builder.
pub fn refusal(unit: u32, class: Option<u32>) -> Result<(), String> {
    match class {
        Some(UnitClass::BUILDER) => Ok(()),
        _ => Err(format!("search_lodes: object {unit} is not a builder")),
    }
}

/// The nearest lode not yet found from `from` (ties by index).
fn nearest(lodes: &MineralLodes, from: [f32; 2]) -> Option<(usize, [f32; 2])> {
    let unfound = lodes.0.iter().enumerate().filter(|(_, l)| !l.found);
    let best = unfound.min_by(|a, b| dist(from, a.1.position).total_cmp(&dist(from, b.1.position)));
    best.map(|(i, l)| (i, l.position))
}

type Searcher<'a> = (Entity, &'a OriginalObjectId, &'a SimTransform, &'a mut Navigator, Option<&'a ManualControl>);

/// Runs every lode search one tick, in id order: a lode within reach is found, and the
/// searcher heads for the nearest one left (or stops).
pub(crate) fn search(
    clock: Res<GameClock>,
    mut lodes: ResMut<MineralLodes>,
    mut units: Query<Searcher, With<Movable>>,
    mut out: MessageWriter<GameMessage>,
) {
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| u.3.order == Order::SearchLodes && !ManualControl::moving(u.4))
        .map(|u| (u.1.0, u.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, t, mut nav, _)) = units.get_mut(entity) else { continue };
        let at = [t.position[0], t.position[1]];
        while let Some((i, _)) = nearest(&lodes, at).filter(|(_, p)| dist(at, *p) <= FIND_REACH) {
            lodes.0[i].found = true;
            out.write(haul::report(&clock, ProductionEvent::LodeFound, vec![id], format!("lode={i}")));
        }
        match nearest(&lodes, at) {
            Some((_, goal)) if nav.leg == 0 || nav.goal != goal => nav.head_for(goal),
            Some(_) => {}
            None => nav.finish(),
        }
    }
}
