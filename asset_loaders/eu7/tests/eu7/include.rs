//! Include resolution over in-memory files: relative paths, `(pN)` binding, de-duplication
//! by path + parameters, site transform then PLAC placement.

use iron3d_eu7::canonical::Scene;
use iron3d_eu7::include::{MemoryFiles, apply, bind_params, resolve_includes};
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
    let tree = resolve_includes("scenery/root.eu7", &files(), &ReadOptions::strict());
    let tree = match tree {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    };
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
fn missing_include_is_a_located_error() {
    let mut f = files();
    f.0.retain(|k, _| !k.contains("sub/"));
    let e = resolve_includes("scenery/root.eu7", &f, &ReadOptions::compatible()).err();
    let text = e.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(
        text.starts_with("file scenery/root.eu7 -> chunk INCL -> include 0 -> load: cannot load scenery/sub/a.eu7"),
        "{text}"
    );
    let e = e.map(|e| e.kind);
    assert!(matches!(e, Some(ErrorKind::Load { ref path, .. }) if path == "scenery/sub/a.eu7"), "{e:?}");
}

#[test]
fn bind_params_edge_cases() {
    let p = vec![b"A".to_vec(), b"B".to_vec()];
    assert_eq!(bind_params(b"(p2)(p1)(P1)", &p), b"BAA");
    assert_eq!(bind_params(b"(p)(px)(p0)(p3", &p), b"(p)(px)none(p3");
}
