//! Shields (openparkan `docs/26-damage.md`, read and measured): a bubble of six sectors
//! round an object that carries a fight shield and a deflector, the deflector's node
//! alive. A hit from outside meets the sector it comes from; the sector's strength is
//! its coefficient × the deflector's condition × the power level × its points; what it
//! stops costs the sector the stopped damage ÷ (its coefficient × the condition).
//! Points recharge, by the shield node's condition and the level, in proportion to each
//! sector's lack.

use crate::body::Body;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::ShieldSheet;

/// The live bubble of an object.
#[derive(Component, Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Shield {
    /// What it is.
    pub sheet: ShieldSheet,
    /// Each sector's full points (the data's times the difficulty ratio).
    pub max: f32,
    /// Points held, by sector: 0 front, 1 back, 2 left, 3 right, 4 top, 5 bottom.
    pub sectors: [f32; 6],
    /// Its power channel's level at the object's last power tick (1 without batteries).
    pub level: f32,
}

/// The sector a hit coming from `offset` (from the bubble's centre, in the object's
/// frame as the original holds it: x right, y forward, z up) meets: the dominant axis,
/// ties to the lower sector (read).
pub fn sector([x, y, z]: [f32; 3]) -> usize {
    let candidates = [
        (y.abs(), if y >= 0.0 { 0 } else { 1 }),
        (x.abs(), if x < 0.0 { 2 } else { 3 }),
        (z.abs(), if z >= 0.0 { 4 } else { 5 }),
    ];
    let mut best = candidates[0];
    for c in &candidates[1..] {
        if c.0 > best.0 || c.0 == best.0 && c.1 < best.1 {
            best = *c;
        }
    }
    best.1
}

/// How a round meets a sector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Meeting {
    /// It passes on with this much less life.
    Passes(f32),
    /// It stops at the bubble.
    Stopped,
}

impl Shield {
    /// A full bubble of `sheet`, its sectors `ratio` times the data's.
    pub fn new(sheet: ShieldSheet, ratio: f32) -> Self {
        let max = sheet.points * ratio;
        Self { sheet, max, sectors: [max; 6], level: 1.0 }
    }

    /// Whether the bubble stands: the shield's and the deflector's nodes alive.
    pub fn up(&self, body: &Body) -> bool {
        body.lives(self.sheet.node) && body.lives(self.sheet.deflector_node)
    }

    /// The deflector's condition (its node's life fraction).
    fn condition(&self, body: &Body) -> f32 {
        body.condition(self.sheet.deflector_node)
    }

    /// Sector `s`'s strength now: its coefficient × the deflector's condition × the
    /// power level × its points.
    pub fn strength(&self, body: &Body, s: usize) -> f32 {
        self.sheet.coefficients[s] * self.condition(body) * self.level * self.sectors[s]
    }

    /// A round of `life` meets sector `s`: with more life than the sector's strength it
    /// passes, emptying the sector, with that much less; else it stops there (read).
    pub fn meet(&mut self, body: &Body, s: usize, life: f32) -> Meeting {
        let strength = self.strength(body, s);
        if life > strength {
            self.sectors[s] = 0.0;
            Meeting::Passes(strength)
        } else {
            Meeting::Stopped
        }
    }

    /// Sector `s` takes `damage`: it stops up to its strength, paying the stopped part
    /// ÷ (its coefficient × the condition) in points; returns what goes on to the nodes.
    pub fn stop(&mut self, body: &Body, s: usize, damage: f32) -> f32 {
        let strength = self.strength(body, s);
        let stopped = damage.min(strength);
        if stopped > 0.0 {
            let per = self.sheet.coefficients[s] * self.condition(body);
            self.sectors[s] = (self.sectors[s] - stopped / per).max(0.0);
        }
        damage - stopped
    }

    /// Recharges over `dt` seconds: value 1 × the shield node's condition a second, up
    /// to the whole lack, shared in proportion to each sector's lack (read).
    pub fn recharge(&mut self, body: &Body, dt: f32) {
        let lack = self.lack();
        if lack <= 0.0 {
            return;
        }
        let points = (self.sheet.recharge * body.condition(self.sheet.node) * self.level * dt).min(lack);
        for s in &mut self.sectors {
            *s = (*s + points * (self.max - *s) / lack).min(self.max);
        }
    }

    /// What its six sectors lack of full.
    fn lack(&self) -> f32 {
        self.sectors.iter().map(|s| self.max - s).sum()
    }

    /// The power its recharge asks a second beyond its own: value 2 × what it
    /// recharges, `min(value 1 × condition, the lack)` (read).
    pub fn draw(&self, body: &Body) -> f32 {
        self.sheet.charge_per_point * (self.sheet.recharge * body.condition(self.sheet.node)).min(self.lack())
    }
}
