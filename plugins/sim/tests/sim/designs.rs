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
    assert_eq!(store.researched.get(&ENEMY).map(Vec::as_slice), Some(&[true, false, false][..]));
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

/// The store marks a clan's designs as it loads and again each time the clan orders a
/// research (openparkan `docs/16-research.md`, "What an AI clan's tree gates"): a research
/// that completes counts from the next order.
#[test]
fn a_clans_designs_are_marked_again_when_it_orders_a_research() {
    let mut app = quiet_strategy();
    run(&mut app, 1);
    let flags = |app: &App| app.world().resource::<AiDesigns>().researched.get(&ENEMY).cloned().unwrap_or_default();
    assert_eq!(flags(&app), [true, false, false]);
    let tank = app.world().resource::<AiDesigns>().designs[1].parts.clone();
    let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner)>();
    let enemy: Vec<u32> = q.iter(app.world()).filter(|(_, o)| o.clan == ENEMY).map(|(id, _)| id.0).collect();
    let world = app.world();
    let institute = *enemy.iter().find(|&&id| iron3d_production::research_node(world, id, &tank[0]).is_ok()).unwrap();
    let nodes: Vec<u32> = tank
        .iter()
        .filter_map(|part| iron3d_production::research_node(app.world(), institute, part).ok())
        .filter(|&n| !researched(&app, n))
        .collect();
    assert!(!nodes.is_empty(), "the tank's parts wait for research: {tank:?}");
    for &n in &nodes {
        order(&mut app, vec![institute], Order::Research(n));
    }
    let done = |app: &App| nodes.iter().all(|&n| researched(app, n));
    for _ in 0..100 {
        if done(&app) {
            break;
        }
        run(&mut app, 50);
    }
    assert!(done(&app), "the enemy researches the tank's parts");
    assert_eq!(flags(&app), [true, false, false], "marked at the orders, before the research completed");
    let any = iron3d_production::research_node(app.world(), institute, &tank[0]).unwrap();
    order(&mut app, vec![institute], Order::Research(any));
    run(&mut app, 1);
    assert_eq!(flags(&app), [true, true, false], "the next order marks the tank researched whole");
}

/// Whether the enemy's tree has item `node` researched.
fn researched(app: &App, node: u32) -> bool {
    let production = app.world().resource::<iron3d_production::Production>();
    production.clans.get(&ENEMY).and_then(|c| c.tree.as_ref()).is_some_and(|t| t.researched(node))
}
