//! The World3D object table: generational handles to entities, and the lookup by
//! mission id. World3D maintains it; everyone may read it.

use crate::ids::{ObjectHandle, OriginalObjectId};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, Default, Reflect)]
struct Slot {
    generation: u32,
    entity: Option<Entity>,
}

/// Live objects by handle and by [`OriginalObjectId`].
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct ObjectTable {
    slots: Vec<Slot>,
    free: Vec<u32>,
    by_id: BTreeMap<u32, ObjectHandle>,
}

impl ObjectTable {
    /// Gives `entity` a handle (reusing the most recently freed slot).
    pub fn insert(&mut self, entity: Entity, id: OriginalObjectId) -> ObjectHandle {
        let index = self.free.pop().unwrap_or_else(|| {
            self.slots.push(Slot::default());
            (self.slots.len() - 1) as u32
        });
        let slot = &mut self.slots[index as usize];
        slot.entity = Some(entity);
        let handle = ObjectHandle { index, generation: slot.generation };
        self.by_id.insert(id.0, handle);
        handle
    }

    /// Frees a handle's slot: the handle (and every copy of it) resolves to nothing.
    pub fn remove(&mut self, handle: ObjectHandle, id: OriginalObjectId) {
        if self.get(handle).is_none() {
            return;
        }
        let slot = &mut self.slots[handle.index as usize];
        slot.entity = None;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.index);
        if self.by_id.get(&id.0) == Some(&handle) {
            self.by_id.remove(&id.0);
        }
    }

    /// The entity of a live handle.
    pub fn get(&self, handle: ObjectHandle) -> Option<Entity> {
        let slot = self.slots.get(handle.index as usize)?;
        (slot.generation == handle.generation).then_some(slot.entity).flatten()
    }

    /// The handle of a live object by mission id.
    pub fn handle_of(&self, id: u32) -> Option<ObjectHandle> {
        self.by_id.get(&id).copied()
    }

    /// The entity of a live object by mission id.
    pub fn entity_of(&self, id: u32) -> Option<Entity> {
        self.get(self.handle_of(id)?)
    }

    /// Live objects in id order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, ObjectHandle)> + '_ {
        self.by_id.iter().map(|(id, h)| (*id, *h))
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether no object is live.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}
