//! Behavior (`docs/reference/runtime.md` §1, §2.2, §3.6): per-unit orders (move to a point or an
//! object, follow or patrol a mission path, stop). For each leg the **global path** is
//! the areal route over `Land.map` and the **local path** a polyline inside the
//! corridor around it (`PathFind_CorridorRadius`), with a revision counter. Behavior
//! publishes [`iron3d_core::NavStatus`] and a [`iron3d_core::SteerIntent`] for Wizard,
//! reports the six error conditions of §1 as diagnostics, and tells Wizard to clear
//! its path on a target change, a damaged global path or a stop. It also keeps each
//! armed object's radar target and closes attacking units in to weapon range (the
//! project's own combat rules), runs transport robots' haul orders ([`haul`], the
//! original's route), refits at docks (the original's orders 8 and 9, and the
//! self-order of a machine low on life, battery or rounds), builders' lode searches
//! ([`lodes`], the original's *Search minerals*), builders' construct and upgrade orders
//! ([`build`], the original's build and upgrade tasks) and animals' migration (the
//! original's, `gameplay.md` §1.4).

mod boarding;
pub mod build;
mod capture;
mod config;
mod follow;
mod footprints;
mod guard;
pub mod haul;
pub mod lodes;
mod migrate;
mod navigator;
mod orders;
pub mod planner;
mod radar;
mod refit;
mod saved;
mod search;
mod station;

pub use boarding::{ENTER_REACH, RISK_AREA};
pub use build::BuildTrip;
pub use capture::{Pod, Pods, pod_fire_ms};
pub use config::BehaviorConfig;
pub use guard::{Guards, Hold, Watch};
pub use haul::HaulTrip;
pub use migrate::{AttackLimit, ClanPasture, Migration, Pastures};
pub use navigator::Navigator;
pub use station::FOLLOW_RADIUS;

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, BehaviorPhase, MissionLoadPhase, MissionStart};

/// `LockBehaviour` is off: units are steered (locked, they keep their orders and stand).
fn unlocked(config: Res<BehaviorConfig>) -> bool {
    !config.locked
}

/// Installs Behavior in `SimSystems::Behavior`.
#[derive(Debug, Default)]
pub struct BehaviorPlugin;

impl Plugin for BehaviorPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BehaviorConfig>()
            .init_resource::<haul::Haulage>()
            .init_resource::<Pastures>()
            .init_resource::<Pods>()
            .init_resource::<search::Searches>()
            .init_resource::<Guards>()
            .register_type::<BehaviorConfig>()
            .register_type::<Navigator>()
            .register_type::<HaulTrip>()
            .register_type::<BuildTrip>()
            .register_type::<Migration>()
            .register_type::<Pastures>()
            .add_systems(
                OnEnter(MissionLoadPhase::ScenarioStart),
                (haul::adopt_rules, migrate::reset, capture::reset, search::reset, guard::reset),
            )
            .add_systems(OnEnter(AppState::InGame), config::load.in_set(MissionStart::Config))
            .add_systems(
                FixedUpdate,
                (orders::activate, orders::ground, build::screen, orders::apply_commands)
                    .chain()
                    .in_set(BehaviorPhase::Orders),
            )
            .add_systems(
                FixedUpdate,
                (
                    haul::haul.run_if(unlocked),
                    refit::refit.run_if(unlocked),
                    lodes::search.run_if(unlocked),
                    build::run.run_if(unlocked),
                    (search::search, guard::guard, capture::step, capture::pods, boarding::step, station::follow)
                        .chain()
                        .run_if(unlocked),
                    migrate::migrate.run_if(unlocked),
                    radar::scan,
                    (follow::plan_legs, follow::follow).chain().run_if(unlocked),
                )
                    .chain()
                    .in_set(BehaviorPhase::Units),
            );
        saved::declare(app);
    }
}
