//! What the clan scripts read of the mission and of other subsystems, and what they
//! tell the rest of the game (gameplay.md §2.5, §13, after dragonee/openparkan
//! `docs/34-progression.md`): the mission's objectives and message ids (published by
//! the mission load), the clans' free minds (function 49), whether the project's
//! "every enemy out" victory rule decides the player's win (decided by SuperAI when the
//! mission loads), and what a script did to an objective. Data only.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// One objective of `mission.cfg`, by its position in the combined list.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct Objective {
    /// The line's key (`objective1`).
    pub key: String,
    /// Its text or `TextRes.cfg` key.
    pub text: String,
    /// A bonus objective (exempt 1): it never holds the mission back.
    pub bonus: bool,
}

/// The mission's objectives (`mission.cfg` `primary_objectives` then `bonus_objectives`,
/// every line kept) and the `message_index` ids of its `messages.cfg`; published by the
/// mission load at registration (absent for worlds built by hand: no objectives, no
/// messages).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct MissionGoals {
    /// Objectives by position (a script's objective index).
    pub objectives: Vec<Objective>,
    /// The `messages.cfg` ids, in file order.
    pub messages: Vec<u32>,
}

/// Whether the project's "every enemy out" victory rule may decide the player clan's
/// win (`iron3d_strategy::outcome`). SuperAI decides it when the mission loads: the rule
/// stays only when the player clan's script package can never record the outcome
/// itself (no function 30 call of kind `SYSTEM_MESSAGE`); the original ends a mission
/// only through its scripts. `true` (the rule applies) until then and for worlds built
/// by hand.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct EnemyOutVictory(pub bool);

impl Default for EnemyOutVictory {
    fn default() -> Self {
        Self(true)
    }
}

/// What a script did to an objective (function 30's kinds 3, 4 and 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect, serde::Serialize, serde::Deserialize)]
pub enum ObjectiveChange {
    /// `OBJECTIVE_COMPLETE`.
    Complete,
    /// `OBJECTIVE_FAILED`.
    Failed,
    /// `OBJECTIVE_PROGRESS`: the objective is in progress again (un-completed).
    Progress,
}

impl ObjectiveChange {
    /// Lower-case name (JSON: `complete`, `failed`, `progress`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Complete => "complete",
            Self::Failed => "failed",
            Self::Progress => "progress",
        }
    }
}
