//! Production and research: the original's research tree, prices and minds
//! (`gameplay.md` §4, §5.1), the rest **the project's own rules** with every number
//! in the rules file (`assets/rules/iron3d.rules.ron`, `iron3d_rules`).
//!
//! * **Research** ([`research`], the original's): each clan's tree is the `.trf` its
//!   clan record names. `Order::Research(item)` on one of the clan's research
//!   buildings (`research.institutes`, the project's) queues the item for the clan
//!   (one at a time, the project's); it starts when it is in the tree, available and
//!   not researched, paying its `ResearchOreCost`, and takes the centre's
//!   `FreeResearchTime` (2 s without one); completing it opens every item whose
//!   prerequisites are researched and completes the free ones it opens at once. A
//!   scheme may be built when every part is in the tree and researched.
//! * **Minds** ([`minds`], the original's): a build without a free mind is refused.
//! * **Production**: `Order::Build(scheme)` on a production building
//!   (`production.producers`) queues a robot; each producer builds one at a time, in
//!   order. A build starts when the scheme is allowed and its ore is paid from the
//!   clan's stores (lowest `OriginalObjectId` first: the project's, until the ore
//!   pull). Cost: with a research tree the sum of the parts' `BuildOreCost` and
//!   `BuildEnergyCost`, 5 s (the original's); without one class cost + component costs
//!   (the project's). It has a time and a power budget: the power is collected at the
//!   factory's efficiency × its profile's `Use_Power` per second (the original's,
//!   `iron3d_economy::work_rate`), and research likewise collects its
//!   `ResearchEnergyCost` at the centre's. When both budgets are full
//!   the robot goes through the mission's resolution ([`iron3d_mission::resolve_object`]),
//!   is named from what it is made of as the load names a placed unit
//!   ([`iron3d_mission::names::unit_of`]), then constructed and registered
//!   ([`iron3d_mission::spawn_resolved`]) with the next id past the mission's, the
//!   producer's clan, beside the producer on free walkable ground; a failure spawns
//!   nothing and refunds the ore.
//! * **What a clan can build** ([`options`]): at game start, the robot schemes of the
//!   mission's data (placed for any clan, named by the clan's research tree or by
//!   `mission.cfg`'s `object prebuild`) are published as `iron3d_core::BuildOptions`
//!   for the computer clans; a clan with nothing to build is reported once.
//! * **The computer clans' design store** (`ai_store`, the original's): the unit
//!   files of `UNITS\UNITS\AI\` with their figures and each clan's researched flags,
//!   published as `iron3d_core::AiDesigns` for the SuperAI's design pick.
//! * Every step runs in `ProductionPhase::Orders` of `SimSystems::Production` (after
//!   SuperAI and the economy's mining, before Behavior),
//!   producers and clans in id order; events are `GameMessageKind::Production`
//!   (`produced`, `researched`, `rejected`); the state is saved and joins the state
//!   hash (`iron3d_core::StateApp`).

mod ai_store;
mod check;
pub mod design;
pub mod designer;
pub mod grants;
pub mod minds;
pub mod options;
pub mod research;
pub mod sites;
mod state;
pub mod stats;
mod step;

pub use check::{check_command, research_node};
pub use research::{ResearchNode, ResearchTree};
pub use state::{ClanResearch, Job, ProducerQueue, Production, ProductionRules, Scheme};
pub use step::PLACES_AROUND;

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{
    AiDesigns, AppState, BehaviorPhase, BuildOptions, BuildingPrices, GameRules, Hashing, JobView, MindBoard,
    MissionLoadPhase, MissionStart, Movable, OriginalObjectId, ProductionBoard, ProductionPhase, QueueView,
    ResearchBoard, SchemeNames, StateApp, UnderConstruction, UnitClass,
};
use std::sync::Arc;

/// Why a board is not hashed.
const BOARD: &str = "published from production's state after every tick";

/// Installs production and research (needs `iron3d_core::CorePlugin`; the mission
/// plugin for anything to build).
#[derive(Debug, Default)]
pub struct ProductionPlugin;

impl Plugin for ProductionPlugin {
    fn build(&self, app: &mut App) {
        let rules = iron3d_rules::Rules::shipped().map(Arc::new).map_err(|e| e.to_string());
        app.insert_resource(ProductionRules(rules))
            .register_type::<Production>()
            .save_resource::<Production>("production.state", Hashing::By("production"))
            .save_resource::<ResearchBoard>("production.research_board", Hashing::Not(BOARD))
            .save_resource::<MindBoard>("production.mind_board", Hashing::Not(BOARD))
            .save_resource::<AiDesigns>("production.ai_designs", Hashing::Not(BOARD))
            .register_type::<sites::Sphere>()
            .save_component::<sites::Sphere>("production.sphere", Hashing::By("production"))
            .save_component::<UnderConstruction>(
                "production.under_construction",
                Hashing::Not("present exactly while the building's sphere is"),
            )
            .hash_state("production", |world, objects, h| {
                if let Some(p) = world.get_resource::<Production>() {
                    p.hash_into(h);
                }
                for (id, e) in objects {
                    if let Some(s) = world.get::<sites::Sphere>(*e) {
                        h.word(*id);
                        s.hash_into(h);
                    }
                }
            })
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), adopt_rules)
            .add_systems(
                OnEnter(AppState::InGame),
                (step::setup, options::publish, ai_store::load, publish, publish_trees)
                    .chain()
                    .in_set(MissionStart::Clans),
            )
            .add_systems(OnExit(AppState::InGame), |mut commands: Commands| {
                commands.remove_resource::<Production>();
                commands.insert_resource(ResearchBoard::default());
                commands.insert_resource(ProductionBoard::default());
                commands.insert_resource(MindBoard::default());
                commands.insert_resource(BuildOptions::default());
                commands.insert_resource(AiDesigns::default());
                commands.insert_resource(BuildingPrices::default());
                commands.remove_resource::<sites::SchemeParts>();
            })
            .add_systems(
                FixedUpdate,
                (sites::publish_prices, sites::spheres, step::run, publish, publish_minds)
                    .chain()
                    .in_set(ProductionPhase::Orders),
            )
            .add_systems(FixedUpdate, (sites::arrivals, step::drop_captured).chain().in_set(BehaviorPhase::Production));
    }
}

/// Takes the mission's rules file.
fn adopt_rules(game: Option<Res<GameRules>>, mut rules: ResMut<ProductionRules>) {
    if let Some(game) = game {
        rules.0 = Ok(Arc::clone(&game.rules));
    }
}

/// Publishes what each clan may research now ([`ResearchBoard`]) and the queues the
/// interface shows ([`ProductionBoard`]): every production building's, empty until it
/// is given a build (only buildings are looked through, not the units).
fn publish(
    (production, rules): (Option<Res<Production>>, Res<ProductionRules>),
    names: Res<SchemeNames>,
    buildings: Query<(&OriginalObjectId, &UnitClass), Without<Movable>>,
    mut board: ResMut<ResearchBoard>,
    mut shown: ResMut<ProductionBoard>,
) {
    let Some(production) = production else { return };
    board.clans = production.clans.iter().filter_map(|(clan, r)| Some((*clan, board_entry(r)?))).collect();
    let name = |r| names.name(r).unwrap_or_default().to_string();
    let queued = production.producers.iter().map(|(id, q)| {
        let active =
            q.active.as_ref().map(|j| JobView { scheme: name(j.what), elapsed_ms: j.elapsed_ms, total_ms: j.total_ms });
        let batch = production.batch.contains_key(id);
        (*id, QueueView { waiting: q.waiting.iter().map(|s| name(*s)).collect(), active, batch })
    });
    let mut producers: std::collections::BTreeMap<u32, QueueView> = queued.collect();
    if let Ok(rules) = &rules.0 {
        for (id, class) in &buildings {
            if rules.produces(class.0) {
                producers.entry(id.0).or_default();
            }
        }
    }
    if shown.producers != producers {
        shown.producers = producers;
    }
}

/// Publishes the names of each clan's research nodes when the game starts (they do not
/// change during a mission).
fn publish_trees(production: Option<Res<Production>>, mut shown: ResMut<ProductionBoard>) {
    let Some(production) = production else { return };
    shown.research = production
        .clans
        .iter()
        .filter_map(|(clan, r)| Some((*clan, r.tree.as_ref()?.nodes.iter().map(|n| n.name.clone()).collect())))
        .collect();
}

/// Publishes each clan's minds ([`MindBoard`]).
fn publish_minds(world: &mut World) {
    let clans = minds::current(world);
    world.resource_mut::<MindBoard>().clans = clans;
}

/// A clan's [`ResearchBoard`] entry: the nodes that can start now and whether one is
/// being researched or waiting (`None`: the clan has no tree).
pub fn board_entry(r: &ClanResearch) -> Option<(Vec<u32>, bool)> {
    let tree = r.tree.as_ref()?;
    let startable = (0..tree.nodes.len() as u32).filter(|&i| tree.refusal(i).is_none()).collect();
    Some((startable, r.active.is_some() || !r.waiting.is_empty()))
}

#[cfg(test)]
mod tests;
