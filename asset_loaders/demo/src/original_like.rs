//! A copy of the demo laid out like an installed original, to prove that the rules
//! depend on the data and not on the demo's names: every robot unit scheme under
//! `UNITS/ROBOTS` gets a name in the original's style (`W_M_TNK1.DAT`, …, in path
//! order), every mission's placed objects follow the new names, and every property the
//! original is not seen to use (`docs/reference/world.md` §1.6, e.g. the project's `PatrolPath` and
//! `FollowPath`) is dropped, the project's cue table `iron3d.cues.ron` is left out, and the
//! interface's files are spelt in upper case (`UI/HQ.CFG`).

use crate::tree::DemoTree;
use iron3d_formats::world::{LpString, Tma};
use iron3d_formats::{ReadOptions, Result};
use std::collections::BTreeMap;

/// The folder of the robot schemes (as the tree spells it).
const ROBOTS: &str = "UNITS/ROBOTS/";

/// Property names seen on the original's placed objects (`docs/reference/world.md` §1.6).
pub const ORIGINAL_PROPERTIES: &[&str] = &[
    "Invulnerability",
    "Life state",
    "LogicalID",
    "ClanID",
    "Type",
    "MaxSpeedPercent",
    "MaximumOre",
    "CurrentOre",
    "ChargeRadius",
    "FreeBotNum",
    "FreeTechnoNum",
    "FreeConstructionTime",
    "FreeResearchTime",
    "NOT USED",
];

/// A game path as compared: ASCII lower case, backslashes.
fn key(path: &str) -> String {
    path.to_ascii_lowercase().replace('/', "\\")
}

/// The original-like copy of `tree`.
///
/// # Errors
/// A mission file that does not parse or write.
pub fn rewrite(tree: &DemoTree) -> Result<DemoTree> {
    let renamed: BTreeMap<String, String> = tree
        .files()
        .map(|(path, _)| path)
        .filter(|p| p.starts_with(ROBOTS) && p.to_ascii_lowercase().ends_with(".dat"))
        .enumerate()
        .map(|(i, p)| (key(p), format!("{ROBOTS}W_M_TNK{}.DAT", i + 1)))
        .collect();
    let mut out = DemoTree::default();
    for (path, bytes) in tree.files() {
        if key(path) == "iron3d.cues.ron" {
            // The project's cue table: an installed original has none.
            continue;
        } else if let Some(new) = renamed.get(&key(path)) {
            out.add(new, bytes.to_vec())?;
        } else if key(path).starts_with("ui\\") {
            // The interface's files in another letter case than the project writes.
            out.add(&path.to_ascii_uppercase(), bytes.to_vec())?;
        } else if path.to_ascii_lowercase().ends_with("/data.tma") {
            out.add(path, mission(bytes, &renamed)?)?;
        } else {
            out.add(path, bytes.to_vec())?;
        }
    }
    Ok(out)
}

/// A `data.tma` with renamed schemes and only the original's properties.
fn mission(bytes: &[u8], renamed: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    let mut tma = Tma::parse(bytes, ReadOptions::strict())?;
    for o in &mut tma.objects {
        let name = key(&String::from_utf8_lossy(o.resource_name.as_bytes()));
        if let Some(new) = renamed.get(&name) {
            o.resource_name = LpString(new.replace('/', "\\").into_bytes());
        }
        o.properties.retain(|p| ORIGINAL_PROPERTIES.iter().any(|n| n.as_bytes() == p.name.as_bytes()));
    }
    tma.to_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_schemes_are_renamed_everywhere_and_project_properties_dropped() {
        let tree = crate::build(crate::DEFAULT_SEED).unwrap();
        let copy = rewrite(&tree).unwrap();
        assert!(copy.files().all(|(p, _)| !p.starts_with(ROBOTS) || p.contains("W_M_TNK")));
        let schemes = copy.files().filter(|(p, _)| p.starts_with(ROBOTS)).count();
        assert_eq!(schemes, tree.files().filter(|(p, _)| p.starts_with(ROBOTS)).count());
        let tma = Tma::parse(copy.get("MISSIONS/tutorial.01/data.tma").unwrap(), ReadOptions::strict()).unwrap();
        let robots: Vec<String> = tma
            .objects
            .iter()
            .map(|o| String::from_utf8_lossy(o.resource_name.as_bytes()).into_owned())
            .filter(|n| n.starts_with("UNITS\\ROBOTS\\"))
            .collect();
        assert!(!robots.is_empty() && robots.iter().all(|n| n.contains("W_M_TNK")), "{robots:?}");
        let properties = tma.objects.iter().flat_map(|o| &o.properties);
        assert!(properties.clone().all(|p| ORIGINAL_PROPERTIES.iter().any(|n| n.as_bytes() == p.name.as_bytes())));
        assert!(properties.clone().any(|p| p.name.as_bytes() == b"ClanID"), "the original's are kept");
    }
}
