//! The objectives screen (openparkan `docs/34-progression.md`, `docs/35-hud.md`, read): the
//! mission's objectives from `mission.cfg` (primary, then bonus), each a `TextRes.cfg`
//! key or its own text, with what the scripts made of it (complete, failed, in
//! progress). It is shown for the first 7 s of game time, and `Objectives` toggles it
//! (`CMD_JAMES_MISSION_OBJ`; the original's F12, iron3d's O: F12 stays the inspector's).

use crate::ScreenSystems;
use crate::game_text::TextTable;
use crate::locale::Locale;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::{AppState, GameClock, GameMessage, GameMessageKind, MissionGoals, ObjectiveChange};
use iron3d_input::{Actions, GameAction};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ObjectivesScreen>()
        .register_type::<ObjectivesScreen>()
        .add_systems(OnEnter(AppState::InGame), open)
        .add_systems(Update, (follow, toggle).run_if(in_state(AppState::InGame)))
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame));
}

/// How long the screen stays up when the mission starts (game seconds, read).
pub const START_MS: u32 = 7_000;

/// The objectives screen: up until a game time or by the key, and each objective's
/// state by position.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct ObjectivesScreen {
    /// Shown by the key, until the key again.
    pub open: bool,
    /// Shown until this game time (ms) anyway.
    pub until_ms: u32,
    /// What the scripts last did to each objective (none yet: in progress).
    pub states: Vec<Option<ObjectiveChange>>,
}

impl ObjectivesScreen {
    /// Whether it is up at game time `now_ms`.
    pub fn shown(&self, now_ms: u32) -> bool {
        self.open || now_ms < self.until_ms
    }

    /// The objectives key at game time `now_ms`: hides it if it is up, shows it if not.
    pub fn toggle(&mut self, now_ms: u32) {
        self.open = !self.shown(now_ms);
        self.until_ms = 0;
    }

    /// A script's change to objective `id`.
    pub fn change(&mut self, id: usize, change: ObjectiveChange) {
        if self.states.len() <= id {
            self.states.resize(id + 1, None);
        }
        self.states[id] = Some(change);
    }
}

/// The mission starts: the screen for its first 7 s, nothing done yet.
fn open(mut screen: ResMut<ObjectivesScreen>, clock: Res<GameClock>) {
    *screen = ObjectivesScreen { open: false, until_ms: clock.time_ms.saturating_add(START_MS), states: Vec::new() };
}

/// The scripts' changes to the objectives.
fn follow(mut screen: ResMut<ObjectivesScreen>, mut messages: MessageReader<GameMessage>) {
    for m in messages.read() {
        if let GameMessageKind::Objective { id, change, .. } = m.kind {
            screen.change(id as usize, change);
        }
    }
}

/// `Objectives` shows or hides the screen.
fn toggle(actions: Query<&Actions>, mut screen: ResMut<ObjectivesScreen>, clock: Res<GameClock>) {
    if actions.iter().any(|a| a.just_pressed(&GameAction::Objectives)) {
        screen.toggle(clock.time_ms);
    }
}

/// The screen: each objective's mark and text, bonus ones so marked.
fn draw(
    mut contexts: EguiContexts,
    (screen, clock): (Res<ObjectivesScreen>, Res<GameClock>),
    goals: Option<Res<MissionGoals>>,
    table: Option<Res<TextTable>>,
    locale: Res<Locale>,
) -> Result {
    let Some(goals) = goals.filter(|_| screen.shown(clock.time_ms)) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let text = |t: &str| table.as_ref().and_then(|tt| tt.0.get(t)).unwrap_or_else(|| t.to_string());
    egui::Window::new(locale.t("objectives-title"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 90.0])
        .show(ctx, |ui| {
            if goals.objectives.is_empty() {
                ui.label(locale.t("objectives-none"));
            }
            for (i, o) in goals.objectives.iter().enumerate() {
                let (mark, colour) = match screen.states.get(i).copied().flatten() {
                    Some(ObjectiveChange::Complete) => ("✔", egui::Color32::from_rgb(100, 255, 100)),
                    Some(ObjectiveChange::Failed) => ("✘", egui::Color32::from_rgb(255, 100, 100)),
                    _ => ("•", egui::Color32::WHITE),
                };
                let bonus = if o.bonus { format!(" ({})", locale.t("objectives-bonus")) } else { String::new() };
                ui.colored_label(colour, format!("{mark} {}{bonus}", text(&o.text)));
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_shows_7_game_seconds_at_the_start_then_the_key_toggles_it_and_keeps_the_scripts_changes() {
        let mut s = ObjectivesScreen { until_ms: START_MS, ..Default::default() };
        assert!(s.shown(6_999) && !s.shown(7_000), "the first 7 s of the mission");
        s.toggle(3_000);
        assert!(!s.shown(3_000), "the key hides it early");
        s.toggle(60_000);
        assert!(s.shown(60_000) && s.shown(600_000), "the key shows it until the key again");
        s.toggle(600_000);
        assert!(!s.shown(600_000));
        s.change(2, ObjectiveChange::Complete);
        s.change(0, ObjectiveChange::Failed);
        s.change(2, ObjectiveChange::Progress);
        assert_eq!(s.states, [Some(ObjectiveChange::Failed), None, Some(ObjectiveChange::Progress)]);
    }
}
