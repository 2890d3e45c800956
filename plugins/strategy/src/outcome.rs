//! The defeat and victory rules (the project's own): a clan with no unit and no
//! production building is defeated; a player clan whose enemies are all out has won —
//! **only in a mission whose player package can never record the outcome itself**
//! (`iron3d_core::EnemyOutVictory`, decided and logged by SuperAI when the mission
//! loads: the original ends a mission only through its scripts' function 30, so a
//! package that calls it wins by its own objectives). A player clan's end goes through
//! its script: its `Mission_Complete` (won) or `Mission_Failed` (defeated) event runs
//! when its package has one, and then, if the clan is still without an outcome,
//! `completed` or `failed` is recorded through function 30's host callback all the same
//! (SuperAI's fallback), so data whose scripts name no such event can be won and lost.
//! A computer clan is recorded `defeated` directly.

use crate::{Strategy, StrategyRules};
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanRelations, DispatchPhase, EnemyOutVictory, GameClock, GameMessage, GameMessageKind, MissionClans,
    MissionOutcome, Movable, Outcome, Owner, RunScriptEvent, SimObject, SuperAiSlots, UnitClass,
};

/// The script event a winning player clan runs.
pub const VICTORY_EVENT: &str = "Mission_Complete";
/// The script event a defeated player clan runs.
pub const DEFEAT_EVENT: &str = "Mission_Failed";

/// Whether a recorded outcome puts a clan out of the game.
fn out_of_game(o: Option<Outcome>) -> bool {
    matches!(o, Some(Outcome::Defeated | Outcome::Failed))
}

/// Records defeats and announces victories.
#[expect(clippy::too_many_arguments, reason = "one system reading the whole outcome state")]
pub(crate) fn judge(
    clans: Option<Res<MissionClans>>,
    rules: Res<StrategyRules>,
    relations: Res<ClanRelations>,
    victory: Res<EnemyOutVictory>,
    slots: Res<SuperAiSlots>,
    clock: Res<GameClock>,
    objects: Query<(&Owner, Option<&UnitClass>, Has<Movable>), With<SimObject>>,
    mut outcome: ResMut<MissionOutcome>,
    mut strategy: ResMut<Strategy>,
    mut scripts: MessageWriter<RunScriptEvent>,
    mut out: MessageWriter<GameMessage>,
) {
    let Some(clans) = clans else { return };
    let n = clans.clans.len();
    let mut alive = vec![false; n];
    for (owner, class, movable) in &objects {
        let producer = class.is_some_and(|c| rules.producers.contains(&c.0));
        if let Some(a) = usize::try_from(owner.clan).ok().and_then(|c| alive.get_mut(c)) {
            *a |= movable || producer;
        }
    }
    let mut ends: Vec<(u32, &str, Outcome)> = Vec::new();
    for c in clans.clans.iter().filter(|c| c.plays() && !alive[c.index as usize]) {
        if outcome.of(c.index).is_some() {
            continue;
        }
        if c.is_player() {
            ends.push((c.index, DEFEAT_EVENT, Outcome::Failed));
        } else {
            outcome.record(c.index, Outcome::Defeated, clock.tick);
            let kind = GameMessageKind::Outcome { clan: c.index, outcome: Outcome::Defeated };
            out.write(GameMessage::new(&clock, DispatchPhase::SuperAi, kind));
        }
    }
    for c in clans.clans.iter().filter(|c| c.is_player() && victory.0) {
        let enemies: Vec<u32> = (0..n as u32).filter(|&e| relations.hostile(c.index as i32, e as i32)).collect();
        let won = !enemies.is_empty() && enemies.iter().all(|&e| out_of_game(outcome.of(e)));
        if won && outcome.of(c.index).is_none() && alive[c.index as usize] {
            ends.push((c.index, VICTORY_EVENT, Outcome::Completed));
        }
    }
    for (clan, event, result) in ends {
        if strategy.announced.contains(&clan) {
            continue;
        }
        strategy.announced.push(clan);
        match (0..iron3d_core::SUPER_AI_SLOTS as u32).find(|&s| slots.get(s) == Some(clan)) {
            Some(slot) => {
                scripts.write(RunScriptEvent { slot, event: event.into(), fallback: Some(result) });
            }
            None => {
                outcome.record(clan, result, clock.tick);
                let kind = GameMessageKind::Outcome { clan, outcome: result };
                out.write(GameMessage::new(&clock, DispatchPhase::SuperAi, kind));
            }
        }
    }
}
