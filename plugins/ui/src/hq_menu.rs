//! The commander's order rows for the selected robots (openparkan `docs/31-packages.md`,
//! the HQ table, read; `gameplay.md` §9.2), in a command view or the free strategic
//! view: *Standby*, *Search and capture* (offered when the first selected robot is of
//! size class 1 or 2), *Seek and destroy*, *Guard* (then a right click picks what it
//! guards: the object clicked, else the place; radius 300) and *Refit* for every robot,
//! *Search minerals* for builders. *Route* is the right click on the ground, as it was.
//! Each row replaces the robots' orders, and the last robot acknowledges in the voice of
//! its size class. In a command view, one robot of the player's selected, three buttons
//! take it by telepresence at auto-driver level 0, 1 or 2 (openparkan
//! `docs/40-command-mode.md`, "Telepresence: mode 2", read: a unit that passes the
//! boardable test and whose current order is not `ORDER_ROBOT_UPGRADE`; the test is not
//! read, the project's is the hero's Enter's Type mask without the hero).

use crate::ScreenSystems;
use crate::command::Battlefield;
use crate::locale::Locale;
use crate::wingmen::Row;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{AppState, InterfaceClick, Order, OrderAcknowledged, OriginalObjectId, SizeClass, UnitClass};
use iron3d_input::{PlayerCommands, Selection};

/// The unit page's telepresence buttons, auto-driver level 0, 1 and 2: label and tooltip.
const DRIVE_BUTTONS: [(&str, &str); 3] =
    [("hq-drive-a", "hq-drive-a-tip"), ("hq-drive-b", "hq-drive-b-tip"), ("hq-drive-c", "hq-drive-c-tip")];

/// The radius the HQ menu's Guard gives (read).
pub const GUARD_RADIUS: f32 = 300.0;

/// The Guard row was pressed: the next right click picks what the robots guard.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct GuardPick(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GuardPick>().register_type::<GuardPick>().add_systems(
        EguiPrimaryContextPass,
        orders.run_if(in_state(AppState::InGame)).run_if(crate::views::commanding).in_set(ScreenSystems::InGame),
    );
}

/// A row of the commander's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    /// A row the wingman menu has too.
    Plain(Row),
    /// Guard: a pick follows.
    Guard,
    /// Search minerals (builders).
    SearchMinerals,
}

impl Command {
    fn label(self, locale: &Locale) -> String {
        match self {
            Self::Plain(row) => locale.t(row.key()),
            Self::Guard => locale.t("hq-guard"),
            Self::SearchMinerals => locale.t("hq-search-minerals"),
        }
    }
}

/// The rows offered to `first` (its Type and size class), the first selected robot.
fn rows(first: (Option<u32>, Option<u8>)) -> Vec<Command> {
    let mut rows = vec![Command::Plain(Row::Standby)];
    if first.1.is_some_and(|s| s <= SizeClass::CAPTURER) {
        rows.push(Command::Plain(Row::SearchAndCapture));
    }
    rows.extend([Command::Plain(Row::SeekAndDestroy), Command::Guard, Command::Plain(Row::Refit)]);
    if first.0 == Some(UnitClass::BUILDER) {
        rows.push(Command::SearchMinerals);
    }
    rows
}

/// The panel of order rows while the player's robots are selected.
fn orders(
    mut contexts: EguiContexts,
    scene: Battlefield,
    selection: Res<Selection>,
    (mut player, mut pick): (ResMut<PlayerCommands>, ResMut<GuardPick>),
    (mut click, mut acknowledge): (MessageWriter<InterfaceClick>, MessageWriter<OrderAcknowledged>),
    (locale, mut views, panel): (Res<Locale>, ResMut<crate::views::Views>, Res<crate::commander::Commander>),
    (mut taken, current): (ResMut<crate::pilot::TakenAt>, Query<&iron3d_behavior::Navigator>),
) -> Result {
    let units = scene.own_units(&selection.units);
    let Some(&first) = units.first() else {
        pick.0 = false;
        return Ok(());
    };
    let capturers = scene.capturers(&units);
    let ctx = contexts.ctx_mut()?;
    let left = crate::commander::clear_of(ctx, &views);
    // Under the commander's page when one is up, else at the bottom left.
    let (corner, y) = match panel.below {
        below if below > 0.0 && views.front().is_some() => (egui::Align2::LEFT_TOP, below + 8.0),
        _ => (egui::Align2::LEFT_BOTTOM, -8.0),
    };
    egui::Window::new(locale.t("hq-title"))
        .id("hq_menu".into())
        .anchor(corner, [left, y])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            for command in rows((scene.class_of(first), scene.size_of(first))) {
                let order = match command {
                    Command::Plain(row) => row.order(first, capturers, None, scene.player()),
                    Command::Guard => None,
                    Command::SearchMinerals => Some(Order::SearchLodes),
                };
                let enabled = order.is_some() || command == Command::Guard;
                if ui.add_enabled(enabled, egui::Button::new(command.label(&locale))).clicked() {
                    click.write(InterfaceClick);
                    match order {
                        Some(order) => {
                            player.order(units.clone(), order, false);
                            let last = units.last().copied().unwrap_or(first);
                            acknowledge.write(OrderAcknowledged { unit: OriginalObjectId(last) });
                        }
                        None => pick.0 = true,
                    }
                }
            }
            if pick.0 {
                ui.label(locale.t("hq-guard-pick"));
            }
            let upgrading = scene.entity(first).and_then(|e| current.get(e).ok()).map(|n| n.order);
            if !telepresent(views.front(), &units, scene.class_of(first), upgrading) {
                return;
            }
            ui.horizontal(|ui| {
                ui.label(locale.t("hq-telepresence"));
                for (level, (key, tip)) in (0..).zip(DRIVE_BUTTONS) {
                    let button = ui.button(locale.t(key)).on_hover_text(locale.t(tip));
                    if button.clicked() {
                        click.write(InterfaceClick);
                        views.push(crate::views::View::Telepresence(first));
                        taken.0 = Some((first, level));
                    }
                }
            });
        });
    Ok(())
}

/// Whether a unit page offers telepresence: in a command view, for one selected robot
/// of `class` (the hero's Enter's Type mask, never the hero) whose current order is not
/// an upgrade.
fn telepresent(front: Option<crate::views::View>, units: &[u32], class: Option<u32>, order: Option<Order>) -> bool {
    let command = matches!(front, Some(crate::views::View::Hq(_) | crate::views::View::Bunker(_)));
    let boardable = class.is_some_and(|c| c != UnitClass::HERO && c & !UnitClass::ENTERABLE == 0);
    command && units.len() == 1 && boardable && !matches!(order, Some(Order::Upgrade(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_offered_follow_the_first_robot() {
        let small = rows((Some(UnitClass::BATTLE_UNIT), Some(2)));
        assert!(small.contains(&Command::Plain(Row::SearchAndCapture)));
        let big = rows((Some(UnitClass::BATTLE_UNIT), Some(4)));
        assert!(!big.contains(&Command::Plain(Row::SearchAndCapture)), "capture only for sizes 1 and 2");
        assert_eq!(big.len(), 4, "standby, seek and destroy, guard, refit");
        assert!(rows((Some(UnitClass::BUILDER), Some(3))).contains(&Command::SearchMinerals), "builders");
        assert!(!big.contains(&Command::SearchMinerals));
    }

    #[test]
    fn telepresence_is_offered_for_one_robot_in_a_command_view_not_upgrading() {
        use crate::views::View;
        let bunker = Some(View::Bunker(9));
        let warrior = Some(UnitClass::BATTLE_UNIT);
        assert!(telepresent(bunker, &[4], warrior, None));
        assert!(telepresent(Some(View::Hq(2)), &[4], Some(UnitClass::HQ), Some(Order::Stop)));
        assert!(!telepresent(None, &[4], warrior, None), "the free strategic view has none");
        assert!(!telepresent(Some(View::OnFoot(1)), &[4], warrior, None));
        assert!(!telepresent(bunker, &[4, 5], warrior, None), "one robot");
        assert!(!telepresent(bunker, &[1], Some(UnitClass::HERO), None), "never the hero");
        assert!(!telepresent(bunker, &[4], Some(UnitClass::PLANT), None));
        assert!(!telepresent(bunker, &[4], warrior, Some(Order::Upgrade(7))), "not while it upgrades");
    }
}
