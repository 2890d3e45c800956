//! A building's places (openparkan `docs/27-ownership.md`, read and measured): the nodes
//! of its model's hall way (mesh stream 17) whose flag word makes them somewhere a unit
//! stands: a control pod, a dock, an ore place, a teleport place, a factory's creation
//! node ([`place`]). A place is a box around its node, 10 wide and 12 high at ground
//! level and 5 and 3 otherwise; a unit counts in it only while it moves at no more than
//! 2 m/s (1 000 at a teleport's place).

use crate::SimTransform;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
pub use iron3d_formats::model::msh::hall_way::place;

/// A place's bits that make it a teleport's, whose occupants may move at any speed (read).
const TELEPORT_BOUND: u32 = 0x7_c000;

/// One place of a building.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Place {
    /// Its node's flag word ([`place`]).
    pub flags: u32,
    /// Its node's position (the building's model space: game axes, before the
    /// building's placement).
    pub at: [f32; 3],
    /// The model node it moves with, its joint (the hall-way node's second word,
    /// openparkan `docs/36-factory.md`, read).
    pub joint: u16,
}

impl Place {
    /// Whether it carries any bit of `mask`.
    pub fn is(&self, mask: u32) -> bool {
        self.flags & mask != 0
    }

    /// Its box's width and height: 10 and 12 at ground level, 5 and 3 otherwise.
    pub fn size(&self) -> (f32, f32) {
        if self.is(place::GROUND) { (10.0, 12.0) } else { (5.0, 3.0) }
    }

    /// The fastest an occupant may move (m/s): 1 000 at a teleport's place, 2 otherwise.
    pub fn speed_bound(&self) -> f32 {
        if self.is(TELEPORT_BOUND) { 1_000.0 } else { 2.0 }
    }

    /// Whether a point of the building's model space is in its box. The box stands
    /// square to the building and centred on its node (the project's reading: the
    /// original's box corners were not read).
    pub fn holds(&self, local: [f32; 3]) -> bool {
        let (width, height) = self.size();
        let d = [local[0] - self.at[0], local[1] - self.at[1], local[2] - self.at[2]];
        d[0].abs() <= width / 2.0 && d[1].abs() <= width / 2.0 && d[2].abs() <= height / 2.0
    }
}

/// A building's places, from its model's hall way (made when the object is made).
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Places(pub Vec<Place>);

impl Places {
    /// The places carrying any bit of `mask`.
    pub fn of(&self, mask: u32) -> impl Iterator<Item = &Place> {
        self.0.iter().filter(move |p| p.is(mask))
    }

    /// A factory's creation node: its first place with bit `0x800`, else `0x80`
    /// (openparkan `docs/36-factory.md`, read).
    pub fn creation_node(&self) -> Option<&Place> {
        self.of(0x800).next().or_else(|| self.of(0x80).next())
    }
}

/// A world point in the model space of an object placed at `t`: the inverse of its
/// placement about its heading (buildings stand level) and of its scale.
pub fn model_point(t: &SimTransform, world: [f32; 3]) -> [f32; 3] {
    let (sin, cos) = libm::sincosf(t.heading());
    let [dx, dy, dz] = [world[0] - t.position[0], world[1] - t.position[1], world[2] - t.position[2]];
    let unscale = |v: f32, s: f32| if s != 0.0 { v / s } else { v };
    [unscale(cos * dx + sin * dy, t.scale[0]), unscale(-sin * dx + cos * dy, t.scale[1]), unscale(dz, t.scale[2])]
}

/// A point of the model space of an object placed at `t` in the world (about its
/// heading and scale, as [`model_point`] inverts).
pub fn world_point(t: &SimTransform, local: [f32; 3]) -> [f32; 3] {
    let (sin, cos) = libm::sincosf(t.heading());
    let [x, y, z] = [local[0] * t.scale[0], local[1] * t.scale[1], local[2] * t.scale[2]];
    [t.position[0] + cos * x - sin * y, t.position[1] + sin * x + cos * y, t.position[2] + z]
}
