//! Main menu, loading screen and load errors.

use crate::screen::{SettingsEdit, full_screen, settings_controls};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_assets::GameData;
use iron3d_core::AppState;
use iron3d_mission::{GameMissionBackend, LoadError, LoadProgress, MissionName, MissionRequest};
use std::sync::Arc;

/// Mission to load at start-up, taken once.
#[derive(Resource, Debug, Clone)]
pub struct Autostart(pub Option<String>);

/// Menu view state.
#[derive(Resource, Debug, Default)]
pub struct MenuState {
    settings_open: bool,
}

/// Starts missions of the game directory: a [`MissionRequest`] and the switch to
/// `AppState::Loading`.
#[derive(SystemParam)]
pub struct MissionStarter<'w, 's> {
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<AppState>>,
    game: Option<Res<'w, GameData>>,
    campaign: Option<ResMut<'w, crate::campaign::PlayerCampaign>>,
}

impl MissionStarter<'_, '_> {
    /// Requests `mission` (any form [`MissionName::parse`] reads) and records it started
    /// in the campaign progress; false without game data.
    pub fn start(&mut self, mission: &str) -> bool {
        let Some(game) = &self.game else { return false };
        if let (Some(campaign), Ok(name)) = (self.campaign.as_mut(), MissionName::parse(mission)) {
            campaign.start(game, &name);
        }
        let backend = GameMissionBackend::new(Arc::clone(&game.0));
        self.commands.insert_resource(MissionRequest { mission: mission.to_string(), backend: Arc::new(backend) });
        self.next.set(AppState::Loading);
        true
    }
}

/// Starts the `--mission` mission once.
pub fn autostart(mut start: ResMut<Autostart>, mut starter: MissionStarter) {
    if let Some(mission) = start.0.take() {
        starter.start(&mission);
    }
}

/// What the menu reports: the last load error.
#[derive(SystemParam)]
pub struct MenuReports<'w> {
    error: Option<Res<'w, LoadError>>,
}

/// The main menu: title, data directory, missions, last load error, multiplayer,
/// settings.
pub fn main_menu(
    mut contexts: EguiContexts,
    mut starter: MissionStarter,
    mut state: ResMut<MenuState>,
    mut settings: SettingsEdit,
    reports: MenuReports,
    mut exit: MessageWriter<AppExit>,
    mut multiplayer: crate::multiplayer::Multiplayer,
) -> Result {
    let MenuReports { error } = reports;
    let ctx = contexts.ctx_mut()?;
    let mut screen = full_screen(ctx, "main_menu");
    let missions: Vec<(String, String, bool)> = match (starter.game.as_deref(), starter.campaign.as_deref_mut()) {
        (Some(game), Some(player)) => {
            let progress = player.progress.clone();
            let campaign = player.campaign(game);
            campaign
                .catalogue
                .missions
                .iter()
                .map(|m| {
                    let state = campaign.state(&progress, &m.name);
                    (m.name.to_string(), m.title.clone(), state == iron3d_mission::campaign::MissionState::Completed)
                })
                .collect()
        }
        _ => Vec::new(),
    };
    egui::CentralPanel::default().show_inside(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading(egui::RichText::new("IRON3D").size(48.0).strong());
            ui.label("Parkan: Iron Strategy engine re-implementation");
            ui.add_space(20.0);
            match &starter.game {
                Some(g) => ui.label(format!("Data: {} ({} files)", g.0.root().display(), g.0.index().len())),
                None => ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    "No game data: start with --data DIR (or set IRON3D_DATA)",
                ),
            };
            if let Some(e) = &error {
                ui.add_space(12.0);
                egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(70, 20, 20)).show(ui, |ui| {
                    ui.colored_label(
                        egui::Color32::LIGHT_RED,
                        format!("Mission {} failed during {}", e.mission, e.phase.label()),
                    );
                    ui.label(&e.message);
                    if ui.button("Dismiss").clicked() {
                        starter.commands.remove_resource::<LoadError>();
                    }
                });
            }
            ui.add_space(16.0);
            ui.label(egui::RichText::new("Missions").size(20.0));
            if missions.is_empty() {
                ui.label("No missions under MISSIONS/.");
            }
            for (mission, title, done) in &missions {
                let label = if *done { format!("{title}  ✔") } else { title.clone() };
                if ui.add_sized([240.0, 28.0], egui::Button::new(label)).on_hover_text(mission).clicked() {
                    starter.start(mission);
                }
            }
            ui.add_space(16.0);
            crate::multiplayer::menu_group(ui, &mut multiplayer);
            ui.add_space(16.0);
            if ui.button("Settings").clicked() {
                state.settings_open = !state.settings_open;
            }
            if state.settings_open {
                settings_controls(ui, &mut settings);
            }
            if ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
            ui.add_space(12.0);
            ui.small("F12 inspector · F3 overlay · Esc pause · Settings → Keys and buttons for the controls");
        });
    });
    Ok(())
}

/// The loading screen: one progress bar per phase.
pub fn loading(
    mut contexts: EguiContexts,
    progress: Res<LoadProgress>,
    request: Option<Res<MissionRequest>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = full_screen(ctx, "loading");
    egui::CentralPanel::default().show_inside(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            let name = request.as_ref().map_or("", |r| r.mission.as_str());
            ui.heading(format!("Loading {name}"));
            ui.add(egui::ProgressBar::new(progress.fraction()).show_percentage());
            ui.add_space(12.0);
            for row in &progress.phases {
                let fraction = if row.finished {
                    1.0
                } else if row.total > 0 {
                    row.done as f32 / row.total as f32
                } else {
                    0.0
                };
                let text = if row.total > 0 {
                    format!("{}: {}/{} ({:.1} ms)", row.phase.label(), row.done, row.total, row.millis)
                } else {
                    format!("{} ({:.1} ms)", row.phase.label(), row.millis)
                };
                ui.add(egui::ProgressBar::new(fraction).text(text).desired_width(420.0));
            }
        });
    });
    Ok(())
}
