//! Following a leader (the original's *Follow me*, `ORDER_ROBOT_FOLLOW`, openparkan
//! `docs/31-packages.md`, read): the follower keeps within 20 of its leader (the radius
//! the original takes for every parameter but one strictly between 20 and 30, the
//! menu's 50 among them). While it stands, it picks a new spot whenever the leader is
//! more than 40 away across the ground or 30 above or below: up to 77 random walkable
//! spots in the square ±20 about the leader, the first taken; it walks there at full
//! speed and stays when the leader stops. The order fails (`rejected`) once the leader
//! is gone or of another clan. The original also measures on a timer while it walks,
//! whose period was not read: here every 2 s (the project's).

use crate::haul;
use crate::navigator::Walker;
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    GameClock, GameMessage, ManualControl, Movable, NavState, ObjectTable, Order, Owner, ProductionEvent, SimRandom,
    SimTransform,
};
use iron3d_terrain::NavMap;

/// The follower's radius (read).
pub const FOLLOW_RADIUS: f32 = 20.0;

/// Spots tried about the leader (read).
const SPOT_TRIES: u32 = 77;

/// Ticks between a walking follower's measures (2 s; the project's).
const CHECK_TICKS: u32 = 32;

type Follower<'a> = Walker<'a, Option<&'a ManualControl>>;

/// Runs every follow one tick, in id order.
pub(crate) fn follow(
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    nav_map: Option<Res<NavMap>>,
    mut random: ResMut<SimRandom>,
    leaders: Query<(&Owner, &SimTransform), With<Movable>>,
    mut units: Query<Follower, With<Movable>>,
    mut out: MessageWriter<GameMessage>,
) {
    let mut order: Vec<(u32, Entity)> = units
        .iter()
        .filter(|u| matches!(u.4.order, Order::Follow(_)) && !ManualControl::moving(u.6))
        .map(|u| (u.1.0, u.0))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    for (id, entity) in order {
        let Ok((_, _, owner, t, mut nav, status, _)) = units.get_mut(entity) else { continue };
        let Order::Follow(leader) = nav.order else { continue };
        let found = table.entity_of(leader).and_then(|e| leaders.get(e).ok());
        let Some((_, at)) = found.filter(|(o, _)| o.clan == owner.clan && leader != id) else {
            let detail = format!("follow: leader {leader} is gone or not of clan {}", owner.clan);
            out.write(haul::report(&clock, ProductionEvent::Rejected, vec![id, leader], detail));
            nav.finish();
            continue;
        };
        let there = at.position;
        let far = dist([t.position[0], t.position[1]], [there[0], there[1]]) > FOLLOW_RADIUS + 20.0
            || (t.position[2] - there[2]).abs() > FOLLOW_RADIUS + 10.0;
        let measures = status.state != NavState::Moving || clock.tick.is_multiple_of(CHECK_TICKS);
        if !(nav.leg == 0 || far && measures) {
            continue;
        }
        let stream = random.stream("behavior.follow");
        let mut draw = || (stream.fraction() * 2.0 - 1.0) * FOLLOW_RADIUS;
        let spot = (0..SPOT_TRIES).find_map(|_| {
            let p = [there[0] + draw(), there[1] + draw()];
            nav_map.as_ref().is_some_and(|n| n.walkable(p[0], p[1])).then_some(p)
        });
        if let Some(p) = spot {
            nav.head_for(p);
        }
    }
}
