//! Haul orders (the project's own rule): a transport robot carries ore from a mine of
//! its clan to the nearest store with room, within its capacity, exactly; bad targets
//! are refused with a `rejected` event; the same orders give the same hashes.

use super::*;
use iron3d_behavior::haul::{Haulage, check};
use iron3d_economy::OreProperty;

const TRANSPORT: u32 = 1;
const MINE: u32 = 2;
const STORE: u32 = 3;
const FAR_STORE: u32 = 4;
const ENEMY_MINE: u32 = 5;
const SCOUT: u32 = 6;

fn holder(app: &mut App, id: u32, clan: i32, at: [f32; 2], class: u32, ore: f32) -> Entity {
    let e = spawn_building(app.world_mut(), id, at, [3.0, 3.0]);
    let maximum = iron3d_economy::class_defaults(class).1;
    app.world_mut().entity_mut(e).insert((
        UnitClass(class),
        Owner { clan, player: None },
        OreProperty { current_bits: ore.to_bits(), maximum },
    ));
    e
}

/// A flat map: clan 1's mine with 300 ore at (20, 20), its store at (80, 20) and a
/// farther one, clan 2's mine, a transport and a scout of clan 1; no mining; 4 ore a
/// tick loaded, 8 unloaded, 200 a trip.
fn mine_and_store() -> (App, [Entity; 3]) {
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().insert_resource(iron3d_economy::MiningRate(0.0));
    if let Haulage(Ok(h)) = &mut *app.world_mut().resource_mut::<Haulage>() {
        (h.load_per_second.value, h.unload_per_second.value, h.capacity.value) = (62.5, 125.0, 200.0);
    }
    let mine = holder(&mut app, MINE, 1, [20.0, 20.0], UnitClass::MINE, 300.0);
    let store = holder(&mut app, STORE, 1, [80.0, 20.0], UnitClass::STORAGE, 0.0);
    holder(&mut app, FAR_STORE, 1, [100.0, 100.0], UnitClass::STORAGE, 0.0);
    holder(&mut app, ENEMY_MINE, 2, [20.0, 100.0], UnitClass::MINE, 300.0);
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
fn a_transport_carries_ore_from_its_mine_to_the_nearest_store_within_its_capacity() {
    let (mut app, [transport, mine, store]) = mine_and_store();
    assert_eq!(4.0f32, 62.5 * TICK_SECONDS, "the test's rates are exact in f32");
    order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
    let mut most = 0.0f32;
    for _ in 0..1500 {
        app.update();
        most = most.max(ore(&app, transport));
        let total = ore(&app, transport) + ore(&app, mine) + ore(&app, store);
        assert_eq!(total, 300.0, "ore is moved, never made or lost");
    }
    assert_eq!(most, 200.0, "a trip carries its capacity, never more");
    assert_eq!((ore(&app, mine), ore(&app, transport), ore(&app, store)), (0.0, 0.0, 300.0));
    let trips = |kind| events(&app, kind).into_iter().map(|e| (e.1, e.2)).collect::<Vec<_>>();
    let loaded = trips(EventKind::Loaded);
    assert_eq!(loaded, [(vec![TRANSPORT, MINE], "ore=200".into()), (vec![TRANSPORT, MINE], "ore=100".into())]);
    let unloaded = trips(EventKind::Unloaded);
    assert_eq!(unloaded, [(vec![TRANSPORT, STORE], "ore=200".into()), (vec![TRANSPORT, STORE], "ore=100".into())]);
    assert!(events(&app, EventKind::Arrived).is_empty(), "a haul never ends");
    let p = pos(&app, transport);
    assert!(dist2(p, [20.0, 20.0]) <= 30.0, "it waits at its empty mine: {p:?}");
    assert_eq!(app.world().get::<iron3d_behavior::Navigator>(transport).unwrap().order, Order::Haul(MINE));
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
fn a_haul_whose_mine_is_gone_ends_and_the_same_orders_give_the_same_hashes() {
    let play = || {
        let (mut app, [transport, mine, _]) = mine_and_store();
        order(&mut app, vec![TRANSPORT], Order::Haul(MINE));
        run(&mut app, 200);
        let handle = *app.world().get::<ObjectHandle>(mine).unwrap();
        app.world_mut().write_message(DeleteRequest { object: handle });
        run(&mut app, 3);
        let order = app.world().get::<iron3d_behavior::Navigator>(transport).unwrap().order;
        let last = events(&app, EventKind::Rejected).pop().map(|e| e.2);
        (app.world().resource::<StateHash>().history.clone(), order, last)
    };
    let (hashes, order, last) = play();
    assert_eq!((order, last.as_deref()), (Order::Stop, Some("haul: mine 2 is gone")));
    assert_eq!(play().0, hashes);
}

/// The original's numbers (the shipped rules): a transport loads 2000 at 100 a second
/// from a digging mine, whose 500 come back every tick, and unloads them at 100 a second.
#[test]
fn a_transport_moves_2000_a_trip_from_a_digging_mine_at_100_a_second() {
    let mut app = world_app(flat, |_, _| false);
    let mine = holder(&mut app, MINE, 1, [20.0, 20.0], UnitClass::MINE, 500.0);
    app.world_mut().entity_mut(mine).insert(iron3d_economy::MineDig { to_mine: 1.0e9, total: 500.0, done: false });
    let store = holder(&mut app, STORE, 1, [80.0, 20.0], UnitClass::STORAGE, 0.0);
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
