//! Shared screen helpers.

use crate::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// A full-window background `Ui` (egui panels draw inside it).
pub fn full_screen(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// Applies the UI scale setting when it changes.
pub fn apply_scale(mut contexts: EguiContexts, settings: Res<Settings>) -> Result {
    if settings.is_changed() {
        contexts.ctx_mut()?.set_zoom_factor(settings.ui_scale);
    }
    Ok(())
}

/// The settings controls (shown in the menu and the pause menu).
pub fn settings_controls(ui: &mut egui::Ui, settings: &mut Settings) {
    ui.add(egui::Slider::new(&mut settings.ui_scale, 0.75..=2.0).text("interface scale"));
    ui.checkbox(&mut settings.overlay, "debug overlay (F3)");
}
