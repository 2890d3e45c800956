//! The main menu's missions: each campaign as an ordered list with completed and failed
//! marks, locked missions disabled and a *Continue campaign* button, then the single and tutorial
//! missions, a mission that cannot load shown disabled with its error, and the
//! difficulty level.

use crate::campaign::MissionRow;
use crate::locale::Locale;
use bevy_egui::egui;
use iron3d_core::DifficultyLevel;
use iron3d_mission::MissionKind;
use iron3d_mission::MissionName;
use iron3d_mission::campaign::MissionState;

/// The locale key of a difficulty level.
fn difficulty_key(level: DifficultyLevel) -> &'static str {
    match level {
        DifficultyLevel::Easy => "menu-difficulty-easy",
        DifficultyLevel::Normal => "menu-difficulty-normal",
        DifficultyLevel::Hard => "menu-difficulty-hard",
    }
}

/// One mission's button; returns whether it was clicked.
fn mission_button(ui: &mut egui::Ui, row: &MissionRow, locale: &Locale) -> bool {
    let mark = match (&row.error, row.state) {
        (Some(_), _) => "  ⚠",
        (None, MissionState::Completed) => "  ✔",
        (None, MissionState::Failed) => "  ✖",
        (None, MissionState::Locked | MissionState::Available) => "",
    };
    let enabled = row.error.is_none() && row.state != MissionState::Locked;
    let button = egui::Button::new(format!("{}{mark}", row.title));
    let response = ui.add_enabled(enabled, button.min_size(egui::vec2(320.0, 26.0)));
    let hover = match &row.error {
        Some(e) => locale.tr("menu-broken", &[("error", e.as_str().into())]),
        None if row.state == MissionState::Locked => locale.t("menu-locked"),
        None => row.name.to_string(),
    };
    response.on_hover_text(hover.clone()).on_disabled_hover_text(hover).clicked()
}

/// Draws the missions; returns the mission to brief, if one was chosen. `continue_at`
/// gives the mission *Continue campaign* opens for a campaign number.
pub fn missions(
    ui: &mut egui::Ui,
    rows: &[MissionRow],
    locale: &Locale,
    difficulty: &mut DifficultyLevel,
    continue_at: &dyn Fn(u32) -> Option<MissionName>,
) -> Option<MissionName> {
    let mut chosen = None;
    ui.horizontal(|ui| {
        ui.label(locale.t("menu-difficulty"));
        for level in DifficultyLevel::ALL {
            ui.selectable_value(difficulty, level, locale.t(difficulty_key(level)));
        }
    });
    let mut campaigns: Vec<u32> = rows.iter().filter_map(|r| r.name.campaign()).collect();
    campaigns.dedup();
    for number in campaigns {
        ui.add_space(8.0);
        ui.label(egui::RichText::new(locale.tr("menu-campaign", &[("number", number.into())])).size(18.0));
        if let Some(next) = continue_at(number)
            && ui.button(locale.t("menu-continue")).on_hover_text(next.to_string()).clicked()
        {
            chosen = Some(next);
        }
        for row in rows.iter().filter(|r| r.name.campaign() == Some(number)) {
            if mission_button(ui, row, locale) {
                chosen = Some(row.name.clone());
            }
        }
    }
    for (kind, heading) in [(MissionKind::Single, "menu-single"), (MissionKind::Tutorial, "menu-tutorial")] {
        let of_kind: Vec<&MissionRow> = rows.iter().filter(|r| r.name.kind() == Some(kind)).collect();
        if of_kind.is_empty() {
            continue;
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new(locale.t(heading)).size(18.0));
        for row in of_kind {
            if mission_button(ui, row, locale) {
                chosen = Some(row.name.clone());
            }
        }
    }
    chosen
}
