//! The player's side of the command path: waypoints queued behind an order, and
//! direct control (piloting) through the same Control step, handing the unit back.

use super::*;

fn queue(app: &mut App, units: Vec<u32>, order: Order) {
    let tick = app.world().resource::<GameClock>().tick + 1;
    app.world_mut().resource_mut::<CommandQueue>().push(SimCommand { tick, units, order, queued: true });
}

#[test]
fn queued_waypoints_are_visited_in_turn() {
    let mut app = world_app(flat, |_, _| false);
    let u = spawn_unit(app.world_mut(), 0, 1, [15.0, 15.0], 0.0, 1.5);
    run(&mut app, 1);
    order(&mut app, vec![0], Order::MoveTo([60.0, 15.0]));
    queue(&mut app, vec![0], Order::MoveTo([60.0, 80.0]));
    let (mut near_first, mut at_end) = (None, None);
    for tick in 0..600 {
        app.update();
        let p = pos(&app, u);
        if near_first.is_none() && dist2(p, [60.0, 15.0]) < 3.0 {
            near_first = Some(tick);
        }
        if dist2(p, [60.0, 80.0]) < 3.0 && state(&app, u) == NavState::Arrived {
            at_end = Some(tick);
            break;
        }
    }
    let (first, end) = (near_first.expect("passed the first point"), at_end.expect("reached the waypoint"));
    assert!(first < end, "the first point before the waypoint: {first} < {end}");
    // Without queueing, a second order replaces the first: the unit goes straight on.
    let mut direct = world_app(flat, |_, _| false);
    let v = spawn_unit(direct.world_mut(), 0, 1, [15.0, 15.0], 0.0, 1.5);
    run(&mut direct, 1);
    order(&mut direct, vec![0], Order::MoveTo([60.0, 15.0]));
    let tick = direct.world().resource::<GameClock>().tick + 1;
    direct.world_mut().resource_mut::<CommandQueue>().push(SimCommand {
        tick,
        units: vec![0],
        order: Order::MoveTo([60.0, 80.0]),
        queued: false,
    });
    for _ in 0..600 {
        direct.update();
        assert!(dist2(pos(&direct, v), [60.0, 15.0]) > 3.0, "a replaced order is not visited");
    }
}

#[test]
fn a_piloted_unit_drives_by_the_player_and_returns_to_its_orders() {
    let mut app = world_app(flat, |_, _| false);
    let u = spawn_unit(app.world_mut(), 0, 1, [30.0, 60.0], 0.0, 1.5);
    run(&mut app, 1);
    order(&mut app, vec![0], Order::MoveTo([30.0, 20.0]));
    run(&mut app, 2);
    order(&mut app, vec![0], Order::Pilot(PilotInput { throttle: 127, ..PilotInput::default() }));
    let start = pos(&app, u);
    run(&mut app, 60);
    let driven = pos(&app, u);
    // Heading 0 is game +X: full throttle drives east, not south to the ordered point.
    assert!(driven[0] - start[0] > 20.0, "drove ahead: {start:?} -> {driven:?}");
    assert!((driven[1] - start[1]).abs() < 2.0, "kept its line: {driven:?}");
    let nav = app.world().get::<iron3d_behavior::Navigator>(u).unwrap();
    assert_eq!(nav.order, Order::MoveTo([30.0, 20.0]), "its order waits");
    order(&mut app, vec![0], Order::Pilot(PilotInput { turn: 127, ..PilotInput::default() }));
    let heading = app.world().get::<SimTransform>(u).unwrap().heading();
    run(&mut app, 10);
    let turned = app.world().get::<SimTransform>(u).unwrap().heading();
    assert!(iron3d_core::plane::wrap_angle(turned - heading) > 0.5, "turned left: {heading} -> {turned}");
    // The strafe: sideways to its left at half its top speed (the project's 14 here), at
    // once, its heading kept (it stands first).
    order(&mut app, vec![0], Order::Pilot(PilotInput::default()));
    run(&mut app, 40);
    order(&mut app, vec![0], Order::Pilot(PilotInput { strafe: 127, ..PilotInput::default() }));
    run(&mut app, 1);
    let (from, h) = (pos(&app, u), app.world().get::<SimTransform>(u).unwrap().heading());
    run(&mut app, 10);
    let to = pos(&app, u);
    let side = 7.0 * 10.0 * iron3d_core::TICK_SECONDS;
    let expected = [from[0] - libm::sinf(h) * side, from[1] + libm::cosf(h) * side];
    assert!(dist2(to, expected) < 0.01, "strafed left: {from:?} -> {to:?}, expected {expected:?}");
    assert_eq!(app.world().get::<SimTransform>(u).unwrap().heading(), h, "its heading kept");
    order(&mut app, vec![0], Order::Release);
    run(&mut app, 2);
    assert!(app.world().get::<ManualControl>(u).is_none(), "released");
    let mut arrived = false;
    for _ in 0..800 {
        app.update();
        if state(&app, u) == NavState::Arrived && dist2(pos(&app, u), [30.0, 20.0]) < 3.0 {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "back on its order, it reaches the point: {:?}", pos(&app, u));
}
