//! The World3D object table: generational handles to entities, and the lookup by
//! mission id. World3D maintains it; everyone may read it.

use crate::ids::{ObjectHandle, OriginalObjectId};
use bevy_ecs::prelude::*;
use bevy_platform::collections::HashMap;
use bevy_reflect::Reflect;

#[derive(Debug, Clone, Copy, Default, Reflect)]
struct Slot {
    generation: u32,
    entity: Option<Entity>,
}

/// Live objects by handle and by [`OriginalObjectId`]. The lookup by id is hashed
/// (combat resolves thousands of ids a tick); whatever lists the objects sorts them
/// by id, so no order depends on the hash.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct ObjectTable {
    slots: Vec<Slot>,
    free: Vec<u32>,
    by_id: HashMap<u32, ObjectHandle>,
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
    pub fn iter(&self) -> impl Iterator<Item = (u32, ObjectHandle)> {
        let mut live: Vec<(u32, ObjectHandle)> = self.by_id.iter().map(|(id, h)| (*id, *h)).collect();
        live.sort_unstable_by_key(|(id, _)| *id);
        live.into_iter()
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether no object is live.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The table by mission id (what a save keeps): each slot's generation and the id
    /// of the object in it, and the free slots in reuse order.
    pub fn layout(&self) -> TableLayout {
        let mut slots: Vec<(u32, Option<u32>)> = self.slots.iter().map(|s| (s.generation, None)).collect();
        for (id, h) in self.iter() {
            if let Some(slot) = slots.get_mut(h.index as usize).filter(|_| self.get(h).is_some()) {
                slot.1 = Some(id);
            }
        }
        TableLayout { slots, free: self.free.clone() }
    }

    /// The table of `layout`, each id's entity given by `entity_of`.
    ///
    /// # Errors
    /// An id without an entity, or a free slot that is not a slot.
    pub fn from_layout(layout: &TableLayout, entity_of: impl Fn(u32) -> Option<Entity>) -> Result<Self, String> {
        let mut table = Self { free: layout.free.clone(), ..Self::default() };
        for (index, &(generation, id)) in layout.slots.iter().enumerate() {
            let entity = match id {
                None => None,
                Some(id) => {
                    let entity = entity_of(id).ok_or(format!("object {id} has a handle but does not exist"))?;
                    table.by_id.insert(id, ObjectHandle { index: index as u32, generation });
                    Some(entity)
                }
            };
            table.slots.push(Slot { generation, entity });
        }
        match layout.free.iter().find(|f| **f as usize >= layout.slots.len()) {
            Some(f) => Err(format!("free slot {f} is not one of the {} slots", layout.slots.len())),
            None => Ok(table),
        }
    }
}

/// An [`ObjectTable`] by mission id: `(generation, live object's id)` per slot and the
/// free slots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableLayout {
    /// Each slot's generation and the id of the object in it.
    pub slots: Vec<(u32, Option<u32>)>,
    /// Free slots, the next reused last.
    pub free: Vec<u32>,
}
