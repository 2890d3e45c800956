//! Lode searches (the builders' *Search minerals*, `gameplay.md` §9.3): a builder walks
//! to the nearest lode not yet found, finds it for everyone within 10, goes on to the
//! next and stops when none is left; only builders take the order.

use super::*;

const BUILDER: u32 = 1;
const SCOUT: u32 = 2;

fn lode(x: f32, y: f32, found: bool) -> MineralLode {
    MineralLode { position: [x, y], found, amount: 1000.0 }
}

#[test]
fn a_builder_finds_the_nearest_lodes_in_turn_and_stops_when_none_is_left() {
    let mut app = world_app(flat, |_, _| false);
    // From the builder: lode 0 is nearest, then 2 from there; lode 1 is found already.
    let lodes = vec![lode(40.0, 20.0, false), lode(100.0, 20.0, true), lode(70.0, 60.0, false)];
    app.world_mut().insert_resource(MineralLodes(lodes));
    let builder = spawn_unit(app.world_mut(), BUILDER, 1, [20.0, 20.0], 0.0, 1.5);
    app.world_mut().entity_mut(builder).insert(UnitClass(UnitClass::BUILDER));
    let scout = spawn_unit(app.world_mut(), SCOUT, 1, [20.0, 40.0], 0.0, 1.5);
    app.world_mut().entity_mut(scout).insert(UnitClass(0x0100_8000));
    order(&mut app, vec![BUILDER, SCOUT], Order::SearchLodes);
    let mut found_at = Vec::new();
    for _ in 0..1500 {
        app.update();
        let found = events(&app, EventKind::LodeFound);
        if found.len() > found_at.len() {
            found_at.push(pos(&app, builder));
        }
    }
    let found: Vec<(Vec<u32>, String)> = events(&app, EventKind::LodeFound).into_iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(found, [(vec![BUILDER], "lode=0".into()), (vec![BUILDER], "lode=2".into())]);
    for (at, lode) in found_at.iter().zip([[40.0, 20.0], [70.0, 60.0]]) {
        assert!(dist2(*at, lode) <= 10.0, "found within 10: {at:?} of {lode:?}");
    }
    assert!(app.world().resource::<MineralLodes>().0.iter().all(|l| l.found), "every lode is found, for everyone");
    let nav = |e| app.world().get::<iron3d_behavior::Navigator>(e).unwrap().order;
    assert_eq!(nav(builder), Order::Stop, "none left: it stops");
    assert!(events(&app, EventKind::Arrived).is_empty(), "a lode reached is no order done");
    let rejected: Vec<(Vec<u32>, String)> = events(&app, EventKind::Rejected).into_iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(rejected, [(vec![SCOUT], "search_lodes: object 2 is not a builder".into())]);
    assert_eq!(nav(scout), Order::Stop, "a refused order changes nothing");
}
