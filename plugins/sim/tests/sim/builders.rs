//! Builders' construct and upgrade orders on the demo (openparkan `docs/32-builder.md`):
//! the placement's test, the raised building's 41 s sphere, the debt, the ore fetch, and
//! an upgrade along the scheme's ladder.

use super::*;
use iron3d_behavior::{BuildTrip, Navigator};
use iron3d_economy::OreProperty;
use iron3d_production::sites::Sphere;

const PLAYER: i32 = 1;
const MINE: u8 = 4;
const STORAGE: u8 = 5;

/// tutorial.01 with the computer clan quiet, one tick on.
fn tutorial() -> App {
    let mut app = quiet_tutorial();
    run(&mut app, 1);
    app
}

/// The Player's builder: id and entity.
fn builder(app: &mut App) -> (u32, Entity) {
    let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &UnitClass, Entity)>();
    q.iter(app.world())
        .find(|(_, o, c, _)| o.clan == PLAYER && c.0 == UnitClass::BUILDER)
        .map(|(id, _, _, e)| (id.0, e))
        .expect("the demo places a builder for the player")
}

/// The found lode nearest to `e`.
fn lode_near(app: &App, e: Entity) -> [f32; 2] {
    let p = pos(app, e);
    let lodes = &app.world().resource::<MineralLodes>().0;
    let found = lodes.iter().filter(|l| l.found);
    found.min_by(|a, b| dist2(p, a.position).total_cmp(&dist2(p, b.position))).unwrap().position
}

fn ore(app: &App, e: Entity) -> f32 {
    app.world().get::<OreProperty>(e).unwrap().current()
}

fn entity(app: &App, id: u32) -> Option<Entity> {
    app.world().resource::<ObjectTable>().entity_of(id)
}

fn construct(app: &mut App, unit: u32, scheme: u8, at: [f32; 2]) {
    order(app, vec![unit], Order::Construct(Site::new(scheme, at, 0.5).unwrap()));
}

/// Runs until an event of `kind` (at most `ticks`); the events.
fn until(app: &mut App, kind: EventKind, ticks: u32) -> Vec<(u32, Vec<u32>, String)> {
    for _ in 0..ticks {
        app.update();
        if !events(app, kind).is_empty() {
            break;
        }
    }
    events(app, kind)
}

/// The clan's price of a category's first building (from its research tree).
fn price(app: &App, scheme: u8) -> f32 {
    match app.world().resource::<BuildingPrices>().0.get(&(PLAYER, scheme)) {
        Some(BuildingPrice::Ore { ore, .. }) => *ore,
        other => panic!("no price: {other:?}"),
    }
}

/// Runs until a building is raised (at most 600 ticks): its id and entity.
fn raised(app: &mut App) -> (u32, Entity) {
    for _ in 0..600 {
        app.update();
        let next = app.world().resource::<iron3d_production::Production>().next_id;
        if let Some(m) = entity(app, next - 1).filter(|m| app.world().get::<Sphere>(*m).is_some()) {
            return (next - 1, m);
        }
    }
    panic!("no building raised");
}

/// Raises a mine on the builder's lode: (builder, its entity, the mine's id).
fn raise_mine(app: &mut App) -> (u32, Entity, u32) {
    let (id, e) = builder(app);
    let lode = lode_near(app, e);
    construct(app, id, MINE, lode);
    (id, e, raised(app).0)
}

#[test]
fn a_builder_raises_a_mine_on_a_found_lode_in_41_seconds_into_debt_and_the_mine_digs() {
    let mut app = tutorial();
    let (id, e) = builder(&mut app);
    let (held, cost) = (ore(&app, e), price(&app, MINE));
    assert_eq!(held, 200.0, "the demo's builder holds 200, as the original's may");
    assert_eq!(cost, 540.0, "a small mine's parts cost 540 in the tree");
    let lode = lode_near(&app, e);
    construct(&mut app, id, MINE, lode);
    let (mine, m) = raised(&mut app);
    let sphere = *app.world().get::<Sphere>(m).unwrap();
    assert_eq!((sphere.parameter, sphere.builder), (0, id));
    assert_eq!(ore(&app, e), held - cost, "a mine is never fetched for: the builder goes into debt");
    assert_eq!(app.world().get::<Rung>(m), Some(&Rung { level: 0, of: 2 }), "the first of the Mine's ladder");
    let at = pos(&app, m);
    assert!(dist2(at, lode) < 0.1 && app.world().get::<SimTransform>(m).unwrap().orientation[2] == 0.5);
    assert_eq!(app.world().get::<Navigator>(e).unwrap().order, Order::Stop, "the builder's task ends there");
    // The sphere: no digging while it runs.
    run(&mut app, 300);
    assert!(app.world().entity(m).contains::<UnderConstruction>());
    assert_eq!(ore(&app, m), 0.0, "a mine under its sphere digs nothing");
    let done = until(&mut app, EventKind::Constructed, 400);
    assert_eq!(done.iter().map(|d| d.1.clone()).collect::<Vec<_>>(), [vec![id, mine]]);
    let elapsed = app.world().resource::<GameClock>().time_ms - sphere.start_ms;
    assert!((41_000..41_000 + TICK_MS).contains(&elapsed), "41 s: {elapsed} ms");
    assert!(!app.world().entity(m).contains::<UnderConstruction>());
    assert!(!app.world().entity(m).contains::<DomeObstacle>(), "the obstacle goes with the sphere");
    run(&mut app, 50);
    assert!(ore(&app, m) > 0.0, "the finished mine digs its lode");
}

#[test]
fn the_sphere_orders_the_units_round_it_out_and_kills_what_stands_in_its_dome() {
    let mut app = tutorial();
    let (id, e, mine) = raise_mine(&mut app);
    let m = entity(&app, mine).unwrap();
    let sphere = *app.world().get::<Sphere>(m).unwrap();
    let centre = pos(&app, m);
    assert!(dist2(pos(&app, e), [centre[0], centre[1]]) < sphere.radius, "the builder stands in its site");
    // 5 s on, the clearing: the builder is sent 20 past the sphere.
    let phase = |app: &App| app.world().get::<Sphere>(m).map(|s| s.phase);
    while phase(&app) == Some(0) {
        app.update();
    }
    run(&mut app, 1);
    let Order::MoveTo(to) = app.world().get::<Navigator>(e).unwrap().order else { panic!("the builder is sent out") };
    assert!((dist2(centre, to) - (sphere.radius + 20.0)).abs() < 1e-3, "20 past the sphere: {to:?}");
    assert!(!app.world().entity(m).contains::<DomeObstacle>(), "no obstacle through the first clearing");
    while phase(&app) != Some(2) {
        app.update();
    }
    let dome = app.world().get::<DomeObstacle>(m).copied();
    assert_eq!(dome, Some(DomeObstacle::round(sphere.radius)), "the last clearing raises the obstacle");
    // A scout that stands in the sphere as the dome comes is killed by it.
    while phase(&app) != Some(3) {
        app.update();
    }
    let mut q = app.world_mut().query::<(&OriginalObjectId, &UnitClass, &Owner, Entity)>();
    let (scout, s) = q
        .iter(app.world())
        .find(|(_, c, o, _)| c.0 == 0x0100_8000 && o.clan == PLAYER)
        .map(|(i, .., e)| (i.0, e))
        .unwrap();
    app.world_mut().get_mut::<SimTransform>(s).unwrap().position = [centre[0] + 3.0, centre[1], centre[2]];
    until(&mut app, EventKind::Destroyed, 200);
    let killed = events(&app, EventKind::Destroyed);
    assert!(killed.iter().any(|k| k.1 == [scout, mine]), "the dome kills it: {killed:?}");
    assert!(entity(&app, id).is_some(), "the builder, sent out, lives");
    let at = app.world().get::<Sphere>(m).map(|s| (s.phase, s.code()));
    assert_eq!(at, Some((3, Some(2))), "killed in the dome's phase");
}

#[test]
fn an_upgrade_replaces_the_building_by_the_next_of_its_ladder_and_carries_its_ore() {
    let mut app = tutorial();
    let (id, e, old) = raise_mine(&mut app);
    until(&mut app, EventKind::Constructed, 800);
    run(&mut app, 40);
    let held = ore(&app, entity(&app, old).unwrap());
    assert!(held > 0.0);
    let builder_ore = ore(&app, e);
    order(&mut app, vec![id], Order::Upgrade(old));
    let mut started = None;
    for _ in 0..400 {
        app.update();
        if let Some(s) = entity(&app, old).and_then(|m| app.world().get::<Sphere>(m)) {
            started = Some(*s);
            break;
        }
    }
    let started = started.expect("the builder starts the upgrade beside the building");
    assert_eq!((started.parameter, started.builder), (1, id));
    run(&mut app, 1);
    assert!(app.world().entity(e).contains::<Invulnerable>(), "the builder is invulnerable while it waits");
    // A unit patrolling into the dome may go first: wait for the building's own.
    let gone = |app: &App| events(app, EventKind::Deleted).iter().any(|d| d.1 == [old]);
    for _ in 0..800 {
        if gone(&app) {
            break;
        }
        app.update();
    }
    let replaced = events(&app, EventKind::Deleted);
    let elapsed = app.world().resource::<GameClock>().time_ms - started.start_ms;
    assert!(replaced.iter().any(|d| d.1 == [old]), "the old building goes: {replaced:?}");
    assert!((50_000..50_000 + TICK_MS).contains(&elapsed), "replaced at 50 s: {elapsed} ms");
    run(&mut app, 1);
    let new = app.world().resource::<iron3d_production::Production>().next_id - 1;
    let n = entity(&app, new).unwrap();
    let record = app.world().get::<iron3d_mission::PlacedRecord>(n).unwrap();
    assert!(record.resource_name.ends_with("b_mine_02.dat"), "{}", record.resource_name);
    assert_eq!(app.world().get::<Rung>(n), Some(&Rung { level: 1, of: 2 }));
    assert!(ore(&app, n) >= held, "the old building's ore is carried over");
    let done = until(&mut app, EventKind::Upgraded, 100);
    assert_eq!(done.len(), 1);
    assert_eq!((done[0].1.clone(), done[0].2.starts_with(&format!("from={old} "))), (vec![id, new], true));
    assert_eq!(ore(&app, e), builder_ore, "an upgrade charges no ore");
    run(&mut app, 2);
    assert!(!app.world().entity(e).contains::<Invulnerable>(), "and no longer once it is done");
    // The top of the ladder refuses another.
    run(&mut app, 5);
    order(&mut app, vec![id], Order::Upgrade(new));
    run(&mut app, 2);
    let refused = events(&app, EventKind::Rejected);
    assert!(refused.iter().any(|r| r.2.contains(&format!("fully upgraded building {new}"))), "{refused:?}");
}

#[test]
fn a_builder_short_of_ore_fetches_the_cost_from_its_clans_nearest_holder() {
    let mut app = tutorial();
    let (id, e) = builder(&mut app);
    app.world_mut().get_mut::<OreProperty>(e).unwrap().set(50.0);
    // A storage on the builder's own flat ground, off the lode.
    let lode = lode_near(&app, e);
    let p = pos(&app, e);
    let site = [2.0 * p[0] - lode[0], 2.0 * p[1] - lode[1]];
    construct(&mut app, id, STORAGE, site);
    run(&mut app, 2);
    let holder = app.world().get::<BuildTrip>(e).unwrap().holder.expect("it sets off for a holder");
    let h = entity(&app, holder).unwrap();
    assert!(matches!(app.world().get::<UnitClass>(h).unwrap().0, UnitClass::MINE | UnitClass::STORAGE));
    let cost = price(&app, STORAGE);
    let mut loaded = false;
    for _ in 0..4000 {
        app.update();
        loaded |= ore(&app, e) >= cost;
        if app.world().get::<Navigator>(e).unwrap().order == Order::Stop {
            break;
        }
    }
    assert!(loaded, "it loads until it holds the building's cost");
    assert_eq!(ore(&app, e), 0.0, "and pays it where it builds");
    let rejected = events(&app, EventKind::Rejected);
    assert!(rejected.iter().all(|r| r.1 != [id]), "{rejected:?}");
}

#[test]
fn the_placement_test_refuses_by_the_rule_that_fails_and_the_builder_keeps_its_order() {
    let mut app = tutorial();
    let (id, e) = builder(&mut app);
    let lode = lode_near(&app, e);
    // The steepest ground the builder can reach, on a coarse grid of the map.
    let (ground, nav) =
        (app.world().resource::<iron3d_terrain::Ground>(), app.world().resource::<iron3d_terrain::NavMap>());
    let from = nav.area_at(pos(&app, e)[0], pos(&app, e)[1]).unwrap();
    let mut steepest = ([0.0, 0.0], 1.0);
    for i in 1..40 {
        for j in 1..40 {
            let p = [i as f32 * 43.0, j as f32 * 43.0];
            let reachable = nav.area_at(p[0], p[1]).and_then(|a| nav.route(from, a)).is_some_and(|r| !r.is_empty());
            if let Some((_, n)) = ground.surface_at(p[0], p[1]).filter(|(_, n)| reachable && n[2] < steepest.1) {
                steepest = (p, n[2]);
            }
        }
    }
    let mine_building = {
        let mut q = app.world_mut().query::<(&UnitClass, &Owner, &SimTransform)>();
        let m = q.iter(app.world()).find(|(c, o, _)| c.0 == UnitClass::MINE && o.clan == PLAYER).unwrap();
        [m.2.position[0], m.2.position[1]]
    };
    let cases = [
        (STORAGE, steepest.0, "Ugly Basement"),
        (STORAGE, mine_building, "Intersects with building"),
        (STORAGE, [1.0, 1.0], "Intersects with Boundary"),
        (MINE, [lode[0] - 60.0, lode[1]], "a mine needs a found lode"),
    ];
    for (scheme, at, rule) in cases {
        construct(&mut app, id, scheme, at);
        run(&mut app, 1);
        let last = events(&app, EventKind::Rejected).pop().unwrap_or_default();
        assert!(last.1 == [id] && last.2.contains(rule), "{rule} at {at:?}: {last:?}");
        assert_eq!(app.world().get::<Navigator>(e).unwrap().order, Order::Stop, "the order is dropped");
    }
    let mut q = app.world_mut().query::<(&OriginalObjectId, &UnitClass, &Owner)>();
    let scout = q.iter(app.world()).find(|(_, c, o)| c.0 == 0x0100_8000 && o.clan == PLAYER).unwrap().0.0;
    construct(&mut app, scout, MINE, lode);
    run(&mut app, 1);
    let last = events(&app, EventKind::Rejected).pop().unwrap();
    assert_eq!(last.2, format!("construct: object {scout} is not a builder"));
}

#[test]
fn a_builder_whose_walk_fails_drops_its_order_naming_it() {
    let mut app = tutorial();
    let (id, e) = builder(&mut app);
    let lode = lode_near(&app, e);
    construct(&mut app, id, MINE, lode);
    for _ in 0..10 {
        app.update();
        if app.world().get::<Navigator>(e).unwrap().leg > 0 && state(&app, e) == NavState::Moving {
            break;
        }
    }
    assert_eq!(state(&app, e), NavState::Moving, "on its way to the site");
    app.world_mut().get_mut::<NavStatus>(e).unwrap().state = NavState::Blocked;
    let rejected = until(&mut app, EventKind::Rejected, 5);
    assert_eq!(
        rejected.iter().map(|r| (r.1.clone(), r.2.as_str())).collect::<Vec<_>>(),
        [(vec![id], "construct: its walk failed")]
    );
    assert_eq!(app.world().get::<Navigator>(e).unwrap().order, Order::Stop, "the order ends");
}
