//! The F3 debug overlay: frame rate, entity counts, draw sharing (objects vs distinct
//! mesh/material pairs), load timings per phase.

use crate::settings::UserSettings;
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_input::{Actions, GameAction};
use iron3d_mission::{LoadProgress, MissionObject, Registered};
use iron3d_render::RenderStats;

/// The `DebugOverlay` action (F3) shows or hides the overlay.
pub fn toggle(actions: Query<&Actions>, mut settings: ResMut<UserSettings>) {
    if actions.iter().any(|a| a.just_pressed(&GameAction::DebugOverlay)) {
        settings.overlay = !settings.overlay;
    }
}

/// Draws the overlay when enabled.
pub fn overlay(
    mut contexts: EguiContexts,
    settings: Res<UserSettings>,
    diagnostics: Res<DiagnosticsStore>,
    entities: Query<Entity>,
    objects: Query<(), (With<MissionObject>, With<Registered>)>,
    progress: Res<LoadProgress>,
    render: Option<Res<RenderStats>>,
) -> Result {
    if !settings.overlay {
        return Ok(());
    }
    let fps = diagnostics.get(&FrameTimeDiagnosticsPlugin::FPS).and_then(|d| d.smoothed()).unwrap_or(0.0);
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("overlay".into()).anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.monospace(format!("{fps:6.1} fps"));
            ui.monospace(format!("{:6} entities", entities.iter().count()));
            ui.monospace(format!("{:6} mission objects", objects.iter().count()));
            if let Some(r) = &render {
                ui.monospace(format!("{:6} model instances ({} pending, {} failed)", r.instances, r.pending, r.failed));
                ui.monospace(format!("{:6} drawn parts ({} lightmapped)", r.parts, r.lightmapped));
                ui.monospace(format!(
                    "{:6} mesh/material pairs ({} meshes, {} materials)",
                    r.pairs, r.meshes, r.materials
                ));
                ui.monospace(format!("{:6} terrain faces ({} overlaid)", r.terrain_faces, r.terrain_overlay_faces));
            }
            ui.separator();
            let total: f32 = progress.phases.iter().map(|p| p.millis).sum();
            for p in &progress.phases {
                ui.monospace(format!("{:>22} {:8.2} ms", p.phase.label(), p.millis));
            }
            ui.monospace(format!("{:>22} {total:8.2} ms", "load total"));
        });
    });
    Ok(())
}
