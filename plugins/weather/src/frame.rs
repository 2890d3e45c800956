//! The environment frame (`docs/reference/runtime.md` §8): each frame, the precipitation volume of the
//! current camera (the active 3D camera of highest order with a perspective projection)
//! from its field of view, aspect and real viewport, and its pose in the world.

use crate::WeatherSystems;
use crate::volume::{PrecipitationVolume, VolumePose};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EnvironmentFrame>()
        .register_type::<EnvironmentFrame>()
        .add_systems(PostUpdate, update.in_set(WeatherSystems::Frame));
}

/// The camera-dependent part of this frame's weather.
#[derive(Resource, Reflect, Debug, Clone, Copy, Default)]
#[reflect(Resource)]
pub struct EnvironmentFrame {
    /// A perspective 3D camera with a viewport exists this frame.
    pub active: bool,
    /// The volume for its projection and viewport.
    pub volume: PrecipitationVolume,
    /// Camera position (Bevy space).
    pub origin: Vec3,
    /// Camera rotation.
    pub rotation: Quat,
    /// Vertical field of view (radians).
    pub vfov: f32,
    /// Viewport size in physical pixels.
    pub viewport: UVec2,
}

impl EnvironmentFrame {
    /// The volume's pose.
    pub fn pose(&self) -> VolumePose {
        VolumePose { origin: self.origin, rotation: self.rotation }
    }

    /// World size of one pixel at `depth` in front of the camera.
    pub fn pixel_at(&self, depth: f32) -> f32 {
        2.0 * (self.vfov * 0.5).tan() * depth / self.viewport.y.max(1) as f32
    }
}

/// Takes this frame's camera.
pub(crate) fn update(
    mut frame: ResMut<EnvironmentFrame>,
    cameras: Query<(&Camera, &Projection, &Transform), With<Camera3d>>,
) {
    let current = cameras
        .iter()
        .filter(|(camera, _, _)| camera.is_active)
        .filter_map(|(camera, projection, transform)| match projection {
            Projection::Perspective(p) => {
                camera.physical_viewport_size().map(|size| (camera.order, p, size, transform))
            }
            _ => None,
        })
        .max_by_key(|(order, ..)| *order);
    *frame = match current {
        Some((_, p, size, transform)) if size.x > 0 && size.y > 0 => EnvironmentFrame {
            active: true,
            volume: PrecipitationVolume::for_camera(p.fov, size.x as f32 / size.y as f32, size.x as f32),
            origin: transform.translation,
            rotation: transform.rotation,
            vfov: p.fov,
            viewport: size,
        },
        _ => EnvironmentFrame::default(),
    };
}
