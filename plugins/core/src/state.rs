//! The simulation's state, declared once by the crate that owns each piece
//! ([`StateApp`]): the save writes and restores what the [`SimState`] registry lists, the
//! state hash walks it, in the fixed order of the declared tags (never the order plugins
//! were added in).
//!
//! A saved type says how the hash covers it ([`Hashing`]): by its encoded bytes (one
//! line declares it), by its crate's own hasher (words chosen for speed, for the state
//! every object carries), or not, with the reason. A component declared
//! [`Hashing::replicated`] also reaches joined games: the netcode walks the registry and
//! sends each object's replicated components in their encoded bytes
//! ([`ComponentState::each`], [`ComponentState::read`], [`ComponentState::put`]).

use crate::{Fnv1a, OriginalObjectId, SimObject};
use bevy_app::App;
use bevy_ecs::component::Mutable;
use bevy_ecs::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::{Any, TypeId};
use std::collections::BTreeMap;

/// How the state hash covers a saved type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hashing {
    /// Its encoded bytes, after each object's id in id order (a resource's once).
    Bytes,
    /// The named crate's hasher ([`StateApp::hash_state`]) reads it.
    By(&'static str),
    /// Not hashed, for the reason given.
    Not(&'static str),
}

impl Hashing {
    /// Kept as this says and replicated to joined games too.
    pub const fn replicated(self) -> Keep {
        Keep { hashing: self, replicated: true }
    }
}

/// How a saved type is kept: hashed as [`Keep::hashing`] says and, when
/// [`Keep::replicated`], sent to joined games. A [`Hashing`] alone is a type saved and
/// hashed, not replicated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// How the hash covers it.
    pub hashing: Hashing,
    /// Whether joined games receive it (components only).
    pub replicated: bool,
}

impl From<Hashing> for Keep {
    fn from(hashing: Hashing) -> Self {
        Self { hashing, replicated: false }
    }
}

/// A value read from a save, not yet put into a world (its entry knows the type).
pub type StateValue = Box<dyn Any + Send>;

/// A crate's hasher: feeds its state to the hash, objects in the given id order.
pub type Hasher = fn(&World, &[(u32, Entity)], &mut Fnv1a);

/// A decoding error: the byte offset in the input and what went wrong.
pub type DecodeError = (usize, String);

/// One saved component type: how to encode it from entities, decode it and put it on
/// entities.
pub struct ComponentState {
    /// Its stable tag (`crate.name`): the save names the column by it.
    pub tag: &'static str,
    /// Its type.
    pub type_id: TypeId,
    /// How the hash covers it.
    pub hashing: Hashing,
    /// Whether joined games receive it.
    pub replicated: bool,
    /// Appends the encoded component of each entity that has one and sets `bit` in
    /// that entity's mask.
    pub write: fn(&World, &[Entity], u64, &mut [u64], &mut Vec<u8>) -> Result<(), String>,
    /// Decodes `n` values (a `Vec` of the type) that fill `bytes` exactly.
    pub read: fn(&[u8], usize) -> Result<StateValue, DecodeError>,
    /// Puts decoded values on the entities marked `true`, in order, and removes the
    /// component from the others.
    pub put: fn(&mut World, &[(Entity, bool)], StateValue),
    /// Calls back with the position and encoded bytes of each entity that has one.
    pub each: fn(&World, &[Entity], &mut dyn FnMut(usize, &[u8])) -> Result<(), String>,
    /// The value one encoded component holds, as its `Debug` shows it (or why it does not
    /// decode): what a sync report prints.
    pub describe: fn(&[u8]) -> String,
    hash: fn(&World, &[(u32, Entity)], &mut Fnv1a, &mut Vec<u8>),
}

/// One saved resource type, as [`ComponentState`] for the world.
pub struct ResourceState {
    /// Its stable tag.
    pub tag: &'static str,
    /// How the hash covers it.
    pub hashing: Hashing,
    /// Appends the encoded resource; `false` (nothing written) when the world has none.
    pub write: fn(&World, &mut Vec<u8>) -> Result<bool, String>,
    /// Decodes one value from the front of `bytes`: the value and the bytes it took.
    pub read: fn(&[u8]) -> Result<(StateValue, usize), DecodeError>,
    /// Inserts a decoded value.
    pub put: fn(&mut World, StateValue),
    /// Removes the resource.
    pub remove: fn(&mut World),
    hash: fn(&World, &mut Fnv1a, &mut Vec<u8>),
}

/// The registry of the simulation's state, in tag order.
#[derive(Resource, Default)]
pub struct SimState {
    components: Vec<ComponentState>,
    resources: Vec<ResourceState>,
    hashers: BTreeMap<&'static str, Hasher>,
}

impl SimState {
    /// The saved component types, in tag order.
    pub fn components(&self) -> &[ComponentState] {
        &self.components
    }

    /// The saved resource types, in tag order.
    pub fn resources(&self) -> &[ResourceState] {
        &self.resources
    }

    /// The crates' hashers by crate name.
    pub fn hashers(&self) -> &BTreeMap<&'static str, Hasher> {
        &self.hashers
    }

    /// The replicated component types, in tag order (their position in this list is
    /// what the netcode names them by).
    pub fn replicated(&self) -> impl Iterator<Item = &ComponentState> {
        self.components.iter().filter(|c| c.replicated)
    }

    /// The position of component `T` among [`SimState::components`].
    pub fn component_of<T: 'static>(&self) -> Option<usize> {
        self.components.iter().position(|c| c.type_id == TypeId::of::<T>())
    }

    /// Feeds the simulation state to `h`: each crate's hasher in crate order, then the
    /// byte-hashed components (objects in id order) and resources in tag order.
    pub fn hash_into(&self, world: &World, h: &mut Fnv1a) {
        let mut objects: Vec<(u32, Entity)> = world
            .try_query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>()
            .map(|q| q.iter_manual(world).map(|(e, id)| (id.0, e)).collect())
            .unwrap_or_default();
        objects.sort_unstable_by_key(|o| o.0);
        for hasher in self.hashers.values() {
            hasher(world, &objects, h);
        }
        let mut scratch = Vec::new();
        for c in self.components.iter().filter(|c| c.hashing == Hashing::Bytes) {
            (c.hash)(world, &objects, h, &mut scratch);
        }
        for r in self.resources.iter().filter(|r| r.hashing == Hashing::Bytes) {
            (r.hash)(world, h, &mut scratch);
        }
    }
}

/// Declaring simulation state on an [`App`], in the plugin that owns it.
pub trait StateApp {
    /// Saves component `T` under `tag`, hashed (and replicated) as `keep` says: a
    /// [`Hashing`], or [`Hashing::replicated`].
    ///
    /// # Panics
    /// A tag declared twice (two crates claiming one name is a programming error).
    fn save_component<T: Component<Mutability = Mutable> + Serialize + DeserializeOwned + std::fmt::Debug>(
        &mut self,
        tag: &'static str,
        keep: impl Into<Keep>,
    ) -> &mut Self;

    /// Saves resource `T` under `tag`, hashed as `hashing` says.
    ///
    /// # Panics
    /// A tag declared twice.
    fn save_resource<T: Resource + Serialize + DeserializeOwned>(
        &mut self,
        tag: &'static str,
        hashing: Hashing,
    ) -> &mut Self;

    /// Adds crate `name`'s hasher to the state hash.
    ///
    /// # Panics
    /// A name added twice.
    fn hash_state(&mut self, name: &'static str, hasher: Hasher) -> &mut Self;
}

impl StateApp for App {
    fn save_component<T: Component<Mutability = Mutable> + Serialize + DeserializeOwned + std::fmt::Debug>(
        &mut self,
        tag: &'static str,
        keep: impl Into<Keep>,
    ) -> &mut Self {
        let Keep { hashing, replicated } = keep.into();
        let entry = ComponentState {
            tag,
            type_id: TypeId::of::<T>(),
            hashing,
            replicated,
            write: write_component::<T>,
            read: read_components::<T>,
            put: put_components::<T>,
            each: each_component::<T>,
            describe: |bytes| match decode::<T>(bytes) {
                Ok((value, used)) if used == bytes.len() => format!("{value:?}"),
                Ok((_, used)) => format!("{} bytes after the value", bytes.len() - used),
                Err((_, e)) => format!("does not decode: {e}"),
            },
            hash: hash_component::<T>,
        };
        let mut state = self.world_mut().get_resource_or_init::<SimState>();
        let at = state.components.binary_search_by(|c| c.tag.cmp(tag)).err();
        let at = at.unwrap_or_else(|| panic!("the state tag {tag} is declared twice"));
        state.components.insert(at, entry);
        self
    }

    fn save_resource<T: Resource + Serialize + DeserializeOwned>(
        &mut self,
        tag: &'static str,
        hashing: Hashing,
    ) -> &mut Self {
        let entry = ResourceState {
            tag,
            hashing,
            write: |world, out| world.get_resource::<T>().map(|r| encode(r, out)).transpose().map(|v| v.is_some()),
            read: |bytes| decode::<T>(bytes).map(|(v, used)| (Box::new(v) as StateValue, used)),
            put: |world, value| world.insert_resource(take::<T>(value)),
            remove: |world| _ = world.remove_resource::<T>(),
            hash: |world, h, scratch| {
                if let Some(r) = world.get_resource::<T>() {
                    hash_bytes(r, h, scratch);
                }
            },
        };
        let mut state = self.world_mut().get_resource_or_init::<SimState>();
        let at = state.resources.binary_search_by(|c| c.tag.cmp(tag)).err();
        let at = at.unwrap_or_else(|| panic!("the state tag {tag} is declared twice"));
        state.resources.insert(at, entry);
        self
    }

    fn hash_state(&mut self, name: &'static str, hasher: Hasher) -> &mut Self {
        let mut state = self.world_mut().get_resource_or_init::<SimState>();
        assert!(state.hashers.insert(name, hasher).is_none(), "the hasher {name} is added twice");
        self
    }
}

fn encode<T: Serialize>(value: &T, out: &mut Vec<u8>) -> Result<(), String> {
    *out = postcard::to_extend(value, std::mem::take(out)).map_err(|e| e.to_string())?;
    Ok(())
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<(T, usize), DecodeError> {
    let (value, left) = postcard::take_from_bytes::<T>(bytes).map_err(|e| (0, e.to_string()))?;
    Ok((value, bytes.len() - left.len()))
}

/// The value decoded for `T` (entries decode and put one type).
fn take<T: 'static>(value: StateValue) -> T {
    match value.downcast::<T>() {
        Ok(v) => *v,
        Err(_) => unreachable!("an entry decodes and puts one type"),
    }
}

fn hash_bytes<T: Serialize>(value: &T, h: &mut Fnv1a, scratch: &mut Vec<u8>) {
    scratch.clear();
    // Every saved value encodes (the save writes the same types).
    if encode(value, scratch).is_ok() {
        h.write(scratch);
    }
}

fn write_component<T: Component + Serialize>(
    world: &World,
    entities: &[Entity],
    bit: u64,
    masks: &mut [u64],
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let Some(q) = world.try_query::<&T>() else { return Ok(()) };
    for (entity, mask) in entities.iter().zip(masks) {
        if let Ok(c) = q.get_manual(world, *entity) {
            encode(c, out)?;
            *mask |= bit;
        }
    }
    Ok(())
}

fn each_component<T: Component + Serialize>(
    world: &World,
    entities: &[Entity],
    out: &mut dyn FnMut(usize, &[u8]),
) -> Result<(), String> {
    let Some(q) = world.try_query::<&T>() else { return Ok(()) };
    let mut scratch = Vec::new();
    for (k, entity) in entities.iter().enumerate() {
        if let Ok(c) = q.get_manual(world, *entity) {
            scratch.clear();
            encode(c, &mut scratch)?;
            out(k, &scratch);
        }
    }
    Ok(())
}

fn read_components<T: DeserializeOwned + Send + 'static>(bytes: &[u8], n: usize) -> Result<StateValue, DecodeError> {
    let mut values = Vec::with_capacity(n.min(bytes.len()));
    let mut at = 0;
    for k in 0..n {
        let (v, used) = decode::<T>(&bytes[at..]).map_err(|(_, e)| (at, format!("value {k} of {n}: {e}")))?;
        values.push(v);
        at += used;
    }
    if at != bytes.len() {
        return Err((at, format!("{} bytes after the {n} values", bytes.len() - at)));
    }
    Ok(Box::new(values))
}

fn put_components<T: Component<Mutability = Mutable>>(
    world: &mut World,
    objects: &[(Entity, bool)],
    values: StateValue,
) {
    let mut values = take::<Vec<T>>(values).into_iter();
    let mut missing = Vec::new();
    for &(entity, has) in objects {
        let mut e = world.entity_mut(entity);
        match (has.then(|| values.next()).flatten(), e.get_mut::<T>()) {
            (Some(v), Some(mut c)) => *c = v,
            (Some(v), None) => missing.push((entity, v)),
            (None, Some(_)) => _ = e.remove::<T>(),
            (None, None) => {}
        }
    }
    world.insert_batch(missing);
}

fn hash_component<T: Component + Serialize>(
    world: &World,
    objects: &[(u32, Entity)],
    h: &mut Fnv1a,
    scratch: &mut Vec<u8>,
) {
    let Some(q) = world.try_query::<&T>() else { return };
    for (id, entity) in objects {
        if let Ok(c) = q.get_manual(world, *entity) {
            h.word(*id);
            hash_bytes(c, h, scratch);
        }
    }
}
