//! Turrets, shots and hits, in stable order: shooters by `OriginalObjectId`,
//! projectiles by shot sequence, hits by (target, shot).

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_state::prelude::DespawnOnExit;
use iron3d_core::plane::{dist, wrap_angle};
use iron3d_core::{
    AppState, CollisionProxy, DeleteRequest, DispatchPhase, GameClock, GameMessage, GameMessageKind, Health, LastHit,
    ManualControl, ObjectHandle, ObjectRef, ObjectTable, OriginalObjectId, Projectile, Radar, ShotCounter,
    SimTransform, TICK_SECONDS, Weapon,
};

/// A turret fires once it points within this angle of its target (radians).
pub const AIM_TOLERANCE: f32 = 0.08;
/// A projectile falls harmlessly after this many times its time to the target at
/// launch (it homes, so it only misses when the target outruns it).
const TTL_FACTOR: f32 = 3.0;

/// One hit waiting to be applied.
#[derive(Debug, Clone, Copy)]
struct Hit {
    target: u32,
    sequence: u32,
    shooter: u32,
    damage: f32,
}

/// This tick's hits (filled by beams and projectiles, applied by [`apply_hits`]).
#[derive(Resource, Debug, Default)]
pub(crate) struct Hits(Vec<Hit>);

/// Forgets the shots of a closed mission (projectiles in flight despawn with it, by
/// `DespawnOnExit`).
pub(crate) fn reset(mut hits: ResMut<Hits>, mut shots: ResMut<ShotCounter>) {
    hits.0.clear();
    shots.0 = 0;
}

fn reference(table: &ObjectTable, id: u32) -> Option<ObjectRef> {
    table.handle_of(id).map(|handle| ObjectRef { id: OriginalObjectId(id), handle })
}

type Shooter<'a> =
    (&'a OriginalObjectId, &'a ObjectHandle, &'a SimTransform, &'a Radar, &'a mut Weapon, Option<&'a ManualControl>);

/// What a shot reports to: the clock, the object table and the World3D queue.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Report<'w> {
    clock: Res<'w, GameClock>,
    table: Res<'w, ObjectTable>,
    out: MessageWriter<'w, GameMessage>,
}

/// Turns every turret toward its target and fires the weapons that are ready. A piloted
/// unit's turret turns by the player's aim instead, and it fires, when the player
/// fires, at its radar target if that is in its sights.
pub(crate) fn aim_and_fire(
    mut commands: Commands,
    mut report: Report,
    targets: Query<(&SimTransform, Option<&CollisionProxy>), With<Health>>,
    mut shooters: Query<Shooter>,
    mut shots: ResMut<ShotCounter>,
    mut hits: ResMut<Hits>,
) {
    let table = &report.table;
    let dt = TICK_SECONDS;
    let mut order: Vec<_> = shooters.iter_mut().collect();
    order.sort_unstable_by_key(|s| *s.0);
    for (&id, &handle, t, radar, mut weapon, manual) in order {
        weapon.cooldown = weapon.cooldown.saturating_sub(1);
        if let Some(m) = manual.filter(|m| m.tick == report.clock.tick) {
            weapon.turret = wrap_angle(weapon.turret + f32::from(m.input.aim_mrad) / 1000.0);
        }
        let Some((target, (tt, proxy))) =
            radar.target.and_then(|r| table.entity_of(r).and_then(|e| targets.get(e).ok()).map(|x| (r, x)))
        else {
            continue;
        };
        let (from, to) = ([t.position[0], t.position[1]], [tt.position[0], tt.position[1]]);
        let bearing = libm::atan2f(to[1] - from[1], to[0] - from[0]);
        let error = wrap_angle(bearing - t.heading() - weapon.turret);
        match manual {
            Some(m) if !m.input.fire => continue,
            Some(_) => {}
            None => {
                let step = weapon.turn_rate * dt;
                weapon.turret = wrap_angle(weapon.turret + error.clamp(-step, step));
            }
        }
        let reach = weapon.range + proxy.map_or(0.0, |p| p.radius);
        if error.abs() > AIM_TOLERANCE || weapon.cooldown > 0 || dist(from, to) > reach {
            continue;
        }
        weapon.cooldown = weapon.reload_ticks;
        shots.0 = shots.0.wrapping_add(1);
        let sequence = shots.0;
        if weapon.projectile_speed > 0.0 {
            let flight = dist(from, to) / weapon.projectile_speed / dt;
            commands.spawn((
                Name::new("Projectile"),
                Projectile {
                    sequence,
                    shooter: id.0,
                    target,
                    kind: weapon.kind,
                    position: t.position,
                    speed: weapon.projectile_speed,
                    damage: weapon.damage,
                    ttl: (flight * TTL_FACTOR).ceil() as u32 + 1,
                },
                DespawnOnExit(AppState::InGame),
            ));
        } else {
            hits.0.push(Hit { target, sequence, shooter: id.0, damage: weapon.damage });
        }
        if let Some(target) = reference(&report.table, target) {
            let kind = GameMessageKind::Fired { shooter: ObjectRef { id, handle }, target, weapon: weapon.kind };
            report.out.write(GameMessage::new(&report.clock, DispatchPhase::Control, kind));
        }
    }
}

/// Moves every projectile toward its target; a projectile that reaches it hits.
pub(crate) fn fly(
    mut commands: Commands,
    table: Res<ObjectTable>,
    targets: Query<(&SimTransform, Option<&CollisionProxy>), With<Health>>,
    mut projectiles: Query<(Entity, &mut Projectile)>,
    mut hits: ResMut<Hits>,
) {
    let dt = TICK_SECONDS;
    let mut order: Vec<_> = projectiles.iter_mut().collect();
    order.sort_unstable_by_key(|p| p.1.sequence);
    for (entity, mut p) in order {
        let target = table.entity_of(p.target).and_then(|e| targets.get(e).ok());
        let Some((t, proxy)) = target.filter(|_| p.ttl > 0) else {
            commands.entity(entity).despawn();
            continue;
        };
        p.ttl -= 1;
        let d = [t.position[0] - p.position[0], t.position[1] - p.position[1], t.position[2] - p.position[2]];
        let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let step = p.speed * dt;
        if length <= step + proxy.map_or(0.0, |c| c.radius) {
            hits.0.push(Hit { target: p.target, sequence: p.sequence, shooter: p.shooter, damage: p.damage });
            commands.entity(entity).despawn();
        } else {
            for (k, dk) in d.iter().enumerate() {
                p.position[k] += dk / length * step;
            }
        }
    }
}

/// Applies this tick's hits; destroys what falls to 0 hit points. Every hit first tells
/// its victim who fired ([`LastHit`]), whatever it then does to it.
pub(crate) fn apply_hits(
    mut commands: Commands,
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    mut hits: ResMut<Hits>,
    mut victims: Query<(&mut Health, &SimTransform, Option<&mut LastHit>)>,
    mut out: MessageWriter<GameMessage>,
    mut delete: MessageWriter<DeleteRequest>,
) {
    let mut due = std::mem::take(&mut hits.0);
    due.sort_unstable_by_key(|h| (h.target, h.sequence));
    for hit in due {
        let (Some(target), Some(entity)) = (reference(&table, hit.target), table.entity_of(hit.target)) else {
            continue;
        };
        let Ok((mut health, t, last)) = victims.get_mut(entity) else { continue };
        if health.hp <= 0.0 {
            continue;
        }
        let told = LastHit { by: hit.shooter, tick: clock.tick };
        match last {
            Some(mut last) => *last = told,
            None => {
                commands.entity(entity).insert(told);
            }
        }
        if health.invulnerable {
            continue;
        }
        let amount = (hit.damage * (1.0 - health.armour)).min(health.hp);
        health.hp -= amount;
        let attacker = reference(&table, hit.shooter);
        let hp = health.hp;
        out.write(GameMessage::new(
            &clock,
            DispatchPhase::Control,
            GameMessageKind::Damaged { target, attacker, amount, hp },
        ));
        if hp <= 0.0 {
            delete.write(DeleteRequest { object: target.handle });
            let kind = GameMessageKind::Destroyed { object: target, by: attacker, position: t.position };
            out.write(GameMessage::new(&clock, DispatchPhase::Control, kind));
        }
    }
}
