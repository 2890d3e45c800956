//! The missions of a game directory, found as the original finds them (`docs/reference/world.md`
//! §5.1): `MISSIONS/single.NN/descr`, `MISSIONS/tutorial.NN/descr` and
//! `MISSIONS/campaign/campaign.NN/mission.NN/descr` are probed with NN from `01` upwards,
//! each sequence stopping at the first missing `descr` (a folder after a gap is not a
//! mission). Paths are case-insensitive, as on an install copied from Windows. A
//! mission's title is its `descr` decoded as CP1251 and trimmed.
//!
//! A mission's name is `single.NN`, `tutorial.NN` or `campaign.NN/mission.NN` (lower case
//! in output, any case in input); any other folder under `MISSIONS` can still be loaded by
//! its folder name (the folder form), but is not listed.

use iron3d_core::Fnv1a;
use iron3d_formats::ReadOptions;
use iron3d_formats::world::Tma;
use iron3d_vfs::GameDir;
use std::fmt;

/// Mission folders live here.
pub const MISSIONS_DIR: &str = "MISSIONS";
/// Campaigns live in this folder under [`MISSIONS_DIR`].
const CAMPAIGN_DIR: &str = "campaign";
/// The highest probed number (two digits).
const MAX_NUMBER: u32 = 99;

/// What kind of mission a name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MissionKind {
    /// `campaign.NN/mission.NN`.
    Campaign,
    /// `single.NN`.
    Single,
    /// `tutorial.NN`.
    Tutorial,
}

impl MissionKind {
    /// Lower-case name (JSON, tables).
    pub fn name(self) -> &'static str {
        match self {
            Self::Campaign => "campaign",
            Self::Single => "single",
            Self::Tutorial => "tutorial",
        }
    }
}

/// Where a name points: a numbered mission of the original's layout, or a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Slot {
    Campaign { campaign: u32, mission: u32 },
    Single(u32),
    Tutorial(u32),
}

/// A mission's name and the folder it denotes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MissionName {
    slot: Option<Slot>,
    canonical: String,
    folder: String,
}

impl fmt::Display for MissionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical)
    }
}

fn number(text: &str, prefix: &str) -> Option<u32> {
    let digits = text.strip_prefix(prefix)?;
    let n: u32 = (digits.len() == 2 && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok())??;
    (1..=MAX_NUMBER).contains(&n).then_some(n)
}

impl MissionName {
    /// `single.NN` / `tutorial.NN` / `campaign.NN/mission.NN` (NN two digits, 01..99).
    fn of(slot: Slot) -> Self {
        let (canonical, folder) = match slot {
            Slot::Single(n) => (format!("single.{n:02}"), format!("{MISSIONS_DIR}/single.{n:02}")),
            Slot::Tutorial(n) => (format!("tutorial.{n:02}"), format!("{MISSIONS_DIR}/tutorial.{n:02}")),
            Slot::Campaign { campaign, mission } => (
                format!("campaign.{campaign:02}/mission.{mission:02}"),
                format!("{MISSIONS_DIR}/{CAMPAIGN_DIR}/campaign.{campaign:02}/mission.{mission:02}"),
            ),
        };
        Self { slot: Some(slot), canonical, folder }
    }

    /// Reads a name as a user or a tool writes it: any case, `/` or `\`, with or without
    /// a leading `MISSIONS/`; `campaign/campaign.NN/mission.NN` (the folder) names the
    /// campaign mission too. Anything else is a folder under `MISSIONS`.
    ///
    /// # Errors
    /// An empty name, or one that leaves the missions folder (`..`, an absolute path).
    pub fn parse(input: &str) -> Result<Self, String> {
        let unified = input.trim().replace('\\', "/");
        let parts: Vec<&str> = unified.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        let parts = match parts.split_first() {
            Some((first, rest)) if first.eq_ignore_ascii_case(MISSIONS_DIR) && !rest.is_empty() => rest,
            _ => &parts[..],
        };
        if parts.is_empty() || input.trim().starts_with(['/', '\\']) || input.contains(':') {
            return Err(format!("`{input}` is not a mission name (single.NN, tutorial.NN or campaign.NN/mission.NN)"));
        }
        if parts.contains(&"..") {
            return Err(format!("mission name `{input}` leaves the {MISSIONS_DIR} folder"));
        }
        let lower: Vec<String> = parts.iter().map(|p| p.to_ascii_lowercase()).collect();
        let campaign = |c: &str, m: &str| {
            Some(Slot::Campaign { campaign: number(c, "campaign.")?, mission: number(m, "mission.")? })
        };
        let slot = match lower.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            [one] => number(one, "single.").map(Slot::Single).or_else(|| number(one, "tutorial.").map(Slot::Tutorial)),
            [c, m] => campaign(c, m),
            [dir, c, m] if *dir == CAMPAIGN_DIR => campaign(c, m),
            _ => None,
        };
        Ok(match slot {
            Some(slot) => Self::of(slot),
            None => {
                Self { slot: None, canonical: lower.join("/"), folder: format!("{MISSIONS_DIR}/{}", parts.join("/")) }
            }
        })
    }

    /// The name as every tool prints it (lower case).
    pub fn as_str(&self) -> &str {
        &self.canonical
    }

    /// The mission's folder as a game path (`MISSIONS/...`, resolved case-insensitively).
    pub fn folder(&self) -> &str {
        &self.folder
    }

    /// A file of the mission's folder as a game path.
    pub fn file(&self, name: &str) -> String {
        format!("{}/{name}", self.folder)
    }

    /// The kind of a numbered mission (`None` for the folder form).
    pub fn kind(&self) -> Option<MissionKind> {
        self.slot.map(|s| match s {
            Slot::Campaign { .. } => MissionKind::Campaign,
            Slot::Single(_) => MissionKind::Single,
            Slot::Tutorial(_) => MissionKind::Tutorial,
        })
    }

    /// The campaign number of a campaign mission.
    pub fn campaign(&self) -> Option<u32> {
        match self.slot? {
            Slot::Campaign { campaign, .. } => Some(campaign),
            _ => None,
        }
    }

    /// The mission's number in its sequence (the campaign's missions, singles, tutorials).
    pub fn number(&self) -> Option<u32> {
        self.slot.map(|s| match s {
            Slot::Campaign { mission, .. } => mission,
            Slot::Single(n) | Slot::Tutorial(n) => n,
        })
    }

    /// The campaign mission before this one (`None` for the first of its campaign and for
    /// every other kind).
    pub fn previous_in_campaign(&self) -> Option<Self> {
        match self.slot? {
            Slot::Campaign { campaign, mission } if mission > 1 => {
                Some(Self::of(Slot::Campaign { campaign, mission: mission - 1 }))
            }
            _ => None,
        }
    }

    /// The campaign mission after this one (whether it exists is the catalogue's to say).
    pub fn next_in_campaign(&self) -> Option<Self> {
        match self.slot? {
            Slot::Campaign { campaign, mission } if mission < MAX_NUMBER => {
                Some(Self::of(Slot::Campaign { campaign, mission: mission + 1 }))
            }
            _ => None,
        }
    }
}

/// One listed mission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissionEntry {
    /// Its name.
    pub name: MissionName,
    /// Its `descr`, decoded from CP1251 and trimmed.
    pub title: String,
}

/// The missions of a game directory in the menu's order: campaigns by number and their
/// missions by number, then single, then tutorial missions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalogue {
    /// The listed missions.
    pub missions: Vec<MissionEntry>,
}

/// Decodes CP1251 text (the original's encoding of every text file) and trims it.
pub fn decode_cp1251(bytes: &[u8]) -> String {
    encoding_rs::WINDOWS_1251.decode_without_bom_handling(bytes).0.trim().to_string()
}

fn probe(game: &GameDir, name: &MissionName) -> Option<MissionEntry> {
    let bytes = game.read_file(&name.file("descr")).ok()?;
    Some(MissionEntry { name: name.clone(), title: decode_cp1251(&bytes) })
}

fn sequence(game: &GameDir, slot: impl Fn(u32) -> Slot) -> Vec<MissionEntry> {
    (1..=MAX_NUMBER).map_while(|n| probe(game, &MissionName::of(slot(n)))).collect()
}

impl Catalogue {
    /// Probes `game` for its missions (docs/reference/world.md §5.1).
    pub fn discover(game: &GameDir) -> Self {
        let mut missions = Vec::new();
        for campaign in 1..=MAX_NUMBER {
            let found = sequence(game, |mission| Slot::Campaign { campaign, mission });
            if found.is_empty() {
                break;
            }
            missions.extend(found);
        }
        missions.extend(sequence(game, Slot::Single));
        missions.extend(sequence(game, Slot::Tutorial));
        Self { missions }
    }

    /// The listed mission named `name`.
    pub fn get(&self, name: &MissionName) -> Option<&MissionEntry> {
        self.missions.iter().find(|m| &m.name == name)
    }

    /// The campaign numbers, in order.
    pub fn campaigns(&self) -> Vec<u32> {
        let mut out: Vec<u32> = self.missions.iter().filter_map(|m| m.name.campaign()).collect();
        out.dedup();
        out
    }

    /// The listed mission after `name` in its campaign.
    pub fn next_in_campaign(&self, name: &MissionName) -> Option<&MissionEntry> {
        self.get(&name.next_in_campaign()?)
    }

    /// A fingerprint of the campaigns (each campaign mission's name and title): progress
    /// of different game data is kept apart by it, so the demo's `campaign.01` and an
    /// install's are different campaigns, while a patch of a mission's map keeps its
    /// progress. Without campaigns, the single and tutorial missions stand in.
    pub fn fingerprint(&self) -> String {
        let mut h = Fnv1a::default();
        let campaign: Vec<&MissionEntry> = self.missions.iter().filter(|m| m.name.campaign().is_some()).collect();
        let chosen = if campaign.is_empty() { self.missions.iter().collect() } else { campaign };
        for m in chosen {
            for part in [m.name.as_str(), m.title.as_str()] {
                h.write(part.as_bytes());
                h.write(&[0]);
            }
        }
        format!("{:016x}", h.0)
    }
}

/// Checks that a mission's own files load far enough to start: `data.tma` reads, and
/// its land's `.msh`, `.map` and `BuildDat.lst` exist. The error names the file.
///
/// # Errors
/// The located reason the mission cannot load.
pub fn preflight(game: &GameDir, name: &MissionName) -> Result<(), String> {
    let path = name.file("data.tma");
    let bytes = game.read_file(&path).map_err(|e| format!("{path}: {e}"))?;
    let tma = Tma::parse(&bytes, ReadOptions::compatible()).map_err(|e| format!("{path}: {e}"))?;
    let land = tma.land_path.display();
    let dir = land.rsplit_once(['\\', '/']).map_or("", |(d, _)| d);
    for file in [format!("{land}.msh"), format!("{land}.map"), format!("{dir}/BuildDat.lst")] {
        if game.resolve(&file).is_none() {
            return Err(format!("{path}: its land file {file} is missing"));
        }
    }
    Ok(())
}
