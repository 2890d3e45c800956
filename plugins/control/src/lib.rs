//! Control (`docs/reference/runtime.md` §5.6): the physical step of every unit. Requested velocity
//! (from Wizard, later manual input) → turn and acceleration limits (`PathFind_MaxRotation`,
//! `PathFind_MaxAccel`) → candidate transform from `dt` → terrain following (height and
//! normal of `Land.msh`: ground units pitch and roll with the slope) → collision proxies
//! (circles for units, boxes for static objects, from the model bounds, rebuilt when
//! they change) → broad phase (uniform grid) → narrow phase → corrected state → final
//! transform. Pairs are processed in id order; each new contact posts
//! `GMSG_COLLISION_DETECTED` once, after the narrow phase, and triggers
//! [`iron3d_core::Collided`] on both objects. Control also owns the animation state of
//! CTLD-bound model pieces ([`iron3d_core::PieceAnimation`]).

mod animate;
mod collide;
mod config;
mod step;

pub use collide::{CONTACT_TOLERANCE, Contacts};
pub use config::ControlConfig;

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, ControlPhase, MissionStart, StateApp};

/// Installs Control in `SimSystems::Control` (its `ControlPhase::Motion` step).
#[derive(Debug, Default)]
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ControlConfig>()
            .init_resource::<Contacts>()
            .register_type::<ControlConfig>()
            .register_type::<Contacts>()
            .save_resource::<Contacts>("control.contacts", iron3d_core::Hashing::Bytes)
            .add_systems(OnEnter(AppState::InGame), config::load.in_set(MissionStart::Config))
            .add_systems(OnExit(AppState::InGame), collide::reset)
            .add_systems(
                FixedUpdate,
                ((step::build_proxies, step::step, collide::collide).chain(), animate::animate)
                    .in_set(ControlPhase::Motion),
            );
    }
}
