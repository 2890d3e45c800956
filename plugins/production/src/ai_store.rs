//! The computer clans' design store ([`AiDesigns`], openparkan `docs/15-behaviour.md`,
//! "Function 69 sets how sloppy the AI's design pick is" and "What a strength is", read):
//! when a mission starts, every `.dat` below `UNITS\UNITS\AI\` (any letter case, in
//! folded-path order) is made as the load makes a unit, and its figures taken: the Type
//! word, the size class, property 54 (every node's hit points at full, and the shield
//! full: the project's reading of the one helper that answers both), the live top speed
//! and the guns' figure. The original sums `a ÷ b × rounds` over the guns with two
//! authored figures not read; **the project's stand-in is the unit box's raw Offence**
//! (Σ round damage × 1000 ÷ interval), the same scale as the measured figures. Each
//! clan's statuses say which designs its tree has researched whole (every part in the
//! tree and researched) and which it may research (every part in the tree and open or
//! researched: function 41's, priced by the research ore and energy of the items still to
//! research, the project's reading of `CalcFullResearchCost`, which is not read past its
//! first node); they are set as the store loads and again each time the clan orders a
//! research (openparkan `docs/16-research.md`, "What an AI clan's tree gates", read), so
//! a research that completes shows from the clan's next order. A design that cannot be
//! made is reported once and left out.

use crate::design::Rating;
use crate::research::ResearchTree;
use crate::state::Production;
use crate::step::report;
use bevy_ecs::prelude::*;
use iron3d_core::{AI_DESIGN_DIR, AiDesign, AiDesigns, DesignStatus, ProductionEvent, SchemeNames, SizeClass};
use iron3d_mission::{resolve_object, running_backend};

/// The game paths of the store's unit files, in folded-path order.
fn files(world: &World) -> Vec<String> {
    let Ok(backend) = running_backend(world) else { return Vec::new() };
    let Some(game) = backend.game().map(|g| g.dir()) else { return Vec::new() };
    let dir = format!("{}\\", AI_DESIGN_DIR.to_ascii_lowercase());
    game.index()
        .files()
        .map(|p| p.to_string_lossy().replace('/', "\\"))
        .filter(|p| {
            let folded = p.to_ascii_lowercase();
            folded.starts_with(&dir) && folded.ends_with(".dat") && !folded[dir.len()..].contains('\\')
        })
        .collect()
}

/// One design's figures, made from its scheme.
fn design(world: &World, scheme: &str) -> Result<AiDesign, String> {
    let mut object = iron3d_mission::PreparedObject::probe(u32::MAX, scheme);
    resolve_object(world, &mut object).map_err(|e| format!("{scheme}: {e}"))?;
    let class = object.extras.unit_class.ok_or_else(|| format!("{scheme}: no Type word"))?;
    let sheet = object.extras.combat.as_ref().ok_or_else(|| format!("{scheme}: its parts carry no node table"))?;
    let rating = Rating::of(sheet, &object.extras.motion.unwrap_or_default(), None);
    let shield = sheet.shield.as_ref().map_or(0.0, |s| s.points);
    let parts: Vec<String> = object.components.iter().map(|c| c.key.clone()).collect();
    Ok(AiDesign {
        scheme: scheme.to_string(),
        class,
        size: parts.first().and_then(|k| SizeClass::of_key(k, false)).map_or(0, |s| s.0),
        hit_points: sheet.nodes.iter().map(|n| n.hit_points).sum::<f32>() + shield,
        guns: rating.offence,
        speed: rating.speed,
        parts,
    })
}

/// Fills the store when the game starts (after the research trees are read).
pub(crate) fn load(world: &mut World) {
    let mut store = AiDesigns::default();
    let mut problems = Vec::new();
    for scheme in files(world) {
        // Named from the start, as every scheme a clan may build, so a save or a replay
        // holds the same names at every tick.
        let made = design(world, &scheme).and_then(|d| {
            world.resource_mut::<SchemeNames>().intern(&scheme)?;
            Ok(d)
        });
        match made {
            Ok(d) => store.designs.push(d),
            Err(e) => problems.push(format!("AI design store: {e}")),
        }
    }
    world.insert_resource(store);
    let clans: Vec<i32> =
        world.get_resource::<Production>().map(|p| p.clans.keys().copied().collect()).unwrap_or_default();
    for clan in clans {
        mark(world, clan);
    }
    for p in problems {
        report(world, ProductionEvent::Rejected, Vec::new(), p);
    }
}

/// What `tree` makes of `design` (no tree: closed).
fn status(tree: Option<&ResearchTree>, design: &AiDesign) -> DesignStatus {
    let Some(tree) = tree else { return DesignStatus::Closed };
    let Some(items) = design.parts.iter().map(|p| tree.item_of_part(p)).collect::<Option<Vec<u32>>>() else {
        return DesignStatus::Closed;
    };
    let mut open: Vec<u32> = Vec::new();
    for i in items.into_iter().filter(|&i| !tree.researched(i)) {
        if !tree.available(i) {
            return DesignStatus::Closed;
        }
        if !open.contains(&i) {
            open.push(i);
        }
    }
    match open.is_empty() {
        true => DesignStatus::Researched,
        false => {
            let cost = open.iter().map(|&i| &tree.nodes[i as usize]).map(|n| n.research_ore + n.research_energy).sum();
            DesignStatus::Open { cost, items: open }
        }
    }
}

/// Sets clan `clan`'s statuses from its tree.
pub(crate) fn mark(world: &mut World, clan: i32) {
    let (Some(production), Some(store)) = (world.get_resource::<Production>(), world.get_resource::<AiDesigns>())
    else {
        return;
    };
    let tree = production.clans.get(&clan).and_then(|r| r.tree.as_ref());
    let statuses: Vec<DesignStatus> = store.designs.iter().map(|d| status(tree, d)).collect();
    if store.clans.get(&clan) != Some(&statuses) {
        world.resource_mut::<AiDesigns>().clans.insert(clan, statuses);
    }
}
