//! The per-tick state hash: every simulated object's position, orientation, speed,
//! turn rate, order and path state, then the random streams, then the clans' script
//! VM state (SuperAI), the economy (distributor shares, ore) and the recorded outcomes, as IEEE bits in
//! `OriginalObjectId` / clan order (FNV-1a). Same command log, same hash, on every machine.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_behavior::Navigator;
use iron3d_core::{
    Fnv1a, GameClock, Kinematics, MissionOutcome, NavStatus, OriginalObjectId, SimObject, SimRandom, SimTransform,
};

/// The hash of every tick so far.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect)]
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

type Hashed<'a> =
    (&'a OriginalObjectId, &'a SimTransform, Option<&'a Kinematics>, Option<&'a Navigator>, Option<&'a NavStatus>);

/// The hash of the world's simulation state now.
pub fn state_hash(world: &mut World) -> u64 {
    let mut q = world.query_filtered::<Hashed, With<SimObject>>();
    let mut rows: Vec<Hashed> = q.iter(world).collect();
    rows.sort_unstable_by_key(|r| *r.0);
    let mut h = Fnv1a::default();
    let f = |h: &mut Fnv1a, v: &[f32]| v.iter().for_each(|x| h.write(&x.to_bits().to_le_bytes()));
    for (id, t, kin, nav, status) in rows {
        h.write(&id.0.to_le_bytes());
        f(&mut h, &t.position);
        f(&mut h, &t.orientation);
        if let Some(k) = kin {
            f(&mut h, &[k.speed, k.turn_rate]);
        }
        if let Some(n) = nav {
            let (kind, value) = n.order.key();
            h.write(&[kind, u8::from(n.reverse), u8::from(n.replan)]);
            h.write(&value.to_le_bytes());
            for v in [n.leg, n.next, n.local_path.len()] {
                h.write(&(v as u64).to_le_bytes());
            }
            h.write(&n.first_step_ms.to_le_bytes());
        }
        if let Some(s) = status {
            h.write(&[s.state as u8]);
            h.write(&s.areal.map_or(u32::MAX, |a| a).to_le_bytes());
            h.write(&s.path_revision.to_le_bytes());
        }
    }
    let random = world.resource::<SimRandom>();
    h.write(&random.shared.state.to_le_bytes());
    for (name, stream) in &random.streams {
        h.write(name.as_bytes());
        h.write(&stream.state.to_le_bytes());
    }
    if let Some(ais) = world.get_resource::<iron3d_superai::SuperAis>() {
        ais.hash_into(&mut h);
    }
    iron3d_economy::hash_into(world, &mut h);
    if let Some(outcome) = world.get_resource::<MissionOutcome>() {
        for (clan, o, tick) in &outcome.records {
            h.write(&[*clan, *o as u32, *tick].map(u32::to_le_bytes).concat());
        }
    }
    h.0
}

/// Records the hash at the end of each tick.
pub(crate) fn record(world: &mut World) {
    let hash = state_hash(world);
    let tick = world.resource::<GameClock>().tick;
    world.resource_mut::<StateHash>().history.push((tick, hash));
}
