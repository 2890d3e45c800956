//! `behpsp.res`, the behaviour profiles (gameplay.md §3.1; dragonee/openparkan
//! `docs/23-economy.md`, measured): an NRes archive of binary variable sets, one per
//! role (`prof_generator.var`, `prof_mine.var`, ...), read at the load's context phase
//! and published as [`BehaviourProfiles`].

use iron3d_core::BehaviourProfiles;
use iron3d_formats::error::ErrorKind;
use iron3d_formats::script::VarBin;
use iron3d_formats::{Error, Result};
use iron3d_vfs::GameDir;

/// The archive, at the game's root.
pub const FILE: &str = "behpsp.res";

/// The profiles of `game`: none when it has no `behpsp.res` (every building then holds
/// the original's compiled defaults); a member that does not parse refuses the load,
/// naming the archive, the member and the offset.
pub fn read(game: &GameDir) -> Result<BehaviourProfiles> {
    let archive = match game.archive(FILE) {
        Ok(a) => a,
        Err(e) if matches!(e.kind, ErrorKind::NotFound(_)) && game.resolve(FILE).is_none() => {
            tracing::info!(target: "mission", "{FILE}: none in the data; buildings hold the compiled defaults");
            return Ok(BehaviourProfiles::default());
        }
        Err(e) => return Err(e),
    };
    let mut profiles = BehaviourProfiles { source: Some(archive.name().to_owned()), ..Default::default() };
    for (index, entry) in archive.list().into_iter().enumerate() {
        let bytes = archive.read_index(index)?;
        let set = VarBin::parse(&bytes).map_err(|e| e.in_entry(entry.name.clone()).in_file(FILE))?;
        let mut variables = std::collections::BTreeMap::new();
        for item in &set.items {
            let name = String::from_utf8_lossy(&item.name).into_owned();
            let value = item.typed().number().ok_or_else(|| {
                Error::rule("profile_type", format!("variable {name} has type {}", item.value_type))
                    .in_entry(entry.name.clone())
                    .in_file(FILE)
            })?;
            variables.insert(name, value);
        }
        let key = entry.name.to_ascii_lowercase();
        profiles.profiles.insert(key.strip_suffix(".var").unwrap_or(&key).to_owned(), variables);
    }
    Ok(profiles)
}
