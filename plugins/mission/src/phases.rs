//! The phase systems: each runs its work on entering the phase, then requests the
//! next phase, or rolls the whole load back.

use crate::backend::{Prepared, PreparedObject};
use crate::objects::{MissionObject, MissionObjectRegistered, Pending, Registered};
use crate::progress::{LoadError, LoadProgress};
use crate::{LoadFault, LoadedMission, MissionRequest};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, BuildingCategory, ChassisType, CommandQueue, DataLayers, LogicalId, MissionClans, MissionGoals,
    MissionLoadPhase, Movable, ObjectKind, Objective, Order, OriginalObjectId, Owner, Rung, SimCommand, SimObject,
    SimTransform, SizeClass, UnitClass,
};
use iron3d_formats::world::PropertyValue;
use iron3d_formats::{Error, ErrorKind};
use iron3d_terrain::{BehaviorIni, BuildingCategories, Ground, MissionPaths, NavMap};
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
            MissionLoadPhase::Registration => register(world, &request),
            MissionLoadPhase::ScenarioStart => {
                standing_orders(world);
                Ok(())
            }
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
        (Ok(()), None) => {
            world.remove_resource::<MissionRequest>();
            world.resource_mut::<NextState<AppState>>().set(AppState::InGame);
        }
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
        return Err(Error::rule(
            "duplicate_object_id",
            format!("objects {} and {} share id {}", pair[0].name, pair[1].name, pair[0].id),
        )
        .via(format!("placed object {}", pair[1].id)));
    }
    let mut objects = within_minds(&world.resource::<Prepared>().clans, objects);
    crate::names::name_placed(&mut objects);
    let total = objects.len();
    for (done, o) in objects.into_iter().enumerate() {
        construct_one(world, o);
        if let Some(row) = world.resource_mut::<LoadProgress>().row_mut(MissionLoadPhase::Construction) {
            (row.done, row.total) = (done + 1, total);
        }
    }
    Ok(())
}

/// The objects a mission creates: a placed robot takes one of its clan's minds, and a
/// robot whose clan has none free is not created (the original's rule, `gameplay.md`
/// §5.1; which robots go first, id order, is the project's), each named in a warning.
/// Objects of a clan the mission does not have keep their place (nothing caps them).
fn within_minds(clans: &[iron3d_core::ClanSetup], objects: Vec<PreparedObject>) -> Vec<PreparedObject> {
    let mut free: Vec<u32> = clans.iter().map(|c| c.minds).collect();
    objects
        .into_iter()
        .filter(|o| {
            let robot = o.extras.unit_class.is_some_and(|c| c & iron3d_rules::ROBOT_CLASS_BIT != 0);
            let Some(left) = usize::try_from(o.clan).ok().and_then(|c| free.get_mut(c)).filter(|_| robot) else {
                return true;
            };
            let created = *left > 0;
            *left = left.saturating_sub(1);
            if !created {
                tracing::warn!(
                    target: "mission",
                    "placed object {} ({}): clan {} has no free mind left, the robot is not created",
                    o.id,
                    o.name,
                    o.clan
                );
            }
            created
        })
        .collect()
}

/// Spawns one prepared object as [`Pending`] (the load and run-time production).
pub(crate) fn construct_one(world: &mut World, o: PreparedObject) -> Entity {
    let entity = world.spawn_empty().id();
    construct_into(world, entity, o);
    entity
}

/// Constructs a pending object on `entity` (an empty one, or a network mirror).
pub(crate) fn construct_into(world: &mut World, entity: Entity, o: PreparedObject) {
    // Simulation state stays in game units, Z up; presentation converts it.
    let r = &o.record;
    let movable = ObjectKind::from_raw(r.raw_kind).movable();
    let placement = SimTransform { position: r.position, orientation: r.orientation, scale: r.scale };
    let object = MissionObject { key: o.key, components: o.components, clan: o.clan };
    let extras = o.extras;
    let mut e = world.entity_mut(entity);
    e.insert((
        bevy_ecs::name::Name::new(o.name),
        OriginalObjectId(o.id),
        placement,
        Owner { clan: o.clan, player: None },
        o.record,
        o.properties,
        Pending,
        DespawnOnExit(AppState::InGame),
    ));
    if let Some(bounds) = object.bounds() {
        e.insert(bounds);
    }
    let animation = object.animation();
    if !animation.bindings.is_empty() {
        e.insert(animation);
    }
    if let Some(class) = extras.unit_class {
        e.insert(UnitClass(class));
    }
    if let Some(kind) = extras.chassis_type {
        e.insert(ChassisType(kind));
    }
    // A unit's size from its chassis (its first component), a building's from its model.
    if let Some(size) = object.components.first().and_then(|c| SizeClass::of_key(&c.key, !movable)) {
        e.insert(size);
    }
    if let Some(sheet) = extras.combat {
        e.insert(sheet);
    }
    if let Some(places) = extras.places {
        e.insert(places);
    }
    if let Some(motion) = extras.motion.filter(|_| movable) {
        e.insert(motion);
    }
    e.insert(object);
}

/// Moves one pending object into the world and announces it (the load and run-time
/// production).
pub(crate) fn register_one(world: &mut World, entity: Entity, id: u32) {
    let mut e = world.entity_mut(entity);
    let record = e.get::<crate::PlacedRecord>();
    let kind = ObjectKind::from_raw(record.map_or(u32::MAX, |r| r.raw_kind));
    let logical = LogicalId(record.map_or(id, |r| r.identity_or_clan_raw));
    e.remove::<Pending>().insert((Registered, logical));
    if kind.movable() {
        e.insert(Movable);
    }
    e.insert(SimObject { kind });
    // A building from a scheme that BuildDat.lst lists gets its category and rung.
    let rung = world.get_resource::<BuildingCategories>().and_then(|c| {
        let key = &world.get::<MissionObject>(entity)?.key;
        c.rung_of(key)
    });
    if let Some((category, at, of)) = rung.filter(|_| !kind.movable()) {
        let rung = Rung { level: u8::try_from(at).unwrap_or(u8::MAX), of: u8::try_from(of).unwrap_or(u8::MAX) };
        world.entity_mut(entity).insert((BuildingCategory(category.mask()), rung));
    }
    world.write_message(MissionObjectRegistered { entity, id });
}

/// Publishes the running mission, then moves every pending object into the world and
/// announces it, in id order.
fn register(world: &mut World, request: &MissionRequest) -> iron3d_formats::Result<()> {
    let mut pending: Vec<(u32, Entity)> = world
        .query_filtered::<(&OriginalObjectId, Entity), With<Pending>>()
        .iter(world)
        .map(|(id, e)| (id.0, e))
        .collect();
    pending.sort_unstable();
    let total = pending.len();
    let (name, folder) = match crate::MissionName::parse(&request.mission) {
        Ok(n) => (n.as_str().to_string(), n.folder().to_string()),
        Err(_) => (request.mission.clone(), String::new()),
    };
    publish_geography(world);
    publish_goals(world, &folder);
    let land_path = world.resource::<Prepared>().land_path.clone().unwrap_or_default();
    let backend = Some(std::sync::Arc::clone(&request.backend));
    world.insert_resource(LoadedMission { name, folder, land_path, backend });
    for (done, (id, entity)) in pending.into_iter().enumerate() {
        register_one(world, entity, id);
        if let Some(row) = world.resource_mut::<LoadProgress>().row_mut(MissionLoadPhase::Registration) {
            (row.done, row.total) = (done + 1, total);
        }
    }
    Ok(())
}

/// Property naming the mission path a unit patrols from the first tick (the project's
/// own convention; the original gives such orders from clan scripts).
pub const PATROL_PATH_PROPERTY: &str = "PatrolPath";
/// Property naming the mission path a unit follows once from the first tick (the
/// project's own convention).
pub const FOLLOW_PATH_PROPERTY: &str = "FollowPath";

/// Queues the orders the objects' property bags give for the first tick.
fn standing_orders(world: &mut World) {
    let mut orders: Vec<SimCommand> = world
        .query_filtered::<(&OriginalObjectId, &iron3d_core::PropertyBag), With<Movable>>()
        .iter(world)
        .filter_map(|(id, bag)| {
            let int = |name: &str| match bag.first(name)?.value() {
                PropertyValue::Int(v) => Some(v),
                _ => None,
            };
            let order = int(PATROL_PATH_PROPERTY)
                .map(Order::Patrol)
                .or_else(|| int(FOLLOW_PATH_PROPERTY).map(Order::FollowPath))?;
            Some(SimCommand { tick: 1, units: vec![id.0], order, queued: false })
        })
        .collect();
    orders.sort_by(SimCommand::cmp_stable);
    let mut queue = world.resource_mut::<CommandQueue>();
    orders.into_iter().for_each(|o| queue.push(o));
}

/// Hands the prepared terrain, areal map, building categories, paths, clans, data
/// layers and rules to the simulation as resources.
fn publish_geography(world: &mut World) {
    let mut prepared = world.resource_mut::<Prepared>();
    let (terrain, areals, build_dat) = (prepared.terrain.take(), prepared.areals.take(), prepared.build_dat.take());
    let paths = MissionPaths(std::mem::take(&mut prepared.paths));
    let ini = BehaviorIni(std::mem::take(&mut prepared.behavior_ini));
    if let Some(t) = terrain {
        world.insert_resource(Ground::new(&t));
    }
    if let Some(a) = areals {
        world.insert_resource(NavMap::new(a));
    }
    if let Some(b) = build_dat {
        world.insert_resource(BuildingCategories::new(b));
    }
    world.insert_resource(paths);
    let lodes = std::mem::take(&mut world.resource_mut::<Prepared>().lodes);
    world.insert_resource(iron3d_core::MineralLodes(lodes));
    world.insert_resource(ini);
    let ratios = world.resource_mut::<Prepared>().level_ratios.take();
    world.resource_mut::<iron3d_core::Difficulty>().ratios = ratios.unwrap_or(iron3d_core::DEFAULT_LEVEL_RATIOS);
    let mut prepared = world.resource_mut::<Prepared>();
    let clans = std::mem::take(&mut prepared.clans);
    let (files, layers) = (prepared.script_files.take(), prepared.layers.take());
    let profiles = prepared.profiles.take().unwrap_or_default();
    if let Some(rules) = prepared.rules.take() {
        tracing::info!(target: "mission", "rules: {}", rules.source);
        world.insert_resource(rules);
    }
    world.insert_resource(profiles);
    match files {
        Some(files) => world.insert_resource(MissionClans { clans, files }),
        None => {
            world.remove_resource::<MissionClans>();
        }
    }
    match layers {
        Some(layers) => world.insert_resource(layers),
        None => {
            world.remove_resource::<DataLayers>();
        }
    }
}

/// Publishes the objectives of the mission folder's `mission.cfg` and the message ids
/// of its `messages.cfg` as [`MissionGoals`] (the scripts' function 30 names them,
/// gameplay.md §13). A missing file gives none; an unreadable or malformed one is a
/// warning naming it, and gives none (the mission still loads).
fn publish_goals(world: &mut World, folder: &str) {
    use iron3d_formats::config::{BlockCfg, goals};
    let Some(files) = world.get_resource::<MissionClans>().map(|c| std::sync::Arc::clone(&c.files)) else {
        world.remove_resource::<MissionGoals>();
        return;
    };
    let read = |name: &str| -> Option<BlockCfg> {
        let path = format!("{folder}/{name}");
        let parsed =
            files.read(&path).and_then(|b| b.map(|b| BlockCfg::parse(&b).map_err(|e| e.to_string())).transpose());
        parsed.map_err(|e| tracing::warn!(target: "mission", "{path}: {e}; the scripts see none of it")).ok().flatten()
    };
    let objectives = read("mission.cfg").map(|cfg| goals::objectives(&cfg)).unwrap_or_default();
    let messages = read("messages.cfg").map(|cfg| goals::message_ids(&cfg)).unwrap_or_default();
    let objectives = objectives.into_iter().map(|o| Objective { key: o.key, text: o.text, bonus: o.bonus }).collect();
    world.insert_resource(MissionGoals { objectives, messages });
}

/// Rolls the load back: despawns every object it created, returns to the menu.
fn fail(world: &mut World, phase: MissionLoadPhase, mission: &str, error: Error) {
    let created: Vec<Entity> =
        world.query_filtered::<Entity, Or<(With<Pending>, With<Registered>)>>().iter(world).collect();
    for entity in created {
        world.despawn(entity);
    }
    world.insert_resource(Prepared::default());
    world.remove_resource::<LoadedMission>();
    world.remove_resource::<MissionRequest>();
    world.remove_resource::<MissionClans>();
    world.remove_resource::<MissionGoals>();
    world.remove_resource::<DataLayers>();
    world.insert_resource(LoadError { mission: mission.to_string(), phase, message: error.to_string() });
    world.resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
}

/// Closing the game forgets the mission (its objects despawn by `DespawnOnExit`).
pub(crate) fn close_mission(mut commands: Commands) {
    commands.insert_resource(Prepared::default());
    commands.remove_resource::<LoadedMission>();
    commands.remove_resource::<MissionClans>();
    commands.remove_resource::<MissionGoals>();
    commands.remove_resource::<DataLayers>();
}
