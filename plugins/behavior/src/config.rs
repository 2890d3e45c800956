//! Behavior's keys of `Behavior.ini` (`docs/reference/runtime.md` §2.2: key names *confirmed*,
//! roles *inferred* from the names), read at run time from the typed
//! [`iron3d_terrain::BehaviorIni`]. The compiled defaults were never recovered: the
//! defaults here are the project's own, chosen for the demo's scale (a robot about 3
//! units across). The acceleration and rotation limits are Control's
//! (`iron3d_control::ControlConfig`), `UseWizard` is Wizard's and `ImmortalHero`
//! combat's.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{DispatchPhase, GameClock, GameMessage, GameMessageKind};
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
    /// `PathFind_BuildingHitDist`: clearance kept from building footprints, by the local
    /// path's portal points and by Wizard; a unit this close to a footprint (or inside
    /// it) counts as standing on the building (project default 0.5).
    pub building_hit_dist: f32,
    /// `PathFind_BuildingNearestDist`: a unit this close to a building footprint is
    /// near the building (project default 4).
    pub building_nearest_dist: f32,
    /// `PathFind_NearBuildSpeedPercent`: the share of its top speed a unit keeps near a
    /// building, percent (project default 100: no slowing).
    pub near_build_speed_percent: f32,
    /// `PathFind_NearDoorCoeff`: the local path's points at the portals between areals
    /// (read as the map's "doors", inferred) keep this multiple of the unit's margin
    /// from the portal's ends (project default 1).
    pub near_door_coeff: f32,
    /// `PathFind_fStepOffBuilding`: a unit that starts a leg standing on a building
    /// first steps this far beyond the footprint's edge (project default 2).
    pub step_off_building: f32,
    /// `PathFind_MinPointInTrajectory`: a local path has at least this many points, the
    /// longest segments split in halves (project default 1: no splitting).
    pub min_points: u32,
    /// Top speed of a unit whose data gives none, units/s (the project's own).
    pub cruise_speed: f32,
    /// Distance from the goal that counts as arrived (the project's own, 1).
    pub arrive_dist: f32,
    /// A unit blocked by others this close to its goal (in radii) has arrived as near
    /// as the crowd lets it (the project's own, 24).
    pub crowd_arrive_radii: f32,
    /// `LockBehaviour` (a switch): units keep their orders but are not steered, so they
    /// stand (the effect inferred from the name; project default off).
    pub locked: bool,
}

impl Default for BehaviorConfig {
    fn default() -> Self {
        Self {
            corridor_radius: 6.0,
            step_dist: 2.0,
            building_hit_dist: 0.5,
            building_nearest_dist: 4.0,
            near_build_speed_percent: 100.0,
            near_door_coeff: 1.0,
            step_off_building: 2.0,
            min_points: 1,
            cruise_speed: 10.0,
            arrive_dist: 1.0,
            crowd_arrive_radii: 24.0,
            locked: false,
        }
    }
}

impl BehaviorConfig {
    /// The defaults overridden by the keys present in `ini`.
    pub fn from_ini(ini: &BehaviorIni) -> Self {
        let d = Self::default();
        let i = &ini.0;
        let key = |v: &_, default: f32| BehaviorIni::number(v).unwrap_or(default);
        let min_points = i.path_find_min_point_in_trajectory.as_ref().and_then(|s| s.value);
        Self {
            corridor_radius: key(&i.path_find_corridor_radius, d.corridor_radius),
            step_dist: key(&i.path_find_step_dist, d.step_dist),
            building_hit_dist: key(&i.path_find_building_hit_dist, d.building_hit_dist),
            building_nearest_dist: key(&i.path_find_building_nearest_dist, d.building_nearest_dist),
            near_build_speed_percent: key(&i.path_find_near_build_speed_percent, d.near_build_speed_percent),
            near_door_coeff: key(&i.path_find_near_door_coeff, d.near_door_coeff),
            step_off_building: key(&i.path_find_step_off_building, d.step_off_building),
            min_points: min_points.and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0).unwrap_or(d.min_points),
            locked: BehaviorIni::switch(&i.lock_behaviour).unwrap_or(d.locked),
            ..d
        }
    }

    /// The top speed a unit keeps `near` a building or not.
    pub fn near_building_speed(&self, speed: f32, near: bool) -> f32 {
        if near { speed * self.near_build_speed_percent / 100.0 } else { speed }
    }
}

/// The keys of `Behavior.ini` whose effect could not be inferred, when they ask for
/// one: `GiveDefaultOrder` on, and then its `DefaultOrderPhase` (`(key, reason)`).
pub fn unsupported(ini: &BehaviorIni) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    if BehaviorIni::switch(&ini.0.give_default_order) == Some(true) {
        out.push(("GiveDefaultOrder", "the default order the original gives is not recovered"));
        if ini.0.default_order_phase.is_some() {
            out.push(("DefaultOrderPhase", "the phase of an unsupported default order"));
        }
    }
    out
}

/// A mission opens: the configuration of its `Behavior.ini`; each key asking for an
/// effect the project cannot infer is reported once (an `unsupported` event).
pub(crate) fn load(
    mut commands: Commands,
    ini: Option<Res<BehaviorIni>>,
    clock: Res<GameClock>,
    mut out: MessageWriter<GameMessage>,
) {
    let Some(ini) = ini else {
        commands.insert_resource(BehaviorConfig::default());
        return;
    };
    commands.insert_resource(BehaviorConfig::from_ini(&ini));
    for (key, detail) in unsupported(&ini) {
        let kind = GameMessageKind::Unsupported { file: "Behavior.ini".into(), key: key.into(), detail: detail.into() };
        out.write(GameMessage::new(&clock, DispatchPhase::Behavior, kind));
    }
}
