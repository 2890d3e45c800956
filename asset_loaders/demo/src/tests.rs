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
            (Role::Round, Ok(p)) => {
                assert_eq!(p.mesh, MeshSource::NonGeometric);
                assert!(p.first(".ctl").is_some() && p.first(".ndp").is_some(), "{:?}", p.refs);
            }
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
    for unit in ROBOTS.iter().chain([&catalogue::HAULER, &catalogue::ANIMAL]) {
        let dat = UnitDat::parse(tree.get(&unit.path.replace('\\', "/")).unwrap()).unwrap();
        assert_eq!(dat.component_keys().unwrap(), unit.chain);
        assert_eq!(dat.class_word(), unit.class_word);
    }
    assert_eq!(catalogue::HAULER.class_word, 0x0100_2000, "docs/reference/registry.md §2.2: transport robot");
    assert_eq!(catalogue::ANIMAL.class_word, 0x2000_0000, "gameplay.md §1.4: CLASS_ANIMAL");
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

mod graph {
    use super::*;
    use iron3d_formats::world::{ArealQuery, LandMsh, MissionGraph, TerrainQuery, Tma};
    use iron3d_vfs::GameDir;

    fn written(tag: &str) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("iron3d-demo-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        build(DEFAULT_SEED).unwrap().write_to(&root).unwrap();
        root
    }

    #[test]
    fn missions_parse_strictly_and_the_large_one_is_benchmark_sized() {
        let root = written("missions");
        let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
        let mut sizes = Vec::new();
        for spec in missions::MISSIONS {
            let report =
                MissionGraph::new(&game).with_options(ReadOptions::strict()).build(&spec.folder(), false).unwrap();
            sizes.push((report.stats.placed_objects, report.stats.prototype_requests));
            // The check `mission graph` runs on any data: every path point, clan anchor
            // and placed robot stands on a walkable areal.
            let off: Vec<String> = report.off_map.iter().map(ToString::to_string).collect();
            assert!(off.is_empty(), "{}: {} points off the walkable map: {off:?}", spec.name, off.len());
            let tma =
                Tma::parse(&game.read_file(&format!("{}/data.tma", spec.folder())).unwrap(), ReadOptions::strict())
                    .unwrap();
            assert!(tma.clans.iter().any(|c| c.mode == 0), "an environment clan");
            assert!((2..=4).contains(&tma.clans.len()));
            assert!(tma.objects.iter().any(|o| o.current_ore().is_some()));
            assert!(!tma.extras.is_empty() && !tma.paths.is_empty());
            // The logical id the scripts build by names the enemy's factory.
            let plant = missions::enemy_building(iron3d_formats::registry::BuildCategory::Plant);
            let plant = tma.objects.iter().find(|o| o.identity_or_clan_raw == plant).unwrap();
            let scheme = catalogue::building_scheme_path(
                catalogue::PROTOTYPES
                    .iter()
                    .find(|p| p.role == catalogue::Role::Building(iron3d_formats::registry::BuildCategory::Plant))
                    .unwrap()
                    .key,
            );
            assert_eq!((plant.resource_name.display(), plant.raw_after_resource), (scheme, 2), "{}", spec.name);
        }
        let (objects, requests) = sizes[2];
        assert!(objects >= 800 && requests >= 5000, "large mission: {objects} objects, {requests} requests");
        assert!(sizes[0].0 < 100, "the tutorial stays small");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn overlays_mark_the_shore_the_paths_and_the_bases_of_the_mission() {
        let tree = build(DEFAULT_SEED).unwrap();
        // A map's overlays follow the first mission on it (the others share its land).
        let owners = missions::MISSIONS
            .iter()
            .filter(|s| missions::MISSIONS.iter().find(|o| o.map == s.map).is_some_and(|o| o.name == s.name));
        for spec in owners {
            let dir = catalogue::map_dir(spec.map).replace('\\', "/");
            let land = LandMsh::parse(tree.get(&format!("{dir}/land.msh")).unwrap(), ReadOptions::strict()).unwrap();
            let tma =
                Tma::parse(tree.get(&format!("{}/data.tma", spec.folder())).unwrap(), ReadOptions::strict()).unwrap();
            let bases: Vec<[f32; 2]> =
                tma.clans.iter().filter(|c| c.mode != 0).map(|c| [c.anchor_x, c.anchor_y]).collect();
            let near = |p: [f32; 2], q: [f32; 2], r: f32| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) < r * r;
            let (cell, side) = (spec.terrain.cell, spec.terrain.side());
            let [lx, ly, lr] = spec.terrain.lake;
            let mut counts = [0usize; 4];
            for (i, f) in land.faces.iter().enumerate() {
                let Some(high) = f.overlay() else { continue };
                assert_eq!(f.flags & terrain::WATER_FLAG, 0, "{}: face {i}: no overlay on water", spec.name);
                let t = land.triangle(i).unwrap();
                let c = [(t[0][0] + t[1][0] + t[2][0]) / 3.0, (t[0][1] + t[1][1] + t[2][1]) / 3.0];
                let placed = match high {
                    terrain::SCORCH => bases.iter().any(|&b| near(c, b, 180.0)),
                    // Near points sampled along the path: a loose but independent check.
                    terrain::TRACK => tma.paths.iter().any(|p| {
                        p.points.windows(2).any(|s| {
                            (0..=64).any(|k| {
                                let t = k as f32 / 64.0;
                                near(
                                    c,
                                    [s[0][0] + (s[1][0] - s[0][0]) * t, s[0][1] + (s[1][1] - s[0][1]) * t],
                                    cell * 2.0,
                                )
                            })
                        })
                    }),
                    terrain::SHORE => near(c, [lx * side, ly * side], lr * side + cell * 3.0),
                    other => panic!("{}: face {i}: overlay row {other}", spec.name),
                };
                assert!(placed, "{}: face {i} with overlay {high} at {c:?}", spec.name);
                counts[usize::from(high)] += 1;
            }
            assert!(counts[1..].iter().all(|&n| n >= 20), "{}: overlay faces {counts:?}", spec.name);
        }
    }

    #[test]
    fn terrain_has_plains_hills_water_and_areals_avoid_the_lake() {
        let tree = build(DEFAULT_SEED).unwrap();
        for spec in missions::MISSIONS {
            let dir = catalogue::map_dir(spec.map).replace('\\', "/");
            let land = LandMsh::parse(tree.get(&format!("{dir}/land.msh")).unwrap(), ReadOptions::strict()).unwrap();
            assert!((10_000..=30_000).contains(&land.faces.len()), "{}: {} faces", spec.map, land.faces.len());
            let water = land.faces.iter().filter(|f| f.flags & terrain::WATER_FLAG != 0).count();
            assert!(water > 0 && water < land.faces.len() / 4, "{}: {water} water faces", spec.map);
            let layers: std::collections::BTreeSet<u8> = land.faces.iter().map(|f| f.material_low).collect();
            assert!(layers.len() >= 3, "plains, slopes and ridges: {layers:?}");
            let query = TerrainQuery::new(&land);
            let side = spec.terrain.side();
            let map = iron3d_formats::world::ArealMap::parse(
                tree.get(&format!("{dir}/land.map")).unwrap(),
                ReadOptions::strict(),
            )
            .unwrap();
            let areals = ArealQuery::new(&map);
            let [lx, ly, _] = spec.terrain.lake;
            assert!(areals.area_at(lx * side, ly * side).is_none(), "the lake is impassable");
            let (bx, by) = (0.2 * side, 0.2 * side);
            assert!(areals.area_at(bx, by).is_some(), "the base stands on walkable ground");
            assert!(query.height_at(bx, by).is_some());
            let far = areals.area_at(0.8 * side, 0.8 * side).unwrap();
            let near = areals.area_at(bx, by).unwrap();
            assert!(areals.route(near.area, far.area).is_some(), "the bases are connected");
        }
    }
}

mod visuals {
    use super::*;
    use iron3d_formats::model::mat0::Material;
    use iron3d_formats::model::texm::{DecodeOptions, PixelFormat, Texm};
    use iron3d_formats::model::wear::Wear;
    use iron3d_formats::world::{LandMsh, MissionGraph, ParsedModelLinks};
    use iron3d_vfs::GameDir;

    #[test]
    fn every_mission_resolves_through_wear_materials_and_textures() {
        let root = std::env::temp_dir().join(format!("iron3d-demo-visuals-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        build(DEFAULT_SEED).unwrap().write_to(&root).unwrap();
        let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
        let links = ParsedModelLinks::strict();
        for spec in missions::MISSIONS {
            let graph = MissionGraph::new(&game).with_options(ReadOptions::strict()).with_model_links(&links);
            let report = graph.build(&spec.folder(), true).unwrap();
            let errors: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", spec.name);
            assert!(report.materials_parsed);
            let s = report.stats;
            assert!(s.material_slots > 0 && s.texture_requests > 0 && s.lightmap_requests > 0, "{s:?}");
            assert_eq!(s.research_trees, 2, "both active clans name default.trf");
            let wx = report.weather;
            assert!(wx.table && !wx.schedule, "sky.wea only: the sky.ske layout is opaque");
            let rows = weather::SKY_ROWS.len() as u64;
            assert_eq!(
                (wx.requests.material_slots, wx.requests.texture_requests),
                (rows + 1, rows),
                "the untextured sky material, then one textured phase per weather material"
            );
            assert_eq!(report.warnings.len(), 1, "only the cut prototype is broken: {:?}", report.warnings);
            assert_eq!(report.warnings[0].key, "x_cut_01");
        }
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn materials_start_with_default_and_some_are_animated() {
        let tree = build(DEFAULT_SEED).unwrap();
        let lib = Nres::parse(tree.get("Material.lib").unwrap(), ReadOptions::strict()).unwrap();
        assert_eq!(lib.entries()[0].display_name(), "DEFAULT");
        let mut animated = 0;
        let mut untextured = 0;
        for (i, e) in lib.entries().iter().enumerate() {
            let m = Material::parse(lib.payload(i).unwrap(), e.attr1, e.attr2).unwrap();
            animated += usize::from(!m.anims.is_empty() && m.phases.len() > 1);
            untextured += m.phases.iter().filter(|p| p.texture_name().is_none()).count();
        }
        assert!(animated >= 2 && untextured >= 1);
    }

    #[test]
    fn land_tables_cover_every_terrain_selector() {
        let tree = build(DEFAULT_SEED).unwrap();
        let lib = Nres::parse(tree.get("Material.lib").unwrap(), ReadOptions::strict()).unwrap();
        for map in catalogue::MAPS {
            let dir = catalogue::map_dir(map).replace('\\', "/");
            let land = LandMsh::parse(tree.get(&format!("{dir}/land.msh")).unwrap(), ReadOptions::strict()).unwrap();
            let table =
                |name: &str| Wear::parse(tree.get(&format!("{dir}/{name}")).unwrap(), ReadOptions::strict()).unwrap();
            // Reading A of docs/reference/world.md §2.4: low selector -> land2.wea, high selector -> land1.wea.
            let (overlays, bases) = (table("land1.wea"), table("land2.wea"));
            assert_eq!(bases.material(4), Some(&b"LAND_WATER"[..]));
            for f in &land.faces {
                assert!(
                    bases.material(usize::from(f.material_low)).is_some(),
                    "{map}: low selector {}",
                    f.material_low
                );
                let Some(high) = f.overlay() else { continue };
                let row = overlays.material(usize::from(high)).unwrap_or_else(|| panic!("{map}: high selector {high}"));
                let (entry, payload) = lib.get(row).unwrap();
                let mat = Material::parse(payload, entry.attr1, entry.attr2).unwrap();
                assert_eq!(mat.blend, Some([5, 6]), "{map}: overlay {high} blends over the base layer");
            }
        }
    }

    #[test]
    fn overlay_textures_are_partly_transparent() {
        for (name, clear) in [("SHORE.0", 0.05..0.5), ("TRACK_DIRT.0", 0.0..0.1), ("SCORCH.0", 0.05..0.5)] {
            let spec = textures::TEXTURES.iter().find(|t| t.name == name).unwrap();
            let alpha: Vec<u8> = textures::pixels(spec, DEFAULT_SEED).chunks(4).map(|p| p[3]).collect();
            let share = |keep: fn(u8) -> bool| alpha.iter().filter(|&&a| keep(a)).count() as f32 / alpha.len() as f32;
            assert!(clear.contains(&share(|a| a == 0)), "{name}: {} transparent", share(|a| a == 0));
            assert!(
                share(|a| a < 255) == 1.0 && share(|a| a > 200) > 0.3,
                "{name}: blends, and covers the ground in places"
            );
        }
    }

    #[test]
    fn textures_decode_in_several_formats_with_mips() {
        let tree = build(DEFAULT_SEED).unwrap();
        let mut formats = Vec::new();
        for lib in ["Textures.lib", "LightMap.lib"] {
            let nres = Nres::parse(tree.get(lib).unwrap(), ReadOptions::strict()).unwrap();
            assert!(!nres.is_empty());
            for i in 0..nres.len() {
                let t = Texm::parse(nres.payload(i).unwrap()).unwrap();
                for level in 0..t.mips.len() {
                    let (w, h) = t.level_dims(level as u32);
                    assert_eq!(t.decode_level(level, DecodeOptions::default()).unwrap().len() as u32, w * h * 4);
                }
                if lib == "Textures.lib" {
                    assert!(t.mips.len() > 1, "textures carry mips");
                }
                formats.push(t.format().unwrap());
            }
        }
        for f in [PixelFormat::Indexed, PixelFormat::Rgb565, PixelFormat::Argb4444, PixelFormat::Argb8888] {
            assert!(formats.contains(&f), "{f:?}");
        }
        let pal = Nres::parse(tree.get("palettes.lib").unwrap(), ReadOptions::strict()).unwrap();
        iron3d_formats::model::palette::Palette::parse(pal.payload(0).unwrap()).unwrap();
    }
}
