//! The phase systems: each runs its work on entering the phase, then requests the
//! next phase, or rolls the whole load back.

use crate::backend::Prepared;
use crate::objects::{MissionObject, MissionObjectRegistered, Pending, Registered};
use crate::progress::{LoadError, LoadProgress};
use crate::{LoadFault, LoadedMission, MissionRequest};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use bevy_transform::components::Transform;
use iron3d_core::{AppState, MissionLoadPhase, OriginalObjectId};
use iron3d_formats::{Error, ErrorKind};
use std::time::Instant;

/// Resets progress and prepared data when a load starts.
pub(crate) fn begin(mut commands: Commands) {
    commands.insert_resource(LoadProgress::default());
    commands.insert_resource(Prepared::default());
    commands.remove_resource::<LoadError>();
    commands.remove_resource::<LoadedMission>();
}

/// Runs the work of the phase just entered.
pub(crate) fn run_phase(world: &mut World) {
    let Some(phase) = world.get_resource::<State<MissionLoadPhase>>().map(|s| *s.get()) else {
        return;
    };
    let Some(request) = world.get_resource::<MissionRequest>().cloned() else {
        fail(world, phase, "", Error::new(ErrorKind::NotFound("no mission requested".into())));
        return;
    };
    let started = Instant::now();
    let result = if world.resource::<LoadFault>().0 == Some(phase) {
        Err(Error::rule("injected_fault", format!("fault injected into {}", phase.label())))
    } else {
        match phase {
            MissionLoadPhase::Construction => construct(world),
            MissionLoadPhase::Registration => register(world),
            MissionLoadPhase::ScenarioStart => Ok(()),
            _ => prepare(world, phase, &request),
        }
    };
    let millis = started.elapsed().as_secs_f32() * 1000.0;
    if let Some(row) = world.resource_mut::<LoadProgress>().row_mut(phase) {
        row.millis = millis;
        row.finished = result.is_ok();
    }
    match (result, phase.next()) {
        (Err(e), _) => fail(world, phase, &request.mission, e),
        (Ok(()), Some(next)) => world.resource_mut::<NextState<MissionLoadPhase>>().set(next),
        (Ok(()), None) => world.resource_mut::<NextState<AppState>>().set(AppState::InMission),
    }
}

fn prepare(world: &mut World, phase: MissionLoadPhase, request: &MissionRequest) -> iron3d_formats::Result<()> {
    world.resource_scope(|world, mut prepared: Mut<Prepared>| {
        let mut progress = world.resource_mut::<LoadProgress>();
        let mut report = |done: usize, total: usize| {
            if let Some(row) = progress.row_mut(phase) {
                (row.done, row.total) = (done, total);
            }
        };
        request.backend.prepare(phase, &request.mission, &mut prepared, &mut report)
    })
}

/// Spawns every prepared object as [`Pending`], in id order, after checking ids.
fn construct(world: &mut World) -> iron3d_formats::Result<()> {
    let mut objects = std::mem::take(&mut world.resource_mut::<Prepared>().objects);
    objects.sort_by_key(|o| o.id);
    if let Some(pair) = objects.windows(2).find(|w| w[0].id == w[1].id) {
        return Err(Error::rule("duplicate_object_id", format!("objects {} and {} share id {}", pair[0].name, pair[1].name, pair[0].id))
            .via(format!("placed object {}", pair[1].id)));
    }
    let total = objects.len();
    for (done, o) in objects.into_iter().enumerate() {
        // Game Z-up placement → Bevy Y-up transform (the one conversion, `iron3d_assets::axes`).
        let r = &o.record;
        let (translation, rotation, scale) = iron3d_assets::axes::placement(r.position, r.orientation, r.scale);
        world.spawn((
            bevy_ecs::name::Name::new(o.name),
            OriginalObjectId(o.id),
            MissionObject { key: o.key, components: o.components, clan: o.clan },
            o.record,
            o.properties,
            Transform { translation, rotation, scale },
            Pending,
        ));
        if let Some(row) = world.resource_mut::<LoadProgress>().row_mut(MissionLoadPhase::Construction) {
            (row.done, row.total) = (done + 1, total);
        }
    }
    Ok(())
}

/// Moves every pending object into the world and announces it, in id order.
fn register(world: &mut World) -> iron3d_formats::Result<()> {
    let mut pending: Vec<(u32, Entity)> = world
        .query_filtered::<(&OriginalObjectId, Entity), With<Pending>>()
        .iter(world)
        .map(|(id, e)| (id.0, e))
        .collect();
    pending.sort_unstable();
    let total = pending.len();
    let name = world.get_resource::<MissionRequest>().map(|r| r.mission.clone()).unwrap_or_default();
    let land_path = world.resource::<Prepared>().land_path.clone().unwrap_or_default();
    world.insert_resource(LoadedMission { name, land_path });
    for (done, (id, entity)) in pending.into_iter().enumerate() {
        world.entity_mut(entity).remove::<Pending>().insert(Registered);
        world.write_message(MissionObjectRegistered { entity, id });
        if let Some(row) = world.resource_mut::<LoadProgress>().row_mut(MissionLoadPhase::Registration) {
            (row.done, row.total) = (done + 1, total);
        }
    }
    Ok(())
}

/// Rolls the load back: despawns every object it created, returns to the menu.
fn fail(world: &mut World, phase: MissionLoadPhase, mission: &str, error: Error) {
    let created: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<Pending>, With<Registered>)>>()
        .iter(world)
        .collect();
    for entity in created {
        world.despawn(entity);
    }
    world.insert_resource(Prepared::default());
    world.remove_resource::<LoadedMission>();
    world.insert_resource(LoadError { mission: mission.to_string(), phase, message: error.to_string() });
    world.resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
}

/// Leaving a mission for the main menu despawns every mission object.
pub(crate) fn close_mission(mut commands: Commands, objects: Query<Entity, With<MissionObject>>) {
    for entity in &objects {
        commands.entity(entity).despawn();
    }
}
