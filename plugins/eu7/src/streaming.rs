//! PACK section streaming as a plugin, as the seed describes it (docs/reference/eu7.md §10.1): PIDX in
//! memory, PACK read by offset; before the first frame the blocking bootstrap
//! ([`preload_section_stream`]) applies the sections around the start position; then every
//! frame: the [`Planner`] decides from the
//! [`StreamFocus`] position and velocity; requested sections are decoded (and their
//! `.e3d` files read) on `AsyncComputeTaskPool` workers; finished decodes enter the
//! bounded ready queue (back-pressure: a full queue leaves them waiting, counted in
//! flight); at most one ready section is applied per frame as a [`SectionRoot`] entity
//! with one [`ModelInstance`] child per model; sections leaving the keep ring are
//! despawned or cancelled. Rendering is not needed here ([`crate::models`] attaches the
//! meshes), so this plugin runs under `MinimalPlugins`.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};

use crate::LoadedScenery;
use crate::data::{DecodedSection, GeometryCache, Placement};
use crate::planner::{Harvest, Planner, SectionId, SectionState, StreamingConfig};

/// Adds the streaming systems (in `Update`) for `config`.
#[derive(Debug, Clone, Default)]
pub struct StreamingPlugin {
    /// Tunables.
    pub config: StreamingConfig,
}

/// The streaming systems (plan, harvest, apply), in `Update`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StreamingSystems;

/// The entity sections are streamed around (the camera); `velocity` drives the lookahead.
#[derive(Component, Reflect, Debug, Clone, Copy, Default)]
#[reflect(Component)]
pub struct StreamFocus {
    /// World velocity in m/s.
    pub velocity: Vec3,
}

/// The root entity of an applied section; its children are the section's models.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct SectionRoot {
    /// Row (Z).
    pub row: u16,
    /// Column (X).
    pub col: u16,
    /// Model instances spawned.
    pub instances: u32,
}

/// One streamed model instance; `model` indexes [`SectionStreamer::model_paths`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct ModelInstance {
    /// Model id.
    pub model: u32,
}

/// Streaming counters for the overlay and benchmarks.
#[derive(Resource, Reflect, Debug, Clone, Default, PartialEq)]
#[reflect(Resource)]
pub struct StreamingStats {
    /// Sections requested.
    pub requested: u64,
    /// Sections decoded.
    pub decoded: u64,
    /// Sections applied.
    pub applied: u64,
    /// Resident sections unloaded.
    pub unloaded: u64,
    /// Decodes cancelled (left the keep ring first).
    pub cancelled: u64,
    /// Decodes that failed.
    pub failed: u64,
    /// Decode tasks running or waiting for a ready slot.
    pub in_flight: usize,
    /// Decoded sections waiting to be applied.
    pub ready: usize,
    /// Sections applied and not unloaded.
    pub resident: usize,
    /// Most resident sections at once.
    pub peak_resident: usize,
    /// Model instances in resident sections.
    pub resident_instances: u64,
    /// PACK bytes decoded in total.
    pub decoded_pack_bytes: u64,
    /// Bytes held by ready and resident decoded sections.
    pub held_bytes: u64,
    /// Most bytes held at once.
    pub peak_held_bytes: u64,
    /// Sections decoded and applied by the blocking bootstrap before the first frame.
    pub bootstrapped: usize,
    /// How long the bootstrap blocked, in milliseconds.
    pub bootstrap_ms: f64,
    /// Section under the focus (row, column), if any.
    pub focus_section: Option<(u16, u16)>,
    /// Last decode error.
    pub last_error: Option<String>,
}

/// The streaming state: planner, tasks, ready data, applied roots, model ids.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource)]
pub struct SectionStreamer {
    /// Model paths by [`ModelInstance::model`].
    pub model_paths: Vec<String>,
    #[reflect(ignore)]
    model_ids: BTreeMap<String, u32>,
    #[reflect(ignore)]
    planner: Planner,
    #[reflect(ignore)]
    tasks: BTreeMap<SectionId, Task<Result<DecodedSection, String>>>,
    #[reflect(ignore)]
    finished: BTreeMap<SectionId, Result<DecodedSection, String>>,
    #[reflect(ignore)]
    ready: BTreeMap<SectionId, DecodedSection>,
    #[reflect(ignore)]
    roots: BTreeMap<SectionId, (Entity, u64, u32)>,
    /// Model geometry read by the workers.
    #[reflect(ignore)]
    pub cache: Arc<GeometryCache>,
}

impl SectionStreamer {
    /// The planner (section states for the overlay).
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// The path of model id `model`.
    pub fn model_path(&self, model: u32) -> Option<&str> {
        self.model_paths.get(model as usize).map(String::as_str)
    }

    /// The model id of `path`, assigning the next id on first use.
    pub fn intern(&mut self, path: &str) -> u32 {
        if let Some(&id) = self.model_ids.get(path) {
            return id;
        }
        let id = self.model_paths.len() as u32;
        self.model_paths.push(path.to_string());
        self.model_ids.insert(path.to_string(), id);
        id
    }
}

impl Plugin for StreamingPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<StreamFocus>()
            .register_type::<SectionRoot>()
            .register_type::<ModelInstance>()
            .register_type::<StreamingStats>()
            .register_type::<SectionStreamer>()
            .init_resource::<LoadedScenery>()
            .init_resource::<StreamingStats>()
            .insert_resource(SectionStreamer { planner: Planner::new(self.config, []), ..SectionStreamer::default() })
            .add_systems(Startup, init_planner)
            .add_systems(PostStartup, preload_section_stream)
            .add_systems(Update, (plan_sections, harvest_decodes, apply_one_section).chain().in_set(StreamingSystems));
    }
}

/// Startup: builds the planner over the loaded scenery's sections.
pub fn init_planner(scenery: Res<LoadedScenery>, mut streamer: ResMut<SectionStreamer>) {
    if let Some(data) = &scenery.data {
        let config = *streamer.planner.config();
        streamer.planner = Planner::new(config, data.sections());
    }
}

/// Bevy transform of a scenery placement (`T · Ry · Rx · Rz · S`, degrees).
pub fn placement_transform(p: &Placement) -> Transform {
    let [ax, ay, az] = p.angles.map(f32::to_radians);
    Transform {
        translation: Vec3::from_array(p.location),
        rotation: Quat::from_euler(EulerRot::YXZ, ay, ax, az),
        scale: Vec3::from_array(p.scale),
    }
}

fn plan_sections(
    mut commands: Commands,
    scenery: Res<LoadedScenery>,
    mut streamer: ResMut<SectionStreamer>,
    mut stats: ResMut<StreamingStats>,
    focus: Query<(&Transform, &StreamFocus)>,
) {
    let (Some(data), Some((at, focus))) = (&scenery.data, focus.iter().next()) else { return };
    let pos = at.translation.as_dvec3();
    let vel = focus.velocity.as_dvec3();
    stats.focus_section = SectionId::containing(pos.x, pos.z).map(|s| (s.row, s.col));
    let plan = streamer.planner.update([pos.x, pos.z], [vel.x, vel.z]);
    let s = &mut *streamer;
    for id in &plan.cancel {
        // Dropping a task cancels it.
        s.tasks.remove(id);
        s.finished.remove(id);
        if let Some(d) = s.ready.remove(id) {
            stats.held_bytes = stats.held_bytes.saturating_sub(d.resident_bytes());
        }
    }
    for id in &plan.unload {
        if let Some((root, bytes, instances)) = s.roots.remove(id) {
            commands.entity(root).despawn();
            stats.held_bytes = stats.held_bytes.saturating_sub(bytes);
            stats.resident_instances = stats.resident_instances.saturating_sub(u64::from(instances));
        }
    }
    stats.cancelled += plan.cancel.len() as u64;
    stats.unloaded += plan.unload.len() as u64;
    stats.requested += plan.request.len() as u64;
    for id in plan.request {
        s.spawn_decode(data, id);
    }
}

/// The blocking bootstrap before the first frame (`preload_section_stream`, docs/reference/eu7.md §10.1):
/// the sections within `bootstrap_radius` of the focus are decoded on the workers while
/// the main thread waits (at most `bootstrap_timeout_ms`), then all applied at once.
/// Sections still decoding at the timeout stay in flight and stream in normally.
pub fn preload_section_stream(
    mut commands: Commands,
    scenery: Res<LoadedScenery>,
    mut streamer: ResMut<SectionStreamer>,
    mut stats: ResMut<StreamingStats>,
    focus: Query<&Transform, With<StreamFocus>>,
) {
    let (Some(data), Some(at)) = (&scenery.data, focus.iter().next()) else { return };
    let started = std::time::Instant::now();
    let timeout = std::time::Duration::from_millis(streamer.planner.config().bootstrap_timeout_ms);
    let ids = streamer.planner.bootstrap([f64::from(at.translation.x), f64::from(at.translation.z)]);
    stats.requested += ids.len() as u64;
    for &id in &ids {
        streamer.spawn_decode(data, id);
    }
    let mut done: BTreeMap<SectionId, Result<DecodedSection, String>> = BTreeMap::new();
    while done.len() < ids.len() && started.elapsed() < timeout {
        for id in &ids {
            if let Some(r) = streamer.tasks.get_mut(id).and_then(check_ready) {
                streamer.tasks.remove(id);
                done.insert(*id, r);
            }
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    for (id, r) in done {
        match r {
            Ok(d) if streamer.planner.preloaded(id) => {
                stats.decoded += 1;
                stats.decoded_pack_bytes += d.pack_bytes;
                stats.held_bytes += d.resident_bytes();
                stats.bootstrapped += 1;
                streamer.apply(&mut commands, &mut stats, id, &d);
            }
            Ok(_) => {}
            Err(e) => {
                warn!("section {id}: {e}");
                stats.failed += 1;
                stats.last_error = Some(e);
                streamer.planner.failed_decode(id);
            }
        }
    }
    stats.bootstrap_ms = started.elapsed().as_secs_f64() * 1000.0;
    stats.resident = streamer.planner.count(SectionState::Resident);
    stats.in_flight = streamer.planner.count(SectionState::InFlight);
    stats.peak_resident = stats.peak_resident.max(stats.resident);
    stats.peak_held_bytes = stats.peak_held_bytes.max(stats.held_bytes);
    info!("bootstrap: {} sections in {:.0} ms", stats.bootstrapped, stats.bootstrap_ms);
}

fn harvest_decodes(mut streamer: ResMut<SectionStreamer>, mut stats: ResMut<StreamingStats>) {
    let s = &mut *streamer;
    let done: Vec<SectionId> = s
        .tasks
        .iter_mut()
        .filter_map(|(id, t)| check_ready(t).map(|r| (*id, r)))
        .map(|(id, r)| {
            s.finished.insert(id, r);
            id
        })
        .collect();
    for id in done {
        s.tasks.remove(&id);
    }
    let ids: Vec<SectionId> = s.finished.keys().copied().collect();
    for id in ids {
        match s.finished.get(&id) {
            Some(Err(e)) => {
                warn!("section {id}: {e}");
                stats.failed += 1;
                stats.last_error = Some(e.clone());
                s.planner.failed_decode(id);
                s.finished.remove(&id);
            }
            Some(Ok(_)) => match s.planner.finished(id) {
                Harvest::QueueFull => break,
                Harvest::Unknown => {
                    s.finished.remove(&id);
                }
                Harvest::Accepted => {
                    if let Some(Ok(d)) = s.finished.remove(&id) {
                        stats.decoded += 1;
                        stats.decoded_pack_bytes += d.pack_bytes;
                        stats.held_bytes += d.resident_bytes();
                        s.ready.insert(id, d);
                    }
                }
            },
            None => {}
        }
    }
    stats.peak_held_bytes = stats.peak_held_bytes.max(stats.held_bytes);
}

fn apply_one_section(mut commands: Commands, mut streamer: ResMut<SectionStreamer>, mut stats: ResMut<StreamingStats>) {
    if let Some(id) = streamer.planner.pop_ready()
        && let Some(d) = streamer.ready.remove(&id)
    {
        streamer.apply(&mut commands, &mut stats, id, &d);
    }
    let p = &streamer.planner;
    stats.in_flight = p.count(SectionState::InFlight);
    stats.ready = p.count(SectionState::Ready);
    stats.resident = p.count(SectionState::Resident);
    stats.peak_resident = stats.peak_resident.max(stats.resident);
}

impl SectionStreamer {
    /// Starts decoding section `id` (and reading its model files) on a worker.
    fn spawn_decode(&mut self, data: &Arc<crate::data::Scenery>, id: SectionId) {
        let (data, cache) = (Arc::clone(data), Arc::clone(&self.cache));
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let decoded = data.decode(id)?;
            for m in &decoded.models {
                cache.get_or_load(&data.dir, m);
            }
            Ok(decoded)
        });
        self.tasks.insert(id, task);
    }

    /// Spawns decoded section `id` as a [`SectionRoot`] with one [`ModelInstance`] child
    /// per model.
    fn apply(&mut self, commands: &mut Commands, stats: &mut StreamingStats, id: SectionId, d: &DecodedSection) {
        let ids: Vec<u32> = d.models.iter().map(|m| self.intern(m)).collect();
        let instances = d.placements.len() as u32;
        let root = commands
            .spawn((
                Name::new(format!("Section {id}")),
                SectionRoot { row: id.row, col: id.col, instances },
                Transform::default(),
                Visibility::default(),
            ))
            .id();
        let children: Vec<_> = d
            .placements
            .iter()
            .map(|p| {
                let model = ids.get(p.model as usize).copied().unwrap_or(0);
                let name = d.models.get(p.model as usize).map_or("model", String::as_str);
                (
                    Name::new(name.to_string()),
                    ModelInstance { model },
                    placement_transform(p),
                    Visibility::default(),
                    ChildOf(root),
                )
            })
            .collect();
        commands.spawn_batch(children);
        self.roots.insert(id, (root, d.resident_bytes(), instances));
        stats.applied += 1;
        stats.resident_instances += u64::from(instances);
    }
}

#[cfg(test)]
mod tests;
