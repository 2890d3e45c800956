//! Wizard (`docs/reference/runtime.md` §1): short-horizon trajectory correction. Each tick it
//! turns Behavior's [`iron3d_core::SteerIntent`] into a [`iron3d_core::MotionRequest`]
//! that avoids other units (moving and idle), building footprints and non-walkable
//! ground (outside every areal), and stays inside the corridor. It samples candidate
//! velocities around the preferred one and scores each by how far it strays from the
//! preference, the overlaps it predicts, the corridor and its own last choice (the
//! wizard path, which Behavior clears). A unit weighs every building footprint within
//! reach — padded by the clearance of its `BuildDat.lst` category
//! ([`iron3d_core::BuildingCategory`], the project's own rule), or while its
//! construction sphere stands as an obstacle the dome's octagon in its place
//! ([`iron3d_core::DomeObstacle`], read) — and its nearest
//! `max_neighbours` units, found ring by ring of a grid so the work stays bounded in
//! dense crowds. Only ordered float arithmetic on a snapshot in id order: no random
//! numbers, so the result is the same on every machine. With `UseWizard=0` in
//! `Behavior.ini` Wizard is bypassed: units head straight along Behavior's local path.

mod avoid;

pub use avoid::{WizardConfig, WizardPath};

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, MissionStart, SimSystems, StateApp};

/// Installs Wizard in `SimSystems::Wizard`.
#[derive(Debug, Default)]
pub struct WizardPlugin;

impl Plugin for WizardPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WizardConfig>()
            .register_type::<WizardConfig>()
            .register_type::<WizardPath>()
            .save_component::<WizardPath>("wizard.path", iron3d_core::Hashing::Bytes)
            .add_systems(OnEnter(AppState::InGame), avoid::load.in_set(MissionStart::Config))
            .add_systems(FixedUpdate, (avoid::activate, avoid::clear, avoid::steer).chain().in_set(SimSystems::Wizard));
    }
}
