//! The research rules on the demo's tree (whole-mission tests of production are in
//! `iron3d_sim`'s integration tests).
#![allow(clippy::unwrap_used)]

use crate::research::{ACTIVE, AVAILABLE, RESEARCHED, ResearchTree};

fn demo_tree() -> ResearchTree {
    ResearchTree::parse("default.trf", &iron3d_demo::scripts::research_tree().unwrap()).unwrap()
}

#[test]
fn the_demo_tree_reads_states_prerequisites_and_unlocks() {
    let t = demo_tree();
    assert_eq!(t.nodes.len(), 9);
    assert_eq!(t.nodes[0].name, "r_ch_01");
    assert_eq!(t.nodes[0].state, AVAILABLE | RESEARCHED);
    assert_eq!((t.nodes[1].prerequisites.as_slice(), t.nodes[1].unlocks.as_slice()), (&[0][..], &[2][..]));
    assert_eq!((t.nodes[1].cost, t.nodes[1].time), (200.0, 60.0));
}

#[test]
fn a_node_needs_its_prerequisites_and_completing_it_unlocks_the_next() {
    let mut t = demo_tree();
    assert!(t.refusal(0).unwrap().contains("already"), "level 1 starts researched");
    assert!(t.refusal(2).unwrap().contains("not available"), "level 3 needs level 2");
    assert_eq!(t.refusal(1), None);
    t.nodes[2].state = 0;
    t.nodes[1].state |= ACTIVE;
    assert!(t.refusal(1).is_some(), "active");
    t.complete(1);
    assert_eq!(t.nodes[1].state, AVAILABLE | RESEARCHED);
    assert_eq!(t.nodes[2].state, AVAILABLE, "the unlock follows");
    assert_eq!(t.refusal(2), None);
    assert!(t.refusal(99).unwrap().contains("no node 99"));
}

#[test]
fn research_decides_which_schemes_may_be_built() {
    let mut t = demo_tree();
    let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(t.locked_component(&keys(&["r_ch_01", "r_tu_01", "r_we_01"])), None, "the scout");
    let tank = keys(&["R_CH_02", "r_tu_02", "x_free"]);
    assert_eq!(t.locked_component(&tank), Some("R_CH_02"));
    t.complete(1);
    let turret = t.node_named("r_tu_02").unwrap();
    t.complete(turret);
    assert_eq!(t.locked_component(&tank), None, "unnamed components are free");
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
