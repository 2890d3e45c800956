//! Multiplayer from the menu and in game: host the missions started from the menu, or
//! join a host by address; while joined, the session's lobby (mission, players, their
//! clans and readiness, and its chat); in game, who plays (the host's players, or this client's
//! number), and a button to rejoin the seat after the connection dropped.

use crate::ScreenSystems;
use crate::locale::Locale;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::AppState;
use iron3d_net::discovery::{LanSession, discover, lan_targets};
use iron3d_net::{ClientSession, HostSettings, HostState, NetRole, NetStatus, NetWatcher, PlayerRecord};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MultiplayerForm>().add_systems(
        EguiPrimaryContextPass,
        session_panel.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame),
    );
}

/// What the player typed in the menu's multiplayer group, and the LAN search.
#[derive(Resource, Debug)]
pub struct MultiplayerForm {
    port: String,
    address: String,
    name: String,
    /// A LAN search in flight (a probe waits half a second for answers).
    search: Option<std::thread::JoinHandle<std::io::Result<Vec<LanSession>>>>,
    /// The sessions the last search found.
    found: Vec<LanSession>,
}

impl Default for MultiplayerForm {
    fn default() -> Self {
        let port = iron3d_net::DEFAULT_PORT.to_string();
        Self { address: format!("127.0.0.1:{port}"), port, name: "player".into(), search: None, found: Vec::new() }
    }
}

/// The session as the screens see it.
#[derive(SystemParam)]
pub struct Multiplayer<'w> {
    role: Option<ResMut<'w, NetRole>>,
    status: Option<Res<'w, NetStatus>>,
    session: Option<Res<'w, ClientSession>>,
    watcher: Option<Res<'w, NetWatcher>>,
    settings: Option<Res<'w, HostSettings>>,
    host_state: Option<Res<'w, HostState>>,
    form: ResMut<'w, MultiplayerForm>,
    chat: Option<ResMut<'w, iron3d_net::chat::Chat>>,
    chat_input: ResMut<'w, crate::chat::ChatInput>,
}

/// The menu's multiplayer group.
pub fn menu_group(ui: &mut egui::Ui, mp: &mut Multiplayer, locale: &Locale) {
    let Some(role) = mp.role.as_mut() else { return };
    ui.label(egui::RichText::new(locale.t("mp-title")).size(20.0));
    let joined = matches!(**role, NetRole::Join { .. });
    ui.horizontal(|ui| {
        let mut hosting = matches!(**role, NetRole::Host { .. });
        if ui.add_enabled(!joined, egui::Checkbox::new(&mut hosting, locale.t("mp-host"))).changed() {
            let port = mp.form.port.trim().parse().unwrap_or(iron3d_net::DEFAULT_PORT);
            **role = if hosting { NetRole::Host { port } } else { NetRole::Offline };
        }
        ui.add(egui::TextEdit::singleline(&mut mp.form.port).desired_width(60.0));
    });
    ui.horizontal(|ui| {
        ui.label(locale.t("mp-join-label"));
        ui.add(egui::TextEdit::singleline(&mut mp.form.address).desired_width(150.0));
        ui.label(locale.t("mp-join-as"));
        ui.add(egui::TextEdit::singleline(&mut mp.form.name).desired_width(90.0));
        if ui.add_enabled(!joined, egui::Button::new(locale.t("mp-join"))).clicked() {
            use std::net::ToSocketAddrs;
            match mp.form.address.trim().to_socket_addrs().ok().and_then(|mut a| a.next()) {
                Some(server) => **role = NetRole::Join { server, name: mp.form.name.trim().to_string() },
                None => {
                    ui.colored_label(egui::Color32::LIGHT_RED, locale.t("mp-bad-address"));
                }
            }
        }
    });
    lan(ui, &mut mp.form, joined, locale);
    if let Some(session) = mp.session.as_ref().filter(|_| joined) {
        lobby(ui, session, locale);
        if let Some(chat) = mp.chat.as_mut() {
            for line in chat.lines.iter().rev().take(6).rev() {
                ui.label(crate::chat::describe(line, Some(session), None, locale));
            }
            let input = &mut *mp.chat_input;
            crate::chat::line(ui, &mut input.text, &mut input.clan_only, chat, locale, false);
        }
    }
    if let Some(error) = mp.status.as_ref().and_then(|s| s.error.as_ref()) {
        ui.colored_label(egui::Color32::LIGHT_RED, error);
    }
}

/// The LAN search: a button, then one line per session found (a click fills the
/// address in).
fn lan(ui: &mut egui::Ui, form: &mut MultiplayerForm, joined: bool, locale: &Locale) {
    if form.search.as_ref().is_some_and(std::thread::JoinHandle::is_finished) {
        form.found = form.search.take().and_then(|h| h.join().ok()).and_then(Result::ok).unwrap_or_default();
    }
    ui.horizontal(|ui| {
        let searching = form.search.is_some();
        if ui.add_enabled(!joined && !searching, egui::Button::new(locale.t("mp-find-lan"))).clicked() {
            form.search = Some(std::thread::spawn(|| discover(&lan_targets(), std::time::Duration::from_millis(500))));
        }
        if searching {
            ui.spinner();
        }
    });
    for s in &form.found {
        let label = locale.tr(
            "mp-lan-session",
            &[
                ("address", s.addr.to_string().into()),
                ("mission", s.mission.as_str().into()),
                ("players", s.players.into()),
                ("most", s.max_players.into()),
            ],
        );
        if ui.selectable_label(false, label).clicked() {
            form.address = s.addr.to_string();
        }
    }
}

/// What a joined client knows before the mission is in: the lobby.
fn lobby(ui: &mut egui::Ui, session: &ClientSession, locale: &Locale) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        let clan = clan(session.clan, locale);
        match (session.player, &session.mission) {
            (Some(n), Some(m)) => ui.label(locale.tr(
                "mp-lobby-loading",
                &[("player", n.into()), ("clan", clan.into()), ("mission", m.as_str().into())],
            )),
            (Some(n), None) => ui.label(locale.tr("mp-lobby-waiting", &[("player", n.into()), ("clan", clan.into())])),
            _ => ui.label(locale.t("mp-connecting")),
        };
        if session.phase.is_some_and(|(phase, _)| phase == iron3d_net::schema::SessionPhase::Lobby as u8) {
            ui.label(locale.t("mp-lobby-held"));
        }
        for (n, p) in &session.players {
            ui.label(format!(
                "  {}",
                locale.tr("mp-player-line", &[("player", (*n).into()), ("line", describe(p, locale).into())])
            ));
        }
    });
}

/// A clan, or the observer.
fn clan(clan: Option<u32>, locale: &Locale) -> String {
    clan.map_or_else(|| locale.t("mp-observer"), |c| locale.tr("mp-clan", &[("clan", c.into())]))
}

/// A player's line: name, clan, flags and readiness.
fn describe(p: &PlayerRecord, locale: &Locale) -> String {
    let mut flags = String::new();
    for (on, key) in [(p.host, "mp-flag-host"), (p.local, "mp-flag-you")] {
        if on {
            flags.push(' ');
            flags.push_str(&locale.t(key));
        }
    }
    let ready = locale.t(if p.ready { "mp-ready" } else { "mp-not-ready" });
    let clan = clan(p.clan, locale);
    locale.tr(
        "mp-player",
        &[("name", p.name.as_str().into()), ("clan", clan.into()), ("flags", flags.into()), ("ready", ready.into())],
    )
}

/// In game: a corner list of the session's players; after a joined game's connection
/// dropped, a button to rejoin its seat.
pub fn session_panel(
    mut contexts: EguiContexts,
    mp: Multiplayer,
    locale: Res<Locale>,
    mut commands: Commands,
) -> Result {
    let lines: Vec<String> = match (mp.role.as_deref(), &mp.watcher, &mp.session) {
        (Some(NetRole::Host { .. }), Some(w), _) => {
            let at = mp
                .status
                .as_ref()
                .and_then(|s| s.listening)
                .map_or_else(|| locale.t("mp-not-listening"), |a| a.to_string());
            let mut lines = vec![locale.tr("mp-hosting", &[("address", at.into()), ("count", w.players.len().into())])];
            if let (Some(settings), Some(_)) = (&mp.settings, mp.host_state.as_ref().filter(|s| s.held)) {
                let args = [("ready", w.ready().into()), ("wait", settings.wait_players.into())];
                lines.push(locale.tr("mp-start-held", &args));
            }
            lines.extend(w.players.iter().map(|(n, p)| format!("{n}: {}", describe(&p.record(), &locale))));
            lines
        }
        (Some(NetRole::Join { server, .. }), _, Some(s)) => {
            let player = s.player.map_or("?".into(), |n| n.to_string());
            let mut lines =
                vec![locale.tr("mp-joined", &[("server", server.to_string().into()), ("player", player.into())])];
            lines.extend(s.players.iter().map(|(n, p)| format!("{n}: {}", describe(p, &locale))));
            if let Some(why) = &s.refused {
                lines.push(why.clone());
            }
            lines
        }
        _ => return Ok(()),
    };
    let dropped = mp.status.as_ref().is_some_and(|s| s.dropped);
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("session_panel".into()).anchor(egui::Align2::LEFT_TOP, [8.0, 44.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            // The panel grows to its widest line: nothing in it wraps.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            lines.iter().for_each(|l| _ = ui.small(l));
            if dropped {
                ui.colored_label(egui::Color32::LIGHT_RED, locale.t("mp-dropped"));
                if ui.button(locale.t("mp-rejoin")).clicked() {
                    commands.queue(iron3d_net::rejoin_game);
                }
            }
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_input::testing::{add_egui, click};
    use iron3d_net::{Clock, NetWatcher};
    use std::sync::Arc;

    fn game() -> Arc<iron3d_vfs::GameDir> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
        Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
    }

    /// The session panel's one button in the last frame (its labels and the panel
    /// itself also take clicks and drags, for selecting text and moving), and the height
    /// of a widget of one line.
    fn panel_button(app: &mut App) -> Option<(egui::Rect, f32)> {
        let world = app.world_mut();
        let mut contexts = world.query_filtered::<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>();
        let ctx = contexts.single_mut(world).unwrap().get_mut().clone();
        let layer = egui::LayerId::new(egui::Order::Middle, egui::Id::new("session_panel"));
        let buttons: Vec<egui::Rect> = ctx.viewport(|v| {
            v.prev_pass.widgets.get_layer(layer).filter(|w| w.sense == egui::Sense::click()).map(|w| w.rect).collect()
        });
        assert!(buttons.len() <= 1, "{buttons:?}");
        buttons.first().map(|r| (*r, ctx.global_style().spacing.interact_size.y))
    }

    /// Runs `frames` frames of the host, then the game, in turn.
    fn step(app: &mut App, host: &mut App, frames: u32) {
        for _ in 0..frames {
            host.update();
            app.update();
        }
    }

    /// A joined game whose connection dropped shows Rejoin, on one line, in its session
    /// panel; a click on it takes the same seat (player number, clan) of the host again.
    #[test]
    fn the_rejoin_button_takes_the_seat_back() {
        let game = game();
        let settings = HostSettings { mission: "single.01".into(), discovery_port: None, ..HostSettings::default() };
        let (mut host, addr) = iron3d_net::host_app(&game, settings, 0, Clock::Stepped).unwrap();
        let mut app = iron3d_sim::headless_app();
        let window = add_egui(&mut app, None);
        let role = NetRole::Join { server: addr, name: "Ann".into() };
        app.add_plugins((iron3d_mission::MissionPlugin, iron3d_net::NetGamePlugin { role, game }))
            .insert_resource(Locale::new(crate::locale::Language::English))
            .init_resource::<crate::chat::ChatInput>();
        plugin(&mut app);
        app.finish();
        app.cleanup();
        step(&mut app, &mut host, 40);
        assert_eq!(*app.world().resource::<State<AppState>>().get(), AppState::InGame);
        let session = app.world().resource::<ClientSession>();
        let (number, clan) = (session.player.unwrap(), session.clan);
        assert_eq!(panel_button(&mut app), None, "connected: no button");

        iron3d_net::disconnect(app.world_mut());
        step(&mut app, &mut host, 20);
        assert!(app.world().resource::<NetStatus>().dropped);
        assert!(host.world().resource::<NetWatcher>().players[&number].away.is_some(), "the seat waits");
        let (button, line) = panel_button(&mut app).expect("dropped: the Rejoin button");
        assert!(button.height() <= line, "the label is one line: {button:?}");
        let at = Vec2::new(button.center().x, button.center().y);
        step(&mut app, &mut host, 10);
        assert!(app.world().resource::<NetStatus>().dropped, "nothing rejoins by itself");
        click(&mut app, window, at);
        step(&mut app, &mut host, 60);

        assert!(!app.world().resource::<NetStatus>().dropped);
        assert_eq!(panel_button(&mut app), None, "rejoined: no button");
        let session = app.world().resource::<ClientSession>();
        assert_eq!((session.player, session.clan), (Some(number), clan), "the same seat");
        assert!(host.world().resource::<NetWatcher>().players[&number].connected());
    }
}
