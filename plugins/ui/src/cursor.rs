//! The cursor where the player commands (openparkan `docs/42-selection.md`, "The kinds it
//! answers" and "Which state", read): it shows what a click on the map would do with
//! the selection: pick an own object, target a foreign one, capture a building the small
//! robots selected can take, guard, place a walk on walkable ground, or refuse. The
//! original's animated cursors (`ui/cursor.cfg`) stand in as the system's shapes (the
//! project's): a pointing hand, a crosshair, a grab, a cell, a move and a no-entry sign.

use crate::ScreenSystems;
use crate::command::Battlefield;
use crate::hq_menu::GuardPick;
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

/// The cursor for `selected` over `under` (or the ground, `walkable` or not), while a
/// guard's pick is open or not (read: the pick's kinds and the states they show).
pub fn cursor(selected: Selected, guard_pick: bool, under: Option<Under>, walkable: bool) -> Cursor {
    if under.is_some_and(|u| u.building && u.raising) || matches!(selected, Selected::Units { hero: true, .. }) {
        return Cursor::WrongPlace;
    }
    match (selected, under) {
        (Selected::Nothing, Some(u)) if u.own => Cursor::Pick,
        (Selected::Nothing, _) => Cursor::Arrow,
        (Selected::Building(b), Some(u)) if u.own && u.id != b => Cursor::Pick,
        (Selected::Building(_), _) => Cursor::Arrow,
        (Selected::Units { .. }, Some(_)) if guard_pick => Cursor::Guard,
        (Selected::Units { .. }, None) if guard_pick && walkable => Cursor::Guard,
        (Selected::Units { .. }, None) if guard_pick => Cursor::Arrow,
        (Selected::Units { lone, .. }, Some(u)) if u.own && !u.building && lone == Some(u.id) => Cursor::Arrow,
        (Selected::Units { .. }, Some(u)) if u.own && !u.building => Cursor::Pick,
        (Selected::Units { .. }, Some(u)) if u.own => Cursor::Guard,
        (Selected::Units { capturers: true, .. }, Some(u)) if u.building => Cursor::Capture,
        (Selected::Units { .. }, Some(_)) => Cursor::Target,
        (Selected::Units { .. }, None) if walkable => Cursor::Place,
        (Selected::Units { .. }, None) => Cursor::Arrow,
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
    scene: Battlefield,
    selection: Res<Selection>,
    (pick, nav): (Res<GuardPick>, Option<Res<NavMap>>),
    raising: Query<(), With<UnderConstruction>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.is_pointer_over_egui() {
        return Ok(());
    }
    let Some(at) = scene.cursor_ground() else { return Ok(()) };
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
    let under = scene.picked(at).map(|(id, clan)| Under {
        id,
        own: clan == mine,
        building: scene.object(id).is_some_and(|o| !o.3),
        raising: scene.entity(id).is_some_and(|e| raising.contains(e)),
    });
    let walkable = nav.is_some_and(|n| n.walkable(at[0], at[1]));
    ctx.set_cursor_icon(cursor(selected, pick.0, under, walkable).icon());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn object(id: u32, own: bool, building: bool) -> Option<Under> {
        Some(Under { id, own, building, raising: false })
    }

    #[test]
    fn the_cursor_follows_the_originals_kinds() {
        let units = |lone, capturers| Selected::Units { lone, capturers, hero: false };
        let (small, big) = (units(None, true), units(None, false));
        assert_eq!(cursor(Selected::Nothing, false, object(4, true, false), true), Cursor::Pick);
        assert_eq!(cursor(Selected::Nothing, false, object(4, false, false), true), Cursor::Arrow);
        assert_eq!(cursor(Selected::Nothing, false, None, true), Cursor::Arrow);
        assert_eq!(cursor(Selected::Building(3), false, object(3, true, true), true), Cursor::Arrow, "itself");
        assert_eq!(cursor(Selected::Building(3), false, object(5, true, true), true), Cursor::Pick);
        assert_eq!(cursor(units(Some(4), true), false, object(4, true, false), true), Cursor::Arrow, "the lone one");
        assert_eq!(cursor(big, false, object(4, true, false), true), Cursor::Pick, "another own unit");
        assert_eq!(cursor(big, false, object(9, false, false), true), Cursor::Target, "a foreign unit");
        assert_eq!(cursor(big, false, object(3, true, true), true), Cursor::Guard, "an own building");
        assert_eq!(cursor(small, false, object(8, false, true), true), Cursor::Capture, "small robots take it");
        assert_eq!(cursor(big, false, object(8, false, true), true), Cursor::Target, "a bigger one attacks");
        assert_eq!(cursor(big, false, None, true), Cursor::Place);
        assert_eq!(cursor(big, false, None, false), Cursor::Arrow, "ground no walk reaches");
        assert_eq!(cursor(big, true, object(9, false, false), true), Cursor::Guard, "a guard's pick");
        assert_eq!(cursor(big, true, None, true), Cursor::Guard);
        assert_eq!(cursor(big, true, None, false), Cursor::Arrow);
    }

    #[test]
    fn a_building_raising_itself_or_the_hero_selected_is_refused() {
        let raising = Some(Under { id: 8, own: false, building: true, raising: true });
        let small = Selected::Units { lone: None, capturers: true, hero: false };
        assert_eq!(cursor(small, false, raising, true), Cursor::WrongPlace);
        assert_eq!(cursor(Selected::Nothing, false, raising, true), Cursor::WrongPlace);
        let hero = Selected::Units { lone: Some(84), capturers: true, hero: true };
        assert_eq!(cursor(hero, false, None, true), Cursor::WrongPlace);
    }
}
