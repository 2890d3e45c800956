//! The precipitation volume of `docs/reference/runtime.md` §8.1: its extents for the current camera,
//! the particle sizes and counts, and the wrap of a particle to the opposite face. Pure
//! maths, no ECS.
//!
//! The spec gives the extents at the far depth (`half_y = tan(vfov/2)·50`, `half_x =
//! half_y·aspect`) and the reference half-angles; the project reads the volume as the
//! box those extents span between depths 2 and 50 (a frustum of the same depths and
//! half-angles has the same ratio to its reference, so the count does not depend on
//! the reading). Volume-local coordinates are `(x right, y up, depth forward)`.

use bevy::math::{Quat, Vec3};
use iron3d_formats::config::sky::constants as spec;
pub use spec::{HALF_ANGLE_X, HALF_ANGLE_Y, RAIN_SIZE, RAIN_VELOCITY, SNOW_SIZE, SNOW_VELOCITY};

/// Nearest depth of the volume (game units).
pub const NEAR: f32 = spec::VOLUME_DEPTH.0;
/// Farthest depth of the volume (game units).
pub const FAR: f32 = spec::VOLUME_DEPTH.1;
/// Particles at full intensity in a volume as large as the reference (`density = 1`).
pub const FULL_COUNT: f64 = 1000.0;
/// The emitter density of the shipped game.
pub const DENSITY: f64 = 1.0;

/// Rounds to the nearest integer, halves to the even neighbour.
pub fn round_half_even(v: f64) -> f64 {
    v.round_ties_even()
}

/// The volume for one camera.
#[derive(Debug, Clone, Copy, PartialEq, Default, bevy::reflect::Reflect)]
pub struct PrecipitationVolume {
    /// Half width at the far depth.
    pub half_x: f32,
    /// Half height at the far depth.
    pub half_y: f32,
    /// Pixels per radian of the horizontal field of view (`viewport_width / hfov`).
    pub scalar: f32,
}

impl PrecipitationVolume {
    /// The volume of a perspective camera with vertical field of view `vfov` (radians),
    /// `aspect` (width / height) and a viewport `viewport_width` pixels wide.
    pub fn for_camera(vfov: f32, aspect: f32, viewport_width: f32) -> Self {
        let tan_half = (vfov * 0.5).tan();
        let half_y = tan_half * FAR;
        let hfov = 2.0 * (tan_half * aspect).atan();
        Self { half_x: half_y * aspect, half_y, scalar: viewport_width / hfov }
    }

    /// Rain particle size (pixels).
    pub fn rain_size(&self) -> f32 {
        self.scalar * RAIN_SIZE
    }

    /// Snow particle size (pixels).
    pub fn snow_size(&self) -> f32 {
        self.scalar * SNOW_SIZE
    }

    /// The box's volume (`2·half_x · 2·half_y · (FAR − NEAR)`).
    pub fn volume(&self) -> f64 {
        4.0 * f64::from(self.half_x) * f64::from(self.half_y) * f64::from(FAR - NEAR)
    }

    /// The reference volume (the same box for the reference half-angles).
    pub fn reference_volume() -> f64 {
        let far = f64::from(FAR);
        4.0 * far * f64::from(HALF_ANGLE_X).tan() * far * f64::from(HALF_ANGLE_Y).tan() * f64::from(FAR - NEAR)
    }

    /// Particles for `intensity`: `round_half_even(clamp(V / V_ref, 0, 1) · density ·
    /// intensity · 1000)`.
    pub fn count(&self, intensity: f32) -> usize {
        let share = (self.volume() / Self::reference_volume()).clamp(0.0, 1.0);
        // In 0..=1000 for intensities in 0..=1 (the schedule's range).
        round_half_even(share * DENSITY * f64::from(intensity.max(0.0)) * FULL_COUNT) as usize
    }

    /// Wraps a volume-local point into the box: a coordinate past a face re-enters
    /// from the opposite face (by whole box sizes). Returns the wrapped point.
    pub fn wrap(&self, local: Vec3) -> Vec3 {
        let wrap = |v: f32, lo: f32, hi: f32| if (lo..hi).contains(&v) { v } else { lo + (v - lo).rem_euclid(hi - lo) };
        Vec3::new(
            wrap(local.x, -self.half_x, self.half_x),
            wrap(local.y, -self.half_y, self.half_y),
            wrap(local.z, NEAR, FAR),
        )
    }
}

/// The volume's placement: the camera's position and rotation in Bevy space (the camera
/// looks along its −Z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VolumePose {
    /// Camera position.
    pub origin: Vec3,
    /// Camera rotation.
    pub rotation: Quat,
}

impl VolumePose {
    /// A volume-local point `(x, y, depth)` in the world.
    pub fn to_world(self, local: Vec3) -> Vec3 {
        self.origin + self.rotation * Vec3::new(local.x, local.y, -local.z)
    }

    /// A world point in volume-local coordinates.
    pub fn to_local(self, world: Vec3) -> Vec3 {
        let v = self.rotation.inverse() * (world - self.origin);
        Vec3::new(v.x, v.y, -v.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_4;

    #[test]
    fn the_reference_camera_fills_the_volume_and_a_narrow_one_part_of_it() {
        // A camera with the reference half-angles: tan(vfov/2) = tan(0.4875),
        // aspect = tan(0.65) / tan(0.4875).
        let aspect = 0.65f32.tan() / 0.4875f32.tan();
        let reference = PrecipitationVolume::for_camera(2.0 * 0.4875, aspect, 1024.0);
        assert!((reference.half_y - 50.0 * 0.4875f32.tan()).abs() < 1e-4);
        assert!((reference.half_x - 50.0 * 0.65f32.tan()).abs() < 1e-4);
        assert_eq!(reference.count(1.0), 1000);
        assert_eq!(reference.count(0.25), 250);
        assert_eq!(reference.count(0.0), 0);
        // Bevy's default camera at 16:9: V / V_ref = tan(π/8)²·(16/9) / (tan 0.65 · tan 0.4875).
        let wide = PrecipitationVolume::for_camera(FRAC_PI_4, 16.0 / 9.0, 1280.0);
        let share = (FRAC_PI_4 as f64 / 2.0).tan().powi(2) * (16.0 / 9.0) / (0.65f64.tan() * 0.4875f64.tan());
        assert!((wide.volume() / PrecipitationVolume::reference_volume() - share).abs() < 1e-5);
        assert_eq!(wide.count(1.0), (share * 1000.0).round() as usize);
        // A camera wider than the reference is clamped to the full count.
        assert_eq!(PrecipitationVolume::for_camera(1.6, 2.0, 1280.0).count(1.0), 1000);
    }

    #[test]
    fn counts_round_half_to_even() {
        assert_eq!(round_half_even(0.5), 0.0);
        assert_eq!(round_half_even(1.5), 2.0);
        assert_eq!(round_half_even(2.5), 2.0);
        assert_eq!(round_half_even(2.5000001), 3.0);
        // A camera wider than the reference is clamped to share 1, so the count is
        // round_half_even(I · 1000) with I · 1000 exact for these intensities.
        let wide = PrecipitationVolume::for_camera(1.6, 2.0, 1280.0);
        assert_eq!(wide.count(0.0625), 62, "62.5 rounds down to the even 62");
        assert_eq!(wide.count(0.1875), 188, "187.5 rounds up to the even 188");
        assert_eq!(wide.count(0.0626), 63);
    }

    #[test]
    fn sizes_follow_the_viewport_and_the_horizontal_fov() {
        let v = PrecipitationVolume::for_camera(FRAC_PI_4, 16.0 / 9.0, 1280.0);
        let hfov = 2.0 * ((FRAC_PI_4 / 2.0).tan() * 16.0 / 9.0).atan();
        assert!((v.scalar - 1280.0 / hfov).abs() < 1e-3);
        assert!((v.rain_size() - 1280.0 / hfov * 0.0065).abs() < 1e-4);
        assert!((v.snow_size() - 1280.0 / hfov * 0.0195).abs() < 1e-4);
        let half = PrecipitationVolume::for_camera(FRAC_PI_4, 16.0 / 9.0, 640.0);
        assert!((half.rain_size() * 2.0 - v.rain_size()).abs() < 1e-4, "sizes scale with the viewport");
        assert_eq!(half.count(1.0), v.count(1.0), "the count does not");
    }

    #[test]
    fn particles_past_a_face_reenter_from_the_opposite_face() {
        let v = PrecipitationVolume { half_x: 10.0, half_y: 5.0, scalar: 1.0 };
        let inside = Vec3::new(3.0, -2.0, 20.0);
        assert_eq!(v.wrap(inside), inside);
        assert_eq!(v.wrap(Vec3::new(0.0, -6.0, 20.0)), Vec3::new(0.0, 4.0, 20.0), "fell through the bottom");
        assert_eq!(v.wrap(Vec3::new(11.0, 0.0, 20.0)), Vec3::new(-9.0, 0.0, 20.0), "drifted out to the right");
        assert_eq!(v.wrap(Vec3::new(0.0, 0.0, 1.0)), Vec3::new(0.0, 0.0, 49.0), "behind the near face");
        assert_eq!(v.wrap(Vec3::new(0.0, 0.0, 51.0)), Vec3::new(0.0, 0.0, 3.0), "beyond the far face");
        assert_eq!(v.wrap(Vec3::new(-31.0, 0.0, 20.0)), Vec3::new(9.0, 0.0, 20.0), "several widths at once");
    }

    #[test]
    fn volume_local_and_world_coordinates_round_trip() {
        let pose = VolumePose { origin: Vec3::new(5.0, 100.0, -3.0), rotation: Quat::from_rotation_y(0.7) };
        let local = Vec3::new(1.0, 2.0, 30.0);
        assert!((pose.to_local(pose.to_world(local)) - local).length() < 1e-4);
        let straight = VolumePose { origin: Vec3::ZERO, rotation: Quat::IDENTITY };
        assert_eq!(straight.to_world(Vec3::new(0.0, 0.0, 10.0)), Vec3::new(0.0, 0.0, -10.0), "depth is along −Z");
    }
}
