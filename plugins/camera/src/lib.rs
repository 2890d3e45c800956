//! Cameras over the mission (`docs/reference/runtime.md` §7): an RTS camera orbiting a focus on
//! the ground (edge scroll, zoom, rotate), free fly, following a unit, and first person
//! from a unit's `CameraCenter` control point while the player pilots it, or from outside
//! it with the outer camera (`CMD_JAMES_OUTER_CAMERA`, [`outer`]). On entering
//! a mission the camera frames the player's base. Each frame the rig is placed after
//! moving objects are (so a followed unit never lags) and published as
//! [`CameraFrame`] before transforms propagate, so the renderer, the sound listener
//! and the weather all see the same camera (frame order of §7.3).

mod command;
mod controls;
mod rig;

pub use command::{CommandMotion, Zoom};
pub use controls::{EDGE, edge_scroll};
pub use rig::{CENTER_RATE, CameraMode, DISTANCE, FREE_PITCH, GameCamera, RTS_PITCH, wrap};

use bevy::prelude::*;
use bevy::render::view::ColorGrading;
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, FrameSystems, MissionClans, MissionStart, ObjectTable, SimTransform, Weapon};
use iron3d_mission::{MissionObject, Registered};
use std::f32::consts::FRAC_PI_2;

/// The camera of this frame, as every consumer sees it.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default, Reflect)]
#[reflect(Resource)]
pub struct CameraFrame {
    /// Mode.
    pub mode: CameraMode,
    /// World transform (Bevy space).
    pub transform: Transform,
    /// Where it looks on the ground or at a unit (Bevy space).
    pub focus: Vec3,
    /// A first-person view seen from outside its unit ([`GameCamera::outer`]).
    pub outer: bool,
}

/// The game's mission camera ([`GameCamera`]), spawned at start-up and framing the
/// player's base on entering a mission. Named apart from Bevy's camera plugins.
#[derive(Debug, Default)]
pub struct GameCameraPlugin;

impl Plugin for GameCameraPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<GameCamera>()
            .register_type::<CameraFrame>()
            .init_resource::<CameraFrame>()
            .add_systems(Startup, spawn)
            .add_systems(OnEnter(AppState::InGame), frame_mission.in_set(MissionStart::Present))
            .add_systems(Update, (controls::controls, spotlight).chain().run_if(in_state(AppState::InGame)))
            .add_systems(PostUpdate, place.in_set(FrameSystems::Camera));
    }
}

/// The spotlight the camera carries.
#[derive(Component, Debug, Default, Reflect)]
#[reflect(Component)]
pub struct CameraSpotlight;

fn spawn(mut commands: Commands) {
    let rig = GameCamera::default();
    commands.spawn((Name::new("Game camera"), Camera3d::default(), rig.transform(), rig)).with_child((
        Name::new("Camera spotlight"),
        CameraSpotlight,
        SpotLight { intensity: 4.0e8, range: 600.0, outer_angle: 0.5, inner_angle: 0.35, ..default() },
        Visibility::Hidden,
    ));
}

/// Frames the player's base when a mission opens (resuming never re-enters the game):
/// the objects of the player's clan ([`MissionClans::player`]), or every object when
/// the mission has no player clan or it owns none.
fn frame_mission(
    clans: Option<Res<MissionClans>>,
    objects: Query<(&SimTransform, &MissionObject), With<Registered>>,
    mut cameras: Query<&mut GameCamera>,
) {
    let player = clans.and_then(|c| c.player()).and_then(|p| i32::try_from(p).ok());
    let of = |clan: Option<i32>| -> Vec<Vec3> {
        objects
            .iter()
            .filter(|(_, o)| clan.is_none_or(|p| o.clan == p))
            .map(|(t, _)| Vec3::from(to_bevy(t.position)))
            .collect()
    };
    let mut points = of(player);
    if points.is_empty() {
        points = of(None);
    }
    if points.is_empty() {
        return;
    }
    let (min, max) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    for mut cam in &mut cameras {
        cam.switch(CameraMode::Rts);
        cam.frame(min, max);
    }
}

/// Switches the spotlight with the rig.
fn spotlight(cameras: Query<(&GameCamera, &Children)>, mut lights: Query<&mut Visibility, With<CameraSpotlight>>) {
    for (cam, children) in &cameras {
        for &child in children {
            if let Ok(mut v) = lights.get_mut(child) {
                let want = if cam.spotlight { Visibility::Inherited } else { Visibility::Hidden };
                v.set_if_neq(want);
            }
        }
    }
}

/// The first-person view of a unit drawn at `unit`: at its `CameraCenter` point (or
/// above its middle without one), looking along its turret (or hull), tilted by `pitch`.
pub fn first_person(unit: &Transform, object: Option<&MissionObject>, turret: f32, pitch: f32) -> Transform {
    let center = object.and_then(|o| o.components.first()).and_then(|c| c.camera_center).unwrap_or([0.0, 0.0, 3.0]);
    let at = unit.translation + unit.rotation * (Vec3::from(to_bevy(center)) * unit.scale);
    // Game +X is a unit's front; a Bevy camera looks along -Z.
    let rotation = unit.rotation * Quat::from_rotation_y(turret - FRAC_PI_2) * Quat::from_rotation_x(pitch);
    Transform::from_translation(at).with_rotation(rotation)
}

/// The outer camera's distance behind the eye: this many times the unit's reach across
/// the ground, and [`OUTER_MARGIN`] more (the project's: the original's placement is not
/// read).
pub const OUTER_BACK: f32 = 2.5;
/// See [`OUTER_BACK`].
pub const OUTER_MARGIN: f32 = 6.0;
/// The outer camera's height above the eye, in units of the unit's reach (the project's).
pub const OUTER_LIFT: f32 = 0.8;

/// The outer camera of a unit of `reach` whose first-person view is `eye`: behind the eye
/// along its view across the ground and above it, looking at the eye, so the unit stands
/// in the middle of the view whichever way its turret turns.
pub fn outer(eye: &Transform, reach: f32) -> Transform {
    let ahead = Vec3::new(eye.forward().x, 0.0, eye.forward().z).try_normalize().unwrap_or(Vec3::NEG_Z);
    let at = eye.translation - ahead * (OUTER_BACK * reach + OUTER_MARGIN) + Vec3::Y * (OUTER_LIFT * reach);
    Transform::from_translation(at).looking_at(eye.translation, Vec3::Y)
}

/// Places every game camera (following or riding its unit) and publishes the frame.
fn place(
    table: Res<ObjectTable>,
    units: Query<(&Transform, Option<&MissionObject>, Option<&Weapon>), Without<GameCamera>>,
    mut cameras: Query<(&mut GameCamera, &mut Transform, Option<&mut ColorGrading>, Option<&mut Projection>, Entity)>,
    mut frame: ResMut<CameraFrame>,
    mut commands: Commands,
) {
    for (mut cam, mut transform, grading, projection, entity) in &mut cameras {
        let unit = |id: u32| table.entity_of(id).and_then(|e| units.get(e).ok());
        let placed = match cam.mode {
            CameraMode::Follow(id) => match unit(id) {
                Some((t, ..)) => {
                    cam.focus = t.translation;
                    cam.transform()
                }
                None => {
                    cam.switch(CameraMode::Rts);
                    cam.transform()
                }
            },
            CameraMode::FirstPerson(id) => match unit(id) {
                Some((t, object, weapon)) => {
                    let eye = first_person(t, object, weapon.map_or(0.0, |w| w.turret), cam.pitch);
                    match cam.outer {
                        true => outer(&eye, object.and_then(MissionObject::bounds).map_or(0.0, |b| b.reach())),
                        false => eye,
                    }
                }
                None => {
                    cam.switch(CameraMode::Rts);
                    cam.transform()
                }
            },
            CameraMode::Rts => {
                cam.keep_held();
                cam.transform()
            }
            CameraMode::FreeFly => cam.transform(),
        };
        transform.set_if_neq(placed);
        let fov = cam.lens.vertical();
        if let Some(mut projection) = projection
            && let Projection::Perspective(p) = &mut *projection
            && p.fov != fov
        {
            p.fov = fov;
        }
        // The infrared view: a bright monochrome grade.
        match (cam.infrared, grading) {
            (true, None) => {
                let mut g = ColorGrading::default();
                g.global.post_saturation = 0.0;
                g.global.exposure = 1.0;
                g.global.tint = 0.4;
                commands.entity(entity).insert(g);
            }
            (false, Some(_)) => {
                commands.entity(entity).remove::<ColorGrading>();
            }
            _ => {}
        }
        *frame = CameraFrame { mode: cam.mode, transform: placed, focus: cam.focus, outer: cam.outer };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_person_sits_at_the_camera_center_and_looks_ahead() {
        let unit = Transform::from_translation(Vec3::new(10.0, 0.0, 0.0));
        let object = MissionObject {
            key: "robot.dat".into(),
            components: vec![iron3d_mission::ObjectComponent {
                camera_center: Some([-1.0, 0.0, 4.0]),
                ..iron3d_mission::ObjectComponent::root("chassis")
            }],
            clan: 1,
        };
        let t = first_person(&unit, Some(&object), 0.0, 0.0);
        assert!(t.translation.distance(Vec3::new(9.0, 4.0, 0.0)) < 1e-5, "{}", t.translation);
        assert!(t.forward().dot(Vec3::X) > 0.999, "looks along game +X: {:?}", t.forward());
        // Turret turned a quarter left (counter-clockwise seen from above: game +Y).
        let left = first_person(&unit, Some(&object), FRAC_PI_2, 0.0);
        assert!(left.forward().dot(Vec3::from(to_bevy([0.0, 1.0, 0.0]))) > 0.999, "{:?}", left.forward());
    }

    /// The outer camera stands behind the eye along its view across the ground, above it,
    /// and looks at it; any switch of mode turns it off.
    #[test]
    fn the_outer_camera_looks_at_the_eye_from_behind_and_above() {
        let unit = Transform::from_translation(Vec3::new(10.0, 0.0, 0.0));
        let eye = first_person(&unit, None, FRAC_PI_2, 0.3);
        let reach = 8.0;
        let t = outer(&eye, reach);
        let to_eye = eye.translation - t.translation;
        assert!(t.forward().dot(to_eye.normalize()) > 0.999, "looks at the eye");
        let ahead = Vec3::new(eye.forward().x, 0.0, eye.forward().z).normalize();
        let back = Vec3::new(to_eye.x, 0.0, to_eye.z);
        assert!(
            (back.length() - (OUTER_BACK * reach + OUTER_MARGIN)).abs() < 1e-3 && back.normalize().dot(ahead) > 0.999
        );
        assert!((t.translation.y - eye.translation.y - OUTER_LIFT * reach).abs() < 1e-4, "above the eye");
        let mut cam = GameCamera { mode: CameraMode::FirstPerson(1), outer: true, ..GameCamera::default() };
        cam.switch(CameraMode::FirstPerson(2));
        assert!(!cam.outer, "a switch of mode turns the outer camera off");
    }

    struct NoFiles;

    impl iron3d_core::ScriptFiles for NoFiles {
        fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
            Ok(None)
        }
    }

    fn clan(index: u32, mode: u32) -> iron3d_core::ClanSetup {
        iron3d_core::ClanSetup { minds: 17, ..iron3d_core::ClanSetup::bare(index, &format!("clan {index}"), mode) }
    }

    #[test]
    fn the_first_frame_is_the_players_base_when_the_player_is_clan_0() {
        use bevy::ecs::system::RunSystemOnce;
        let mut world = World::new();
        let clans = vec![clan(0, 1), clan(1, 2)];
        world.insert_resource(MissionClans { clans, files: std::sync::Arc::new(NoFiles) });
        for (clan, x) in [(0, 100.0), (0, 120.0), (1, 900.0), (1, 920.0)] {
            let object = MissionObject { key: "unit.dat".into(), components: Vec::new(), clan };
            let place = SimTransform { position: [x, 50.0, 0.0], orientation: [0.0; 3], scale: [1.0; 3] };
            world.spawn((place, object, Registered));
        }
        let camera = world.spawn(GameCamera::default()).id();
        world.run_system_once(frame_mission).unwrap();
        let focus = world.get::<GameCamera>(camera).unwrap().focus;
        let base = Vec3::from(to_bevy([110.0, 50.0, 0.0]));
        assert!(focus.distance(base) < 1.0, "frames clan 0's base at {base}, not the enemy's: {focus}");
    }
}
