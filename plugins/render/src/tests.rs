//! Headless checks of model assembly on the committed demo tree: a mission loads, the
//! renderer spawns piece hierarchies, and transform propagation puts an asymmetric
//! unit (a weapon on a turret on a chassis, pointing forward) where the spec's
//! formulas put it. No GPU: materials and meshes are only assets here.

use super::*;
use crate::fast_shading::FastMaterial;
use crate::materials::AnimatedMaterial;
use crate::models::{AnimatedPiece, ModelPart, ModelPiece, ModelState, ObjectModel};
use crate::terrain::TerrainRoot;
use crate::turret::TurretPiece;
use bevy::asset::AssetMetaCheck;
use bevy::camera::visibility::VisibilityRange;
use bevy::light::cluster::{ClusterConfig, GlobalClusterGpuSettings, GlobalClusterSettings};
use bevy::state::app::StatesPlugin;
use iron3d_assets::axes::{game_rotation, to_bevy};
use iron3d_assets::{GameLoadersPlugin, GameSourcePlugin, MshAsset};
use iron3d_core::{CorePlugin, PieceAnimation};
use iron3d_demo::models::robots::{CHASSIS_MOUNT, TURRET_MOUNT};
use iron3d_formats::ReadOptions;
use iron3d_formats::model::mesh_build::{Pose, QuaternionSense, node_transforms};
use iron3d_formats::world::Tma;
use iron3d_mission::{MissionObject, MissionPlugin, load_headless};
use iron3d_vfs::GameDir;
use std::sync::Arc;

const MISSION: &str = "tutorial.01";

/// The committed demo tree.
pub(crate) fn demo() -> Arc<GameDir> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    Arc::new(GameDir::open(root, ReadOptions::compatible()).unwrap())
}

/// A headless app over `game`: core, assets through `game://` with the game's loaders,
/// materials as plain assets (no GPU).
pub(crate) fn headless_app(game: &Arc<GameDir>) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        StatesPlugin,
        GameSourcePlugin { game: Arc::clone(game) },
        AssetPlugin {
            file_path: game.root().to_string_lossy().into_owned(),
            meta_check: AssetMetaCheck::Never,
            ..default()
        },
        GameLoadersPlugin,
        CorePlugin,
    ));
    app.init_asset::<StandardMaterial>();
    app
}

/// A beam weapon of the rules' first kind, its turret at `turret` radians.
pub(crate) fn beam_weapon(turret: f32) -> iron3d_core::Weapon {
    iron3d_core::Weapon { kind: 0, range: 80.0, damage: 1.0, projectile_speed: 0.0, turn_rate: 1.0, turret }
}

/// A headless app with the mission loaded and every model attached (bounded wait).
fn loaded_app(game: &Arc<GameDir>) -> App {
    let mut app = headless_app(game);
    app.add_plugins((MissionPlugin, MissionRenderPlugin));
    load_headless(&mut app, game, MISSION).expect("the mission loads");
    for _ in 0..3000 {
        app.update();
        let stats = app.world().resource::<RenderStats>();
        if stats.instances > 0 && stats.pending == 0 {
            app.update();
            return app;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("models did not settle: {:?}", app.world().resource::<RenderStats>());
}

/// Updates until the terrain is drawn (bounded wait).
fn wait_for_terrain(app: &mut App) {
    for _ in 0..500 {
        if app.world().resource::<TerrainView>().bounds.is_some() {
            return;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-3
}

#[test]
fn units_assemble_on_their_mounts_and_sit_where_the_spec_places_them() {
    let game = demo();
    let mut app = loaded_app(&game);
    let stats = app.world().resource::<RenderStats>().clone();
    assert_eq!(stats.failed, 0, "{stats:?}");
    assert!(stats.lightmapped > 0, "buildings are lightmapped: {stats:?}");

    // The placed object of a unit scheme, and its TMA record (ids are record indices).
    let tma =
        Tma::parse(&game.read_file(&format!("MISSIONS/{MISSION}/data.tma")).unwrap(), ReadOptions::strict()).unwrap();
    let world = app.world_mut();
    let mut objects = world.query::<(Entity, &MissionObject, &iron3d_core::OriginalObjectId)>();
    let (unit, object, id) =
        objects.iter(world).find(|(_, o, _)| o.components.len() == 3).map(|(e, o, i)| (e, o.clone(), i.0)).unwrap();
    let record = &tma.objects[id as usize];

    // Its pieces: the turret's first piece hangs from the chassis mount, the weapon's from
    // the turret mount, and no attached model keeps its virtual root.
    let mut pieces = world.query::<(Entity, &ModelPiece, &ChildOf, &GlobalTransform)>();
    let mine: Vec<(Entity, ModelPiece, Entity, GlobalTransform)> = pieces
        .iter(world)
        .filter(|(e, ..)| world.get::<ChildOf>(*e).is_some())
        .map(|(e, p, c, g)| (e, p.clone(), c.parent(), *g))
        .filter(|(e, ..)| {
            std::iter::successors(Some(*e), |x| world.get::<ChildOf>(*x).map(ChildOf::parent)).any(|x| x == unit)
        })
        .collect();
    let piece =
        |component: usize, node: usize| mine.iter().find(|p| p.1.component == component && p.1.node == node).unwrap();
    assert!(mine.iter().all(|p| p.1.component == 0 || p.1.node != 0), "virtual roots are skipped");
    assert_eq!(piece(1, 1).2, piece(0, CHASSIS_MOUNT).0, "turret on the chassis mount");
    assert_eq!(piece(2, 1).2, piece(1, TURRET_MOUNT).0, "weapon on the turret mount");

    // Expected barrel position by the spec: p_world = T + R·(S ∘ p) with p composed from
    // the rest poses of chassis mount → turret mount → weapon barrel (game space).
    let rest = |key: &str| {
        let models = world.resource::<Assets<MshAsset>>();
        let component = object.components.iter().position(|c| c.key == key).unwrap();
        let handle = &mine.iter().find(|p| p.1.component == component).unwrap().1.model;
        node_transforms(&models.get(handle).unwrap().model, Pose::Rest, QuaternionSense::default())
    };
    let (chassis, turret, weapon) =
        (rest(&object.components[0].key), rest(&object.components[1].key), rest(&object.components[2].key));
    assert_eq!(turret[0].translation, [0.0; 3], "attached roots sit at their origin");
    let barrel = weapon.len() - 1;
    let local = chassis[CHASSIS_MOUNT].then(&turret[TURRET_MOUNT]).then(&weapon[barrel]);
    let r = game_rotation(record.orientation);
    let s = Vec3::from(record.scale);
    let expected = Vec3::from(record.position) + r * (s * Vec3::from(local.translation));
    let got = piece(2, barrel).3.translation();
    assert!(close(got, Vec3::from(to_bevy(expected.into()))), "barrel at {got:?}, spec {expected:?}");
    // The barrel points along the object's forward (game +X turned by its orientation).
    let forward = piece(2, barrel).3.rotation() * Vec3::X;
    assert!(close(forward, Vec3::from(to_bevy((r * Vec3::X).into()))), "forward {forward:?}");
}

#[test]
fn turrets_turn_with_the_turret_heading_combat_keeps() {
    let game = demo();
    let mut app = loaded_app(&game);
    let world = app.world_mut();
    let mut turrets = world.query::<(Entity, &TurretPiece, &ModelPiece)>();
    let (piece, turret, model_piece) =
        turrets.iter(world).next().map(|(e, t, p)| (e, *t, p.clone())).expect("the demo robots have turrets");
    assert_eq!(model_piece.component, 1, "the turret component's first piece");
    // The demo chassis carry their mount at the CTPT TurretCenter: the turret turns
    // about that point, which is the mount's origin, about the chassis' up.
    assert!(turret.centred, "the pivot comes from the chassis' TurretCenter");
    assert!(turret.pivot.length() < 1e-5 && (turret.axis - Vec3::Y).length() < 1e-5, "{turret:?}");
    world.entity_mut(turret.object).insert(beam_weapon(std::f32::consts::FRAC_PI_2));
    app.update();
    let now = *app.world().get::<Transform>(piece).unwrap();
    let expected = turret.ahead.rotation * Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    assert!(now.rotation.abs_diff_eq(expected, 1e-6), "{now:?}");
    assert!(now.rotation.angle_between(turret.ahead.rotation) > 1.5, "a quarter turn from straight ahead");
}

#[test]
fn pieces_follow_the_animation_control_owns() {
    let game = demo();
    let mut app = loaded_app(&game);
    let world = app.world_mut();
    let mut animated = world.query::<(Entity, &ModelPiece, &AnimatedPiece, &Transform)>();
    let (entity, piece, link, transform) = animated
        .iter(world)
        .next()
        .map(|(e, p, a, t)| (e, p.clone(), *a, *t))
        .expect("the demo has cycling CTLD bindings");
    // The initial pose is the binding's frame, not the node's rest pose.
    let model = world.resource::<Assets<MshAsset>>().get(&piece.model).unwrap().clone();
    let rest = model.nodes[piece.node].rest;
    assert!(transform.rotation.angle_between(rest.rotation) > 0.5, "posed away from rest: {transform:?}");
    // Without the simulation nothing advances: the renderer only reads the animation.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(*app.world().get::<Transform>(entity).unwrap(), transform, "the renderer drives no piece");
    // Control advances the binding; the piece is re-posed at the new frame.
    let mut animation = app.world_mut().get_mut::<PieceAnimation>(link.object).unwrap();
    let binding = &mut animation.bindings[link.binding];
    binding.advance(3.0);
    let frame = binding.frame();
    app.update();
    let now = *app.world().get::<Transform>(entity).unwrap();
    let expected = model.pose(piece.node, frame).rotation;
    assert!(now.rotation.abs_diff_eq(expected, 1e-6), "{now:?} posed at frame {frame} ({expected:?})");
    assert!(!now.rotation.abs_diff_eq(transform.rotation, 1e-4), "the pose moved with the binding");
}

#[test]
fn animated_terrain_materials_follow_game_time() {
    let game = demo();
    let mut app = loaded_app(&game);
    wait_for_terrain(&mut app);
    let world = app.world_mut();
    let mut roots = world.query_filtered::<Entity, With<TerrainRoot>>();
    let root = roots.single(world).expect("the terrain is drawn");
    // The lake's flowing water: an animator under the terrain root drives the material
    // of one of its layers.
    let mut animated = world.query::<(&AnimatedMaterial, &ChildOf)>();
    let water: Vec<AssetId<StandardMaterial>> =
        animated.iter(world).filter(|(_, c)| c.parent() == root).map(|(a, _)| a.material.id()).collect();
    assert!(!water.is_empty(), "the demo's water material is animated");
    let mut layers = world.query::<(&MeshMaterial3d<StandardMaterial>, &ChildOf)>();
    assert!(layers.iter(world).any(|(m, c)| c.parent() == root && water.contains(&m.0.id())));
}

#[test]
fn objects_that_never_move_a_piece_are_drawn_merged_at_every_level_of_detail() {
    let game = demo();
    let mut app = loaded_app(&game);
    assert!(app.world().resource::<RenderStats>().merged > 0, "the demo's scenery never moves a piece");
    let world = app.world_mut();
    let mut objects = world.query::<(Entity, &ObjectModel, &Children)>();
    let merged: Vec<(Entity, Vec<Entity>)> = objects
        .iter(world)
        .filter(|(_, m, _)| m.state == ModelState::Ready)
        .map(|(e, _, c)| (e, c.iter().collect::<Vec<_>>()))
        .filter(|(_, children)| children.iter().any(|c| world.get::<ModelPart>(*c).is_some()))
        .collect();
    assert!(!merged.is_empty(), "merged parts hang from their object");
    for (object, children) in &merged {
        assert!(children.iter().all(|c| world.get::<ModelPiece>(*c).is_none()), "no piece hierarchy");
        // The demo models have three levels; each hands over where the next begins.
        let mut levels: Vec<(usize, f32, f32)> = children
            .iter()
            .filter_map(|c| Some((world.get::<ModelPart>(*c)?.level, world.get::<VisibilityRange>(*c)?)))
            .map(|(l, r)| (l, r.start_margin.start, r.end_margin.end))
            .collect();
        levels.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        levels.dedup();
        assert_eq!(levels.iter().map(|l| l.0).collect::<Vec<_>>(), [0, 1, 2], "{object:?}: {levels:?}");
        assert_eq!((levels[0].1, levels[0].2), (0.0, levels[1].1));
        assert_eq!(levels[1].2, levels[2].1);
        assert_eq!(levels[2].2, f32::INFINITY);
    }
}

#[test]
fn parts_of_moving_pieces_switch_levels_too() {
    let game = demo();
    let mut app = loaded_app(&game);
    let stats = app.world().resource::<RenderStats>().clone();
    assert!(stats.coarser_parts > 0, "{stats:?}");
    let world = app.world_mut();
    let mut parts = world.query::<(&ModelPart, &ChildOf, Option<&VisibilityRange>)>();
    let under_pieces: Vec<(usize, bool)> = parts
        .iter(world)
        .filter(|(_, c, _)| world.get::<ModelPiece>(c.parent()).is_some())
        .map(|(p, _, r)| (p.level, r.is_some()))
        .collect();
    assert!(under_pieces.iter().any(|(l, _)| *l > 0), "pieces carry coarser levels");
    assert!(under_pieces.iter().filter(|(l, _)| *l > 0).all(|(_, ranged)| *ranged), "every coarser part has a range");
}

#[test]
fn models_naming_the_same_mat0_share_one_material() {
    let game = demo();
    let mut app = loaded_app(&game);
    let world = app.world_mut();
    let mut parts = world.query_filtered::<&MeshMaterial3d<StandardMaterial>, With<ModelPart>>();
    let used: std::collections::HashSet<AssetId<StandardMaterial>> = parts.iter(world).map(|m| m.0.id()).collect();
    let wear_rows: usize =
        world.resource::<Assets<iron3d_assets::WearAsset>>().iter().map(|(_, w)| w.materials.len()).sum();
    let mat0s = world.resource::<Assets<iron3d_assets::Mat0Asset>>().len();
    // One material per MAT0 (plus the grey of rows without one), far fewer than the
    // WEAR rows naming them.
    assert!(used.len() <= mat0s + 1, "{} materials for {mat0s} MAT0s", used.len());
    assert!(used.len() < wear_rows, "{} materials for {wear_rows} WEAR rows", used.len());
}

#[test]
fn fast_shading_swaps_every_layer_and_part_and_follows_its_source() {
    assert!(Shading::Auto.fast(true) && !Shading::Auto.fast(false), "auto: fast on a software renderer only");
    assert!(Shading::Fast.fast(false) && !Shading::Full.fast(true));
    let game = demo();
    let mut app = loaded_app(&game);
    wait_for_terrain(&mut app);
    let camera = app.world_mut().spawn(Camera3d::default()).id();
    // What `PbrPlugin` would insert on a device with compute shaders.
    let gpu = GlobalClusterGpuSettings { initial_z_slice_list_capacity: 64, initial_index_list_capacity: 256 };
    app.insert_resource(GlobalClusterSettings {
        supports_storage_buffers: true,
        clustered_decals_are_usable: false,
        gpu_clustering: Some(gpu),
        max_uniform_buffer_clusterable_objects: 256,
        view_cluster_bindings_max_indices: 1024,
    });
    let gpu_clustering = |app: &App| app.world().resource::<GlobalClusterSettings>().gpu_clustering.is_some();
    let one_cluster = |app: &App| {
        matches!(app.world().get::<ClusterConfig>(camera), Some(ClusterConfig::XYZ { dimensions: UVec3::ONE, .. }))
    };
    fn shown(app: &mut App) -> [usize; 2] {
        let world = app.world_mut();
        let fast =
            world.query_filtered::<(), (With<FastShaded>, With<MeshMaterial3d<FastMaterial>>)>().iter(world).count();
        let full = world
            .query_filtered::<(), (With<FastShaded>, With<MeshMaterial3d<StandardMaterial>>)>()
            .iter(world)
            .count();
        [fast, full]
    }
    let [none, all] = shown(&mut app);
    assert_eq!(none, 0, "no renderer here: auto shades fully");
    let mut layers = app.world_mut().query_filtered::<(), (With<FastShaded>, Without<ModelPart>)>();
    assert!(layers.iter(app.world()).count() > 0 && all > layers.iter(app.world()).count(), "layers and parts");

    app.insert_resource(Shading::Fast);
    app.update();
    assert_eq!(shown(&mut app), [all, 0], "every layer and part is shaded fast");
    assert!(one_cluster(&app), "the fast shader reads the lights of one cluster");
    assert!(!gpu_clustering(&app), "clustered on the CPU: GPU clustering leaves one cluster empty");
    let pairs = |app: &mut App| -> Vec<(Handle<StandardMaterial>, Handle<FastMaterial>)> {
        let world = app.world_mut();
        let mut q = world.query::<(&FastShaded, &MeshMaterial3d<FastMaterial>)>();
        q.iter(world).map(|(s, m)| (s.full.clone(), m.0.clone())).collect()
    };
    let equal = |app: &App, (full, fast): &(Handle<StandardMaterial>, Handle<FastMaterial>)| {
        let source = app.world().resource::<Assets<StandardMaterial>>().get(full).unwrap();
        app.world().resource::<Assets<FastMaterial>>().get(fast) == Some(&FastMaterial::from(source))
    };
    let made = pairs(&mut app);
    assert!(made.iter().all(|p| equal(&app, p)), "each fast material is made from its source");

    // A source changes (as animated materials do): its fast material follows. The source
    // is one that does not animate, so that only this change moves it.
    let (full, fast) = {
        let world = app.world_mut();
        let animated: Vec<_> = world.query::<&AnimatedMaterial>().iter(world).map(|a| a.material.id()).collect();
        made.iter().find(|(full, _)| !animated.contains(&full.id())).unwrap().clone()
    };
    app.world_mut().resource_mut::<Assets<StandardMaterial>>().get_mut(&full).unwrap().base_color =
        Color::srgb(0.1, 0.9, 0.2);
    // The change is announced at the end of this frame and followed in the next.
    app.update();
    app.update();
    assert!(pairs(&mut app).iter().filter(|p| p.0 == full).all(|p| equal(&app, p)));
    assert_eq!(
        app.world().resource::<Assets<FastMaterial>>().get(&fast).unwrap().uniform.color,
        Color::srgb(0.1, 0.9, 0.2).to_linear().to_vec4()
    );

    app.insert_resource(Shading::Full);
    app.update();
    assert_eq!(shown(&mut app), [0, all], "back to full shading");
    assert!(!one_cluster(&app) && app.world().get::<ClusterConfig>(camera).is_some(), "Bevy's clusters again");
    assert!(gpu_clustering(&app), "and Bevy's clustering");
}

/// The own panel's view (`docs/35-hud.md`, "The unit in the middle"): the unit asked for is
/// copied alone onto the view's layer, each part coloured by its node's life, the camera
/// 2r behind it looking along its forward; asked for nothing, the view stops.
#[test]
fn a_panels_view_shows_its_unit_alone_each_part_coloured_by_its_nodes_life() {
    use crate::unit_views::{PANEL_LENS, ViewCamera, ViewCopy, part_colour};
    use bevy::camera::visibility::RenderLayers;
    let game = demo();
    let mut app = loaded_app(&game);
    let world = app.world_mut();
    let mut units = world.query::<(Entity, &MissionObject, &iron3d_core::CombatSheet)>();
    let (unit, sheet) =
        units.iter(world).find(|(_, o, _)| o.components.len() == 3).map(|(e, _, s)| (e, s.clone())).unwrap();
    // The turret's own node destroyed.
    let turret = sheet.node_of(1, 1).expect("the turret's node");
    let mut body = iron3d_combat::Body::from_sheet(&sheet, 1.0);
    body.nodes[usize::from(turret)].life = 0.0;
    world.entity_mut(unit).insert(body);
    give_boxes(&mut app);
    for _ in 0..3 {
        app.world_mut().resource_mut::<UnitViews>().show(OWN_VIEW, unit);
        app.update();
    }
    let world = app.world_mut();
    let drawn = world
        .query_filtered::<Entity, With<ModelPart>>()
        .iter(world)
        .filter(|&p| {
            std::iter::successors(Some(p), |x| world.get::<ChildOf>(*x).map(ChildOf::parent)).any(|x| x == unit)
        })
        .count();
    let mut copies = world.query::<(&ViewCopy, &MeshMaterial3d<StandardMaterial>, &RenderLayers)>();
    let copies: Vec<(ViewCopy, Handle<StandardMaterial>, RenderLayers)> =
        copies.iter(world).map(|(c, m, l)| (*c, m.0.clone(), l.clone())).collect();
    assert_eq!(copies.len(), drawn, "a copy of each drawn part of the unit");
    assert!(copies.iter().all(|(c, _, l)| c.view == OWN_VIEW && *l == RenderLayers::layer(2)));
    let colour = |m: &Handle<StandardMaterial>| {
        world.resource::<Assets<StandardMaterial>>().get(m).unwrap().base_color.to_srgba()
    };
    let [r, g, b] = part_colour(0.0);
    let red = Color::srgb(r, g, b).to_srgba();
    let on_turret: Vec<_> = copies.iter().filter(|(c, ..)| c.node == Some(turret)).collect();
    assert!(!on_turret.is_empty() && on_turret.iter().all(|(_, m, _)| colour(m) == red), "the destroyed turret is red");
    let [r, g, b] = part_colour(1.0);
    let green = Color::srgb(r, g, b).to_srgba();
    assert!(copies.iter().any(|(c, m, _)| c.node == Some(0) && colour(m) == green), "the intact chassis is green");
    // The camera: active, behind the unit along its forward, at the framing's distance.
    assert!(world.resource::<UnitViews>().drawing(OWN_VIEW));
    let mut cameras = world.query::<(&ViewCamera, &Camera, &GlobalTransform, &Projection)>();
    let (_, camera, eye, projection) = cameras.iter(world).find(|(v, ..)| v.0 == OWN_VIEW).unwrap();
    assert!(camera.is_active);
    let at = *world.get::<GlobalTransform>(unit).unwrap();
    let forward = at.rotation() * Vec3::X;
    let look = eye.rotation() * Vec3::NEG_Z;
    assert!(look.abs_diff_eq(forward, 1e-4), "looks along the unit's forward: {look} {forward}");
    let Projection::Perspective(p) = projection else { panic!("a perspective view") };
    assert!(
        (p.fov - PANEL_LENS.framing(1.0).1).abs() < 1e-6,
        "a robot's sphere is framed at 75°: {}",
        p.fov.to_degrees()
    );
    assert!((at.translation() - eye.translation()).dot(forward) > 0.0, "the eye stands behind the unit");
    // Asked for nothing, the view stops.
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&ViewCopy>().iter(world).count(), 0);
    assert!(!world.resource::<UnitViews>().drawing(OWN_VIEW));
}

/// Gives every drawn part its box, as Bevy's bounds would with a renderer.
fn give_boxes(app: &mut App) {
    use bevy::camera::primitives::{Aabb, MeshAabb};
    let world = app.world_mut();
    let mut parts = world.query_filtered::<(Entity, &Mesh3d), (With<ModelPart>, Without<Aabb>)>();
    let boxes: Vec<(Entity, Aabb)> = parts
        .iter(world)
        .filter_map(|(e, m)| Some((e, world.resource::<Assets<Mesh>>().get(&m.0)?.compute_aabb()?)))
        .collect();
    for (e, aabb) in boxes {
        world.entity_mut(e).insert(aabb);
    }
}

/// The first placed object of the loaded mission that `pick` takes.
fn placed_object(app: &mut App, pick: impl Fn(&MissionObject) -> bool) -> MissionObject {
    let world = app.world_mut();
    world.query::<&MissionObject>().iter(world).find(|o| pick(o)).expect("the demo places one").clone()
}

/// The designer's previews (`docs/37-designer.md`, "The previews"): a part by its key and
/// a design by its unit file are built alone on their preview's layer, their centre at
/// the origin, turning, framed 2r off at 60°; asked for nothing, the preview goes.
#[test]
fn the_designers_previews_turn_a_part_and_a_design_alone_about_the_origin() {
    use crate::model_view::sphere_about;
    use crate::previews::{ModelPreview, PREVIEW_LENS, PROJECT_PREVIEW, PreviewCamera, SOURCE_PREVIEW, Subject};
    use bevy::camera::primitives::Aabb;
    use bevy::camera::visibility::RenderLayers;
    let game = demo();
    let mut app = loaded_app(&game);
    let unit = placed_object(&mut app, |o| o.components.len() == 3);
    let scheme = game.read_file(&unit.key).expect("the unit's scheme");
    let chassis = Subject::Part(unit.components[0].key.clone());
    let frames = |app: &mut App, n: usize| {
        for _ in 0..n {
            let mut previews = app.world_mut().resource_mut::<crate::ModelPreviews>();
            previews.show(SOURCE_PREVIEW, chassis.clone());
            previews.show(PROJECT_PREVIEW, Subject::Design(scheme.clone()));
            app.update();
            give_boxes(app);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    };
    frames(&mut app, 200);
    let world = app.world_mut();
    let mut previews = world.query::<(Entity, &ModelPreview, &MissionObject, &Transform)>();
    let shown: Vec<(Entity, usize, usize, Quat)> =
        previews.iter(world).map(|(e, p, o, t)| (e, p.0, o.components.len(), t.rotation)).collect();
    assert_eq!(shown.len(), 2, "{shown:?}");
    let (design, _, components, turn) = *shown.iter().find(|s| s.1 == PROJECT_PREVIEW).unwrap();
    assert_eq!(components, 3, "the design's chassis, turret and gun");
    assert_eq!(shown.iter().find(|s| s.1 == SOURCE_PREVIEW).unwrap().2, 1, "the part alone");
    // Its parts on the project's layer, their boxes' centre at the origin.
    let parts: Vec<Entity> = world
        .query_filtered::<Entity, With<ModelPart>>()
        .iter(world)
        .filter(|&p| {
            std::iter::successors(Some(p), |x| world.get::<ChildOf>(*x).map(ChildOf::parent)).any(|x| x == design)
        })
        .collect();
    assert!(!parts.is_empty());
    assert!(parts.iter().all(|&p| world.get::<RenderLayers>(p) == Some(&RenderLayers::layer(5))));
    let boxes: Vec<(&GlobalTransform, &Aabb)> =
        parts.iter().map(|&p| (world.get::<GlobalTransform>(p).unwrap(), world.get::<Aabb>(p).unwrap())).collect();
    let root = *world.get::<GlobalTransform>(design).unwrap();
    let (centre, r) = sphere_about(root.affine().inverse(), boxes).unwrap();
    let centre = root.transform_point(centre);
    assert!(centre.length() < 1e-3 * r.max(1.0), "the model's centre at the origin: {centre}");
    // Its camera: on, 2r off at 60°.
    let mut cameras = world.query::<(&PreviewCamera, &Camera, &GlobalTransform, &Projection)>();
    let (_, camera, eye, projection) = cameras.iter(world).find(|(v, ..)| v.0 == PROJECT_PREVIEW).unwrap();
    assert!(camera.is_active && world.resource::<crate::ModelPreviews>().drawing(PROJECT_PREVIEW));
    let (distance, field) = PREVIEW_LENS.framing(r);
    assert!((eye.translation().length() - distance).abs() < 1e-3 * distance, "{} vs {distance}", eye.translation());
    let Projection::Perspective(p) = projection else { panic!("a perspective view") };
    assert!((p.fov - field).abs() < 1e-5);
    // It turns.
    frames(&mut app, 5);
    let now = app.world().get::<Transform>(design).unwrap().rotation;
    assert!(now.angle_between(turn) > 1e-4, "the model turns");
    // Asked for nothing, the previews go.
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&ModelPreview>().iter(world).count(), 0);
    assert!(!world.resource::<crate::ModelPreviews>().drawing(PROJECT_PREVIEW));
}

/// The model a building is placed by (`docs/32-builder.md`, "The model under the
/// cursor"): the scheme's first building's root part alone, at the site turned by its yaw,
/// its parts in one flat colour only (fast shading on, as on a software renderer), red
/// and then green as the site becomes placeable; asked for nothing, it goes.
#[test]
fn a_site_shows_the_bare_building_in_one_flat_colour_red_or_green() {
    use crate::fast_shading::FastMaterial;
    use crate::site_model::{FlatMaterial, SiteModel};
    let game = demo();
    let mut app = loaded_app(&game);
    *app.world_mut().resource_mut::<crate::Shading>() = crate::Shading::Fast;
    let building = placed_object(&mut app, |o| o.key.to_ascii_lowercase().contains("builds"));
    let ask =
        |placeable| crate::SiteAsk { scheme: building.key.clone(), at: [100.0, 200.0, 5.0], angle: 0.5, placeable };
    let frames = |app: &mut App, n: usize, placeable: bool| {
        for _ in 0..n {
            app.world_mut().resource_mut::<crate::SiteModels>().show(ask(placeable));
            app.update();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    };
    frames(&mut app, 100, false);
    let world = app.world_mut();
    let object = world.resource::<crate::SiteModels>().object().expect("the model is made");
    let model = world.get::<MissionObject>(object).unwrap();
    assert_eq!(model.components.len(), 1, "the root part alone of {} parts", building.components.len());
    assert_eq!(model.components[0].key, building.components[0].key);
    let at = world.get::<Transform>(object).unwrap();
    assert_eq!(at.translation, Vec3::from(iron3d_assets::axes::to_bevy([100.0, 200.0, 5.0])));
    let colours = |world: &mut World| {
        let mut parts = world.query_filtered::<(Entity, Option<&MeshMaterial3d<FlatMaterial>>), With<ModelPart>>();
        let mine: Vec<_> = parts
            .iter(world)
            .filter(|(p, _)| {
                std::iter::successors(Some(*p), |x| world.get::<ChildOf>(*x).map(ChildOf::parent)).any(|x| x == object)
            })
            .map(|(p, m)| {
                let other = world.get::<MeshMaterial3d<FastMaterial>>(p).is_some()
                    || world.get::<MeshMaterial3d<StandardMaterial>>(p).is_some();
                assert!(!other, "a part of the model keeps another material");
                m.map(|m| world.resource::<Assets<FlatMaterial>>().get(&m.0).unwrap().base.base_color)
            })
            .collect();
        assert!(!mine.is_empty(), "the model has parts");
        mine
    };
    let red = Color::srgb(1.0, 0.0, 0.0);
    assert!(colours(world).iter().all(|c| *c == Some(red)), "red where it may not be placed");
    assert!(world.get::<SiteModel>(object).is_some_and(|m| !m.placeable));
    frames(&mut app, 2, true);
    let green = Color::srgb(0.0, 1.0, 0.0);
    assert!(colours(app.world_mut()).iter().all(|c| *c == Some(green)), "green where it may");
    app.update();
    app.update();
    assert!(app.world().resource::<crate::SiteModels>().object().is_none(), "asked for nothing, it goes");
    let world = app.world_mut();
    assert_eq!(world.query::<&SiteModel>().iter(world).count(), 0);
}
