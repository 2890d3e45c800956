//! The data that crosses the movement layers, one component per hand-over (spec
//! `docs/reference/runtime.md` §1: global path → local path → wizard path → physical step):
//! Behavior publishes [`NavStatus`] and [`SteerIntent`], Wizard turns the intent into a
//! [`MotionRequest`], Control moves the object and owns [`Kinematics`] and
//! [`CollisionProxy`]. Each component is written by one crate only.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// Where a unit is in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Reflect, serde::Serialize, serde::Deserialize)]
pub enum NavState {
    /// No order (or stopped).
    #[default]
    Idle,
    /// Following its path.
    Moving,
    /// Reached the end of its order.
    Arrived,
    /// Stopped by a diagnostic.
    Blocked,
}

impl NavState {
    /// Stable lower-case name (JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Moving => "moving",
            Self::Arrived => "arrived",
            Self::Blocked => "blocked",
        }
    }
}

/// Behavior's published state of a unit (written by Behavior only).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct NavStatus {
    /// Order state.
    pub state: NavState,
    /// The areal the unit stands in (`None` outside every areal).
    pub areal: Option<u32>,
    /// Incremented whenever the global path is rebuilt.
    pub path_revision: u32,
}

/// Behavior → Wizard: the local path segment to follow now (game units, XY).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct SteerIntent {
    /// Whether the unit wants to move at all.
    pub active: bool,
    /// Start of the current local-path segment (the corridor axis runs to `waypoint`).
    pub from: [f32; 2],
    /// The local-path point to reach next.
    pub waypoint: [f32; 2],
    /// `waypoint` is the end of the order: slow down and stop there.
    pub last: bool,
    /// Allowed distance from the corridor axis (`PathFind_CorridorRadius`).
    pub corridor_radius: f32,
    /// Cruise speed (units per second).
    pub max_speed: f32,
}

/// Wizard → Control: the planar velocity the unit asks for (units per second).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct MotionRequest {
    /// Requested velocity, XY.
    pub velocity: [f32; 2],
}

/// A unit's movement limits from its data (the mission load writes it; Behavior,
/// Wizard and Control read it). Each limit is `None` when the data gives none, and the
/// reader then uses its `Behavior.ini` key or its own default.
///
/// The limits come from the CTLD root parameters of the unit's components (spec
/// `docs/reference/registry.md` §5.5; openparkan `docs/24-motion.md`, read): the forward
/// (the machine's y) top speed and acceleration, the turn rate about Z, the slope limit
/// angle and the payload. The project combines them (its own rule): each limit is the
/// smallest positive finite value among the components, so the weakest part limits the
/// whole and a component without one (a turret, a weapon) does not.
///
/// These are the authored limits. A machine with a [`Drive`] moves at its live ones
/// ([`MotionLimits::live`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct MotionLimits {
    /// Top speed (units per second), before [`MotionLimits::speed_scale`].
    pub top_speed: Option<f32>,
    /// Acceleration limit (units per second²).
    pub acceleration: Option<f32>,
    /// Turn-rate limit (radians per second).
    pub turn_rate: Option<f32>,
    /// Steepest ground the unit climbs (radians from the horizontal).
    pub slope_limit: Option<f32>,
    /// The placed object's `MaxSpeedPercent` / 100 (1 without the property).
    pub speed_scale: f32,
    /// r, the spare payload ÷ the payload: 1 empty, 0 full (openparkan
    /// `docs/24-motion.md`, read). 1 when the data gives no payload (the project's:
    /// every shipped chassis has one).
    pub load: f32,
}

impl Default for MotionLimits {
    fn default() -> Self {
        Self { top_speed: None, acceleration: None, turn_rate: None, slope_limit: None, speed_scale: 1.0, load: 1.0 }
    }
}

/// The live forward top speed under which a unit may not be ordered (m/s): it refuses
/// every order and takes no task of its own; buildings are exempt (openparkan
/// `docs/24-motion.md`, read). The AI's guns score such a machine against the lower bar
/// (`docs/29-weapons.md`, read).
pub const ORDERABLE_SPEED: f32 = 0.5;

/// What a machine's engines and running gear give it now (openparkan
/// `docs/24-motion.md`, read): combat keeps it from the body after every change.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Drive {
    /// Σ over its engines of drive (value 0) × condition (its node's life fraction).
    pub engines: f32,
    /// The mean life fraction of its left running gear's nodes (`.ndp` flag `0x20`; 1
    /// without any).
    pub left: f32,
    /// The same of its right running gear (flag `0x40`).
    pub right: f32,
}

impl Drive {
    /// E: the engines times the mean of the two sides' gear.
    pub fn factor(&self) -> f32 {
        self.engines * (self.left + self.right) / 2.0
    }
}

impl MotionLimits {
    /// The smallest positive finite value of `values` (the project's combination rule).
    pub fn weakest(values: impl IntoIterator<Item = f32>) -> Option<f32> {
        values.into_iter().filter(|v| v.is_finite() && *v > 0.0).reduce(f32::min)
    }

    /// The top speed in effect: the data's (or `default`) times the speed scale.
    pub fn speed_or(&self, default: f32) -> f32 {
        self.top_speed.unwrap_or(default) * self.speed_scale
    }

    /// The live limits of a machine with `drive` (openparkan `docs/24-motion.md`, read;
    /// the ground factor is 1 on all shipped ground): top speed × E × (1 + r) ÷ 2, never
    /// above the authored; turn rate × E × (1.5 r + 0.5), not capped; acceleration × 2.
    /// Without a drive (an object whose data names no engine) the authored limits stand
    /// (the project's).
    pub fn live(&self, drive: Option<&Drive>) -> Self {
        let Some(drive) = drive else { return *self };
        let (e, r) = (drive.factor(), self.load);
        Self {
            top_speed: self.top_speed.map(|top| top * (e * (1.0 + r) / 2.0).min(1.0)),
            turn_rate: self.turn_rate.map(|turn| turn * e * (1.5 * r + 0.5)),
            acceleration: self.acceleration.map(|a| a * 2.0),
            ..*self
        }
    }

    /// Whether a unit moving at these (live) limits may be ordered: its forward top
    /// speed is at least [`ORDERABLE_SPEED`] (a unit whose data gives none may).
    pub fn orderable(&self) -> bool {
        self.top_speed.is_none_or(|top| top >= ORDERABLE_SPEED)
    }
}

/// The physical state Control integrates (written by Control only).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Kinematics {
    /// Signed speed along the heading (units per second).
    pub speed: f32,
    /// Turn rate (radians per second).
    pub turn_rate: f32,
    /// The turn (radians) the hull made this tick following its turret (a driven bot's
    /// turret lock, [`HULL_FOLLOW`]): combat turns the turret back by it, so the aim holds.
    pub follow: f32,
}

/// The share of its live turn rate at which a driven bot's hull follows its turret
/// (openparkan `docs/24-motion.md`, read and measured: 0.7 × the live yaw rate).
pub const HULL_FOLLOW: f32 = 0.7;

/// A collision proxy built by Control from [`crate::ModelBounds`] and scale (rebuilt
/// when they change): a circle for units, an oriented box for everything static.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct CollisionProxy {
    /// Radius of the bounding circle (the unit's radius).
    pub radius: f32,
    /// Half extents of the box in the object's local XY (boxes only).
    pub half_extents: [f32; 2],
    /// Offset of the shape centre from the object's position, local XY.
    pub offset: [f32; 2],
    /// Circle (units) or box (static objects).
    pub circle: bool,
}

/// The `BuildDat.lst` category of a building placed from a scheme the list names (spec
/// `docs/reference/registry.md` §3), as its mask (`0x80010000` Bunker_Small … `0x80200000`
/// Tower_Large). The mission load inserts it at registration; Wizard pads the
/// building's footprint by the category's clearance (`iron3d_wizard::WizardConfig`).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct BuildingCategory(pub u32);

impl BuildingCategory {
    /// The category of a mask (`None` for a mask no category has).
    pub fn category(self) -> Option<iron3d_formats::registry::BuildCategory> {
        iron3d_formats::registry::BuildCategory::TABLE.iter().find(|(_, _, m)| *m == self.0).map(|(c, _, _)| *c)
    }
}

/// The player's direct control of a unit (piloting), set by Behavior from
/// [`crate::Order::Pilot`] and removed by [`crate::Order::Release`]: Control drives the
/// unit from it instead of Wizard's request, its weapon aims and fires by it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct ManualControl {
    /// The held input (throttle, turn) and this tick's aim and fire.
    pub input: crate::PilotInput,
    /// The tick `input` arrived in (aim and fire act in that tick only).
    pub tick: u32,
    /// The tick the player took the unit (its guns' starting set is picked then).
    pub since: u32,
    /// The auto-driver level he drives it at ([`AutoDriver`]; 0 on the hero).
    pub level: u8,
    /// He switched the turret lock off ([`crate::PilotInput::turret_lock`]): the hull
    /// keeps the player's spin instead of following the turret. A take starts with the
    /// lock on (openparkan `docs/14-controls.md`, read).
    pub unlocked: bool,
}

impl ManualControl {
    /// Whether the player moves the unit (level 0): its orders and walker wait.
    pub fn moves(&self) -> bool {
        self.level == 0
    }

    /// Whether the player moves a unit with direct control `m` (none: the AI does).
    pub fn moving(m: Option<&Self>) -> bool {
        m.is_some_and(Self::moves)
    }

    /// Whether the player's aim and triggers work its turret and guns (levels 0 and 1).
    pub fn fights(&self) -> bool {
        self.level < 2
    }
}

/// A unit's auto-driver level (openparkan `docs/31-packages.md`, `docs/13-control.md`,
/// read): kept on the unit (letting go keeps it, a take takes the unit at it), stepped
/// 0 → 1 → 2 → 0 by `CMD_JAMES_AUTO_DRIVER` while the player drives it
/// ([`crate::Order::AutoDriver`]): 0 the player drives all, 1 the unit's orders move it
/// and its turret and guns stay the player's, 2 the AI moves and fights it. The hero
/// ignores it. Without the component a unit is at 0.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct AutoDriver(pub u8);

impl AutoDriver {
    /// How many levels there are.
    pub const LEVELS: u8 = 3;

    /// The level after this one.
    pub fn next(self) -> Self {
        Self((self.0 + 1) % Self::LEVELS)
    }
}
