//! Models of registered mission objects: each component key resolves (cached) through
//! `objects.rlb` to an MSH and a WEAR; a [`ModelInstance`] child per component loads
//! them through `game://`, and once everything is loaded one [`ModelPart`] child per
//! mesh part gets `Mesh3d` + `MeshMaterial3d`. Mesh handles are shared by the asset
//! server (same path, same handle); materials by [`MaterialCache`].

use crate::materials::{AnimatedMaterial, MaterialCache, standard_material};
use crate::RenderStats;
use bevy::asset::RecursiveDependencyLoadState;
use bevy::prelude::*;
use iron3d_assets::{GameData, Mat0Asset, MshAsset, WearAsset};
use iron3d_formats::registry::{EffectiveRef, MeshSource, PrototypeResolver};
use iron3d_mission::{MissionObject, Registered};
use std::collections::{HashMap, HashSet};

/// `game://` paths of a prototype's model, `None` for non-geometric or failed keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRefs {
    /// The MSH.
    pub msh: String,
    /// The WEAR, if the prototype names one.
    pub wear: Option<String>,
}

/// Resolved prototypes by lower-case key.
#[derive(Resource, Default)]
pub struct PrototypeCache(pub HashMap<String, Option<ModelRefs>>);

/// Where a model instance is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum ModelState {
    /// Waiting for assets.
    #[default]
    Loading,
    /// Parts attached.
    Ready,
    /// The model failed to load (logged).
    Failed,
}

/// One component model of a mission object (child of the object).
#[derive(Component, Reflect, Debug, Clone)]
#[reflect(Component)]
pub struct ModelInstance {
    /// Component prototype key.
    pub key: String,
    /// The model.
    pub msh: Handle<MshAsset>,
    /// Its material table.
    pub wear: Option<Handle<WearAsset>>,
    /// State.
    pub state: ModelState,
}

/// One drawn part (child of a [`ModelInstance`]).
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct ModelPart {
    /// WEAR row.
    pub material: u16,
}

/// Distinct handles seen, for [`RenderStats`].
#[derive(Debug, Default, Clone)]
pub(crate) struct SeenSets {
    meshes: HashSet<AssetId<Mesh>>,
    materials: HashSet<AssetId<StandardMaterial>>,
    pairs: HashSet<(AssetId<Mesh>, AssetId<StandardMaterial>)>,
    objects: HashSet<Entity>,
}

fn game_path(r: &EffectiveRef) -> String {
    format!("game://{}::{}", r.archive.replace('\\', "/"), r.resource)
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
                MeshSource::Explicit(r) | MeshSource::BasStem(r) => Some(ModelRefs { msh: game_path(r), wear: p.wear().map(game_path) }),
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
    new: Query<(Entity, &MissionObject), Added<Registered>>,
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
        .flat_map(|(_, o)| o.components.iter())
        .filter(|k| !cache.0.contains_key(&k.to_ascii_lowercase()))
        .cloned()
        .collect();
    missing.sort();
    missing.dedup();
    if !missing.is_empty() {
        resolve_missing(&game, &missing, &mut cache);
    }
    for (entity, object) in &new {
        commands.entity(entity).insert_if_new(Visibility::default());
        for key in &object.components {
            let Some(Some(refs)) = cache.0.get(&key.to_ascii_lowercase()) else { continue };
            let instance = ModelInstance {
                key: key.clone(),
                msh: server.load(refs.msh.clone()),
                wear: refs.wear.as_ref().map(|w| server.load(w.clone())),
                state: ModelState::Loading,
            };
            commands.spawn((instance, Name::new(key.clone()), Transform::default(), Visibility::default(), ChildOf(entity)));
            stats.instances += 1;
            stats.pending += 1;
        }
    }
}

fn settled(state: RecursiveDependencyLoadState) -> Option<bool> {
    match state {
        RecursiveDependencyLoadState::Loaded => Some(true),
        RecursiveDependencyLoadState::Failed(_) => Some(false),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn attach_models(
    mut commands: Commands,
    mut instances: Query<(Entity, &mut ModelInstance, &ChildOf)>,
    server: Res<AssetServer>,
    models: Res<Assets<MshAsset>>,
    wears: Res<Assets<WearAsset>>,
    mats: Res<Assets<Mat0Asset>>,
    images: Res<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut cache: ResMut<MaterialCache>,
    mut stats: ResMut<RenderStats>,
) {
    let pending_before = stats.pending;
    for (entity, mut inst, parent) in &mut instances {
        if inst.state != ModelState::Loading {
            continue;
        }
        let Some(model_ok) = settled(server.recursive_dependency_load_state(&inst.msh)) else { continue };
        let wear_ok = match &inst.wear {
            None => true,
            Some(w) => match settled(server.recursive_dependency_load_state(w)) {
                None => continue,
                Some(ok) => ok,
            },
        };
        stats.pending = stats.pending.saturating_sub(1);
        let Some(model) = models.get(&inst.msh).filter(|_| model_ok) else {
            inst.state = ModelState::Failed;
            stats.failed += 1;
            warn!("render: model of {} failed: {:?}", inst.key, server.load_state(&inst.msh));
            continue;
        };
        if !wear_ok {
            stats.failed += 1;
            warn!("render: materials of {} failed; drawing grey", inst.key);
        }
        let wear = inst.wear.as_ref().filter(|_| wear_ok).and_then(|w| wears.get(w).map(|a| (w.id(), a)));
        for part in &model.parts {
            let key = (wear.map(|(id, _)| id), part.material);
            let material = match cache.by_row.get(&key) {
                Some(m) => m.clone(),
                None => {
                    let mat0_handle = wear.and_then(|(_, w)| w.materials.get(usize::from(part.material)));
                    let mat0 = mat0_handle.and_then(|h| mats.get(h));
                    let handle = materials.add(standard_material(mat0, &images));
                    if let (Some(h), Some(m)) = (mat0_handle, mat0)
                        && m.material.phases.len() > 1
                        && !m.material.anims.is_empty()
                    {
                        commands.spawn(AnimatedMaterial { material: handle.clone(), mat0: h.clone() });
                    }
                    cache.by_row.insert(key, handle.clone());
                    handle
                }
            };
            let seen = &mut stats.seen;
            seen.meshes.insert(part.mesh.id());
            seen.materials.insert(material.id());
            seen.pairs.insert((part.mesh.id(), material.id()));
            seen.objects.insert(parent.parent());
            commands.spawn((ModelPart { material: part.material }, Mesh3d(part.mesh.clone()), MeshMaterial3d(material), ChildOf(entity)));
            stats.parts += 1;
        }
        inst.state = ModelState::Ready;
        let s = &stats.seen;
        let counts = (s.meshes.len(), s.materials.len(), s.pairs.len(), s.objects.len());
        (stats.meshes, stats.materials, stats.pairs, stats.objects) = counts;
    }
    if pending_before > 0 && stats.pending == 0 {
        info!(
            target: "render",
            "models ready: {} instances ({} failed), {} parts, {} mesh/material pairs for {} objects",
            stats.instances, stats.failed, stats.parts, stats.pairs, stats.objects
        );
    }
}
