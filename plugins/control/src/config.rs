//! Control's limits. A unit's own acceleration and turn rate come from its data
//! ([`iron3d_core::MotionLimits`], the CTLD root parameters); `PathFind_MaxAccel` and
//! `PathFind_MaxRotation` of `Behavior.ini` (read at run time) cap every unit's, and
//! stand in for a unit whose data gives none. Their compiled defaults are unknown: the
//! defaults here are the project's own.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_terrain::BehaviorIni;

/// Physical limits.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct ControlConfig {
    /// `PathFind_MaxAccel`, units/s² (`None` when absent).
    pub max_accel: Option<f32>,
    /// `PathFind_MaxRotation`, rad/s (`None` when absent).
    pub max_rotation: Option<f32>,
    /// Acceleration of a unit that neither its data nor `Behavior.ini` limits, units/s²
    /// (project default 8).
    pub default_accel: f32,
    /// Turn rate of a unit that neither its data nor `Behavior.ini` limits, rad/s
    /// (project default 2.5).
    pub default_rotation: f32,
    /// Correction passes over the contact pairs per tick (project default 6).
    pub passes: u32,
    /// Animation frames per second of cycling CTLD pieces (project default 15: the
    /// engine's rate is not recorded).
    pub piece_frames_per_second: f32,
    /// Full-throttle speed of a piloted unit whose data gives no top speed, units/s
    /// (the project's own: 14; reversing is half of it).
    pub pilot_speed: f32,
}

impl Default for ControlConfig {
    fn default() -> Self {
        Self {
            max_accel: None,
            max_rotation: None,
            default_accel: 8.0,
            default_rotation: 2.5,
            passes: 6,
            piece_frames_per_second: 15.0,
            pilot_speed: 14.0,
        }
    }
}

/// A unit's limit: its data's value capped by the `Behavior.ini` key, either alone when
/// the other is absent, `default` when both are.
pub fn limit(data: Option<f32>, key: Option<f32>, default: f32) -> f32 {
    match (data, key) {
        (Some(d), Some(k)) => d.min(k),
        (Some(v), None) | (None, Some(v)) => v,
        (None, None) => default,
    }
}

/// A mission opens: the limits of its `Behavior.ini`.
pub(crate) fn load(mut commands: Commands, ini: Option<Res<BehaviorIni>>) {
    let d = ControlConfig::default();
    let config = ini.map_or(d, |ini| ControlConfig {
        max_accel: BehaviorIni::number(&ini.0.path_find_max_accel),
        max_rotation: BehaviorIni::number(&ini.0.path_find_max_rotation),
        ..d
    });
    commands.insert_resource(config);
}

#[cfg(test)]
mod tests {
    use super::limit;

    #[test]
    fn the_key_caps_the_data_and_stands_in_for_it() {
        assert_eq!(limit(Some(5.0), Some(3.0), 8.0), 3.0);
        assert_eq!(limit(Some(5.0), Some(9.0), 8.0), 5.0);
        assert_eq!(limit(Some(5.0), None, 8.0), 5.0);
        assert_eq!(limit(None, Some(3.0), 8.0), 3.0);
        assert_eq!(limit(None, None, 8.0), 8.0);
    }
}
