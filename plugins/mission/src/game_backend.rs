//! The backend that loads a mission from a game directory: `data.tma`, the terrain
//! and areal map of its land path, `BuildDat.lst`, unit schemes, `objects.rlb`, and
//! the whole reachable resource graph — every failure tied to its edge.

use crate::backend::{MissionBackend, ObjectExtras, Prepared, PreparedObject};
use crate::catalogue::MissionName;
use crate::{ObjectComponent, PlacedRecord, ResolvedPrototype};
use iron3d_core::PropertyBag;
use iron3d_core::{MissionLoadPhase, ModelBounds, MotionLimits, PieceBinding, Place, Places, place};
use iron3d_formats::config::{BehaviorIni, IniFile};
use iron3d_formats::helpers::ctld::MotionParameters;
use iron3d_formats::helpers::{Ctld, Ctpt};
use iron3d_formats::model::{bounds, msh::Msh};
use iron3d_formats::registry::{
    BuildDat, EffectiveRef, MeshSource, Prototype, PrototypeResolver, UnitComponent, UnitDat,
};
use iron3d_formats::world::{ArealMap, LandMsh, MissionGraph, ModelLinks, ParsedModelLinks, PropertyValue, Tma};
use iron3d_formats::{Error, ErrorKind, ReadOptions, Result, ResultExt};
use iron3d_terrain::MissionPath;
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// A model's hull bounds, its nodes, their labels and its hall way's places.
pub(crate) struct MeshFacts {
    pub bounds: ModelBounds,
    pub nodes: Vec<MeshNode>,
    /// Each node's label (mesh stream 10; empty: none).
    pub labels: Vec<String>,
    pub places: Vec<Place>,
}

/// Every place bit of a hall-way node: a node with none is a waypoint only.
const PLACE_BITS: u32 =
    place::POD | place::DOCK | place::MINE_LOADING | place::STORAGE_UNLOADING | place::CREATION | place::TELEPORT;

/// What the combat sheet takes of a mesh node.
#[derive(Clone, Copy, Default)]
pub(crate) struct MeshNode {
    pub flags: u16,
    pub parent: u16,
    /// Its level-0 slot's area and volume (0 without one: such a node weighs nothing).
    pub area: f32,
    pub volume: f32,
}

/// Loads missions from an opened game directory.
pub struct GameMissionBackend {
    pub(crate) game: Arc<GameDir>,
    links: Arc<dyn ModelLinks + Send>,
    pub(crate) options: ReadOptions,
}

impl GameMissionBackend {
    /// A backend over `game` (compatible reading; WEAR and MAT0 parsed for the
    /// resource check).
    pub fn new(game: Arc<GameDir>) -> Self {
        Self { game, links: Arc::new(ParsedModelLinks::compatible()), options: ReadOptions::compatible() }
    }

    /// The game directory it reads.
    pub fn dir(&self) -> &Arc<GameDir> {
        &self.game
    }

    /// Replaces how WEAR/MAT0 links are expanded for the resource check.
    pub fn with_model_links(mut self, links: Arc<dyn ModelLinks + Send>) -> Self {
        self.links = links;
        self
    }
}

/// The game directory as the script loader sees it (`iron3d_core::ScriptFiles`): a
/// missing file is `Ok(None)`. The load publishes it with the clans; tools that load
/// script packages outside a mission (`iron3d-cli verify`) use it too.
pub struct GameScriptFiles(pub Arc<GameDir>);

impl iron3d_core::ScriptFiles for GameScriptFiles {
    fn read(&self, path: &str) -> std::result::Result<Option<Vec<u8>>, String> {
        match self.0.resolve(path) {
            None => Ok(None),
            Some(p) => std::fs::read(&p).map(Some).map_err(|e| format!("{path}: {e}")),
        }
    }
}

fn mission_dir(mission: &str) -> Result<String> {
    MissionName::parse(mission).map(|n| n.folder().to_string()).map_err(|e| Error::rule("mission", e))
}

fn missing(what: &str) -> Error {
    Error::new(ErrorKind::NotFound(what.to_string()))
}

impl GameMissionBackend {
    fn context(&self, mission: &str) -> Result<Tma> {
        let path = format!("{}/data.tma", mission_dir(mission)?);
        let bytes = self.game.read_file(&path).via(format!("mission {mission}"))?;
        let tma = Tma::parse(&bytes, self.options).in_file(path.clone())?;
        // Compatible reading's findings are warnings naming the file and offset (a
        // relation table an older demo wrote is one: it plays by the original's words).
        for d in &tma.diagnostics {
            tracing::warn!(target: "mission", "{path} at offset {}: {}: {}", d.offset, d.rule, d.detail);
        }
        Ok(tma)
    }

    /// The engine's `Behavior.ini` through the typed reader (optional: without it every
    /// key is absent); a value that does not parse or is out of range fails the load.
    fn behavior_ini(&self) -> Result<BehaviorIni> {
        const FILE: &str = "Behavior.ini";
        if self.game.resolve(FILE).is_none() {
            return Ok(BehaviorIni::default());
        }
        let ini = BehaviorIni::from_ini(&IniFile::parse(&self.game.read_file(FILE)?));
        ini.check().in_file(FILE)?;
        Ok(ini)
    }

    fn foundation(&self, prepared: &mut Prepared, progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
        let land = prepared.mission_file.as_ref().ok_or_else(|| missing("mission file"))?.land_path.display();
        let msh = format!("{land}.msh");
        prepared.terrain = Some(LandMsh::parse(&self.game.read_file(&msh)?, self.options).in_file(msh)?);
        progress(1, 3);
        let map = format!("{land}.map");
        prepared.areals = Some(ArealMap::parse(&self.game.read_file(&map)?, self.options).in_file(map)?);
        progress(2, 3);
        let dir = land.rsplit_once(['\\', '/']).map_or("", |(d, _)| d);
        let list = format!("{dir}/BuildDat.lst");
        prepared.build_dat = Some(BuildDat::parse(&self.game.read_file(&list)?).in_file(list)?);
        progress(3, 3);
        Ok(())
    }

    fn prototypes(&self, prepared: &mut Prepared, progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
        self.with_resolver(|resolver| {
            let total = prepared.objects.len();
            for (done, o) in prepared.objects.iter_mut().enumerate() {
                self.prototype(resolver, o, None)?;
                progress(done + 1, total);
            }
            Ok(())
        })
    }

    /// Runs `f` with a resolver over the game's `objects.rlb`.
    pub(crate) fn with_resolver<T>(&self, f: impl FnOnce(&PrototypeResolver<'_>) -> Result<T>) -> Result<T> {
        let registry = self.game.archive("objects.rlb")?;
        let nres = registry.nres().ok_or_else(|| Error::rule("registry_kind", "objects.rlb is not NRes"))?;
        f(&PrototypeResolver::new(&nres, self.game.as_ref()))
    }

    /// Resolves one object: its unit scheme (if any) into components, every component
    /// key through `objects.rlb`, their bounds, poses, motion, combat sheet and places,
    /// into `o.components` and `o.extras`. The load and run-time
    /// production share it.
    /// `scheme`: the scheme's bytes when the game keeps them (a design), else read.
    fn prototype(&self, resolver: &PrototypeResolver<'_>, o: &mut PreparedObject, scheme: Option<&[u8]>) -> Result<()> {
        let link = format!("placed object {} ({})", o.id, o.name);
        let (mut components, slots, class) = if scheme.is_some() || o.key.to_ascii_lowercase().ends_with(".dat") {
            let bytes = match scheme {
                Some(s) => s.to_vec(),
                None => self.game.read_file(&o.key).in_file(o.key.clone()).via(link.clone())?,
            };
            let dat = UnitDat::parse(&bytes).in_file(o.key.clone()).via(link.clone())?;
            let (components, slots) = scheme_components(&dat).in_file(o.key.clone()).via(link.clone())?;
            (components, slots, Some(dat.class_word()))
        } else {
            (vec![ObjectComponent::root(o.key.clone())], Vec::new(), None)
        };
        (o.extras, _) = self.assemble(resolver, &mut components, &slots, class, &o.properties).via(link)?;
        o.components = components;
        Ok(())
    }

    /// Resolves `components` (a scheme's, or one prototype's) through `objects.rlb`:
    /// their bounds, poses and camera centres, and the object's motion, combat sheet
    /// and places, with the payload its components give (the first). `slots` are the
    /// devices fitted parts take over ([`UnitComponent::fitted_slot`]), `class` the
    /// scheme's class word.
    pub(crate) fn assemble(
        &self,
        resolver: &PrototypeResolver<'_>,
        components: &mut [ObjectComponent],
        slots: &[Option<u32>],
        class: Option<u32>,
        properties: &PropertyBag,
    ) -> Result<(ObjectExtras, Option<f32>)> {
        let mut motions = Vec::new();
        // The places of the object's first model with a hall way (a building's).
        let mut places = Vec::new();
        let mut protos = Vec::with_capacity(components.len());
        for (index, c) in components.iter_mut().enumerate() {
            let edge = format!("component key {}", c.key);
            let p = match resolver.resolve(&c.key).as_ref() {
                Ok(p) => p.clone(),
                Err(e) => return Err(e.clone().via(edge)),
            };
            if let Some(ctl) = p.first(".ctl") {
                motions.push(self.control(ctl).via(edge.clone())?.motion());
            }
            c.prototype = resolved(&p);
            let facts = self.mesh_facts(&p).via(edge.clone())?;
            c.bounds = facts.as_ref().map(|f| f.bounds);
            if places.is_empty() {
                places = facts.map(|f| f.places.clone()).unwrap_or_default();
            }
            c.bindings = self.bindings(&p, index).via(edge.clone())?;
            c.camera_center = self.camera_center(&p).via(edge)?;
            protos.push(p);
        }
        let combat = self.combat_sheet(resolver, components, &protos, slots)?;
        let motion = motion_limits(&motions, combat.as_ref().map(|s| &s.figures), properties)?;
        // A robot's chassis is its scheme's first component.
        let chassis = protos.first().filter(|_| class.is_some_and(|c| c & iron3d_rules::ROBOT_CLASS_BIT != 0));
        let extras = ObjectExtras {
            unit_class: class,
            chassis_type: chassis.map(|p| self.profile_chassis_type(p)).transpose()?.flatten(),
            motion: Some(motion),
            combat,
            places: (!places.is_empty()).then_some(Places(places)),
        };
        Ok((extras, payload(&motions)))
    }

    /// What the load takes of a prototype's model, parsed once per model: its hull
    /// bounds (MSH header corners) and its nodes as (flags, parent); `None` without one.
    pub(crate) fn mesh_facts(&self, p: &Prototype) -> Result<Option<Arc<MeshFacts>>> {
        let (MeshSource::Explicit(r) | MeshSource::BasStem(r)) = &p.mesh else { return Ok(None) };
        let key = format!("mesh-facts:{}::{}", r.archive, r.resource);
        let facts = self.game.parsed(&key, || {
            let bytes = self.game.read_entry(&r.archive, &r.resource)?;
            let msh = Msh::parse(&bytes, self.options).in_entry(r.resource.clone()).in_file(r.archive.clone())?;
            let (min, max) = bounds(&msh.header.corners());
            let hall_way = msh.hall_way().transpose().in_entry(r.resource.clone()).in_file(r.archive.clone())?;
            let places = hall_way
                .iter()
                .flat_map(|h| h.places(PLACE_BITS))
                .map(|n| Place { flags: n.flags, at: n.position, joint: u16::try_from(n.word).unwrap_or(u16::MAX) })
                .collect();
            let label = |i| msh.node_name(i).map(iron3d_formats::bytes::display_name).unwrap_or_default();
            Ok(MeshFacts {
                places,
                labels: (0..msh.nodes.len()).map(label).collect(),
                bounds: ModelBounds { min, max },
                nodes: msh
                    .nodes
                    .iter()
                    .map(|n| {
                        let slot = n.slot(0, 0).and_then(|s| msh.slots.get(usize::from(s)));
                        MeshNode {
                            flags: n.flags,
                            parent: n.parent,
                            area: slot.map_or(0.0, |s| s.area),
                            volume: slot.map_or(0.0, |s| s.volume),
                        }
                    })
                    .collect(),
            })
        })?;
        Ok(Some(facts))
    }

    /// A control description, parsed once per file.
    pub(crate) fn control(&self, r: &EffectiveRef) -> Result<Arc<Ctld>> {
        self.game.parsed(&format!("ctld:{}::{}", r.archive, r.resource), || {
            let bytes = self.game.read_entry(&r.archive, &r.resource)?;
            Ctld::parse(&bytes).in_entry(r.resource.clone()).in_file(r.archive.clone())
        })
    }

    /// The `CameraCenter` control point of a prototype (its `.cpt`, parsed once per file).
    fn camera_center(&self, p: &Prototype) -> Result<Option<[f32; 3]>> {
        let Some(r) = p.first(".cpt") else { return Ok(None) };
        let ctpt = self.game.parsed(&format!("ctpt:{}::{}", r.archive, r.resource), || {
            let bytes = self.game.read_entry(&r.archive, &r.resource)?;
            Ctpt::parse(&bytes).in_entry(r.resource.clone()).in_file(r.archive.clone())
        })?;
        Ok(ctpt.find("CameraCenter").map(|(_, point)| point.position()))
    }

    /// The CTLD initial pose of a prototype's model as piece bindings of component
    /// `component` (the control description parsed once per file).
    fn bindings(&self, p: &Prototype, component: usize) -> Result<Vec<PieceBinding>> {
        let Some(r) = p.first(".ctl") else { return Ok(Vec::new()) };
        let ctld = self.control(r)?;
        let component =
            u16::try_from(component).map_err(|_| Error::rule("component_count", "over 65535 components"))?;
        Ok(piece_bindings(&ctld, component))
    }

    fn resources(&self, mission: &str) -> Result<()> {
        let report = MissionGraph::new(self.game.as_ref())
            .with_model_links(self.links.as_ref())
            .with_options(self.options)
            .build(&mission_dir(mission)?, false)?;
        match report.errors.first() {
            None => Ok(()),
            Some(f) => {
                let entry = if f.entry.is_empty() { String::new() } else { format!("::{}", f.entry) };
                let mut e = Error::rule("missing_resource", f.message.clone()).via(format!(
                    "{} {}{entry}",
                    f.link.name(),
                    f.archive
                ));
                if !f.key.is_empty() {
                    e = e.via(format!("key {}", f.key));
                }
                if let Some(object) = f.object {
                    e = e.via(format!("placed object {object} ({})", f.object_name));
                } else if !f.object_name.is_empty() {
                    e = e.via(f.object_name.clone());
                }
                Err(e.via(format!("{} unresolved reference(s) in total", report.errors.len())))
            }
        }
    }
}

impl MissionBackend for GameMissionBackend {
    fn prepare_object(&self, object: &mut PreparedObject) -> Result<()> {
        self.with_resolver(|resolver| self.prototype(resolver, object, None))
    }

    fn prepare_design(&self, object: &mut PreparedObject, scheme: &[u8]) -> Result<()> {
        self.with_resolver(|resolver| self.prototype(resolver, object, Some(scheme)))
    }

    fn game(&self) -> Option<&GameMissionBackend> {
        Some(self)
    }

    fn prepare(
        &self,
        phase: MissionLoadPhase,
        mission: &str,
        prepared: &mut Prepared,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<()> {
        match phase {
            MissionLoadPhase::Context => {
                prepared.behavior_ini = self.behavior_ini()?;
                prepared.level_ratios = crate::difficulty::level_ratios(&self.game);
                prepared.script_files = Some(Arc::new(GameScriptFiles(Arc::clone(&self.game))));
                prepared.layers = Some(data_layers(&self.game)?);
                prepared.rules = Some(crate::rules::game_rules(&self.game)?);
                prepared.profiles = Some(crate::profiles::read(&self.game)?);
                prepared.mission_file = Some(self.context(mission)?);
                Ok(())
            }
            MissionLoadPhase::Foundation => self.foundation(prepared, progress),
            MissionLoadPhase::Description => {
                let tma = prepared.mission_file.take().ok_or_else(|| missing("mission file"))?;
                let objects = placed_objects(&tma)?;
                progress(objects.len(), objects.len());
                prepared.objects = objects;
                prepared.land_path = Some(tma.land_path.display());
                prepared.paths =
                    tma.paths.iter().map(|p| MissionPath { id: p.path_id, points: p.points.clone() }).collect();
                prepared.clans = tma.clans.iter().enumerate().map(clan_setup).collect();
                prepared.lodes = tma.extras.iter().map(lode).collect();
                Ok(())
            }
            MissionLoadPhase::Prototypes => self.prototypes(prepared, progress),
            MissionLoadPhase::Resources => self.resources(mission),
            _ => Ok(()),
        }
    }
}

/// The placed objects of a mission file as the load's `Description` phase prepares them
/// (id = index in the file, display name, key, clan, record, properties), unresolved:
/// [`MissionBackend::prepare_object`] resolves each one as the `Prototypes` phase does.
///
/// # Errors
/// More objects than a `u32` id can number.
pub fn placed_objects(tma: &Tma) -> Result<Vec<PreparedObject>> {
    tma.objects
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let key = o.resource_name.display();
            let name = if o.instance_name.is_empty() { key.clone() } else { o.instance_name.display() };
            Ok(PreparedObject {
                id: u32::try_from(i).map_err(|_| Error::rule("object_count", "too many objects"))?,
                name,
                key,
                components: Vec::new(),
                // `raw_after_resource` holds the clan / SuperAI slot (docs/reference/runtime.md §3.2).
                clan: o.raw_after_resource as i32,
                record: PlacedRecord::from(o),
                properties: PropertyBag::of(o),
                extras: ObjectExtras::default(),
            })
        })
        .collect()
}

/// Component classes whose entries are channels they drive: a turret's yaw and pitch
/// (1), a gun's or a builder's barrels (2, 30).
const DRIVEN_CLASSES: [u32; 3] = [1, 2, 30];

/// The piece bindings of component `component` from its control description's initial
/// pose. A channel its turret or a gun names keeps its pose: the turret turns it by its
/// aim and a gun strokes it as it fires (openparkan `docs/30-turrets.md`,
/// `docs/29-weapons.md`); it does not cycle as a radar's does, though it wraps and spans
/// frames.
pub(crate) fn piece_bindings(ctld: &Ctld, component: u16) -> Vec<PieceBinding> {
    let driven: Vec<u32> = ctld
        .items
        .iter()
        .filter(|i| DRIVEN_CLASSES.contains(&i.tag()))
        .flat_map(|i| i.bindings.iter().copied())
        .collect();
    let mut out = Vec::new();
    for entry in ctld.initial_pose() {
        let (Ok(node), Some(row)) = (u32::try_from(entry.node), ctld.rows.get(entry.row)) else { continue };
        let (a, b) = row.endpoints();
        let (blend, flags) = (row.initial_blend(ctld.layout), row.flags(ctld.layout));
        let endpoints = if driven.contains(&(entry.row as u32)) { [entry.frame; 2] } else { [a, b] };
        out.push(PieceBinding { component, node, endpoints, blend, flags });
    }
    out
}

/// The placed object's property scaling its top speed (`docs/reference/world.md` §1.6).
pub const MAX_SPEED_PERCENT: &str = "MaxSpeedPercent";

/// r, a machine's spare payload ÷ its payload (openparkan `docs/24-motion.md`, read):
/// the spare is the payload + the chassis's own body − the whole mass, never below 0.
fn load(payload: f32, figures: &iron3d_core::FigureSheet) -> f32 {
    (payload + figures.own_mass - figures.mass).max(0.0) / payload
}

/// An object's movement limits: the weakest of its components' CTLD root limits (see
/// [`MotionLimits`]: forward (y) speed and acceleration, turn rate about Z, the slope
/// limit), its load from the first payload its components give and its body's
/// `figures`, and its `MaxSpeedPercent` (an integer or a float, at least 0).
fn motion_limits(
    motions: &[MotionParameters],
    figures: Option<&iron3d_core::FigureSheet>,
    properties: &PropertyBag,
) -> Result<MotionLimits> {
    let weakest = |f: fn(&MotionParameters) -> f32| MotionLimits::weakest(motions.iter().map(f));
    let percent = match properties.first(MAX_SPEED_PERCENT).map(|p| p.value()) {
        None => 100.0,
        Some(PropertyValue::Int(v)) => v as f32,
        Some(PropertyValue::Float(v)) => v,
        Some(PropertyValue::Raw { kind, .. }) => {
            return Err(Error::rule("property_type", format!("{MAX_SPEED_PERCENT} has value type {kind}")));
        }
    };
    if !(percent.is_finite() && percent >= 0.0) {
        return Err(Error::rule("property_range", format!("{MAX_SPEED_PERCENT} = {percent} is not a percentage")));
    }
    Ok(MotionLimits {
        top_speed: weakest(|m| m.max_speed[1]),
        acceleration: weakest(|m| m.max_acceleration[1]),
        turn_rate: weakest(|m| m.max_angular_speed[2]),
        slope_limit: weakest(|m| m.slope_limit),
        speed_scale: percent / 100.0,
        load: payload(motions).zip(figures).map_or(1.0, |(payload, figures)| load(payload, figures)),
    })
}

/// The first payload an object's components give (kg).
fn payload(motions: &[MotionParameters]) -> Option<f32> {
    motions.iter().map(|m| m.payload).find(|p| p.is_finite() && *p > 0.0)
}

/// A scheme's components in tree order and the device each fitted part takes over.
pub(crate) fn scheme_components(dat: &UnitDat) -> Result<(Vec<ObjectComponent>, Vec<Option<u32>>)> {
    let parts = dat.components()?;
    let slots = parts.iter().map(UnitComponent::fitted_slot).collect();
    let components = parts
        .into_iter()
        .map(|c| ObjectComponent {
            attach_node: c.attach_node(),
            parent: c.parent,
            component_type: c.component_type,
            ..ObjectComponent::root(c.key)
        })
        .collect();
    Ok((components, slots))
}

/// A trailer record as the runtime keeps it (`gameplay.md` §3.4, read): x, y, the found
/// word (first), the amount (third, a float); the height, type and fourth word are not
/// kept.
fn lode(e: &iron3d_formats::world::ExtraRecord28) -> iron3d_core::MineralLode {
    let (found, _, amount, _) = e.lode();
    iron3d_core::MineralLode { position: [e.position[0], e.position[1]], found: found != 0, amount }
}

/// A clan record as the simulation sees it.
fn clan_setup((index, c): (usize, &iron3d_formats::world::Clan)) -> iron3d_core::ClanSetup {
    iron3d_core::ClanSetup {
        index: index as u32,
        name: c.name.display(),
        mode: c.mode,
        anchor: [c.anchor_x, c.anchor_y],
        bundle: c.script.display(),
        research_tree: c.research_tree.display(),
        minds: c.minds(),
        relations: c.relations.iter().map(|(name, v)| (name.display(), *v)).collect(),
        pastures: c
            .zones
            .iter()
            .map(|z| iron3d_core::Pasture { centre: z.centre, inner: z.inner, outer: z.outer })
            .collect(),
    }
}

/// A game directory's layers with their content fingerprints (the first call reads
/// every layer's files once).
///
/// # Errors
/// A file of a layer cannot be read.
pub fn data_layers(game: &GameDir) -> Result<iron3d_core::DataLayers> {
    let stamps = game.stamps()?;
    Ok(iron3d_core::DataLayers(
        stamps.into_iter().map(|s| iron3d_core::DataLayer { name: s.name, fingerprint: s.fingerprint }).collect(),
    ))
}

/// The inspector view of a resolved prototype.
fn resolved(p: &Prototype) -> ResolvedPrototype {
    let at = |r: &EffectiveRef| format!("{}::{}", r.archive, r.resource);
    let mesh = match &p.mesh {
        MeshSource::Explicit(r) | MeshSource::BasStem(r) => at(r),
        MeshSource::NonGeometric => String::new(),
    };
    ResolvedPrototype { entry: p.key.clone(), mesh, refs: p.refs.iter().map(at).collect() }
}
