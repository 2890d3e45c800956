//! The game data a run was made with: each layer's name and content fingerprint (the
//! project's data, the game directory, mods; see `iron3d_vfs::layer`), published by the
//! mission load and hashed first into every state hash, so that two runs agree only
//! when their data does.

use bevy_ecs::prelude::{ReflectResource, Resource};
use bevy_reflect::Reflect;

/// One layer of the data: name and content fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct DataLayer {
    /// The layer's name (`project`, `game`, `mod:NAME`).
    pub name: String,
    /// Its content fingerprint.
    pub fingerprint: u64,
}

/// The layers of the loaded mission's data, bottom first (absent: a mission built
/// without a game directory, e.g. a synthetic test world).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct DataLayers(pub Vec<DataLayer>);

impl std::fmt::Display for DataLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:016x}", self.name, self.fingerprint)
    }
}

/// `project 0123456789abcdef + game ... + mod:NAME ...`, bottom first.
impl std::fmt::Display for DataLayers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(no data layers)");
        }
        for (i, layer) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{layer}")?;
        }
        Ok(())
    }
}
