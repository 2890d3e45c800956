//! Handles, the clock and deferred deletion.

use bevy_ecs::prelude::*;
use iron3d_core::{
    DeleteRequest, DispatchPhase, GameClock, GameMessage, GameMessageKind, ObjectHandle, ObjectRef, ObjectTable,
    OriginalObjectId, SimObject, SimRandom, TICK_MS,
};

/// A simulated object joined the world: give it a handle and announce it.
pub(crate) fn on_join(
    add: On<Add, SimObject>,
    ids: Query<&OriginalObjectId>,
    mut table: ResMut<ObjectTable>,
    clock: Res<GameClock>,
    mut commands: Commands,
    mut out: MessageWriter<GameMessage>,
) {
    let Ok(&id) = ids.get(add.entity) else { return };
    let handle = table.insert(add.entity, id);
    commands.entity(add.entity).insert(handle);
    out.write(GameMessage::new(&clock, DispatchPhase::Registration, GameMessageKind::Init(ObjectRef { id, handle })));
}

/// An object left the world (deleted, or despawned with its mission): free its slot.
pub(crate) fn on_leave(
    remove: On<Remove, ObjectHandle>,
    objects: Query<(&ObjectHandle, &OriginalObjectId)>,
    mut table: ResMut<ObjectTable>,
) {
    if let Ok((&handle, &id)) = objects.get(remove.entity) {
        table.remove(handle, id);
    }
}

/// A mission starts or ends: no handles, clock at zero, fresh random streams.
pub(crate) fn reset(mut table: ResMut<ObjectTable>, mut clock: ResMut<GameClock>, mut random: ResMut<SimRandom>) {
    *table = ObjectTable::default();
    *clock = GameClock::default();
    *random = SimRandom::new(random.seed);
}

/// The first step of every tick: the clock advances by one tick.
pub(crate) fn advance_clock(mut clock: ResMut<GameClock>, mut out: MessageWriter<GameMessage>) {
    clock.tick = clock.tick.wrapping_add(1);
    clock.time_ms = clock.time_ms.wrapping_add(TICK_MS);
    out.write(GameMessage::new(&clock, DispatchPhase::Input, GameMessageKind::NewGameTick));
}

/// The World3D boundary: applies every deletion requested this tick, in id order, then
/// announces each. Requests for objects already gone are ignored.
pub(crate) fn apply_deletions(
    mut requests: MessageReader<DeleteRequest>,
    table: Res<ObjectTable>,
    ids: Query<&OriginalObjectId>,
    clock: Res<GameClock>,
    mut commands: Commands,
    mut out: MessageWriter<GameMessage>,
) {
    let mut doomed: Vec<(OriginalObjectId, ObjectHandle, Entity)> = requests
        .read()
        .filter_map(|r| {
            let entity = table.get(r.object)?;
            Some((*ids.get(entity).ok()?, r.object, entity))
        })
        .collect();
    doomed.sort_unstable_by_key(|(id, ..)| *id);
    doomed.dedup_by_key(|(id, ..)| *id);
    for (id, handle, entity) in doomed {
        commands.entity(entity).despawn();
        out.write(GameMessage::new(
            &clock,
            DispatchPhase::World3d,
            GameMessageKind::KillGameObject(ObjectRef { id, handle }),
        ));
    }
}
