//! Proxies and the integration step.

use crate::config::{ControlConfig, limit};
use bevy_ecs::prelude::*;
use iron3d_core::{
    Aboard, CollisionProxy, Drive, HULL_FOLLOW, Kinematics, ManualControl, ModelBounds, MotionLimits, MotionRequest,
    Movable, PreviousSimTransform, SimObject, SimTransform, TICK_SECONDS, UnitClass, Weapon,
};
use iron3d_terrain::Ground;

/// Seconds per tick.
pub(crate) const DT: f32 = TICK_SECONDS;

/// A piloted unit's full strafe as a share of its top speed (the project's, as its
/// reverse: the original's side speed is its movement controller's, not recovered).
const STRAFE_SHARE: f32 = 0.5;

/// The proxy of an object from its model bounds and scale.
pub fn proxy_of(bounds: &ModelBounds, scale: [f32; 3], movable: bool) -> CollisionProxy {
    let half = [0, 1].map(|k| (bounds.max[k] - bounds.min[k]).abs() / 2.0 * scale[k].abs());
    let offset = [0, 1].map(|k| (bounds.max[k] + bounds.min[k]) / 2.0 * scale[k]);
    if movable {
        CollisionProxy { radius: (half[0] + half[1]) / 2.0, half_extents: half, offset: [0.0; 2], circle: true }
    } else {
        CollisionProxy {
            radius: (half[0] * half[0] + half[1] * half[1]).sqrt(),
            half_extents: half,
            offset,
            circle: false,
        }
    }
}

/// Builds proxies for new objects and rebuilds them when bounds or scale change; gives
/// units their physical state.
pub(crate) fn build_proxies(
    mut commands: Commands,
    changed: Query<
        (Entity, &ModelBounds, &SimTransform, Has<Movable>),
        (With<SimObject>, Or<(Changed<ModelBounds>, Without<CollisionProxy>)>),
    >,
    units: Query<(Entity, &SimTransform), (With<Movable>, With<SimObject>, Without<Kinematics>)>,
) {
    for (entity, bounds, t, movable) in &changed {
        commands.entity(entity).insert(proxy_of(bounds, t.scale, movable));
    }
    for (entity, t) in &units {
        commands.entity(entity).insert((Kinematics::default(), PreviousSimTransform(*t)));
    }
}

pub(crate) use iron3d_core::plane::wrap_angle as wrap;

/// Turn and speed towards the request within the unit's live limits (its data's and
/// its drive's, capped by `Behavior.ini`), then the candidate position; a step onto
/// ground steeper than the unit's slope limit that climbs is refused (the unit stops
/// where it stood). A machine whose running gear is worse on one side veers toward it
/// (openparkan `docs/24-motion.md`, read: the yaw rate gains right − left times the
/// speed over the authored top speed). A piloted unit also strafes by the player's input,
/// at once, sideways to its heading, and a bot the player moves turns its hull toward its
/// turret at up to [`HULL_FOLLOW`] of its turn rate in place of the player's spin while
/// its turret lock is on (on when a bot is taken, switched by `MCMD_LOCK`, never on the
/// hero: openparkan `docs/24-motion.md` and `docs/14-controls.md`, read);
/// [`Kinematics::follow`] keeps the turn.
pub(crate) fn step(
    config: Res<ControlConfig>,
    ground: Option<Res<Ground>>,
    mut units: Query<(
        &MotionRequest,
        &mut Kinematics,
        &mut SimTransform,
        &mut PreviousSimTransform,
        Option<&ManualControl>,
        (Option<&MotionLimits>, Option<&Drive>, Has<Aboard>, Option<&Weapon>, Option<&UnitClass>),
    )>,
) {
    for (request, mut kin, mut t, mut previous, manual, (authored, drive, aboard, weapon, class)) in &mut units {
        previous.0 = *t;
        // The hero aboard a bot is out of the world: he stands, whatever he was doing.
        if aboard {
            (kin.speed, kin.turn_rate, kin.follow) = (0.0, 0.0, 0.0);
            continue;
        }
        let authored = authored.copied().unwrap_or_default();
        let limits = authored.live(drive);
        let heading = t.heading();
        let max_turn = limit(limits.turn_rate, config.max_rotation, config.default_rotation) * DT;
        // The player's throttle, turn and strafe replace Wizard's request while he moves it
        // (auto-driver level 0).
        let (turn, target, side) = match manual.filter(|m| m.moves()) {
            Some(m) => {
                let throttle = f32::from(m.input.throttle) / 127.0;
                let reverse = if throttle < 0.0 { 0.5 } else { 1.0 };
                let top = limits.speed_or(config.pilot_speed);
                let side = f32::from(m.input.strafe) / 127.0 * STRAFE_SHARE * top;
                (f32::from(m.input.turn) / 127.0 * max_turn, throttle * reverse * top, side)
            }
            None => {
                let v = request.velocity;
                let wanted = (v[0] * v[0] + v[1] * v[1]).sqrt();
                let delta = if wanted > 1e-3 { wrap(libm::atan2f(v[1], v[0]) - heading) } else { 0.0 };
                (delta.clamp(-max_turn, max_turn), wanted * libm::cosf(delta).max(0.0), 0.0)
            }
        };
        let veer = match (drive, authored.top_speed) {
            (Some(d), Some(top)) if top > 0.0 => (d.right - d.left) * kin.speed / top * DT,
            _ => 0.0,
        };
        // The turret lock: a bot the player moves turns its hull toward its turret, the
        // turn replacing his spin (the hero has none; read).
        let locked = manual.is_some_and(|m| m.moves() && !m.unlocked) && class.is_none_or(|c| !c.is_hero());
        let (spin, follow) = match weapon.filter(|_| locked) {
            Some(w) => (0.0, w.turret.clamp(-HULL_FOLLOW * max_turn, HULL_FOLLOW * max_turn)),
            None => (turn, 0.0),
        };
        kin.follow = follow;
        let turn = spin + veer + follow;
        let new_heading = wrap(heading + turn);
        kin.turn_rate = turn / DT;
        let max_dv = limit(limits.acceleration, config.max_accel, config.default_accel) * DT;
        kin.speed += (target - kin.speed).clamp(-max_dv, max_dv);
        let (s, c) = (libm::sinf(new_heading), libm::cosf(new_heading));
        let from = t.position;
        // Forward along the heading, sideways to its left.
        t.position[0] += (c * kin.speed - s * side) * DT;
        t.position[1] += (s * kin.speed + c * side) * DT;
        t.orientation[2] = new_heading;
        if let Some(ground) = &ground {
            if let Some(max) = limits.slope_limit
                && too_steep(ground, from, t.position, max)
            {
                (t.position, kin.speed) = (from, 0.0);
            }
            follow_terrain(ground, &mut t);
        }
    }
}

/// Whether the step `from → to` climbs onto ground steeper than `max` (radians).
fn too_steep(ground: &Ground, from: [f32; 3], to: [f32; 3], max: f32) -> bool {
    let Some((z, n)) = ground.surface_at(to[0], to[1]) else { return false };
    let climbs = ground.height_at(from[0], from[1]).is_some_and(|z0| z > z0);
    climbs && libm::acosf(n[2].clamp(-1.0, 1.0)) > max
}

/// Puts a ground unit on the surface: height at its XY, pitch and roll from the normal
/// (`R = Rz(heading)·Ry(pitch)·Rx(roll)` maps local +Z onto the normal).
pub(crate) fn follow_terrain(ground: &Ground, t: &mut SimTransform) {
    let Some((z, n)) = ground.surface_at(t.position[0], t.position[1]) else { return };
    let h = t.heading();
    let (s, c) = (libm::sinf(h), libm::cosf(h));
    let along = n[0] * c + n[1] * s;
    let across = -n[0] * s + n[1] * c;
    t.position[2] = z;
    t.orientation[0] = -libm::asinf(across.clamp(-1.0, 1.0));
    t.orientation[1] = libm::atan2f(along, n[2]);
}
