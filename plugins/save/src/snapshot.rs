//! [`Snapshot`]: the simulation state at a tick boundary, as chunks (format version 11).
//!
//! What is saved is what the crates declared (`iron3d_core::SimState`, in tag order;
//! this crate names none of their types):
//! * `objs`: every simulated object by `OriginalObjectId`, in id order, in columns
//!   (layout 4, [`Columns`]): the tags of the saved components, the ids, a bit mask per
//!   object telling which of them it has, the names, then one column per component with
//!   the values of the objects that have it. Like values side by side deflate smaller
//!   and faster than one record per object. A save whose tags are not this engine's is
//!   refused naming the first that differs.
//! * `shot`: the shells in flight.
//! * `ress`: the saved resources (layout 3), each as its tag and a presence byte
//!   before its value.
//! * `sais`: the scripts' state: each clan's VM (variables, problems, clan clock, problem
//!   handler, next takt) and the mission's (objectives, deleted objects, route reports,
//!   the `Mission` handler's next run; [`iron3d_superai::SuperAisState`]).
//! * `tabl`: the World3D object table by id (handles keep their slot and generation).
//!
//! Values are written through their serde derives in the compact binary encoding
//! (postcard: variable-length integers, floats as their IEEE bits). Static data the
//! mission start makes again (scripts, rules, terrain, models) is not saved: [`restore`]
//! runs on a world where the save's mission was just started, removes the objects
//! destroyed since, re-creates those built during play from their scheme (as production
//! does), and overwrites every saved component and resource.

use crate::codec::{Reader, Writer};
use crate::format::{Chunk, FormatError};
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use iron3d_core::{
    ObjectTable, OriginalObjectId, Projectile, PropertyBag, SimObject, SimState, StateValue, TableLayout,
};
use iron3d_mission::{MissionObject, PlacedRecord, PreparedObject};
use iron3d_superai::{SuperAis, SuperAisState};
use std::collections::{BTreeMap, BTreeSet};

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
pub(crate) const CHUNKS: [([u8; 4], u16); 5] = [(OBJECTS, 4), (SHELLS, 2), (RESOURCES, 3), (SUPER_AIS, 2), (TABLE, 1)];

/// Objects written per piece of work ([`crate::pieces`]).
const OBJECTS_PER_PIECE: usize = 1024;

/// The most component types a save's masks hold.
const MAX_COMPONENTS: usize = 64;

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

/// The world's registry of saved state.
fn registry(world: &World) -> Result<&SimState, String> {
    world.get_resource::<SimState>().ok_or_else(|| "the world declares no simulation state (no CorePlugin)".into())
}

impl Snapshot {
    /// The snapshot of `world` now (between ticks).
    ///
    /// # Errors
    /// A value the encoding refuses, more objects than a file holds, a world without
    /// the state registry or with more saved component types than a mask holds.
    pub fn capture(world: &World) -> Result<Self, String> {
        let state = registry(world)?;
        if state.components().len() > MAX_COMPONENTS {
            return Err(format!("{} saved component types, a save holds {MAX_COMPONENTS}", state.components().len()));
        }
        let q = world.try_query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>();
        let mut ids: Vec<(u32, Entity)> =
            q.iter().flat_map(|q| q.iter_manual(world)).map(|(e, id)| (id.0, e)).collect();
        ids.sort_unstable_by_key(|(id, _)| *id);
        let runs: Vec<&[(u32, Entity)]> = ids.chunks(OBJECTS_PER_PIECE).collect();
        let runs = crate::pieces::map(&runs, |run| write_objects(world, state, run))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let objects = Writer(Columns::join(state, &runs)?);
        let mut shells = Writer::default();
        let q = world.try_query::<&Projectile>();
        let mut flying: Vec<&Projectile> = q.iter().flat_map(|q| q.iter_manual(world)).collect();
        flying.sort_unstable_by_key(|p| p.sequence);
        shells.count(flying.len())?;
        flying.into_iter().try_for_each(|p| shells.serde(p))?;
        let mut resources = Writer::default();
        resources.count(state.resources().len())?;
        for part in state.resources() {
            resources.short_str(part.tag)?;
            let at = resources.0.len();
            resources.u8(1);
            if !(part.write)(world, &mut resources.0)? {
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

    /// Chunk `k` of the snapshot, refused if it is missing or of another layout version.
    fn chunk(&self, k: usize) -> Result<&Chunk, FormatError> {
        let (name, version) = CHUNKS[k];
        let error = |offset, message: String| FormatError {
            chunk: String::from_utf8_lossy(&name).into_owned(),
            offset,
            message,
        };
        match self.0.get(k).filter(|c| c.name == name) {
            None => Err(error(0, "the snapshot lacks the chunk".into())),
            Some(c) if c.version != version => {
                Err(error(c.offset, format!("layout version {} is not this engine's {version}", c.version)))
            }
            Some(c) => Ok(c),
        }
    }

    /// Checks that every chunk is there in this engine's layout version (what a file
    /// reader can tell without the world's registry; [`Snapshot::restore`] reads the rest
    /// before it touches the world).
    ///
    /// # Errors
    /// The first chunk missing or of another layout version.
    pub(crate) fn check_layout(&self) -> Result<(), FormatError> {
        (0..CHUNKS.len()).try_for_each(|k| self.chunk(k).map(|_| ()))
    }

    /// Reads every chunk of the snapshot against `state` (a save whose snapshot does not
    /// parse is refused before it touches a world).
    ///
    /// # Errors
    /// A chunk missing or whose data does not parse, naming it and the offset.
    fn parse(&self, state: &SimState) -> Result<Parsed, FormatError> {
        let (objects, columns) = read_objects(state, self.chunk(0)?)?;
        let mut r = Reader::chunk(self.chunk(1)?);
        let shells = (0..r.count(1)?).map(|_| r.serde("a shell")).collect::<Result<_, _>>()?;
        r.done()?;
        let mut r = Reader::chunk(self.chunk(2)?);
        let n = r.count(2)?;
        if n != state.resources().len() {
            return Err(r.error(format!("{n} saved resources, this engine saves {}", state.resources().len())));
        }
        let mut resources = Vec::with_capacity(n);
        for part in state.resources() {
            let at = r.offset();
            let tag = r.short_str()?;
            if tag != part.tag {
                return Err(r.error_at(at, format!("the saved resource {tag} is not this engine's {}", part.tag)));
            }
            resources.push(match r.u8()? {
                0 => None,
                1 => {
                    let at = r.offset();
                    let (value, used) =
                        (part.read)(r.rest()).map_err(|(o, e)| r.error_at(at + o, format!("{tag}: {e}")))?;
                    r.take(used)?;
                    Some(value)
                }
                other => return Err(r.error(format!("{tag}: presence byte {other} is neither 0 nor 1"))),
            });
        }
        r.done()?;
        let mut r = Reader::chunk(self.chunk(3)?);
        let ais = r.serde("the SuperAI states")?;
        r.done()?;
        let mut r = Reader::chunk(self.chunk(4)?);
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
        let parsed = self.parse(registry(world)?).map_err(|e| e.to_string())?;
        parsed.apply(world)
    }
}

/// The objects chunk's columns being written (layout 4): the tags, the ids, the part
/// masks, the names, and each part's values in id order (of the objects that have it).
struct Columns {
    ids: Vec<u32>,
    masks: Vec<u64>,
    names: Writer,
    parts: Vec<Writer>,
}

impl Columns {
    /// The chunk data of `runs` (runs of objects in id order) joined: the tags (a count
    /// and each), u32 count, the ids, the masks, the names, then each part's column as a
    /// u32 byte length and the values.
    fn join(state: &SimState, runs: &[Self]) -> Result<Vec<u8>, String> {
        let mut w = Writer::default();
        w.count(state.components().len())?;
        state.components().iter().try_for_each(|c| w.short_str(c.tag))?;
        w.count(runs.iter().map(|r| r.ids.len()).sum())?;
        runs.iter().flat_map(|r| &r.ids).for_each(|id| w.u32(*id));
        runs.iter().flat_map(|r| &r.masks).for_each(|mask| w.u64(*mask));
        runs.iter().for_each(|r| w.bytes(&r.names.0));
        for k in 0..state.components().len() {
            w.count(runs.iter().map(|r| r.parts[k].0.len()).sum())?;
            runs.iter().for_each(|r| w.bytes(&r.parts[k].0));
        }
        Ok(w.0)
    }
}

/// The columns of a run of `objects` (id order).
fn write_objects(world: &World, state: &SimState, objects: &[(u32, Entity)]) -> Result<Columns, String> {
    let entities: Vec<Entity> = objects.iter().map(|(_, e)| *e).collect();
    let mut columns = Columns {
        ids: objects.iter().map(|(id, _)| *id).collect(),
        masks: vec![0; objects.len()],
        names: Writer::default(),
        parts: state.components().iter().map(|_| Writer::default()).collect(),
    };
    let names = world.try_query::<&Name>();
    for entity in &entities {
        let name = names.as_ref().and_then(|q| q.get_manual(world, *entity).ok());
        columns.names.str(name.map_or("", Name::as_str))?;
    }
    for (k, (part, w)) in state.components().iter().zip(&mut columns.parts).enumerate() {
        (part.write)(world, &entities, 1 << k, &mut columns.masks, &mut w.0)?;
    }
    Ok(columns)
}

/// A snapshot read and checked, not yet applied.
struct Parsed {
    objects: Vec<SavedObject>,
    /// Each part's values (a `Vec` of its type), of the objects that have it in id order.
    columns: Vec<StateValue>,
    shells: Vec<Projectile>,
    resources: Vec<Option<StateValue>>,
    ais: SuperAisState,
    table: TableLayout,
}

impl Parsed {
    /// Object `i`'s saved `T`, if it has one.
    fn part<T: Clone + 'static>(&self, state: &SimState, i: usize) -> Option<T> {
        let k = state.component_of::<T>()?;
        let has = |o: &SavedObject| o.mask >> k & 1 == 1;
        let rank = self.objects[..i].iter().filter(|o| has(o)).count();
        let values = self.columns[k].downcast_ref::<Vec<T>>()?;
        self.objects.get(i).filter(|o| has(o)).and_then(|_| values.get(rank)).cloned()
    }

    /// The object built during play at `i` as production would build it again.
    fn prepared(&self, state: &SimState, i: usize) -> Result<PreparedObject, String> {
        let object = &self.objects[i];
        let id = object.id;
        let missing = || format!("object {id} was built during play and its scheme is not in the save");
        let mission = self.part::<MissionObject>(state, i).ok_or_else(missing)?;
        let record = self.part::<PlacedRecord>(state, i).ok_or_else(missing)?;
        let properties = self.part::<PropertyBag>(state, i).unwrap_or_default();
        Ok(PreparedObject {
            id,
            name: object.name.clone(),
            key: mission.key,
            components: Vec::new(),
            clan: mission.clan,
            record,
            properties,
            extras: Default::default(),
        })
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
                    let prepared = self.prepared(registry(world)?, i)?;
                    let id = object.id;
                    let e = iron3d_mission::spawn_object(world, prepared)
                        .map_err(|e| format!("object {id} cannot be re-created: {e}"))?;
                    live.insert(object.id, e);
                    e
                }
            };
            entities.push(entity);
        }
        let state = registry(world)?;
        let puts: Vec<_> = state.components().iter().map(|c| c.put).collect();
        let resource_puts: Vec<_> = state.resources().iter().map(|r| r.put).collect();
        for (k, (put, column)) in puts.into_iter().zip(self.columns).enumerate() {
            let has: Vec<(Entity, bool)> =
                entities.iter().zip(&self.objects).map(|(e, o)| (*e, o.mask >> k & 1 == 1)).collect();
            put(world, &has, column);
        }
        world.spawn_batch(self.shells);
        for (put, value) in resource_puts.into_iter().zip(self.resources) {
            value.into_iter().for_each(|v| put(world, v));
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
    mask: u64,
}

/// The objects and the parts' columns of a chunk of layout 4 ([`Columns`]), whose tags
/// must be `state`'s; the columns are read in parallel pieces.
fn read_objects(state: &SimState, chunk: &Chunk) -> Result<(Vec<SavedObject>, Vec<StateValue>), FormatError> {
    let parts = state.components();
    let mut r = Reader::chunk(chunk);
    let tags = r.count(2)?;
    if tags != parts.len() {
        return Err(r.error(format!("{tags} saved component types, this engine saves {}", parts.len())));
    }
    for part in parts {
        let at = r.offset();
        let tag = r.short_str()?;
        if tag != part.tag {
            return Err(r.error_at(at, format!("the saved component {tag} is not this engine's {}", part.tag)));
        }
    }
    let n = r.count(14)?;
    let ids = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
    let masks = (0..n).map(|_| r.u64()).collect::<Result<Vec<_>, _>>()?;
    if let Some((id, mask)) = ids.iter().zip(&masks).find(|(_, m)| parts.len() < 64 && *m >> parts.len() != 0) {
        return Err(r.error(format!("object {id} has parts this engine does not know (mask {mask:016x})")));
    }
    let names = (0..n).map(|_| r.str()).collect::<Result<Vec<_>, _>>()?;
    let columns = (0..parts.len())
        .map(|k| {
            let len = r.count(1)?;
            let at = r.offset();
            Ok((k, at, r.take(len)?))
        })
        .collect::<Result<Vec<_>, FormatError>>()?;
    r.done()?;
    let columns = crate::pieces::map(&columns, |(k, at, bytes)| {
        let n = masks.iter().filter(|m| *m >> k & 1 == 1).count();
        (parts[*k].read)(bytes, n).map_err(|(o, e)| r.error_at(at + o, format!("{}: {e}", parts[*k].tag)))
    });
    let objects = ids.into_iter().zip(masks).zip(names).map(|((id, mask), name)| SavedObject { id, name, mask });
    Ok((objects.collect(), columns.into_iter().collect::<Result<_, _>>()?))
}
