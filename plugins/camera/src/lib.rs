//! Cameras over the mission: an RTS camera orbiting a focus point on the ground
//! (pan, rotate, tilt, zoom) and a free-fly camera (F toggles). On entering a mission
//! the camera frames the player's base. Keys: WASD/arrows move, Q/E turn, R/T
//! tilt, wheel zooms, right mouse button looks around, Shift speeds up.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, SimTransform};
use iron3d_mission::{MissionObject, Registered};

/// How the camera moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum CameraMode {
    /// Orbit a focus point on the ground.
    #[default]
    Rts,
    /// Move freely along the view direction.
    FreeFly,
}

/// The game camera's rig (Bevy's world is Y-up).
#[derive(Component, Debug, Clone, PartialEq, Reflect)]
#[reflect(Component)]
pub struct GameCamera {
    /// Movement mode.
    pub mode: CameraMode,
    /// Point looked at (RTS).
    pub focus: Vec3,
    /// Distance from the focus (RTS).
    pub distance: f32,
    /// Heading, radians.
    pub yaw: f32,
    /// Tilt below the horizon, radians.
    pub pitch: f32,
    /// Movement speed, world units per second at distance 100.
    pub speed: f32,
    /// Free-fly position.
    pub position: Vec3,
}

impl Default for GameCamera {
    fn default() -> Self {
        Self {
            mode: CameraMode::Rts,
            focus: Vec3::ZERO,
            distance: 400.0,
            yaw: 0.6,
            pitch: 0.75,
            speed: 250.0,
            position: Vec3::new(0.0, 200.0, 400.0),
        }
    }
}

impl GameCamera {
    /// The camera transform for the current rig state.
    pub fn transform(&self) -> Transform {
        match self.mode {
            CameraMode::Rts => {
                let offset =
                    Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos())
                        * self.distance;
                Transform::from_translation(self.focus + offset).looking_at(self.focus, Vec3::Y)
            }
            CameraMode::FreeFly => Transform::from_translation(self.position).with_rotation(Quat::from_euler(
                EulerRot::YXZ,
                self.yaw,
                -self.pitch,
                0.0,
            )),
        }
    }

    /// Frames an axis-aligned box of points.
    pub fn frame(&mut self, min: Vec3, max: Vec3) {
        self.focus = (min + max) / 2.0;
        let extent = (max - min).length().max(50.0);
        self.distance = extent * 0.8;
        self.position = self.transform().translation;
    }
}

/// The game's mission camera ([`GameCamera`]: RTS orbit and free fly), spawned at start-up and
/// framing the player's base on entering a mission. Named apart from Bevy's camera plugins.
#[derive(Debug, Default)]
pub struct GameCameraPlugin;

impl Plugin for GameCameraPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<GameCamera>()
            .add_systems(Startup, spawn)
            .add_systems(OnEnter(AppState::InGame), frame_mission)
            .add_systems(Update, (controls, apply).chain().run_if(in_state(AppState::InGame)));
    }
}

fn spawn(mut commands: Commands) {
    let rig = GameCamera::default();
    commands.spawn((Name::new("Game camera"), Camera3d::default(), rig.transform(), rig));
}

/// Frames the player's base when a mission opens (resuming never re-enters the game):
/// the objects of the lowest positive clan, or every object when no clan owns any.
fn frame_mission(
    objects: Query<(&SimTransform, &MissionObject), With<Registered>>,
    mut cameras: Query<&mut GameCamera>,
) {
    let player = objects.iter().map(|(_, o)| o.clan).filter(|&c| c > 0).min();
    let points: Vec<Vec3> = objects
        .iter()
        .filter(|(_, o)| player.is_none_or(|p| o.clan == p))
        .map(|(t, _)| Vec3::from(to_bevy(t.position)))
        .collect();
    if points.is_empty() {
        return;
    }
    let (min, max) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    for mut cam in &mut cameras {
        cam.frame(min, max);
    }
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    time: Res<Time>,
    mut cameras: Query<&mut GameCamera>,
) {
    let dt = time.delta_secs();
    let axis =
        |neg: KeyCode, pos: KeyCode| f32::from(u8::from(keys.pressed(pos))) - f32::from(u8::from(keys.pressed(neg)));
    let forward_in = axis(KeyCode::KeyS, KeyCode::KeyW) + axis(KeyCode::ArrowDown, KeyCode::ArrowUp);
    let right_in = axis(KeyCode::KeyA, KeyCode::KeyD) + axis(KeyCode::ArrowLeft, KeyCode::ArrowRight);
    let boost = if keys.pressed(KeyCode::ShiftLeft) { 4.0 } else { 1.0 };
    for mut cam in &mut cameras {
        if keys.just_pressed(KeyCode::KeyF) {
            let current = cam.transform().translation;
            cam.mode = match cam.mode {
                CameraMode::Rts => CameraMode::FreeFly,
                CameraMode::FreeFly => CameraMode::Rts,
            };
            cam.position = current;
        }
        cam.yaw += axis(KeyCode::KeyE, KeyCode::KeyQ) * dt * 1.5;
        cam.pitch = (cam.pitch + axis(KeyCode::KeyT, KeyCode::KeyR) * dt).clamp(0.1, 1.5);
        if mouse.pressed(MouseButton::Right) {
            cam.yaw -= motion.delta.x * 0.005;
            cam.pitch = (cam.pitch + motion.delta.y * 0.005).clamp(-1.5, 1.5);
        }
        let (sin, cos) = cam.yaw.sin_cos();
        let ground_forward = -Vec3::new(sin, 0.0, cos);
        let ground_right = Vec3::new(cos, 0.0, -sin);
        match cam.mode {
            CameraMode::Rts => {
                cam.pitch = cam.pitch.clamp(0.1, 1.5);
                cam.distance = (cam.distance * (1.0 - scroll.delta.y * 0.1)).clamp(20.0, 20_000.0);
                let step = cam.speed * boost * dt * (cam.distance / 100.0).max(0.5);
                cam.focus += (ground_forward * forward_in + ground_right * right_in) * step;
            }
            CameraMode::FreeFly => {
                let view = cam.transform().forward();
                let vertical = axis(KeyCode::ControlLeft, KeyCode::Space);
                let step = cam.speed * boost * dt * 2.0;
                cam.position += (*view * forward_in + ground_right * right_in + Vec3::Y * vertical) * step;
                cam.speed = (cam.speed * (1.0 + scroll.delta.y * 0.1)).clamp(10.0, 5_000.0);
            }
        }
    }
}

fn apply(mut cameras: Query<(&GameCamera, &mut Transform), Changed<GameCamera>>) {
    for (cam, mut transform) in &mut cameras {
        *transform = cam.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rts_camera_looks_at_its_focus_from_above() {
        let mut cam = GameCamera { focus: Vec3::new(100.0, 0.0, -50.0), ..Default::default() };
        let t = cam.transform();
        assert!(t.translation.y > 0.0, "above the ground");
        let to_focus = (cam.focus - t.translation).normalize();
        assert!(t.forward().dot(to_focus) > 0.999);
        assert!((t.translation.distance(cam.focus) - cam.distance).abs() < 1e-3);
        cam.frame(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1000.0, 50.0, 1000.0));
        assert_eq!(cam.focus, Vec3::new(500.0, 25.0, 500.0));
        assert!(cam.distance > 1000.0);
    }

    #[test]
    fn free_fly_faces_the_same_way_as_the_rts_view_it_came_from() {
        let mut cam = GameCamera::default();
        let rts = cam.transform();
        cam.mode = CameraMode::FreeFly;
        cam.position = rts.translation;
        let fly = cam.transform();
        assert!(rts.forward().dot(*fly.forward()) > 0.999, "{:?} vs {:?}", rts.forward(), fly.forward());
    }
}
