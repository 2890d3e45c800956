//! [`Snapshot`]: the simulation state at a tick boundary, as chunks (format version 2).
//!
//! * `objs`: every simulated object by `OriginalObjectId`, in id order: its name and
//!   each simulation component it has ([`object_parts`]: what the state hash reads and
//!   everything else that changes what happens next), a bit mask telling which.
//! * `shot`: the shells in flight.
//! * `ress`: the simulation's resources ([`resource_parts`]: the clock, the random
//!   streams, the command queue, economy, production, research, the shot counter, the
//!   outcome, ...), then the strategic layer's memory (its refusals, keyed by
//!   `(clan, scheme)`, apart: reflection cannot read a map with tuple keys back).
//! * `sais`: each clan's script VM state (variables, scheduler records and timers,
//!   problems; [`iron3d_superai::SuperAiState`]).
//! * `tabl`: the World3D object table by id (handles keep their slot and generation).
//!
//! Components and resources are written through their reflection in the compact binary
//! serde encoding (floats as IEEE bits). Static data the mission start makes again
//! (scripts, rules, terrain, models) is not saved: [`restore`] runs on a world where the
//! save's mission was just started, removes the objects destroyed since, re-creates
//! those built during play from their scheme (as production does), and overwrites
//! every saved component and resource.

use crate::codec::{Reader, Writer};
use crate::format::{Chunk, FormatError};
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_ecs::world::{EntityRef, EntityWorldMut};
use bevy_reflect::serde::{TypedReflectDeserializer, TypedReflectSerializer};
use bevy_reflect::{FromReflect, GetTypeRegistration, PartialReflect, Reflect, TypeRegistry, Typed};
use iron3d_core::PropertyBag;
use iron3d_core::{
    BuildOptions, BuildingCategory, ClanRelations, CollisionProxy, CommandQueue, Difficulty, GameClock, Health,
    Kinematics, ManualControl, MissionOutcome, ModelBounds, MotionLimits, MotionRequest, Movable, NavStatus,
    ObjectHandle, ObjectTable, OriginalObjectId, Owner, PieceAnimation, PreviousSimTransform, ProductionParts,
    Projectile, Radar, ResearchBoard, SchemeNames, SchemeRef, ShotCounter, SimObject, SimRandom, SimTransform,
    SteerIntent, SuperAiSlots, TableLayout, UnitClass, Weapon,
};
use iron3d_mission::{MissionObject, PlacedRecord, PreparedObject};
use iron3d_strategy::Strategy;
use iron3d_superai::{SuperAiState, SuperAis};
use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The objects chunk.
pub(crate) const OBJECTS: [u8; 4] = *b"objs";
/// The shells chunk.
pub(crate) const SHELLS: [u8; 4] = *b"shot";
/// The resources chunk.
pub(crate) const RESOURCES: [u8; 4] = *b"ress";
/// The SuperAI chunk.
pub(crate) const SUPER_AIS: [u8; 4] = *b"sais";
/// The object table chunk.
pub(crate) const TABLE: [u8; 4] = *b"tabl";
/// The snapshot's chunks with their layout versions, in file order.
pub(crate) const CHUNKS: [([u8; 4], u16); 5] = [(OBJECTS, 1), (SHELLS, 1), (RESOURCES, 1), (SUPER_AIS, 1), (TABLE, 1)];

/// The simulation state of one tick, as its snapshot chunks name it (inflated).
#[derive(Debug, Clone)]
pub struct Snapshot(pub Vec<Chunk>);

/// Equal chunks: names, versions and data (not where a file had them).
impl PartialEq for Snapshot {
    fn eq(&self, other: &Self) -> bool {
        let key = |c: &Chunk| (c.name, c.version, c.data.clone());
        self.0.iter().map(key).eq(other.0.iter().map(key))
    }
}

/// One saved component or resource type: how to register, read and write it.
struct Part<Get, Put> {
    /// Its short type name (error messages).
    name: &'static str,
    type_id: TypeId,
    register: fn(&mut TypeRegistry),
    get: Get,
    put: Put,
}

type ObjectPart = Part<
    for<'w> fn(&EntityRef<'w>) -> Option<&'w dyn PartialReflect>,
    fn(&mut EntityWorldMut, Option<&dyn PartialReflect>) -> Result<(), String>,
>;
type ResourcePart =
    Part<fn(&World) -> Option<&dyn PartialReflect>, fn(&mut World, &dyn PartialReflect) -> Result<(), String>>;

fn concrete<T: FromReflect + Typed>(value: &dyn PartialReflect) -> Result<T, String> {
    T::from_reflect(value).ok_or_else(|| format!("the saved {} does not fit the type", T::short_type_path()))
}

fn object_part<T: Component + Reflect + FromReflect + Typed + GetTypeRegistration>() -> ObjectPart {
    fn get<'w, T: Component + Reflect>(e: &EntityRef<'w>) -> Option<&'w dyn PartialReflect> {
        e.get::<T>().map(|c| c.as_partial_reflect())
    }
    fn put<T: Component + FromReflect + Typed>(
        e: &mut EntityWorldMut,
        value: Option<&dyn PartialReflect>,
    ) -> Result<(), String> {
        match value {
            Some(v) => e.insert(concrete::<T>(v)?),
            None => e.remove::<T>(),
        };
        Ok(())
    }
    Part {
        name: T::short_type_path(),
        type_id: TypeId::of::<T>(),
        register: TypeRegistry::register::<T>,
        get: get::<T>,
        put: put::<T>,
    }
}

fn resource_part<T: Resource + Reflect + FromReflect + Typed + GetTypeRegistration>() -> ResourcePart {
    fn get<T: Resource + Reflect>(world: &World) -> Option<&dyn PartialReflect> {
        world.get_resource::<T>().map(|r| r.as_partial_reflect())
    }
    fn put<T: Resource + FromReflect + Typed>(world: &mut World, value: &dyn PartialReflect) -> Result<(), String> {
        world.insert_resource(concrete::<T>(value)?);
        Ok(())
    }
    Part {
        name: T::short_type_path(),
        type_id: TypeId::of::<T>(),
        register: TypeRegistry::register::<T>,
        get: get::<T>,
        put: put::<T>,
    }
}

/// The components saved per object, bit `k` of an object's mask for part `k` (append
/// only: the order is the file's layout; a new part is a new chunk version).
fn object_parts() -> &'static [ObjectPart] {
    static PARTS: OnceLock<Vec<ObjectPart>> = OnceLock::new();
    PARTS.get_or_init(|| {
        vec![
            object_part::<SimObject>(),
            object_part::<Movable>(),
            object_part::<Owner>(),
            object_part::<ObjectHandle>(),
            object_part::<SimTransform>(),
            object_part::<PreviousSimTransform>(),
            object_part::<ModelBounds>(),
            object_part::<PieceAnimation>(),
            object_part::<Kinematics>(),
            object_part::<NavStatus>(),
            object_part::<SteerIntent>(),
            object_part::<MotionRequest>(),
            object_part::<MotionLimits>(),
            object_part::<CollisionProxy>(),
            object_part::<BuildingCategory>(),
            object_part::<ManualControl>(),
            object_part::<UnitClass>(),
            object_part::<ProductionParts>(),
            object_part::<Health>(),
            object_part::<Weapon>(),
            object_part::<Radar>(),
            object_part::<iron3d_economy::OreDevices>(),
            object_part::<iron3d_economy::OreProperty>(),
            object_part::<iron3d_behavior::Navigator>(),
            object_part::<iron3d_wizard::WizardPath>(),
            object_part::<MissionObject>(),
            object_part::<PlacedRecord>(),
            object_part::<PropertyBag>(),
            object_part::<iron3d_behavior::HaulTrip>(),
        ]
    })
}

/// The resources saved, in file order (append only, like [`object_parts`]).
fn resource_parts() -> &'static [ResourcePart] {
    static PARTS: OnceLock<Vec<ResourcePart>> = OnceLock::new();
    PARTS.get_or_init(|| {
        vec![
            resource_part::<GameClock>(),
            resource_part::<SimRandom>(),
            resource_part::<CommandQueue>(),
            resource_part::<SchemeNames>(),
            resource_part::<Difficulty>(),
            resource_part::<ClanRelations>(),
            resource_part::<SuperAiSlots>(),
            resource_part::<MissionOutcome>(),
            resource_part::<ResearchBoard>(),
            resource_part::<BuildOptions>(),
            resource_part::<ShotCounter>(),
            resource_part::<iron3d_economy::Economy>(),
            resource_part::<iron3d_production::Production>(),
            resource_part::<iron3d_control::Contacts>(),
            resource_part::<iron3d_sim::EventLog>(),
            resource_part::<iron3d_sim::StateHash>(),
        ]
    })
}

/// The registry of every saved type (and the types inside them).
fn registry() -> &'static TypeRegistry {
    static REGISTRY: OnceLock<TypeRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = TypeRegistry::new();
        object_parts().iter().for_each(|p| (p.register)(&mut registry));
        resource_parts().iter().for_each(|p| (p.register)(&mut registry));
        registry.register::<Projectile>();
        // The keys and values of maps, which registering a map does not register.
        registry.register::<(Vec<u32>, bool)>();
        registry.register::<Vec<iron3d_core::BuildOption>>();
        registry.register::<iron3d_production::ProducerQueue>();
        registry.register::<iron3d_production::ClanResearch>();
        registry.register::<iron3d_production::Scheme>();
        registry.register::<iron3d_core::Order>();
        registry.register::<iron3d_strategy::Build>();
        registry.register::<Strategy>();
        registry.register::<(i32, SchemeRef)>();
        registry
    })
}

/// Writes `value` (of the registered type `type_id`).
fn write_reflect(w: &mut Writer, value: &dyn PartialReflect) -> Result<(), String> {
    w.serde(&TypedReflectSerializer::new(value, registry()))
}

/// Reads a value of the registered type `type_id` (`name` for errors).
fn read_reflect(r: &mut Reader, type_id: TypeId, name: &str) -> Result<Box<dyn PartialReflect>, FormatError> {
    let registration = registry().get(type_id).ok_or_else(|| r.error(format!("{name} is not registered")))?;
    r.seed(TypedReflectDeserializer::new(registration, registry()), name)
}

impl Snapshot {
    /// The snapshot of `world` now (between ticks).
    ///
    /// # Errors
    /// A value the encoding refuses, or more objects than a file holds.
    pub fn capture(world: &World) -> Result<Self, String> {
        let mut objects = Writer::default();
        let q = world.try_query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>();
        let mut ids: Vec<(u32, Entity)> =
            q.iter().flat_map(|q| q.iter_manual(world)).map(|(e, id)| (id.0, e)).collect();
        ids.sort_unstable_by_key(|(id, _)| *id);
        objects.count(ids.len())?;
        for (id, entity) in ids {
            let e = world.entity(entity);
            objects.u32(id);
            let values: Vec<Option<&dyn PartialReflect>> = object_parts().iter().map(|p| (p.get)(&e)).collect();
            let mask = values.iter().enumerate().fold(0u32, |m, (k, v)| m | u32::from(v.is_some()) << k);
            objects.u32(mask);
            objects.str(e.get::<Name>().map_or("", Name::as_str))?;
            values.into_iter().flatten().try_for_each(|v| write_reflect(&mut objects, v))?;
        }
        let mut shells = Writer::default();
        let q = world.try_query::<&Projectile>();
        let mut flying: Vec<&Projectile> = q.iter().flat_map(|q| q.iter_manual(world)).collect();
        flying.sort_unstable_by_key(|p| p.sequence);
        shells.count(flying.len())?;
        flying.into_iter().try_for_each(|p| write_reflect(&mut shells, p))?;
        let mut resources = Writer::default();
        for part in resource_parts() {
            let value = (part.get)(world);
            resources.u8(u8::from(value.is_some()));
            value.map_or(Ok(()), |v| write_reflect(&mut resources, v))?;
        }
        let mut strategy = world.get_resource::<Strategy>().cloned();
        let refused = strategy.as_mut().map(|s| std::mem::take(&mut s.refused)).unwrap_or_default();
        resources.u8(u8::from(strategy.is_some()));
        strategy.map_or(Ok(()), |s| write_reflect(&mut resources, &s))?;
        resources.serde(&refused.into_iter().map(|((clan, scheme), n)| (clan, scheme.0, n)).collect::<Vec<_>>())?;
        let mut ais = Writer::default();
        ais.serde(&world.get_resource::<SuperAis>().map(SuperAis::state).unwrap_or_default())?;
        let mut table = Writer::default();
        let layout = world.resource::<ObjectTable>().layout();
        table.serde(&(layout.slots, layout.free))?;
        let data = [objects, shells, resources, ais, table];
        Ok(Self(CHUNKS.iter().zip(data).map(|((name, v), w)| Chunk::new(*name, *v, w.0)).collect()))
    }

    /// The snapshot's chunks from a file's (`None`: the file has none of them).
    ///
    /// # Errors
    /// Some of the snapshot's chunks present and others missing.
    pub(crate) fn from_chunks(chunks: &[Chunk], file_len: usize) -> Result<Option<Self>, FormatError> {
        let found: Vec<Option<&Chunk>> = CHUNKS.iter().map(|(n, _)| chunks.iter().find(|c| c.name == *n)).collect();
        if found.iter().all(Option::is_none) {
            return Ok(None);
        }
        found
            .iter()
            .zip(CHUNKS)
            .map(|(c, (name, _))| {
                c.map(|c| (*c).clone()).ok_or_else(|| FormatError {
                    chunk: String::from_utf8_lossy(&name).into_owned(),
                    offset: file_len,
                    message: "the chunk is missing (the file has the rest of the snapshot)".into(),
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|c| Some(Self(c)))
    }

    /// Reads every chunk of the snapshot (a save whose snapshot does not parse is
    /// refused before it touches a world).
    ///
    /// # Errors
    /// A chunk missing or whose data does not parse, naming it and the offset.
    pub(crate) fn parse(&self) -> Result<Parsed, FormatError> {
        let chunk = |k: usize| {
            self.0.get(k).filter(|c| c.name == CHUNKS[k].0).ok_or_else(|| FormatError {
                chunk: String::from_utf8_lossy(&CHUNKS[k].0).into_owned(),
                offset: 0,
                message: "the snapshot lacks the chunk".into(),
            })
        };
        let objects = read_objects(chunk(0)?)?;
        let mut r = Reader::chunk(chunk(1)?);
        let shells = (0..r.count(1)?)
            .map(|_| {
                let at = r.offset();
                let shell = read_reflect(&mut r, TypeId::of::<Projectile>(), "a shell")?;
                concrete::<Projectile>(&*shell).map_err(|m| r.error_at(at, m))
            })
            .collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = Reader::chunk(chunk(2)?);
        let resources = resource_parts()
            .iter()
            .map(|p| match r.u8()? {
                0 => Ok(None),
                _ => read_reflect(&mut r, p.type_id, p.name).map(Some),
            })
            .collect::<Result<_, _>>()?;
        let at = r.offset();
        let strategy = match r.u8()? {
            0 => None,
            _ => Some(read_reflect(&mut r, TypeId::of::<Strategy>(), "Strategy")?),
        };
        let refused: Vec<(i32, u64, u32)> = r.serde("Strategy's refusals")?;
        let strategy = strategy
            .map(|s| {
                let mut strategy = concrete::<Strategy>(&*s).map_err(|m| r.error_at(at, m))?;
                strategy.refused =
                    refused.into_iter().map(|(clan, scheme, n)| ((clan, SchemeRef(scheme)), n)).collect();
                Ok(strategy)
            })
            .transpose()?;
        r.done()?;
        let mut r = Reader::chunk(chunk(3)?);
        let ais = r.serde("the SuperAI states")?;
        r.done()?;
        let mut r = Reader::chunk(chunk(4)?);
        let (slots, free) = r.serde("the object table")?;
        r.done()?;
        Ok(Parsed { objects, shells, resources, strategy, ais, table: TableLayout { slots, free } })
    }

    /// Lays the snapshot over `world`, where the save's mission was just started.
    ///
    /// # Errors
    /// A chunk that does not parse (naming it and the offset), an object built during
    /// play that cannot be re-created, SuperAIs of other scripts.
    pub fn restore(&self, world: &mut World) -> Result<(), String> {
        self.parse().map_err(|e| e.to_string())?.apply(world)
    }
}

/// A snapshot read and checked, not yet applied.
pub(crate) struct Parsed {
    objects: Vec<SavedObject>,
    shells: Vec<Projectile>,
    resources: Vec<Option<Box<dyn PartialReflect>>>,
    strategy: Option<Strategy>,
    ais: Vec<SuperAiState>,
    table: TableLayout,
}

impl Parsed {
    fn apply(self, world: &mut World) -> Result<(), String> {
        let saved: BTreeSet<u32> = self.objects.iter().map(|o| o.id).collect();
        let mut q = world.query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>();
        let mut live: BTreeMap<u32, Entity> = q.iter(world).map(|(e, id)| (id.0, e)).collect();
        let gone: Vec<u32> = live.keys().filter(|id| !saved.contains(id)).copied().collect();
        for id in gone {
            live.remove(&id).map(|e| world.despawn(e));
        }
        let flying: Vec<Entity> = world.query_filtered::<Entity, With<Projectile>>().iter(world).collect();
        flying.into_iter().for_each(|e| _ = world.despawn(e));
        for object in &self.objects {
            let entity = match live.get(&object.id) {
                Some(e) => *e,
                None => {
                    let e = rebuild(world, object)?;
                    live.insert(object.id, e);
                    e
                }
            };
            let mut e = world.entity_mut(entity);
            for (part, value) in object_parts().iter().zip(&object.values) {
                (part.put)(&mut e, value.as_deref()).map_err(|m| format!("object {}: {m}", object.id))?;
            }
        }
        world.spawn_batch(self.shells);
        for (part, value) in resource_parts().iter().zip(&self.resources) {
            value.as_deref().map_or(Ok(()), |v| (part.put)(world, v))?;
        }
        if let Some(strategy) = self.strategy {
            world.insert_resource(strategy);
        }
        world.get_resource_mut::<SuperAis>().map_or(Ok(()), |mut a| a.restore(self.ais))?;
        let table = ObjectTable::from_layout(&self.table, |id| live.get(&id).copied())?;
        world.insert_resource(table);
        Ok(())
    }
}

/// One saved object: its id, name and each part's value (`None`: it lacks the part).
struct SavedObject {
    id: u32,
    name: String,
    values: Vec<Option<Box<dyn PartialReflect>>>,
}

impl SavedObject {
    fn part<T: Component + FromReflect + Typed>(&self) -> Option<Result<T, String>> {
        let k = object_parts().iter().position(|p| p.type_id == TypeId::of::<T>())?;
        self.values[k].as_deref().map(concrete::<T>)
    }
}

fn read_objects(chunk: &Chunk) -> Result<Vec<SavedObject>, FormatError> {
    let parts = object_parts();
    let mut r = Reader::chunk(chunk);
    let objects = (0..r.count(10)?)
        .map(|_| {
            let id = r.u32()?;
            let at = r.offset();
            let mask = r.u32()?;
            if parts.len() < 32 && mask >> parts.len() != 0 {
                return Err(
                    r.error_at(at, format!("object {id} has parts this engine does not know (mask {mask:08x})"))
                );
            }
            let name = r.str()?;
            let values = parts
                .iter()
                .enumerate()
                .map(|(k, p)| (mask >> k & 1 == 1).then(|| read_reflect(&mut r, p.type_id, p.name)).transpose())
                .collect::<Result<_, _>>()?;
            Ok(SavedObject { id, name, values })
        })
        .collect::<Result<Vec<_>, _>>()?;
    r.done()?;
    Ok(objects)
}

/// Re-creates an object built during play from its scheme, as production does.
fn rebuild(world: &mut World, object: &SavedObject) -> Result<Entity, String> {
    let id = object.id;
    let missing = || format!("object {id} was built during play and its scheme is not in the save");
    let mission = object.part::<MissionObject>().ok_or_else(missing)??;
    let record = object.part::<PlacedRecord>().ok_or_else(missing)??;
    let properties = object.part::<PropertyBag>().transpose()?.unwrap_or_default();
    let prepared = PreparedObject {
        id,
        name: object.name.clone(),
        key: mission.key,
        components: Vec::new(),
        clan: mission.clan,
        record,
        properties,
        extras: Default::default(),
    };
    iron3d_mission::spawn_object(world, prepared).map_err(|e| format!("object {id} cannot be re-created: {e}"))
}
