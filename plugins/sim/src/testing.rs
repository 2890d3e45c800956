//! Builders of synthetic worlds for tests and benches: a square map of square areals
//! over a height field (some areals left out as holes), units and buildings placed by
//! hand, and the game entered without a mission file.

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, ModelBounds, Movable, ObjectKind, OriginalObjectId, Owner, SimObject, SimTransform};
use iron3d_formats::world::{ArealMapBuilder, TerrainBuilder};
use iron3d_terrain::{Ground, MissionPath, MissionPaths, NavMap};

/// A square map of `side × side` areals of `size` units, heights from `height`;
/// areals for which `hole(i, j)` holds are left out (not walkable).
pub fn publish_map(
    world: &mut World,
    side: u16,
    size: f32,
    height: impl Fn(f32, f32) -> f32,
    hole: impl Fn(u16, u16) -> bool,
) -> iron3d_formats::Result<()> {
    let ground = TerrainBuilder::height_field(side, side, size, &height)?;
    let mut areals = ArealMapBuilder::new();
    for j in 0..side {
        for i in 0..side {
            if hole(i, j) {
                continue;
            }
            let (x0, y0) = (f32::from(i) * size, f32::from(j) * size);
            let corner = |x: f32, y: f32| [x, y, height(x, y)];
            areals.add_polygon(
                vec![corner(x0, y0), corner(x0 + size, y0), corner(x0 + size, y0 + size), corner(x0, y0 + size)],
                0,
                0,
            )?;
        }
    }
    world.insert_resource(Ground::new(&ground));
    world.insert_resource(NavMap::new(areals.build(128, 128)?));
    Ok(())
}

/// Publishes mission paths.
pub fn publish_paths(world: &mut World, paths: Vec<MissionPath>) {
    world.insert_resource(MissionPaths(paths));
}

/// Enters the game (from the menu) so the simulation ticks.
pub fn enter_game(app: &mut App) {
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
}

/// A unit of `radius` at XY (heading `heading`), owned by `clan`.
pub fn spawn_unit(world: &mut World, id: u32, clan: i32, at: [f32; 2], heading: f32, radius: f32) -> Entity {
    let bounds = ModelBounds { min: [-radius, -radius, 0.0], max: [radius, radius, 2.0 * radius] };
    let placement =
        SimTransform { position: [at[0], at[1], 0.0], orientation: [0.0, 0.0, heading], ..SimTransform::default() };
    world
        .spawn((
            OriginalObjectId(id),
            placement,
            Owner { clan, player: None },
            bounds,
            Movable,
            SimObject { kind: ObjectKind::Unit },
        ))
        .id()
}

/// A building with a box footprint of half extents `half` at XY.
pub fn spawn_building(world: &mut World, id: u32, at: [f32; 2], half: [f32; 2]) -> Entity {
    let bounds = ModelBounds { min: [-half[0], -half[1], 0.0], max: [half[0], half[1], 10.0] };
    let placement = SimTransform { position: [at[0], at[1], 0.0], ..SimTransform::default() };
    world
        .spawn((OriginalObjectId(id), placement, Owner::default(), bounds, SimObject { kind: ObjectKind::Building }))
        .id()
}

/// A cannon on node `node` as the demo's data gives it: unlimited rounds, a capacitor
/// of 2 paying 0.15 a shot, a 250 ms barrel stroke and 1 250 ms after it, a direct round of 44 + 1 flying 80
/// at 90 a second.
pub fn cannon(node: u16) -> iron3d_core::GunSheet {
    let hit = iron3d_core::HitSheet { kind: 2, damage: 1.0, radius: 0.0 };
    let round = iron3d_core::RoundSheet { speed: 90.0, range: 80.0, hit_points: 44.0, flags: 0, hit, seeker: None };
    iron3d_core::GunSheet {
        node,
        magazine: -1,
        capacitor: 2.0,
        shot_energy: 0.15,
        interval_ms: 1250.0,
        barrels: 1,
        volley: false,
        stroke_ms: Some(250.0),
        arm: false,
        round,
    }
}
