//! Shared screen helpers.

use crate::ScreenSystems;
use crate::locale::{Language, LanguageSetting, Locale, action_key};
use crate::settings::{UserSettings, WindowChoice};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_input::{Bindings, GameAction, Rebinding};
use iron3d_render::Shading;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, apply_scale.in_set(ScreenSystems::Scale));
}

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
pub fn settings_controls(ui: &mut egui::Ui, edit: &mut SettingsEdit, locale: &Locale) {
    let s = edit.settings.bypass_change_detection();
    let before = s.clone();
    language(ui, &mut s.language, locale);
    ui.add(egui::Slider::new(&mut s.ui_scale, 0.75..=2.0).text(locale.t("settings-scale")));
    ui.checkbox(&mut s.overlay, locale.t("settings-overlay"));
    let minutes = |m: u32| match m {
        0 => locale.t("settings-autosave-off"),
        m => locale.tr("settings-autosave-minutes", &[("n", m.into())]),
    };
    egui::ComboBox::from_label(locale.t("settings-autosave")).selected_text(minutes(s.autosave_minutes)).show_ui(
        ui,
        |ui| {
            for m in crate::settings::AUTOSAVE_CHOICES {
                ui.selectable_value(&mut s.autosave_minutes, m, minutes(m));
            }
        },
    );
    ui.collapsing(locale.t("settings-video"), |ui| {
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.video.mode, WindowChoice::Windowed, locale.t("settings-windowed"));
            ui.radio_value(&mut s.video.mode, WindowChoice::Borderless, locale.t("settings-full-screen"));
        });
        egui::ComboBox::from_label(locale.t("settings-window-size"))
            .selected_text(format!("{}x{}", s.video.resolution[0], s.video.resolution[1]))
            .show_ui(ui, |ui| {
                for r in RESOLUTIONS {
                    ui.selectable_value(&mut s.video.resolution, r, format!("{}x{}", r[0], r[1]));
                }
            });
        ui.checkbox(&mut s.video.vsync, locale.t("settings-vsync"));
        ui.horizontal(|ui| {
            ui.label(locale.t("settings-shading"));
            ui.radio_value(&mut s.video.shading, Shading::Auto, locale.t("settings-shading-auto"))
                .on_hover_text(locale.t("settings-shading-auto-hint"));
            ui.radio_value(&mut s.video.shading, Shading::Full, locale.t("settings-shading-full"));
            ui.radio_value(&mut s.video.shading, Shading::Fast, locale.t("settings-shading-fast"))
                .on_hover_text(locale.t("settings-shading-fast-hint"));
        });
    });
    ui.collapsing(locale.t("settings-sound"), |ui| {
        let a = &mut s.audio;
        ui.checkbox(&mut a.muted, locale.t("settings-mute"));
        for (volume, key) in [
            (&mut a.master, "settings-volume-master"),
            (&mut a.effects, "settings-volume-effects"),
            (&mut a.ambient, "settings-volume-ambient"),
            (&mut a.voice, "settings-volume-voices"),
            (&mut a.music, "settings-volume-music"),
            (&mut a.interface, "settings-volume-interface"),
        ] {
            ui.add(egui::Slider::new(volume, 0.0..=1.0).text(locale.t(key)));
        }
    });
    ui.collapsing(locale.t("settings-input"), |ui| {
        let i = &mut s.input;
        ui.add(egui::Slider::new(&mut i.mouse_sensitivity, 10..=400).text(locale.t("settings-mouse-sensitivity")));
        ui.checkbox(&mut i.invert_mouse_x, locale.t("settings-invert-mouse-x"));
        ui.checkbox(&mut i.invert_mouse_y, locale.t("settings-invert-mouse-y"));
        ui.add(egui::Slider::new(&mut i.stick_sensitivity, 10..=400).text(locale.t("settings-stick-sensitivity")));
        ui.checkbox(&mut i.invert_stick_x, locale.t("settings-invert-stick-x"));
        ui.checkbox(&mut i.invert_stick_y, locale.t("settings-invert-stick-y"));
    });
    ui.collapsing(locale.t("settings-keys"), |ui| {
        egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
            egui::Grid::new("bindings").striped(true).show(ui, |ui| {
                for action in GameAction::BUTTONS {
                    ui.label(locale.t(&action_key(action)));
                    let list = edit.bindings.buttons.get(&action).map_or(String::new(), |l| {
                        l.iter().map(|&b| edit.bindings.label(b)).collect::<Vec<_>>().join(", ")
                    });
                    ui.monospace(list);
                    let waiting = edit.rebinding.action == Some(action);
                    let label = locale.t(if waiting { "settings-press-key" } else { "settings-change" });
                    if ui.selectable_label(waiting, label).clicked() {
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

/// The language choice: the system's, or each language by its own name.
fn language(ui: &mut egui::Ui, setting: &mut LanguageSetting, locale: &Locale) {
    let name = |l: Language| locale.name_of(l).to_string();
    let current = match *setting {
        LanguageSetting::System => locale.tr("settings-language-system", &[("name", name(Language::system()).into())]),
        LanguageSetting::Fixed(l) => name(l),
    };
    egui::ComboBox::from_label(locale.t("settings-language")).selected_text(current).show_ui(ui, |ui| {
        let system = locale.tr("settings-language-system", &[("name", name(Language::system()).into())]);
        ui.selectable_value(setting, LanguageSetting::System, system);
        for l in Language::ALL {
            ui.selectable_value(setting, LanguageSetting::Fixed(l), name(l));
        }
    });
}
