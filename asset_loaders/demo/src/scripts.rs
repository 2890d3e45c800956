//! `MISSIONS/SCRIPTS/` (`docs/reference/runtime.md` §3.1): the two bundles the TMA clans name
//! (`default` for the active clans, `nature` for the environment clan), each as a
//! compiled package `.scr` whose `Init` holds one Handler(19) record, a `.fml` export,
//! and the variable tables: the shared `varset.var` (231 declarations like the GOG
//! table, with `ClanBaseX`/`ClanBaseY`/`ClanID` at 224/225/226) and a per-bundle
//! `nature.var`, so both lookup paths of the loader (`<bundle>.var` first, then the
//! shared table) are exercised. `default.trf` is a small research tree over the robot
//! components, named by the active clans' TRF field (second resource) in `data.tma`.
//!
//! Only handlers the spec proves are emitted: `Init` holds exactly one Handler(19)
//! record; the `Mission` event (a name of the corpus) is empty. The `default` bundle
//! also has the project's events `Mission_Complete` and `Mission_Failed`, one
//! Handler(30) record each calling the host with `(0, 0, 1)` / `(0, 0, 0)` (`docs/reference/runtime.md` §3.5)
//! through the shared constants `NONE` = 0 and `ST_SOLVING` = 1; the game's rules run
//! them to end the mission. No opaque selector is invented.

use crate::catalogue::{PROTOTYPES, Role};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::helpers::trf::{NODE_SIZE, type_id};
use iron3d_formats::nres::NresWriter;
use iron3d_formats::script::{FmlText, Record, ScrPackage, VarType, Varset};

/// Folder of the scripts.
pub const DIR: &str = "MISSIONS/SCRIPTS";
/// The active clans' bundle (as named in `data.tma`).
pub const DEFAULT_BUNDLE: &str = "default";
/// The environment clan's bundle.
pub const NATURE_BUNDLE: &str = "nature";
/// Declarations of the shared table.
pub const SHARED_DECLARATIONS: usize = 231;
/// Float declarations of the shared table (the rest are `DWORD`).
pub const SHARED_FLOATS: usize = 31;
/// Shared-table indices of `ClanBaseX`, `ClanBaseY`, `ClanID` (`docs/reference/runtime.md` §3.4).
pub const SHARED_CLAN_BASE: [u32; 3] = [224, 225, 226];
/// `nature.var` indices of the same three variables.
pub const NATURE_CLAN_BASE: [u32; 3] = [0, 1, 2];

/// Named constants of the shared table (`docs/reference/runtime.md` §3.3.2, §3.3.3), in declaration order.
const CONSTANTS: &[(&str, &str)] = &[
    ("NONE", "0"),
    ("TARGET_BY_LOGIC_ID", "0x0201"),
    ("TARGET_BY_PLACE", "0x0202"),
    ("TARGET_BY_TYPE", "0x0203"),
    ("TARGET_NOT_DEFINED", "0x0204"),
    ("TARGET_BY_NAME", "0x0205"),
    ("ST_SOLVING", "1"),
    ("ST_SOLVED", "2"),
    ("dCurrentProblem", "0"),
];

const CLAN_BASE_NAMES: [&str; 3] = ["ClanBaseX", "ClanBaseY", "ClanID"];

/// The shared `varset.var`: constants, 31 floats, generic DWORD slots, the clan base
/// variables at 224..=226 and four more slots (231 declarations, CRLF).
pub fn shared_varset() -> Result<Varset> {
    let mut text = String::from("// varset.var: shared variable table of the iron3d demo\r\n\r\n");
    for (name, default) in CONSTANTS {
        text.push_str(&format!("VAR(DWORD, {name}, {default})\r\n"));
    }
    text.push_str("\r\n// tuning values\r\n");
    for i in 0..SHARED_FLOATS {
        text.push_str(&format!("VAR(float, fDemo{i:02}, {}.5)\r\n", i * 10));
    }
    text.push_str("\r\n// mission state\r\n");
    let generic = SHARED_CLAN_BASE[0] as usize - CONSTANTS.len() - SHARED_FLOATS;
    for i in 0..generic {
        text.push_str(&format!("VAR(DWORD, dDemo{i:03}, 0)\r\n"));
    }
    text.push_str("\r\n// written by Handler(19) from Init\r\n");
    for name in CLAN_BASE_NAMES {
        text.push_str(&format!("VAR(DWORD, {name}, 0)\r\n"));
    }
    let tail = SHARED_DECLARATIONS - SHARED_CLAN_BASE[2] as usize - 1;
    for i in 0..tail {
        text.push_str(&format!("VAR(DWORD, dSpare{i}, 0x{:X})\r\n", 0x10 << i));
    }
    Varset::parse(text.as_bytes())
}

/// The per-bundle `nature.var`: the three clan base variables and a weather switch.
pub fn nature_varset() -> Result<Varset> {
    let mut v = Varset::default();
    for name in CLAN_BASE_NAMES {
        v.push_var(VarType::Dword, name, "0")?;
    }
    v.push_var(VarType::Float, "fRainIntensity", "0.75")?;
    Ok(v)
}

/// Shared-table indices of the DWORD constants 0 (`NONE`) and 1 (`ST_SOLVING`).
pub const SHARED_ZERO_ONE: [u32; 2] = [0, 6];
/// The project's events that end the mission through Handler(30): `(name, payload ref)`.
pub const OUTCOME_EVENTS: [(&str, usize); 2] = [("Mission_Complete", 1), ("Mission_Failed", 0)];

/// A bundle's package: `Init` with one Handler(19) record on `refs`, then an empty
/// `Mission` event, then (with `outcome` = the references of 0 and 1) the outcome
/// events, each one Handler(30) record `(0, payload)`.
pub fn package(refs: [u32; 3], outcome: Option<[u32; 2]>) -> Result<ScrPackage> {
    let mut p = ScrPackage::new();
    p.add_event("Init", 0, vec![Record::handler19(refs[0], refs[1], refs[2])])?;
    p.add_event("Mission", 1, Vec::new())?;
    if let Some(zero_one) = outcome {
        for (i, (name, payload)) in OUTCOME_EVENTS.iter().enumerate() {
            p.add_event(name, 2 + i as u32, vec![Record::new(30, vec![zero_one[0], zero_one[*payload]])])?;
        }
    }
    Ok(p)
}

/// The `.fml` export: a plain listing of the events (the format has no grammar the
/// engine reads, `docs/reference/runtime.md` §3.1).
fn fml(bundle: &str, table: &str, refs: [u32; 3], outcome: Option<[u32; 2]>) -> FmlText {
    let mut text = format!(
        "// {bundle}.fml: formula export of the iron3d demo bundle `{bundle}`\r\n\
         // variables: {table}\r\n\
         Init:\r\n\
         \x20   Handler(19) {} {} {}  // ClanBaseX, ClanBaseY, ClanID\r\n\
         Mission:\r\n",
        refs[0], refs[1], refs[2]
    );
    if let Some(zero_one) = outcome {
        for (name, payload) in OUTCOME_EVENTS {
            text.push_str(&format!(
                "{name}:\r\n    Handler(30) {} {}  // host (0, 0, {payload})\r\n",
                zero_one[0], zero_one[payload]
            ));
        }
    }
    FmlText::parse(text.as_bytes())
}

/// The research tree file of the active clans.
pub const RESEARCH_TREE: &str = "default.trf";

/// Appends a NUL-terminated string to a pool and returns its offset.
fn pooled(pool: &mut Vec<u8>, text: &str) -> u32 {
    let at = pool.len() as u32;
    pool.extend_from_slice(text.as_bytes());
    pool.push(0);
    at
}

/// The research tree of the demo's clans, in the original's layout (`gameplay.md` §4,
/// openparkan `docs/16-research.md`): one item per chassis, turret and weapon
/// prototype, three levels of each kind, each level needing the one below.
/// `TRF0`: research energy and ore, build energy and ore (the project's numbers, of
/// the original's magnitudes), offsets into the `TRF7` short code, `TRF8` name, `TRF9`
/// description and `TRFA` stat template, the item's own `TRFB` entry, role, kind,
/// sub-kind, second sub-kind, size and level (`objects.dlb`'s classification: a
/// chassis `SHS:SHS` 9/32, a battle turret `SHS:TUR` 9/33 of role 2, a gun `WPN:GUN`
/// 12/49); `TRF1`: level 1 granted (7), level 2 open (5), level 3 waiting (4);
/// `TRF2`–`TRF5` the prerequisites and unlocks; `TRF6` the part ids (the registry
/// keys the robot schemes use) and `TRFB` each part's `TRF6` offset and item.
pub fn research_tree() -> Result<Vec<u8>> {
    let parts: Vec<_> =
        PROTOTYPES.iter().filter(|p| matches!(p.role, Role::Chassis | Role::Turret | Role::Weapon)).collect();
    let (mut nodes, mut states, mut part_map) = (Vec::new(), Vec::new(), Vec::new());
    let mut pools: [Vec<u8>; 5] = Default::default();
    let (mut pre_counts, mut pre_list, mut unlock_counts, mut unlock_list) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, proto) in parts.iter().enumerate() {
        let (kind, level) = (i / 3, i % 3);
        let (classification, role, base_ore) = match proto.role {
            Role::Chassis => ((9, 32), 255, 15.0),
            Role::Turret => ((9, 33), 2, 10.0),
            _ => ((12, 49), 255, 8.0),
        };
        let code = format!("{}{}", ["CH", "TU", "WE"][kind], level + 1);
        let texts = [
            code.clone(),
            format!("{} mk {}", proto.key.get(..4).unwrap_or(proto.key), level + 1),
            format!("Research {}", proto.key),
            format!("Unlocks {}", proto.key),
        ];
        let mut raw = [0u8; NODE_SIZE];
        let step = level as f32;
        let floats = [10.0 * step, 40.0 * step, 5.0 + 5.0 * step, base_ore * (1.0 + 2.0 * step)];
        for (j, f) in floats.iter().enumerate() {
            raw[4 * j..4 * j + 4].copy_from_slice(&f.to_le_bytes());
        }
        for (j, text) in texts.iter().enumerate() {
            raw[0x10 + 4 * j..0x14 + 4 * j].copy_from_slice(&pooled(&mut pools[1 + j], text).to_le_bytes());
        }
        raw[0x20..0x22].copy_from_slice(&(i as u16).to_le_bytes());
        raw[0x22..0x28].copy_from_slice(&[role, classification.0, classification.1, 255, 1, level as u8]);
        nodes.extend_from_slice(&raw);
        states.push([7, 5, 4][level]);
        let part_at = pooled(&mut pools[0], proto.key) as u16;
        part_map.extend_from_slice(&part_at.to_le_bytes());
        part_map.extend_from_slice(&(i as u16).to_le_bytes());
        pre_counts.extend_from_slice(&u32::from(level > 0).to_le_bytes());
        if level > 0 {
            pre_list.extend_from_slice(&(i as u32 - 1).to_le_bytes());
        }
        unlock_counts.extend_from_slice(&u32::from(level < 2).to_le_bytes());
        if level < 2 {
            unlock_list.extend_from_slice(&(i as u32 + 1).to_le_bytes());
        }
    }
    let mut w = NresWriter::new();
    let tables = [
        (b'0', nodes, NODE_SIZE),
        (b'1', states, 1),
        (b'2', pre_counts, 4),
        (b'3', pre_list, 4),
        (b'4', unlock_counts, 4),
        (b'5', unlock_list, 4),
        (b'B', part_map, 4),
    ];
    let pools = [b'6', b'7', b'8', b'9', b'A'].into_iter().zip(pools).map(|(d, p)| (d, p, 1));
    for (digit, data, size) in tables.into_iter().chain(pools) {
        let count = (data.len() / size) as u32;
        w.add(type_id(digit), [count, 0, size as u32], format!("TRF{}", digit as char).as_bytes(), data)?;
    }
    w.to_bytes()
}

/// Writes the scripts folder.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    tree.add(&format!("{DIR}/varset.var"), shared_varset()?.to_bytes())?;
    tree.add(&format!("{DIR}/{NATURE_BUNDLE}.var"), nature_varset()?.to_bytes())?;
    let bundles = [
        (DEFAULT_BUNDLE, "varset.var", SHARED_CLAN_BASE, Some(SHARED_ZERO_ONE)),
        (NATURE_BUNDLE, "nature.var", NATURE_CLAN_BASE, None),
    ];
    tree.add(&format!("{DIR}/{RESEARCH_TREE}"), research_tree()?)?;
    for (bundle, table, refs, outcome) in bundles {
        tree.add(&format!("{DIR}/{bundle}.scr"), package(refs, outcome)?.to_bytes()?)?;
        tree.add(&format!("{DIR}/{bundle}.fml"), fml(bundle, table, refs, outcome).to_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::script::init::HANDLER_CLAN_BASE;
    use iron3d_formats::script::scr::HANDLER_COUNT;
    use iron3d_formats::script::{AnchorRule, InitPlan, Selector, StringIndexing, plan_init};
    use iron3d_formats::world::Tma;

    fn file<'a>(tree: &'a DemoTree, name: &str) -> &'a [u8] {
        tree.get(&format!("{DIR}/{name}")).unwrap_or_else(|| panic!("{name} missing"))
    }

    #[test]
    fn shared_varset_has_the_gog_shape() {
        let tree = build(DEFAULT_SEED).unwrap();
        let bytes = file(&tree, "varset.var");
        let v = Varset::parse(bytes).unwrap();
        assert_eq!(v.to_bytes(), bytes);
        let decls = v.declarations(StringIndexing::Counted);
        assert_eq!(decls.len(), SHARED_DECLARATIONS);
        assert_eq!(decls, v.declarations(StringIndexing::Skipped), "no STRING lines: both readings agree");
        let floats = decls.iter().filter(|(_, d)| d.unwrap().ty == VarType::Float).count();
        assert_eq!(floats, SHARED_FLOATS);
        for (index, name) in SHARED_CLAN_BASE.iter().zip(CLAN_BASE_NAMES) {
            let d = v.get(*index as usize, StringIndexing::Counted).unwrap();
            assert_eq!((d.name.as_slice(), d.ty), (name.as_bytes(), VarType::Dword));
        }
        assert_eq!(v.get(7, StringIndexing::Counted).unwrap().initial_word(), 2, "ST_SOLVED = 2");
        let names: std::collections::BTreeSet<_> = decls.iter().map(|(_, d)| d.unwrap().name.clone()).collect();
        assert_eq!(names.len(), decls.len(), "names are unique");
    }

    #[test]
    fn every_clan_bundle_has_an_init_with_handler_19() {
        let tree = build(DEFAULT_SEED).unwrap();
        let mut bundles = std::collections::BTreeSet::new();
        for spec in crate::missions::MISSIONS {
            let tma =
                Tma::parse(tree.get(&format!("{}/data.tma", spec.folder())).unwrap(), ReadOptions::strict()).unwrap();
            for clan in &tma.clans {
                let path = clan.script.display();
                let bundle = path.strip_prefix("MISSIONS\\SCRIPTS\\").unwrap_or_else(|| panic!("{path}")).to_string();
                bundles.insert(bundle);
            }
        }
        assert_eq!(bundles.iter().map(String::as_str).collect::<Vec<_>>(), [DEFAULT_BUNDLE, NATURE_BUNDLE]);
        for bundle in &bundles {
            let bytes = file(&tree, &format!("{bundle}.scr"));
            let pkg = ScrPackage::parse(bytes, ReadOptions::strict()).unwrap();
            assert_eq!(pkg.to_bytes().unwrap(), bytes);
            pkg.check_version(HANDLER_COUNT).unwrap();
            let init = pkg.event("Init").unwrap();
            assert_eq!(init.records.len(), 1);
            assert_eq!(init.records[0].selector(), Selector::Handler(HANDLER_CLAN_BASE));
            // The loader takes `<bundle>.var` first, the shared table otherwise.
            let table = tree.get(&format!("{DIR}/{bundle}.var")).unwrap_or_else(|| file(&tree, "varset.var"));
            let vars = Varset::parse(table).unwrap();
            let InitPlan::Writes(writes) = plan_init(&pkg, 500.2857, 752.0, 1, AnchorRule::Truncate).unwrap() else {
                panic!("{bundle}: Init is not fully supported");
            };
            let named: Vec<(String, u32)> = writes
                .iter()
                .map(|(i, w)| {
                    (
                        String::from_utf8(vars.get(*i as usize, StringIndexing::Counted).unwrap().name.clone())
                            .unwrap(),
                        *w,
                    )
                })
                .collect();
            assert_eq!(named, [("ClanBaseX".into(), 500), ("ClanBaseY".into(), 752), ("ClanID".into(), 1)], "{bundle}");
            let fml = file(&tree, &format!("{bundle}.fml"));
            assert_eq!(FmlText::parse(fml).to_bytes(), fml);
            assert!(FmlText::parse(fml).display_lines().iter().any(|l| l.contains("Handler(19)")));
        }
    }

    #[test]
    fn the_default_bundle_ends_the_mission_through_handler_30() {
        let tree = build(DEFAULT_SEED).unwrap();
        let pkg = ScrPackage::parse(file(&tree, "default.scr"), ReadOptions::strict()).unwrap();
        let vars = Varset::parse(file(&tree, "varset.var")).unwrap();
        let word = |i: u32| vars.get(i as usize, StringIndexing::Counted).unwrap().initial_word();
        for (name, payload) in OUTCOME_EVENTS {
            let e = pkg.event(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(e.records.len(), 1);
            assert_eq!(e.records[0].selector(), Selector::Handler(30));
            let r = &e.records[0].refs;
            assert_eq!((word(r[0]), word(r[1])), (0, payload as u32), "{name}: host (0, 0, {payload})");
            assert_eq!(vars.get(r[1] as usize, StringIndexing::Counted).unwrap().ty, VarType::Dword);
        }
        let nature = ScrPackage::parse(file(&tree, "nature.scr"), ReadOptions::strict()).unwrap();
        assert!(nature.event("Mission_Complete").is_none());
    }

    #[test]
    fn research_tree_reads_back_and_names_registry_keys() {
        use iron3d_formats::helpers::Trf;
        use iron3d_formats::nres::Nres;
        let tree = build(DEFAULT_SEED).unwrap();
        let bytes = file(&tree, RESEARCH_TREE);
        let trf = Trf::parse(bytes, ReadOptions::strict()).unwrap();
        assert_eq!(trf.to_bytes(), bytes);
        assert_eq!(trf.nodes.len(), 9);
        let registry = Nres::parse(tree.get("objects.rlb").unwrap(), ReadOptions::strict()).unwrap();
        let opts = ReadOptions::strict();
        let parts = trf.parts(opts).unwrap();
        assert_eq!(parts.len(), 9);
        for (i, node) in trf.nodes.iter().enumerate() {
            let (part, item) = &parts[usize::from(node.part_entry())];
            assert_eq!(usize::from(*item), i, "the item's own part entry names it");
            assert!(registry.get(part).is_some(), "item {i}: {} is a prototype", String::from_utf8_lossy(part));
            let [_, long, ..] = node.string_offsets();
            assert!(!trf.string(b'8', long, opts).unwrap().is_empty());
            assert_eq!(node.type_bytes()[5] as usize, i % 3, "upgrade level");
            assert!(node.costs().build_ore > 0.0);
        }
        let states = trf.initial_states(opts).unwrap();
        assert_eq!(states.iter().filter(|s| **s == 7).count(), 3, "one granted item per kind");
        let archive = Nres::parse(bytes, opts).unwrap();
        for e in archive.entries() {
            assert_eq!(e.attr1 * e.attr3, e.size, "{}: count x size", e.display_name());
        }
    }
}
