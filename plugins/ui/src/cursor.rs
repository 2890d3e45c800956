//! The cursor where the player commands (openparkan `docs/42-selection.md`, "The kinds it
//! answers" and "Which state", read): it shows what a click on the map would do with
//! the selection: pick an own object, target a foreign one, capture a building the small
//! robots selected can take, guard, place a walk on walkable ground, or refuse. The
//! original's animated cursors (`ui/cursor.cfg`) stand in as the system's shapes (the
//! project's): a pointing hand, a crosshair, a grab, a cell, a move and a no-entry sign.

use crate::ScreenSystems;
use crate::command::Battlefield;
use crate::hq_menu::GuardPick;
use crate::minimap::{MapPoint, Minimap};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{AppState, Pause, UnderConstruction, UnitClass};
use iron3d_input::Selection;
use iron3d_terrain::NavMap;

/// The cursor's states the map can ask for (the original's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cursor {
    /// `ARROW`: nothing to do there.
    Arrow,
    /// `PICK`: an own object to select.
    Pick,
    /// `PLACE`: ground the selection may walk to.
    Place,
    /// `WRONG_PLACE`: refused.
    WrongPlace,
    /// `TARGET`: a foreign object to attack.
    Target,
    /// `CAPTURE`: a foreign building the selection can capture.
    Capture,
    /// `GUARD`: what a guard would guard.
    Guard,
}

impl Cursor {
    /// The system's shape standing in for the original's cursor.
    pub fn icon(self) -> egui::CursorIcon {
        match self {
            Self::Arrow => egui::CursorIcon::Default,
            Self::Pick => egui::CursorIcon::PointingHand,
            Self::Place => egui::CursorIcon::Move,
            Self::WrongPlace => egui::CursorIcon::NotAllowed,
            Self::Target => egui::CursorIcon::Crosshair,
            Self::Capture => egui::CursorIcon::Grab,
            Self::Guard => egui::CursorIcon::Cell,
        }
    }
}

/// What is selected, as the cursor reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selected {
    /// Nothing of the player's.
    Nothing,
    /// One of the player's buildings.
    Building(u32),
    /// The player's units: the one when it is alone, whether all are capturers (size
    /// class 1 or 2), whether the first is the hero.
    Units { lone: Option<u32>, capturers: bool, hero: bool },
}

/// The object under the cursor: its id, whether it is the player's, a building, and
/// one raising itself (its construction sphere running).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Under {
    /// Its id.
    pub id: u32,
    /// Of the player's clan.
    pub own: bool,
    /// A building.
    pub building: bool,
    /// Its construction sphere runs.
    pub raising: bool,
}

/// The radius a click's guard of an own building gives (read; the Guard row's is 300).
pub const BUILDING_GUARD_RADIUS: f32 = 100.0;

/// What a left click would do where the cursor is (read: the pick's kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Nothing (kind 0, and the lone selected object's own kind 17 but for its page).
    Nothing,
    /// Refused (kind 2): a building raising itself, or the hero selected.
    Refused,
    /// Select an own object (kind 7).
    Select(u32),
    /// The lone selected object again: its page (kind 17).
    Again(u32),
    /// The selection goes there (kind 1).
    Go,
    /// Attack a foreign object (kind 3).
    Attack(u32),
    /// Capture a foreign building (kind 4).
    Capture(u32),
    /// Guard an own building (kind 10), or, while a guard's pick is open, anything
    /// (kind 9).
    GuardObject(u32),
    /// While a guard's pick is open, guard the walkable place (kind 8).
    GuardPlace,
}

impl Pick {
    /// The cursor it shows (read).
    pub fn cursor(self) -> Cursor {
        match self {
            Self::Nothing | Self::Again(_) => Cursor::Arrow,
            Self::Refused => Cursor::WrongPlace,
            Self::Select(_) => Cursor::Pick,
            Self::Go => Cursor::Place,
            Self::Attack(_) => Cursor::Target,
            Self::Capture(_) => Cursor::Capture,
            Self::GuardObject(_) | Self::GuardPlace => Cursor::Guard,
        }
    }
}

/// What a left click does for `selected` over `under` (or the ground, `walkable` or
/// not), while a guard's pick is open or not (read: the kinds table).
pub fn pick(selected: Selected, guard_pick: bool, under: Option<Under>, walkable: bool) -> Pick {
    if under.is_some_and(|u| u.building && u.raising) || matches!(selected, Selected::Units { hero: true, .. }) {
        return Pick::Refused;
    }
    match (selected, under) {
        (Selected::Nothing, Some(u)) if u.own => Pick::Select(u.id),
        (Selected::Nothing, _) => Pick::Nothing,
        (Selected::Building(b), Some(u)) if u.id == b => Pick::Again(b),
        (Selected::Building(_), Some(u)) if u.own => Pick::Select(u.id),
        (Selected::Building(_), _) => Pick::Nothing,
        (Selected::Units { .. }, Some(u)) if guard_pick => Pick::GuardObject(u.id),
        (Selected::Units { .. }, None) if guard_pick && walkable => Pick::GuardPlace,
        (Selected::Units { .. }, None) if guard_pick => Pick::Nothing,
        (Selected::Units { lone, .. }, Some(u)) if u.own && !u.building && lone == Some(u.id) => Pick::Again(u.id),
        (Selected::Units { .. }, Some(u)) if u.own && !u.building => Pick::Select(u.id),
        (Selected::Units { .. }, Some(u)) if u.own => Pick::GuardObject(u.id),
        (Selected::Units { capturers: true, .. }, Some(u)) if u.building => Pick::Capture(u.id),
        (Selected::Units { .. }, Some(u)) => Pick::Attack(u.id),
        (Selected::Units { .. }, None) if walkable => Pick::Go,
        (Selected::Units { .. }, None) => Pick::Nothing,
    }
}

/// The map under the cursor, as a click or the cursor reads it.
#[derive(SystemParam)]
pub(crate) struct Pointing<'w, 's> {
    pub(crate) scene: Battlefield<'w, 's>,
    nav: Option<Res<'w, NavMap>>,
    raising: Query<'w, 's, (), With<UnderConstruction>>,
}

impl Pointing<'_, '_> {
    /// What a left click would do with `selection` (a guard's pick open or not), and
    /// the ground point under the cursor: on the open satellite map `map`, the point it
    /// stands for and the object the map's pick takes there, nothing on its frame (read).
    pub(crate) fn pick(&self, selection: &Selection, guard_pick: bool, map: &Minimap) -> Option<(Pick, [f32; 3])> {
        let scene = &self.scene;
        let (at, picked) = match map.point(scene.cursor()?) {
            MapPoint::Frame => return None,
            MapPoint::At(p) => {
                let z = scene.ground.as_ref().and_then(|g| g.height_at(p[0], p[1])).unwrap_or_default();
                ([p[0], p[1], z], scene.picked_on_map(p, &map.marks))
            }
            MapPoint::Off => (scene.cursor_ground()?, scene.picked()),
        };
        let mine = scene.player();
        let units = scene.own_units(&selection.units);
        let selected = match (units.first(), selection.units.as_slice()) {
            (Some(&first), _) => Selected::Units {
                lone: (units.len() == 1).then_some(first),
                capturers: scene.capturers(&units),
                hero: scene.class_of(first) == Some(UnitClass::HERO),
            },
            (None, &[b]) if scene.object(b).is_some_and(|o| o.2.clan == mine) => Selected::Building(b),
            _ => Selected::Nothing,
        };
        let under = picked.map(|(id, clan)| Under {
            id,
            own: clan == mine,
            building: scene.object(id).is_some_and(|o| !o.3),
            raising: scene.entity(id).is_some_and(|e| self.raising.contains(e)),
        });
        let walkable = self.nav.as_ref().is_some_and(|n| n.walkable(at[0], at[1]));
        Some((pick(selected, guard_pick, under, walkable), at))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        show.run_if(in_state(AppState::InGame))
            .run_if(in_state(Pause::Running))
            .run_if(crate::views::commanding)
            .in_set(ScreenSystems::InGame),
    );
}

/// Shows the cursor for what lies under it, unless egui has the pointer.
fn show(
    mut contexts: EguiContexts,
    pointing: Pointing,
    (selection, pick, map): (Res<Selection>, Res<GuardPick>, Res<Minimap>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !ctx.is_pointer_over_egui()
        && let Some((pick, _)) = pointing.pick(&selection, pick.0, &map)
    {
        ctx.set_cursor_icon(pick.cursor().icon());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(selected: Selected, guard_pick: bool, under: Option<Under>, walkable: bool) -> Cursor {
        pick(selected, guard_pick, under, walkable).cursor()
    }

    const fn object(id: u32, own: bool, building: bool) -> Option<Under> {
        Some(Under { id, own, building, raising: false })
    }

    #[test]
    fn the_cursor_follows_the_originals_kinds() {
        let units = |lone, capturers| Selected::Units { lone, capturers, hero: false };
        let (small, big) = (units(None, true), units(None, false));
        assert_eq!(c(Selected::Nothing, false, object(4, true, false), true), Cursor::Pick);
        assert_eq!(c(Selected::Nothing, false, object(4, false, false), true), Cursor::Arrow);
        assert_eq!(c(Selected::Nothing, false, None, true), Cursor::Arrow);
        assert_eq!(c(Selected::Building(3), false, object(3, true, true), true), Cursor::Arrow, "itself");
        assert_eq!(c(Selected::Building(3), false, object(5, true, true), true), Cursor::Pick);
        assert_eq!(c(units(Some(4), true), false, object(4, true, false), true), Cursor::Arrow, "the lone one");
        assert_eq!(c(big, false, object(4, true, false), true), Cursor::Pick, "another own unit");
        assert_eq!(c(big, false, object(9, false, false), true), Cursor::Target, "a foreign unit");
        assert_eq!(c(big, false, object(3, true, true), true), Cursor::Guard, "an own building");
        assert_eq!(c(small, false, object(8, false, true), true), Cursor::Capture, "small robots take it");
        assert_eq!(c(big, false, object(8, false, true), true), Cursor::Target, "a bigger one attacks");
        assert_eq!(c(big, false, None, true), Cursor::Place);
        assert_eq!(c(big, false, None, false), Cursor::Arrow, "ground no walk reaches");
        assert_eq!(c(big, true, object(9, false, false), true), Cursor::Guard, "a guard's pick");
        assert_eq!(c(big, true, None, true), Cursor::Guard);
        assert_eq!(c(big, true, None, false), Cursor::Arrow);
    }

    #[test]
    fn a_click_gives_the_order_its_cursor_shows() {
        let small = Selected::Units { lone: None, capturers: true, hero: false };
        assert_eq!(pick(small, false, None, true), Pick::Go);
        assert_eq!(pick(small, false, object(8, false, true), true), Pick::Capture(8));
        assert_eq!(pick(small, false, object(9, false, false), true), Pick::Attack(9));
        assert_eq!(pick(small, false, object(3, true, true), true), Pick::GuardObject(3));
        assert_eq!(pick(small, true, None, true), Pick::GuardPlace);
        let lone = Selected::Units { lone: Some(4), capturers: false, hero: false };
        assert_eq!(pick(lone, false, object(4, true, false), true), Pick::Again(4));
        assert_eq!(pick(Selected::Building(3), false, object(3, true, true), true), Pick::Again(3));
        assert_eq!(pick(Selected::Nothing, false, object(5, true, false), true), Pick::Select(5));
    }

    #[test]
    fn a_building_raising_itself_or_the_hero_selected_is_refused() {
        let raising = Some(Under { id: 8, own: false, building: true, raising: true });
        let small = Selected::Units { lone: None, capturers: true, hero: false };
        assert_eq!(c(small, false, raising, true), Cursor::WrongPlace);
        assert_eq!(c(Selected::Nothing, false, raising, true), Cursor::WrongPlace);
        let hero = Selected::Units { lone: Some(84), capturers: true, hero: true };
        assert_eq!(c(hero, false, None, true), Cursor::WrongPlace);
    }
}
