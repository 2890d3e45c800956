//! The F3 debug overlay: frame rate, entity counts, draw sharing (objects vs distinct
//! mesh/material pairs), load timings per phase.

use crate::ScreenSystems;
use crate::locale::{Locale, phase_key};
use crate::settings::UserSettings;
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_input::{Actions, GameAction};
use iron3d_mission::{LoadProgress, MissionObject, Registered};
use iron3d_render::RenderStats;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, toggle).add_systems(EguiPrimaryContextPass, overlay.in_set(ScreenSystems::Overlay));
}

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
    (render, locale): (Option<Res<RenderStats>>, Res<Locale>),
) -> Result {
    if !settings.overlay {
        return Ok(());
    }
    let fps = diagnostics.get(&FrameTimeDiagnosticsPlugin::FPS).and_then(|d| d.smoothed()).unwrap_or(0.0);
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("overlay".into()).anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            // Numbers are padded here; the words come from the locale.
            let line = |ui: &mut egui::Ui, n: String, key: &str, args: &[(&str, usize)]| {
                let args: Vec<_> = args.iter().map(|(k, v)| (*k, (*v).into())).collect();
                ui.monospace(format!("{n:>6} {}", locale.tr(key, &args)));
            };
            line(ui, format!("{fps:.1}"), "overlay-fps", &[]);
            line(ui, entities.iter().count().to_string(), "overlay-entities", &[]);
            line(ui, objects.iter().count().to_string(), "overlay-objects", &[]);
            if let Some(r) = &render {
                line(ui, r.instances.to_string(), "overlay-instances", &[("pending", r.pending), ("failed", r.failed)]);
                line(ui, r.parts.to_string(), "overlay-parts", &[("lightmapped", r.lightmapped)]);
                line(ui, r.pairs.to_string(), "overlay-pairs", &[("meshes", r.meshes), ("materials", r.materials)]);
                line(ui, r.terrain_faces.to_string(), "overlay-terrain", &[("overlaid", r.terrain_overlay_faces)]);
            }
            ui.separator();
            let total: f32 = progress.phases.iter().map(|p| p.millis).sum();
            for p in &progress.phases {
                ui.monospace(format!("{:>22} {:8.2} ms", locale.t(&phase_key(p.phase)), p.millis));
            }
            ui.monospace(format!("{:>22} {total:8.2} ms", locale.t("overlay-load-total")));
        });
    });
    Ok(())
}
