//! The radar/target state of armed objects (the project's own rules): an `Attack`
//! order names the target while it lives (the order ends, and the unit stops, when it
//! is gone); a migrating animal targets nothing (its task asks the fire control for
//! no target, `gameplay.md` §1.4); otherwise the radar keeps its target while it stays in sight and else
//! picks the nearest object of a clan at war with its own ([`ClanRelations`]) within
//! radar range, ties broken by the lower `OriginalObjectId`.

use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    ClanRelations, ClearWizardPath, Health, ObjectTable, Order, OriginalObjectId, Owner, Radar, SimTransform,
    SpatialGrid,
};

/// Cell size of the radar's grid of targets (game units).
const CELL: f32 = 64.0;

type Seer<'a> = (Entity, &'a OriginalObjectId, &'a Owner, &'a SimTransform, &'a mut Radar, Option<&'a mut Navigator>);

/// Updates every radar.
pub(crate) fn scan(
    relations: Res<ClanRelations>,
    table: Res<ObjectTable>,
    targets: Query<(&OriginalObjectId, &Owner, &SimTransform), With<Health>>,
    mut seers: Query<Seer>,
    mut clear: MessageWriter<ClearWizardPath>,
) {
    let mut all: Vec<(u32, i32, [f32; 2])> =
        targets.iter().map(|(id, o, t)| (id.0, o.clan, [t.position[0], t.position[1]])).collect();
    all.sort_unstable_by_key(|t| t.0);
    let boxes: Vec<[[f32; 2]; 2]> = all.iter().map(|t| [t.2, t.2]).collect();
    let grid = SpatialGrid::build(&boxes, CELL);
    let mut found = Vec::new();
    for (entity, id, owner, t, mut radar, nav) in &mut seers {
        let here = [t.position[0], t.position[1]];
        radar.ordered = false;
        if nav.as_ref().is_some_and(|n| n.order == Order::Migrate) {
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
        let sees = |t: &(u32, i32, [f32; 2])| {
            t.0 != id.0 && relations.hostile(owner.clan, t.1) && dist(here, t.2) <= radar.range
        };
        let kept = radar.target.and_then(|k| all.binary_search_by_key(&k, |t| t.0).ok()).filter(|&i| sees(&all[i]));
        if kept.is_some() {
            continue;
        }
        found.clear();
        let r = radar.range;
        grid.query([here[0] - r, here[1] - r], [here[0] + r, here[1] + r], &mut found);
        let best = found
            .iter()
            .map(|&i| &all[i as usize])
            .filter(|t| sees(t))
            .min_by(|a, b| dist(here, a.2).total_cmp(&dist(here, b.2)).then(a.0.cmp(&b.0)));
        radar.target = best.map(|t| t.0);
    }
}
