//! The project's own strategic layer (issue "Clans play": the original's strategic AI
//! is not recovered), in `SuperAiPhase::Strategy`, after the clans' scripts ran. Every
//! number is in the rules file (`assets/rules/iron3d.rules.ron`, section `ai`).
//!
//! * **Computer clans** (clan mode 2, [`ai`]): each thinks every `think_seconds`
//!   (clans staggered); it defends its base against enemy units within
//!   `defend_radius` of its anchor, attacks the nearest enemy production building
//!   (else building, else unit) with all but `home_guard` of its battle units when its
//!   battle strength (hit points of its armed units) is `attack_ratio` times the
//!   strongest enemy's and the wave has at least `min_wave` units, and otherwise
//!   gathers its idle units at its base. It only ever gives orders, through the same
//!   command queue as players, and only when an order changes. While it holds fewer
//!   than `unit_cap` battle units it orders one robot from each of its production
//!   buildings that has no build of its running. What it builds comes from the
//!   mission's data, never from a file name: its clan's `iron3d_core::BuildOptions`
//!   (published by production), given roles by the rules (`ai.roles`, by Unit DAT class
//!   word, or `ai.armed_component` for an armed robot of no listed class); it takes the
//!   schemes of the `ai.army` roles in turn ([`ai::Menu`]); a refused scheme (locked by
//!   research, not enough ore) is not ordered again by that clan for `retry_seconds`. When its research is idle
//!   it starts the first node of its tree that can start (at its lowest-id institute);
//!   after a refusal (not enough ore) it waits `retry_seconds` too. A clan with a mine
//!   first builds schemes of the Transport role until it has `ai.transports` (built or being
//!   built; they count in no cap), and gives each of its transports that is not hauling
//!   from one of its mines `Order::Haul` naming its nearest mine (ties by the lower id):
//!   the transport chooses its own route, the original's (`iron3d_behavior::haul`).
//! * **Outcome** ([`outcome`]): a player or computer clan with no unit and no
//!   production building is *defeated*; where the player clan's package can never
//!   record the outcome itself (`iron3d_core::EnemyOutVictory`), a player clan (mode 1)
//!   all of whose enemies are defeated has won, and its script's `Mission_Complete` event
//!   runs (the script ends the mission through function 30; a clan without a script
//!   package gets `completed` directly).

pub mod ai;
pub mod outcome;

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, Fnv1a, GameRules, Hashing, MissionLoadPhase, Order, ProductionPhase, SchemeRef, StateApp, SuperAiPhase,
};
use iron3d_rules::Ai;
use std::collections::BTreeMap;

/// The strategic rules in force.
#[derive(Resource, Debug, Clone)]
pub struct StrategyRules {
    /// The `ai` section.
    pub ai: Ai,
    /// Class words of production buildings (`production.producers`).
    pub producers: Vec<u32>,
    /// Class words of research buildings (`research.institutes`).
    pub institutes: Vec<u32>,
}

/// What the strategic layer remembers: the last order it gave each unit, the builds it
/// ordered and not yet seen finish, and the clans whose victory it already announced.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Strategy {
    /// Unit id → the order it was given.
    pub assigned: BTreeMap<u32, Order>,
    /// Producer id → the build ordered there, until it is produced or refused.
    pub building: BTreeMap<u32, Build>,
    /// Clan → the index in its army menu of the next scheme to take.
    pub builds: BTreeMap<i32, u32>,
    /// `(clan, scheme)` → the tick before which a refused scheme is not ordered again.
    pub refused: BTreeMap<(i32, SchemeRef), u32>,
    /// Institute id → the clan that ordered research there (until researched or refused).
    pub researching: BTreeMap<u32, i32>,
    /// Clan → the tick before which it orders no research after a refusal.
    pub research_wait: BTreeMap<i32, u32>,
    /// Clans whose `Mission_Complete` was requested.
    pub announced: Vec<u32>,
}

/// A robot a computer clan ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Build {
    /// The ordering clan.
    pub clan: i32,
    /// The scheme.
    pub scheme: SchemeRef,
    /// Whether it was ordered as a transport (it counts towards `ai.transports`).
    pub transport: bool,
}

/// Installs the strategic layer (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone)]
pub struct StrategyPlugin {
    /// The rules.
    pub rules: StrategyRules,
}

impl StrategyPlugin {
    /// The strategic layer with the shipped rules file.
    ///
    /// # Panics
    /// Never in a release: a test keeps the shipped rules valid.
    pub fn shipped() -> Self {
        #[expect(clippy::expect_used, reason = "the shipped rules are checked by a test")]
        let rules = iron3d_rules::Rules::shipped().expect("the shipped rules file is valid");
        Self { rules: StrategyRules::from_rules(&rules) }
    }
}

impl StrategyRules {
    /// The strategic layer's reading of a rules file.
    pub fn from_rules(rules: &iron3d_rules::Rules) -> Self {
        let producers = rules.production.producers.iter().map(|p| p.class).collect();
        let institutes = rules.research.institutes.iter().map(|p| p.class).collect();
        Self { ai: rules.ai.clone(), producers, institutes }
    }
}

/// Takes the mission's rules file.
fn adopt_rules(game: Option<Res<GameRules>>, mut rules: ResMut<StrategyRules>) {
    if let Some(game) = game {
        *rules = StrategyRules::from_rules(&game.rules);
    }
}

impl Plugin for StrategyPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.rules.clone())
            .init_resource::<Strategy>()
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), adopt_rules)
            .register_type::<Strategy>()
            .save_resource::<Strategy>("strategy.memory", Hashing::By("strategy"))
            .hash_state("strategy", |world, _, h| hash_into(world, h))
            .add_systems(OnExit(AppState::InGame), |mut s: ResMut<Strategy>| *s = Strategy::default())
            .add_systems(FixedUpdate, (outcome::judge, ai::think).chain().in_set(SuperAiPhase::Strategy))
            .add_systems(FixedUpdate, ai::builds_done.in_set(ProductionPhase::Strategy));
    }
}

/// Feeds the strategic memory to `h` (the simulation's state hash).
fn hash_into(world: &World, h: &mut Fnv1a) {
    let Some(s) = world.get_resource::<Strategy>() else { return };
    h.word(s.assigned.len() as u32);
    for (unit, order) in &s.assigned {
        let (kind, value, extra) = order.key();
        for w in [*unit, u32::from(kind), value as u32, (value >> 32) as u32] {
            h.word(w);
        }
        if Order::has_extra(kind) {
            h.wide(extra);
        }
    }
    for (producer, b) in &s.building {
        let scheme = b.scheme.0;
        [*producer, b.clan as u32, scheme as u32, (scheme >> 32) as u32, u32::from(b.transport)]
            .into_iter()
            .for_each(|w| h.word(w));
    }
    for (clan, n) in &s.builds {
        [*clan as u32, *n].into_iter().for_each(|w| h.word(w));
    }
    for ((clan, scheme), until) in &s.refused {
        [*clan as u32, scheme.0 as u32, (scheme.0 >> 32) as u32, *until].into_iter().for_each(|w| h.word(w));
    }
    for (institute, clan) in &s.researching {
        [*institute, *clan as u32].into_iter().for_each(|w| h.word(w));
    }
    for (clan, until) in &s.research_wait {
        [*clan as u32, *until].into_iter().for_each(|w| h.word(w));
    }
    s.announced.iter().for_each(|c| h.word(*c));
}
