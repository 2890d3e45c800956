//! The outcome screen: once the player's clan (the first clan of mode 1) has an
//! outcome, a window says how the mission ended, with the clans' results (the
//! campaign progress takes it in `campaign::apply_outcome`); a won campaign mission
//! offers the next one, a lost mission a retry (both through the briefing).

use crate::ScreenSystems;
use crate::game_text::TextTable;
use crate::locale::{Locale, outcome_key};
use crate::menu::MissionStarter;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{AppState, MissionClans, MissionOutcome, Outcome};
use iron3d_formats::config::TextRes;
use iron3d_mission::{LoadedMission, MissionName};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OutcomeDismissed>()
        .add_systems(EguiPrimaryContextPass, screen.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::Outcome));
}

/// The outcome window was dismissed ("keep watching"); reset with the mission.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutcomeDismissed(pub bool);

/// The player's clan index and its outcome, when it has one.
pub fn player_outcome(clans: Option<&MissionClans>, outcome: &MissionOutcome) -> Option<(u32, Outcome)> {
    let player = clans?.player()?;
    outcome.of(player).map(|o| (player, o))
}

/// What the outcome window offers after `current` ended with `mine`: the locale key of
/// the button and the mission it briefs. A won mission offers the next one of its
/// campaign (`next_after`), if any; a failed or defeated one a retry.
fn offer(
    mine: Outcome,
    current: MissionName,
    next_after: impl FnOnce(&MissionName) -> Option<MissionName>,
) -> Option<(&'static str, MissionName)> {
    match mine {
        Outcome::Completed => next_after(&current).map(|n| ("outcome-next", n)),
        Outcome::Failed | Outcome::Defeated => Some(("outcome-retry", current)),
    }
}

/// The outcome window.
pub fn screen(
    mut contexts: EguiContexts,
    clans: Option<Res<MissionClans>>,
    outcome: Res<MissionOutcome>,
    mut dismissed: ResMut<OutcomeDismissed>,
    mut starter: MissionStarter,
    texts: (Res<Locale>, Option<Res<TextTable>>, Option<Res<LoadedMission>>),
) -> Result {
    let (locale, table, mission) = texts;
    let Some((_, mine)) = player_outcome(clans.as_deref(), &outcome) else { return Ok(()) };
    if dismissed.0 {
        return Ok(());
    }
    let current = mission.as_ref().and_then(|m| MissionName::parse(&m.name).ok());
    let offer = current.and_then(|name| offer(mine, name, |n| starter.next_after(n)));
    let mut go = None;
    let ctx = contexts.ctx_mut()?;
    let (title, colour) = match mine {
        Outcome::Completed => ("outcome-title-completed", egui::Color32::LIGHT_GREEN),
        Outcome::Failed => ("outcome-title-failed", egui::Color32::LIGHT_RED),
        Outcome::Defeated => ("outcome-title-defeated", egui::Color32::LIGHT_RED),
    };
    let title = locale.t(title);
    egui::Window::new("outcome")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.heading(egui::RichText::new(title).size(32.0).color(colour).strong());
                ui.separator();
                for (clan, o, tick) in &outcome.records {
                    let name = clans.as_ref().and_then(|c| c.clans.get(*clan as usize)).map_or("?", |c| &c.name);
                    let seconds = format!("{:.0}", *tick as f32 * iron3d_core::TICK_SECONDS);
                    let args = [
                        ("clan", name.into()),
                        ("outcome", locale.t(&outcome_key(*o)).into()),
                        ("seconds", seconds.into()),
                    ];
                    ui.label(locale.tr("outcome-record", &args));
                }
                ui.separator();
                ui.horizontal(|ui| {
                    if let Some((key, name)) = &offer
                        && ui.button(locale.t(key)).on_hover_text(name.to_string()).clicked()
                    {
                        go = Some(name.clone());
                    }
                    if ui.button(locale.t("outcome-menu")).clicked() {
                        starter.back_to_menu();
                    }
                    if ui.button(locale.t("outcome-keep-watching")).clicked() {
                        dismissed.0 = true;
                    }
                });
            });
        });
    if let Some(name) = go {
        starter.back_to_menu();
        starter.brief(table.as_ref().map(|t| &t.0).unwrap_or(&TextRes::default()), name.as_str());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> MissionName {
        MissionName::parse(s).expect("a mission name")
    }

    #[test]
    fn a_won_campaign_mission_offers_the_next_and_a_lost_one_a_retry() {
        let next = |n: &MissionName| (n == &name("campaign.01/mission.01")).then(|| name("campaign.01/mission.02"));
        let won = offer(Outcome::Completed, name("campaign.01/mission.01"), next);
        assert_eq!(won, Some(("outcome-next", name("campaign.01/mission.02"))));
        assert_eq!(offer(Outcome::Completed, name("campaign.01/mission.03"), next), None, "the last mission");
        for lost in [Outcome::Failed, Outcome::Defeated] {
            let retry = offer(lost, name("campaign.01/mission.02"), next);
            assert_eq!(retry, Some(("outcome-retry", name("campaign.01/mission.02"))));
        }
    }
}
