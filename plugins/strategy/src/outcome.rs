//! The defeat and victory rules (the project's own): a clan with no unit and no
//! production building is defeated; a player clan whose enemies are all defeated has
//! won, which runs its script's `Mission_Complete` event.

use crate::{Strategy, StrategyRules};
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanRelations, DispatchPhase, GameClock, GameMessage, GameMessageKind, MissionClans, MissionOutcome, Movable,
    Outcome, Owner, RunScriptEvent, SimObject, SuperAiSlots, UnitClass,
};

/// The script event a winning player clan runs.
pub const VICTORY_EVENT: &str = "Mission_Complete";

/// Records defeats and announces victories.
#[expect(clippy::too_many_arguments, reason = "one system reading the whole outcome state")]
pub(crate) fn judge(
    clans: Option<Res<MissionClans>>,
    rules: Res<StrategyRules>,
    relations: Res<ClanRelations>,
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
    for c in &clans.clans {
        if c.plays() && !alive[c.index as usize] && outcome.of(c.index).is_none() {
            outcome.record(c.index, Outcome::Defeated, clock.tick);
            let kind = GameMessageKind::Outcome { clan: c.index, outcome: Outcome::Defeated };
            out.write(GameMessage::new(&clock, DispatchPhase::SuperAi, kind));
        }
    }
    for c in clans.clans.iter().filter(|c| c.mode == 1) {
        let enemies: Vec<u32> = (0..n as u32).filter(|&e| relations.hostile(c.index as i32, e as i32)).collect();
        let won = !enemies.is_empty() && enemies.iter().all(|&e| outcome.of(e) == Some(Outcome::Defeated));
        if !won || outcome.of(c.index).is_some() || strategy.announced.contains(&c.index) {
            continue;
        }
        strategy.announced.push(c.index);
        match (0..iron3d_core::SUPER_AI_SLOTS as u32).find(|&s| slots.get(s) == Some(c.index)) {
            Some(slot) => {
                scripts.write(RunScriptEvent { slot, event: VICTORY_EVENT.into() });
            }
            None => {
                outcome.record(c.index, Outcome::Completed, clock.tick);
                let kind = GameMessageKind::Outcome { clan: c.index, outcome: Outcome::Completed };
                out.write(GameMessage::new(&clock, DispatchPhase::SuperAi, kind));
            }
        }
    }
}
