//! A body of nodes, each with its life (openparkan `docs/26-damage.md`, read): damage
//! lowers a node's life to no less than 0; a node at 0 is destroyed and takes every
//! node below it in the tree; the object dies with its node 0 or a vital node. Armour
//! and the blast falloff are the original's formulas.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::CombatSheet;

/// One node's life.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct NodeLife {
    /// Life left (0: destroyed).
    pub life: f32,
    /// Full life (the data's hit points times the difficulty ratio).
    pub max: f32,
    /// Parent node.
    pub parent: Option<u16>,
    /// Its destruction kills the object.
    pub vital: bool,
}

/// The live body of an object that can be damaged.
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Body {
    /// Nodes in body order.
    pub nodes: Vec<NodeLife>,
    /// Armour `(linear, square)`.
    pub armour: [f32; 2],
}

/// What one strike did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Strike {
    /// Life the struck node lost.
    pub lost: f32,
    /// Nodes destroyed by it (the struck node first, then those below it), in order.
    pub destroyed: Vec<u16>,
    /// The object died (node 0 or a vital node destroyed).
    pub dead: bool,
}

impl Body {
    /// A body from the data, each node's life `ratio` times its hit points.
    pub fn from_sheet(sheet: &CombatSheet, ratio: f32) -> Self {
        let nodes = sheet
            .nodes
            .iter()
            .map(|n| NodeLife {
                life: n.hit_points * ratio,
                max: n.hit_points * ratio,
                parent: n.parent,
                vital: n.vital,
            })
            .collect();
        Self { nodes, armour: sheet.armour }
    }

    /// A body of one node of `life` of `max`, armour `(linear, square)`.
    pub fn single(life: f32, max: f32, armour: [f32; 2]) -> Self {
        Self { nodes: vec![NodeLife { life, max, parent: None, vital: false }], armour }
    }

    /// Life left and full life over every node.
    pub fn total(&self) -> (f32, f32) {
        self.nodes.iter().fold((0.0, 0.0), |(l, m), n| (l + n.life, m + n.max))
    }

    /// A node's condition, its life over its full life (1 for a node it does not have,
    /// 0 for one of no full life): what scales the part that sits on it.
    pub fn condition(&self, node: u16) -> f32 {
        self.nodes.get(usize::from(node)).map_or(1.0, |n| if n.max > 0.0 { n.life / n.max } else { 0.0 })
    }

    /// Whether node `node` lives (a node it does not have counts as living): what a part
    /// that sits on it needs to work.
    pub fn lives(&self, node: u16) -> bool {
        self.nodes.get(usize::from(node)).is_none_or(|n| n.life > 0.0)
    }

    /// Whether the object is dead (its node 0 or a vital node destroyed).
    pub fn dead(&self) -> bool {
        self.nodes.iter().enumerate().any(|(i, n)| n.life <= 0.0 && (i == 0 || n.vital))
    }

    /// Deals `damage` (after armour) to node `node`: its life falls by it, to no less
    /// than 0; at 0 it and every node below it are destroyed.
    pub fn strike(&mut self, node: u16, damage: f32) -> Strike {
        let mut out = Strike::default();
        let Some(n) = self.nodes.get_mut(usize::from(node)) else { return out };
        if n.life <= 0.0 || damage <= 0.0 {
            return out;
        }
        out.lost = damage.min(n.life);
        n.life -= out.lost;
        if n.life <= 0.0 {
            n.life = 0.0;
            out.destroyed.push(node);
            // Children follow their parents: one pass in body order finds every node
            // below a destroyed one when parents come first, repeated until none is left.
            loop {
                let fallen: Vec<u16> = (0..self.nodes.len())
                    .filter(|&i| {
                        let n = &self.nodes[i];
                        n.life > 0.0
                            && n.parent.is_some_and(|p| self.nodes.get(usize::from(p)).is_some_and(|p| p.life <= 0.0))
                    })
                    .map(|i| i as u16)
                    .collect();
                if fallen.is_empty() {
                    break;
                }
                for i in fallen {
                    self.nodes[usize::from(i)].life = 0.0;
                    out.destroyed.push(i);
                }
            }
            out.dead = out.destroyed.iter().any(|&i| i == 0 || self.nodes[usize::from(i)].vital);
        }
        out
    }
}

/// Armour: what reaches a node of a hit of `damage`, `min(d, linear·d + square·d²)`,
/// never below 0 (openparkan `docs/26-damage.md`, read).
pub fn armoured(damage: f32, [linear, square]: [f32; 2]) -> f32 {
    damage.min(linear * damage + square * damage * damage).max(0.0)
}

/// A blast's damage at a node sphere of radius `r` whose centre is `d` from a blast of
/// radius `radius` (openparkan `docs/26-damage.md`, read): nothing when `r` is 0 or the
/// spheres do not meet, all of it when one sphere is strictly inside the other, else
/// `damage × ((radius + r − d) / (2·radius))³`.
pub fn falloff(damage: f32, d: f32, r: f32, radius: f32) -> f32 {
    if r <= 0.0 || d >= radius + r {
        0.0
    } else if d < radius - r || d < r - radius {
        damage
    } else {
        let f = (radius + r - d) / (2.0 * radius);
        damage * f * f * f
    }
}
