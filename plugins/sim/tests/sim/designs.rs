//! The computer clans' design store on the demo (openparkan `docs/15-behaviour.md`,
//! "Function 69 sets how sloppy the AI's design pick is"): the enemy's script loads
//! `UNITS\UNITS\AI\` (function 43), sets its spread (function 69) and has its factory
//! build by name the best warrior its tree has researched whole.

use super::*;
use iron3d_mission::MissionObject;
use iron3d_superai::SuperAis;
use iron3d_superai::designs::DesignDraw;

const ENEMY: i32 = 2;
const BATTLE_UNIT: u32 = 0x0100_8000;

#[test]
fn the_enemys_script_has_its_factory_build_the_best_researched_warrior_of_the_ai_store() {
    let mut app = quiet_strategy();
    run(&mut app, 1);
    let store = app.world().resource::<AiDesigns>().clone();
    let names: Vec<&str> = store.designs.iter().map(|d| d.scheme.as_str()).collect();
    assert_eq!(names.len(), 3, "every unit file of UNITS\\UNITS\\AI: {names:?}");
    assert!(names.iter().all(|n| n.to_ascii_lowercase().starts_with("units\\units\\ai\\")), "{names:?}");
    // The demo's tree grants its first chassis, turret and gun: only the first design is
    // researched whole at the start.
    let statuses = store.clans.get(&ENEMY).unwrap();
    assert_eq!(statuses[0], DesignStatus::Researched);
    assert!(statuses[1..].iter().all(|s| *s != DesignStatus::Researched), "{statuses:?}");
    // Its figures are those of the same parts placed: the scout's.
    let first = &store.designs[0];
    let mut q = app.world_mut().query::<(&MissionObject, &Health)>();
    let same =
        |o: &MissionObject| o.components.iter().map(|c| c.key.as_str()).eq(first.parts.iter().map(String::as_str));
    let scout = q.iter(app.world()).find(|(o, _)| same(o));
    let (_, health) = scout.expect("the demo places a scout");
    assert_eq!((first.class, first.hit_points), (BATTLE_UNIT, health.max));
    assert!(first.guns > 0.0 && first.speed > 0.0, "{first:?}");
    let draw = |app: &App, clan: u32| {
        let ais = app.world().resource::<SuperAis>();
        ais.clans.iter().find(|a| a.clan.index == clan).and_then(|a| a.vm.as_ref()).map(|vm| vm.designs)
    };
    // At the normal level fDifficulty is 0.5: a spread of 2 − 2 × 0.5.
    assert_eq!(draw(&app, ENEMY as u32), Some(DesignDraw { loaded: true, spread: 1 }));
    run(&mut app, 1200);
    let produced = events(&app, EventKind::Produced);
    let plant = app.world().resource::<ObjectTable>().entity_of(produced.first().map_or(0, |e| e.1[0]));
    let by_name: Vec<&(u32, Vec<u32>, String)> =
        produced.iter().filter(|e| e.2.eq_ignore_ascii_case(&first.scheme)).collect();
    assert!(!by_name.is_empty(), "the enemy's factory builds the design: {produced:?}");
    assert_eq!(by_name.len(), produced.len(), "nothing else builds (the strategic layer is quiet): {produced:?}");
    let owner = plant.and_then(|e| app.world().get::<Owner>(e)).map(|o| o.clan);
    assert_eq!(owner, Some(ENEMY), "the player's script builds nothing by name");
    let built = app.world().resource::<ObjectTable>().entity_of(by_name[0].1[1]).unwrap();
    assert_eq!(app.world().get::<UnitClass>(built).map(|c| c.0), Some(BATTLE_UNIT));
}

/// Function 41 has the enemy's research centre research the cheapest design its tree
/// leaves open, and the store marks the clan's designs as it loads and again each time
/// the clan orders a research (openparkan `docs/16-research.md`, "What an AI clan's tree
/// gates"): a research that completes counts from the next order.
#[test]
fn the_enemys_script_researches_the_cheapest_open_design_and_its_next_order_marks_it() {
    let mut app = quiet_strategy();
    run(&mut app, 1);
    let statuses = |app: &App| app.world().resource::<AiDesigns>().clans.get(&ENEMY).cloned().unwrap_or_default();
    let open = |app: &App, i: usize| match &statuses(app)[i] {
        DesignStatus::Open { items, .. } => items.clone(),
        s => panic!("design {i} is {s:?}"),
    };
    assert_eq!(statuses(&app)[0], DesignStatus::Researched);
    assert_eq!(statuses(&app)[2], DesignStatus::Closed, "the walker's parts wait on the tank's");
    let tank = open(&app, 1);
    assert_eq!(tank.len(), 3, "the tank's chassis, turret and gun");
    let done = |app: &App, items: &[u32]| items.iter().all(|&n| researched(app, n));
    let until = |app: &mut App, what: &dyn Fn(&App) -> bool| {
        for _ in 0..200 {
            if what(app) {
                return true;
            }
            run(app, 20);
        }
        false
    };
    assert!(until(&mut app, &|app| done(app, &tank)), "the script researches the tank's parts");
    assert_eq!(open(&app, 1), tank, "marked at the orders, before the research completed");
    assert!(
        until(&mut app, &|app| statuses(app)[1] == DesignStatus::Researched),
        "the next research order marks the tank researched whole"
    );
    let walker = open(&app, 2);
    assert!(until(&mut app, &|app| done(app, &walker)), "and that order researches the walker, open now");
}
/// Whether the enemy's tree has item `node` researched.
fn researched(app: &App, node: u32) -> bool {
    let production = app.world().resource::<iron3d_production::Production>();
    production.clans.get(&ENEMY).and_then(|c| c.tree.as_ref()).is_some_and(|t| t.researched(node))
}
