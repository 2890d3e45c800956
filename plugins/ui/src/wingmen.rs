//! The wingman menu (openparkan `docs/31-packages.md`, "The wingman menu from first
//! person", read; `gameplay.md` §9.2): from first person, the units of the player's
//! clan on the driven unit's radar are his wingmen, listed at the top left with their
//! number, a lamp and their name over their life. The tilde chooses them all and opens
//! the order menu; with `Queue` (Shift) held it opens a pick, where digit *n* toggles
//! wingman *n* and the tilde goes on to the menu. In the menu digit *n* gives row *n* to
//! the chosen units, replacing their orders, and the menu closes; the tilde or Esc
//! closes it too. A row that needs the driven unit's target, or capturers (size class 1
//! or 2), is grey without them. The last chosen unit acknowledges in the voice of its
//! size class.
//!
//! The list follows the driven unit's radar contacts in id order (an object without the
//! data's radar lists what is within its radar's range, the project's); the hero is
//! never listed. The rows' names are the interface's (the original's strings 5000–5008
//! are not read).

use crate::ScreenSystems;
use crate::command::Battlefield;
use crate::locale::Locale;
use crate::views::Views;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::plane::dist;
use iron3d_core::{AppState, Order, OrderAcknowledged, OriginalObjectId, Radar, RadarContacts, SearchFor, UnitClass};
use iron3d_input::{Actions, GameAction, PlayerCommands};

/// Wingmen listed at most (read).
pub const MAX_LINES: usize = 16;

/// Where the selector is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum Menu {
    /// Closed.
    #[default]
    Off,
    /// Choosing wingmen with the digits.
    Picking,
    /// The order menu is open.
    Ordering,
}

/// The wingman selector and the units chosen.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct Wingmen {
    /// Where it is.
    pub menu: Menu,
    /// The chosen wingmen, by id.
    pub chosen: Vec<u32>,
    /// The driven unit's wingmen this frame, worked out once by the input step.
    pub list: Vec<u32>,
}

impl Wingmen {
    /// Closes the menu and lets the chosen go.
    fn close(&mut self) {
        self.menu = Menu::Off;
        self.chosen.clear();
    }
}

/// A row of the wingman menu, in the original's order (digits 1 to 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// `STAYGROUND`.
    Standby,
    /// `FOLLOW` the driven unit.
    FollowMe,
    /// `SEARCH` by building type.
    SearchAndCapture,
    /// `SEARCH` with no target.
    SeekAndDestroy,
    /// `ATTACK` the driven unit's target.
    Attack,
    /// `SEARCH` on the driven unit's target building.
    CaptureBuilding,
    /// `RELOAD`.
    Refit,
}

impl Row {
    /// The rows in menu order.
    pub const ALL: [Self; 7] = [
        Self::Standby,
        Self::FollowMe,
        Self::SearchAndCapture,
        Self::SeekAndDestroy,
        Self::Attack,
        Self::CaptureBuilding,
        Self::Refit,
    ];

    /// Its name's locale key.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::Standby => "wingman-standby",
            Self::FollowMe => "wingman-follow",
            Self::SearchAndCapture => "wingman-search-capture",
            Self::SeekAndDestroy => "wingman-seek-destroy",
            Self::Attack => "wingman-attack",
            Self::CaptureBuilding => "wingman-capture",
            Self::Refit => "wingman-refit",
        }
    }

    /// The order this row gives, or `None` when it is grey: capturers are every chosen
    /// unit of size class 1 or 2; the target (`id`, clan, a building, its Type) must not
    /// be of the player's clan `mine`, and a building but no main teleport to capture.
    pub fn order(
        self,
        driven: u32,
        capturers: bool,
        target: Option<(u32, i32, bool, u32)>,
        mine: i32,
    ) -> Option<Order> {
        let foreign = target.filter(|t| t.1 != mine);
        match self {
            Self::Standby => Some(Order::StandGround),
            Self::FollowMe => Some(Order::Follow(driven)),
            Self::SearchAndCapture => capturers.then_some(Order::Search(SearchFor::Capture)),
            Self::SeekAndDestroy => Some(Order::Search(SearchFor::Enemies)),
            Self::Attack => foreign.map(|t| Order::Attack(t.0)),
            Self::CaptureBuilding => {
                foreign.filter(|t| capturers && t.2 && t.3 != UnitClass::MAIN_TELEPORT).map(|t| Order::Capture(t.0))
            }
            Self::Refit => Some(Order::Refit),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Wingmen>()
        .register_type::<Wingmen>()
        .add_systems(OnExit(AppState::InGame), |mut w: ResMut<Wingmen>| *w = Wingmen::default())
        .add_systems(Update, select.after(crate::views::transitions).before(crate::hud::toggle_pause))
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame));
}

/// What the menu reads of the world.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Flight<'w, 's> {
    scene: Battlefield<'w, 's>,
    views: Res<'w, Views>,
    radars: Query<'w, 's, (&'static Radar, Option<&'static RadarContacts>)>,
    names: Query<'w, 's, &'static Name>,
}

impl Flight<'_, '_> {
    /// The unit the player drives first person.
    fn driven(&self) -> Option<u32> {
        self.views.front()?.driven()
    }

    /// The driven unit's wingmen, in id order (at most [`MAX_LINES`]).
    fn wingmen(&self, driven: u32) -> Vec<u32> {
        let Some(me) = self.scene.object(driven) else { return Vec::new() };
        let here = [me.1.position[0], me.1.position[1]];
        let Some((radar, contacts)) = self.scene.entity(driven).and_then(|e| self.radars.get(e).ok()) else {
            return Vec::new();
        };
        let listed = |id: u32, at: [f32; 3]| match contacts {
            Some(c) => c.0.binary_search(&id).is_ok(),
            None => dist(here, [at[0], at[1]]) <= radar.range,
        };
        let mine = self.scene.player();
        let mut out: Vec<u32> = self
            .scene
            .objects
            .iter()
            .filter(|o| o.3 && o.2.clan == mine && o.0.0 != driven && listed(o.0.0, o.1.position))
            .filter(|o| self.scene.class_of(o.0.0).is_none_or(|c| c != UnitClass::HERO))
            .map(|o| o.0.0)
            .collect();
        out.sort_unstable();
        out.truncate(MAX_LINES);
        out
    }

    /// The driven unit's target: id, clan, whether a building, its Type.
    fn target(&self, driven: u32) -> Option<(u32, i32, bool, u32)> {
        let id = self.scene.entity(driven).and_then(|e| self.radars.get(e).ok())?.0.target?;
        self.scene.target(id)
    }
}

/// The tilde, the digits and Esc while a unit is driven first person.
pub(crate) fn select(
    mut actions: Query<&mut Actions>,
    flight: Flight,
    mut wingmen: ResMut<Wingmen>,
    mut player: ResMut<PlayerCommands>,
    mut respond: MessageWriter<OrderAcknowledged>,
) {
    let Ok(mut a) = actions.single_mut() else { return };
    let Some(driven) = flight.driven() else {
        *wingmen = Wingmen::default();
        return;
    };
    let list = flight.wingmen(driven);
    wingmen.chosen.retain(|id| list.contains(id));
    wingmen.list.clone_from(&list);
    let mut take = |action: GameAction| {
        let pressed = a.just_pressed(&action);
        if pressed {
            a.release(&action);
        }
        pressed
    };
    if take(GameAction::Wingmen) {
        let picking = a.pressed(&GameAction::Queue);
        (wingmen.menu, wingmen.chosen) = match (wingmen.menu, picking) {
            (Menu::Off, _) if list.is_empty() => (Menu::Off, Vec::new()),
            (Menu::Off, false) => (Menu::Ordering, list),
            (Menu::Off, true) => (Menu::Picking, Vec::new()),
            (Menu::Picking, _) if !wingmen.chosen.is_empty() => (Menu::Ordering, std::mem::take(&mut wingmen.chosen)),
            _ => (Menu::Off, Vec::new()),
        };
        return;
    }
    if wingmen.menu == Menu::Off {
        return;
    }
    if take(GameAction::Pause) {
        wingmen.close();
        return;
    }
    // A digit is a group's key or a weapon's (the original's files give it to the guns).
    let Some(n) = GameAction::GROUPS.iter().zip(GameAction::WEAPONS).position(|(g, w)| take(*g) | take(w)) else {
        return;
    };
    match wingmen.menu {
        Menu::Picking => {
            if let Some(&id) = list.get(n) {
                match wingmen.chosen.iter().position(|c| *c == id) {
                    Some(i) => _ = wingmen.chosen.remove(i),
                    None => wingmen.chosen.push(id),
                }
            }
        }
        Menu::Ordering => {
            let row = Row::ALL.get(n).copied();
            let capturers = flight.scene.capturers(&wingmen.chosen);
            let order = row.and_then(|r| r.order(driven, capturers, flight.target(driven), flight.scene.player()));
            if let Some(order) = order {
                player.order(wingmen.chosen.clone(), order, false);
                if let Some(&last) = wingmen.chosen.last() {
                    respond.write(OrderAcknowledged { unit: OriginalObjectId(last) });
                }
                wingmen.close();
            }
        }
        Menu::Off => {}
    }
}

/// The wingmen's lines at the top left (whenever the driven unit has wingmen) and the
/// order menu under them (the original's layout at 640 × 480: lines 19 apart from the
/// top, the menu's rows from (220, 50)).
fn draw(mut contexts: EguiContexts, flight: Flight, wingmen: Res<Wingmen>, locale: Res<Locale>) -> Result {
    let list = &wingmen.list;
    let Some(driven) = flight.driven().filter(|_| !list.is_empty()) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let scale = ctx.content_rect().height() / 480.0;
    let grey = egui::Color32::from_gray(128);
    egui::Area::new("wingmen".into()).fixed_pos(egui::pos2(0.0, 40.0 * scale)).show(ctx, |ui| {
        for (i, &id) in list.iter().enumerate() {
            let chosen = wingmen.chosen.contains(&id);
            let lamp = match (chosen, wingmen.menu) {
                (true, _) => egui::Color32::GREEN,
                (false, Menu::Picking) => egui::Color32::YELLOW,
                _ => egui::Color32::BLACK,
            };
            let name = flight.scene.object(id).map_or_else(String::new, |o| {
                let life = o.5.map_or(100.0, |h| 100.0 * h.hp / h.max.max(1.0));
                let name = flight.scene.entity(id).and_then(|e| flight.names.get(e).ok());
                format!("{} {life:.0}%", name.map_or_else(|| id.to_string(), |n| n.to_string()))
            });
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("{}", i + 1)).strong());
                let (lamp_at, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                ui.painter().circle_filled(lamp_at.center(), 4.0, lamp);
                ui.label(egui::RichText::new(name).color(if chosen { egui::Color32::WHITE } else { grey }));
            });
        }
    });
    if wingmen.menu != Menu::Ordering {
        return Ok(());
    }
    let capturers = flight.scene.capturers(&wingmen.chosen);
    let target = flight.target(driven);
    egui::Area::new("wingman_menu".into()).fixed_pos(egui::pos2(220.0 * scale, 50.0 * scale)).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            for (i, row) in Row::ALL.iter().enumerate() {
                let enabled = row.order(driven, capturers, target, flight.scene.player()).is_some();
                let text = format!("{}  {}", i + 1, locale.t(row.key()));
                ui.label(egui::RichText::new(text).color(if enabled { egui::Color32::WHITE } else { grey }));
            }
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]
    use super::*;
    use crate::views::View;
    use iron3d_core::{ClanRelations, Movable, ObjectTable, Owner, SimTransform, SizeClass};

    const HERO: u32 = 1;
    const BIG: u32 = 2;
    const SMALL: u32 = 3;
    const FAR: u32 = 4;
    const FACTORY: u32 = 5;

    /// The hero on foot with a radar of 100 targeting another clan's factory; a big and a
    /// small robot of his near him, one far off.
    fn flight() -> App {
        let mut app = App::new();
        app.add_message::<OrderAcknowledged>()
            .init_resource::<Wingmen>()
            .init_resource::<ClanRelations>()
            .init_resource::<ObjectTable>()
            .init_resource::<PlayerCommands>()
            .insert_resource(Views(vec![View::OnFoot(HERO)]))
            .add_systems(Update, select);
        let mine = crate::command::player_clan(None);
        let mut object = |id: u32, at: [f32; 2], clan: i32, size: Option<u8>| {
            let t = SimTransform { position: [at[0], at[1], 0.0], ..SimTransform::default() };
            let mut e = app.world_mut().spawn((OriginalObjectId(id), t, Owner { clan, player: None }));
            if let Some(s) = size {
                e.insert((Movable, SizeClass(s), UnitClass(UnitClass::BATTLE_UNIT)));
            }
            let e = e.id();
            app.world_mut().resource_mut::<ObjectTable>().insert(e, OriginalObjectId(id));
            e
        };
        let hero = object(HERO, [0.0, 0.0], mine, Some(2));
        object(BIG, [30.0, 0.0], mine, Some(4));
        object(SMALL, [0.0, 40.0], mine, Some(1));
        object(FAR, [500.0, 0.0], mine, Some(1));
        object(FACTORY, [60.0, 60.0], mine + 1, None);
        let radar = Radar { range: 100.0, target: Some(FACTORY), ordered: false };
        app.world_mut().entity_mut(hero).insert((radar, UnitClass(UnitClass::HERO)));
        app.world_mut().spawn(Actions::default());
        app
    }

    fn press(app: &mut App, action: GameAction, held: Option<GameAction>) {
        let mut q = app.world_mut().query::<&mut Actions>();
        let mut a = q.single_mut(app.world_mut()).unwrap();
        a.press(&action);
        if let Some(h) = held {
            a.press(&h);
        }
        app.update();
        let mut q = app.world_mut().query::<&mut Actions>();
        let mut a = q.single_mut(app.world_mut()).unwrap();
        a.release(&action);
        if let Some(h) = held {
            a.release(&h);
        }
    }

    fn orders(app: &mut App) -> Vec<(Vec<u32>, Order)> {
        let orders = std::mem::take(&mut app.world_mut().resource_mut::<PlayerCommands>().orders);
        orders.into_iter().map(|o| (o.units, o.order)).collect()
    }

    #[test]
    fn the_tilde_orders_every_wingman_on_the_radar_and_shift_picks_them() {
        let mut app = flight();
        press(&mut app, GameAction::Wingmen, None);
        let w = app.world().resource::<Wingmen>().clone();
        assert_eq!((w.menu, w.chosen), (Menu::Ordering, vec![BIG, SMALL]), "the far one is off the radar");
        press(&mut app, GameAction::Group3, None);
        assert!(orders(&mut app).is_empty(), "search and capture is grey: a big robot is chosen");
        press(&mut app, GameAction::Group1, None);
        assert_eq!(orders(&mut app), [(vec![BIG, SMALL], Order::StandGround)]);
        assert_eq!(app.world().resource::<Wingmen>().menu, Menu::Off, "closed after the order");
        // Shift and the tilde: a pick, digit 2 chooses the second wingman, the tilde orders.
        press(&mut app, GameAction::Wingmen, Some(GameAction::Queue));
        assert_eq!(app.world().resource::<Wingmen>().menu, Menu::Picking);
        press(&mut app, GameAction::Group2, None);
        press(&mut app, GameAction::Wingmen, None);
        let w = app.world().resource::<Wingmen>().clone();
        assert_eq!((w.menu, w.chosen), (Menu::Ordering, vec![SMALL]));
        press(&mut app, GameAction::Group6, None);
        assert_eq!(orders(&mut app), [(vec![SMALL], Order::Capture(FACTORY))], "the hero's target, by a capturer");
        // Esc closes an open menu.
        press(&mut app, GameAction::Wingmen, None);
        press(&mut app, GameAction::Pause, None);
        assert_eq!(app.world().resource::<Wingmen>().menu, Menu::Off);
    }

    #[test]
    fn a_row_is_grey_without_its_target_or_capturers() {
        let building = Some((9, 2, true, 0x8000_0010));
        let own = Some((9, 1, true, 0x8000_0010));
        let robot = Some((7, 2, false, UnitClass::BATTLE_UNIT));
        assert_eq!(Row::Standby.order(1, false, None, 1), Some(Order::StandGround));
        assert_eq!(Row::FollowMe.order(1, false, None, 1), Some(Order::Follow(1)), "the driven unit");
        assert_eq!(Row::SearchAndCapture.order(1, false, None, 1), None, "no capturers");
        assert_eq!(Row::SearchAndCapture.order(1, true, None, 1), Some(Order::Search(SearchFor::Capture)));
        assert_eq!(Row::SeekAndDestroy.order(1, false, None, 1), Some(Order::Search(SearchFor::Enemies)));
        assert_eq!(Row::Attack.order(1, false, None, 1), None, "no target");
        assert_eq!(Row::Attack.order(1, false, own, 1), None, "the player's own");
        assert_eq!(Row::Attack.order(1, false, robot, 1), Some(Order::Attack(7)));
        assert_eq!(Row::CaptureBuilding.order(1, true, robot, 1), None, "not a building");
        assert_eq!(Row::CaptureBuilding.order(1, false, building, 1), None, "no capturers");
        assert_eq!(Row::CaptureBuilding.order(1, true, building, 1), Some(Order::Capture(9)));
        let teleport = Some((9, 2, true, UnitClass::MAIN_TELEPORT));
        assert_eq!(Row::CaptureBuilding.order(1, true, teleport, 1), None, "a main teleport");
        assert_eq!(Row::Refit.order(1, false, None, 1), Some(Order::Refit));
    }
}
