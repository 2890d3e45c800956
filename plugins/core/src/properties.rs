//! A placed object's property bag (`docs/reference/world.md` §1.5): the mission load attaches
//! it, and subsystems read the properties they know (`CurrentOre`, `Life state`,
//! `PatrolPath`…) without depending on the mission crate.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_formats::world::{PlacedObject, Property, PropertyValue};

/// One entry of an object's property bag: its name and the four raw value words.
#[derive(Debug, Clone, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ObjectProperty {
    /// Name (case-sensitive).
    pub name: String,
    /// The 16 value bytes as four words, as stored.
    pub raw_value: [u32; 4],
}

impl ObjectProperty {
    /// The typed reading of the value (`docs/reference/world.md` §1.5, inferred typing).
    pub fn value(&self) -> PropertyValue {
        Property { raw_value: self.raw_value, name: self.name.as_str().into() }.value()
    }
}

/// The object's property bag in file order, duplicates kept (`CurrentOre`, `ClanID`…).
#[derive(Component, Debug, Clone, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PropertyBag(pub Vec<ObjectProperty>);

impl PropertyBag {
    /// The bag of a placed object.
    pub fn of(o: &PlacedObject) -> Self {
        Self(o.properties.iter().map(|p| ObjectProperty { name: p.name.display(), raw_value: p.raw_value }).collect())
    }

    /// The first property named `name`, as the engine looks it up.
    pub fn first(&self, name: &str) -> Option<&ObjectProperty> {
        self.0.iter().find(|p| p.name == name)
    }
}
