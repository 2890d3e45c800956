//! Orders enter Behavior: units get their state when they join, the commands due this
//! tick are applied in their stable order, and a unit's first step is scheduled at
//! `queue_time + 3 × 64 ms + r` (`docs/reference/runtime.md` §3.6), `r` in 0..63 drawn from the
//! shared stream in clan order.

use crate::build::BuildTrip;
use crate::haul::{self, HaulTrip};
use crate::migrate::Migration;
use crate::navigator::Navigator;
use bevy_ecs::prelude::*;
use iron3d_core::{
    AutoDriver, ClearWizardPath, CommandQueue, Drive, GameClock, GameMessage, ManualControl, MotionLimits, Movable,
    NavState, NavStatus, ORDERABLE_SPEED, ObjectTable, Order, OriginalObjectId, Owner, ProductionEvent, SimObject,
    SimRandom, SteerIntent, TICK_MS, UnitClass,
};

/// Whether a unit may be ordered: its live forward top speed is at least
/// [`ORDERABLE_SPEED`] (openparkan `docs/24-motion.md`, read: a wreck
/// whose engines or running gear are shot away refuses every order and takes no task
/// of its own).
pub(crate) fn orderable(limits: Option<&MotionLimits>, drive: Option<&Drive>) -> bool {
    limits.is_none_or(|l| l.live(drive).orderable())
}

/// A unit that lost its leave to be ordered stops: its order and its queue are dropped
/// (the original empties the walker's queues).
pub(crate) fn ground(
    mut units: Query<(Entity, &mut Navigator, &MotionLimits, &Drive), Changed<Drive>>,
    mut clear: MessageWriter<ClearWizardPath>,
) {
    for (entity, mut nav, limits, drive) in &mut units {
        if !orderable(Some(limits), Some(drive)) && (nav.order != Order::Stop || !nav.queued.is_empty()) {
            nav.queued.clear();
            nav.start(Order::Stop);
            clear.write(ClearWizardPath(entity));
        }
    }
}

/// Units that joined the world get their Behavior state (animals their migration).
pub(crate) fn activate(
    mut commands: Commands,
    new: Query<(Entity, Option<&UnitClass>), (With<Movable>, With<SimObject>, Without<Navigator>)>,
) {
    for (entity, class) in &new {
        let mut unit = commands.entity(entity);
        unit.insert((Navigator::default(), HaulTrip::default(), NavStatus::default(), SteerIntent::default()));
        if class.is_some_and(|c| c.is_animal()) {
            unit.insert(Migration::default());
        }
        if class.is_some_and(|c| c.0 == UnitClass::BUILDER) {
            unit.insert(BuildTrip::default());
        }
    }
}

/// Applies the commands due this tick (stable order; a unit named twice keeps the last).
/// A unit that may not be ordered ([`orderable`]) refuses every order but the
/// player's piloting (a `rejected` event). A haul order naming anything but a mine of a
/// transport robot's clan is refused (a `rejected` event; the unit keeps its order). A queued command waits behind a unit's
/// current order; a pilot command gives the
/// player direct control and leaves the orders as they are; a release hands the unit
/// back to them.
pub(crate) fn apply_commands(
    mut commands: Commands,
    mut queue: ResMut<CommandQueue>,
    clock: Res<GameClock>,
    (table, classes): (Res<ObjectTable>, Query<(&Owner, Option<&UnitClass>, Option<&AutoDriver>)>),
    mut units: Query<(
        &OriginalObjectId,
        &Owner,
        &mut Navigator,
        &mut HaulTrip,
        &NavStatus,
        Option<&mut ManualControl>,
        (Option<&MotionLimits>, Option<&Drive>, Option<&mut BuildTrip>),
    )>,
    mut random: ResMut<SimRandom>,
    (mut clear, mut out): (MessageWriter<ClearWizardPath>, MessageWriter<GameMessage>),
) {
    let of = |id: u32| classes.get(table.entity_of(id)?).ok().map(|(o, c, _)| (o.clan, c.map(|c| c.0)));
    let mut scheduled: Vec<(i32, u32, Entity)> = Vec::new();
    // Build and research orders are production's (taken before Behavior runs), a weapon
    // selection combat's (taken after).
    for command in queue.take_due_where(clock.tick, Order::is_behaviors) {
        for &id in &command.units {
            let Some(entity) = table.entity_of(id) else { continue };
            let Ok((_, owner, mut nav, mut trip, status, manual, (limits, drive, build))) = units.get_mut(entity)
            else {
                continue;
            };
            // The level a take takes the unit at: its own, 0 on the hero (read).
            let (hero, level) = classes.get(entity).map_or((false, 0), |(_, class, auto)| {
                let hero = class.is_some_and(|c| c.is_hero());
                (hero, if hero { 0 } else { auto.map_or(0, |a| a.0) })
            });
            if let Order::AutoDriver(n) = command.order {
                if hero || manual.is_none() {
                    let why = if hero { "the hero ignores the auto-driver" } else { "the player does not drive it" };
                    out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], format!("auto_driver: {why}")));
                } else if let Some(mut m) = manual {
                    // Taken again at the new level: the AI's orders move it from 1 on.
                    m.level = n;
                    commands.entity(entity).insert(AutoDriver(n));
                    nav.replan = n > 0;
                }
                continue;
            }
            if !matches!(command.order, Order::Pilot(_) | Order::Release) && !orderable(limits, drive) {
                let detail =
                    format!("order: its live top speed is under {ORDERABLE_SPEED} (engines or running gear shot away)");
                out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], detail));
                continue;
            }
            let busy = nav.replan
                || status.state == NavState::Moving
                || matches!(nav.order, Order::Attack(_) | Order::Patrol(_) | Order::Haul(_))
                || nav.order.is_task();
            if let Order::Haul(mine) = command.order
                && let Err(e) = haul::refusal((id, owner.clan, of(id).and_then(|c| c.1)), mine, of(mine))
            {
                out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id, mine], e));
                continue;
            }
            if command.order == Order::SearchLodes
                && let Err(e) = crate::lodes::refusal(id, of(id).and_then(|c| c.1))
            {
                out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id], e));
                continue;
            }
            match command.order {
                Order::Pilot(input) => {
                    let tick = clock.tick;
                    // The turret lock's switch flips it; a take starts with it on (read).
                    match manual {
                        Some(mut m) => {
                            *m = ManualControl { input, tick, unlocked: m.unlocked != input.turret_lock, ..*m }
                        }
                        None => {
                            let unlocked = input.turret_lock;
                            commands.entity(entity).insert(ManualControl { input, tick, since: tick, level, unlocked });
                        }
                    }
                    continue;
                }
                Order::Release => {
                    if manual.is_some() {
                        commands.entity(entity).remove::<ManualControl>();
                        nav.replan = true;
                        nav.clear_path();
                    }
                    continue;
                }
                order if command.queued && busy => {
                    nav.queued.push(order);
                    continue;
                }
                order => {
                    nav.queued.clear();
                    nav.start(order);
                    *trip = HaulTrip::default();
                    if let Some(mut build) = build {
                        *build = BuildTrip::default();
                    }
                }
            }
            clear.write(ClearWizardPath(entity));
            if nav.first_step_ms == 0 {
                scheduled.push((owner.clan, id, entity));
            }
        }
    }
    scheduled.sort_unstable();
    scheduled.dedup_by_key(|(_, id, _)| *id);
    for (_, _, entity) in scheduled {
        if let Ok((_, _, mut nav, ..)) = units.get_mut(entity) {
            let r = random.shared.below(64);
            nav.first_step_ms = clock.time_ms.wrapping_add(3 * TICK_MS + r).max(1);
        }
    }
}
