use super::*;
use crate::nres::NresWriter;
use crate::registry::objects::{ObjectRef64, write_refs};
use crate::registry::unit_dat::UnitRecord;
use crate::world::ParsedModelLinks;
use crate::world::tma::{PlacedObject, Tma};

/// An in-memory game tree: loose files and archives of named entries.
#[derive(Default)]
struct Mem {
    files: HashMap<String, Vec<u8>>,
    archives: HashMap<String, Vec<(String, Vec<u8>)>>,
}

fn fold(p: &str) -> String {
    p.replace('\\', "/").to_ascii_lowercase()
}

impl ResourceIndex for Mem {
    fn has_archive(&self, archive: &str) -> bool {
        self.files.contains_key(&fold(archive)) || self.archives.contains_key(&fold(archive))
    }
    fn has_entry(&self, archive: &str, entry: &str) -> bool {
        self.archives.get(&fold(archive)).is_some_and(|a| a.iter().any(|(n, _)| n.eq_ignore_ascii_case(entry)))
    }
}

impl GameFiles for Mem {
    fn load_file(&self, path: &str) -> Result<Arc<[u8]>> {
        self.files
            .get(&fold(path))
            .map(|b| Arc::from(b.as_slice()))
            .ok_or_else(|| Error::new(crate::error::ErrorKind::NotFound(path.into())))
    }
    fn load_entry(&self, archive: &str, entry: &str) -> Result<Arc<[u8]>> {
        self.archives
            .get(&fold(archive))
            .and_then(|a| a.iter().find(|(n, _)| n.eq_ignore_ascii_case(entry)))
            .map(|(_, b)| Arc::from(b.as_slice()))
            .ok_or_else(|| Error::new(crate::error::ErrorKind::NotFound(entry.into())))
    }
}

fn unit_dat(keys: &[&str]) -> Vec<u8> {
    let mut records = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let children = if i == 0 { keys.len() as u32 - 1 } else { 0 };
        records.push(UnitRecord::new(k, 1, -1, b"part", 0, children).unwrap());
    }
    UnitDat { header: [0xF1, 0xF0, 0, 0, 0, 0, 0, 0x01], records }.to_bytes()
}

/// A tree: three prototypes (one geometric with WEAR, one non-geometric, one with a
/// missing mesh), a unit with two components (one key absent from the registry), a
/// mission with four objects (direct, unit, missing unit, broken mesh).
fn tree(with_land: bool) -> Mem {
    let mut m = Mem::default();
    let mut reg = NresWriter::new();
    let refs =
        |r: &[(&str, &str)]| write_refs(&r.iter().map(|(a, n)| ObjectRef64::new(a, n).unwrap()).collect::<Vec<_>>());
    reg.add(0, [0; 3], b"r_h_01", refs(&[("bases.rlb", "r_h_01.msh"), ("bases.rlb", "r_h_01.wea")])).unwrap();
    reg.add(0, [0; 3], b"sun_01", refs(&[("effects.rlb", "sun.sun")])).unwrap();
    reg.add(0, [0; 3], b"broken", refs(&[("bases.rlb", "gone.msh")])).unwrap();
    reg.add(0, [0; 3], b"unused_broken", refs(&[("cut.rlb", "x.msh")])).unwrap();
    m.files.insert("objects.rlb".into(), reg.to_bytes().unwrap());
    m.archives.insert(
        "bases.rlb".into(),
        vec![("r_h_01.msh".into(), b"m".to_vec()), ("r_h_01.wea".into(), b"MAT_A\nMAT_B\n*LM1".to_vec())],
    );
    m.archives.insert(
        fold(MATERIAL_ARCHIVE),
        vec![("MAT_A".into(), b"TEX1 TEX2".to_vec()), ("MAT_B".into(), b"TEX3".to_vec())],
    );
    m.archives.insert(fold(TEXTURE_ARCHIVE), vec![("TEX1".into(), vec![]), ("TEX2".into(), vec![])]);
    m.archives.insert(fold(LIGHTMAP_ARCHIVE), vec![("LM1".into(), vec![])]);
    m.files.insert(fold("UNITS\\u1.dat"), unit_dat(&["r_h_01", "no_such_key"]));
    if with_land {
        for f in land_file_paths("DATA\\MAPS\\M\\land") {
            m.files.insert(fold(&f), vec![]);
        }
    }
    let mut t = Tma::new("DATA\\MAPS\\M\\land");
    t.objects.push(PlacedObject::new(0, "R_H_01", [0.0; 3]));
    t.objects.push(PlacedObject::new(1, "UNITS\\u1.dat", [0.0; 3]));
    t.objects.push(PlacedObject::new(1, "UNITS\\missing.DAT", [0.0; 3]));
    t.objects.push(PlacedObject::new(0, "broken", [0.0; 3]));
    t.objects.push(PlacedObject::new(0, "sun_01", [0.0; 3]));
    m.files.insert("missions/m1/data.tma".into(), t.to_bytes().unwrap());
    m
}

/// A stand-in for the real parsers: WEAR lines are materials (`*` = lightmap),
/// MAT0 bytes are space-separated texture names.
struct FakeLinks;
impl ModelLinks for FakeLinks {
    fn wear_links(&self, wear: &[u8]) -> Result<Option<WearLinks>> {
        let text = String::from_utf8_lossy(wear);
        let (lm, mats): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('*'));
        Ok(Some(WearLinks {
            materials: mats.iter().map(|s| s.to_string()).collect(),
            lightmaps: lm.iter().map(|s| s[1..].to_string()).collect(),
        }))
    }
    fn material_textures(&self, mat0: &[u8]) -> Result<Option<Vec<String>>> {
        Ok(Some(String::from_utf8_lossy(mat0).split_whitespace().map(String::from).collect()))
    }
}

#[test]
fn presence_only_counts_requests_and_ties_failures_to_edges() {
    let m = tree(true);
    let r = MissionGraph::new(&m).build("MISSIONS\\M1\\", false).unwrap();
    let s = r.stats;
    assert_eq!((s.placed_objects, s.unit_references, s.components, s.direct_keys), (5, 2, 2, 3));
    assert_eq!(s.prototype_requests, 5, "direct keys + components");
    assert_eq!((s.mesh_requests, s.non_geometric, s.wear_requests), (2, 1, 2));
    assert_eq!((s.material_slots, s.texture_requests, s.lightmap_requests), (0, 0, 0));
    assert!(!r.materials_parsed);
    let kinds: Vec<(Option<usize>, LinkKind, &str)> =
        r.errors.iter().map(|f| (f.object, f.link, f.key.as_str())).collect();
    assert_eq!(
        kinds,
        [
            (Some(1), LinkKind::Prototype, "no_such_key"),
            (Some(2), LinkKind::UnitDat, ""),
            (Some(3), LinkKind::Mesh, "broken")
        ]
    );
    let text = r.errors[0].to_string();
    assert!(
        text.starts_with(
            "placed object 1 (UNITS\\u1.dat) -> key no_such_key -> prototype link objects.rlb::no_such_key"
        ),
        "{text}"
    );
    assert!(r.errors[2].message.contains("gone.msh"), "{}", r.errors[2].message);
    assert!(r.warnings.is_empty());
}

#[test]
fn parsed_materials_count_slots_textures_and_lightmaps() {
    let m = tree(true);
    let r = MissionGraph::new(&m).with_model_links(&FakeLinks).build("missions/m1", true).unwrap();
    assert!(r.materials_parsed);
    // Two requests of r_h_01 (direct + unit component), each WEAR with 2 slots, 1 lightmap.
    assert_eq!((r.stats.material_slots, r.stats.texture_requests, r.stats.lightmap_requests), (4, 6, 2));
    let textures: Vec<&Failure> = r.errors.iter().filter(|f| f.link == LinkKind::Texture).collect();
    assert_eq!(textures.len(), 2, "TEX3 is missing, once per request");
    assert_eq!((textures[0].archive.as_str(), textures[0].entry.as_str()), (TEXTURE_ARCHIVE, "TEX3"));
    // Inventory: the unreachable broken entry is only a warning.
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].key, "unused_broken");
}

#[test]
fn missing_land_files_and_missions_are_reported() {
    let m = tree(false);
    let r = MissionGraph::new(&m).build("missions/m1", false).unwrap();
    let land: Vec<&str> = r.errors.iter().filter(|f| f.link == LinkKind::Land).map(|f| f.archive.as_str()).collect();
    assert_eq!(
        land,
        ["DATA\\MAPS\\M\\land.msh", "DATA\\MAPS\\M\\land.map", "DATA\\MAPS\\M\\land1.wea", "DATA\\MAPS\\M\\land2.wea"]
    );
    let e = MissionGraph::new(&m).build("missions/none", false).unwrap_err();
    assert!(e.to_string().contains("mission missions/none"), "{e}");
}

/// Rewrites mission m1 of `tree(true)` with an environment clan (no TRF) and two
/// active clans naming `trf`.
fn with_clans(m: &mut Mem, trf: &str) {
    use crate::world::tma::Clan;
    let mut t = Tma::parse(&m.files["missions/m1/data.tma"], ReadOptions::strict()).unwrap();
    t.clans.push(Clan::new("Nature", 0, [0.0; 2], "MISSIONS\\SCRIPTS\\nature", "", 0));
    for name in ["Player", "Enemy"] {
        t.clans.push(Clan::new(name, 1, [0.0; 2], "MISSIONS\\SCRIPTS\\default", trf, 5));
    }
    m.files.insert("missions/m1/data.tma".into(), t.to_bytes().unwrap());
}

fn research_tree_bytes() -> Vec<u8> {
    let mut w = NresWriter::new();
    w.add(crate::helpers::trf::type_id(b'0'), [1, 0, 40], b"TRF0", vec![0; 40]).unwrap();
    w.to_bytes().unwrap()
}

#[test]
fn clan_research_trees_must_exist_and_parse() {
    let mut m = tree(true);
    with_clans(&mut m, "MISSIONS\\SCRIPTS\\auto.trf");
    let trees = |m: &Mem| {
        let r = MissionGraph::new(m).build("missions/m1", false).unwrap();
        let failures: Vec<String> =
            r.errors.iter().filter(|f| f.link == LinkKind::ResearchTree).map(ToString::to_string).collect();
        (r.stats.research_trees, failures)
    };
    let (requests, failures) = trees(&m);
    assert_eq!(requests, 2, "one per active clan; the environment clan names none");
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with("clan Player -> research_tree link MISSIONS\\SCRIPTS\\auto.trf: "),
        "{}",
        failures[0]
    );
    m.files.insert(fold("MISSIONS\\SCRIPTS\\auto.trf"), b"not an archive".to_vec());
    assert_eq!(trees(&m).1.len(), 2, "a broken TRF fails like a missing one");
    m.files.insert(fold("MISSIONS\\SCRIPTS\\auto.trf"), research_tree_bytes());
    assert_eq!(trees(&m), (2, vec![]));
}

#[test]
fn the_weather_table_is_followed_apart_from_the_object_chain() {
    let mut m = tree(true);
    let objects_only = MissionGraph::new(&m).with_model_links(&FakeLinks).build("missions/m1", false).unwrap();
    assert_eq!(objects_only.weather, WeatherFiles::default(), "no sky files: nothing followed, no error");
    // RAIN has two textures (one missing), SNOW is not in Material.lib.
    m.files.insert(fold("missions/m1/sky.wea"), b"RAIN\nSNOW".to_vec());
    m.archives.get_mut(&fold(MATERIAL_ARCHIVE)).unwrap().push(("RAIN".into(), b"TEX1 DROP".to_vec()));
    let r = MissionGraph::new(&m).with_model_links(&FakeLinks).build("missions/m1", false).unwrap();
    assert!(r.weather.table && !r.weather.schedule);
    let requests = MaterialCounts { material_slots: 2, texture_requests: 2, lightmap_requests: 0 };
    assert_eq!(r.weather.requests, requests);
    assert_eq!(r.stats, objects_only.stats, "object-chain counts are unchanged");
    let sky: Vec<String> = r.errors.iter().filter(|f| f.object.is_none()).map(ToString::to_string).collect();
    assert_eq!(
        sky,
        [
            "missions/m1/sky.wea -> texture link Textures.lib::DROP: not found: texture DROP",
            "missions/m1/sky.wea -> material link Material.lib::SNOW: not found: material SNOW",
        ]
    );
    m.files.insert(fold("missions/m1/sky.ske"), vec![1, 2, 3]);
    let r = MissionGraph::new(&m).with_model_links(&ParsedModelLinks::strict()).build("missions/m1", false).unwrap();
    assert!(r.weather.schedule, "sky.ske presence is noted");
    let weather: Vec<&Failure> = r.errors.iter().filter(|f| f.link == LinkKind::Weather).collect();
    assert_eq!(weather.len(), 1, "a table that is not WEAR text fails its own edge");
    assert_eq!(weather[0].archive, "missions/m1/sky.wea");
}
