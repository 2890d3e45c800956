//! Components and messages of mission objects.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// A mission object: what was placed and what it expanded to.
#[derive(Component, Debug, Clone, PartialEq, Reflect)]
#[reflect(Component)]
pub struct MissionObject {
    /// Prototype key or unit scheme path, as placed.
    pub key: String,
    /// Components (prototype keys and how their models attach).
    pub components: Vec<ObjectComponent>,
    /// Clan index.
    pub clan: i32,
}

/// One component of a mission object (spec `registry.md` §2.3, `models.md` §1.12).
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct ObjectComponent {
    /// Component prototype key.
    pub key: String,
    /// Parent component (index into [`MissionObject::components`]); `None` for the root.
    pub parent: Option<usize>,
    /// Node of the parent's model where this component's model attaches.
    pub attach_node: u32,
}

impl ObjectComponent {
    /// A root component (a direct prototype key).
    pub fn root(key: impl Into<String>) -> Self {
        Self { key: key.into(), parent: None, attach_node: 0 }
    }
}

/// Constructed but not yet part of the world (no gameplay system sees it).
#[derive(Component, Debug, Default, Clone, Copy, Reflect)]
#[reflect(Component)]
pub struct Pending;

/// Part of the world: registered at the end of a successful load.
#[derive(Component, Debug, Default, Clone, Copy, Reflect)]
#[reflect(Component)]
pub struct Registered;

/// Sent once per object when it joins the world, in `OriginalObjectId` order.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissionObjectRegistered {
    /// The entity.
    pub entity: Entity,
    /// Its original id.
    pub id: u32,
}
