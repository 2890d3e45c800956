//! Research trees as the original reads them (`gameplay.md` §4, openparkan
//! `docs/16-research.md`; read and measured): a clan's tree comes from the `.trf` its
//! clan record names. Each item has its research and build costs (`TRF0`), its starting
//! state (`TRF1` bits: 4 in the tree, 2 researched, 1 available), prerequisites
//! (`TRF2`/`TRF3`) and unlocks (`TRF4`/`TRF5`), and the parts it researches (`TRF6`
//! part ids mapped by `TRFB`: the component keys of the robot schemes).

use bevy_reflect::Reflect;
use iron3d_formats::ReadOptions;
use iron3d_formats::bytes::display_name;
use iron3d_formats::helpers::Trf;

/// `TRF1` bit: every prerequisite is researched.
pub const AVAILABLE: u8 = 1;
/// `TRF1` bit: researched.
pub const RESEARCHED: u8 = 2;
/// `TRF1` bit: the item belongs to this mission's tree.
pub const IN_TREE: u8 = 4;

/// One item of a clan's research tree.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ResearchNode {
    /// Short code (`TRF7`).
    pub name: String,
    /// The part ids the item researches (`TRF6` through `TRFB`; two for a turret's
    /// two mountings).
    pub parts: Vec<String>,
    /// `ResearchEnergyCost`.
    pub research_energy: f32,
    /// `ResearchOreCost`.
    pub research_ore: f32,
    /// `BuildEnergyCost` of each part.
    pub build_energy: f32,
    /// `BuildOreCost` of each part.
    pub build_ore: f32,
    /// State bits ([`IN_TREE`], [`RESEARCHED`], [`AVAILABLE`]).
    pub state: u8,
    /// A research centre is researching it (the project's bookkeeping of the running job).
    pub active: bool,
    /// Items that must be researched first.
    pub prerequisites: Vec<u32>,
    /// Items this one unlocks.
    pub unlocks: Vec<u32>,
}

/// What the designer reads of an item besides its costs and state: its role (`TRF0`
/// `+0x22`; a turret's decides the unit's Type, openparkan `docs/30-turrets.md`,
/// measured), its display name (`TRF8`), its short code (`TRF7`) and its stat template
/// (`TRFA`, a part's box's rows: [`crate::stats`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemLabel {
    /// Role byte: 2 battle, 3 transport, 4 builder, 5 HQ, 6 hero, 1 a building's
    /// turret, 7 an animal, 255 anything else.
    pub role: u8,
    /// Display name.
    pub name: String,
    /// Short code.
    pub code: String,
    /// Stat template.
    pub stats: String,
}

/// Every item's [`ItemLabel`] of a `.trf`, in file order (compatible reading).
///
/// # Errors
/// A located parse error.
pub fn item_labels(path: &str, bytes: &[u8]) -> Result<Vec<ItemLabel>, String> {
    let options = ReadOptions::compatible();
    let trf = Trf::parse(bytes, options).map_err(|e| format!("{path}: {e}"))?;
    let text = |digit, offset| display_name(&trf.string(digit, offset, options).unwrap_or_default());
    Ok(trf
        .nodes
        .iter()
        .map(|n| {
            let [code, name, _, stats] = n.string_offsets();
            let (role, stats) = (n.type_bytes()[0], text(b'A', stats));
            ItemLabel { role, name: text(b'8', name), code: text(b'7', code), stats }
        })
        .collect())
}

impl ResearchNode {
    fn has(&self, bits: u8) -> bool {
        self.state & bits == bits
    }
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
        let part_map = trf.parts(options).ok_or(format!("{path}: trf_parts: TRFB is not whole entries inside TRF6"))?;
        let mut parts = vec![Vec::new(); n];
        for (id, item) in part_map {
            let slot = parts
                .get_mut(usize::from(item))
                .ok_or(format!("{path}: trf_parts: a part names item {item} of {n}"))?;
            slot.push(String::from_utf8_lossy(&id).into_owned());
        }
        let nodes = trf
            .nodes
            .iter()
            .zip(states)
            .zip(parts)
            .zip(prerequisites.into_iter().zip(unlocks))
            .map(|(((node, state), parts), (prerequisites, unlocks))| {
                let code = trf.string(b'7', node.string_offsets()[0], options).unwrap_or_default();
                let c = node.costs();
                ResearchNode {
                    name: String::from_utf8_lossy(&code).into_owned(),
                    parts,
                    research_energy: c.research_energy,
                    research_ore: c.research_ore,
                    build_energy: c.build_energy,
                    build_ore: c.build_ore,
                    state,
                    active: false,
                    prerequisites,
                    unlocks,
                }
            })
            .collect();
        Ok(Self { path: path.into(), nodes })
    }

    /// Whether every prerequisite of item `i` is in the tree and researched.
    fn prerequisites_met(&self, i: usize) -> bool {
        self.nodes[i]
            .prerequisites
            .iter()
            .all(|&p| self.nodes.get(p as usize).is_some_and(|p| p.has(IN_TREE | RESEARCHED)))
    }

    /// Why item `i` cannot start now (`None` when it can): it must be in the tree,
    /// available and not researched (the original's start rule), and not already
    /// being researched.
    pub fn refusal(&self, i: u32) -> Option<String> {
        let Some(node) = self.nodes.get(i as usize) else {
            return Some(format!("no node {i} in {}", self.path));
        };
        if node.has(RESEARCHED) || node.active {
            return Some(format!("node {i} ({}) is already researched or active", node.name));
        }
        if !node.has(IN_TREE | AVAILABLE) {
            return Some(format!("node {i} ({}) is not available", node.name));
        }
        None
    }

    /// Completes item `i` as the original does: it gets the researched and available
    /// bits; every item in the tree, not yet available, whose prerequisites are all in
    /// the tree and researched becomes available; an unlock of a completed item that
    /// is now open and costs nothing to research (both research costs 0) completes
    /// the same way at once.
    pub fn complete(&mut self, i: u32) {
        let mut pending = vec![i as usize];
        while let Some(i) = pending.pop() {
            let Some(node) = self.nodes.get_mut(i) else { continue };
            node.state |= RESEARCHED | AVAILABLE;
            node.active = false;
            for j in 0..self.nodes.len() {
                if self.nodes[j].has(IN_TREE) && !self.nodes[j].has(AVAILABLE) && self.prerequisites_met(j) {
                    self.nodes[j].state |= AVAILABLE;
                }
            }
            for &u in &self.nodes[i].unlocks {
                let free = self.nodes.get(u as usize).is_some_and(|n| {
                    n.has(IN_TREE | AVAILABLE)
                        && !n.has(RESEARCHED)
                        && n.research_energy == 0.0
                        && n.research_ore == 0.0
                });
                if free {
                    pending.push(u as usize);
                }
            }
        }
    }

    /// Whether item `i` is in the tree and available (open to research, or researched).
    pub fn available(&self, i: u32) -> bool {
        self.nodes.get(i as usize).is_some_and(|n| n.has(IN_TREE | AVAILABLE))
    }

    /// Whether item `i` is in the tree and researched.
    pub fn researched(&self, i: u32) -> bool {
        self.nodes.get(i as usize).is_some_and(|n| n.has(IN_TREE | RESEARCHED))
    }

    /// Every part id the tree lists, as it spells them.
    pub fn parts(&self) -> impl Iterator<Item = &str> {
        self.nodes.iter().flat_map(|n| n.parts.iter().map(String::as_str))
    }

    /// The item that researches part `key` (case-insensitive), if the tree lists it.
    pub fn item_of_part(&self, key: &str) -> Option<u32> {
        self.nodes.iter().position(|n| n.parts.iter().any(|p| p.eq_ignore_ascii_case(key))).map(|i| i as u32)
    }

    /// The item named `key`: the item researching that part, else the item of that
    /// short code (case-insensitive).
    pub fn node_named(&self, key: &str) -> Option<u32> {
        self.item_of_part(key)
            .or_else(|| self.nodes.iter().position(|n| n.name.eq_ignore_ascii_case(key)).map(|i| i as u32))
    }

    /// The original's rule of what may be built: every part must be researched and in
    /// the tree; a part the tree does not list fails too. Returns the first part that
    /// fails.
    pub fn locked_component<'a>(&self, components: &'a [String]) -> Option<&'a str> {
        components.iter().map(String::as_str).find(|key| self.item_of_part(key).is_none_or(|i| !self.researched(i)))
    }

    /// The build price of a design from this tree: the sum of its parts' `BuildOreCost`
    /// and `BuildEnergyCost` (the designer's price, every part, the chassis included;
    /// read, measured). `None` when a part is not listed.
    pub fn build_price(&self, components: &[String]) -> Option<(f32, f32)> {
        components.iter().try_fold((0.0, 0.0), |(ore, energy), key| {
            let n = &self.nodes[self.item_of_part(key)? as usize];
            Some((ore + n.build_ore, energy + n.build_energy))
        })
    }
}
