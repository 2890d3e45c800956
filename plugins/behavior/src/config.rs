//! The `PathFind_*` keys of `Behavior.ini` (spec `runtime.md` §2.2), read at run time.
//! Their compiled defaults were never recovered: the defaults here are the project's
//! own, chosen for the demo's scale (a robot about 3 units across). The acceleration
//! and rotation limits are Control's (`iron3d_control::ControlConfig`).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_terrain::BehaviorIni;

/// Path-finding and movement parameters (units, seconds, radians).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct BehaviorConfig {
    /// `PathFind_CorridorRadius`: allowed distance from the local path (project default 6).
    pub corridor_radius: f32,
    /// `PathFind_fStepDist`: distance at which a local-path point counts as passed
    /// (project default 2).
    pub step_dist: f32,
    /// `PathFind_BuildingHitDist`: clearance kept from building footprints by Wizard
    /// (project default 0.5).
    pub building_hit_dist: f32,
    /// Cruise speed of a unit, units/s (the project's own; the original takes it from
    /// unit data not yet decoded).
    pub cruise_speed: f32,
    /// Distance from the goal that counts as arrived (the project's own, 1).
    pub arrive_dist: f32,
    /// A unit blocked by others this close to its goal (in radii) has arrived as near
    /// as the crowd lets it (the project's own, 24).
    pub crowd_arrive_radii: f32,
}

impl Default for BehaviorConfig {
    fn default() -> Self {
        Self {
            corridor_radius: 6.0,
            step_dist: 2.0,
            building_hit_dist: 0.5,
            cruise_speed: 10.0,
            arrive_dist: 1.0,
            crowd_arrive_radii: 24.0,
        }
    }
}

impl BehaviorConfig {
    /// The defaults overridden by the keys present in `ini`.
    pub fn from_ini(ini: &BehaviorIni) -> Self {
        let d = Self::default();
        let key = |name: &str, default: f32| ini.positive(name).unwrap_or(default);
        Self {
            corridor_radius: key("PathFind_CorridorRadius", d.corridor_radius),
            step_dist: key("PathFind_fStepDist", d.step_dist),
            building_hit_dist: key("PathFind_BuildingHitDist", d.building_hit_dist),
            ..d
        }
    }
}

/// A mission opens: the configuration of its `Behavior.ini`.
pub(crate) fn load(mut commands: Commands, ini: Option<Res<BehaviorIni>>) {
    commands.insert_resource(ini.map_or_else(BehaviorConfig::default, |i| BehaviorConfig::from_ini(&i)));
}
