//! Components and messages of mission objects.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{ModelBounds, PieceAnimation, PieceBinding};
use iron3d_formats::world::PlacedObject;

/// A mission object: what was placed and what it expanded to.
#[derive(Component, Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct MissionObject {
    /// Prototype key or unit scheme path, as placed.
    pub key: String,
    /// Components (prototype keys and how their models attach).
    pub components: Vec<ObjectComponent>,
    /// Clan index.
    pub clan: i32,
}

impl MissionObject {
    /// The union of the components' hull bounds (`None` when no component has a model).
    pub fn bounds(&self) -> Option<ModelBounds> {
        self.components.iter().filter_map(|c| c.bounds).reduce(|a, b| ModelBounds {
            min: std::array::from_fn(|k| a.min[k].min(b.min[k])),
            max: std::array::from_fn(|k| a.max[k].max(b.max[k])),
        })
    }

    /// The piece bindings of every component, in component order.
    pub fn animation(&self) -> PieceAnimation {
        PieceAnimation { bindings: self.components.iter().flat_map(|c| c.bindings.iter().copied()).collect() }
    }
}

/// The placed object's TMA record as read (`docs/reference/world.md` §1.5), raw words included.
#[derive(Component, Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PlacedRecord {
    /// Inferred kind: 0 building, 1 warbot, 2 tree, 3 stone.
    pub raw_kind: u32,
    /// Class flags (`0x80000002` in retail data).
    pub class_or_flags: u32,
    /// Prototype key or unit `.dat` path.
    pub resource_name: String,
    /// Clan / SuperAI slot word.
    pub raw_after_resource: u32,
    /// Inferred order word.
    pub identity_or_clan_raw: u32,
    /// Position (game units, Z up).
    pub position: [f32; 3],
    /// Euler angles (radians), `R = Rz·Ry·Rx`.
    pub orientation: [f32; 3],
    /// Scale per game axis.
    pub scale: [f32; 3],
    /// Instance name (may be empty).
    pub instance_name: String,
    /// Opaque word after the name.
    pub raw_after_name: u32,
    /// Opaque links.
    pub links: [i32; 2],
    /// Property schema version.
    pub property_schema_version: u32,
}

impl Default for PlacedRecord {
    fn default() -> Self {
        let o = PlacedObject::new(0, "", [0.0; 3]);
        Self::from(&o)
    }
}

impl From<&PlacedObject> for PlacedRecord {
    fn from(o: &PlacedObject) -> Self {
        Self {
            raw_kind: o.raw_kind,
            class_or_flags: o.class_or_flags,
            resource_name: o.resource_name.display(),
            raw_after_resource: o.raw_after_resource,
            identity_or_clan_raw: o.identity_or_clan_raw,
            position: o.position,
            orientation: o.orientation,
            scale: o.scale,
            instance_name: o.instance_name.display(),
            raw_after_name: o.raw_after_name,
            links: [o.link0, o.link1],
            property_schema_version: o.property_schema_version,
        }
    }
}

/// One component of a mission object (`docs/reference/registry.md` §2.3, `docs/reference/models.md` §1.12).
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ObjectComponent {
    /// Component prototype key.
    pub key: String,
    /// Parent component (index into [`MissionObject::components`]); `None` for the root.
    pub parent: Option<usize>,
    /// Node of the parent's model where this component's model attaches.
    pub attach_node: u32,
    /// Unit DAT component type (`docs/reference/registry.md` §2.3: 0 chassis, 1 turret, 2 armour,
    /// 3 part, 4 cannon, 5 ammo); 0 for a direct prototype key.
    pub component_type: u32,
    /// The resolved prototype: the `objects.rlb` entry that matched and its mesh
    /// (`archive::resource`, empty for a non-geometric prototype).
    pub prototype: ResolvedPrototype,
    /// Hull bounds of its model (MSH header, local game space); `None` without a model.
    pub bounds: Option<ModelBounds>,
    /// The CTLD initial pose of its model's pieces (one binding per posed node).
    pub bindings: Vec<PieceBinding>,
    /// Its `CameraCenter` control point (CTPT, node-local game space): where a
    /// first-person camera sits when the player pilots the unit.
    pub camera_center: Option<[f32; 3]>,
}

/// What a component key resolved to in `objects.rlb` (`docs/reference/registry.md` §1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ResolvedPrototype {
    /// The registry entry that matched.
    pub entry: String,
    /// The mesh, `archive::resource` (empty when non-geometric).
    pub mesh: String,
    /// Every effective reference, `archive::resource`, in expansion order.
    pub refs: Vec<String>,
}

impl ObjectComponent {
    /// A root component (a direct prototype key).
    pub fn root(key: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            parent: None,
            attach_node: 0,
            component_type: 0,
            prototype: ResolvedPrototype::default(),
            bounds: None,
            bindings: Vec::new(),
            camera_center: None,
        }
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
