//! The production state of a mission: every producer's queue and job, every clan's
//! research, the resolved schemes, the next object id; and its state hash.

use crate::research::ResearchTree;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{Fnv1a, SchemeRef};
use std::collections::BTreeMap;

/// A job in progress: what it builds or researches, and its three budgets (time, power,
/// ore) with how much of each it has (openparkan `docs/23-economy.md`, read).
#[derive(Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// The scheme built (builds) or `SchemeRef(node)` (research).
    pub what: SchemeRef,
    /// Milliseconds worked so far (one tick each tick, from the tick it started).
    pub elapsed_ms: u32,
    /// Milliseconds it takes (its time budget).
    pub total_ms: u32,
    /// Its power budget.
    pub power: f32,
    /// Power collected so far.
    pub power_got: f32,
    /// Its ore budget.
    pub ore: f32,
    /// Ore collected so far.
    pub ore_got: f32,
    /// Started on its building's grant (a free robot counts it off when done).
    pub free: bool,
}

impl Job {
    /// Works one tick at a building collecting `rate` power per second, with `ore`
    /// arrived: the time budget grows by the tick, the power budget by `rate × dt`
    /// (`KPD × Use_Power × dt`; a building without a `Use_Power` collects it at once:
    /// the project's), the ore budget by what arrived. Whether all three are full.
    pub fn work(&mut self, rate: f32, ore: f32) -> bool {
        self.elapsed_ms = self.elapsed_ms.saturating_add(iron3d_core::TICK_MS);
        self.power_got =
            if rate > 0.0 { (self.power_got + rate * iron3d_core::TICK_SECONDS).min(self.power) } else { self.power };
        self.ore_got = (self.ore_got + ore).min(self.ore);
        self.full()
    }

    /// Whether its time, power and ore budgets are all full.
    pub fn full(&self) -> bool {
        self.elapsed_ms >= self.total_ms && self.power_got >= self.power && self.ore_got >= self.ore
    }

    /// The ore a construction asks for next at a factory of efficiency `kpd`
    /// (`Behavior.dll:0x1002a604`, read): with `f` the share it has, `k` 0.2 below a
    /// fifth, `f` up to four fifths and 3 above, `(cost − got) × k × kpd × 0.2 + 0.07`;
    /// nothing once the ore is complete.
    pub fn construction_request(&self, kpd: f32) -> f32 {
        if self.ore_got >= self.ore {
            return 0.0;
        }
        let f = self.ore_got / self.ore;
        let k = if f < 0.2 {
            0.2
        } else if f <= 0.8 {
            f
        } else {
            3.0
        };
        (self.ore - self.ore_got) * k * kpd * 0.2 + 0.07
    }

    /// The ore a research asks for next (`M_Task_Research`, read): half of what is
    /// missing while more than 5 is, then all of it; nothing once complete. While any
    /// is missing it asks for at least the least the distributor serves
    /// ([`LEAST_WANT`](iron3d_economy::distributor::LEAST_WANT)): the original's request
    /// has no floor; the floor is the project's, so that a last hundredth left by a
    /// shared shortage is still asked for and the research ends.
    pub fn research_request(&self) -> f32 {
        match self.ore - self.ore_got {
            missing if missing > 5.0 => missing / 2.0,
            missing if missing > 0.0 => missing.max(iron3d_economy::distributor::LEAST_WANT),
            _ => 0.0,
        }
    }

    /// Feeds the job to the state hash.
    fn hash(&self, h: &mut Fnv1a) {
        let words = [self.what.0 as u32, (self.what.0 >> 32) as u32, self.elapsed_ms, self.total_ms];
        let budgets = [self.power, self.power_got, self.ore, self.ore_got].map(f32::to_bits);
        words.into_iter().chain(budgets).chain([u32::from(self.free)]).for_each(|w| h.word(w));
    }
}

/// One production building's queue.
#[derive(Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ProducerQueue {
    /// Schemes waiting, first next.
    pub waiting: Vec<SchemeRef>,
    /// The robot being built.
    pub active: Option<Job>,
}

/// One clan's research.
#[derive(Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ClanResearch {
    /// The clan's tree (`None`: the clan record names none, or it failed to load; then
    /// research does not restrict building and research orders are refused).
    pub tree: Option<ResearchTree>,
    /// `(node, institute id)` waiting, first next.
    pub waiting: Vec<(u32, u32)>,
    /// The node being researched (`what` = the node index) and its institute.
    pub active: Option<(Job, u32)>,
}

/// A unit scheme as production sees it (resolved through the mission's backend).
#[derive(Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Scheme {
    /// Normalised scheme name.
    pub name: String,
    /// Unit DAT class word.
    pub class: u32,
    /// Component prototype keys, root first.
    pub components: Vec<String>,
    /// Component types, in component order.
    pub component_types: Vec<u32>,
    /// Horizontal radius of the robot (its components' model bounds).
    pub radius: f32,
    /// Ore, power and seconds (the rules file: class + components).
    pub ore: f32,
    /// Power budget.
    pub power: f32,
    /// Seconds.
    pub seconds: f32,
}

/// The mission's production and research.
#[derive(Resource, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Production {
    /// The `OriginalObjectId` the next robot gets (one past the mission's highest id
    /// at game start, then counting up).
    pub next_id: u32,
    /// Queues by producer id.
    pub producers: BTreeMap<u32, ProducerQueue>,
    /// Research by clan (`Owner::clan`).
    pub clans: BTreeMap<i32, ClanResearch>,
    /// Resolved schemes by reference (derived data, not hashed).
    pub schemes: BTreeMap<u64, Scheme>,
    /// What is left of each building's grants (`FreeBotNum`, `FreeTechnoNum`), by id.
    pub grants: BTreeMap<u32, crate::grants::Grants>,
    /// Each clan's running count of named units: the original numbers a unit one more
    /// than its clan's count and raises it for every unit, the hero and animals too.
    pub named: BTreeMap<i32, u32>,
    /// The producers in batch and the scheme each builds ([`iron3d_core::Order::Batch`]).
    pub batch: BTreeMap<u32, SchemeRef>,
}

impl Production {
    /// Feeds the production state (next id, queues, jobs, research states) to `h`.
    pub fn hash_into(&self, h: &mut Fnv1a) {
        h.word(self.next_id);
        for (clan, n) in &self.named {
            [*clan as u32, *n].into_iter().for_each(|w| h.word(w));
        }
        for (producer, s) in &self.batch {
            h.word(*producer);
            h.wide(s.0);
        }
        for (id, g) in &self.grants {
            [*id, g.bots, g.technologies].into_iter().for_each(|w| h.word(w));
        }
        for (id, q) in &self.producers {
            h.word(*id);
            h.word(q.waiting.len() as u32);
            q.waiting.iter().for_each(|s| h.wide(s.0));
            if let Some(job) = &q.active {
                job.hash(h);
            }
        }
        for (clan, r) in &self.clans {
            h.word(*clan as u32);
            for n in r.tree.iter().flat_map(|t| &t.nodes) {
                h.word(u32::from(n.state));
            }
            r.waiting.iter().for_each(|(node, at)| [*node, *at].into_iter().for_each(|w| h.word(w)));
            if let Some((job, at)) = &r.active {
                job.hash(h);
                h.word(*at);
            }
        }
    }
}

/// The rules production runs by (the shipped rules file; an error refuses every order).
#[derive(Resource, Debug, Clone)]
pub struct ProductionRules(pub Result<std::sync::Arc<iron3d_rules::Rules>, String>);
