//! Research trees (the project's rules over the TRF layout of `docs/reference/registry.md` §5.7):
//! a clan's tree comes from the `.trf` its clan record names; every node's short name
//! (`TRF7`) must resolve through the same registry as mission objects; its initial
//! state (`TRF1` bits: 1 available, 2 researched, 4 active), prerequisites (`TRF2`/`TRF3`)
//! and unlocks (`TRF4`/`TRF5`) drive research; its `TRF0` cost and time, scaled by the
//! rules file, are what researching it takes.

use bevy_reflect::Reflect;
use iron3d_formats::ReadOptions;
use iron3d_formats::helpers::Trf;

/// `TRF1` bit: the node may be researched (once its prerequisites are).
pub const AVAILABLE: u8 = 1;
/// `TRF1` bit: the node is researched.
pub const RESEARCHED: u8 = 2;
/// `TRF1` bit: the node is being researched.
pub const ACTIVE: u8 = 4;

/// One node of a clan's research tree.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ResearchNode {
    /// Short name (`TRF7`): a registry key (a component prototype in the demo).
    pub name: String,
    /// `TRF0` cost (scaled to ore by the rules).
    pub cost: f32,
    /// `TRF0` time (scaled to seconds by the rules).
    pub time: f32,
    /// State bits ([`AVAILABLE`], [`RESEARCHED`], [`ACTIVE`]).
    pub state: u8,
    /// Nodes that must be researched first.
    pub prerequisites: Vec<u32>,
    /// Nodes that become available when this one is researched (and their own
    /// prerequisites are).
    pub unlocks: Vec<u32>,
}

/// A clan's research tree.
#[derive(Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ResearchTree {
    /// The tree file (game path, as the clan record names it).
    pub path: String,
    /// Nodes in file order.
    pub nodes: Vec<ResearchNode>,
}

impl ResearchTree {
    /// Reads a tree from its `.trf` bytes (compatible reading); every node index in a
    /// relation must name a node.
    ///
    /// # Errors
    /// A located parse error, or the rule broken (`trf_relation`, `trf_states`).
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Self, String> {
        let options = ReadOptions::compatible();
        let trf = Trf::parse(bytes, options).map_err(|e| format!("{path}: {e}"))?;
        let n = trf.nodes.len();
        let states = trf.initial_states(options).unwrap_or_else(|| vec![0; n]);
        if states.len() != n {
            return Err(format!("{path}: trf_states: {} states for {n} nodes", states.len()));
        }
        let relation = |counts: u8, list: u8, what: &str| {
            let r = trf.relation(counts, list, options).ok_or(format!("{path}: trf_relation: {what} counts"))?;
            match r.iter().flatten().find(|&&i| i as usize >= n) {
                Some(bad) => Err(format!("{path}: trf_relation: {what} names node {bad} of {n}")),
                None => Ok(r),
            }
        };
        let prerequisites = relation(b'2', b'3', "prerequisite")?;
        let unlocks = relation(b'4', b'5', "unlock")?;
        let nodes = trf
            .nodes
            .iter()
            .zip(states)
            .zip(prerequisites.into_iter().zip(unlocks))
            .map(|((node, state), (prerequisites, unlocks))| {
                let short = node.string_offsets()[0];
                let name = trf.string(b'7', short, options).unwrap_or_default();
                let (cost, time) = node.cost_time();
                ResearchNode {
                    name: String::from_utf8_lossy(&name).into_owned(),
                    cost,
                    time,
                    state,
                    prerequisites,
                    unlocks,
                }
            })
            .collect();
        Ok(Self { path: path.into(), nodes })
    }

    /// Whether every prerequisite of node `i` is researched.
    pub fn prerequisites_met(&self, i: u32) -> bool {
        self.nodes.get(i as usize).is_some_and(|n| {
            n.prerequisites.iter().all(|&p| self.nodes.get(p as usize).is_some_and(|p| p.state & RESEARCHED != 0))
        })
    }

    /// Why node `i` cannot start now (`None` when it can): it must exist, be available,
    /// not be researched or active, and have its prerequisites researched.
    pub fn refusal(&self, i: u32) -> Option<String> {
        let Some(node) = self.nodes.get(i as usize) else {
            return Some(format!("no node {i} in {}", self.path));
        };
        if node.state & (RESEARCHED | ACTIVE) != 0 {
            return Some(format!("node {i} ({}) is already researched or active", node.name));
        }
        if node.state & AVAILABLE == 0 || !self.prerequisites_met(i) {
            return Some(format!("node {i} ({}) is not available", node.name));
        }
        None
    }

    /// Completes node `i`: researched, no longer active; each node it unlocks becomes
    /// available once its own prerequisites are researched.
    pub fn complete(&mut self, i: u32) {
        let Some(node) = self.nodes.get_mut(i as usize) else { return };
        node.state = (node.state | RESEARCHED) & !ACTIVE;
        for u in node.unlocks.clone() {
            if self.prerequisites_met(u)
                && let Some(n) = self.nodes.get_mut(u as usize)
            {
                n.state |= AVAILABLE;
            }
        }
    }

    /// The node named `key` (case-insensitive), if the tree has one.
    pub fn node_named(&self, key: &str) -> Option<u32> {
        self.nodes.iter().position(|n| n.name.eq_ignore_ascii_case(key)).map(|i| i as u32)
    }

    /// The project's rule of what research allows: a scheme may be built when every
    /// component key that names a node of the tree names a researched node
    /// (components no node names are free). Returns the first locked component.
    pub fn locked_component<'a>(&self, components: &'a [String]) -> Option<&'a str> {
        components
            .iter()
            .map(String::as_str)
            .find(|key| self.node_named(key).is_some_and(|i| self.nodes[i as usize].state & RESEARCHED == 0))
    }
}
