//! `objects.rlb`, unit schemes and the building categories.

use crate::catalogue::{
    AI_DESIGNS, ANIMAL, BUILDER, HAULER, HERO, MAPS, MINE_LADDER, PROTOTYPES, Proto, ROBOTS, Role,
    building_scheme_path, map_dir,
};
use crate::models::robots::{CHASSIS_MOUNT, TURRET_MOUNT};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::registry::objects::{ObjectRef64, write_refs};
use iron3d_formats::registry::unit_dat::{MAGIC, TYPE_CANNON, TYPE_TURRET, UnitDat, UnitRecord};
use iron3d_formats::registry::{BuildCategory, BuildDat};

/// The references of a prototype, in stored order.
pub fn refs(proto: &Proto) -> Result<Vec<ObjectRef64>> {
    let (a, s) = (proto.archive, proto.stem);
    let r = |ext: &str| ObjectRef64::new(a, &format!("{s}.{ext}"));
    Ok(match proto.role {
        Role::Building(_) => vec![r("msh")?, r("wea")?, r("cpt")?, r("ctl")?, r("ndp")?],
        // The sixth names its locomotion profile, as the original's chassis records do.
        Role::Chassis => {
            let profile = crate::models::robots::chassis_profile(s).unwrap_or("chas_wlk");
            let profile = ObjectRef64::new(crate::profiles::FILE, &format!("{profile}.var"))?;
            vec![r("msh")?, r("wea")?, r("cpt")?, r("ctl")?, r("ndp")?, profile]
        }
        Role::FortParent => vec![r("msh")?, r("wea")?, r("cpt")?, r("ctl")?],
        Role::Turret => vec![r("msh")?, r("wea")?, r("cpt")?, r("ctl")?, r("ndp")?],
        Role::Weapon => vec![r("msh")?, r("wea")?, r("ctl")?, r("ndp")?],
        Role::Scenery | Role::Broken => vec![r("msh")?, r("wea")?],
        Role::Round => vec![r("ctl")?, r("ndp")?],
        Role::Fortification { parent } => vec![ObjectRef64::new("objects.rlb", parent)?, r("bas")?],
        Role::System => vec![r("sun")?],
    })
}

fn scheme(class_word: u32, description: &str, chain: &[&str]) -> Result<Vec<u8>> {
    let mut header = [0u8; 8];
    header[..2].copy_from_slice(&MAGIC);
    header[4..].copy_from_slice(&class_word.to_le_bytes());
    let records = chain
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let (component_type, link) = match i {
                0 => (0, -1),
                1 => (TYPE_TURRET, CHASSIS_MOUNT as i32),
                _ => (TYPE_CANNON, TURRET_MOUNT as i32),
            };
            let children = u32::from(i + 1 < chain.len());
            let text = if i == 0 { description.to_string() } else { format!("{description} {key}") };
            UnitRecord::new(key, 1, link, text.as_bytes(), component_type, children)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(UnitDat { header, records }.to_bytes())
}

/// The path of a generated file from a game path (backslashes become `/`).
pub fn file_path(game_path: &str) -> String {
    game_path.replace('\\', "/")
}

/// The `BuildDat.lst` of every map: one scheme per category, the Mine's with its upgrade.
pub fn build_dat() -> BuildDat {
    let sections = BuildCategory::TABLE
        .iter()
        .filter_map(|&(category, _, _)| {
            let first = PROTOTYPES.iter().find(|p| p.role == Role::Building(category))?;
            let upgrades = MINE_LADDER.iter().filter(|_| category == BuildCategory::Mine).map(|p| p.to_string());
            Some((category, std::iter::once(building_scheme_path(first.key)).chain(upgrades).collect()))
        })
        .collect();
    BuildDat { sections }
}

/// Writes `objects.rlb`, every unit scheme (the robots, the AI's designs, the hauler, the
/// animal) and each map's `BuildDat.lst`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let mut objects = NresWriter::new();
    for proto in PROTOTYPES {
        objects.add(0, [0; 3], proto.key.as_bytes(), write_refs(&refs(proto)?))?;
    }
    tree.add("objects.rlb", objects.to_bytes()?)?;
    for unit in ROBOTS.iter().chain(AI_DESIGNS).chain([&HAULER, &ANIMAL, &BUILDER, &HERO]) {
        tree.add(&file_path(unit.path), scheme(unit.class_word, unit.description, unit.chain)?)?;
    }
    for proto in PROTOTYPES {
        if let Role::Building(category) = proto.role {
            let path = file_path(&building_scheme_path(proto.key));
            tree.add(&path, scheme(category.mask(), category.name(), &[proto.key])?)?;
        }
    }
    let mine = PROTOTYPES.iter().find(|p| p.role == Role::Building(BuildCategory::Mine)).map_or("", |p| p.key);
    for path in MINE_LADDER {
        tree.add(&file_path(path), scheme(BuildCategory::Mine.mask(), BuildCategory::Mine.name(), &[mine])?)?;
    }
    let list = build_dat().to_text().into_bytes();
    for map in MAPS {
        tree.add(&file_path(&format!("{}\\BuildDat.lst", map_dir(map))), list.clone())?;
    }
    Ok(())
}
