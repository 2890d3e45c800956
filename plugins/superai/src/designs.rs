//! The design pick (gameplay.md §2.5 after dragonee/openparkan `docs/15-behaviour.md`,
//! "Function 69 sets how sloppy the AI's design pick is", read and measured): function
//! 43 loads the clan's design store ([`iron3d_core::AiDesigns`]), function 69 sets its
//! spread, and function 15 with a `TARGET_BY_NAME` target picks a design for the order
//! its packet gives a factory (`ORDER_BUILDING_CONSTRUCT`, the Type its parameter, the
//! `SELECT_*` mode its target).
//!
//! The candidates are the designs whose Type **equals** the order's, researched whole by
//! the clan, whose Type is no building's; each is scored by the mode and the candidates
//! ranked largest first. `SELECT_SMALLEST` takes the last of the ranking; any other
//! takes the one at a draw below spread + 1, or the first when the draw falls past the
//! candidates. The original draws `(rand() + timeGetTime()) % (n + 1)`; the project
//! draws from the seeded stream `superai.random`. Equal scores keep the store's order
//! (the project's: the original's selection sort is not read to its comparison). The
//! factory-size gate before the draw is dead code in the original: a design too big for
//! the factory is refused when its build starts.
//!
//! Function 41 (openparkan `docs/16-research.md`, "What an AI clan's tree gates", read)
//! has a research centre research a design, not a technology: the cheapest of the designs
//! whose every part is in the clan's tree and open or researched, not all researched. The
//! project gives the centre one `Order::Research` per item still to research, in part
//! order (the original's order 16 names the design's file); the result is 1, or 0 when
//! no design is open (which ends the original's `PBM_MAKE_RESEARCH_Start` as solved).

use iron3d_core::{AiDesign, AiDesigns, DesignStatus, RandomStream, UnitClass};
use serde::{Deserialize, Serialize};

/// `ORDER_BUILDING_CONSTRUCT`.
pub const ORDER_BUILDING_CONSTRUCT: u32 = 12;

/// What functions 43 and 69 set on a clan's SuperAI (its store's `+0x10` and whether it
/// is loaded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DesignDraw {
    /// Function 43 has loaded the store (a clan whose script never calls it builds
    /// nothing by name).
    pub loaded: bool,
    /// How far down its ranking the next pick may fall (function 69; 0 at creation).
    pub spread: u32,
}

/// A script's `SELECT_*` mode (1..6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// 1: the guns' figure.
    BestWeapon,
    /// 2: property 54's hit points.
    BestArmor,
    /// 3: a field the store's fill never writes (every design scores 0).
    BestRange,
    /// 4: the live top speed.
    Fastest,
    /// 5: the strength.
    BestCombat,
    /// 6: the strength, and the last of the ranking.
    Smallest,
}

impl Select {
    /// The mode of a target word.
    pub fn of(word: u32) -> Option<Self> {
        Some(match word {
            1 => Self::BestWeapon,
            2 => Self::BestArmor,
            3 => Self::BestRange,
            4 => Self::Fastest,
            5 => Self::BestCombat,
            6 => Self::Smallest,
            _ => return None,
        })
    }

    /// What the mode scores a design by.
    pub fn score(self, d: &AiDesign) -> f32 {
        match self {
            Self::BestWeapon => d.guns,
            Self::BestArmor => d.hit_points,
            Self::BestRange => 0.0,
            Self::Fastest => d.speed,
            Self::BestCombat | Self::Smallest => strength(d.guns, d.hit_points),
        }
    }
}

/// A strength (`ai.dll:0x1000fc70`, read): `(guns + 0.8) × hit points × 1e-5`.
pub fn strength(guns: f32, hit_points: f32) -> f32 {
    (guns + 0.8) * hit_points * 1e-5
}

/// The store positions of clan `clan`'s candidates for Type `class`, ranked by `select`
/// largest first.
pub fn ranking(store: &AiDesigns, clan: i32, class: u32, select: Select) -> Vec<usize> {
    // A building's Type carries `CLASS_BUILDING`, the registration bit.
    let mut ranked: Vec<(usize, f32)> = store
        .statuses(clan)
        .filter(|(_, d, s)| **s == DesignStatus::Researched && d.class == class && !UnitClass(d.class).registers())
        .map(|(i, d, _)| (i, select.score(d)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.into_iter().map(|(i, _)| i).collect()
}

/// The items function 41 researches for clan `clan`: those of the cheapest design whose
/// every part is in its tree and open or researched, not all researched (the first of
/// equal costs); `None` without one.
pub fn cheapest(store: &AiDesigns, clan: i32) -> Option<&[u32]> {
    let open = store.statuses(clan).filter_map(|(_, _, s)| match s {
        DesignStatus::Open { cost, items } => Some((*cost, items.as_slice())),
        _ => None,
    });
    // `min_by` keeps the first of equal minimums.
    open.min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, items)| items)
}

/// The design a pick takes from `ranking`, drawing from `random` unless the mode is
/// `SELECT_SMALLEST`; `None` without a candidate.
pub fn pick(ranking: &[usize], select: Select, spread: u32, random: &mut RandomStream) -> Option<usize> {
    if select == Select::Smallest {
        return ranking.last().copied();
    }
    let draw = random.below(spread.saturating_add(1)) as usize;
    ranking.get(draw).or(ranking.first()).copied()
}
