//! In-mission HUD and the pause menu.

use crate::Settings;
use crate::screen::settings_controls;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_core::{AppState, Pause};
use iron3d_mission::{MissionObject, MissionRequest, Registered};

/// Esc pauses a running mission and resumes a paused one.
pub fn toggle_pause(
    keys: Res<ButtonInput<KeyCode>>,
    state: Option<Res<State<Pause>>>,
    mut next: ResMut<NextState<Pause>>,
) {
    if let Some(state) = state.filter(|_| keys.just_pressed(KeyCode::Escape)) {
        next.set(match state.get() {
            Pause::Running => Pause::Paused,
            Pause::Paused => Pause::Running,
        });
    }
}

/// Top bar: mission, objects by clan, hints.
pub fn hud(
    mut contexts: EguiContexts,
    request: Option<Res<MissionRequest>>,
    objects: Query<&MissionObject, With<Registered>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut clans: Vec<(i32, usize)> = Vec::new();
    for o in &objects {
        match clans.iter_mut().find(|(c, _)| *c == o.clan) {
            Some((_, n)) => *n += 1,
            None => clans.push((o.clan, 1)),
        }
    }
    clans.sort_unstable();
    egui::Area::new("hud".into()).anchor(egui::Align2::LEFT_TOP, [8.0, 8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong(request.as_ref().map_or("mission", |r| r.mission.as_str()));
                ui.separator();
                ui.label(format!("{} objects", objects.iter().count()));
                for (clan, n) in &clans {
                    ui.separator();
                    ui.label(format!("clan {clan}: {n}"));
                }
                ui.separator();
                ui.small("WASD move · Q/E turn · wheel zoom · F free-fly · Esc pause");
            });
        });
    });
    Ok(())
}

/// The pause menu: resume, settings, back to the main menu.
pub fn pause_menu(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut pause: ResMut<NextState<Pause>>,
    mut next: ResMut<NextState<AppState>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Paused")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                if ui.button("Resume").clicked() {
                    pause.set(Pause::Running);
                }
                ui.separator();
                settings_controls(ui, &mut settings);
                ui.separator();
                if ui.button("Quit to main menu").clicked() {
                    next.set(AppState::MainMenu);
                }
            });
        });
    Ok(())
}
