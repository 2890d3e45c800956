//! [`Snapshot`]: the simulation state at a tick boundary, as chunks (format version 6).
//!
//! * `objs`: every simulated object by `OriginalObjectId`, in id order, in columns
//!   (layout 3, [`Columns`]): the ids, a bit mask per object telling which simulation
//!   components it has ([`object_parts`]: what the state hash reads and everything else
//!   that changes what happens next), the names, then one column per component with
//!   the values of the objects that have it. Like values side by side deflate smaller
//!   and faster than one record per object (layout 2, format versions 3 and 4, whose
//!   snapshots are re-simulated now).
//! * `shot`: the shells in flight.
//! * `ress`: the simulation's resources ([`resource_parts`]: the clock, the random
//!   streams, the command queue, economy, production, research, the shot counter, the
//!   outcome, the strategic layer's memory, ...), each after a presence byte.
//! * `sais`: the scripts' state: each clan's VM (variables, problems, clan clock, problem
//!   handler, next takt) and the mission's (objectives, deleted objects, route reports,
//!   the `Mission` handler's next run; [`iron3d_superai::SuperAisState`]).
//! * `tabl`: the World3D object table by id (handles keep their slot and generation).
//!
//! Components and resources are written through their serde derives in the compact
//! binary encoding (postcard: variable-length integers, floats as their IEEE bits),
//! without dynamic values (layout version 2, `objs` 3; version 1, in format version 2,
//! went through reflection). Static data the mission start makes again
//! (scripts, rules, terrain, models) is not saved: [`restore`] runs on a world where the
//! save's mission was just started, removes the objects destroyed since, re-creates
//! those built during play from their scheme (as production does), and overwrites
//! every saved component and resource.

use crate::codec::{Reader, Writer};
use crate::format::{Chunk, FormatError};
use bevy_ecs::component::Mutable;
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use iron3d_core::PropertyBag;
use iron3d_core::{
    BuildOptions, BuildingCategory, ClanRelations, CollisionProxy, CommandQueue, Difficulty, GameClock, Health,
    Kinematics, ManualControl, MindBoard, MissionOutcome, ModelBounds, MotionLimits, MotionRequest, Movable, NavStatus,
    ObjectHandle, ObjectTable, OriginalObjectId, Owner, PieceAnimation, PreviousSimTransform, ProductionParts,
    Projectile, Radar, ResearchBoard, SchemeNames, ShotCounter, SimObject, SimRandom, SimTransform, SteerIntent,
    SuperAiSlots, TableLayout, UnitClass, Weapon,
};
use iron3d_mission::{MissionObject, PlacedRecord, PreparedObject};
use iron3d_strategy::Strategy;
use iron3d_superai::{SuperAis, SuperAisState};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::{Any, TypeId};
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
pub(crate) const CHUNKS: [([u8; 4], u16); 5] = [(OBJECTS, 3), (SHELLS, 2), (RESOURCES, 2), (SUPER_AIS, 2), (TABLE, 1)];

/// Objects written per piece of work ([`crate::pieces`]).
const OBJECTS_PER_PIECE: usize = 1024;

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

/// A value read from a chunk, not yet put into the world (its part knows the type).
type Value = Box<dyn Any + Send>;

/// One saved component type, a column of the objects chunk: how to write it from the
/// entities, read it and put it on them.
struct ObjectPart {
    type_id: TypeId,
    /// Appends the component of each of the entities that has one, and sets the bit in
    /// that entity's mask.
    write: fn(&World, &[Entity], u32, &mut [u32], &mut Writer) -> Result<(), String>,
    /// Reads `n` values (a `Vec` of the type).
    read: fn(&mut Reader, usize) -> Result<Value, FormatError>,
    /// Puts the values read on the entities marked `true`, in order, and removes the
    /// component from the others.
    put: fn(&mut World, &[(Entity, bool)], Value),
}

/// One saved resource type, as [`ObjectPart`] for the world.
struct ResourcePart {
    /// Its short type name (error messages).
    name: &'static str,
    write: fn(&World, &mut Writer) -> Result<bool, String>,
    read: fn(&mut Reader) -> Result<Value, FormatError>,
    put: fn(&mut World, Value),
}

/// The saved type `T`'s name (error messages).
fn short_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

fn read_value<T: DeserializeOwned + Send + 'static>(r: &mut Reader) -> Result<Value, FormatError> {
    Ok(Box::new(r.serde::<T>(short_name::<T>())?))
}

/// The value read by [`read_value`] as `T` (parts read and put the same type).
fn take<T: 'static>(value: Value) -> T {
    match value.downcast::<T>() {
        Ok(v) => *v,
        Err(_) => unreachable!("a part reads and puts one type"),
    }
}

fn object_part<T: Component<Mutability = Mutable> + Serialize + DeserializeOwned>() -> ObjectPart {
    fn write<T: Component + Serialize>(
        world: &World,
        entities: &[Entity],
        bit: u32,
        masks: &mut [u32],
        w: &mut Writer,
    ) -> Result<(), String> {
        let Some(q) = world.try_query::<&T>() else { return Ok(()) };
        for (entity, mask) in entities.iter().zip(masks) {
            if let Ok(c) = q.get_manual(world, *entity) {
                w.serde(c)?;
                *mask |= bit;
            }
        }
        Ok(())
    }
    fn read<T: DeserializeOwned + Send + 'static>(r: &mut Reader, n: usize) -> Result<Value, FormatError> {
        let values = (0..n).map(|_| r.serde::<T>(short_name::<T>())).collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(values))
    }
    fn put<T: Component<Mutability = Mutable>>(world: &mut World, objects: &[(Entity, bool)], values: Value) {
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
    ObjectPart { type_id: TypeId::of::<T>(), write: write::<T>, read: read::<T>, put: put::<T> }
}

fn resource_part<T: Resource + Serialize + DeserializeOwned>() -> ResourcePart {
    fn write<T: Resource + Serialize>(world: &World, w: &mut Writer) -> Result<bool, String> {
        world.get_resource::<T>().map(|r| w.serde(r)).transpose().map(|v| v.is_some())
    }
    fn put<T: Resource>(world: &mut World, value: Value) {
        world.insert_resource(take::<T>(value));
    }
    ResourcePart { name: short_name::<T>(), write: write::<T>, read: read_value::<T>, put: put::<T> }
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
            object_part::<iron3d_economy::MineDig>(),
            object_part::<iron3d_behavior::Navigator>(),
            object_part::<iron3d_wizard::WizardPath>(),
            object_part::<MissionObject>(),
            object_part::<PlacedRecord>(),
            object_part::<PropertyBag>(),
            object_part::<iron3d_behavior::HaulTrip>(),
            object_part::<iron3d_behavior::Migration>(),
            object_part::<iron3d_core::LastHit>(),
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
            resource_part::<MindBoard>(),
            resource_part::<iron3d_core::MineralLodes>(),
            resource_part::<BuildOptions>(),
            resource_part::<ShotCounter>(),
            resource_part::<iron3d_economy::Economy>(),
            resource_part::<iron3d_production::Production>(),
            resource_part::<iron3d_control::Contacts>(),
            resource_part::<iron3d_sim::EventLog>(),
            resource_part::<iron3d_sim::StateHash>(),
            resource_part::<Strategy>(),
            resource_part::<iron3d_behavior::Pastures>(),
        ]
    })
}

impl Snapshot {
    /// The snapshot of `world` now (between ticks).
    ///
    /// # Errors
    /// A value the encoding refuses, or more objects than a file holds.
    pub fn capture(world: &World) -> Result<Self, String> {
        let q = world.try_query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>();
        let mut ids: Vec<(u32, Entity)> =
            q.iter().flat_map(|q| q.iter_manual(world)).map(|(e, id)| (id.0, e)).collect();
        ids.sort_unstable_by_key(|(id, _)| *id);
        let runs: Vec<&[(u32, Entity)]> = ids.chunks(OBJECTS_PER_PIECE).collect();
        let runs =
            crate::pieces::map(&runs, |run| write_objects(world, run)).into_iter().collect::<Result<Vec<_>, _>>()?;
        let objects = Writer(Columns::join(&runs)?);
        let mut shells = Writer::default();
        let q = world.try_query::<&Projectile>();
        let mut flying: Vec<&Projectile> = q.iter().flat_map(|q| q.iter_manual(world)).collect();
        flying.sort_unstable_by_key(|p| p.sequence);
        shells.count(flying.len())?;
        flying.into_iter().try_for_each(|p| shells.serde(p))?;
        let mut resources = Writer::default();
        for part in resource_parts() {
            let at = resources.0.len();
            resources.u8(1);
            if !(part.write)(world, &mut resources)? {
                resources.0[at] = 0;
            }
        }
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
            .map(|(c, (name, _))| match c {
                Some(c) => Ok((*c).clone()),
                None => Err(FormatError {
                    chunk: String::from_utf8_lossy(&name).into_owned(),
                    offset: file_len,
                    message: "the chunk is missing (the file has the rest of the snapshot)".into(),
                }),
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
            let (name, version) = CHUNKS[k];
            let chunk = self.0.get(k).filter(|c| c.name == name);
            let error = |offset, message: String| FormatError {
                chunk: String::from_utf8_lossy(&name).into_owned(),
                offset,
                message,
            };
            match chunk {
                None => Err(error(0, "the snapshot lacks the chunk".into())),
                Some(c) if c.version != version => {
                    Err(error(c.offset, format!("layout version {} is not this engine's {version}", c.version)))
                }
                Some(c) => Ok(c),
            }
        };
        let (objects, columns) = read_objects(chunk(0)?)?;
        let mut r = Reader::chunk(chunk(1)?);
        let shells = (0..r.count(1)?).map(|_| r.serde("a shell")).collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = Reader::chunk(chunk(2)?);
        let resources = resource_parts()
            .iter()
            .map(|p| match r.u8()? {
                0 => Ok(None),
                1 => (p.read)(&mut r).map(Some),
                other => Err(r.error(format!("{}: presence byte {other} is neither 0 nor 1", p.name))),
            })
            .collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = Reader::chunk(chunk(3)?);
        let ais = r.serde("the SuperAI states")?;
        r.done()?;
        let mut r = Reader::chunk(chunk(4)?);
        let (slots, free) = r.serde("the object table")?;
        r.done()?;
        Ok(Parsed { objects, columns, shells, resources, ais, table: TableLayout { slots, free } })
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

/// The objects chunk's columns being written (layout 3): the ids, the part masks, the
/// names, and each part's values in id order (of the objects that have it).
struct Columns {
    ids: Vec<u32>,
    masks: Vec<u32>,
    names: Writer,
    parts: Vec<Writer>,
}

impl Columns {
    fn new() -> Self {
        let parts = object_parts().iter().map(|_| Writer::default()).collect();
        Self { ids: Vec::new(), masks: Vec::new(), names: Writer::default(), parts }
    }

    /// The chunk data of `runs` (runs of objects in id order) joined: u32 count, the
    /// ids, the masks, the names, then each part's column as a u32 byte length and the
    /// values.
    fn join(runs: &[Self]) -> Result<Vec<u8>, String> {
        let mut w = Writer::default();
        w.count(runs.iter().map(|r| r.ids.len()).sum())?;
        runs.iter().flat_map(|r| &r.ids).for_each(|id| w.u32(*id));
        runs.iter().flat_map(|r| &r.masks).for_each(|mask| w.u32(*mask));
        runs.iter().for_each(|r| w.bytes(&r.names.0));
        for k in 0..object_parts().len() {
            w.count(runs.iter().map(|r| r.parts[k].0.len()).sum())?;
            runs.iter().for_each(|r| w.bytes(&r.parts[k].0));
        }
        Ok(w.0)
    }
}

/// The columns of a run of `objects` (id order).
fn write_objects(world: &World, objects: &[(u32, Entity)]) -> Result<Columns, String> {
    let mut columns = Columns::new();
    let entities: Vec<Entity> = objects.iter().map(|(_, e)| *e).collect();
    columns.ids = objects.iter().map(|(id, _)| *id).collect();
    let names = world.try_query::<&Name>();
    for entity in &entities {
        let name = names.as_ref().and_then(|q| q.get_manual(world, *entity).ok());
        columns.names.str(name.map_or("", Name::as_str))?;
    }
    columns.masks = vec![0; objects.len()];
    for (k, (part, w)) in object_parts().iter().zip(&mut columns.parts).enumerate() {
        (part.write)(world, &entities, 1 << k, &mut columns.masks, w)?;
    }
    Ok(columns)
}

/// An object's part mask, refused if it names parts this engine does not know.
fn known_mask(r: &mut Reader, id: u32) -> Result<u32, FormatError> {
    let at = r.offset();
    let mask = r.u32()?;
    let known = object_parts().len();
    if known < 32 && mask >> known != 0 {
        return Err(r.error_at(at, format!("object {id} has parts this engine does not know (mask {mask:08x})")));
    }
    Ok(mask)
}

/// A snapshot read and checked, not yet applied.
pub(crate) struct Parsed {
    objects: Vec<SavedObject>,
    /// Each part's values (a `Vec` of its type), of the objects that have it in id order.
    columns: Vec<Value>,
    shells: Vec<Projectile>,
    resources: Vec<Option<Value>>,
    ais: SuperAisState,
    table: TableLayout,
}

impl Parsed {
    /// Object `i`'s saved `T`, if it has one.
    fn part<T: Clone + 'static>(&self, i: usize) -> Option<T> {
        let k = object_parts().iter().position(|p| p.type_id == TypeId::of::<T>())?;
        let has = |o: &SavedObject| o.mask >> k & 1 == 1;
        let rank = self.objects[..i].iter().filter(|o| has(o)).count();
        let values = self.columns[k].downcast_ref::<Vec<T>>()?;
        self.objects.get(i).filter(|o| has(o)).and_then(|_| values.get(rank)).cloned()
    }

    /// Re-creates object `i`, built during play, from its scheme, as production does.
    fn rebuild(&self, world: &mut World, i: usize) -> Result<Entity, String> {
        let object = &self.objects[i];
        let id = object.id;
        let missing = || format!("object {id} was built during play and its scheme is not in the save");
        let mission = self.part::<MissionObject>(i).ok_or_else(missing)?;
        let record = self.part::<PlacedRecord>(i).ok_or_else(missing)?;
        let properties = self.part::<PropertyBag>(i).unwrap_or_default();
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
        let mut entities = Vec::with_capacity(self.objects.len());
        for (i, object) in self.objects.iter().enumerate() {
            let entity = match live.get(&object.id) {
                Some(e) => *e,
                None => {
                    let e = self.rebuild(world, i)?;
                    live.insert(object.id, e);
                    e
                }
            };
            entities.push(entity);
        }
        for (k, (part, column)) in object_parts().iter().zip(self.columns).enumerate() {
            let has: Vec<(Entity, bool)> =
                entities.iter().zip(&self.objects).map(|(e, o)| (*e, o.mask >> k & 1 == 1)).collect();
            (part.put)(world, &has, column);
        }
        world.spawn_batch(self.shells);
        for (part, value) in resource_parts().iter().zip(self.resources) {
            value.into_iter().for_each(|v| (part.put)(world, v));
        }
        world.get_resource_mut::<SuperAis>().map_or(Ok(()), |mut a| a.restore(self.ais))?;
        let table = ObjectTable::from_layout(&self.table, |id| live.get(&id).copied())?;
        world.insert_resource(table);
        Ok(())
    }
}

/// One saved object: its id, name and part mask.
struct SavedObject {
    id: u32,
    name: String,
    mask: u32,
}

/// The objects and the parts' columns of a chunk of layout 3 ([`Columns`]); the
/// columns are read in parallel pieces.
fn read_objects(chunk: &Chunk) -> Result<(Vec<SavedObject>, Vec<Value>), FormatError> {
    let parts = object_parts();
    let mut r = Reader::chunk(chunk);
    let n = r.count(10)?;
    let ids = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
    let masks = ids.iter().map(|id| known_mask(&mut r, *id)).collect::<Result<Vec<_>, _>>()?;
    let names = (0..n).map(|_| r.str()).collect::<Result<Vec<_>, _>>()?;
    let columns = (0..parts.len())
        .map(|k| {
            let len = r.count(1)?;
            Ok((k, r.part(len)?))
        })
        .collect::<Result<Vec<_>, FormatError>>()?;
    r.done()?;
    let columns = crate::pieces::map(&columns, |(k, column)| {
        let mut column = column.clone();
        let values = (parts[*k].read)(&mut column, masks.iter().filter(|m| *m >> k & 1 == 1).count())?;
        column.done()?;
        Ok(values)
    });
    let objects = ids.into_iter().zip(masks).zip(names).map(|((id, mask), name)| SavedObject { id, name, mask });
    Ok((objects.collect(), columns.into_iter().collect::<Result<_, _>>()?))
}
