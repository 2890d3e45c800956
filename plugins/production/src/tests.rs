//! The research rules on the demo's tree (whole-mission tests of production are in
//! `iron3d_sim`'s integration tests).
#![allow(clippy::unwrap_used)]

use crate::research::{AVAILABLE, IN_TREE, RESEARCHED, ResearchTree};

fn demo_tree() -> ResearchTree {
    ResearchTree::parse("default.trf", &iron3d_demo::scripts::research_tree().unwrap()).unwrap()
}

#[test]
fn the_demo_tree_reads_costs_states_parts_prerequisites_and_unlocks() {
    let t = demo_tree();
    assert_eq!(t.nodes.len(), 22, "three kinds of three levels, the beam and the twelve buildings");
    let mine = t.nodes.iter().find(|n| n.parts == ["fr_l_mine"]).unwrap();
    assert_eq!((mine.build_ore, mine.state), (540.0, IN_TREE | RESEARCHED | AVAILABLE), "a small mine's 540, granted");
    assert_eq!((t.nodes[0].name.as_str(), t.nodes[0].parts.as_slice()), ("CH1", &["R_L_03".to_string()][..]));
    assert_eq!(t.nodes[0].state, IN_TREE | RESEARCHED | AVAILABLE, "granted");
    assert_eq!(t.nodes[1].state, IN_TREE | AVAILABLE, "open");
    assert_eq!(t.nodes[2].state, IN_TREE, "waiting");
    assert_eq!((t.nodes[1].prerequisites.as_slice(), t.nodes[1].unlocks.as_slice()), (&[0][..], &[2][..]));
    let n = &t.nodes[1];
    assert_eq!([n.research_energy, n.research_ore, n.build_energy, n.build_ore], [10.0, 40.0, 10.0, 45.0]);
}

#[test]
fn an_item_starts_only_in_the_tree_and_open_and_completing_it_opens_the_next() {
    let mut t = demo_tree();
    assert!(t.refusal(0).unwrap().contains("already"), "level 1 is granted");
    assert!(t.refusal(2).unwrap().contains("not available"), "level 3 waits for level 2");
    assert_eq!(t.refusal(1), None);
    t.nodes[1].active = true;
    assert!(t.refusal(1).is_some(), "being researched");
    t.complete(1);
    assert_eq!((t.nodes[1].state, t.nodes[1].active), (IN_TREE | RESEARCHED | AVAILABLE, false));
    assert_eq!(t.nodes[2].state, IN_TREE | AVAILABLE, "the item whose prerequisites are researched opens");
    assert_eq!(t.refusal(2), None);
    assert!(t.refusal(99).unwrap().contains("no node 99"));
    t.nodes[5].state = AVAILABLE;
    assert!(t.refusal(5).unwrap().contains("not available"), "an item out of the tree never starts");
}

#[test]
fn completing_an_item_completes_the_free_items_it_opens_at_once() {
    let mut t = demo_tree();
    t.nodes[2].research_energy = 0.0;
    t.nodes[2].research_ore = 0.0;
    t.nodes[4].research_ore = 0.0;
    t.complete(1);
    assert_eq!(t.nodes[2].state & RESEARCHED, RESEARCHED, "both research costs 0: researched when it opens");
    t.complete(3);
    assert_eq!(t.nodes[4].state & RESEARCHED, 0, "an energy cost left: it waits to be researched");
}

#[test]
fn research_decides_which_schemes_may_be_built_and_the_tree_prices_them() {
    let mut t = demo_tree();
    let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let scout = keys(&["R_L_03", "e_tur_lt_01", "e_gun_lc_01"]);
    assert_eq!(t.locked_component(&scout), None, "the scout");
    let ore: f32 = [0, 3, 6].iter().map(|&i| t.nodes[i].build_ore).sum();
    assert_eq!(t.build_price(&scout).map(|p| p.0), Some(ore), "the sum of the parts' BuildOreCost");
    let tank = keys(&["r_l_04", "e_tur_lt_02"]);
    assert_eq!(t.locked_component(&tank), Some("r_l_04"));
    t.complete(1);
    t.complete(t.node_named("e_tur_lt_02").unwrap());
    assert_eq!(t.locked_component(&tank), None);
    let unlisted = keys(&["R_L_03", "x_free"]);
    assert_eq!(t.locked_component(&unlisted), Some("x_free"), "a part the tree does not list cannot be built");
    assert_eq!(t.build_price(&unlisted), None);
}

#[test]
fn a_relation_naming_a_missing_node_is_refused() {
    let mut bytes = iron3d_demo::scripts::research_tree().unwrap();
    let nres = iron3d_formats::nres::Nres::parse(&bytes, iron3d_formats::ReadOptions::strict()).unwrap();
    let e = nres.entries().iter().find(|e| e.type_id == iron3d_formats::helpers::trf::type_id(b'3')).unwrap();
    let at = e.data_offset as usize;
    bytes[at..at + 4].copy_from_slice(&77u32.to_le_bytes());
    let err = ResearchTree::parse("bad.trf", &bytes).unwrap_err();
    assert!(err.contains("trf_relation") && err.contains("node 77"), "{err}");
}

/// A job ends when its time and its power budgets are both full: power grows by the
/// building's rate × 64 ms a tick (openparkan `docs/23-economy.md`, read), so a budget
/// of 10 at 4 per second takes 40 ticks though the time budget is 1 s; without a rate
/// the power is there at once (the project's).
#[test]
fn a_job_needs_its_time_and_its_power_budgets() {
    let job = || crate::state::Job { total_ms: 1000, power: 10.0, ..Default::default() };
    let mut slow = job();
    let ticks = (1..100).find(|_| slow.work(4.0, 0.0)).unwrap();
    assert_eq!(ticks, 40, "10 / (4 × 0.064) = 39.06 ticks, so the 40th fills it");
    assert_eq!(slow.power_got, 10.0, "never more than the budget");
    let mut fast = job();
    assert_eq!((1..100).find(|_| fast.work(1000.0, 0.0)).unwrap(), 16, "the time budget: 1000 / 64 ms");
    let mut unpowered = job();
    assert_eq!((1..100).find(|_| unpowered.work(0.0, 0.0)).unwrap(), 16);
}

/// A construction pulls its ore by the original's curve (`Behavior.dll:0x1002a604`,
/// read): 0.2 of the share below a fifth, the share itself up to four fifths, 3 above;
/// `(cost − got) × k × KPD × 0.2 + 0.07`, nothing once complete. A research asks for
/// half of what is missing while more than 5 is, then the rest, never under the least
/// the distributor serves (the project's floor). A job ends only when
/// its ore budget is full too.
#[test]
fn construction_and_research_pull_their_ore_by_the_originals_curves() {
    let job = |ore_got: f32| crate::state::Job { ore: 100.0, ore_got, ..Default::default() };
    assert!((job(10.0).construction_request(1.0) - (90.0 * 0.2 * 0.2 + 0.07)).abs() < 1e-5);
    assert!((job(50.0).construction_request(5.0) - (50.0 * 0.5 * 5.0 * 0.2 + 0.07)).abs() < 1e-4);
    assert!((job(90.0).construction_request(1.0) - (10.0 * 3.0 * 0.2 + 0.07)).abs() < 1e-5);
    assert_eq!(job(100.0).construction_request(1.0), 0.0);
    assert_eq!(job(80.0).research_request(), 10.0, "20 missing: half");
    assert_eq!(job(96.0).research_request(), 4.0, "4 missing: all of it");
    assert_eq!(job(100.0).research_request(), 0.0);
    let least = iron3d_economy::distributor::LEAST_WANT;
    assert_eq!(job(99.995).research_request(), least, "a last crumb: the least served (ours)");
    let mut j = crate::state::Job { ore: 10.0, ..Default::default() };
    assert!(!j.work(0.0, 6.0), "6 of 10 ore");
    assert!(j.work(0.0, 6.0), "the ore budget is full (never more than it)");
    assert_eq!(j.ore_got, 10.0);
}

/// Sizes from a key's size letter (a chassis's third, a building's fourth) and a free
/// robot's time by the pair (`Behavior.dll:0x1002a000`, read): unlisted pairs take 20 s.
#[test]
fn a_free_robots_time_follows_the_factorys_and_the_chassiss_sizes() {
    use crate::grants::{free_bot_seconds, size};
    assert_eq!(
        [size("R_T_02", false), size("r_h_03", false), size("R_M_01", false), size("r_b_01", false)],
        [Some(1), Some(2), Some(3), Some(4)]
    );
    assert_eq!(
        [size("fr_l_plant", true), size("fr_m_plant", true), size("fr_b_plant", true)],
        [Some(2), Some(3), Some(4)]
    );
    assert_eq!((size("r_ch_01", false), size("R_T", true)), (None, None), "no size letter");
    let table = [(2, 1, 30.0), (2, 2, 60.0), (3, 1, 20.0), (3, 2, 35.0), (3, 3, 60.0), (4, 1, 10.0), (4, 4, 60.0)];
    for (f, c, s) in table {
        assert_eq!(free_bot_seconds(Some(f), Some(c)), s, "factory {f}, chassis {c}");
    }
    assert_eq!(free_bot_seconds(Some(2), Some(3)), 20.0, "an unlisted pair");
    assert_eq!(free_bot_seconds(None, Some(1)), 20.0, "an unknown size");
}

/// A mission's `FreeBotNum` and `FreeTechnoNum` become a building's grants.
#[test]
fn grants_come_from_the_missions_properties() {
    use iron3d_core::{ObjectProperty, PropertyBag};
    let prop = |name: &str, v: u32| ObjectProperty { name: name.into(), raw_value: [1, v, 0, 0] };
    let bag = PropertyBag(vec![prop("FreeBotNum", 100), prop("FreeResearchTime", 2)]);
    assert_eq!(crate::grants::of(&bag), Some(crate::grants::Grants { bots: 100, technologies: 0 }));
    assert_eq!(crate::grants::of(&PropertyBag(vec![prop("FreeTechnoNum", 0)])), None, "nothing granted");
}
