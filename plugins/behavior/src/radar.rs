//! The radar/target state of armed objects: an `Attack` order names the target while
//! it lives (the order ends, and the unit stops, when it is gone); a migrating animal
//! targets nothing (its task asks the fire control for no target, `gameplay.md` §1.4);
//! otherwise the radar keeps its target while it stays in sight and else picks the
//! nearest object of a clan at war with its own ([`ClanRelations`]), ties broken by the
//! lower `OriginalObjectId`. In sight, for an object whose data carries a radar, is
//! what the radar detected ([`RadarContacts`]), less buildings, within 500 (the original's
//! radar module and target pickers, openparkan `docs/25-sensors.md`, read); for an
//! object armed by the rules file it is everything within its radar range (the
//! project's rule).

use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    Aboard, ClanRelations, ClearWizardPath, Health, ObjectTable, Order, OriginalObjectId, Owner, Radar, RadarContacts,
    SimTransform, SpatialGrid, UnitClass,
};

/// Cell size of the radar's grid of targets (game units).
const CELL: f32 = 64.0;
/// How far the AI's target pickers look among the radar's contacts (read).
const PICK: f32 = 500.0;

type Seer<'a> = (
    Entity,
    &'a OriginalObjectId,
    &'a Owner,
    &'a SimTransform,
    &'a mut Radar,
    Option<&'a mut Navigator>,
    Option<Ref<'a, RadarContacts>>,
);

/// A possible target: id, clan, ground position and whether it is a building.
type Mark = (u32, i32, [f32; 2], bool);

/// Updates every radar.
pub(crate) fn scan(
    relations: Res<ClanRelations>,
    table: Res<ObjectTable>,
    targets: Query<(&OriginalObjectId, &Owner, &SimTransform, Option<&UnitClass>), (With<Health>, Without<Aboard>)>,
    mut seers: Query<Seer, Without<Aboard>>,
    mut clear: MessageWriter<ClearWizardPath>,
) {
    let mut all: Vec<Mark> = targets
        .iter()
        .map(|(id, o, t, c)| (id.0, o.clan, [t.position[0], t.position[1]], c.is_some_and(|c| c.registers())))
        .collect();
    all.sort_unstable_by_key(|t| t.0);
    let boxes: Vec<[[f32; 2]; 2]> = all.iter().map(|t| [t.2, t.2]).collect();
    let grid = SpatialGrid::build(&boxes, CELL);
    let mut found = Vec::new();
    for (entity, id, owner, t, mut radar, nav, contacts) in &mut seers {
        let here = [t.position[0], t.position[1]];
        let was_ordered = std::mem::take(&mut radar.ordered);
        if nav.as_ref().is_some_and(|n| matches!(n.order, Order::Migrate | Order::Shutdown)) {
            radar.target = None;
            continue;
        }
        if let Some(mut nav) = nav
            && let Order::Attack(target) = nav.order
        {
            if table.entity_of(target).is_some_and(|e| targets.contains(e)) {
                (radar.target, radar.ordered) = (Some(target), true);
                continue;
            }
            if !nav.next_queued() {
                nav.order = Order::Stop;
            }
            nav.replan = true;
            clear.write(ClearWizardPath(entity));
        }
        let hostile = |t: &Mark| t.0 != id.0 && relations.hostile(owner.clan, t.1);
        let index = |k: u32| all.binary_search_by_key(&k, |t| t.0).ok();
        let nearest = |a: &&Mark, b: &&Mark| dist(here, a.2).total_cmp(&dist(here, b.2)).then(a.0.cmp(&b.0));
        if let Some(contacts) = contacts {
            let sees = |t: &Mark| hostile(t) && !t.3 && dist(here, t.2) <= PICK;
            // A target picked from the list stays listed until the next scan rewrites it.
            let listed = |k: u32| !(contacts.is_changed() || was_ordered) || contacts.0.binary_search(&k).is_ok();
            if radar.target.is_some_and(|k| listed(k) && index(k).is_some_and(|i| sees(&all[i]))) {
                continue;
            }
            let best = contacts.0.iter().filter_map(|&k| index(k)).map(|i| &all[i]).filter(|t| sees(t)).min_by(nearest);
            radar.target = best.map(|t| t.0);
            continue;
        }
        let sees = |t: &Mark| hostile(t) && dist(here, t.2) <= radar.range;
        if radar.target.and_then(index).is_some_and(|i| sees(&all[i])) {
            continue;
        }
        found.clear();
        let r = radar.range;
        grid.query([here[0] - r, here[1] - r], [here[0] + r, here[1] + r], &mut found);
        let best = found.iter().map(|&i| &all[i as usize]).filter(|t| sees(t)).min_by(nearest);
        radar.target = best.map(|t| t.0);
    }
}
