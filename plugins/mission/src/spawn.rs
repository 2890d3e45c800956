//! Objects that join a running mission (production): the same prototype resolution
//! ([`MissionBackend::prepare_object`], the `Prototypes` phase's code), construction
//! and registration as the mission load, one object at a time. A failed resolution
//! spawns nothing.

use crate::LoadedMission;
use crate::backend::{MissionBackend, PreparedObject};
use crate::phases::{construct_into, construct_one, register_one};
use bevy_ecs::prelude::*;
use iron3d_core::Designs;
use iron3d_formats::{Error, ErrorKind, Result};
use std::sync::Arc;

/// The backend of the running mission.
///
/// # Errors
/// No mission is loaded.
pub fn running_backend(world: &World) -> Result<Arc<dyn MissionBackend>> {
    world
        .get_resource::<LoadedMission>()
        .and_then(|m| m.backend.clone())
        .ok_or_else(|| Error::new(ErrorKind::NotFound("no mission is loaded".into())))
}

/// Resolves `object` (its key: a unit scheme path, a design the game keeps in
/// [`Designs`], or a prototype key) through the running mission's backend, as the load
/// does, without spawning anything: fills its components and extras.
///
/// # Errors
/// No mission is loaded, or the located resolution error.
pub fn resolve_object(world: &World, object: &mut PreparedObject) -> Result<()> {
    let backend = running_backend(world)?;
    match world.get_resource::<Designs>().and_then(|d| d.get(&object.key)) {
        Some(scheme) => backend.prepare_design(object, scheme),
        None => backend.prepare_object(object),
    }
}

/// Resolves, constructs and registers one object in the running mission: it gets its
/// components, class and parts as a placed object would, spawns pending, then joins
/// the world (World3D gives it a handle; `MissionObjectRegistered` announces it).
/// Returns its entity; on error nothing was spawned.
///
/// # Errors
/// No mission is loaded, or the located resolution error.
pub fn spawn_object(world: &mut World, mut object: PreparedObject) -> Result<Entity> {
    resolve_object(world, &mut object)?;
    Ok(spawn_resolved(world, object))
}

/// Like [`spawn_object`], for an object [`resolve_object`] has already resolved (one
/// named from what the resolution found, as production names a bot it builds).
pub fn spawn_resolved(world: &mut World, object: PreparedObject) -> Entity {
    let id = object.id;
    let entity = construct_one(world, object);
    register_one(world, entity, id);
    entity
}

/// Like [`spawn_object`], but on an existing `entity` (a network mirror: the host's
/// object gets its models and parts on the client as a placed object would).
///
/// # Errors
/// No mission is loaded, or the located resolution error; `entity` is left as it was.
pub fn spawn_object_on(world: &mut World, entity: Entity, mut object: PreparedObject) -> Result<()> {
    resolve_object(world, &mut object)?;
    let id = object.id;
    construct_into(world, entity, object);
    register_one(world, entity, id);
    Ok(())
}
