//! Mission discovery, names and campaign progress on small game trees laid out like an
//! installed original (case-mangled folders, gaps, CP1251 titles).

use crate::campaign::{Campaign, CampaignProgress, FILE, MissionState};
use crate::catalogue::{Catalogue, MissionKind, MissionName, preflight};
use iron3d_core::Outcome;
use iron3d_formats::ReadOptions;
use iron3d_vfs::GameDir;
use std::path::{Path, PathBuf};

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("iron3d-campaign-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn put(&self, path: &str, bytes: &[u8]) {
        let p = self.0.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn game(&self) -> GameDir {
        GameDir::open(&self.0, ReadOptions::compatible()).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn cp1251(text: &str) -> Vec<u8> {
    encoding_rs::WINDOWS_1251.encode(text).0.into_owned()
}

fn name(text: &str) -> MissionName {
    MissionName::parse(text).unwrap()
}

/// An install-like tree: case-mangled folders, a gap in every sequence, a folder that
/// is no mission.
fn install(s: &Scratch) {
    s.put("MISSIONS/SINGLE.01/DESCR", &cp1251("  Разведка боем \r\n"));
    s.put("missions/single.02/descr", b"Second");
    s.put("MISSIONS/single.03/data.tma", b"no descr: the sequence stops here");
    s.put("MISSIONS/single.04/descr", b"after a gap: not a mission");
    s.put("Missions/Tutorial.01/Descr", b"Training");
    s.put("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.01/descr", &cp1251("Высадка"));
    s.put("MISSIONS/Campaign/campaign.01/Mission.02/DESCR", b"Mine");
    s.put("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.04/descr", b"after a gap");
    s.put("MISSIONS/CAMPAIGN/CAMPAIGN.02/MISSION.01/descr", b"Second campaign");
    s.put("MISSIONS/CAMPAIGN/CAMPAIGN.04/MISSION.01/descr", b"after a campaign gap");
    s.put("MISSIONS/other/descr", b"not a numbered mission");
}

#[test]
fn names_are_read_in_any_case_and_form_and_printed_in_lower_case() {
    let c = name("Campaign.01\\MISSION.02");
    assert_eq!((c.as_str(), c.folder()), ("campaign.01/mission.02", "MISSIONS/campaign/campaign.01/mission.02"));
    assert_eq!(name("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.02"), c, "the folder form names it too");
    assert_eq!((c.kind(), c.campaign(), c.number()), (Some(MissionKind::Campaign), Some(1), Some(2)));
    assert_eq!(c.previous_in_campaign().map(|n| n.to_string()), Some("campaign.01/mission.01".into()));
    assert_eq!(name("campaign.01/mission.01").previous_in_campaign(), None);
    assert_eq!(name("SINGLE.07").as_str(), "single.07");
    assert_eq!(name("tutorial.01").folder(), "MISSIONS/tutorial.01");
    let folder = name("My Mission");
    assert_eq!((folder.as_str(), folder.folder(), folder.kind()), ("my mission", "MISSIONS/My Mission", None));
    for bad in ["", "  ", "../etc", "campaign.01/../x", "/abs", "C:\\x"] {
        assert!(MissionName::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn discovery_probes_each_sequence_until_a_descr_is_missing() {
    let s = Scratch::new("discover");
    install(&s);
    let found = Catalogue::discover(&s.game());
    let names: Vec<&str> = found.missions.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "campaign.01/mission.01",
            "campaign.01/mission.02",
            "campaign.02/mission.01",
            "single.01",
            "single.02",
            "tutorial.01"
        ]
    );
    let titles: Vec<&str> = found.missions.iter().map(|m| m.title.as_str()).collect();
    assert_eq!(titles[0], "Высадка", "CP1251 decoded");
    assert_eq!(titles[3], "Разведка боем", "decoded and trimmed");
    assert_eq!(found.campaigns(), [1, 2]);
    assert_eq!(found.next_in_campaign(&name("campaign.01/mission.01")).map(|m| m.title.as_str()), Some("Mine"));
    assert!(found.next_in_campaign(&name("campaign.01/mission.02")).is_none(), "mission.04 is after a gap");
}

#[test]
fn a_listed_mission_that_cannot_load_says_which_file() {
    let s = Scratch::new("preflight");
    install(&s);
    let e = preflight(&s.game(), &name("single.01")).unwrap_err();
    assert!(e.contains("MISSIONS/single.01/data.tma"), "{e}");
    s.put("MISSIONS/single.01/data.tma", b"TMA?");
    let e = preflight(&s.game(), &name("single.01")).unwrap_err();
    assert!(e.contains("data.tma"), "{e}");
}

fn progress_in(dir: &Path) -> CampaignProgress {
    CampaignProgress::load(dir).unwrap()
}

#[test]
fn campaign_states_follow_the_applied_outcomes_and_a_repeat_changes_nothing() {
    let s = Scratch::new("states");
    install(&s);
    let campaign = Campaign::open(&s.game());
    let user = Scratch::new("states-user");
    let mut p = progress_in(&user.0);
    let state = |p: &CampaignProgress, n: &str| campaign.state(p, &name(n));
    assert_eq!(state(&p, "campaign.01/mission.01"), MissionState::Available, "the first of its campaign");
    assert_eq!(state(&p, "campaign.01/mission.02"), MissionState::Locked);
    assert_eq!(state(&p, "campaign.02/mission.01"), MissionState::Available);
    assert_eq!(state(&p, "single.02"), MissionState::Available, "single missions are never locked");
    assert_eq!(campaign.continue_at(&p, 1).map(|m| m.name.as_str()), Some("campaign.01/mission.01"));

    let fp = campaign.fingerprint.clone();
    assert!(p.start(&fp, &name("campaign.01/mission.01")).unwrap(), "started");
    assert_eq!(state(&p, "campaign.01/mission.01"), MissionState::Available, "started, no outcome yet");
    assert!(p.apply(&fp, &name("campaign.01/mission.01"), Outcome::Failed, "hard").unwrap());
    assert_eq!(state(&p, "campaign.01/mission.01"), MissionState::Failed);
    assert_eq!(state(&p, "campaign.01/mission.02"), MissionState::Locked);
    assert!(p.apply(&fp, &name("campaign.01/mission.01"), Outcome::Completed, "normal").unwrap());
    let written = std::fs::read(user.0.join(FILE)).unwrap();
    assert!(!p.apply(&fp, &name("campaign.01/mission.01"), Outcome::Completed, "normal").unwrap(), "a repeat");
    assert_eq!(std::fs::read(user.0.join(FILE)).unwrap(), written, "writes nothing");
    assert_eq!(state(&p, "campaign.01/mission.01"), MissionState::Completed);
    assert_eq!(state(&p, "campaign.01/mission.02"), MissionState::Available, "unlocked");
    assert_eq!(campaign.continue_at(&p, 1).map(|m| m.name.as_str()), Some("campaign.01/mission.02"));
    p.apply(&fp, &name("campaign.01/mission.01"), Outcome::Defeated, "easy").unwrap();
    assert_eq!(state(&p, "campaign.01/mission.01"), MissionState::Completed, "a later loss keeps it completed");
    let record = p.record(&fp, &name("campaign.01/mission.01")).unwrap();
    assert_eq!(record.last.as_ref().map(|l| l.1.as_str()), Some("easy"), "the level is kept");

    let again = progress_in(&user.0);
    assert_eq!(again.games, p.games, "kept in the user directory");
    assert!(s.0.read_dir().unwrap().all(|e| e.unwrap().file_name() != FILE), "never in the game directory");
}

#[test]
fn progress_of_different_game_data_is_kept_apart() {
    let (a, b) = (Scratch::new("data-a"), Scratch::new("data-b"));
    install(&a);
    install(&b);
    a.put("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.01/data.tma", b"one map");
    let before = Campaign::open(&a.game()).fingerprint;
    a.put("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.01/data.tma", b"the map patched");
    assert_eq!(Campaign::open(&a.game()).fingerprint, before, "a patched map keeps its campaign");
    b.put("MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.01/descr", b"Another game's first mission");
    let (ca, cb) = (Campaign::open(&a.game()), Campaign::open(&b.game()));
    assert_ne!(ca.fingerprint, cb.fingerprint);
    let user = Scratch::new("data-user");
    let mut p = progress_in(&user.0);
    p.apply(&ca.fingerprint, &name("campaign.01/mission.01"), Outcome::Completed, "normal").unwrap();
    assert_eq!(ca.state(&p, &name("campaign.01/mission.02")), MissionState::Available);
    assert_eq!(cb.state(&p, &name("campaign.01/mission.01")), MissionState::Available, "not completed there");
    assert_eq!(cb.state(&p, &name("campaign.01/mission.02")), MissionState::Locked);
}

#[test]
fn dispatcher_ini_is_the_starting_progress_and_its_bad_lines_are_located() {
    let s = Scratch::new("dispatcher");
    install(&s);
    s.put(
        "MISSIONS/dispatcher.ini",
        b"[COMPLETE]\r\nCAMPAIGN.01\\MISSION.01 = 1\r\nCAMPAIGN.02\\MISSION.01 = 0\r\nSINGLE.09 = 1\r\nSINGLE.01 = yes\r\n[OTHER]\r\nSINGLE.02 = 1\r\n",
    );
    let campaign = Campaign::open(&s.game());
    let p = CampaignProgress::default();
    assert_eq!(campaign.state(&p, &name("campaign.01/mission.01")), MissionState::Completed);
    assert_eq!(campaign.state(&p, &name("campaign.01/mission.02")), MissionState::Available);
    assert_eq!(campaign.state(&p, &name("campaign.02/mission.01")), MissionState::Available, "0: not completed");
    assert_eq!(campaign.state(&p, &name("single.02")), MissionState::Available, "only [COMPLETE] counts");
    assert_eq!(campaign.warnings.len(), 2, "{:?}", campaign.warnings);
    assert!(campaign.warnings[0].contains("line 4") && campaign.warnings[0].contains("single.09"));
    assert!(campaign.warnings[1].contains("line 5") && campaign.warnings[1].contains("yes"));
}

#[test]
fn version_1_progress_is_migrated_to_the_first_game_data_it_meets() {
    let user = Scratch::new("v1");
    user.put(FILE, b"(version: 1, completed: [\"tutorial.01\", \"single.01\"])");
    let mut p = progress_in(&user.0);
    assert_eq!(p.version, 2);
    let s = Scratch::new("v1-data");
    install(&s);
    let campaign = Campaign::open(&s.game());
    assert_eq!(campaign.state(&p, &name("single.01")), MissionState::Completed);
    p.start(&campaign.fingerprint, &name("single.02")).unwrap();
    let saved = progress_in(&user.0);
    assert_eq!(saved.games.len(), 1, "adopted by this data: {:?}", saved.games.keys());
    assert!(saved.record(&campaign.fingerprint, &name("tutorial.01")).is_some_and(|r| r.completed));
    user.put(FILE, b"(version: 7)");
    assert!(CampaignProgress::load(&user.0).unwrap_err().contains("version 7"));
}
