//! Demo-tree tests: determinism, registry resolution, schemes and libraries.

use super::*;
use crate::catalogue::{PROTOTYPES, ROBOTS, Role};
use iron3d_formats::ReadOptions;
use iron3d_formats::nres::Nres;
use iron3d_formats::registry::{BuildDat, MeshSource, PrototypeResolver, ResourceIndex, UnitDat};
use iron3d_formats::rsli::{Method, Rsli};

#[test]
fn same_seed_gives_identical_bytes_and_another_seed_differs() {
    let a = build(DEFAULT_SEED).unwrap();
    assert_eq!(a, build(DEFAULT_SEED).unwrap());
    assert_ne!(a.get("sprites.lib"), build(DEFAULT_SEED + 1).unwrap().get("sprites.lib"));
}

/// Pretends every model archive holds what the catalogue references, so that the
/// registry's own structure (parents, BASE stems) is what is under test.
struct CatalogueIndex;
impl ResourceIndex for CatalogueIndex {
    fn has_archive(&self, archive: &str) -> bool {
        archive != "cut.rlb"
    }
    fn has_entry(&self, archive: &str, _entry: &str) -> bool {
        self.has_archive(archive)
    }
}

#[test]
fn registry_has_every_kind_of_prototype_and_resolves() {
    let tree = build(DEFAULT_SEED).unwrap();
    let bytes = tree.get("objects.rlb").unwrap();
    let nres = Nres::parse(bytes, ReadOptions::strict()).unwrap();
    assert!(nres.len() >= 40, "{} prototypes", nres.len());
    let resolver = PrototypeResolver::new(&nres, &CatalogueIndex);
    for proto in PROTOTYPES {
        let resolved = resolver.resolve(proto.key);
        match (proto.role, resolved.as_ref()) {
            (Role::System, Ok(p)) => assert_eq!(p.mesh, MeshSource::NonGeometric),
            (Role::Broken, Err(e)) => assert!(e.to_string().contains("cut.rlb"), "{e}"),
            (Role::Fortification { parent }, Ok(p)) => {
                assert!(matches!(&p.mesh, MeshSource::Explicit(m) if m.provenance == parent), "{:?}", p.mesh);
                assert!(p.first(".bas").is_some_and(|b| b.provenance == proto.key));
            }
            (_, Ok(p)) => {
                assert!(matches!(&p.mesh, MeshSource::Explicit(m) if m.resource == format!("{}.msh", proto.stem)));
                assert!(p.wear().is_some());
            }
            (role, other) => panic!("{}: {role:?} resolved to {other:?}", proto.key),
        }
    }
}

#[test]
fn unit_schemes_are_trees_and_every_category_is_listed() {
    let tree = build(DEFAULT_SEED).unwrap();
    for unit in ROBOTS {
        let dat = UnitDat::parse(tree.get(&unit.path.replace('\\', "/")).unwrap()).unwrap();
        assert_eq!(dat.component_keys().unwrap(), unit.chain);
        assert_eq!(dat.class_word(), catalogue::BATTLE_UNIT);
    }
    let list = registry::build_dat();
    assert_eq!(list.sections.len(), 12);
    let reparsed = BuildDat::parse(list.to_text().as_bytes()).unwrap();
    for (category, paths) in &reparsed.sections {
        let dat = UnitDat::parse(tree.get(&paths[0].replace('\\', "/")).unwrap()).unwrap();
        assert_eq!(dat.class_word(), category.mask());
        assert!(dat.is_building());
    }
}

#[test]
fn libraries_use_every_storage_method_and_validate_strictly() {
    let tree = build(DEFAULT_SEED).unwrap();
    let mut methods = Vec::new();
    for name in ["gamefont.rlb", "sprites.lib", "system.rlb"] {
        let lib = Rsli::parse(tree.get(name).unwrap(), ReadOptions::strict()).unwrap();
        for i in 0..lib.len() {
            lib.decode(i).unwrap();
            methods.push(lib.entries()[i].method().unwrap());
        }
    }
    for m in Method::ALL {
        assert!(methods.contains(&m), "{m:?} missing");
    }
    assert!(methods[..2].iter().all(|m| *m == Method::Lzss), "gamefont.rlb is LZSS");
}

#[test]
fn committed_demo_tree_matches_the_generator() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    let tree = build(DEFAULT_SEED).unwrap();
    let diff = tree.diff_against(&root);
    assert!(diff.is_empty(), "assets/demo differs from `iron3d-cli demo build` in: {diff:?}");
    assert!(tree.total_size() < 20 << 20, "the demo tree stays under 20 MB");
}

#[test]
fn every_map_lists_the_building_categories() {
    let tree = build(DEFAULT_SEED).unwrap();
    for map in catalogue::MAPS {
        let path = format!("{}/BuildDat.lst", catalogue::map_dir(map).replace('\\', "/"));
        assert_eq!(BuildDat::parse(tree.get(&path).unwrap()).unwrap(), registry::build_dat());
    }
}
