//! Campaign progress (spec `runtime.md` §14: applying a mission-complete event is
//! idempotent): the missions the player completed, kept in the user's data directory,
//! never in the game directory (the original wrote `MISSIONS/dispatcher.ini`; we do
//! not write into an installed game). The file is `progress.ron`, versioned, written
//! through a temporary file and a rename so a crash never leaves half a file.

use bevy::prelude::*;
use iron3d_vfs::user_files::{self, Versioned};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The progress file's version.
pub const VERSION: u32 = 1;
/// The file name inside the user data directory.
pub const FILE: &str = "progress.ron";

/// The completed missions and where they are kept.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignProgress {
    /// File version.
    pub version: u32,
    /// Completed mission names (folders under `MISSIONS`).
    pub completed: BTreeSet<String>,
    /// The file (none when no user data directory is known: progress is not kept).
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

impl Versioned for CampaignProgress {
    const VERSION: u32 = VERSION;
    fn version(&self) -> u32 {
        self.version
    }
}

impl CampaignProgress {
    /// Reads the progress kept in `dir` (empty when there is no file yet).
    ///
    /// # Errors
    /// The file exists but cannot be read, is not valid RON, or has another version.
    pub fn load(dir: &Path) -> Result<Self, String> {
        let path = dir.join(FILE);
        let mut progress = user_files::read::<Self>(&path)?.unwrap_or(Self { version: VERSION, ..Self::default() });
        progress.path = Some(path);
        Ok(progress)
    }

    /// Marks `mission` completed and saves; completing it again changes nothing and
    /// writes nothing. Returns whether the progress changed.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn complete(&mut self, mission: &str) -> Result<bool, String> {
        if !self.completed.insert(mission.to_string()) {
            return Ok(false);
        }
        let Some(path) = &self.path else { return Ok(true) };
        user_files::write(path, self)?;
        Ok(true)
    }
}

/// Loads the progress at start-up (a broken file is reported and left untouched:
/// progress is then not kept for this run).
pub fn load(mut commands: Commands) {
    let progress = match user_files::data_dir().map(|d| CampaignProgress::load(&d)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            warn!("campaign progress not kept: {e}");
            CampaignProgress::default()
        }
        None => CampaignProgress::default(),
    };
    commands.insert_resource(progress);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completing_a_mission_is_kept_and_idempotent() {
        let dir = std::env::temp_dir().join(format!("iron3d-progress-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut p = CampaignProgress::load(&dir).unwrap();
        assert!(p.completed.is_empty());
        assert!(p.complete("tutorial.01").unwrap());
        let written = std::fs::read_to_string(dir.join(FILE)).unwrap();
        assert!(!p.complete("tutorial.01").unwrap(), "a repeat changes nothing");
        assert_eq!(std::fs::read_to_string(dir.join(FILE)).unwrap(), written, "and writes nothing");
        let again = CampaignProgress::load(&dir).unwrap();
        assert_eq!(again.completed, BTreeSet::from(["tutorial.01".to_string()]));
        std::fs::write(dir.join(FILE), "(version: 9, completed: [])").unwrap();
        assert!(CampaignProgress::load(&dir).unwrap_err().contains("version 9"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
