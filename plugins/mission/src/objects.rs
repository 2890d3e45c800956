//! Components and messages of mission objects.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// A mission object: what was placed and what it expanded to.
#[derive(Component, Debug, Clone, PartialEq, Reflect)]
#[reflect(Component)]
pub struct MissionObject {
    /// Prototype key or unit scheme path, as placed.
    pub key: String,
    /// Component prototype keys.
    pub components: Vec<String>,
    /// Clan index.
    pub clan: i32,
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
