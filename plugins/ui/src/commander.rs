//! The commander panel's icon column (openparkan `docs/41-commander.md`, read) down the
//! left edge of a command view, laid out on the original's 640 × 480 screen and scaled:
//! the hero button (strategic control off: back to the hero), the unit pages (battle
//! units, builders, transports), the building pages (research centre, factory, towers,
//! bunkers, other buildings), chat, the satellite map and the game menu, with the lock
//! that slides the column in and out. A button is enabled while the player's clan holds
//! what its page lists and lit while its page (or its screen) is up; a page selects for
//! itself as the original's does, and the selected building's own panel (research,
//! factory) shows under it. The original's art (`ui/hq.cfg`'s `objpanel_*` sprites) is
//! not drawn: each icon is a symbol of egui's font (the project's).

use crate::ScreenSystems;
use crate::command::player_clan;
use crate::locale::Locale;
use crate::views::{View, Views};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{
    AppState, InterfaceClick, MissionClans, OriginalObjectId, Owner, Pause, UnderConstruction, UnitClass,
};
use iron3d_input::Selection;
use iron3d_net::NetRole;

/// A page of the panel (the original's numbers 1 to 8; 0 is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum Page {
    /// No page: the column alone.
    #[default]
    None,
    /// 1: warriors and HQs.
    BattleUnits,
    /// 2.
    Transports,
    /// 3.
    Builders,
    /// 4: the research centre.
    Research,
    /// 5.
    Factory,
    /// 6: battle towers.
    Towers,
    /// 7.
    Bunkers,
    /// 8: generators, mines, storages, outposts, institutes.
    Other,
}

/// What a page lists: units or buildings whose Type lies within a mask (has no bit
/// outside it), and for buildings whether one raising itself counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lists {
    /// Units within the mask.
    Units(u32),
    /// Buildings within the mask; `true`: even one under construction.
    Buildings(u32, bool),
}

impl Lists {
    /// Whether an object of Type `class` (raising itself or not) is listed.
    pub fn takes(self, class: u32, raising: bool) -> bool {
        let within = |mask: u32| class & !mask == 0 && class != 0;
        match self {
            Self::Units(mask) => class & UnitClass::REGISTRATION_BIT == 0 && within(mask),
            Self::Buildings(mask, any) => class & UnitClass::REGISTRATION_BIT != 0 && within(mask) && (any || !raising),
        }
    }
}

impl Page {
    /// What the page lists (read).
    pub fn lists(self) -> Option<Lists> {
        Some(match self {
            Self::None => return None,
            Self::BattleUnits => Lists::Units(0x0101_8000),
            Self::Transports => Lists::Units(0x0100_2000),
            Self::Builders => Lists::Units(0x0100_4000),
            Self::Research => Lists::Buildings(0x8000_0400, false),
            Self::Factory => Lists::Buildings(0x8000_0010, false),
            Self::Towers => Lists::Buildings(0x8030_0000, false),
            Self::Bunkers => Lists::Buildings(0x8007_0000, false),
            Self::Other => Lists::Buildings(0x8000_044e, true),
        })
    }

    fn key(self) -> &'static str {
        match self {
            Self::None => "commander-hero",
            Self::BattleUnits => "commander-battle-units",
            Self::Transports => "commander-transports",
            Self::Builders => "commander-builders",
            Self::Research => "commander-research",
            Self::Factory => "commander-factory",
            Self::Towers => "commander-towers",
            Self::Bunkers => "commander-bunkers",
            Self::Other => "commander-other",
        }
    }
}

/// A button of the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    /// Strategic control off: back to the hero.
    Hero,
    /// Opens (or closes) a page.
    Page(Page),
    /// Chat (a network game).
    Chat,
    /// The satellite map.
    Map,
    /// The game menu.
    GameMenu,
}

impl Button {
    fn icon(self) -> &'static str {
        match self {
            Self::Hero => "👤",
            Self::Page(Page::BattleUnits) => "⚔",
            Self::Page(Page::Builders) => "🔨",
            Self::Page(Page::Transports) => "🚚",
            Self::Page(Page::Research) => "🔬",
            Self::Page(Page::Factory) => "🏭",
            Self::Page(Page::Towers) => "🗼",
            Self::Page(Page::Bunkers) => "🛡",
            Self::Page(Page::Other | Page::None) => "🏢",
            Self::Chat => "💬",
            Self::Map => "🗺",
            Self::GameMenu => "☰",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Self::Hero => "commander-hero",
            Self::Page(page) => page.key(),
            Self::Chat => "commander-chat",
            Self::Map => "commander-map",
            Self::GameMenu => "commander-game-menu",
        }
    }
}

/// The column from the top: its pieces (`None` a separator) and their y on the
/// 640 × 480 layout (read); builders sit above transports.
pub const COLUMN: [(Option<Button>, f32); 15] = [
    (Some(Button::Hero), 12.0),
    (None, 41.0),
    (Some(Button::Page(Page::BattleUnits)), 65.0),
    (Some(Button::Page(Page::Builders)), 94.0),
    (Some(Button::Page(Page::Transports)), 123.0),
    (None, 152.0),
    (Some(Button::Page(Page::Research)), 176.0),
    (None, 205.0),
    (Some(Button::Page(Page::Factory)), 229.0),
    (Some(Button::Page(Page::Towers)), 258.0),
    (Some(Button::Page(Page::Bunkers)), 287.0),
    (Some(Button::Page(Page::Other)), 316.0),
    (None, 345.0),
    (Some(Button::Chat), 369.0),
    (Some(Button::Map), 399.0),
];

/// The game menu's button and the lock, open and shut, on the layout (read).
pub const LOWER: (f32, f32, f32) = (428.0, 457.0, 12.0);
/// A button's size and a separator's height on the layout (read).
pub const BUTTON: (f32, f32, f32) = (46.0, 29.0, 24.0);
/// The column's steps: it draws one piece more per step, the page only when all are out.
pub const STEPS: u8 = 16;
/// Seconds a step of the slide takes (read): 0.8 s in all.
pub const STEP_SECONDS: f32 = 0.05;

/// The panel's state: its page and the column's slide.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct Commander {
    /// The page up.
    pub page: Page,
    /// Pieces of the column out (16: open).
    pub steps: u8,
    /// Sliding out (`Some(true)`) or in.
    pub slide: Option<bool>,
    /// Seconds since the slide's last step.
    pub since: f32,
    /// Where the page drawn last ends on screen (points; 0: no page), the order menu
    /// going under it as the original's does.
    pub below: f32,
}

impl Default for Commander {
    fn default() -> Self {
        Self { page: Page::None, steps: STEPS, slide: None, since: 0.0, below: 0.0 }
    }
}

impl Commander {
    /// Whether the column is all out and still.
    pub fn open(&self) -> bool {
        self.steps == STEPS && self.slide.is_none()
    }

    /// A click on an own object in the world (read): on the lone one already selected
    /// (`again`) the column comes out with its page; on a unit while a page is up, the
    /// page turns to the unit's.
    pub fn clicked(&mut self, class: u32, building: bool, again: bool) {
        let page = page_of(class, building);
        if again {
            (self.steps, self.slide, self.page) = (STEPS, None, page);
        } else if self.page != Page::None && !building {
            self.page = page;
        }
    }

    /// Starts the slide in (a click on the lock while open) or out (the cursor resting
    /// on the lock while shut); a column on the move is left to end its slide.
    pub fn lock(&mut self) {
        if self.slide.is_none() {
            self.slide = Some(self.steps == 0);
            self.since = 0.0;
        }
    }

    /// Steps the slide by `dt` seconds: a piece every 0.05 s.
    pub fn advance(&mut self, dt: f32) {
        let Some(out) = self.slide else { return };
        self.since += dt;
        while self.since >= STEP_SECONDS && self.slide.is_some() {
            self.since -= STEP_SECONDS;
            self.steps = if out { self.steps + 1 } else { self.steps - 1 };
            if self.steps == 0 || self.steps == STEPS {
                self.slide = None;
            }
        }
    }
}

/// The page of an own object (read): a warrior's or an HQ's 1, a transport's 2, a
/// builder's 3, other units none; a building's by its Type: the institute's 4, the
/// plant's 5, a tower's 6, a bunker's 7, any other 8.
pub fn page_of(class: u32, building: bool) -> Page {
    match (class, building) {
        (UnitClass::BATTLE_UNIT | UnitClass::HQ, false) => Page::BattleUnits,
        (UnitClass::TRANSPORT, false) => Page::Transports,
        (UnitClass::BUILDER, false) => Page::Builders,
        (_, false) => Page::None,
        (0x8000_0400, true) => Page::Research,
        (UnitClass::PLANT, true) => Page::Factory,
        (0x8010_0000 | 0x8020_0000, true) => Page::Towers,
        (c, true) if UnitClass::BUNKERS.contains(&c) => Page::Bunkers,
        (_, true) => Page::Other,
    }
}

/// The player's clan's holdings a frame: each object's id, Type and whether it raises
/// itself, in id order.
pub type Holdings = [(u32, u32, bool)];

/// Whether `button` is enabled (read): a page's while the clan holds what it lists, chat
/// in a network game, the others always.
pub fn enabled(button: Button, held: &Holdings, network: bool) -> bool {
    match button {
        Button::Page(page) => page.lists().is_some_and(|l| held.iter().any(|&(_, c, raising)| l.takes(c, raising))),
        Button::Chat => network,
        Button::Hero | Button::Map | Button::GameMenu => true,
    }
}

/// What `page` selects when it opens (read): the one selected object if it alone is
/// selected and listed, else the first listed (`None`: nothing to select).
pub fn select_for(page: Page, held: &Holdings, selected: &[u32]) -> Option<u32> {
    let listed = listed(page, held);
    match selected {
        [one] if listed.contains(one) => Some(*one),
        _ => listed.first().copied(),
    }
}

/// The objects `page` lists, in id order.
pub fn listed(page: Page, held: &Holdings) -> Vec<u32> {
    let Some(lists) = page.lists() else { return Vec::new() };
    held.iter().filter(|&&(_, c, raising)| lists.takes(c, raising)).map(|h| h.0).collect()
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Commander>()
        .register_type::<Commander>()
        .add_systems(OnExit(AppState::InGame), |mut c: ResMut<Commander>| *c = Commander::default())
        .add_systems(
            EguiPrimaryContextPass,
            column
                .run_if(in_state(AppState::InGame))
                .run_if(|views: Res<Views>| matches!(views.front(), Some(View::Hq(_) | View::Bunker(_))))
                .in_set(ScreenSystems::InGame),
        );
}

/// How far from the left edge the HUD's panels stand: clear of the column in a command
/// view, 8 points elsewhere.
pub fn clear_of(ctx: &egui::Context, views: &Views) -> f32 {
    let column = matches!(views.front(), Some(View::Hq(_) | View::Bunker(_)));
    if column { BUTTON.0 * scale(ctx) + 8.0 } else { 8.0 }
}

fn scale(ctx: &egui::Context) -> f32 {
    let r = ctx.content_rect();
    (r.width() / 640.0).min(r.height() / 480.0)
}

/// Draws the column and takes its clicks.
#[allow(clippy::too_many_arguments, reason = "the column reaches the views, the selection, the map and the menu")]
fn column(
    mut contexts: EguiContexts,
    objects: Query<(&OriginalObjectId, &Owner, &UnitClass, Has<UnderConstruction>, Option<&Name>)>,
    (clans, role): (Option<Res<MissionClans>>, Option<Res<NetRole>>),
    (mut panel, mut views, mut selection): (ResMut<Commander>, ResMut<Views>, ResMut<Selection>),
    (mut map, mut chat): (ResMut<crate::minimap::Minimap>, ResMut<crate::chat::ChatInput>),
    (pause, mut next): (Res<State<Pause>>, ResMut<NextState<Pause>>),
    (time, mut click): (Res<Time<Real>>, MessageWriter<InterfaceClick>),
    locale: Res<Locale>,
) -> Result {
    let mine = player_clan(clans.as_deref());
    let mut held: Vec<_> = objects
        .iter()
        .filter(|o| o.1.clan == mine)
        .map(|(id, _, class, raising, _)| (id.0, class.0, raising))
        .collect();
    held.sort_unstable();
    let name = |id: u32| {
        let object = objects.iter().find(|o| o.0.0 == id).and_then(|o| o.4);
        object.map_or_else(|| id.to_string(), |o| format!("{o} {id}"))
    };
    let network = role.is_some_and(|r| *r != NetRole::Offline);
    panel.advance(time.delta_secs());
    // A page whose button is disabled closes; a unit page selects its first when none
    // of its units is selected.
    let page_button = Button::Page(panel.page);
    if panel.page != Page::None && !enabled(page_button, &held, network) {
        panel.page = Page::None;
    }
    let rows = listed(panel.page, &held);
    if matches!(panel.page, Page::BattleUnits | Page::Transports | Page::Builders)
        && !selection.units.iter().any(|u| rows.contains(u))
        && let Some(&first) = rows.first()
    {
        selection.select(vec![first], false);
    }
    let ctx = contexts.ctx_mut()?;
    let s = scale(ctx);
    let at = |y: f32, h: f32| egui::Rect::from_min_size(egui::pos2(0.0, y * s), egui::vec2(BUTTON.0 * s, h * s));
    let (page, steps, still) = (panel.page, panel.steps, panel.slide.is_none());
    let on = |b: Button| match b {
        Button::Page(p) => p == page,
        Button::Map => !map.hidden,
        Button::Chat => chat.open,
        Button::GameMenu => *pause.get() == Pause::Paused,
        Button::Hero => false,
    };
    let mut pressed = None;
    let (mut lock_hovered, mut lock_clicked) = (false, false);
    egui::Area::new("commander".into()).fixed_pos(egui::Pos2::ZERO).show(ctx, |ui| {
        let lower = [(Some(Button::GameMenu), LOWER.0)];
        for (k, &(piece, y)) in COLUMN.iter().chain(&lower).enumerate() {
            if k as u8 + 1 > steps {
                break;
            }
            let Some(b) = piece else {
                ui.put(at(y, BUTTON.2), egui::Separator::default().horizontal());
                continue;
            };
            let enabled = enabled(b, &held, network);
            let colour = match (enabled, on(b)) {
                (false, _) => egui::Color32::from_gray(0x64),
                (true, false) => egui::Color32::from_rgb(0x80, 0xff, 0x80),
                (true, true) => egui::Color32::WHITE,
            };
            let text = egui::RichText::new(b.icon()).size(16.0 * s).color(colour);
            let button = egui::Button::new(text).selected(on(b));
            if ui.put(at(y, BUTTON.1), button).on_hover_text(locale.t(b.key())).clicked() && enabled {
                pressed = Some(b);
            }
        }
        let lock_y = if steps == 0 { LOWER.2 } else { LOWER.1 };
        if still {
            let icon = if steps == 0 { "🔓" } else { "🔒" };
            let lock = ui.put(at(lock_y, BUTTON.2), egui::Button::new(egui::RichText::new(icon).size(12.0 * s)));
            lock_hovered = lock.hovered() && steps == 0;
            lock_clicked = lock.clicked() && steps == STEPS;
        }
    });
    if lock_clicked {
        click.write(InterfaceClick);
    }
    if lock_hovered || lock_clicked {
        panel.lock();
    }
    // The page, only while the column is all out: its title, its close button and its
    // rows (the project's stand-in for the unit box and the building rows).
    // It stands under the HUD's bar, which is where the original's resource rows are not.
    panel.below = 0.0;
    if panel.page != Page::None && panel.steps == STEPS {
        let at = egui::pos2(51.0 * s, 20.0 * s + 24.0);
        let page = egui::Area::new("commander_page".into()).fixed_pos(at).show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_min_width(120.0 * s);
                ui.horizontal(|ui| {
                    ui.strong(locale.t(panel.page.key()));
                    if ui.small_button("×").clicked() {
                        panel.page = Page::None;
                    }
                });
                for &id in &rows {
                    let picked = selection.contains(id);
                    if ui.selectable_label(picked, name(id)).clicked() {
                        selection.select(vec![id], false);
                    }
                }
            });
        });
        panel.below = page.response.rect.bottom();
    }
    let Some(b) = pressed.filter(|_| panel.open()) else { return Ok(()) };
    click.write(InterfaceClick);
    match b {
        Button::Hero => while views.back() {},
        Button::Page(page) if page == panel.page => panel.page = Page::None,
        Button::Page(page) => {
            panel.page = page;
            if let Some(id) = select_for(page, &held, &selection.units) {
                selection.select(vec![id], false);
            }
        }
        Button::Chat => chat.open = !chat.open,
        Button::Map => map.hidden = !map.hidden,
        Button::GameMenu => next.set(Pause::Paused),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLANT: u32 = UnitClass::PLANT;
    const MINE: u32 = UnitClass::MINE;

    #[test]
    fn a_button_is_enabled_while_the_clan_holds_what_its_page_lists() {
        let held = [(3, PLANT, true), (5, MINE, true), (9, UnitClass::BUILDER, false), (11, UnitClass::HERO, false)];
        let on = |b| enabled(b, &held, false);
        assert!(!on(Button::Page(Page::Factory)), "a factory raising itself does not count");
        assert!(on(Button::Page(Page::Other)), "other buildings: even one raising itself");
        assert!(on(Button::Page(Page::Builders)) && !on(Button::Page(Page::Transports)));
        assert!(!on(Button::Page(Page::BattleUnits)), "the hero is no battle unit");
        assert!(on(Button::Hero) && on(Button::Map) && on(Button::GameMenu));
        assert!(!on(Button::Chat) && enabled(Button::Chat, &held, true), "chat in a network game");
        let hq = [(4, UnitClass::HQ, false)];
        assert!(enabled(Button::Page(Page::BattleUnits), &hq, false), "an HQ is a battle unit");
        assert!(enabled(Button::Page(Page::Bunkers), &[(2, UnitClass::BUNKERS[1], false)], false));
    }

    #[test]
    fn a_page_keeps_a_lone_listed_selection_else_selects_its_first() {
        let held = [(3, PLANT, false), (7, UnitClass::BATTLE_UNIT, false), (8, UnitClass::BATTLE_UNIT, false)];
        assert_eq!(select_for(Page::BattleUnits, &held, &[8]), Some(8), "the one selected stays");
        assert_eq!(select_for(Page::BattleUnits, &held, &[3]), Some(7), "else the first listed");
        assert_eq!(select_for(Page::BattleUnits, &held, &[7, 8]), Some(7), "two selected: the first");
        assert_eq!(select_for(Page::Factory, &held, &[7]), Some(3));
        assert_eq!(select_for(Page::Transports, &held, &[]), None);
    }

    #[test]
    fn a_click_on_the_lone_selected_object_opens_its_page_and_a_unit_turns_an_open_one() {
        let mut c = Commander { steps: 0, ..Default::default() };
        c.clicked(UnitClass::BUILDER, false, false);
        assert_eq!(c.page, Page::None, "no page up: a first click only selects");
        c.clicked(UnitClass::BUILDER, false, true);
        assert_eq!((c.page, c.steps), (Page::Builders, STEPS), "again: the column out with its page");
        c.clicked(UnitClass::TRANSPORT, false, false);
        assert_eq!(c.page, Page::Transports, "a unit turns the page up");
        c.clicked(UnitClass::PLANT, true, false);
        assert_eq!(c.page, Page::Transports, "a building does not");
        c.clicked(UnitClass::PLANT, true, true);
        assert_eq!(c.page, Page::Factory);
        assert_eq!(page_of(UnitClass::BUNKERS[2], true), Page::Bunkers);
        assert_eq!(page_of(0x8020_0000, true), Page::Towers);
        assert_eq!(page_of(UnitClass::MINE, true), Page::Other);
        assert_eq!(page_of(UnitClass::HQ, false), Page::BattleUnits);
        assert_eq!(page_of(UnitClass::HERO, false), Page::None, "the hero turns no page");
    }

    #[test]
    fn the_column_slides_a_piece_each_twentieth_of_a_second() {
        let mut c = Commander::default();
        assert!(c.open());
        c.lock();
        c.advance(0.41);
        assert_eq!((c.steps, c.slide), (8, Some(false)), "half shut after 0.4 s");
        c.lock();
        assert_eq!(c.slide, Some(false), "a column on the move ends its slide");
        c.advance(0.45);
        assert_eq!((c.steps, c.slide), (0, None), "shut after 0.8 s");
        c.lock();
        c.advance(0.78);
        assert_eq!(c.steps, 15, "a step short of out at 0.78 s");
        c.advance(0.03);
        assert!(c.open(), "and out in 0.8 s");
    }
}
