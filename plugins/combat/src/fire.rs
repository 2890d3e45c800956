//! Turrets, guns, shots and hits, in stable order: shooters by `OriginalObjectId` and
//! their guns in component order, projectiles by shot sequence, hits by (target, shot).
//! A hit from a firer no longer in the world does nothing (openparkan
//! `docs/26-damage.md`, read); a direct hit strikes one node, a blast every node it
//! reaches by the falloff, except the firer's own; armour stands between a hit and
//! each node.

use crate::ai_fire::{self, MOVING_BAR, STILL_BAR};
use crate::arm::is_building;
use crate::body::{Body, Strike, armoured, falloff};
use crate::guns::{GunState, Guns};
use crate::repair::Repair;
use crate::shield::{Meeting, Shield, sector};
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_state::prelude::DespawnOnExit;
use iron3d_core::Power;
use iron3d_core::plane::{dist, wrap_angle};
use iron3d_core::{
    Aboard, AppState, CollisionProxy, DeleteRequest, DispatchPhase, Drive, GameClock, GameMessage, GameMessageKind,
    Health, Invulnerable, Kinematics, LastHit, ManualControl, MotionLimits, ORDERABLE_SPEED, ObjectHandle, ObjectRef,
    ObjectTable, OriginalObjectId, Projectile, Radar, ShotCounter, SimRandom, SimTransform, TICK_SECONDS, UnitClass,
    Weapon,
};

/// A turret fires once it points within this angle of its target (radians).
pub const AIM_TOLERANCE: f32 = 0.08;
/// Explosion kinds that hurt (`.exp`): 2 direct, 3 blast; 1 (effect) and 4 (shields
/// only: no shields yet) hurt nothing.
const DIRECT: u32 = 2;
const BLAST: u32 = 3;

/// One hit waiting to be applied.
#[derive(Debug, Clone, Copy)]
struct Hit {
    target: u32,
    sequence: u32,
    shooter: u32,
    damage: f32,
    /// The round's life (what a shield's sector must outweigh to stop it).
    life: f32,
    /// Blast radius (0: a direct hit on `target`).
    blast: f32,
    /// Where it comes from (the round's last position, the shooter's for a beam).
    from: [f32; 3],
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

type Shooter<'a> = (
    &'a OriginalObjectId,
    &'a ObjectHandle,
    &'a SimTransform,
    &'a Radar,
    &'a mut Weapon,
    &'a mut Guns,
    &'a Body,
    Option<&'a ManualControl>,
    (Option<&'a UnitClass>, Option<&'a MotionLimits>, Option<&'a Drive>, Option<&'a Kinematics>),
);

/// The AI's score bar of a shooter: a building's and a machine's that moves at
/// [`ORDERABLE_SPEED`] or more (its live top speed) are the higher.
fn bar(class: Option<&UnitClass>, motion: Option<&MotionLimits>, drive: Option<&Drive>) -> f32 {
    let building = class.is_some_and(|c| is_building(c.0));
    let live = motion.map(|m| m.live(drive));
    let moves = live.and_then(|m| m.top_speed.map(|s| s * m.speed_scale)).is_some_and(|s| s >= ORDERABLE_SPEED);
    if building || moves { MOVING_BAR } else { STILL_BAR }
}

/// What shots and hits report to: the clock, the object table, the random streams, the
/// World3D queue and its deletions.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Report<'w> {
    clock: Res<'w, GameClock>,
    table: Res<'w, ObjectTable>,
    random: ResMut<'w, SimRandom>,
    out: MessageWriter<'w, GameMessage>,
    delete: MessageWriter<'w, DeleteRequest>,
}

/// What a hit of a gun's round does on impact: its damage and blast radius, or `None`
/// for an explosion that hurts nothing.
fn impact(gun: &GunState) -> Option<(f32, f32)> {
    match gun.sheet.round.hit.kind {
        DIRECT => Some((gun.round_damage(), 0.0)),
        BLAST => Some((gun.round_damage(), gun.sheet.round.hit.radius)),
        _ => None,
    }
}

/// Whether the player's triggers reach `gun` (openparkan `docs/29-weapons.md`, read): the
/// fire button its selection, the missiles' button a selected guided gun's, the fire-all
/// button every gun.
pub(crate) fn pulled(input: &iron3d_core::PilotInput, gun: &GunState) -> bool {
    input.fire_all || gun.selected && (input.fire || input.fire_missiles && gun.sheet.round.guided())
}

/// How far a gun must reach to hit an object at `to` from `from`: the distance across
/// the ground less the object's radius (its collision proxy's; 0 without one). Every
/// gun's range gate takes it ([`GunState::gate`]), and so does the cockpit's *OUT OF
/// RANGE*.
pub fn reach(from: [f32; 3], to: [f32; 3], radius: Option<f32>) -> f32 {
    dist([from[0], from[1]], [to[0], to[1]]) - radius.unwrap_or(0.0)
}

/// Turns every turret toward its target and works every gun: a stroke under way goes
/// on, and a ready gun whose node lives passes its gate ([`GunState::gate`]: its range,
/// a guided gun's cone and lock) and starts one when the turret points at the target and
/// the AI's fire rules allow it ([`crate::ai_fire`]). A
/// piloted unit's turret (below auto-driver level 2) turns by the player's aim instead, and the guns its player's
/// triggers reach ([`pulled`]) start at the player's target (its radar target without
/// one) if that is in its sights.
pub(crate) fn aim_and_fire(
    mut commands: Commands,
    mut report: Report,
    targets: Query<(&SimTransform, Option<&CollisionProxy>, Option<&UnitClass>), (With<Health>, Without<Aboard>)>,
    mut shooters: Query<Shooter, Without<Aboard>>,
    mut shots: ResMut<ShotCounter>,
    mut hits: ResMut<Hits>,
) {
    let dt = TICK_SECONDS;
    let mut order: Vec<_> = shooters.iter_mut().collect();
    order.sort_unstable_by_key(|s| *s.0);
    for (&id, &handle, t, radar, mut weapon, mut guns, body, manual, (class, motion, drive, kin)) in order {
        // The hull's turn toward the turret (the turret lock) turns the turret back: the
        // aim holds in the world.
        if let Some(follow) = kin.map(|k| k.follow).filter(|f| *f != 0.0) {
            weapon.turret = wrap_angle(weapon.turret - follow);
        }
        // At auto-driver level 2 the AI aims and fires the unit's guns.
        let manual = manual.filter(|m| m.fights());
        // The player's aim of this tick turns the turret; while piloted, the guns start
        // only on the player's fire.
        if let Some(m) = manual.filter(|m| m.tick == report.clock.tick) {
            weapon.turret = wrap_angle(weapon.turret + f32::from(m.input.aim_mrad) / 1000.0);
        }
        let table = &report.table;
        // A piloted unit's guns take the player's target, else its radar's (the project's).
        let aimed_at = manual.and_then(|m| m.input.target).or(radar.target);
        let target = aimed_at.and_then(|r| table.entity_of(r).and_then(|e| targets.get(e).ok()).map(|x| (r, x)));
        let mut sight = None;
        if let Some((_, (tt, proxy, target_class))) = target {
            let (from, to) = ([t.position[0], t.position[1]], [tt.position[0], tt.position[1]]);
            let bearing = libm::atan2f(to[1] - from[1], to[0] - from[0]);
            let error = wrap_angle(bearing - t.heading() - weapon.turret);
            if manual.is_none() {
                let step = weapon.turn_rate * dt;
                weapon.turret = wrap_angle(weapon.turret + error.clamp(-step, step));
            }
            let building = target_class.is_some_and(|c| is_building(c.0));
            let reach = reach(t.position, tt.position, proxy.map(|p| p.radius));
            let height = tt.position[2] - t.position[2];
            sight = Some((error.abs(), reach, height, building));
        }
        let bar = bar(class, motion, drive);
        // Past its gate, a gun fires when it points at the target (a guided one anywhere
        // in its cone, which the gate tested) and the player's trigger or the AI's rules
        // say so.
        let fires = |gun: &GunState| {
            sight.is_some_and(|(off, reach, height, building)| {
                (gun.sheet.round.seeker.is_some() || off <= AIM_TOLERANCE)
                    && match manual {
                        Some(m) => pulled(&m.input, gun),
                        None => ai_fire::allows(gun, radar.ordered, bar, reach, height, building),
                    }
            })
        };
        for gun in &mut guns.0 {
            let mut rounds = gun.tick();
            let alive = body.lives(gun.sheet.node);
            if rounds == 0
                && alive
                && gun.ready()
                && let (Some((id, _)), Some((off, reach, ..))) = (target, sight)
                && gun.gate(id, reach, off)
                && fires(gun)
            {
                rounds = gun.trigger();
                if manual.is_none() {
                    gun.ai_wait_ms = ai_fire::next_wait_ms(gun.sheet.magazine, report.random.stream("combat.fire"));
                }
            }
            let Some((target, _)) = target.filter(|_| rounds > 0) else { continue };
            let hurts = impact(gun);
            for _ in 0..rounds {
                shots.0 = shots.0.wrapping_add(1);
                let sequence = shots.0;
                let Some((damage, blast)) = hurts else { continue };
                let speed = gun.sheet.round.speed;
                if speed > 0.0 {
                    let ttl = (gun.sheet.round.range / (speed * dt)).ceil().max(1.0) as u32;
                    commands.spawn((
                        Name::new("Projectile"),
                        Projectile {
                            sequence,
                            shooter: id.0,
                            target,
                            kind: weapon.kind,
                            position: t.position,
                            speed,
                            damage,
                            life: gun.round_life(),
                            blast,
                            ttl,
                        },
                        DespawnOnExit(AppState::InGame),
                    ));
                } else {
                    let (life, from) = (gun.round_life(), t.position);
                    hits.0.push(Hit { target, sequence, shooter: id.0, damage, life, blast, from });
                }
            }
            if let Some(target) = reference(&report.table, target) {
                let kind = GameMessageKind::Fired { shooter: ObjectRef { id, handle }, target, weapon: weapon.kind };
                report.out.write(GameMessage::new(&report.clock, DispatchPhase::Control, kind));
            }
        }
    }
}

/// Shields recharge and repair systems mend, each object on its own; the guns of an
/// object without batteries refill whole.
pub(crate) fn maintain(
    mut objects: Query<(&mut Body, &mut Health, Option<&mut Shield>, Option<&mut Repair>, Option<&Power>)>,
    mut unpowered: Query<&mut Guns, Without<Power>>,
) {
    for mut guns in &mut unpowered {
        guns.0.iter_mut().for_each(|g| g.refill(1.0));
    }
    for (mut body, mut health, shield, repair, power) in &mut objects {
        if let Some(mut shield) = shield {
            shield.recharge(&body, TICK_SECONDS);
        }
        if let Some(mut repair) = repair
            && repair.step(&mut body, TICK_SECONDS, power.map_or(1.0, |p| p.charge)) > 0.0
        {
            health.hp = body.total().0;
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
            let (target, sequence, shooter, damage, life, blast) =
                (p.target, p.sequence, p.shooter, p.damage, p.life, p.blast);
            hits.0.push(Hit { target, sequence, shooter, damage, life, blast, from: p.position });
            commands.entity(entity).despawn();
        } else {
            for (k, dk) in d.iter().enumerate() {
                p.position[k] += dk / length * step;
            }
        }
    }
}

/// An object a hit may reach.
type Victim<'a> = (
    &'a mut Body,
    &'a mut Health,
    &'a SimTransform,
    Option<&'a CollisionProxy>,
    Option<&'a mut LastHit>,
    Option<&'a mut Shield>,
    Has<Invulnerable>,
);

/// The sector of an object's bubble a hit from `from` meets, when it comes from outside
/// the bubble (the object's bounding circle, `radius` beyond `reach`): the offset turned
/// into the original's frame (x right, y forward, z up; iron3d's units face +X with +Y
/// to their left).
fn bubble_sector(t: &SimTransform, radius: f32, reach: f32, from: [f32; 3]) -> Option<usize> {
    let d = [from[0] - t.position[0], from[1] - t.position[1], from[2] - t.position[2]];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    if distance <= radius || distance >= radius + reach {
        return None;
    }
    let (s, c) = (libm::sinf(t.heading()), libm::cosf(t.heading()));
    let (forward, left) = (d[0] * c + d[1] * s, -d[0] * s + d[1] * c);
    Some(sector([-left, forward, d[2]]))
}

/// The node a direct hit strikes: one of the live nodes, drawn from the `combat.node`
/// stream in proportion to their full life (the project's rule: the original tests the
/// round's path against each node's triangles, which the simulation does not hold).
fn struck_node(body: &Body, random: &mut SimRandom) -> Option<u16> {
    let live = || body.nodes.iter().enumerate().filter(|(_, n)| n.life > 0.0);
    let total: f64 = live().map(|(_, n)| f64::from(n.max.max(0.0))).sum();
    let first = live().next().map(|(i, _)| i as u16);
    if total <= 0.0 {
        return first;
    }
    let mut pick = random.stream("combat.node").below(1 << 24) as f64 / f64::from(1u32 << 24) * total;
    for (i, n) in live() {
        pick -= f64::from(n.max.max(0.0));
        if pick < 0.0 {
            return Some(i as u16);
        }
    }
    first
}

/// Applies this tick's hits; destroys what dies. Every hit on an object first tells it
/// who fired ([`LastHit`]), whatever it then does to it; the firer's own nodes are
/// spared.
pub(crate) fn apply_hits(
    mut commands: Commands,
    mut hits: ResMut<Hits>,
    mut victims: Query<Victim>,
    ids: Query<(Entity, &OriginalObjectId), With<Body>>,
    mut report: Report,
) {
    let mut due = std::mem::take(&mut hits.0);
    due.sort_unstable_by_key(|h| (h.target, h.sequence));
    // Blasts reach every body; collected once, in id order, when a blast is due.
    let mut bodies: Vec<(u32, Entity)> = Vec::new();
    if due.iter().any(|h| h.blast > 0.0) {
        bodies = ids.iter().map(|(e, id)| (id.0, e)).collect();
        bodies.sort_unstable_by_key(|b| b.0);
    }
    for hit in due {
        let Some(attacker) = reference(&report.table, hit.shooter) else { continue };
        if hit.blast <= 0.0 {
            let Some(entity) = report.table.entity_of(hit.target) else { continue };
            let Ok((mut body, mut health, t, proxy, last, shield, spared)) = victims.get_mut(entity) else { continue };
            if !tell(&mut commands, entity, (&body, &health, spared), last, hit.shooter, report.clock.tick) {
                continue;
            }
            // A round meets the bubble first: it passes with less life, or stops there
            // and its damage goes to the sector.
            let mut damage = hit.damage;
            let radius = proxy.map_or(1.0, |c| c.radius);
            if let (Some(mut shield), Some(s)) =
                (shield.filter(|s| s.up(&body)), bubble_sector(t, radius, f32::INFINITY, hit.from))
            {
                match shield.meet(&body, s, hit.life) {
                    Meeting::Passes(lost) => damage = (damage - lost).max(0.0),
                    Meeting::Stopped => {
                        shield.stop(&body, s, damage);
                        continue;
                    }
                }
            }
            let Some(node) = struck_node(&body, &mut report.random) else { continue };
            let damage = armoured(damage, body.armour);
            let strike = body.strike(node, damage);
            settle(&mut report, (hit.target, node, t.position), strike, &body, &mut health, attacker);
            continue;
        }
        let centre =
            report.table.entity_of(hit.target).and_then(|e| victims.get(e).ok()).map(|(_, _, t, ..)| t.position);
        let Some(centre) = centre else { continue };
        for &(id, entity) in &bodies {
            if id == hit.shooter {
                continue;
            }
            let Ok((mut body, mut health, t, proxy, last, shield, spared)) = victims.get_mut(entity) else { continue };
            let p = t.position;
            let d = (0..3).map(|k| (p[k] - centre[k]) * (p[k] - centre[k])).sum::<f32>().sqrt();
            let r = proxy.map_or(1.0, |c| c.radius);
            if falloff(1.0, d, r, hit.blast) <= 0.0
                || !tell(&mut commands, entity, (&body, &health, spared), last, hit.shooter, report.clock.tick)
            {
                continue;
            }
            // A blast that crosses the bubble from outside pays its sector first.
            let mut blast = hit.damage;
            if let (Some(mut shield), Some(s)) =
                (shield.filter(|s| s.up(&body)), bubble_sector(t, r, hit.blast, centre))
            {
                blast = shield.stop(&body, s, blast);
            }
            // Every node of the object stands at its centre within its radius (the
            // project's: the simulation holds no node spheres).
            let damage = armoured(falloff(blast, d, r, hit.blast), body.armour);
            for node in 0..body.nodes.len() as u16 {
                if body.dead() {
                    break;
                }
                let strike = body.strike(node, damage);
                settle(&mut report, (id, node, p), strike, &body, &mut health, attacker);
            }
        }
    }
}

/// Tells a living victim who fired; false when the hit goes no further (it is dead,
/// or invulnerable: by its data, or for a task, `spared`).
fn tell(
    commands: &mut Commands,
    entity: Entity,
    (body, health, spared): (&Body, &Health, bool),
    last: Option<Mut<LastHit>>,
    by: u32,
    tick: u32,
) -> bool {
    if health.hp <= 0.0 || body.dead() {
        return false;
    }
    let told = LastHit { by, tick };
    match last {
        Some(mut last) => *last = told,
        None => {
            commands.entity(entity).insert(told);
        }
    }
    !health.invulnerable && !spared
}

/// Publishes a strike: the object's life, `damaged` naming the node, `destroyed` for
/// the nodes it destroyed or for the object, whose deletion it requests.
fn settle(
    report: &mut Report,
    (id, node, position): (u32, u16, [f32; 3]),
    strike: Strike,
    body: &Body,
    health: &mut Health,
    attacker: ObjectRef,
) {
    if strike.lost <= 0.0 {
        return;
    }
    let Some(target) = reference(&report.table, id) else { return };
    let (hp, _) = body.total();
    health.hp = hp;
    let by = Some(attacker);
    let clock = &report.clock;
    let kind = GameMessageKind::Damaged { target, attacker: by, node, amount: strike.lost, hp };
    report.out.write(GameMessage::new(clock, DispatchPhase::Control, kind));
    if strike.dead {
        report.delete.write(DeleteRequest { object: target.handle });
        let kind = GameMessageKind::Destroyed { object: target, by, position };
        report.out.write(GameMessage::new(clock, DispatchPhase::Control, kind));
        return;
    }
    for node in strike.destroyed {
        let kind = GameMessageKind::PartDestroyed { object: target, node, by };
        report.out.write(GameMessage::new(clock, DispatchPhase::Control, kind));
    }
}
