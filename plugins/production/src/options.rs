//! What each clan can build in this mission's data ([`BuildOptions`], the project's rule
//! over `docs/reference/world.md` §5.1): at game start, every robot scheme (class bit `0x01000000`)
//! but the hero's placed for any clan of the mission and every scheme an `object prebuild` block of the mission's
//! `mission.cfg` names (`docs/reference/runtime.md` §2.6 grammar; the project reads any parameter value
//! ending in `.dat` as a scheme path, quotes trimmed). Each is resolved through the
//! mission's backend with its production cost; one that does not resolve is reported
//! and left out. Nothing depends on a scheme's file name. (A research tree names parts,
//! never schemes: what its clan may build of these is research's decision.) Nature and
//! the neutral clans build nothing.

use crate::step::{report, rules};
use bevy_ecs::prelude::*;
use iron3d_core::{
    BuildOption, BuildOptions, ClanType, MissionClans, ProductionEvent, SchemeNames, ScriptFiles, UnitClass,
};
use iron3d_formats::config::BlockCfg;
use iron3d_mission::{LoadedMission, MISSIONS_DIR, MissionObject, PreparedObject, resolve_object};
use iron3d_rules::ROBOT_CLASS_BIT;
use std::collections::BTreeSet;

/// The block of `mission.cfg` that names schemes built before the mission (docs/reference/world.md §5.1).
pub const PREBUILD_BLOCK: &str = "prebuild";

/// The scheme paths the `object prebuild` blocks of a `mission.cfg` name, in file order.
///
/// # Errors
/// The located parse error of the file.
pub fn prebuild_schemes(path: &str, bytes: &[u8]) -> Result<Vec<String>, String> {
    let cfg = BlockCfg::parse(bytes).map_err(|e| format!("{path}: {e}"))?;
    let values = cfg
        .blocks()
        .filter(|b| b.name().eq_ignore_ascii_case(PREBUILD_BLOCK.as_bytes()))
        .flat_map(|b| b.params().map(|(_, v)| String::from_utf8_lossy(v).trim().trim_matches('"').to_string()))
        .filter(|v| v.to_ascii_lowercase().ends_with(".dat"))
        .collect();
    Ok(values)
}

/// The schemes of the mission's `mission.cfg` prebuild blocks (none without the file).
fn prebuilt(world: &World, files: &dyn ScriptFiles) -> Result<Vec<String>, String> {
    let Some(mission) = world.get_resource::<LoadedMission>() else { return Ok(Vec::new()) };
    let path = format!("{MISSIONS_DIR}/{}/mission.cfg", mission.name);
    match files.read(&path)? {
        Some(bytes) => prebuild_schemes(&path, &bytes),
        None => Ok(Vec::new()),
    }
}

/// Publishes [`BuildOptions`] at game start (after the research trees are loaded); a
/// scheme that does not resolve, a clan with nothing to build and an unreadable
/// `mission.cfg` are each reported once.
pub(crate) fn publish(world: &mut World) {
    let Some(clans) = world.get_resource::<MissionClans>().cloned() else { return };
    let mut shared: BTreeSet<String> = world
        .query::<(&MissionObject, &UnitClass)>()
        .iter(world)
        .filter(|(_, c)| c.0 & ROBOT_CLASS_BIT != 0 && !c.is_hero())
        .map(|(o, _)| o.key.clone())
        .collect();
    let mut problems = Vec::new();
    match prebuilt(world, clans.files.as_ref()) {
        Ok(names) => shared.extend(names),
        Err(e) => problems.push(format!("prebuild schemes: {e}")),
    }
    let mut options = BuildOptions::default();
    // Nature and the neutral clans build nothing (a neutral never acts by itself,
    // `gameplay.md` §1.3).
    for clan in clans.clans.iter().filter(|c| ![ClanType::NATURE, ClanType::NEUTRAL].contains(&c.mode)) {
        let me = clan.index as i32;
        let mut found: Vec<BuildOption> = Vec::new();
        for name in &shared {
            match option(world, name) {
                Ok(Some(o)) if !found.iter().any(|f| f.scheme == o.scheme) => found.push(o),
                Ok(_) => {}
                Err(e) => problems.push(format!("clan {me}: {e}")),
            }
        }
        if found.is_empty() {
            problems.push(format!("clan {me} ({}) has nothing to build in this mission's data", clan.name));
        }
        let names = world.resource::<SchemeNames>();
        found.sort_by(|a, b| names.name(a.scheme).cmp(&names.name(b.scheme)));
        options.clans.insert(me, found);
    }
    world.insert_resource(options);
    for p in problems {
        report(world, ProductionEvent::Rejected, Vec::new(), p);
    }
}

/// The build option of `name`: `None` when it is no robot scheme with a production cost.
fn option(world: &mut World, name: &str) -> Result<Option<BuildOption>, String> {
    let rules = rules(world)?;
    let mut object = PreparedObject::probe(u32::MAX, name);
    resolve_object(world, &mut object).map_err(|e| format!("scheme {name}: {e}"))?;
    let Some(class) = object.extras.unit_class.filter(|c| c & ROBOT_CLASS_BIT != 0) else { return Ok(None) };
    let component_types: Vec<u32> = object.components.iter().map(|c| c.component_type).collect();
    if rules.robot_cost(class, &component_types).is_none() {
        return Ok(None);
    }
    let scheme = world.resource_mut::<SchemeNames>().intern(name)?;
    Ok(Some(BuildOption { scheme, class, component_types }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn prebuild_blocks_name_schemes() {
        let cfg = b"object ambient_music_loop\r\n    THEME a.wav\r\nend\r\n\
            object prebuild\r\n    desc Robots of the mission\r\n    unit1 \"UNITS\\R\\A.DAT\"\r\n    unit2 units\\r\\b.dat\r\nend\r\n";
        let names = super::prebuild_schemes("m.cfg", cfg).unwrap();
        assert_eq!(names, ["UNITS\\R\\A.DAT", "units\\r\\b.dat"]);
        let e = super::prebuild_schemes("m.cfg", b"object prebuild\r\n").unwrap_err();
        assert!(e.starts_with("m.cfg: ") && e.contains("cfg_unterminated"), "{e}");
    }
}
