//! Chat in a multiplayer game: the chat key (Enter) opens a line to everyone or to the
//! player's clan; Enter sends it (`iron3d_net::chat`), Escape closes it. Received lines go
//! to the HUD's message log and the lobby lists the last ones with a line of its own.

use crate::ScreenSystems;
use crate::hud::HudState;
use crate::locale::Locale;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::AppState;
use iron3d_input::{Actions, GameAction};
use iron3d_net::chat::{Chat, ChatLine};
use iron3d_net::{ClientSession, NetRole, NetWatcher};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChatInput>()
        .add_systems(Update, (open, to_hud.after(crate::hud::messages)).run_if(in_state(AppState::InGame)))
        .add_systems(EguiPrimaryContextPass, window.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame));
}

/// The line being typed.
#[derive(Resource, Debug, Clone, Default)]
pub struct ChatInput {
    /// The in-game line is open.
    pub open: bool,
    /// Its text.
    pub text: String,
    /// To the player's clan only.
    pub clan_only: bool,
    /// Chat lines already put in the HUD's log.
    shown: u32,
}

/// The chat key opens the line in a multiplayer game.
pub fn open(actions: Query<&Actions>, role: Option<Res<NetRole>>, mut input: ResMut<ChatInput>) {
    let multiplayer = role.is_some_and(|r| *r != NetRole::Offline);
    if multiplayer && !input.open && actions.iter().any(|a| a.just_pressed(&GameAction::Chat)) {
        input.open = true;
        input.text.clear();
    }
}

/// A received line as the screens show it (the sender by name).
pub fn describe(
    line: &ChatLine,
    session: Option<&ClientSession>,
    watcher: Option<&NetWatcher>,
    locale: &Locale,
) -> String {
    let name = session
        .and_then(|s| s.players.get(&line.from).map(|p| p.name.clone()))
        .or_else(|| watcher.and_then(|w| w.players.get(&line.from).map(|p| p.name.clone())))
        .unwrap_or_else(|| if line.from == 0 { locale.t("chat-host") } else { line.from.to_string() });
    let key = if line.clan_only { "chat-line-clan" } else { "chat-line" };
    locale.tr(key, &[("name", name.into()), ("text", line.text.as_str().into())])
}

/// New chat lines join the HUD's message log.
pub fn to_hud(
    chat: Option<Res<Chat>>,
    session: Option<Res<ClientSession>>,
    watcher: Option<Res<NetWatcher>>,
    mut input: ResMut<ChatInput>,
    mut hud: ResMut<HudState>,
    locale: Res<Locale>,
) {
    let Some(chat) = chat else { return };
    let new = (chat.received - input.shown) as usize;
    input.shown = chat.received;
    for line in chat.lines.iter().skip(chat.lines.len().saturating_sub(new)) {
        hud.push(describe(line, session.as_deref(), watcher.as_deref(), &locale));
    }
}

/// The in-game line.
pub fn window(
    mut contexts: EguiContexts,
    mut input: ResMut<ChatInput>,
    chat: Option<ResMut<Chat>>,
    locale: Res<Locale>,
) -> Result {
    let Some(mut chat) = chat.filter(|_| input.open) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("chat".into()).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -120.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            let input = &mut *input;
            if line(ui, &mut input.text, &mut input.clan_only, &mut chat, &locale, true) {
                input.open = false;
            }
            if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                input.open = false;
            }
        });
    });
    Ok(())
}

/// A line to type and send (taking the keyboard when `focus`); returns whether it was sent.
pub fn line(
    ui: &mut egui::Ui,
    text: &mut String,
    clan_only: &mut bool,
    chat: &mut Chat,
    locale: &Locale,
    focus: bool,
) -> bool {
    let mut sent = false;
    ui.horizontal(|ui| {
        ui.label(locale.t("chat-title"));
        let edit = ui.add(egui::TextEdit::singleline(text).desired_width(280.0));
        if focus {
            edit.request_focus();
        }
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.checkbox(clan_only, locale.t("chat-clan-only"));
        if (enter || ui.button(locale.t("chat-send")).clicked()) && !text.trim().is_empty() {
            chat.say(*clan_only, text);
            text.clear();
            sent = true;
        }
    });
    sent
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::keyboard::Key;
    use iron3d_input::testing::{egui_app, frame, key, pressed};

    #[test]
    fn keys_typed_into_the_chat_line_never_drive_the_game() {
        let (mut app, primary) = egui_app(None);
        let server = std::net::SocketAddr::from(([127, 0, 0, 1], iron3d_net::DEFAULT_PORT));
        app.insert_resource(NetRole::Join { server, name: "Ann".into() })
            .init_resource::<ChatInput>()
            .init_resource::<Chat>()
            .init_resource::<Locale>()
            .add_systems(Update, open)
            .add_systems(EguiPrimaryContextPass, window);
        let press = |app: &mut App, code: KeyCode, logical: Key| {
            frame(app, key(primary, code, logical.clone(), ButtonState::Pressed));
            frame(app, key(primary, code, logical, ButtonState::Released));
        };
        let h = || Key::Character("h".into());
        press(&mut app, KeyCode::Enter, Key::Enter);
        assert!(app.world().resource::<ChatInput>().open, "Enter opened the line");
        frame(&mut app, key(primary, KeyCode::KeyH, h(), ButtonState::Pressed));
        assert!(!pressed(&mut app, GameAction::Stop), "the line took the key bound to Stop");
        frame(&mut app, key(primary, KeyCode::KeyH, h(), ButtonState::Released));
        assert_eq!(app.world().resource::<ChatInput>().text, "h", "and typed it");
        press(&mut app, KeyCode::Escape, Key::Escape);
        assert!(!app.world().resource::<ChatInput>().open, "Escape closed the line");
        app.update();
        frame(&mut app, key(primary, KeyCode::KeyH, h(), ButtonState::Pressed));
        assert!(pressed(&mut app, GameAction::Stop), "closed, the key drives the game again");
    }
}
