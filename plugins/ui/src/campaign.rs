//! The player's campaign: the missions of the game data (`iron3d_mission::catalogue`)
//! with their progress (`iron3d_mission::campaign`, kept in the user's data directory,
//! never in the game directory), and the one place the game starts a mission and
//! applies its outcome.

use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_core::{AppState, Difficulty, MissionClans, MissionOutcome, MissionStart};
use iron3d_mission::MissionName;
use iron3d_mission::campaign::{Campaign, CampaignProgress, MissionState};
use iron3d_mission::catalogue::preflight;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load)
        .add_systems(Update, apply_outcome.run_if(in_state(AppState::InGame)))
        .add_systems(OnEnter(AppState::InGame), begin.in_set(MissionStart::Present));
}

/// The campaign reading of the game data and the user's progress.
#[derive(Resource, Default)]
pub struct PlayerCampaign {
    /// The progress (empty and not kept when the user directory is unknown or broken).
    pub progress: CampaignProgress,
    /// The missions of the game data (read once, when first needed).
    campaign: Option<Campaign>,
    /// Why listed missions cannot load (checked with the catalogue).
    broken: BTreeMap<String, String>,
    /// The outcome already applied for the running mission.
    applied: bool,
}

impl PlayerCampaign {
    /// The missions of `game` with their campaign reading (discovered once).
    pub fn campaign(&mut self, game: &GameData) -> &Campaign {
        if self.campaign.is_none() {
            let c = Campaign::open(&game.0);
            c.warnings.iter().for_each(|w| warn!("{w}"));
            self.broken = c
                .catalogue
                .missions
                .iter()
                .filter_map(|m| Some((m.name.to_string(), preflight(&game.0, &m.name).err()?)))
                .collect();
            self.campaign = Some(c);
        }
        self.campaign.get_or_insert_default()
    }

    /// The listed missions in the menu's order with their state, or why they cannot load.
    pub fn rows(&mut self, game: &GameData) -> Vec<MissionRow> {
        self.campaign(game);
        let Self { progress, campaign: Some(campaign), broken, .. } = self else { return Vec::new() };
        campaign
            .catalogue
            .missions
            .iter()
            .map(|m| MissionRow {
                name: m.name.clone(),
                title: m.title.clone(),
                state: campaign.state(progress, &m.name),
                error: broken.get(m.name.as_str()).cloned(),
            })
            .collect()
    }

    /// Where *Continue campaign* goes for campaign `number`.
    pub fn continue_at(&mut self, game: &GameData, number: u32) -> Option<MissionName> {
        self.campaign(game);
        let Self { progress, campaign: Some(campaign), .. } = self else { return None };
        campaign.continue_at(progress, number).map(|m| m.name.clone())
    }

    /// The listed campaign mission after `name`.
    pub fn next_after(&mut self, game: &GameData, name: &MissionName) -> Option<MissionName> {
        self.campaign(game).catalogue.next_in_campaign(name).map(|m| m.name.clone())
    }

    /// Records that `mission` was started (a failure to save is logged, never fatal).
    pub fn start(&mut self, game: &GameData, mission: &MissionName) {
        let fingerprint = self.campaign(game).fingerprint.clone();
        if let Err(e) = self.progress.start(&fingerprint, mission) {
            warn!("campaign progress not saved: {e}");
        }
    }
}

/// One mission as the menu lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissionRow {
    /// Its name.
    pub name: MissionName,
    /// Its `descr` title.
    pub title: String,
    /// Its campaign state.
    pub state: MissionState,
    /// Why its files do not load (shown disabled).
    pub error: Option<String>,
}

/// Loads the progress at start-up (a broken file is reported and left untouched:
/// progress is then not kept for this run).
pub fn load(mut commands: Commands) {
    let progress = match iron3d_vfs::user_files::data_dir().map(|d| CampaignProgress::load(&d)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            warn!("campaign progress not kept: {e}");
            CampaignProgress::default()
        }
        None => CampaignProgress::default(),
    };
    commands.insert_resource(PlayerCampaign { progress, ..default() });
}

/// A mission entered the game: its outcome is not applied yet.
pub fn begin(mut player: ResMut<PlayerCampaign>) {
    player.applied = false;
}

/// Applies the player clan's outcome to the progress once per mission (the path
/// `sim run --user-dir` takes too).
pub fn apply_outcome(
    clans: Option<Res<MissionClans>>,
    outcome: Res<MissionOutcome>,
    mission: Option<Res<iron3d_mission::LoadedMission>>,
    game: Option<Res<GameData>>,
    difficulty: Res<Difficulty>,
    mut player: ResMut<PlayerCampaign>,
) {
    let (Some(mission), Some(game)) = (mission, game) else { return };
    let Some((_, result)) = crate::outcome::player_outcome(clans.as_deref(), &outcome) else { return };
    if player.applied {
        return;
    }
    player.applied = true;
    let Ok(name) = MissionName::parse(&mission.name) else { return };
    let fingerprint = player.campaign(&game).fingerprint.clone();
    if let Err(e) = player.progress.apply(&fingerprint, &name, result, difficulty.level.name()) {
        warn!("campaign progress not saved: {e}");
    }
}
