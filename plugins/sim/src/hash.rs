//! The per-tick state hash, seeded with the data's layers (each layer's name and content
//! fingerprint, `DataLayers`, so runs on different data never agree), then every simulated object's owner, position, orientation, speed,
//! turn rate, order (and queued orders), path state and goal, haul trip, an animal's migration, the player's direct control, and piece animation blends, then the clans' pastures, the random streams,
//! then the clans' script VM state (SuperAI), the economy (distributor shares, ore),
//! combat (hit points, weapons, radar targets, projectiles), the strategic layer's
//! memory, production (queues, jobs, research states, the next object id) and the
//! recorded outcomes, as IEEE bits in `OriginalObjectId` / clan order (word-wise
//! FNV-1a). Same command log, same hash, on every machine.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_behavior::{HaulTrip, Migration, Navigator, Pastures};
use iron3d_core::{
    DataLayers, Fnv1a, GameClock, Kinematics, ManualControl, MissionOutcome, NavStatus, OriginalObjectId, Owner,
    PieceAnimation, SimObject, SimRandom, SimTransform,
};

/// The hash of every tick so far.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct StateHash {
    /// `(tick, hash)` for each tick run, in order.
    pub history: Vec<(u32, u64)>,
}

impl StateHash {
    /// The hash of the last tick.
    pub fn last(&self) -> Option<(u32, u64)> {
        self.history.last().copied()
    }
}

type Hashed<'a> = (
    &'a OriginalObjectId,
    &'a SimTransform,
    Option<&'a Kinematics>,
    (Option<&'a Navigator>, Option<&'a HaulTrip>, Option<&'a Migration>),
    Option<&'a NavStatus>,
    Option<&'a PieceAnimation>,
    Option<&'a ManualControl>,
    Option<&'a Owner>,
);

/// The hash of the world's simulation state now.
pub fn state_hash(world: &mut World) -> u64 {
    let mut q = world.query_filtered::<Hashed, With<SimObject>>();
    let mut rows: Vec<Hashed> = q.iter(world).collect();
    rows.sort_unstable_by_key(|r| *r.0);
    let mut h = Fnv1a::default();
    let f = |h: &mut Fnv1a, v: &[f32]| v.iter().for_each(|x| h.word(x.to_bits()));
    let wide = |h: &mut Fnv1a, v: u64| [v as u32, (v >> 32) as u32].into_iter().for_each(|w| h.word(w));
    if let Some(layers) = world.get_resource::<DataLayers>() {
        for layer in &layers.0 {
            h.write(layer.name.as_bytes());
            wide(&mut h, layer.fingerprint);
        }
    }
    for (id, t, kin, (nav, trip, migration), status, animation, manual, owner) in rows {
        h.word(id.0);
        if let Some(o) = owner {
            h.word(o.clan as u32);
            h.word(o.player.map_or(u32::MAX, u32::from));
        }
        f(&mut h, &t.position);
        f(&mut h, &t.orientation);
        if let Some(k) = kin {
            f(&mut h, &[k.speed, k.turn_rate]);
        }
        if let Some(n) = nav {
            let (kind, value) = n.order.key();
            h.word(u32::from(kind) | u32::from(n.reverse) << 8 | u32::from(n.replan) << 16);
            wide(&mut h, value);
            for v in [n.leg, n.next, n.local_path.len()] {
                wide(&mut h, v as u64);
            }
            h.word(n.first_step_ms);
            f(&mut h, &n.goal);
            let trip = trip.copied().unwrap_or_default();
            h.word(trip.store.unwrap_or(u32::MAX));
            h.word(trip.start.map_or(u32::MAX, f32::to_bits));
            h.word(n.queued.len() as u32);
            n.queued.iter().for_each(|o| {
                let (kind, value) = o.key();
                h.word(u32::from(kind));
                wide(&mut h, value);
            });
        }
        if let Some(m) = migration {
            migration_into(&mut h, m);
        }
        if let Some(m) = manual {
            wide(&mut h, m.input.bits());
            h.word(m.tick);
        }
        if let Some(s) = status {
            h.word(s.state as u32);
            h.word(s.areal.unwrap_or(u32::MAX));
            h.word(s.path_revision);
        }
        if let Some(a) = animation {
            a.bindings.iter().for_each(|b| h.word(b.blend.to_bits()));
        }
    }
    if let Some(p) = world.get_resource::<Pastures>() {
        for (clan, c) in &p.clans {
            [*clan as u32, c.current.unwrap_or(u32::MAX), c.until_ms].into_iter().for_each(|w| h.word(w));
        }
    }
    let random = world.resource::<SimRandom>();
    wide(&mut h, random.shared.state);
    for (name, stream) in &random.streams {
        h.write(name.as_bytes());
        wide(&mut h, stream.state);
    }
    if let Some(ais) = world.get_resource::<iron3d_superai::SuperAis>() {
        ais.hash_into(&mut h);
    }
    iron3d_economy::hash_into(world, &mut h);
    iron3d_combat::hash_into(world, &mut h);
    iron3d_strategy::hash_into(world, &mut h);
    iron3d_production::hash_into(world, &mut h);
    if let Some(d) = world.get_resource::<iron3d_core::Difficulty>() {
        h.word(d.level as u32);
        d.ratios.iter().for_each(|r| h.word(r.to_bits()));
    }
    if let Some(outcome) = world.get_resource::<MissionOutcome>() {
        for (clan, o, tick) in &outcome.records {
            [*clan, *o as u32, *tick].into_iter().for_each(|w| h.word(w));
        }
    }
    h.0
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

/// Records the hash at the end of each tick.
pub(crate) fn record(world: &mut World) {
    let hash = state_hash(world);
    let tick = world.resource::<GameClock>().tick;
    world.resource_mut::<StateHash>().history.push((tick, hash));
}
