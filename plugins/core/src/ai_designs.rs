//! The computer clans' design store (`gameplay.md` §2.5, after dragonee/openparkan
//! `docs/15-behaviour.md`, "Function 69 sets how sloppy the AI's design pick is"): every
//! unit file of `UNITS\UNITS\AI\`, with the figures a script's `SELECT_*` ranks it by,
//! and for each clan whether its research tree has every part of it or may research it.
//! Production fills it from the data when a mission starts and sets a clan's statuses
//! again each time the clan orders a research; the SuperAI's design pick and its design
//! research (functions 15 and 41) read it.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use std::collections::BTreeMap;

/// The directory the store loads (`ai.dll`'s function 43, read).
pub const AI_DESIGN_DIR: &str = "UNITS\\UNITS\\AI";

/// One design of the store: its figures as the original's per-design fill takes them off
/// the object its scheme makes.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct AiDesign {
    /// The unit file's game path.
    pub scheme: String,
    /// Its Type word (`+0x108`).
    pub class: u32,
    /// Its size class (property `0x201`, `+0x10c`; 0 when its chassis names none).
    pub size: u8,
    /// What its life could be (property 54, `+0x110`): every node's hit points at full
    /// and its shield full.
    pub hit_points: f32,
    /// Its guns' figure (`+0x114`; the project's stand-in, see production's `ai_store`).
    pub guns: f32,
    /// Its live top speed (property 145, `+0x118`).
    pub speed: f32,
    /// Every part the scheme names, the chassis first.
    pub parts: Vec<String>,
}

/// What a clan's research tree makes of one design.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub enum DesignStatus {
    /// Every part in the tree and researched (`+0x104`): the clan's builds may pick it.
    Researched,
    /// Every part in the tree and open or researched, not all researched: function 41
    /// may research it.
    Open {
        /// What its research costs (the project's reading of `CalcFullResearchCost`:
        /// the research ore and energy of the items still to research).
        cost: f32,
        /// Those items, in part order, each once.
        items: Vec<u32>,
    },
    /// A part out of the tree, or waiting on a prerequisite.
    Closed,
}

/// The store, and per clan what its tree makes of each design, in store order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct AiDesigns {
    /// The designs, in the directory's file order.
    pub designs: Vec<AiDesign>,
    /// Clan → one status per design.
    pub clans: BTreeMap<i32, Vec<DesignStatus>>,
}

impl AiDesigns {
    /// The designs with clan `clan`'s status of each, and their store positions (none
    /// for a clan without statuses).
    pub fn statuses(&self, clan: i32) -> impl Iterator<Item = (usize, &AiDesign, &DesignStatus)> {
        let statuses = self.clans.get(&clan).map(Vec::as_slice).unwrap_or_default();
        self.designs.iter().zip(statuses).enumerate().map(|(i, (d, s))| (i, d, s))
    }
}
