//! Mission weather files (`docs/reference/runtime.md` §8, `docs/reference/registry.md` §5.8): `sky.ske` holds
//! the weather schedule (rain, snow, lightning intensities over time) and `sky.wea` the
//! matching material names. The spec does not document the `sky.ske` layout, so it is
//! **opaque** here: bytes are kept 1:1 and nothing is synthesised. `sky.wea` is a WEAR
//! material table and is read by the WEAR reader.

use crate::helpers::OpaqueResource;

/// The weather schedule `sky.ske` (layout undocumented; raw bytes).
pub type SkySchedule = OpaqueResource;

/// The weather constants of `docs/reference/runtime.md` §8 that are confirmed.
pub mod constants {
    /// Precipitation reference volume depth range (near, far).
    pub const VOLUME_DEPTH: (f32, f32) = (2.0, 50.0);
    /// Horizontal half-angle of the reference volume (radians).
    pub const HALF_ANGLE_X: f32 = 0.65;
    /// Vertical half-angle of the reference volume (radians).
    pub const HALF_ANGLE_Y: f32 = 0.4875;
    /// Rain particle size factor (× viewport width / horizontal FOV).
    pub const RAIN_SIZE: f32 = 0.0065;
    /// Snow particle size factor.
    pub const SNOW_SIZE: f32 = 0.0195;
    /// Rain velocity (world space).
    pub const RAIN_VELOCITY: [f32; 3] = [0.5, 0.0, -60.0];
    /// Snow velocity (world space).
    pub const SNOW_VELOCITY: [f32; 3] = [0.5, 0.0, -4.0];
    /// Pause after a lightning strike (ms).
    pub const LIGHTNING_PAUSE_MS: u32 = 6000;
}
