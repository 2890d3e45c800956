//! The state Behavior owns ([`declare`]) and its hasher: each unit's orders and path
//! state, haul trip and migration, and the clans' pastures.

use crate::Guards;
use crate::search::Searches;
use crate::{BuildTrip, HaulTrip, Migration, Navigator, Pastures, Pods};
use bevy_app::App;
use bevy_ecs::prelude::*;
use iron3d_core::{Aboard, Fnv1a, Hashing, Indoors, Invulnerable, Mindless, Order, StateApp};

/// Declares Behavior's saved state.
pub(crate) fn declare(app: &mut App) {
    let by = Hashing::By("behavior");
    app.save_component::<Navigator>("behavior.navigator", by)
        .save_component::<HaulTrip>("behavior.haul_trip", by)
        .save_component::<BuildTrip>("behavior.build_trip", by)
        .save_component::<Invulnerable>(
            "behavior.invulnerable",
            Hashing::Not("present exactly while a builder waits at its upgrade, which its hashed trip says"),
        )
        .save_component::<Migration>("behavior.migration", by)
        .save_resource::<Pastures>("behavior.pastures", by)
        .save_resource::<Pods>("behavior.pods", Hashing::Bytes)
        .save_resource::<Searches>("behavior.searches", Hashing::Bytes)
        .save_resource::<Guards>("behavior.guards", Hashing::Bytes)
        .save_component::<Indoors>("behavior.indoors", Hashing::Bytes)
        .save_component::<Aboard>("behavior.aboard", Hashing::Bytes.replicated())
        .save_component::<Mindless>("behavior.mindless", Hashing::Bytes)
        .hash_state("behavior", hash);
}

/// Per object (id order) its order, queued orders, leg, goal and haul trip, and an
/// animal's migration; then each clan's pasture.
fn hash(world: &World, objects: &[(u32, Entity)], h: &mut Fnv1a) {
    if let Some(q) =
        world.try_query::<(Option<&Navigator>, Option<&HaulTrip>, Option<&Migration>, Option<&BuildTrip>)>()
    {
        for (id, e) in objects {
            let Ok((nav, trip, migration, build)) = q.get_manual(world, *e) else { continue };
            if nav.is_none() && migration.is_none() {
                continue;
            }
            h.word(*id);
            if let Some(n) = nav {
                let (kind, value, extra) = n.order.key();
                h.word(u32::from(kind) | u32::from(n.reverse) << 8 | u32::from(n.replan) << 16);
                h.wide(value);
                extra_into(h, kind, extra);
                for v in [n.leg, n.next, n.local_path.len()] {
                    h.wide(v as u64);
                }
                h.word(n.first_step_ms);
                h.floats(&n.goal);
                h.word(u32::from(trip.is_some()));
                if let Some(trip) = trip {
                    h.word(trip.mine.unwrap_or(u32::MAX));
                    h.word(trip.store.unwrap_or(u32::MAX));
                    h.word(trip.start.map_or(u32::MAX, f32::to_bits));
                    h.word(u32::from(trip.waiting));
                }
                h.word(n.queued.len() as u32);
                n.queued.iter().for_each(|o| {
                    let (kind, value, extra) = o.key();
                    h.word(u32::from(kind));
                    h.wide(value);
                    extra_into(h, kind, extra);
                });
            }
            if let Some(m) = migration {
                migration_into(h, m);
            }
            if let Some(b) = build {
                h.word(b.holder.unwrap_or(u32::MAX));
                h.word(u32::from(b.waiting));
            }
        }
    }
    if let Some(p) = world.get_resource::<Pastures>() {
        h.word(p.clans.len() as u32);
        for (clan, c) in &p.clans {
            [*clan as u32, c.current.unwrap_or(u32::MAX), c.until_ms].into_iter().for_each(|w| h.word(w));
        }
    }
}

/// An order's second word, for the kinds that have one.
fn extra_into(h: &mut Fnv1a, kind: u8, extra: u64) {
    if Order::has_extra(kind) {
        h.wide(extra);
    }
}

/// An animal's migration: its task's timers and pasture, and its attack's limit.
fn migration_into(h: &mut Fnv1a, m: &Migration) {
    let words = [u32::from(m.started), m.pasture.unwrap_or(u32::MAX), m.long_until_ms, m.short_until_ms];
    words.into_iter().chain([m.pause_until_ms, m.answered_hit]).for_each(|w| h.word(w));
    if let Some(a) = m.attack {
        h.word(a.target);
        h.word(a.until_ms.unwrap_or(u32::MAX));
        if let Some((c, r)) = a.circle {
            c.iter().chain([&r]).for_each(|x| h.word(x.to_bits()));
        }
    }
}
