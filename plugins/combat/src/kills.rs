//! Kills a construction sphere asks for (openparkan `docs/32-builder.md`, read: the
//! dome's states kill every unit inside it through its life system): every node of the
//! object is destroyed, its deletion requested and `destroyed` posted, by the building.
//! An invulnerable object lives on (by its data or for its task; the project's reading of
//! the life system's flag).

use crate::body::Body;
use bevy_ecs::prelude::*;
use iron3d_core::{
    DeleteRequest, DispatchPhase, GameClock, GameMessage, GameMessageKind, Health, Invulnerable, KillRequest,
    ObjectRef, ObjectTable, OriginalObjectId, SimTransform,
};

/// Applies this tick's kill requests, in object id order.
pub(crate) fn apply(
    mut requests: MessageReader<KillRequest>,
    (clock, table): (Res<GameClock>, Res<ObjectTable>),
    mut victims: Query<(&mut Body, &mut Health, &SimTransform, Has<Invulnerable>)>,
    mut out: MessageWriter<GameMessage>,
    mut delete: MessageWriter<DeleteRequest>,
) {
    let mut asked: Vec<KillRequest> = requests.read().copied().collect();
    asked.sort_unstable_by_key(|k| (k.object, k.by));
    asked.dedup_by_key(|k| k.object);
    let reference = |id: u32| table.handle_of(id).map(|handle| ObjectRef { id: OriginalObjectId(id), handle });
    for k in asked {
        let (Some(object), Some(e)) = (reference(k.object), table.entity_of(k.object)) else { continue };
        let Ok((mut body, mut health, t, spared)) = victims.get_mut(e) else { continue };
        if health.invulnerable || spared || health.hp <= 0.0 || body.dead() {
            continue;
        }
        body.nodes.iter_mut().for_each(|n| n.life = 0.0);
        health.hp = 0.0;
        delete.write(DeleteRequest { object: object.handle });
        let kind = GameMessageKind::Destroyed { object, by: reference(k.by), position: t.position };
        out.write(GameMessage::new(&clock, DispatchPhase::Control, kind));
    }
}
