//! Models of registered mission objects, of the designer's previews
//! ([`crate::previews::ModelPreview`]) and of a building being placed
//! ([`crate::site_model::SiteModel`]). Each component key resolves (cached) through
//! `objects.rlb` to an MSH and a WEAR; once every component's assets are loaded the
//! object is assembled into one piece list (`docs/reference/models.md` §1.12: attached turrets
//! and weapons hang from a node of their parent, their virtual root skipped), spawned
//! as a transform hierarchy of [`ModelPiece`] entities posed by the object's
//! [`PieceAnimation`] (the CTLD bindings Control owns; the renderer only reads them and
//! re-poses [`AnimatedPiece`]s when they change), each with one [`ModelPart`] child per mesh part
//! (with a Bevy `Lightmap` from the WEAR's `LIGHTMAPS` row when the part has lightmap
//! coordinates).
//! Every part exists once per level of detail the node has, each level drawn in its
//! distance range ([`crate::lod::LodDistances`]); an object that never moves a piece is drawn
//! from its model's merged rest-pose parts instead of a piece hierarchy.
//! Mesh handles are shared by the asset server (same path, same handle); materials by
//! [`MaterialCache`] (one per MAT0).

use crate::MissionRenderSystems;
use crate::RenderStats;
use crate::fast_shading::FastShaded;
use crate::materials::{AnimatedMaterial, MaterialCache, MaterialSources, is_animated, standard_material};
use crate::turret::{ControlPointAt, TURRET_CENTER, TurretPiece, model_space, turret_pivot};
use bevy::asset::RecursiveDependencyLoadState;
use bevy::ecs::system::SystemParam;
use bevy::pbr::Lightmap;
use bevy::prelude::*;
use iron3d_assets::{GameData, MshAsset, MshNode, MshPart, WearAsset};
use iron3d_core::{AppState, Movable, PieceAnimation, PieceBinding, Weapon};
use iron3d_formats::helpers::Ctpt;
use iron3d_formats::model::assembly::{Assembly, Attach, ComponentNodes, Piece, assemble};
use iron3d_formats::registry::{EffectiveRef, MeshSource, Prototype, PrototypeResolver};
use iron3d_mission::{MissionObject, Registered};
use std::collections::{HashMap, HashSet};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PrototypeCache>()
        .register_type::<ObjectModel>()
        .register_type::<ModelPiece>()
        .register_type::<AnimatedPiece>()
        .register_type::<ModelPart>()
        .add_systems(
            Update,
            (
                request_models.in_set(MissionRenderSystems::Request),
                attach_models.in_set(MissionRenderSystems::Attach),
                pose_pieces.in_set(MissionRenderSystems::Animate),
            ),
        );
}

/// `game://` paths of a prototype's model, `None` for non-geometric or failed keys.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRefs {
    /// The MSH.
    pub msh: String,
    /// The WEAR, if the prototype names one.
    pub wear: Option<String>,
    /// The `TurretCenter` of its control points, if it has one.
    pub turret_center: Option<ControlPointAt>,
}

/// Resolved prototypes by lower-case key.
#[derive(Resource, Default)]
pub struct PrototypeCache(pub HashMap<String, Option<ModelRefs>>);

/// Where an object's model is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum ModelState {
    /// Waiting for assets.
    #[default]
    Loading,
    /// Pieces spawned.
    Ready,
}

/// The model of one component of an object.
#[derive(Reflect, Debug, Clone)]
pub struct ComponentModel {
    /// Component index in the mission object's component list.
    pub component: usize,
    /// Component prototype key.
    pub key: String,
    /// The model.
    pub msh: Handle<MshAsset>,
    /// Its material table.
    pub wear: Option<Handle<WearAsset>>,
    /// Parent component model (index into [`ObjectModel::components`]) and its node.
    pub attach: Option<(usize, u32)>,
    /// The `TurretCenter` of its control points (a chassis' turret turns about it).
    pub turret_center: Option<ControlPointAt>,
}

/// The models of a mission object's components (on the object entity).
#[derive(Component, Reflect, Debug, Clone, Default)]
#[reflect(Component)]
pub struct ObjectModel {
    /// Component models in component order.
    pub components: Vec<ComponentModel>,
    /// State.
    pub state: ModelState,
}

/// One piece of an assembled object: a node of a component's model.
#[derive(Component, Reflect, Debug, Clone)]
#[reflect(Component)]
pub struct ModelPiece {
    /// Component index in [`ObjectModel::components`].
    pub component: usize,
    /// Node of the component's model.
    pub node: usize,
    /// The model, for posing.
    pub model: Handle<MshAsset>,
}

/// A piece posed by a cycling binding of its object's [`PieceAnimation`] (a radar, a
/// rotor): re-posed whenever Control advances the animation.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct AnimatedPiece {
    /// The object entity.
    pub object: Entity,
    /// Index into its [`PieceAnimation::bindings`].
    pub binding: usize,
}

/// Component type of a turret (`docs/reference/registry.md` §2.3).
const TURRET: u32 = 1;

/// One drawn part (child of a [`ModelPiece`]).
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct ModelPart {
    /// WEAR row.
    pub material: u16,
    /// Level of detail (0 = most detailed, see [`crate::lod::LodDistances`]).
    pub level: usize,
}

/// Distinct handles seen, for [`RenderStats`].
#[derive(Debug, Default, Clone)]
pub(crate) struct SeenSets {
    meshes: HashSet<AssetId<Mesh>>,
    materials: HashSet<AssetId<StandardMaterial>>,
    pairs: HashSet<(AssetId<Mesh>, AssetId<StandardMaterial>)>,
    objects: HashSet<Entity>,
}

impl SeenSets {
    /// Records one drawn part of `object`.
    fn record(&mut self, object: Entity, mesh: AssetId<Mesh>, material: AssetId<StandardMaterial>) {
        self.meshes.insert(mesh);
        self.materials.insert(material);
        self.pairs.insert((mesh, material));
        self.objects.insert(object);
    }
}

impl RenderStats {
    /// Copies the distinct counts of the seen sets into the statistics.
    fn update_distinct_counts(&mut self) {
        let s = &self.seen;
        (self.meshes, self.materials, self.pairs, self.objects) =
            (s.meshes.len(), s.materials.len(), s.pairs.len(), s.objects.len());
    }
}

fn game_path(r: &EffectiveRef) -> String {
    format!("game://{}::{}", r.archive.replace('\\', "/"), r.resource)
}

/// The `TurretCenter` of a prototype's `.cpt` (a bad file is reported and ignored).
fn turret_center(game: &GameData, p: &Prototype) -> Option<ControlPointAt> {
    let r = p.first(".cpt")?;
    let points = game.0.read_entry(&r.archive, &r.resource).and_then(|b| Ctpt::parse(&b));
    match points {
        Ok(points) => points
            .find(TURRET_CENTER)
            .map(|(_, point)| ControlPointAt { node: point.owner_piece(), position: point.position() }),
        Err(e) => {
            warn!("render: {} / {}: {e}; its turret turns about its own origin", r.archive, r.resource);
            None
        }
    }
}

fn resolve_missing(game: &GameData, keys: &[String], cache: &mut PrototypeCache) {
    let archive = match game.0.archive("objects.rlb") {
        Ok(a) => a,
        Err(e) => {
            warn!("render: objects.rlb: {e}");
            keys.iter().for_each(|k| drop(cache.0.insert(k.to_ascii_lowercase(), None)));
            return;
        }
    };
    let Some(nres) = archive.nres() else {
        warn!("render: objects.rlb is not an NRes archive");
        return;
    };
    let resolver = PrototypeResolver::new(&nres, game.0.as_ref());
    for key in keys {
        let refs = match resolver.resolve(key).as_ref() {
            Ok(p) => match &p.mesh {
                MeshSource::Explicit(r) | MeshSource::BasStem(r) => Some(ModelRefs {
                    msh: game_path(r),
                    wear: p.wear().map(game_path),
                    turret_center: turret_center(game, p),
                }),
                MeshSource::NonGeometric => None,
            },
            Err(e) => {
                warn!("render: {e}");
                None
            }
        };
        cache.0.insert(key.to_ascii_lowercase(), refs);
    }
}

pub(crate) fn request_models(
    mut commands: Commands,
    new: Query<
        (Entity, &MissionObject),
        Or<(Added<Registered>, Added<crate::previews::ModelPreview>, Added<crate::site_model::SiteModel>)>,
    >,
    game: Option<Res<GameData>>,
    mut cache: ResMut<PrototypeCache>,
    server: Res<AssetServer>,
    mut stats: ResMut<RenderStats>,
) {
    if new.is_empty() {
        return;
    }
    let Some(game) = game else { return };
    let mut missing: Vec<String> = new
        .iter()
        .flat_map(|(_, o)| o.components.iter().map(|c| c.key.clone()))
        .filter(|k| !cache.0.contains_key(&k.to_ascii_lowercase()))
        .collect();
    missing.sort();
    missing.dedup();
    if !missing.is_empty() {
        resolve_missing(&game, &missing, &mut cache);
    }
    for (entity, object) in &new {
        // Component index → model index (components without a model have none).
        let mut model_of: Vec<Option<usize>> = Vec::with_capacity(object.components.len());
        let mut model = ObjectModel::default();
        for (component, c) in object.components.iter().enumerate() {
            let Some(Some(refs)) = cache.0.get(&c.key.to_ascii_lowercase()) else {
                model_of.push(None);
                continue;
            };
            model_of.push(Some(model.components.len()));
            let parent = c.parent.and_then(|p| model_of.get(p).copied().flatten());
            model.components.push(ComponentModel {
                component,
                key: c.key.clone(),
                msh: server.load(refs.msh.clone()),
                wear: refs.wear.as_ref().map(|w| server.load(w.clone())),
                attach: parent.map(|p| (p, c.attach_node)),
                turret_center: refs.turret_center,
            });
        }
        stats.instances += model.components.len();
        stats.pending += model.components.len();
        commands.entity(entity).insert((model, Visibility::default()));
    }
}

fn settled(state: RecursiveDependencyLoadState) -> Option<bool> {
    match state {
        RecursiveDependencyLoadState::Loaded => Some(true),
        RecursiveDependencyLoadState::Failed(_) => Some(false),
        _ => None,
    }
}

/// Load results of one component: `None` while anything is still loading.
fn component_loaded(server: &AssetServer, c: &ComponentModel) -> Option<[bool; 2]> {
    let wear = c.wear.as_ref().map_or(Some(true), |h| settled(server.recursive_dependency_load_state(h)));
    Some([settled(server.recursive_dependency_load_state(&c.msh))?, wear?])
}

/// The pieces of an object; attach points that do not fit fall back to the object root.
fn assembly_of(object: &ObjectModel, models: &[Option<&MshAsset>]) -> Assembly {
    let nodes = |attach: bool| -> Vec<ComponentNodes> {
        object
            .components
            .iter()
            .zip(models)
            .map(|(c, m)| ComponentNodes {
                parents: m.map(|m| m.nodes.iter().map(|n| n.parent).collect()).unwrap_or_default(),
                attach: c.attach.filter(|_| attach).map(|(component, node)| Attach { component, node: node as usize }),
            })
            .collect()
    };
    assemble(&nodes(true)).unwrap_or_else(|e| {
        let keys: Vec<&str> = object.components.iter().map(|c| c.key.as_str()).collect();
        warn!("render: {keys:?}: {e}; components drawn unattached");
        assemble(&nodes(false)).unwrap_or_default()
    })
}

/// The loaded assets an object's model is assembled from.
#[derive(SystemParam)]
pub(crate) struct ModelAssets<'w> {
    server: Res<'w, AssetServer>,
    models: Res<'w, Assets<MshAsset>>,
    wears: Res<'w, Assets<WearAsset>>,
}

impl ModelAssets<'_> {
    /// The model of each component (`None` where it failed), once every component has
    /// settled; counts and logs the failures.
    fn settled_models(&self, object: &ObjectModel, stats: &mut RenderStats) -> Option<Vec<Option<&MshAsset>>> {
        let loaded: Vec<[bool; 2]> =
            object.components.iter().map(|c| component_loaded(&self.server, c)).collect::<Option<_>>()?;
        stats.pending = stats.pending.saturating_sub(object.components.len());
        let ready = object.components.iter().zip(&loaded).map(|(c, &[msh_ok, wear_ok])| {
            let model = self.models.get(&c.msh).filter(|_| msh_ok);
            if model.is_none() {
                warn!("render: model of {} failed: {:?}", c.key, self.server.load_state(&c.msh));
            }
            if model.is_none() || !wear_ok {
                stats.failed += 1;
            }
            if !wear_ok {
                warn!("render: materials of {} failed; drawing grey", c.key);
            }
            model
        });
        Some(ready.collect())
    }

    /// A component's material table.
    fn wear(&self, c: &ComponentModel) -> Option<&WearAsset> {
        c.wear.as_ref().and_then(|w| self.wears.get(w))
    }
}

/// The shared materials of WEAR rows, built from MAT0 assets on first use.
#[derive(SystemParam)]
pub(crate) struct PartMaterials<'w> {
    sources: MaterialSources<'w>,
    cache: ResMut<'w, MaterialCache>,
    /// Where the parts' levels of detail switch.
    lod: Res<'w, crate::lod::LodDistances>,
}

impl PartMaterials<'_> {
    /// The shared material of a WEAR row's MAT0 (created on first use, with an animator
    /// when the MAT0 has phase animation).
    fn of_row(&mut self, commands: &mut Commands, wear: Option<&WearAsset>, row: u16) -> Handle<StandardMaterial> {
        let mat0_handle = wear.and_then(|w| w.materials.get(usize::from(row)));
        let mat0 = mat0_handle.and_then(|h| self.sources.mats.get(h));
        let key = mat0_handle.filter(|_| mat0.is_some()).map(Handle::id);
        if let Some(m) = self.cache.by_mat0.get(&key) {
            return m.clone();
        }
        let handle = self.sources.materials.add(standard_material(mat0, &self.sources.images));
        if let (Some(h), Some(m)) = (mat0_handle, mat0)
            && is_animated(m)
        {
            commands.spawn((
                Name::new("Animated material"),
                AnimatedMaterial { material: handle.clone(), mat0: h.clone() },
                DespawnOnExit(AppState::InGame),
            ));
        }
        self.cache.by_mat0.insert(key, handle.clone());
        handle
    }
}

/// The binding of a piece in its object's animation (index into `bindings`).
fn binding_of(bindings: &[PieceBinding], c: &ComponentModel, node: usize) -> Option<usize> {
    bindings.iter().position(|b| usize::from(b.component) == c.component && usize::try_from(b.node) == Ok(node))
}

/// A node's pose as its piece is spawned: its binding's frame, or its rest pose.
fn node_pose(model: &MshAsset, c: &ComponentModel, node: usize, bindings: &[PieceBinding]) -> Transform {
    binding_of(bindings, c, node).map_or(model.nodes[node].rest, |b| model.pose(node, bindings[b].frame()))
}

/// The turret piece of `object` posed `ahead` on node `mount` of component `parent`:
/// it turns about the parent's `TurretCenter` when it has one, else its own origin.
fn turret_piece(
    object: Entity,
    ahead: Transform,
    parent: Option<(&ComponentModel, &MshAsset, usize)>,
    bindings: &[PieceBinding],
) -> TurretPiece {
    let centred = parent.and_then(|(c, model, mount)| {
        let center = c.turret_center?;
        let pose = |n: usize| node_pose(model, c, n, bindings);
        let owner = model_space(model, center.node, pose);
        let mount = model_space(model, i32::try_from(mount).ok()?, pose);
        Some(turret_pivot(center, owner, mount))
    });
    let (pivot, axis) = centred.unwrap_or((ahead.translation, ahead.rotation * Vec3::Y));
    TurretPiece { object, ahead, pivot, axis, centred: centred.is_some() }
}

/// Spawns one piece of `object` under `parent`, posed by its binding (or at rest); a
/// cycling binding makes it an [`AnimatedPiece`].
fn spawn_piece(
    commands: &mut Commands,
    (object, parent): (Entity, Entity),
    c: &ComponentModel,
    model: &MshAsset,
    piece: &Piece,
    bindings: &[PieceBinding],
) -> Entity {
    let binding = binding_of(bindings, c, piece.node);
    let pose = node_pose(model, c, piece.node, bindings);
    let name = Name::new(format!("{}/{}", c.key, model.nodes[piece.node].name));
    let mut e = commands.spawn((
        ModelPiece { component: piece.component, node: piece.node, model: c.msh.clone() },
        name,
        pose,
        Visibility::default(),
        ChildOf(parent),
    ));
    if let Some(binding) = binding.filter(|b| bindings[*b].cycles()) {
        e.insert(AnimatedPiece { object, binding });
    }
    e.id()
}

/// The levels of detail of a node: level 0 and the coarser ones it has a slot for.
fn node_levels(node: &MshNode) -> Vec<(usize, &[MshPart])> {
    std::iter::once((0, &node.parts[..])).chain(node.coarser.iter().map(|l| (l.level, &l.parts[..]))).collect()
}

/// The levels of detail of a whole model merged at rest.
fn merged_levels(model: &MshAsset) -> Vec<(usize, &[MshPart])> {
    model.merged.iter().enumerate().map(|(l, p)| (l, &p[..])).collect()
}

/// Spawns drawn parts under `parent` at each level of detail (with their lightmaps and,
/// when there are coarser levels, their visibility ranges for a model of bounding
/// `radius`) and counts them.
fn spawn_parts(
    commands: &mut Commands,
    materials: &mut PartMaterials,
    stats: &mut RenderStats,
    (object, parent): (Entity, Entity),
    levels: Vec<(usize, &[MshPart])>,
    radius: f32,
    wear: Option<&WearAsset>,
) {
    let numbers: Vec<usize> = levels.iter().map(|(l, _)| *l).collect();
    let ranges = materials.lod.ranges(&numbers, radius);
    for ((level, parts), range) in levels.into_iter().zip(ranges) {
        for part in parts {
            let material = materials.of_row(commands, wear, part.material);
            stats.seen.record(object, part.mesh.id(), material.id());
            let mut drawn = commands.spawn((
                ModelPart { material: part.material, level },
                Mesh3d(part.mesh.clone()),
                FastShaded { full: material.clone() },
                MeshMaterial3d(material),
                ChildOf(parent),
            ));
            if let Some(range) = range.clone() {
                drawn.insert(range);
            }
            let lightmap = wear.and_then(|w| w.lightmaps.get(usize::from(part.lightmap))).cloned().flatten();
            if let Some(image) = lightmap.filter(|_| part.lightmapped) {
                drawn.insert(Lightmap { image, uv_rect: Rect::new(0.0, 0.0, 1.0, 1.0), bicubic_sampling: false });
                stats.lightmapped += 1;
            }
            if level == 0 {
                stats.parts += 1;
            } else {
                stats.coarser_parts += 1;
            }
        }
    }
}

/// True when an object's model never moves a piece: one component, not a turret,
/// no piece bindings, not a moving object. It is drawn merged at rest.
fn drawn_at_rest(
    object: &ObjectModel,
    bindings: &[PieceBinding],
    mission: Option<&MissionObject>,
    flags: [bool; 2],
) -> bool {
    let [movable, armed] = flags;
    let turret = mission.is_some_and(|m| m.components.iter().any(|c| c.component_type == TURRET));
    object.components.len() == 1 && bindings.is_empty() && !turret && !movable && !armed
}

/// Spawns the pieces of every object whose component assets have all settled.
pub(crate) fn attach_models(
    mut commands: Commands,
    mut objects: Query<(
        Entity,
        &mut ObjectModel,
        Option<&PieceAnimation>,
        Option<&MissionObject>,
        Has<Movable>,
        Has<Weapon>,
    )>,
    assets: ModelAssets,
    mut materials: PartMaterials,
    mut stats: ResMut<RenderStats>,
) {
    let pending_before = stats.pending;
    for (entity, mut object, animation, mission, movable, armed) in &mut objects {
        if object.state != ModelState::Loading {
            continue;
        }
        let Some(ready) = assets.settled_models(&object, &mut stats) else { continue };
        let bindings = animation.map_or(&[][..], |a| &a.bindings);
        if drawn_at_rest(&object, bindings, mission, [movable, armed]) {
            if let Some(model) = ready[0] {
                let wear = assets.wear(&object.components[0]);
                let levels = merged_levels(model);
                spawn_parts(&mut commands, &mut materials, &mut stats, (entity, entity), levels, model.radius, wear);
                stats.merged += 1;
            }
            object.state = ModelState::Ready;
            stats.update_distinct_counts();
            continue;
        }
        let assembly = assembly_of(&object, &ready);
        let mut spawned: Vec<Entity> = Vec::with_capacity(assembly.pieces.len());
        for piece in &assembly.pieces {
            let Some(model) = ready[piece.component] else {
                spawned.push(entity);
                continue;
            };
            let c = &object.components[piece.component];
            let parent = piece.parent.map_or(entity, |p| spawned[p]);
            let piece_entity = spawn_piece(&mut commands, (entity, parent), c, model, piece, bindings);
            spawned.push(piece_entity);
            let turret =
                mission.and_then(|m| m.components.get(c.component)).is_some_and(|m| m.component_type == TURRET);
            if turret && piece.parent.is_none_or(|p| assembly.pieces[p].component != piece.component) {
                let ahead = node_pose(model, c, piece.node, bindings);
                let mount = piece
                    .parent
                    .map(|p| &assembly.pieces[p])
                    .and_then(|p| Some((&object.components[p.component], ready[p.component]?, p.node)));
                commands.entity(piece_entity).insert(turret_piece(entity, ahead, mount, bindings));
            }
            let levels = node_levels(&model.nodes[piece.node]);
            let wear = assets.wear(c);
            spawn_parts(&mut commands, &mut materials, &mut stats, (entity, piece_entity), levels, model.radius, wear);
        }
        object.state = ModelState::Ready;
        stats.update_distinct_counts();
    }
    if pending_before > 0 && stats.pending == 0 {
        info!(
            target: "render",
            "models ready: {} instances ({} failed, {} merged at rest), {} parts ({} lightmapped, {} of coarser levels), {} mesh/material pairs for {} objects",
            stats.instances,
            stats.failed,
            stats.merged,
            stats.parts,
            stats.lightmapped,
            stats.coarser_parts,
            stats.pairs,
            stats.objects
        );
    }
}

/// Re-poses animated pieces whose object's animation changed.
pub(crate) fn pose_pieces(
    models: Res<Assets<MshAsset>>,
    objects: Query<Ref<PieceAnimation>>,
    mut pieces: Query<(&ModelPiece, &AnimatedPiece, &mut Transform)>,
) {
    for (piece, animated, mut transform) in &mut pieces {
        let Some(animation) = objects.get(animated.object).ok().filter(|a| a.is_changed()) else { continue };
        if let (Some(binding), Some(model)) = (animation.bindings.get(animated.binding), models.get(&piece.model)) {
            transform.set_if_neq(model.pose(piece.node, binding.frame()));
        }
    }
}
