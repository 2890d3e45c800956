//! Planner tests: request order, lookahead, back-pressure, keep ring, bounded memory.

use super::*;

fn id(row: u16, col: u16) -> SectionId {
    SectionId::new(row, col)
}

/// Every section of rows/cols `lo..=hi`.
fn grid(lo: u16, hi: u16) -> Vec<SectionId> {
    (lo..=hi).flat_map(|r| (lo..=hi).map(move |c| id(r, c))).collect()
}

fn cfg(radius: u32, lookahead: u32, keep_margin: u32) -> StreamingConfig {
    StreamingConfig {
        radius,
        lookahead,
        keep_margin,
        max_in_flight: 1000,
        max_ready: 1000,
        ..StreamingConfig::default()
    }
}

/// Centre of section (250, 250) is world (500, 500) (docs/reference/eu7.md §7.2).
const CENTRE: [f64; 2] = [500.0, 500.0];

#[test]
fn section_of_world_points() {
    assert_eq!(SectionId::containing(0.0, 0.0), Some(id(250, 250)));
    assert_eq!(SectionId::containing(-0.1, 999.9), Some(id(250, 249)));
    assert_eq!(SectionId::containing(0.0, -1e12), None);
    assert_eq!(id(250, 250).centre(), CENTRE);
    assert_eq!(id(249, 251).centre(), [1500.0, -500.0]);
}

#[test]
fn requests_nearest_first_then_by_id() {
    let mut p = Planner::new(cfg(1, 0, 0), grid(248, 252));
    let plan = p.update(CENTRE, [0.0, 0.0]);
    // Radius 1000 m: the centre (0 m), then the four edge neighbours (1000 m) in
    // (row, col) order; the corners (1414 m) are outside.
    assert_eq!(plan.request, vec![id(250, 250), id(249, 250), id(250, 249), id(250, 251), id(251, 250)]);
    assert!(plan.cancel.is_empty() && plan.unload.is_empty());
    // Nothing new while all of them are tracked.
    assert_eq!(p.update(CENTRE, [0.0, 0.0]), Plan::default());
}

#[test]
fn plan_does_not_depend_on_input_order() {
    let mut fwd = Planner::new(cfg(2, 2, 1), grid(245, 255));
    let mut rev_list = grid(245, 255);
    rev_list.reverse();
    rev_list.extend(grid(249, 251)); // duplicates are ignored
    let mut rev = Planner::new(cfg(2, 2, 1), rev_list);
    for step in 0..20 {
        let pos = [CENTRE[0] + 300.0 * f64::from(step), CENTRE[1] - 170.0 * f64::from(step)];
        assert_eq!(fwd.update(pos, [30.0, -17.0]), rev.update(pos, [30.0, -17.0]));
    }
}

#[test]
fn only_available_sections_are_requested() {
    let mut p = Planner::new(cfg(1, 0, 0), [id(250, 251), id(100, 100)]);
    assert_eq!(p.update(CENTRE, [0.0, 0.0]).request, vec![id(250, 251)]);
}

#[test]
fn lookahead_reaches_ahead_along_travel_only() {
    let moving = Planner::new(cfg(1, 3, 0), grid(240, 260)).update(CENTRE, [10.0, 0.0]).request;
    // Axis from x=500 to x=3500 (3 sections ahead), radius 1000 m.
    assert_eq!(moving.first(), Some(&id(250, 250)));
    assert!(moving.contains(&id(250, 254)), "section centred 1000 m past the lookahead end");
    assert!(moving.contains(&id(249, 253)) && moving.contains(&id(251, 253)));
    assert!(!moving.contains(&id(250, 255)));
    assert!(!moving.contains(&id(250, 248)), "nothing extra behind");
    assert_eq!(moving.last(), Some(&id(250, 254)), "farthest ahead comes last");
    // Travelling -Z reaches rows below instead.
    let south = Planner::new(cfg(1, 3, 0), grid(240, 260)).update(CENTRE, [0.0, -10.0]).request;
    assert!(south.contains(&id(246, 250)) && !south.contains(&id(250, 254)));
    // Below min_speed there is no lookahead.
    let slow = Planner::new(cfg(1, 3, 0), grid(240, 260)).update(CENTRE, [0.1, 0.0]).request;
    assert_eq!(slow.len(), 5);
}

#[test]
fn back_pressure_bounds_in_flight_and_ready() {
    let config = StreamingConfig { max_in_flight: 3, max_ready: 2, ..cfg(2, 0, 0) };
    let mut p = Planner::new(config, grid(240, 260));
    let first = p.update(CENTRE, [0.0, 0.0]).request;
    assert_eq!(first, vec![id(250, 250), id(249, 250), id(250, 249)]);
    assert!(p.update(CENTRE, [0.0, 0.0]).request.is_empty(), "in-flight queue is full");
    assert_eq!(p.finished(id(250, 250)), Harvest::Accepted);
    assert_eq!(p.finished(id(249, 250)), Harvest::Accepted);
    assert_eq!(p.finished(id(250, 249)), Harvest::QueueFull);
    assert_eq!(p.state(id(250, 249)), Some(SectionState::InFlight));
    assert_eq!(p.count(SectionState::Ready), 2);
    // Two slots freed in flight: exactly two more requests.
    assert_eq!(p.update(CENTRE, [0.0, 0.0]).request, vec![id(250, 251), id(251, 250)]);
    assert_eq!(p.pop_ready(), Some(id(250, 250)));
    assert_eq!(p.state(id(250, 250)), Some(SectionState::Resident));
    assert_eq!(p.finished(id(250, 249)), Harvest::Accepted);
    assert_eq!(p.finished(id(250, 250)), Harvest::Unknown, "resident, not in flight");
}

#[test]
fn keep_ring_unloads_and_cancels_outside_only() {
    let mut p = Planner::new(cfg(1, 0, 1), grid(240, 260));
    p.update(CENTRE, [0.0, 0.0]);
    assert_eq!(p.finished(id(250, 250)), Harvest::Accepted);
    assert_eq!(p.pop_ready(), Some(id(250, 250)));
    assert_eq!(p.finished(id(249, 250)), Harvest::Accepted);
    // 2000 m away = exactly the keep reach (radius 1 + margin 1): the resident centre
    // stays; the ready and in-flight sections farther away are cancelled, nearest first,
    // then by id.
    let plan = p.update([CENTRE[0] + 2000.0, CENTRE[1]], [0.0, 0.0]);
    assert!(plan.unload.is_empty());
    assert_eq!(plan.cancel, vec![id(249, 250), id(251, 250), id(250, 249)]);
    assert_eq!(p.state(id(250, 250)), Some(SectionState::Resident));
    assert_eq!(p.count(SectionState::Ready), 0);
    assert_eq!(p.finished(id(250, 249)), Harvest::Unknown);
    // One more metre: the centre is unloaded; (250, 251), 1001 m away, stays in flight.
    let plan = p.update([CENTRE[0] + 2001.0, CENTRE[1]], [0.0, 0.0]);
    assert_eq!(plan.unload, vec![id(250, 250)]);
    assert!(plan.cancel.is_empty());
    assert_eq!(p.state(id(250, 250)), None);
    assert_eq!(p.state(id(250, 251)), Some(SectionState::InFlight));
}

#[test]
fn failed_sections_are_not_requested_again() {
    let mut p = Planner::new(cfg(0, 0, 0), grid(249, 251));
    assert_eq!(p.update(CENTRE, [0.0, 0.0]).request, vec![id(250, 250)]);
    p.failed_decode(id(250, 250));
    assert!(p.update(CENTRE, [0.0, 0.0]).request.is_empty());
    assert!(p.failed().contains(&id(250, 250)));
}

#[test]
fn hovering_loads_every_wanted_section() {
    let config = StreamingConfig { max_in_flight: 4, max_ready: 2, ..cfg(3, 0, 1) };
    let mut p = Planner::new(config, grid(200, 300));
    // Decodes finish the frame after their request; keep hovering until the queues drain.
    let mut pending: Vec<SectionId> = Vec::new();
    let mut peak = 0;
    for _ in 0..200 {
        pending.retain(|&s| p.finished(s) == Harvest::QueueFull);
        p.pop_ready();
        let request = p.update(CENTRE, [0.0, 0.0]).request;
        assert!(request.len() <= 4);
        pending.extend(request);
        peak = peak.max(p.count(SectionState::InFlight));
    }
    assert_eq!(peak, 4);
    // Lattice points within radius 3: 29.
    assert_eq!(p.count(SectionState::Resident), 29);
    assert_eq!(p.count(SectionState::InFlight) + p.count(SectionState::Ready), 0);
}

#[test]
fn straight_100_km_flight_keeps_memory_bounded() {
    let config = StreamingConfig::compact();
    let fly = || {
        let mut p = Planner::new(config, grid(190, 310));
        // 100 km along X at 200 m/s, 30 frames per second, decodes take 5 frames.
        simulate_flight(&mut p, [-50_000.0, 300.0], [50_000.0, 300.0], 200.0, 1.0 / 30.0, 5, |s| {
            1000 + u64::from(s.col)
        })
    };
    let r = fly();
    assert_eq!(r, fly(), "deterministic");
    assert_eq!(r.frames, 15_001);
    assert!(r.peak_in_flight <= 8 && r.peak_ready <= 4, "{r:?}");
    assert!(r.peak_tracked <= r.tracked_bound, "{r:?}");
    assert!(r.peak_resident_bytes <= r.tracked_bound as u64 * 1400, "{r:?}");
    // The corridor is 9 sections wide over 100 sections: hundreds were streamed through.
    assert!(r.applied > 500, "{r:?}");
    assert!(r.unloaded > r.applied - r.peak_resident as u64 - 1, "{r:?}");
    assert!(r.peak_resident < 150, "{r:?}");
}
