//! The 3D sound listener and how far a positioned sound carries. The listener follows
//! the active camera: it is updated each frame after the camera moved and its transform
//! propagated, and before rendering (`docs/reference/runtime.md` §7.3: camera, then the sound
//! listener, then visibility and drawing), so Terrain, render and sound share one
//! camera frame.
//!
//! Attenuation and panning are the project's own (the original's DirectSound 3D model
//! is not recorded): full volume within `range.0`, falling linearly to silence at
//! `range.1`; the pan is the direction's share along the listener's right.

use crate::AudioSystems;
use bevy::prelude::*;
use iron3d_assets::axes::to_game;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Listener>()
        .register_type::<Listener>()
        .add_systems(PostUpdate, follow_camera.in_set(AudioSystems::Listener));
}

/// Where the game is heard from, in game space (Z up).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default, Reflect)]
#[reflect(Resource)]
pub struct Listener {
    /// Position.
    pub position: [f32; 3],
    /// Unit vector to the listener's right.
    pub right: [f32; 3],
    /// Whether a camera placed it this frame (`false`: no active camera, nothing is
    /// positioned yet).
    pub placed: bool,
}

impl Listener {
    /// Gain (0..1) and pan (-1 left .. 1 right) of a sound at `at` heard over `range`;
    /// an unpositioned sound plays at full gain, centred.
    pub fn hear(&self, at: Option<[f32; 3]>, range: (f32, f32)) -> (f32, f32) {
        let Some(at) = at else { return (1.0, 0.0) };
        let d = [at[0] - self.position[0], at[1] - self.position[1], at[2] - self.position[2]];
        let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let pan = if distance > 0.0 {
            ((d[0] * self.right[0] + d[1] * self.right[1] + d[2] * self.right[2]) / distance).clamp(-1.0, 1.0)
        } else {
            0.0
        };
        (attenuation(distance, range), pan)
    }
}

/// Full volume up to `range.0`, linear to silence at `range.1`, silent beyond (a range
/// whose far end is not beyond its near end is a hard edge at `range.0`).
pub fn attenuation(distance: f32, (near, far): (f32, f32)) -> f32 {
    if !distance.is_finite() || distance > far.max(near) {
        0.0
    } else if distance <= near {
        1.0
    } else {
        (far - distance) / (far - near)
    }
}

/// Places the listener at the active 3D camera with the highest order.
pub(crate) fn follow_camera(
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut listener: ResMut<Listener>,
) {
    let active = cameras.iter().filter(|(c, _)| c.is_active).max_by_key(|(c, _)| c.order);
    let next = match active {
        Some((_, t)) => Listener {
            position: to_game(t.translation().to_array()),
            right: to_game(t.right().to_array()),
            placed: true,
        },
        None => Listener { placed: false, ..*listener },
    };
    listener.set_if_neq(next);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sound_is_full_within_the_near_range_fades_linearly_and_is_silent_beyond() {
        assert_eq!(attenuation(0.0, (100.0, 1500.0)), 1.0);
        assert_eq!(attenuation(100.0, (100.0, 1500.0)), 1.0);
        assert_eq!(attenuation(800.0, (100.0, 1500.0)), 0.5);
        assert_eq!(attenuation(1500.0, (100.0, 1500.0)), 0.0);
        assert_eq!(attenuation(1500.1, (100.0, 1500.0)), 0.0);
        assert_eq!(attenuation(10.0, (20.0, 20.0)), 1.0);
        assert_eq!(attenuation(f32::NAN, (20.0, 200.0)), 0.0);
    }

    #[test]
    fn pan_follows_the_listeners_right() {
        let l = Listener { position: [10.0, 0.0, 0.0], right: [0.0, -1.0, 0.0], placed: true };
        assert_eq!(l.hear(Some([10.0, -50.0, 0.0]), (100.0, 1500.0)), (1.0, 1.0));
        assert_eq!(l.hear(Some([10.0, 800.0, 0.0]), (100.0, 1500.0)), (0.5, -1.0));
        assert_eq!(l.hear(Some([10.0, 0.0, 0.0]), (100.0, 1500.0)), (1.0, 0.0));
        assert_eq!(l.hear(None, (1.0, 2.0)), (1.0, 0.0), "music and clicks are not positioned");
    }
}
