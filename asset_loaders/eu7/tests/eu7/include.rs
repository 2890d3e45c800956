//! Include resolution over in-memory files: relative paths, `(pN)` binding, de-duplication
//! by path + parameters, site transform then PLAC placement.

use iron3d_eu7::canonical::Scene;
use iron3d_eu7::include::{MAX_DEPTH, MemoryFiles, apply, bind_params, include_candidates, resolve_includes};
use iron3d_eu7::logic::Include;
use iron3d_eu7::node::TransformContext;
use iron3d_eu7::{ErrorKind, ReadOptions, Sid};

fn include(path: u32, params: Vec<Sid>, origin: [f32; 3]) -> Include {
    Include {
        source_line: 1,
        source_path: Sid::EMPTY,
        binary_path: Sid(path),
        params,
        site_transform: Some(TransformContext { origins: vec![origin], ..TransformContext::default() }),
    }
}

fn files() -> MemoryFiles {
    let strings = ["sub/a.eu7", "100", "0", "50", "90", "200", "root.eu7"].map(|s| s.as_bytes().to_vec()).to_vec();
    let root = Scene {
        strings,
        includes: vec![
            include(0, vec![Sid(1), Sid(2), Sid(3), Sid(4)], [1000.0, 0.0, 0.0]),
            include(0, vec![Sid(1), Sid(2), Sid(3), Sid(4)], [0.0, 0.0, 0.0]), // duplicate
            include(0, vec![Sid(5)], [0.0, 0.0, 0.0]),                         // other params
        ],
        ..Scene::default()
    };
    let child = Scene {
        strings: vec![b"../ROOT.eu7".to_vec(), b"(p1)_x(p7)".to_vec()],
        includes: vec![include(0, vec![], [0.0; 3])], // back to the root: de-duplicated
        memcells: vec![iron3d_eu7::logic::MemCell { text: Sid(1), ..Default::default() }],
        placement: [1, 2, 3, 4],
        ..Scene::default()
    };
    let mut f = MemoryFiles::default();
    f.insert("scenery/root.eu7", root.write().unwrap_or_default());
    f.insert("scenery/sub/a.eu7", child.write().unwrap_or_default());
    f
}

#[test]
fn tree_binding_dedup_and_placement() {
    let tree = resolve_includes("scenery/root.eu7", &files(), &ReadOptions::strict()).unwrap();
    let paths: Vec<(&str, usize)> = tree.modules.iter().map(|m| (m.path.as_str(), m.params.len())).collect();
    assert_eq!(paths, vec![("scenery/root.eu7", 0), ("scenery/sub/a.eu7", 4), ("scenery/sub/a.eu7", 1)]);
    assert_eq!(tree.duplicates.len(), 3, "same path+params twice, and two includes back to the root");
    let a = &tree.modules[1];
    assert!(a.strings.contains(&b"100_xnone".to_vec()), "(p1) bound, missing (p7) -> none");
    // PLAC: origin = params 1..3 = (100, 0, 50), rotation y = param 4 = 90 degrees, inside the
    // site frame translated by (1000, 0, 0).
    let p = apply(&a.transform, [1.0, 0.0, 0.0]);
    let want = [1100.0, 0.0, 49.0];
    assert!(p.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9), "{p:?}");
    let b = &tree.modules[2];
    let q = apply(&b.transform, [0.0, 0.0, 0.0]);
    assert!((q[0] - 200.0).abs() < 1e-9 && q[2].abs() < 1e-9, "missing params place at 0: {q:?}");
}

#[test]
fn tree_nodes_name_files_and_duplicates() {
    let tree = resolve_includes("scenery/root.eu7", &files(), &ReadOptions::strict()).unwrap();
    assert!(tree.warnings.is_empty());
    let top: Vec<(Option<&str>, bool, Option<usize>)> =
        tree.includes.iter().map(|n| (n.file.as_deref(), n.duplicate, n.module)).collect();
    assert_eq!(
        top,
        vec![
            (Some("scenery/sub/a.eu7"), false, Some(1)),
            (Some("scenery/sub/a.eu7"), true, None),
            (Some("scenery/sub/a.eu7"), false, Some(2)),
        ]
    );
    // The child's include of "../ROOT.eu7" finds the root (paths compare case-insensitively).
    let back = &tree.includes[0].children;
    assert_eq!(back.len(), 1);
    assert!(back[0].duplicate && back[0].file.as_deref() == Some("scenery/sub/../ROOT.eu7"), "{back:?}");
}

#[test]
fn missing_include_is_a_located_warning() {
    let mut f = files();
    f.0.retain(|k, _| !k.contains("sub/"));
    let tree = resolve_includes("scenery/root.eu7", &f, &ReadOptions::compatible()).unwrap();
    assert_eq!(tree.modules.len(), 1, "the root still loads");
    assert_eq!(tree.warnings.len(), 3, "one per include record");
    let text = tree.warnings[0].to_string();
    assert!(
        text.starts_with("file scenery/root.eu7 -> chunk INCL -> include 0 -> load: cannot load scenery/sub/a.eu7"),
        "{text}"
    );
    assert!(matches!(&tree.warnings[0].kind, ErrorKind::Load { path, .. } if path == "scenery/sub/a.eu7"));
    let n = &tree.includes[0];
    assert_eq!((n.file.as_deref(), n.error.as_deref()), (None, Some(text.as_str())));
}

#[test]
fn damaged_include_is_a_located_warning() {
    let mut f = files();
    f.insert("scenery/sub/a.eu7", b"EU7X\x09\0\0\0".to_vec());
    let tree = resolve_includes("scenery/root.eu7", &f, &ReadOptions::compatible()).unwrap();
    assert_eq!(tree.modules.len(), 1);
    let text = tree.warnings[0].to_string();
    assert!(text.starts_with("file scenery/root.eu7 -> chunk INCL -> include 0 -> file scenery/sub/a.eu7"), "{text}");
    assert!(text.contains("magic"), "{text}");
}

/// A module including itself: with the same parameters it is a duplicate; with parameters
/// that grow on every level the depth limit ends it with a warning.
#[test]
fn self_include_ends() {
    let module = |params: Vec<Sid>| Scene {
        strings: vec![b"self.eu7".to_vec(), b"(p1)x".to_vec()],
        includes: vec![include(0, params, [0.0; 3])],
        ..Scene::default()
    };
    let mut f = MemoryFiles::default();
    f.insert("self.eu7", module(vec![]).write().unwrap());
    let tree = resolve_includes("self.eu7", &f, &ReadOptions::strict()).unwrap();
    assert_eq!((tree.modules.len(), tree.duplicates.len()), (1, 1));
    f.insert("self.eu7", module(vec![Sid(1)]).write().unwrap());
    let tree = resolve_includes("self.eu7", &f, &ReadOptions::strict()).unwrap();
    assert_eq!(tree.modules.len(), MAX_DEPTH + 1);
    assert_eq!(tree.warnings.len(), 1);
    assert!(tree.warnings[0].to_string().contains("include depth above"), "{}", tree.warnings[0]);
}

#[test]
fn binary_is_found_beside_its_source() {
    let root = Scene {
        strings: vec![b"gone.eu7".to_vec(), b"mods\\Flora.INC".to_vec()],
        includes: vec![Include { source_path: Sid(1), ..include(0, vec![], [0.0; 3]) }],
        ..Scene::default()
    };
    let mut f = MemoryFiles::default();
    f.insert("s/root.eu7", root.write().unwrap());
    f.insert("s/mods/flora.eu7", Scene::default().write().unwrap());
    let tree = resolve_includes("s/root.eu7", &f, &ReadOptions::strict()).unwrap();
    assert!(tree.warnings.is_empty(), "{:?}", tree.warnings);
    assert_eq!(tree.includes[0].file.as_deref(), Some("s/mods/Flora.eu7"));
    assert_eq!(
        include_candidates("s/sub/a.eu7", "s/root.eu7", "x.eu7", "y.scm"),
        vec!["s/sub/x.eu7", "s/sub/y.eu7", "s/x.eu7", "s/y.eu7"]
    );
}

#[test]
fn bind_params_edge_cases() {
    let p = vec![b"A".to_vec(), b"B".to_vec()];
    assert_eq!(bind_params(b"(p2)(p1)(P1)", &p), b"BAA");
    assert_eq!(bind_params(b"(p)(px)(p0)(p3", &p), b"(p)(px)none(p3");
}
