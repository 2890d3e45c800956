//! Free-fly camera: W/A/S/D move, E/Space up, Q/Ctrl down, Shift multiplies the speed,
//! the mouse wheel changes the base speed, mouse look while the right button is held.
//! The camera is the [`StreamFocus`]; its velocity drives the streaming lookahead. It
//! starts above the track nearest to the centre of the sectioned area, looking along it.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;

use crate::LoadedScenery;
use crate::streaming::{SectionStreamer, StreamFocus};

/// Spawns and drives the free-fly camera.
#[derive(Debug, Clone, Copy, Default)]
pub struct FlyCameraPlugin;

/// Free-fly camera state.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct FlyCamera {
    /// Base speed in m/s.
    pub speed: f32,
    /// Speed multiplier while Shift is held.
    pub boost: f32,
    /// Radians per pixel of mouse motion.
    pub sensitivity: f32,
    /// Heading in radians (0 looks along −Z).
    pub yaw: f32,
    /// Pitch in radians (negative looks down).
    pub pitch: f32,
}

impl Default for FlyCamera {
    fn default() -> Self {
        Self { speed: 40.0, boost: 10.0, sensitivity: 0.003, yaw: 0.0, pitch: -0.25 }
    }
}

impl FlyCamera {
    fn rotation(&self) -> Quat {
        Quat::from_euler(EulerRot::YXZ, self.yaw, self.pitch, 0.0)
    }
}

impl Plugin for FlyCameraPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<FlyCamera>()
            .add_systems(Startup, spawn_camera.after(crate::streaming::init_planner))
            .add_systems(Update, fly.before(crate::streaming::StreamingSystems));
    }
}

/// Start position and heading: above the track nearest to `centre`, looking along it.
fn start_pose(scenery: &LoadedScenery, centre: Vec2) -> (Vec3, f32) {
    let Some(data) = &scenery.data else { return (Vec3::new(centre.x, 30.0, centre.y), 0.0) };
    let tracks = data.world_tracks();
    let nearest = tracks
        .iter()
        .filter_map(|t| t.paths.first())
        .map(|p| (Vec3::from_array(p.p_start), Vec3::from_array(p.p_end)))
        .min_by(|a, b| a.0.xz().distance(centre).total_cmp(&b.0.xz().distance(centre)));
    match nearest {
        Some((start, end)) => {
            let dir = (end - start).with_y(0.0).normalize_or(Vec3::NEG_Z);
            let yaw = (-dir.x).atan2(-dir.z);
            (start - dir * 30.0 + Vec3::Y * 14.0, yaw)
        }
        None => (Vec3::new(centre.x, 30.0, centre.y), 0.0),
    }
}

fn spawn_camera(mut commands: Commands, scenery: Res<LoadedScenery>, streamer: Res<SectionStreamer>) {
    let sections = streamer.planner().available();
    let centre = if sections.is_empty() {
        Vec2::ZERO
    } else {
        let sum = sections.iter().fold([0.0f64; 2], |a, s| {
            let c = s.centre();
            [a[0] + c[0], a[1] + c[1]]
        });
        Vec2::new((sum[0] / sections.len() as f64) as f32, (sum[1] / sections.len() as f64) as f32)
    };
    let (at, yaw) = start_pose(&scenery, centre);
    let cam = FlyCamera { yaw, ..FlyCamera::default() };
    let reach = (streamer.planner().config().radius.max(1) as f32) * 1000.0;
    commands.spawn((
        Name::new("Fly camera"),
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection { far: reach * 3.0, near: 0.2, ..default() }),
        Transform::from_translation(at).with_rotation(cam.rotation()),
        DistanceFog {
            color: Color::srgb(0.55, 0.7, 0.9),
            falloff: FogFalloff::Linear { start: reach * 0.4, end: reach * 1.1 },
            ..default()
        },
        cam,
        StreamFocus::default(),
    ));
}

/// Free flight from the keyboard and mouse (not while riding).
pub fn fly(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut cams: Query<(&mut Transform, &mut FlyCamera, &mut StreamFocus), Without<crate::railway::Ride>>,
) {
    let dt = time.delta_secs();
    for (mut t, mut cam, mut focus) in &mut cams {
        if buttons.pressed(MouseButton::Right) {
            cam.yaw -= motion.delta.x * cam.sensitivity;
            cam.pitch = (cam.pitch - motion.delta.y * cam.sensitivity).clamp(-1.55, 1.55);
        }
        if scroll.delta.y != 0.0 {
            cam.speed = (cam.speed * 1.2f32.powf(scroll.delta.y)).clamp(1.0, 5000.0);
        }
        t.rotation = cam.rotation();
        let axis = |pos: &[KeyCode], neg: &[KeyCode]| {
            f32::from(keys.any_pressed(pos.iter().copied())) - f32::from(keys.any_pressed(neg.iter().copied()))
        };
        let wish = t.forward() * axis(&[KeyCode::KeyW], &[KeyCode::KeyS])
            + t.right() * axis(&[KeyCode::KeyD], &[KeyCode::KeyA])
            + Vec3::Y * axis(&[KeyCode::KeyE, KeyCode::Space], &[KeyCode::KeyQ, KeyCode::ControlLeft]);
        let boost = if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) { cam.boost } else { 1.0 };
        let velocity = wish.normalize_or_zero() * cam.speed * boost;
        t.translation += velocity * dt;
        focus.velocity = velocity;
    }
}
