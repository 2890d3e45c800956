//! Legs and their following: each order becomes legs (a point, an object, the points of
//! a mission path), each leg is planned into a global and a local path, and the unit is
//! steered along the local path until it arrives. Refusals stop the unit where it is
//! (never a jump) and are reported with its id and areal.

use crate::config::BehaviorConfig;
use crate::footprints::{Buildings, Footprints};
use crate::haul::{HaulTrip, Haulage};
use crate::navigator::Navigator;
use crate::planner::{self, Refusal};
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    ClearWizardPath, CollisionProxy, DiagnosticKind, DispatchPhase, Drive, GameClock, GameMessage, GameMessageKind,
    Guard, ManualControl, MotionLimits, NavState, NavStatus, ObjectHandle, ObjectRef, ObjectTable, Order,
    OriginalObjectId, SimTransform, SteerIntent, Ward, Weapon,
};
use iron3d_terrain::{Ground, MissionPaths, NavMap};

/// Ticks without getting closer after which a unit counts as blocked where it is.
const STALL_TICKS: u32 = 12;
/// Getting closer by less than this (units) in a tick is no progress.
const PROGRESS: f32 = 0.05;
/// An attacking unit stops this share of its weapon range from its target (the
/// project's own rule: close enough to keep firing when the target shifts a little).
const HOLD_RANGE: f32 = 0.85;
/// The share of its speed a transport stepping aside from a full storage keeps
/// (openparkan `docs/32-builder.md`, read).
const ASIDE_SHARE: f32 = 0.25;
/// A go to a place ends within this of it across the ground (openparkan
/// `docs/31-packages.md`, read).
const GO_REACH: f32 = 30.0;
/// The patrol a go to a place leaves its unit on when nothing follows it: this radius
/// about the place (openparkan `docs/42-selection.md`, "Spreading a group", read).
pub(crate) const SPREAD_RADIUS: f32 = 150.0;

/// What a unit does once its order ended with nothing queued behind it: a go to a place
/// ended within [`GO_REACH`] of it leaves the unit patrolling [`SPREAD_RADIUS`] about the
/// place (every clan's units, so a group sent to one point spreads over it); anything
/// else, nothing.
pub(crate) fn after_go(order: &Order, position: [f32; 2]) -> Option<Order> {
    match *order {
        Order::MoveTo(at) if dist(position, at) <= GO_REACH => {
            Some(Order::Guard(Guard { ward: Ward::Place { at, z: None }, radius: SPREAD_RADIUS }))
        }
        _ => None,
    }
}

/// The shared read-only world a leg is planned against.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Geography<'w> {
    nav: Option<Res<'w, NavMap>>,
    ground: Option<Res<'w, Ground>>,
    paths: Option<Res<'w, MissionPaths>>,
    config: Res<'w, BehaviorConfig>,
    clock: Res<'w, GameClock>,
    table: Res<'w, ObjectTable>,
    haulage: Res<'w, Haulage>,
}

/// Messages of one system, written in id order.
#[derive(Default)]
struct Outbox(Vec<(u32, GameMessage)>);

impl Outbox {
    fn post(&mut self, clock: &GameClock, object: ObjectRef, kind: GameMessageKind) {
        self.0.push((object.id.0, GameMessage::new(clock, DispatchPhase::Behavior, kind)));
    }

    /// A unit finished its order (a haul never does: it stops at its mine or store; nor
    /// does an animal's migration, at each of its points, nor a lode search, at each
    /// lode).
    fn arrived(&mut self, clock: &GameClock, nav: &Navigator, object: ObjectRef) {
        if !matches!(
            nav.order,
            Order::Haul(_) | Order::Migrate | Order::SearchLodes | Order::Construct(_) | Order::Upgrade(_)
        ) {
            self.post(clock, object, GameMessageKind::Arrived(object));
        }
    }

    fn flush(mut self, out: &mut MessageWriter<GameMessage>) {
        self.0.sort_by_key(|(id, _)| *id);
        out.write_batch(self.0.into_iter().map(|(_, m)| m));
    }
}

/// The point the current leg goes to, and whether it ends the order.
fn leg_goal(
    nav: &Navigator,
    trip: &HaulTrip,
    geo: &Geography,
    targets: &Query<&SimTransform>,
) -> Result<Option<([f32; 2], bool)>, Refusal> {
    let path_point = |id: i32| -> Result<(Vec<[f32; 3]>, [f32; 2]), Refusal> {
        let path = geo
            .paths
            .as_ref()
            .and_then(|p| p.get(id))
            .ok_or((DiagnosticKind::NonReachableArea, format!("the mission has no path {id}")))?;
        let p = path
            .points
            .get(nav.leg)
            .ok_or((DiagnosticKind::PathCycle, format!("path {id} has no point {}", nav.leg)))?;
        Ok((path.points.clone(), [p[0], p[1]]))
    };
    // A task's point, once its step chose it (leg 1): a refit's dock, a search's lode, a
    // builder's holder, site or building, a capturer's way in or out, the hero's bot.
    if nav.order.is_task() {
        return Ok((nav.leg == 1).then_some((nav.goal, true)));
    }
    match nav.order {
        // Production orders never reach a unit (production takes them first), nor do
        // pilot commands and auto-driver levels (they set direct control, never the order)
        // or weapon selections (combat's); tasks are answered above.
        Order::Stop
        | Order::Build(_)
        | Order::Batch(_)
        | Order::StopBuild
        | Order::Research(_)
        | Order::Pilot(_)
        | Order::Release
        | Order::SelectWeapon(_)
        | Order::AutoDriver(_)
        | Order::Refit
        | Order::SearchLodes
        | Order::Construct(_)
        | Order::Upgrade(_)
        | Order::Capture(_)
        | Order::Board(_)
        | Order::Leave
        | Order::Follow(_)
        | Order::StandGround
        | Order::Shutdown
        | Order::Search(_)
        | Order::Guard(_) => Ok(None),
        Order::MoveTo(p) => Ok(Some((p, true))),
        // An animal's walk point (the migrate step sets it as the goal).
        Order::Migrate => Ok(Some((nav.goal, true))),
        // A haul's loading or unloading place, once the haul step chose its route.
        Order::Haul(_) => Ok(trip.mine.is_some().then_some((nav.goal, true))),
        Order::MoveToObject(_) | Order::Attack(_) => {
            let Some(id) = target_object(nav) else { return Ok(None) };
            let t = geo.table.entity_of(id).and_then(|e| targets.get(e).ok());
            let t = t.ok_or((DiagnosticKind::NonReachableArea, format!("target object {id} is not in the world")))?;
            Ok(Some(([t.position[0], t.position[1]], true)))
        }
        Order::FollowPath(id) => {
            let (points, p) = path_point(id)?;
            Ok(Some((p, nav.leg + 1 == points.len())))
        }
        Order::Patrol(id) => {
            let (points, p) = path_point(id)?;
            let first = [points[0][0], points[0][1]];
            if points.iter().all(|q| [q[0], q[1]] == first) {
                return Err((DiagnosticKind::PathCycle, format!("patrol path {id} has no two distinct points")));
            }
            Ok(Some((p, false)))
        }
    }
}

/// The object the current leg goes to (an object order's).
fn target_object(nav: &Navigator) -> Option<u32> {
    match nav.order {
        Order::MoveToObject(id) | Order::Attack(id) => Some(id),
        _ => None,
    }
}

/// Whether the target is close enough to stop: for an `Attack` order within the share of
/// weapon range a unit closes in to ([`HOLD_RANGE`]), for a haul within `haul.reach` of
/// its place; `None` for other orders, an unarmed attacker, a haul with no route yet or
/// stepping aside, or haul rules in error.
fn in_reach(
    (nav, trip): (&Navigator, &HaulTrip),
    weapon: Option<&Weapon>,
    position: [f32; 2],
    geo: &Geography,
    targets: &Query<&SimTransform>,
) -> Option<bool> {
    let reach = match nav.order {
        Order::Attack(_) => weapon?.range * HOLD_RANGE,
        // Stepping aside from a full storage ends where the walk does.
        Order::Haul(_) if trip.waiting => return None,
        Order::Haul(_) => {
            let reach = geo.haulage.0.as_ref().ok()?.reach.value;
            return trip.mine.map(|_| dist(position, nav.goal) <= reach);
        }
        _ => return None,
    };
    let t = geo.table.entity_of(target_object(nav)?).and_then(|e| targets.get(e).ok())?;
    Some(dist(position, [t.position[0], t.position[1]]) <= reach)
}

/// The next leg after the current one ends, or `None` when the order is done.
fn next_leg(nav: &mut Navigator, geo: &Geography) -> bool {
    let len = |id: i32| geo.paths.as_ref().and_then(|p| p.get(id)).map_or(0, |p| p.points.len());
    match nav.order {
        Order::FollowPath(id) if nav.leg + 1 < len(id) => nav.leg += 1,
        Order::Patrol(id) => {
            let n = len(id);
            if nav.reverse && nav.leg == 0 || !nav.reverse && nav.leg + 1 >= n {
                nav.reverse = !nav.reverse;
            }
            nav.leg = if nav.reverse { nav.leg.saturating_sub(1) } else { (nav.leg + 1).min(n.saturating_sub(1)) };
        }
        _ => return false,
    }
    nav.replan = true;
    true
}

/// The share of its speed a unit walks its order at: a transport stepping aside from a
/// full storage and a guard of a place walk slower.
fn share(order: &Order, trip: &HaulTrip) -> f32 {
    match order {
        _ if trip.waiting => ASIDE_SHARE,
        Order::Guard(Guard { ward: Ward::Place { .. }, .. }) => crate::guard::PLACE_SPEED,
        _ => 1.0,
    }
}

/// Plans the legs that need it. The local path keeps `PathFind_NearDoorCoeff` times
/// the unit's margin inside each portal, starts with a step off the building the unit
/// stands on (`PathFind_fStepOffBuilding`) and has at least
/// `PathFind_MinPointInTrajectory` points.
pub(crate) fn plan_legs(
    geo: Geography,
    targets: Query<&SimTransform>,
    buildings: Buildings<'_, '_>,
    mut units: Query<(
        &OriginalObjectId,
        &ObjectHandle,
        &SimTransform,
        &mut Navigator,
        &mut NavStatus,
        &mut SteerIntent,
        Option<&CollisionProxy>,
        &HaulTrip,
    )>,
    mut out: MessageWriter<GameMessage>,
) {
    let mut outbox = Outbox::default();
    let c = *geo.config;
    let footprints = Footprints::of(&buildings);
    for (&id, &handle, t, mut nav, mut status, mut intent, proxy, trip) in &mut units {
        if !nav.replan {
            continue;
        }
        nav.replan = false;
        nav.clear_path();
        let start = [t.position[0], t.position[1]];
        let margin = (proxy.map_or(1.0, |p| p.radius) + c.building_hit_dist) * c.near_door_coeff;
        let planned = leg_goal(&nav, trip, &geo, &targets).and_then(|goal| {
            goal.map(|(goal, _)| {
                planner::plan(geo.nav.as_deref(), geo.ground.as_deref(), start, goal, margin).map(|p| (goal, p))
            })
            .transpose()
        });
        match planned {
            Ok(None) => {
                status.state = NavState::Idle;
                *intent = SteerIntent::default();
            }
            Ok(Some((goal, mut plan))) => {
                if let Some(f) = footprints.standing_on(start, c.building_hit_dist) {
                    plan.local.insert(0, f.step_off(start, c.step_off_building));
                }
                nav.goal = goal;
                nav.global_path = plan.global;
                nav.local_path = planner::at_least(plan.local, start, c.min_points);
                status.state = NavState::Moving;
                status.path_revision = status.path_revision.wrapping_add(1);
            }
            Err((kind, detail)) => {
                status.state = NavState::Blocked;
                *intent = SteerIntent::default();
                let areal = geo.nav.as_ref().and_then(|n| n.area_at(start[0], start[1]));
                outbox.post(
                    &geo.clock,
                    ObjectRef { id, handle },
                    GameMessageKind::Diagnostic { object: ObjectRef { id, handle }, areal, kind, detail },
                );
            }
        }
    }
    outbox.flush(&mut out);
}

/// Steers every moving unit along its local path at its live top speed (its data's and
/// its drive's, scaled by its `MaxSpeedPercent`, `PathFind_NearBuildSpeedPercent` of it near a building) and
/// notices arrival, blockage, a damaged global path and a moved target.
pub(crate) fn follow(
    geo: Geography,
    targets: Query<&SimTransform>,
    buildings: Buildings<'_, '_>,
    mut units: Query<(
        Entity,
        &OriginalObjectId,
        &ObjectHandle,
        &SimTransform,
        &mut Navigator,
        &mut NavStatus,
        &mut SteerIntent,
        (Option<&CollisionProxy>, Option<&Weapon>, Option<&ManualControl>, Option<&MotionLimits>, &HaulTrip),
        Option<&Drive>,
    )>,
    mut out: MessageWriter<GameMessage>,
    mut clear: MessageWriter<ClearWizardPath>,
) {
    let mut outbox = Outbox::default();
    let c = *geo.config;
    let footprints = Footprints::of(&buildings);
    for (entity, &id, &handle, t, mut nav, mut status, mut intent, (proxy, weapon, piloted, limits, trip), drive) in
        &mut units
    {
        // A unit the player moves is his: its orders wait until he lets go or hands it to the auto-driver.
        if ManualControl::moving(piloted) {
            intent.active = false;
            continue;
        }
        let position = [t.position[0], t.position[1]];
        status.areal = geo.nav.as_ref().and_then(|n| n.area_at(position[0], position[1]));
        let in_range = in_reach((&nav, trip), weapon, position, &geo, &targets);
        if status.state == NavState::Arrived && in_range == Some(false) {
            nav.replan = true;
        }
        if status.state == NavState::Moving && in_range == Some(true) {
            status.state = NavState::Arrived;
            intent.active = false;
            clear.write(ClearWizardPath(entity));
            outbox.arrived(&geo.clock, &nav, ObjectRef { id, handle });
            continue;
        }
        if status.state != NavState::Moving || nav.replan || !geo.clock.reached(nav.first_step_ms) {
            intent.active = false;
            continue;
        }
        let moved_target = target_object(&nav).is_some_and(|target| {
            geo.table
                .entity_of(target)
                .and_then(|e| targets.get(e).ok())
                .is_none_or(|t| dist(nav.goal, [t.position[0], t.position[1]]) > c.corridor_radius)
        });
        let off_path = status.areal.is_some_and(|a| !nav.global_path.contains(&a));
        if moved_target || off_path {
            nav.replan = true;
            intent.active = false;
            clear.write(ClearWizardPath(entity));
            continue;
        }
        let final_leg = leg_goal(&nav, trip, &geo, &targets).ok().flatten().is_some_and(|(_, last)| last);
        let radius = proxy.map_or(1.0, |p| p.radius);
        while let Some(&point) = nav.local_path.get(nav.next) {
            let last = nav.next + 1 == nav.local_path.len();
            let d = dist(position, point);
            if d < nav.best_dist - PROGRESS {
                (nav.best_dist, nav.stalled) = (d, 0);
            } else {
                nav.stalled += 1;
            }
            let reached = if last && final_leg { d <= c.arrive_dist } else { d <= c.step_dist };
            // A point the unit cannot get closer to is passed; the order's end only near it.
            let blocked = nav.stalled >= STALL_TICKS && (!(last && final_leg) || d <= c.crowd_arrive_radii * radius);
            if !(reached || blocked) {
                break;
            }
            nav.next += 1;
            (nav.best_dist, nav.stalled) = (f32::INFINITY, 0);
        }
        if nav.next < nav.local_path.len() {
            let last = nav.next + 1 == nav.local_path.len() && final_leg;
            let waypoint = nav.local_path[nav.next];
            let top = limits.copied().unwrap_or_default().live(drive).speed_or(c.cruise_speed);
            let near = footprints.within(position, c.building_nearest_dist);
            *intent = SteerIntent {
                active: true,
                from: nav.segment_start(position),
                waypoint,
                last,
                corridor_radius: c.corridor_radius,
                max_speed: c.near_building_speed(top, near) * share(&nav.order, trip),
            };
        } else if next_leg(&mut nav, &geo) {
            continue;
        } else if !(matches!(nav.order, Order::Haul(_)) || nav.order.is_task()) && nav.next_queued() {
            clear.write(ClearWizardPath(entity));
        } else {
            status.state = NavState::Arrived;
            intent.active = false;
            clear.write(ClearWizardPath(entity));
            outbox.arrived(&geo.clock, &nav, ObjectRef { id, handle });
            if let Some(next) = after_go(&nav.order, position) {
                nav.start(next);
            }
        }
    }
    outbox.flush(&mut out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_go_to_a_place_ended_within_30_leaves_a_patrol_of_150_about_it() {
        let spread = Order::Guard(Guard { ward: Ward::Place { at: [100.0, 50.0], z: None }, radius: 150.0 });
        assert_eq!(after_go(&Order::MoveTo([100.0, 50.0]), [121.0, 71.0]), Some(spread));
        assert_eq!(after_go(&Order::MoveTo([100.0, 50.0]), [130.5, 50.0]), None, "ended short of it");
        assert_eq!(after_go(&Order::MoveToObject(7), [0.0, 0.0]), None, "a go to an object");
        assert_eq!(after_go(&Order::Stop, [0.0, 0.0]), None);
    }
}
