//! Shared screen helpers.

use crate::settings::{UserSettings, WindowChoice};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_input::{Bindings, GameAction, Rebinding};
use iron3d_render::Shading;

/// A full-window background `Ui` (egui panels draw inside it).
pub fn full_screen(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// Applies the UI scale setting when it changes.
pub fn apply_scale(mut contexts: EguiContexts, settings: Res<UserSettings>) -> Result {
    if settings.is_changed() {
        contexts.ctx_mut()?.set_zoom_factor(settings.ui_scale);
    }
    Ok(())
}

/// What the settings controls edit.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SettingsEdit<'w> {
    /// The settings.
    pub settings: ResMut<'w, UserSettings>,
    /// The key bindings.
    pub bindings: Res<'w, Bindings>,
    /// The rebinding capture.
    pub rebinding: ResMut<'w, Rebinding>,
}

/// The resolutions offered for a window.
pub const RESOLUTIONS: [[u32; 2]; 5] = [[1024, 768], [1280, 720], [1600, 900], [1920, 1080], [2560, 1440]];

/// The settings controls (shown in the menu and the pause menu).
pub fn settings_controls(ui: &mut egui::Ui, edit: &mut SettingsEdit) {
    let s = edit.settings.bypass_change_detection();
    let before = s.clone();
    ui.add(egui::Slider::new(&mut s.ui_scale, 0.75..=2.0).text("interface scale"));
    ui.checkbox(&mut s.overlay, "debug overlay (F3)");
    ui.collapsing("Video", |ui| {
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.video.mode, WindowChoice::Windowed, "window");
            ui.radio_value(&mut s.video.mode, WindowChoice::Borderless, "full screen");
        });
        egui::ComboBox::from_label("window size")
            .selected_text(format!("{}x{}", s.video.resolution[0], s.video.resolution[1]))
            .show_ui(ui, |ui| {
                for r in RESOLUTIONS {
                    ui.selectable_value(&mut s.video.resolution, r, format!("{}x{}", r[0], r[1]));
                }
            });
        ui.checkbox(&mut s.video.vsync, "wait for retrace (vsync)");
        ui.horizontal(|ui| {
            ui.label("shading");
            ui.radio_value(&mut s.video.shading, Shading::Auto, "auto")
                .on_hover_text("fast on a software renderer, full on a graphics card");
            ui.radio_value(&mut s.video.shading, Shading::Full, "full");
            ui.radio_value(&mut s.video.shading, Shading::Fast, "fast")
                .on_hover_text("matte lighting without highlights: a software renderer's choice");
        });
    });
    ui.collapsing("Sound", |ui| {
        let a = &mut s.audio;
        ui.checkbox(&mut a.muted, "mute");
        for (volume, name) in [
            (&mut a.master, "master"),
            (&mut a.effects, "effects"),
            (&mut a.ambient, "ambient"),
            (&mut a.voice, "voices"),
            (&mut a.music, "music"),
            (&mut a.interface, "interface"),
        ] {
            ui.add(egui::Slider::new(volume, 0.0..=1.0).text(name));
        }
    });
    ui.collapsing("Mouse and gamepad", |ui| {
        let i = &mut s.input;
        ui.add(egui::Slider::new(&mut i.mouse_sensitivity, 10..=400).text("mouse sensitivity %"));
        ui.checkbox(&mut i.invert_mouse_x, "inverse mouse X");
        ui.checkbox(&mut i.invert_mouse_y, "inverse mouse Y");
        ui.add(egui::Slider::new(&mut i.stick_sensitivity, 10..=400).text("gamepad sensitivity %"));
        ui.checkbox(&mut i.invert_stick_x, "inverse gamepad X");
        ui.checkbox(&mut i.invert_stick_y, "inverse gamepad Y");
    });
    ui.collapsing("Keys and buttons", |ui| {
        egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
            egui::Grid::new("bindings").striped(true).show(ui, |ui| {
                for action in GameAction::BUTTONS {
                    ui.label(action.label());
                    let list = edit
                        .bindings
                        .buttons
                        .get(&action)
                        .map_or(String::new(), |l| l.iter().map(|b| b.label()).collect::<Vec<_>>().join(", "));
                    ui.monospace(list);
                    let waiting = edit.rebinding.action == Some(action);
                    if ui.selectable_label(waiting, if waiting { "press a key…" } else { "change" }).clicked() {
                        edit.rebinding.action = if waiting { None } else { Some(action) };
                    }
                    ui.end_row();
                }
            });
        });
        if let Some(e) = &edit.rebinding.error {
            ui.colored_label(egui::Color32::from_rgb(240, 90, 80), e);
        }
    });
    if *s != before {
        edit.settings.set_changed();
    }
}
