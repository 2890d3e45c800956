//! Campaign progress (`docs/reference/runtime.md` §14): a mission exists (listed), is available or
//! locked, started, succeeded or failed, and its result is applied once (applying the
//! same outcome again changes nothing and writes nothing).
//!
//! Progress lives in the user's data directory (`progress.ron`, versioned, written
//! through a temporary file and a rename), never in the game directory, and is kept
//! apart per game data by the catalogue's fingerprint. The original's
//! `MISSIONS/dispatcher.ini` is read as the starting progress; the project's reading
//! of its `[COMPLETE]` section: each key names a mission (any form
//! [`MissionName::parse`] accepts, e.g. `CAMPAIGN.01\MISSION.02`), an integer value
//! other than 0 marks it completed, 0 leaves it as the user's progress says.
//!
//! A campaign mission is available when it is the first of its campaign or the one
//! before it is completed, else locked; single and tutorial missions are never locked.

use crate::catalogue::{Catalogue, MissionEntry, MissionName};
use iron3d_core::Outcome;
use iron3d_formats::config::IniFile;
use iron3d_vfs::GameDir;
use iron3d_vfs::user_files::{self, Versioned};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The progress file's version (1: a set of completed folder names, for any data).
pub const VERSION: u32 = 2;
/// The file name inside the user data directory.
pub const FILE: &str = "progress.ron";
/// The original's progress file (read only).
pub const DISPATCHER: &str = "MISSIONS/dispatcher.ini";
/// The key under which version 1's completed missions wait for the first game data
/// progress is recorded for (version 1 did not say which data they belong to).
const UNASSIGNED: &str = "version-1";

/// A mission's state as the menu and `mission list` show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissionState {
    /// Completed at least once.
    Completed,
    /// The last applied outcome failed, and it was never completed.
    Failed,
    /// Can be played.
    Available,
    /// A campaign mission whose predecessor is not completed.
    Locked,
}

impl MissionState {
    /// Lower-case name (JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Available => "available",
            Self::Locked => "locked",
        }
    }
}

/// An applied mission result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionResult {
    /// Host callback `(0, 0, 1)`.
    Completed,
    /// Host callback `(0, 0, 0)`, or the player's clan defeated.
    Failed,
}

impl From<Outcome> for MissionResult {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Completed => Self::Completed,
            Outcome::Failed | Outcome::Defeated => Self::Failed,
        }
    }
}

/// What is kept of one mission.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionRecord {
    /// Started at least once.
    #[serde(default)]
    pub started: bool,
    /// Completed at least once.
    #[serde(default)]
    pub completed: bool,
    /// The last applied result and the difficulty it was played at.
    #[serde(default)]
    pub last: Option<(MissionResult, String)>,
}

/// The progress of one game data (one catalogue fingerprint).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameProgress {
    /// Mission name -> record.
    #[serde(default)]
    pub missions: BTreeMap<String, MissionRecord>,
}

/// Every game data's progress and where it is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignProgress {
    /// File version.
    pub version: u32,
    /// Catalogue fingerprint -> progress.
    #[serde(default)]
    pub games: BTreeMap<String, GameProgress>,
    /// Version 1's completed folder names (emptied by the migration).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    completed: BTreeSet<String>,
    /// The file (none: progress is not kept on disk).
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

impl Versioned for CampaignProgress {
    const VERSION: u32 = VERSION;
    fn version(&self) -> u32 {
        self.version
    }
    fn migrate(&mut self) -> Result<(), String> {
        match self.version {
            1 => {
                migrate_v1(self);
                Ok(())
            }
            v => Err(format!("version {v} cannot be migrated")),
        }
    }
}

/// Version 1 -> 2: the completed names wait under [`UNASSIGNED`] for the first game data
/// whose progress is recorded.
fn migrate_v1(p: &mut CampaignProgress) {
    let missions = std::mem::take(&mut p.completed)
        .into_iter()
        .filter_map(|n| MissionName::parse(&n).ok())
        .map(|n| (n.as_str().to_string(), MissionRecord { started: true, completed: true, last: None }))
        .collect();
    p.games.insert(UNASSIGNED.into(), GameProgress { missions });
    p.version = 2;
}

impl CampaignProgress {
    /// Reads the progress kept in `dir` (empty when there is no file yet).
    ///
    /// # Errors
    /// The file exists but cannot be read, is not valid RON, or has an unknown version.
    pub fn load(dir: &Path) -> Result<Self, String> {
        let path = dir.join(FILE);
        let mut progress = user_files::read::<Self>(&path)?.unwrap_or(Self { version: VERSION, ..Self::default() });
        progress.path = Some(path);
        Ok(progress)
    }

    /// The record of `name` for the game data `fingerprint`.
    pub fn record(&self, fingerprint: &str, name: &MissionName) -> Option<&MissionRecord> {
        let game = self.games.get(fingerprint).or_else(|| self.games.get(UNASSIGNED))?;
        game.missions.get(name.as_str())
    }

    fn update(
        &mut self,
        fingerprint: &str,
        name: &MissionName,
        change: impl FnOnce(&mut MissionRecord),
    ) -> Result<bool, String> {
        let mut next = self.clone();
        if !next.games.contains_key(fingerprint) {
            let adopted = next.games.remove(UNASSIGNED).unwrap_or_default();
            next.games.insert(fingerprint.to_string(), adopted);
        }
        let game = next.games.entry(fingerprint.to_string()).or_default();
        change(game.missions.entry(name.as_str().to_string()).or_default());
        if next == *self {
            return Ok(false);
        }
        if let Some(path) = &self.path {
            user_files::write(path, &next)?;
        }
        *self = next;
        Ok(true)
    }

    /// Marks `name` started; returns whether the progress changed.
    ///
    /// # Errors
    /// The file cannot be written (the progress in memory is unchanged).
    pub fn start(&mut self, fingerprint: &str, name: &MissionName) -> Result<bool, String> {
        self.update(fingerprint, name, |r| r.started = true)
    }

    /// Applies a mission's outcome played at `difficulty`; applying the same outcome
    /// again changes nothing and writes nothing. Returns whether the progress changed.
    ///
    /// # Errors
    /// The file cannot be written (the progress in memory is unchanged).
    pub fn apply(
        &mut self,
        fingerprint: &str,
        name: &MissionName,
        outcome: Outcome,
        difficulty: &str,
    ) -> Result<bool, String> {
        let result = MissionResult::from(outcome);
        self.update(fingerprint, name, |r| {
            r.started = true;
            r.completed |= result == MissionResult::Completed;
            r.last = Some((result, difficulty.to_string()));
        })
    }
}

/// The missions of one game data with its campaign reading: the catalogue, its
/// fingerprint and the missions `dispatcher.ini` marks completed.
#[derive(Debug, Clone, Default)]
pub struct Campaign {
    /// The listed missions.
    pub catalogue: Catalogue,
    /// The catalogue's fingerprint (the progress key).
    pub fingerprint: String,
    /// Missions `dispatcher.ini` marks completed.
    pub dispatcher: BTreeSet<MissionName>,
    /// What could not be read of `dispatcher.ini` (located, for the log).
    pub warnings: Vec<String>,
}

impl Campaign {
    /// Discovers the missions of `game` and reads its `dispatcher.ini`.
    pub fn open(game: &GameDir) -> Self {
        let catalogue = Catalogue::discover(game);
        let fingerprint = catalogue.fingerprint();
        let mut campaign = Self { catalogue, fingerprint, ..Self::default() };
        if let Ok(bytes) = game.read_file(DISPATCHER) {
            campaign.read_dispatcher(&bytes);
        }
        campaign
    }

    fn read_dispatcher(&mut self, bytes: &[u8]) {
        let ini = IniFile::parse(bytes);
        for v in ini.entries().into_iter().filter(|v| v.section.eq_ignore_ascii_case(b"COMPLETE")) {
            let Some(key) = ini.lines[v.line].key() else { continue };
            let key = String::from_utf8_lossy(key);
            let at = format!("{DISPATCHER}: line {}, key `{key}`", v.line + 1);
            let name = match MissionName::parse(&key) {
                Ok(n) if self.catalogue.get(&n).is_some() => n,
                Ok(n) => {
                    self.warnings.push(format!("{at}: no listed mission {n}"));
                    continue;
                }
                Err(e) => {
                    self.warnings.push(format!("{at}: {e}"));
                    continue;
                }
            };
            match iron3d_formats::config::ini::parse_int(v.raw) {
                Some(0) => {}
                Some(_) => {
                    self.dispatcher.insert(name);
                }
                None => self.warnings.push(format!("{at}: `{}` is not an integer", v.as_text())),
            }
        }
    }

    /// Whether `name` counts as completed (the user's progress or `dispatcher.ini`).
    pub fn completed(&self, progress: &CampaignProgress, name: &MissionName) -> bool {
        self.dispatcher.contains(name) || progress.record(&self.fingerprint, name).is_some_and(|r| r.completed)
    }

    /// The state of a listed mission.
    pub fn state(&self, progress: &CampaignProgress, name: &MissionName) -> MissionState {
        if self.completed(progress, name) {
            return MissionState::Completed;
        }
        if progress
            .record(&self.fingerprint, name)
            .and_then(|r| r.last.as_ref())
            .is_some_and(|l| l.0 == MissionResult::Failed)
        {
            return MissionState::Failed;
        }
        match name.previous_in_campaign() {
            Some(before) if !self.completed(progress, &before) => MissionState::Locked,
            _ => MissionState::Available,
        }
    }

    /// Where *Continue campaign* goes: the first mission of `campaign` that is not
    /// completed and not locked (`None` when every mission is completed).
    pub fn continue_at(&self, progress: &CampaignProgress, campaign: u32) -> Option<&MissionEntry> {
        self.catalogue
            .missions
            .iter()
            .filter(|m| m.name.campaign() == Some(campaign))
            .find(|m| matches!(self.state(progress, &m.name), MissionState::Available | MissionState::Failed))
    }
}
