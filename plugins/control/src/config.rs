//! Control's limits: `PathFind_MaxAccel` and `PathFind_MaxRotation` of `Behavior.ini`
//! (read at run time; their compiled defaults are unknown, the defaults here are the
//! project's own).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_terrain::BehaviorIni;

/// Physical limits.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct ControlConfig {
    /// Acceleration limit, units/s² (project default 8).
    pub max_accel: f32,
    /// Turn-rate limit, rad/s (project default 2.5).
    pub max_rotation: f32,
    /// Correction passes over the contact pairs per tick (project default 6).
    pub passes: u32,
    /// Animation frames per second of cycling CTLD pieces (project default 15: the
    /// engine's rate is not recorded).
    pub piece_frames_per_second: f32,
    /// Full-throttle speed of a piloted unit, units/s (the project's own: 14, a little
    /// over the cruise speed of ordered units; reversing is half of it).
    pub pilot_speed: f32,
}

impl Default for ControlConfig {
    fn default() -> Self {
        Self { max_accel: 8.0, max_rotation: 2.5, passes: 6, piece_frames_per_second: 15.0, pilot_speed: 14.0 }
    }
}

/// A mission opens: the limits of its `Behavior.ini`.
pub(crate) fn load(mut commands: Commands, ini: Option<Res<BehaviorIni>>) {
    let d = ControlConfig::default();
    let config = ini.map_or(d, |ini| ControlConfig {
        max_accel: ini.positive("PathFind_MaxAccel").unwrap_or(d.max_accel),
        max_rotation: ini.positive("PathFind_MaxRotation").unwrap_or(d.max_rotation),
        ..d
    });
    commands.insert_resource(config);
}
