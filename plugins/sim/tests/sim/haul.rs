//! Haul orders (the original's `M_Task_Transport`, openparkan `docs/32-builder.md`,
//! read): a transport chooses its own route, the nearest mine of its clan with a loading
//! place and the nearest storage with an unloading place, whatever its order names,
//! carries within its capacity exactly, waits at a full storage until it has more than
//! 0.5 free, and ends with no route; bad orders are refused with a `rejected` event; the
//! same orders give the same hashes.

use super::*;
use iron3d_behavior::haul::{Haulage, check};
use iron3d_core::{Place, Places, place};
use iron3d_economy::OreProperty;

const TRANSPORT: u32 = 1;
const MINE: u32 = 2;
const STORE: u32 = 3;
const FAR_STORE: u32 = 4;
const ENEMY_MINE: u32 = 5;
const SCOUT: u32 = 6;
const BARE_MINE: u32 = 7;
const PLANT: u32 = 8;

/// A building of `class` holding `ore`, 3 units each way from its middle, with a
/// ground-level place of `flags` 6 units out from its +x side (none for 0).
fn holder(app: &mut App, id: u32, clan: i32, at: [f32; 2], (class, flags): (u32, u32), ore: f32) -> Entity {
    let e = spawn_building(app.world_mut(), id, at, [3.0, 3.0]);
    let maximum = iron3d_economy::class_defaults(class).1;
    let places =
        (flags != 0).then(|| Places(vec![Place { flags: place::GROUND | flags, at: [9.0, 0.0, 0.0], joint: 0 }]));
    app.world_mut().entity_mut(e).insert((
        UnitClass(class),
        Owner { clan, player: None },
        OreProperty { current_bits: ore.to_bits(), maximum },
        places.unwrap_or_default(),
    ));
    e
}

const A_MINE: (u32, u32) = (UnitClass::MINE, place::MINE_LOADING);
const A_STORE: (u32, u32) = (UnitClass::STORAGE, place::STORAGE_UNLOADING);

/// A flat map: clan 1's mine with 300 ore at (20, 20) (its loading place at (29, 20)),
/// its storage at (80, 20) (unloading at (89, 20)) and a farther one, a nearer mine of
/// 300 without a loading place and a factory with room for ore and no unloading place
/// between them, clan 2's mine, a transport and a scout of clan 1; no mining; 4 ore a
/// tick loaded, 8 unloaded, 200 a trip.
fn mine_and_store() -> (App, [Entity; 3]) {
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().insert_resource(iron3d_economy::MiningRate(0.0));
    if let Haulage(Ok(h)) = &mut *app.world_mut().resource_mut::<Haulage>() {
        (h.load_per_second.value, h.unload_per_second.value, h.capacity.value) = (62.5, 125.0, 200.0);
    }
    let mine = holder(&mut app, MINE, 1, [20.0, 20.0], A_MINE, 300.0);
    let store = holder(&mut app, STORE, 1, [80.0, 20.0], A_STORE, 0.0);
    holder(&mut app, FAR_STORE, 1, [100.0, 100.0], A_STORE, 0.0);
    holder(&mut app, ENEMY_MINE, 2, [20.0, 100.0], A_MINE, 300.0);
    holder(&mut app, BARE_MINE, 1, [45.0, 45.0], (UnitClass::MINE, 0), 300.0);
    let plant = holder(&mut app, PLANT, 1, [60.0, 40.0], (0x8000_0010, 0), 0.0);
    app.world_mut().get_mut::<OreProperty>(plant).unwrap().maximum = 1000.0;
    let transport = spawn_unit(app.world_mut(), TRANSPORT, 1, [50.0, 30.0], 0.0, 1.5);
    app.world_mut().entity_mut(transport).insert(UnitClass(UnitClass::TRANSPORT));
    let scout = spawn_unit(app.world_mut(), SCOUT, 1, [50.0, 40.0], 0.0, 1.5);
    app.world_mut().entity_mut(scout).insert(UnitClass(0x0100_8000));
    (app, [transport, mine, store])
}

fn ore(app: &App, e: Entity) -> f32 {
    app.world().get::<OreProperty>(e).unwrap().current()
}

#[test]
fn a_transport_hauls_from_the_nearest_mine_with_a_loading_place_to_the_nearest_storage_within_its_capacity() {
    let (mut app, [transport, mine, store]) = mine_and_store();
    assert_eq!(4.0f32, 62.5 * TICK_SECONDS, "the test's rates are exact in f32");
    order(&mut app, vec![TRANSPORT], Order::Haul(BARE_MINE));
    let mut most = 0.0f32;
    for _ in 0..1500 {
        app.update();
        most = most.max(ore(&app, transport));
        let total = ore(&app, transport) + ore(&app, mine) + ore(&app, store);
        assert_eq!(total, 300.0, "ore is moved, never made or lost");
    }
    assert_eq!(most, 200.0, "a trip carries its capacity, never more");
    assert_eq!((ore(&app, mine), ore(&app, transport), ore(&app, store)), (0.0, 0.0, 300.0));
    let bare = app.world().resource::<ObjectTable>().entity_of(BARE_MINE).unwrap();
    assert_eq!(ore(&app, bare), 300.0, "the mine the order names has no loading place: passed over");
    let trips = |kind| events(&app, kind).into_iter().map(|e| (e.1, e.2)).collect::<Vec<_>>();
    let loaded = trips(EventKind::Loaded);
    assert_eq!(loaded, [(vec![TRANSPORT, MINE], "ore=200".into()), (vec![TRANSPORT, MINE], "ore=100".into())]);
    let unloaded = trips(EventKind::Unloaded);
    assert_eq!(unloaded, [(vec![TRANSPORT, STORE], "ore=200".into()), (vec![TRANSPORT, STORE], "ore=100".into())]);
    assert!(events(&app, EventKind::Arrived).is_empty(), "a haul never ends");
    let p = pos(&app, transport);
    assert!(dist2(p, [29.0, 20.0]) <= 30.0, "it waits at its empty mine's loading place: {p:?}");
    assert_eq!(app.world().get::<iron3d_behavior::Navigator>(transport).unwrap().order, Order::Haul(BARE_MINE));
}

/// With ore aboard as the order begins, a transport sets off for the storage first.
#[test]
fn a_transport_with_ore_aboard_sets_off_for_the_storage() {
    let (mut app, [transport, mine, store]) = mine_and_store();
    run(&mut app, 1);
    app.world_mut().get_mut::<OreProperty>(transport).unwrap().set(50.0);
    order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
    while events(&app, EventKind::Unloaded).is_empty() {
        assert!(events(&app, EventKind::Loaded).is_empty(), "no load before the first unload");
        app.update();
    }
    assert_eq!((ore(&app, mine), ore(&app, store)), (300.0, 50.0));
}

/// A storage destroyed while its transport loads: the transport takes its load to the
/// clan's next storage (a route afresh, the project's rule).
#[test]
fn a_transport_whose_storage_is_gone_takes_its_load_to_the_next() {
    let (mut app, [transport, _, store]) = mine_and_store();
    order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
    run(&mut app, 1);
    while ore(&app, transport) <= 0.0 {
        app.update();
    }
    let handle = *app.world().get::<ObjectHandle>(store).unwrap();
    app.world_mut().write_message(DeleteRequest { object: handle });
    for _ in 0..1500 {
        app.update();
        if !events(&app, EventKind::Unloaded).is_empty() {
            break;
        }
    }
    let unloaded = events(&app, EventKind::Unloaded).into_iter().map(|e| (e.1, e.2)).collect::<Vec<_>>();
    assert_eq!(unloaded, [(vec![TRANSPORT, FAR_STORE], "ore=200".into())]);
    assert_eq!(events(&app, EventKind::Loaded).len(), 1, "loaded once");
}

/// Runs a transport until it waits at a full storage: the storage holds 150, so the
/// first load of 200 leaves 50 aboard; the transport tops up at the mine (its last 100)
/// and finds the storage full on its return.
fn waiting_at_a_full_storage() -> (App, [Entity; 3]) {
    let (mut app, [transport, mine, store]) = mine_and_store();
    app.world_mut().get_mut::<OreProperty>(store).unwrap().maximum = 150.0;
    order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
    let waiting = |app: &App| app.world().get::<iron3d_behavior::HaulTrip>(transport).unwrap().waiting;
    for _ in 0..2000 {
        app.update();
        if waiting(&app) {
            break;
        }
    }
    assert!(waiting(&app), "it waits at the full storage");
    (app, [transport, mine, store])
}

/// A full storage keeps its transport waiting, still carrying its load: it steps aside
/// at a quarter of its speed to a point within 30 of the unloading place on each axis;
/// once the storage has more than 0.5 free it goes by the mine (topping up, here from a
/// dry mine: nothing) and unloads again. Its storage gone while it waits ends the task.
#[test]
fn a_transport_waits_at_a_full_storage_until_it_has_room() {
    let (mut app, [transport, mine, store]) = waiting_at_a_full_storage();
    let trips = |app: &App, kind| events(app, kind).into_iter().map(|e| e.2).collect::<Vec<_>>();
    assert_eq!(trips(&app, EventKind::Loaded), ["ore=200", "ore=100"]);
    assert_eq!(trips(&app, EventKind::Unloaded), ["ore=150"], "a tick that fills the storage ends the unloading");
    assert_eq!((ore(&app, mine), ore(&app, transport), ore(&app, store)), (0.0, 150.0, 150.0));
    let speed = |app: &App| app.world().get::<Kinematics>(transport).unwrap().speed.abs();
    // It came in at speed: the walk aside is timed once it has braked.
    run(&mut app, 40);
    let (before, mut aside) = (pos(&app, transport), 0.0f32);
    for _ in 0..300 {
        app.update();
        aside = aside.max(speed(&app));
    }
    let after = pos(&app, transport);
    assert!(dist2(after, [before[0], before[1]]) > 1.0, "it steps aside: {before:?} to {after:?}");
    assert!((0..2).all(|k| (after[k] - [89.0, 20.0][k]).abs() <= 30.5), "within 30 of the place: {after:?}");
    assert_eq!(ore(&app, transport), 150.0, "it waits while the storage is full");
    app.world_mut().get_mut::<OreProperty>(store).unwrap().set(149.6);
    run(&mut app, 100);
    assert_eq!(ore(&app, transport), 150.0, "0.4 free is not enough to set off");
    app.world_mut().get_mut::<OreProperty>(store).unwrap().set(0.0);
    let mut drive = 0.0f32;
    for _ in 0..1500 {
        app.update();
        drive = drive.max(speed(&app));
        if trips(&app, EventKind::Unloaded).len() == 2 {
            break;
        }
    }
    assert!(aside > 0.0 && aside <= 0.25 * drive + 1e-3, "aside at a quarter of its speed: {aside} of {drive}");
    assert_eq!(trips(&app, EventKind::Loaded), ["ore=200", "ore=100", "ore=0"], "by the mine");
    assert_eq!(trips(&app, EventKind::Unloaded), ["ore=150", "ore=150"]);
    assert_eq!(ore(&app, store), 150.0);

    let (mut app, [transport, _, store]) = waiting_at_a_full_storage();
    let handle = *app.world().get::<ObjectHandle>(store).unwrap();
    app.world_mut().write_message(DeleteRequest { object: handle });
    run(&mut app, 3);
    let last = events(&app, EventKind::Rejected).pop().map(|e| (e.1, e.2));
    let why = "haul: its mine or storage is gone (mine 2, storage 3)";
    assert_eq!(last, Some((vec![TRANSPORT, MINE], why.into())));
    assert_eq!(app.world().get::<iron3d_behavior::Navigator>(transport).unwrap().order, Order::Stop);
}

#[test]
fn bad_haul_orders_are_refused_with_the_unit_and_target_named() {
    let (mut app, _) = mine_and_store();
    let cases = [
        (TRANSPORT, STORE, "haul: object 3 is not a mine"),
        (TRANSPORT, ENEMY_MINE, "haul: mine 5 is not of clan 1"),
        (TRANSPORT, 99, "haul: no object with id 99"),
        (SCOUT, MINE, "haul: object 6 is not a transport robot"),
    ];
    for (unit, target, why) in cases {
        assert_eq!(check(app.world(), unit, target), Err(why.to_string()), "the static check");
        order(&mut app, vec![unit], Order::Haul(target));
        run(&mut app, 2);
    }
    assert_eq!(check(app.world(), 77, MINE), Err("no object with id 77".into()));
    assert_eq!(check(app.world(), TRANSPORT, MINE), Ok(()));
    let rejected: Vec<(Vec<u32>, String)> = events(&app, EventKind::Rejected).into_iter().map(|e| (e.1, e.2)).collect();
    let expected: Vec<(Vec<u32>, String)> = cases.iter().map(|c| (vec![c.0, c.1], c.2.to_string())).collect();
    assert_eq!(rejected, expected, "one rejected event each, at run time too");
    let orders = [TRANSPORT, SCOUT].map(|id| {
        let e = app.world().resource::<ObjectTable>().entity_of(id).unwrap();
        app.world().get::<iron3d_behavior::Navigator>(e).unwrap().order
    });
    assert_eq!(orders, [Order::Stop; 2], "a refused order changes nothing");
}

#[test]
fn a_haul_ends_when_its_clan_has_no_mine_left_and_the_same_orders_give_the_same_hashes() {
    let play = || {
        let (mut app, [transport, mine, _]) = mine_and_store();
        order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
        run(&mut app, 200);
        let handle = *app.world().get::<ObjectHandle>(mine).unwrap();
        app.world_mut().write_message(DeleteRequest { object: handle });
        // It unloads what it carries, then finds no mine to go back to.
        while events(&app, EventKind::Rejected).is_empty() && app.world().resource::<GameClock>().tick < 1500 {
            app.update();
        }
        let order = app.world().get::<iron3d_behavior::Navigator>(transport).unwrap().order;
        let last = events(&app, EventKind::Rejected).pop().map(|e| (e.1, e.2));
        (app.world().resource::<StateHash>().history.clone(), order, last)
    };
    let (hashes, order, last) = play();
    let why = "haul: clan 1 has no mine with a loading place";
    assert_eq!((order, last), (Order::Stop, Some((vec![TRANSPORT, MINE], why.into()))));
    assert_eq!(play().0, hashes);
}

/// The original's numbers (the shipped rules): a transport loads 2000 at 100 a second
/// from a digging mine, whose 500 come back every tick, and unloads them at 100 a second.
#[test]
fn a_transport_moves_2000_a_trip_from_a_digging_mine_at_100_a_second() {
    let mut app = world_app(flat, |_, _| false);
    let mine = holder(&mut app, MINE, 1, [20.0, 20.0], A_MINE, 500.0);
    app.world_mut().entity_mut(mine).insert(iron3d_economy::MineDig { to_mine: 1.0e9, total: 500.0, done: false });
    let store = holder(&mut app, STORE, 1, [80.0, 20.0], A_STORE, 0.0);
    let transport = spawn_unit(app.world_mut(), TRANSPORT, 1, [50.0, 30.0], 0.0, 1.5);
    app.world_mut().entity_mut(transport).insert(UnitClass(UnitClass::TRANSPORT));
    order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
    let mut first = None;
    for _ in 0..3000 {
        app.update();
        if ore(&app, transport) > 0.0 && first.is_none() {
            first = Some(app.world().resource::<GameClock>().tick);
        }
        if !events(&app, EventKind::Unloaded).is_empty() {
            break;
        }
    }
    let loaded = events(&app, EventKind::Loaded);
    assert_eq!(loaded.first().map(|e| e.2.as_str()), Some("ore=2000"), "{loaded:?}");
    let took = loaded[0].0 - first.unwrap() + 1;
    let full = 20_000u32.div_ceil(TICK_MS);
    assert!((full..=full + 2).contains(&took), "20 s at 100 a second: {took} ticks");
    assert_eq!(ore(&app, mine), 500.0, "the digging mine still holds its 500");
    let unloaded = events(&app, EventKind::Unloaded);
    assert_eq!(unloaded[0].2, "ore=2000");
    assert_eq!(ore(&app, store), 2000.0);
}
