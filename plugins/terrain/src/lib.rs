//! The geography a mission publishes for the simulation (`docs/reference/world.md` §2–§4), in game
//! units with Z up: the terrain surface ([`Ground`]: height, normal, ray), the areal
//! map ([`NavMap`]: `area_at`, routes, corridors; a point outside every areal is not
//! walkable), the building categories of `BuildDat.lst` ([`BuildingCategories`]), the
//! mission's paths ([`MissionPaths`]) and the engine's `Behavior.ini` ([`BehaviorIni`]).
//! The mission loader inserts them at registration; they are removed when the game
//! closes.

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_state::prelude::*;
use iron3d_core::AppState;
use iron3d_formats::config::Setting;
use iron3d_formats::registry::BuildDat;
use iron3d_formats::world::{ArealMap, ArealQuery, Corridor, LandMsh, RayHit, TerrainQuery};
use std::sync::Arc;

/// The terrain surface of `Land.msh`.
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct Ground {
    /// Faces of the surface.
    pub faces: usize,
    /// `None` only for a value made through reflection.
    #[reflect(ignore)]
    query: Option<Arc<TerrainQuery>>,
}

impl Ground {
    /// The surface of a terrain.
    pub fn new(terrain: &LandMsh) -> Self {
        Self { faces: terrain.faces.len(), query: Some(Arc::new(TerrainQuery::new(terrain))) }
    }

    /// Surface height at XY (`None` off the terrain).
    pub fn height_at(&self, x: f32, y: f32) -> Option<f32> {
        self.query.as_ref()?.height_at(x, y)
    }

    /// Height and unit up-facing normal at XY.
    pub fn surface_at(&self, x: f32, y: f32) -> Option<(f32, [f32; 3])> {
        self.query.as_ref()?.surface_at(x, y).map(|h| (h.z, h.normal))
    }

    /// First surface hit along a ray.
    pub fn ray_cast(&self, origin: [f32; 3], dir: [f32; 3], max_t: f32) -> Option<RayHit> {
        self.query.as_ref()?.ray_cast(origin, dir, max_t)
    }
}

/// The areal map of `Land.map`: navigation cells, their links and the candidate grid.
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct NavMap {
    /// Areals in the map.
    pub areals: usize,
    #[reflect(ignore)]
    query: Option<ArealQuery<Arc<ArealMap>>>,
}

impl NavMap {
    /// Queries over an areal map.
    pub fn new(map: ArealMap) -> Self {
        Self { areals: map.areals.len(), query: Some(ArealQuery::new(Arc::new(map))) }
    }

    /// The areal at XY, or `None`: the point is not walkable.
    pub fn area_at(&self, x: f32, y: f32) -> Option<u32> {
        self.query.as_ref()?.area_at(x, y).and_then(|h| u32::try_from(h.area).ok())
    }

    /// The XY extent the areals cover (minimum, maximum).
    pub fn extent(&self) -> Option<([f32; 2], [f32; 2])> {
        self.query.as_ref().map(|q| (q.layout().min, q.layout().max))
    }

    /// Whether XY is walkable: inside some areal (cheaper than [`NavMap::area_at`]).
    pub fn walkable(&self, x: f32, y: f32) -> bool {
        self.query.as_ref().is_some_and(|q| q.covered(x, y))
    }

    /// The cheapest areal sequence between two areals (`None`: unreachable).
    pub fn route(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        let route = self.query.as_ref()?.route(from as usize, to as usize)?;
        route.into_iter().map(|a| u32::try_from(a).ok()).collect()
    }

    /// The corridor of portals along a route.
    pub fn corridor(&self, route: &[u32]) -> Corridor {
        let route: Vec<usize> = route.iter().map(|&a| a as usize).collect();
        self.query.as_ref().map(|q| q.corridor(&route)).unwrap_or(Corridor { areas: route, portals: Vec::new() })
    }

    /// Whether an areal has any link to another areal.
    pub fn has_links(&self, areal: u32) -> bool {
        self.map()
            .and_then(|m| m.areals.get(areal as usize))
            .is_some_and(|a| a.links.iter().any(|l| l.target().is_some_and(|t| t != areal as usize)))
    }

    /// The areal map.
    pub fn map(&self) -> Option<&ArealMap> {
        self.query.as_ref().map(|q| q.map())
    }
}

/// The building categories of the map's `BuildDat.lst` (`docs/reference/registry.md` §3).
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct BuildingCategories {
    /// Listed buildings.
    pub entries: usize,
    #[reflect(ignore)]
    list: Option<BuildDat>,
}

impl BuildingCategories {
    /// The categories of a parsed list.
    pub fn new(list: BuildDat) -> Self {
        Self { entries: list.sections.iter().map(|(_, paths)| paths.len()).sum(), list: Some(list) }
    }

    /// The category mask of a building scheme path (case-insensitive), if listed.
    pub fn mask_of(&self, path: &str) -> Option<u32> {
        self.list.as_ref()?.mask_of(path)
    }

    /// A listed scheme path's category, entry and the category's length.
    pub fn rung_of(&self, path: &str) -> Option<(iron3d_formats::registry::BuildCategory, usize, usize)> {
        self.list.as_ref()?.rung_of(path)
    }

    /// A category's scheme paths (its upgrade ladder).
    pub fn ladder(&self, category: iron3d_formats::registry::BuildCategory) -> &[String] {
        self.list.as_ref().map_or(&[], |l| l.ladder(category))
    }
}

/// One path of the mission (`Paths` of `data.tma`).
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct MissionPath {
    /// Path id (referenced by scripts and orders; not the array index).
    pub id: i32,
    /// Points, game units.
    pub points: Vec<[f32; 3]>,
}

/// The mission's paths in file order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct MissionPaths(pub Vec<MissionPath>);

impl MissionPaths {
    /// The path with id `id`.
    pub fn get(&self, id: i32) -> Option<&MissionPath> {
        self.0.iter().find(|p| p.id == id)
    }
}

/// The engine's `Behavior.ini` (`docs/reference/runtime.md` §2.2) through the one typed reader
/// ([`iron3d_formats::config::BehaviorIni`], checked by the mission load): Behavior,
/// Wizard, Control and combat read their keys from here. Absent keys are `None`.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BehaviorIni(pub iron3d_formats::config::BehaviorIni);

impl BehaviorIni {
    /// A number key's value (`None` when absent or unparsed; the load refuses a value
    /// that is not a finite positive number).
    pub fn number(key: &Option<Setting<f64>>) -> Option<f32> {
        key.as_ref()?.value.map(|v| v as f32).filter(|v| v.is_finite() && *v > 0.0)
    }

    /// A switch key's value: on when non-zero (`None` when absent).
    pub fn switch(key: &Option<Setting<i64>>) -> Option<bool> {
        key.as_ref()?.value.map(|v| v != 0)
    }
}

/// Registers the geography resources and removes them when the game closes.
#[derive(Debug, Default)]
pub struct TerrainPlugin;

impl Plugin for TerrainPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<Ground>()
            .register_type::<NavMap>()
            .register_type::<BuildingCategories>()
            .register_type::<MissionPaths>()
            .add_systems(OnExit(AppState::InGame), close);
    }
}

fn close(mut commands: Commands) {
    commands.remove_resource::<Ground>();
    commands.remove_resource::<NavMap>();
    commands.remove_resource::<BuildingCategories>();
    commands.remove_resource::<MissionPaths>();
    commands.remove_resource::<BehaviorIni>();
}
