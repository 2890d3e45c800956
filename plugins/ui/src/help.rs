//! The help screen (openparkan `docs/35-hud.md`, "The message box", read): `Help`
//! (`CMD_HELP`, F1) opens and closes the message history, the messages the box has shown,
//! oldest first; a message cut in the box says *"Press F1 to see more"* with the key the
//! player's bindings give `Help`.
//!
//! The project's parts: the screen does not pause the world (the original's help does).

use crate::ScreenSystems;
use crate::hud::HudState;
use crate::locale::Locale;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::AppState;
use iron3d_input::{Actions, Bindings, GameAction};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HelpScreen>()
        .register_type::<HelpScreen>()
        .add_systems(OnEnter(AppState::InGame), |mut s: ResMut<HelpScreen>| s.open = false)
        .add_systems(Update, toggle.run_if(in_state(AppState::InGame)))
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame));
}

/// Whether the help screen is up.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct HelpScreen {
    /// Up.
    pub open: bool,
}

/// `Help` opens or closes the screen.
pub fn toggle(actions: Query<&Actions>, mut screen: ResMut<HelpScreen>) {
    if actions.iter().any(|a| a.just_pressed(&GameAction::Help)) {
        screen.open = !screen.open;
    }
}

/// The name of the key that opens the screen (the first of `Help`'s bindings).
pub fn help_key(bindings: &Bindings) -> Option<String> {
    bindings.buttons.get(&GameAction::Help)?.first().map(|&b| bindings.label(b))
}

/// The screen: the history, oldest first.
fn draw(mut contexts: EguiContexts, screen: Res<HelpScreen>, hud: Res<HudState>, locale: Res<Locale>) -> Result {
    if !screen.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(locale.t("help-title"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            if hud.messages.is_empty() {
                ui.label(locale.t("help-empty"));
            }
            egui::ScrollArea::vertical().max_height(320.0).stick_to_bottom(true).show(ui, |ui| {
                ui.set_max_width(420.0);
                for line in &hud.messages {
                    ui.label(egui::RichText::new(line).color(egui::Color32::from_gray(0xdc)));
                    ui.separator();
                }
            });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_key_opens_and_closes_the_history_and_is_named_for_the_box() {
        let mut app = App::new();
        app.init_resource::<HelpScreen>().add_systems(Update, toggle);
        let player = app.world_mut().spawn(Actions::default()).id();
        iron3d_input::testing::tap(&mut app, player, GameAction::Help);
        assert!(app.world().resource::<HelpScreen>().open);
        iron3d_input::testing::tap(&mut app, player, GameAction::Help);
        assert!(!app.world().resource::<HelpScreen>().open);
        assert_eq!(help_key(&Bindings::default()).as_deref(), Some("F1"));
    }
}
