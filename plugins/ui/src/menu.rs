//! Main menu, loading screen (with a tip of the mission's `mistips.mis`) and load errors.

use crate::ScreenSystems;
use crate::briefing::Briefing;
use crate::game_text::{MissionText, TextTable};
use crate::locale::{Locale, phase_key};
use crate::screen::{SettingsEdit, full_screen, settings_controls};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_assets::GameData;
use iron3d_core::AppState;
use iron3d_formats::config::TextRes;
use iron3d_mission::{LoadError, LoadProgress, MissionName, MissionRequest, StartMission};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuState>().init_resource::<ChosenLevel>().add_systems(Update, autostart).add_systems(
        EguiPrimaryContextPass,
        (
            main_menu
                .run_if(in_state(AppState::MainMenu).and_then(not(resource_exists::<Briefing>)))
                .in_set(ScreenSystems::MainMenu),
            loading.run_if(in_state(AppState::Loading)).in_set(ScreenSystems::Loading),
        ),
    );
}

/// Seconds each loading tip stays on screen.
pub const TIP_SECONDS: f32 = 5.0;

/// Mission to load at start-up, taken once.
#[derive(Resource, Debug, Clone)]
pub struct Autostart(pub Option<String>);

/// The main menu's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MenuPage {
    /// The missions and multiplayer.
    #[default]
    Missions,
    /// The saved games.
    Saves,
    /// The recorded replays.
    Replays,
    /// The settings.
    Settings,
}

/// Menu view state.
#[derive(Resource, Debug, Default)]
pub struct MenuState {
    page: MenuPage,
}

/// The difficulty level the player chose in the menu (the next mission starts at it).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct ChosenLevel(pub iron3d_core::DifficultyLevel);

/// Starts missions of the game directory ([`StartMission`]) from the menu at the chosen
/// level, recording them in the campaign progress.
#[derive(SystemParam)]
pub struct MissionStarter<'w, 's> {
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<AppState>>,
    game: Option<Res<'w, GameData>>,
    campaign: Option<ResMut<'w, crate::campaign::PlayerCampaign>>,
    level: ResMut<'w, ChosenLevel>,
}

impl MissionStarter<'_, '_> {
    /// Requests `mission` (any form [`MissionName::parse`] reads) and records it started
    /// in the campaign progress; false without game data.
    pub fn start(&mut self, mission: &str) -> bool {
        let Some(game) = &self.game else { return false };
        if let (Some(campaign), Ok(name)) = (self.campaign.as_mut(), MissionName::parse(mission)) {
            campaign.start(game, &name);
        }
        let level = self.level.0;
        self.request(mission, level)
    }

    /// Requests `mission` at `level` for a saved game or a replay, `record` (a
    /// `PendingRestore` or a `ReplayPlayback`) taking over when it enters the game;
    /// false without game data.
    pub fn start_record(&mut self, mission: &str, level: iron3d_core::DifficultyLevel, record: impl Resource) -> bool {
        self.commands.insert_resource(record);
        self.request(mission, level)
    }

    /// Starts `mission` at `level` ([`StartMission`]).
    fn request(&mut self, mission: &str, level: iron3d_core::DifficultyLevel) -> bool {
        let Some(game) = &self.game else { return false };
        self.commands.queue(StartMission::from_game(&game.0, mission).at(level));
        true
    }

    /// The game data (`None` without).
    pub fn game(&self) -> Option<&GameData> {
        self.game.as_deref()
    }

    /// Back to the main menu.
    pub fn back_to_menu(&mut self) {
        self.next.set(AppState::MainMenu);
    }

    /// The listed campaign mission after `mission`.
    pub fn next_after(&mut self, mission: &MissionName) -> Option<MissionName> {
        let game = self.game.as_deref()?;
        self.campaign.as_mut()?.next_after(game, mission)
    }

    /// Shows `mission`'s briefing, or requests the mission when it has none; false
    /// without game data.
    pub fn brief(&mut self, table: &TextRes, mission: &str) -> bool {
        let Some(game) = &self.game else { return false };
        match Briefing::read(&game.0, table, mission) {
            Some(b) => {
                self.commands.insert_resource(b);
                true
            }
            None => self.start(mission),
        }
    }
}

/// Starts the `--mission` mission once.
pub fn autostart(mut start: ResMut<Autostart>, mut starter: MissionStarter) {
    if let Some(mission) = start.0.take() {
        starter.start(&mission);
    }
}

/// What the menu reports: the last load error; and its text.
#[derive(SystemParam)]
pub struct MenuReports<'w> {
    error: Option<Res<'w, LoadError>>,
    saves: crate::save_menu::SavePages<'w>,
    locale: Res<'w, Locale>,
    table: Option<Res<'w, TextTable>>,
}

/// The main menu: title, data directory, missions, last load error, multiplayer,
/// settings.
pub fn main_menu(
    mut contexts: EguiContexts,
    mut files: crate::saves::FileOpener,
    mut state: ResMut<MenuState>,
    mut settings: SettingsEdit,
    reports: MenuReports,
    mut exit: MessageWriter<AppExit>,
    mut multiplayer: crate::multiplayer::Multiplayer,
) -> Result {
    let MenuReports { error, mut saves, locale, table } = reports;
    let ctx = contexts.ctx_mut()?;
    let mut screen = full_screen(ctx, "main_menu");
    let (rows, continues) = match (files.starter.game.as_deref(), files.starter.campaign.as_deref_mut()) {
        (Some(game), Some(player)) => {
            let rows = player.rows(game);
            let mut numbers: Vec<u32> = rows.iter().filter_map(|r| r.name.campaign()).collect();
            numbers.dedup();
            let continues: Vec<(u32, Option<MissionName>)> =
                numbers.into_iter().map(|n| (n, player.continue_at(game, n))).collect();
            (rows, continues)
        }
        _ => (Vec::new(), Vec::new()),
    };
    let continue_at = |n: u32| continues.iter().find(|c| c.0 == n).and_then(|c| c.1.clone());
    let mut chosen = None;
    let (mut open, mut dismiss_file_error) = (None, false);
    let mut level = files.starter.level.0;
    egui::CentralPanel::default().show_inside(&mut screen, |ui| {
        // The settings are a page of their own; a long mission list scrolls.
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(40.0);
                ui.heading(egui::RichText::new("IRON3D").size(48.0).strong());
                ui.label(locale.t("menu-subtitle"));
                ui.add_space(20.0);
                match &files.starter.game {
                    Some(g) => ui.label(locale.tr(
                        "menu-data",
                        &[("path", g.0.root().display().to_string().into()), ("files", g.0.index().len().into())],
                    )),
                    None => ui.colored_label(egui::Color32::LIGHT_RED, locale.t("menu-no-data")),
                };
                if let Some(e) = &error {
                    ui.add_space(12.0);
                    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(70, 20, 20)).show(ui, |ui| {
                        ui.colored_label(
                            egui::Color32::LIGHT_RED,
                            locale.tr(
                                "menu-load-failed",
                                &[
                                    ("mission", e.mission.as_str().into()),
                                    ("phase", locale.t(&phase_key(e.phase)).into()),
                                ],
                            ),
                        );
                        ui.label(&e.message);
                        if ui.button(locale.t("menu-dismiss")).clicked() {
                            files.starter.commands.remove_resource::<LoadError>();
                        }
                    });
                }
                if let Some(e) = &files.status.error {
                    ui.add_space(12.0);
                    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(70, 20, 20)).show(ui, |ui| {
                        ui.colored_label(egui::Color32::LIGHT_RED, locale.t("menu-file-failed"));
                        ui.label(e);
                        if ui.button(locale.t("menu-dismiss")).clicked() {
                            dismiss_file_error = true;
                        }
                    });
                }
                ui.add_space(16.0);
                match state.page {
                    MenuPage::Settings => settings_controls(ui, &mut settings, &locale),
                    MenuPage::Saves => open = crate::save_menu::load_page(ui, &mut saves, &locale),
                    MenuPage::Replays => open = crate::save_menu::replays_page(ui, &mut saves, &locale),
                    MenuPage::Missions => {
                        ui.label(egui::RichText::new(locale.t("menu-missions")).size(20.0));
                        if rows.is_empty() {
                            ui.label(locale.t("menu-no-missions"));
                        }
                        chosen = crate::mission_menu::missions(ui, &rows, &locale, &mut level, &continue_at);
                        ui.add_space(16.0);
                        crate::multiplayer::menu_group(ui, &mut multiplayer, &locale);
                    }
                }
                ui.add_space(16.0);
                if state.page == MenuPage::Missions {
                    for (page, key) in [
                        (MenuPage::Saves, "menu-load-game"),
                        (MenuPage::Replays, "menu-replays"),
                        (MenuPage::Settings, "menu-settings"),
                    ] {
                        if ui.button(locale.t(key)).clicked() {
                            state.page = page;
                            saves.browser.invalidate();
                        }
                    }
                } else if ui.button(locale.t("menu-settings-back")).clicked() {
                    state.page = MenuPage::Missions;
                }
                if ui.button(locale.t("menu-quit")).clicked() {
                    exit.write(AppExit::Success);
                }
                ui.add_space(12.0);
                ui.small(locale.t("menu-keys-hint"));
            })
        });
    });
    if files.starter.level.0 != level {
        files.starter.level.0 = level;
    }
    if dismiss_file_error {
        files.status.error = None;
    }
    if let Some(file) = open {
        files.open(&file);
    }
    if let Some(mission) = chosen {
        files.starter.brief(table.as_ref().map(|t| &t.0).unwrap_or(&TextRes::default()), mission.as_str());
    }
    Ok(())
}

/// The loading screen: one progress bar per phase, and a tip of the mission.
pub fn loading(
    mut contexts: EguiContexts,
    progress: Res<LoadProgress>,
    request: Option<Res<MissionRequest>>,
    text: Option<Res<MissionText>>,
    locale: Res<Locale>,
    time: Res<Time<Real>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = full_screen(ctx, "loading");
    egui::CentralPanel::default().show_inside(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            let name = request.as_ref().map_or("", |r| r.mission.as_str());
            ui.heading(locale.tr("loading-title", &[("mission", name.into())]));
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
                let phase = locale.t(&phase_key(row.phase));
                let millis = format!("{:.1}", row.millis);
                let text = if row.total > 0 {
                    let (done, total) = (row.done.into(), row.total.into());
                    locale.tr(
                        "loading-phase-count",
                        &[("phase", phase.into()), ("done", done), ("total", total), ("ms", millis.into())],
                    )
                } else {
                    locale.tr("loading-phase", &[("phase", phase.into()), ("ms", millis.into())])
                };
                ui.add(egui::ProgressBar::new(fraction).text(text).desired_width(420.0));
            }
            // A tip of `mistips.mis`, a new one every few seconds.
            if let Some(tips) = text.as_ref().map(|t| &t.tips).filter(|t| !t.is_empty()) {
                let tip = &tips[(time.elapsed_secs() / TIP_SECONDS) as usize % tips.len()];
                ui.add_space(24.0);
                ui.label(egui::RichText::new(locale.t("loading-tip")).strong());
                ui.label(egui::RichText::new(tip).size(16.0).italics());
            }
        });
    });
    Ok(())
}
