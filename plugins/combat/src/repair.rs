//! Repair systems (openparkan `docs/26-damage.md`, read and measured): a repair system
//! mends its own object only, value 0 × its node's condition a second, into its nodes in
//! index order, each filled before the next; a unit's destroyed nodes stay destroyed, a
//! building's come back. It starts switched off; the AI switches it on when the object's
//! life falls below half (a building's below 0.9) while its battery holds more than
//! 30 %, and off when the battery falls under 10 % (or its life is above
//! `Decision_RepairOff`, 1, so never for that).

use crate::body::Body;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::RepairSheet;

/// The live repair system of an object.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Repair {
    /// What it is.
    pub sheet: RepairSheet,
    /// Switched on.
    pub on: bool,
    /// It mends a building (destroyed nodes come back).
    pub building: bool,
}

impl Repair {
    /// The life fraction under which the AI switches it on.
    fn threshold(&self) -> f32 {
        if self.building { 0.9 } else { 0.5 }
    }

    /// The power its mending asks a second beyond its own, while on: value 1 × the life
    /// it restores, at most value 0 × its condition a second (read).
    pub fn draw(&self, body: &Body) -> f32 {
        if !self.on {
            return 0.0;
        }
        let (life, max) = body.total();
        self.sheet.charge_per_point * (self.sheet.rate * body.condition(self.sheet.node)).min(max - life)
    }

    /// One step of `dt` seconds with the battery at `charge` (its share of the
    /// capacity; 1 without batteries): switches on or off when due, then mends; returns
    /// the life mended.
    pub fn step(&mut self, body: &mut Body, dt: f32, charge: f32) -> f32 {
        let (life, max) = body.total();
        if charge < 0.1 {
            self.on = false;
        } else if max > 0.0 && life / max < self.threshold() && charge > 0.3 {
            self.on = true;
        }
        let Some(node) = body.nodes.get(usize::from(self.sheet.node)) else { return 0.0 };
        if !self.on || node.life <= 0.0 || node.max <= 0.0 {
            return 0.0;
        }
        let mut points = self.sheet.rate * node.life / node.max * dt;
        let mended = points;
        for n in &mut body.nodes {
            if points <= 0.0 {
                break;
            }
            if n.life <= 0.0 && !self.building {
                continue;
            }
            let add = (n.max - n.life).max(0.0).min(points);
            n.life += add;
            points -= add;
        }
        mended - points
    }
}
