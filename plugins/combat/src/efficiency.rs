//! A building's efficiency (KPD) as its control system answers it (openparkan
//! `docs/23-economy.md`, read and measured): each efficiency part (class 26) answers
//! `(condition × value) × level`, the condition the life left in the node it names (life
//! over full life: shooting the part lowers the building's efficiency in proportion)
//! and the level the one channel 3 was served at its last power tick; a part whose key
//! falls outside its node table never answers. The building's efficiency is their sum,
//! published as [`iron3d_core::Efficiency`] for the economy.

use crate::body::Body;
use bevy_ecs::prelude::*;
use iron3d_core::{CombatSheet, Efficiency, Power};

/// What the efficiency parts of `sheet` answer with the nodes of `body` at power `level`
/// (`None`: it carries none).
pub fn efficiency(sheet: &CombatSheet, body: &Body, level: f32) -> Option<Efficiency> {
    (!sheet.efficiency.is_empty()).then(|| {
        Efficiency(sheet.efficiency.iter().filter_map(|p| Some(body.condition(p.node?) * p.value * level)).sum())
    })
}

/// Publishes a building's efficiency again after a change of its body or its power.
pub(crate) fn keep(
    mut buildings: Query<(&CombatSheet, &Body, Option<&Power>, &mut Efficiency), Or<(Changed<Body>, Changed<Power>)>>,
) {
    for (sheet, body, power, mut published) in &mut buildings {
        if let Some(now) = efficiency(sheet, body, power.map_or(1.0, |p| p.levels[3])) {
            published.set_if_neq(now);
        }
    }
}
