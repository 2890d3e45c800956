//! The in-mission HUD: a top bar (mission, game time, the player's ore and power,
//! units), the selected object (kind, health, order, ore held), the research panel of a
//! selected research building, the last messages (production, losses, kills), the
//! pause menu.

use crate::ScreenSystems;
use crate::command::player_clan;
use crate::locale::{Locale, nav_key};
use crate::screen::{SettingsEdit, settings_controls};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{
    AppState, ClanEconomy, EconomyBoard, GameClock, GameMessage, GameMessageKind, Health, MissionClans, Movable,
    NavStatus, ObjectTable, Order, Owner, Pause, ProductionBoard, ProductionEvent, ResearchBoard, TICK_MS,
};
use iron3d_input::{Actions, GameAction, PlayerCommands, Selection};
use iron3d_mission::{LoadedMission, MissionObject};
use std::collections::{BTreeMap, VecDeque};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HudState>()
        .init_resource::<PausePage>()
        .register_type::<HudState>()
        .add_systems(OnEnter(Pause::Paused), open_pause_menu)
        .add_systems(
            Update,
            (
                (messages.after(crate::command::command), economy).chain().run_if(in_state(Pause::Running)),
                toggle_pause,
                pager,
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                hud.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame),
                pause_menu.run_if(in_state(Pause::Paused)).in_set(ScreenSystems::Pause),
            ),
        );
}

/// Messages kept in the history.
pub const MESSAGES: usize = 50;
/// How long the message box stays up (s; read).
pub const BOX_SECONDS: f32 = 20.0;
/// How long the landing warning's indicator stays red (s; read).
pub const RISK_SECONDS: f32 = 3.0;

/// Whose a message is: the message box's header (openparkan `docs/35-hud.md`, read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum MessageKind {
    /// The game's own lines (kind 2, *from: System*); iron3d's reports too.
    #[default]
    System,
    /// A script's message (kind 3, *from: Training assistant*).
    Training,
    /// A script's message with `info_system` (kind 4, *from: Information assistant*).
    Information,
}

impl MessageKind {
    /// The header's locale key.
    pub fn header(self) -> &'static str {
        match self {
            Self::System => "hud-from-system",
            Self::Training => "hud-from-training",
            Self::Information => "hud-from-information",
        }
    }
}

/// The message in the box: the newest, for [`BOX_SECONDS`].
#[derive(Debug, Clone, PartialEq, Default, Reflect)]
pub struct Shown {
    /// Whose.
    pub kind: MessageKind,
    /// Its text.
    pub text: String,
    /// Seconds it has been up.
    pub age: f32,
}

/// The player's economy and the last messages (refreshed by the HUD systems).
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct HudState {
    /// The player's economy as published.
    pub economy: ClanEconomy,
    /// The Ore and Energy bars as shown (they step towards the published ones).
    pub bars: Bars,
    /// The history: recent messages, newest last.
    pub messages: VecDeque<String>,
    /// The message box's message (none once its time is up).
    pub shown: Option<Shown>,
    /// Seconds since the hero's landing was refused (*"Risk area! Landing impossible."*),
    /// while the cockpit's warning is red.
    pub risk: Option<f32>,
    /// The message box hidden (`CMD_PAGER`, F2; a new message leaves it hidden: the
    /// project's).
    pub messages_hidden: bool,
    /// Objects' clans and short names, for messages about objects already gone.
    pub known: BTreeMap<u32, (i32, String)>,
}

/// The Ore and Energy bars as the original shows them (openparkan `docs/23-economy.md`,
/// "HUD", read): each shown value moves one point towards its target whenever more than
/// 0.05 s have passed since its last step, at most once a drawn frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Reflect)]
pub struct Bars {
    /// Ore and Energy shown, in percent.
    pub shown: [u8; 2],
    /// Seconds since the last step.
    pub since_step: f32,
}

impl Bars {
    /// The time between steps, in seconds (a step needs more).
    pub const STEP_SECONDS: f32 = 0.05;

    /// One drawn frame `dt` seconds after the last: a step towards `target` when due.
    pub fn frame(&mut self, target: [u8; 2], dt: f32) {
        self.since_step += dt;
        if self.since_step <= Self::STEP_SECONDS {
            return;
        }
        self.since_step = 0.0;
        for (shown, target) in self.shown.iter_mut().zip(target) {
            *shown = match (*shown).cmp(&target) {
                std::cmp::Ordering::Less => *shown + 1,
                std::cmp::Ordering::Greater => *shown - 1,
                std::cmp::Ordering::Equal => *shown,
            };
        }
    }
}

impl HudState {
    /// Shows a system message (see [`Self::post`]).
    pub fn push(&mut self, line: String) {
        self.post(MessageKind::System, line);
    }

    /// Shows `text` in the message box in place of the one there, and keeps it in the
    /// history, dropping the oldest beyond [`MESSAGES`] (read).
    pub fn post(&mut self, kind: MessageKind, text: String) {
        self.messages.push_back(text.clone());
        while self.messages.len() > MESSAGES {
            self.messages.pop_front();
        }
        self.shown = Some(Shown { kind, text, age: 0.0 });
    }

    /// `dt` seconds later: the box closes once it has been up [`BOX_SECONDS`], the
    /// landing warning once [`RISK_SECONDS`] passed (`0x10062950`, read).
    pub fn age(&mut self, dt: f32) {
        if let Some(s) = &mut self.shown {
            s.age += dt;
            if s.age >= BOX_SECONDS {
                self.shown = None;
            }
        }
        self.risk = self.risk.map(|r| r + dt).filter(|r| *r < RISK_SECONDS);
    }
}

/// `CMD_PAGER` (F2) hides or shows the message box (openparkan `docs/35-hud.md`, read).
pub fn pager(actions: Query<&Actions>, mut hud: ResMut<HudState>) {
    if actions.iter().any(|a| a.just_pressed(&GameAction::Pager)) {
        hud.messages_hidden = !hud.messages_hidden;
    }
}

/// `Pause` pauses a running mission and resumes a paused one.
pub fn toggle_pause(
    actions: Query<&Actions>,
    state: Option<Res<State<Pause>>>,
    placing: Option<Res<crate::site::Placing>>,
    designer: Option<Res<crate::designer::DesignerScreen>>,
    mut next: ResMut<NextState<Pause>>,
) {
    // Esc while a building is placed cancels the placement instead, and closes the
    // designer's field, list or screen while it is up.
    let placing = placing.is_some_and(|p| p.0.is_some()) || designer.is_some_and(|d| d.is_open());
    let pressed = !placing && actions.iter().any(|a| a.just_pressed(&GameAction::Pause));
    if let Some(state) = state.filter(|_| pressed) {
        next.set(match state.get() {
            Pause::Running => Pause::Paused,
            Pause::Paused => Pause::Running,
        });
    }
}

/// The player's economy, as the economy published it ([`EconomyBoard`]), and the bars
/// stepped for this frame.
pub fn economy(
    board: Res<EconomyBoard>,
    clans: Option<Res<MissionClans>>,
    hud: Option<ResMut<HudState>>,
    time: Res<Time<Real>>,
) {
    if let Some(mut hud) = hud {
        hud.economy = board.of(player_clan(clans.as_deref()));
        let target = [hud.economy.ore_percent, hud.economy.energy_percent];
        hud.bars.frame(target, time.delta_secs());
        hud.age(time.delta_secs());
    }
}

/// One of the HUD's bars: its label and value over a fill coloured by the value (the
/// original's: below 20 %, below 80 %, from 80 %; a value of 0 in red).
fn bar(ui: &mut egui::Ui, label: String, value: u8, detail: String) {
    let fill = match value {
        0..20 => egui::Color32::from_rgb(0x80, 0, 0),
        20..80 => egui::Color32::from_rgb(0x80, 0x80, 0),
        _ => egui::Color32::from_rgb(0, 0x80, 0),
    };
    let colour =
        if value == 0 { egui::Color32::from_rgb(0xff, 0x32, 0x32) } else { egui::Color32::from_rgb(0x80, 0xff, 0x80) };
    let text = egui::RichText::new(format!("{label} {value}%")).color(colour);
    ui.add(egui::ProgressBar::new(f32::from(value) / 100.0).desired_width(120.0).fill(fill).text(text))
        .on_hover_text(detail);
}

/// Keeps the messages about the player's side: robots built, research done, orders
/// refused, objects captured, lost and enemies destroyed.
pub fn messages(
    mut hud: ResMut<HudState>,
    mut read: MessageReader<GameMessage>,
    new: Query<(&iron3d_core::OriginalObjectId, &MissionObject, &Name), Added<MissionObject>>,
    owners: Query<(&iron3d_core::OriginalObjectId, &Owner), Changed<Owner>>,
    clans: Option<Res<MissionClans>>,
    locale: Res<Locale>,
) {
    for (id, o, name) in &new {
        hud.known.insert(id.0, (o.clan, name.as_str().to_string()));
    }
    // A capture changes an object's clan: what is known of it follows.
    for (id, owner) in &owners {
        if let Some(known) = hud.known.get_mut(&id.0) {
            known.0 = owner.clan;
        }
    }
    let mine = player_clan(clans.as_deref());
    for m in read.read() {
        let name = |hud: &HudState, id: u32| {
            hud.known.get(&id).cloned().unwrap_or_else(|| (0, locale.tr("hud-object", &[("id", id.into())])))
        };
        let line = match &m.kind {
            GameMessageKind::Destroyed { object, .. } => {
                let (clan, what) = name(&hud, object.id.0);
                let key = if clan == mine { "hud-lost" } else { "hud-destroyed" };
                Some(locale.tr(key, &[("what", what.into())]))
            }
            // The player's clan took it (the original's 5039, "Building is captured").
            GameMessageKind::Production { event: ProductionEvent::Captured, ids, .. } => {
                let (clan, what) = name(&hud, ids.first().copied().unwrap_or_default());
                (clan == mine).then(|| locale.tr("hud-captured", &[("what", what.into())]))
            }
            GameMessageKind::Production { event, ids, detail } => {
                let ours = ids.first().is_some_and(|&id| name(&hud, id).0 == mine);
                if ours && *event == ProductionEvent::Rejected && detail == iron3d_behavior::RISK_AREA {
                    hud.risk = Some(0.0);
                }
                let what = detail.rsplit(['\\', '/']).next().unwrap_or(detail);
                let key = match event {
                    ProductionEvent::Produced => Some("hud-built"),
                    ProductionEvent::Researched => Some("hud-researched"),
                    ProductionEvent::Rejected => Some("hud-refused"),
                    ProductionEvent::LodeFound => Some("hud-lode-found"),
                    ProductionEvent::Constructed => Some("hud-constructed"),
                    ProductionEvent::Upgraded => Some("hud-upgraded"),
                    ProductionEvent::Loaded
                    | ProductionEvent::Unloaded
                    | ProductionEvent::Captured
                    | ProductionEvent::Boarded
                    | ProductionEvent::Left
                    | ProductionEvent::Opened => None,
                };
                key.filter(|_| ours).map(|key| locale.tr(key, &[("what", what.into())]))
            }
            _ => None,
        };
        if let Some(line) = line {
            hud.push(line);
        }
    }
}

/// What an order is, in a few words.
pub fn describe(order: Option<Order>, status: Option<&NavStatus>, locale: &Locale) -> String {
    let n = |v: i64| [("n", v.into())];
    let what = match order {
        None | Some(Order::Stop) => locale.t("order-holding"),
        Some(Order::MoveTo([x, y])) => {
            locale.tr("order-move-to", &[("x", format!("{x:.0}").into()), ("y", format!("{y:.0}").into())])
        }
        Some(Order::MoveToObject(id)) => locale.tr("order-go-to", &n(id.into())),
        Some(Order::FollowPath(p)) => locale.tr("order-follow-path", &n(p.into())),
        Some(Order::Patrol(p)) => locale.tr("order-patrol", &n(p.into())),
        Some(Order::Attack(id)) => locale.tr("order-attack", &n(id.into())),
        Some(Order::Build(_) | Order::Batch(_) | Order::StopBuild) => locale.t("order-build"),
        Some(Order::Research(node)) => locale.tr("order-research", &n(node.into())),
        Some(Order::Pilot(_) | Order::SelectWeapon(_) | Order::AutoDriver(_)) => locale.t("order-piloted"),
        Some(Order::Release) => locale.t("order-released"),
        Some(Order::Haul(_)) => locale.t("order-haul"),
        Some(Order::Migrate) => locale.t("order-migrate"),
        Some(Order::Refit) => locale.t("order-refit"),
        Some(Order::SearchLodes) => locale.t("order-search-lodes"),
        Some(Order::Construct(_)) => locale.t("order-construct"),
        Some(Order::Upgrade(id)) => locale.tr("order-upgrade", &n(id.into())),
        Some(Order::Capture(id)) => locale.tr("order-capture", &n(id.into())),
        Some(Order::Board(id)) => locale.tr("order-board", &n(id.into())),
        Some(Order::Leave) => locale.t("order-leave"),
        Some(Order::StandGround) => locale.t("order-stand-ground"),
        Some(Order::Shutdown) => locale.t("order-shutdown"),
        Some(Order::Follow(id)) => locale.tr("order-follow", &n(id.into())),
        Some(Order::Search(_)) => locale.t("order-search"),
        Some(Order::Guard(_)) => locale.t("order-guard"),
    };
    match status {
        Some(s) => {
            locale.tr("order-with-state", &[("order", what.into()), ("state", locale.t(&nav_key(s.state)).into())])
        }
        None => what,
    }
}

type Selected<'a> = (
    &'a Name,
    Option<&'a Health>,
    Option<&'a NavStatus>,
    Option<&'a iron3d_behavior::Navigator>,
    Option<&'a iron3d_economy::ore::OreProperty>,
    Has<Movable>,
    &'a Owner,
);

/// The HUD.
#[allow(clippy::too_many_arguments, reason = "the HUD shows a little of everything")]
pub fn hud(
    mut contexts: EguiContexts,
    mission: Option<Res<LoadedMission>>,
    clock: Res<GameClock>,
    hud: Res<HudState>,
    selection: Res<Selection>,
    table: Res<ObjectTable>,
    objects: Query<Selected>,
    owners: Query<&Owner, With<Movable>>,
    boards: (Res<ResearchBoard>, Res<ProductionBoard>),
    clans: Option<Res<MissionClans>>,
    (mut player, views): (ResMut<PlayerCommands>, Res<crate::views::Views>),
    locale: Res<Locale>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mine = player_clan(clans.as_deref());
    let units = owners.iter().filter(|o| o.clan == mine).count();
    let seconds = u64::from(clock.tick) * u64::from(TICK_MS) / 1000;
    let left = crate::commander::clear_of(ctx, &views);
    egui::Area::new("hud".into()).anchor(egui::Align2::LEFT_TOP, [left, 8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                // The bar grows with its numbers instead of wrapping them.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                ui.strong(mission.as_ref().map_or(locale.t("hud-mission"), |m| m.name.clone()));
                ui.separator();
                ui.monospace(format!("{:02}:{:02}", seconds / 60, seconds % 60));
                ui.separator();
                let [ore, energy] = hud.bars.shown;
                let amount = |key: &str, v: f32| locale.tr(key, &[("amount", format!("{v:.0}").into())]);
                bar(ui, locale.t("hud-ore-bar"), ore, amount("hud-ore", hud.economy.ore));
                bar(ui, locale.t("hud-energy-bar"), energy, amount("hud-power", hud.economy.power));
                ui.separator();
                ui.label(locale.tr("hud-units", &[("count", units.into())]));
                use crate::views::View;
                let mode = match views.front() {
                    None => player.piloted().map(|_| "hud-piloting"),
                    Some(View::OnFoot(_)) => Some("hud-on-foot"),
                    Some(View::Driving(_)) => Some("hud-driving"),
                    Some(View::Telepresence(_)) => Some("hud-telepresence"),
                    Some(View::Hq(_) | View::Bunker(_)) => Some("hud-command"),
                    Some(View::Screen(_)) => Some("hud-screen"),
                };
                if let Some(key) = mode {
                    ui.separator();
                    ui.colored_label(egui::Color32::from_rgb(240, 200, 60), locale.t(key));
                }
            });
        });
    });
    // Driving a unit, the cockpit's own panel shows it.
    let driving = crate::cockpit::driven(&views, &player).is_some();
    let Some(first) = selection.first().filter(|_| !driving) else { return Ok(()) };
    let Some((object, health, status, nav, ore, movable, owner)) =
        table.entity_of(first).and_then(|e| objects.get(e).ok())
    else {
        return Ok(());
    };
    egui::Area::new("selected".into()).anchor(egui::Align2::LEFT_BOTTOM, [left, -8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.set_max_width(280.0);
            let more = selection.units.len() - 1;
            let title = if more > 0 { format!("{object} (+{more})") } else { object.to_string() };
            ui.strong(title);
            if let Some(h) = health {
                ui.add(egui::ProgressBar::new(h.share()).text(format!("{:.0} / {:.0}", h.hp, h.max)));
            }
            if movable {
                ui.label(describe(nav.map(|n| n.order), status, &locale));
            }
            if let Some(ore) = ore {
                ui.label(locale.tr("hud-ore", &[("amount", format!("{:.0}", ore.current()).into())]));
            }
            let (board, shown) = &boards;
            if owner.clan == mine
                && let (Some(names), Some((startable, busy))) =
                    (shown.research.get(&owner.clan), board.clans.get(&owner.clan))
                && !movable
            {
                ui.separator();
                ui.label(locale.t(if *busy { "hud-research-busy" } else { "hud-research" }));
                for &node in startable {
                    let name = names
                        .get(node as usize)
                        .map_or_else(|| locale.tr("hud-node", &[("n", node.into())]), String::clone);
                    if ui.add_enabled(!*busy, egui::Button::new(name)).clicked() {
                        player.order(vec![first], Order::Research(node), false);
                    }
                }
            }
        });
    });
    Ok(())
}

/// The pause menu's page.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PausePage {
    /// Resume, save, load, settings, quit.
    #[default]
    Main,
    /// The save slots.
    Save,
    /// The slots to load.
    Load,
}

/// The pause menu opens on its main page with the slots listed again.
pub fn open_pause_menu(mut page: ResMut<PausePage>, mut browser: ResMut<crate::save_menu::SaveBrowser>) {
    *page = PausePage::Main;
    browser.invalidate();
}

/// The pause menu: resume, save, load, settings, back to the main menu.
pub fn pause_menu(
    mut contexts: EguiContexts,
    mut settings: SettingsEdit,
    mut pause: ResMut<NextState<Pause>>,
    mut page: ResMut<PausePage>,
    mut pages: crate::save_menu::SavePages,
    mut opener: crate::saves::FileOpener,
    locale: Res<Locale>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = None;
    egui::Window::new(locale.t("pause-title"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                if *page != PausePage::Main {
                    if ui.button(locale.t("pause-back")).clicked() {
                        *page = PausePage::Main;
                    }
                    ui.separator();
                }
                match *page {
                    PausePage::Save => crate::save_menu::save_page(ui, &mut pages, &mut opener.status, &locale),
                    PausePage::Load => open = crate::save_menu::load_page(ui, &mut pages, &locale),
                    PausePage::Main => {
                        if ui.button(locale.t("pause-resume")).clicked() {
                            pause.set(Pause::Running);
                        }
                        if ui.button(locale.t("pause-save")).clicked() {
                            *page = PausePage::Save;
                        }
                        if ui.button(locale.t("pause-load")).clicked() {
                            *page = PausePage::Load;
                        }
                        ui.separator();
                        settings_controls(ui, &mut settings, &locale);
                        ui.separator();
                        if ui.button(locale.t("pause-quit")).clicked() {
                            opener.starter.back_to_menu();
                        }
                    }
                }
                if let Some(e) = &opener.status.error {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
            });
        });
    if let Some(file) = open {
        opener.open(&file);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pager_key_hides_and_shows_the_message_box() {
        let mut app = App::new();
        app.init_resource::<HudState>().add_systems(Update, pager);
        let player = app.world_mut().spawn(Actions::default()).id();
        let press = |app: &mut App| {
            iron3d_input::testing::tap(app, player, GameAction::Pager);
            app.world().resource::<HudState>().messages_hidden
        };
        assert!(press(&mut app), "hidden");
        assert!(!press(&mut app), "shown again");
    }

    #[test]
    fn orders_are_described_for_the_player() {
        let en = Locale::new(crate::locale::Language::English);
        assert_eq!(describe(Some(Order::MoveTo([10.4, 20.6])), None, &en), "moving to 10, 21");
        assert_eq!(describe(None, None, &en), "holding");
        let status = NavStatus { state: iron3d_core::NavState::Blocked, ..Default::default() };
        assert_eq!(describe(Some(Order::Attack(4)), Some(&status), &en), "attacking 4 (blocked)");
        let ru = Locale::new(crate::locale::Language::Russian);
        assert_eq!(describe(Some(Order::Attack(4)), Some(&status), &ru), "атакует 4 (заблокирован)");
        assert_eq!(describe(Some(Order::Migrate), None, &en), "grazing");
    }

    /// The landing warning stays red 3 s, the box 20 s, each from its own start.
    #[test]
    fn the_landing_warning_lasts_three_seconds_and_the_box_twenty() {
        let mut hud = HudState { risk: Some(0.0), ..Default::default() };
        hud.post(MessageKind::System, "Risk area! Landing impossible.".into());
        hud.age(2.9);
        assert!(hud.risk.is_some() && hud.shown.is_some());
        hud.age(0.2);
        assert!(hud.risk.is_none() && hud.shown.is_some(), "3 s: the warning is off");
        hud.age(17.0);
        assert!(hud.shown.is_none(), "20 s: the box closes");
    }

    /// The original's bars step one point at a time, when more than 0.05 s passed since
    /// the last step, at most once a frame: a step every fourth frame at 62.5 frames a
    /// second.
    #[test]
    fn the_bars_step_towards_the_published_percentages_at_the_originals_pace() {
        let mut bars = Bars::default();
        let mut frames = 0;
        while bars.shown != [33, 0] && frames < 1000 {
            bars.frame([33, 0], 0.016);
            frames += 1;
        }
        assert_eq!(frames, 33 * 4, "a step every fourth frame: {frames}");
        bars.frame([30, 2], 0.051);
        assert_eq!(bars.shown, [32, 1], "one point towards each, either way");
        bars.frame([30, 2], 0.5);
        assert_eq!(bars.shown, [31, 2], "never more than one a frame");
    }
}
