//! World3D (`docs/reference/runtime.md` §1, §7.3): object lifetime and the message queue. Every
//! simulated object gets a generational [`iron3d_core::ObjectHandle`] when it joins the
//! world (announced with `GMSG_INIT`); the clock advances at the start of each tick
//! (`GMSG_NEW_GAME_TICK`); deletions requested from anywhere wait for the
//! `SimSystems::World3d` boundary, are applied in id order, then announced
//! (`GMSG_KILL_GAMEOBJECT`). A deleted object's handle resolves to nothing.

mod lifetime;

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{AppState, InputPhase, World3dPhase};

/// Installs the object table upkeep, the clock and deferred deletion.
#[derive(Debug, Default)]
pub struct World3dPlugin;

impl Plugin for World3dPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(lifetime::on_join)
            .add_observer(lifetime::on_leave)
            .add_systems(OnEnter(AppState::Loading), lifetime::reset)
            .add_systems(OnExit(AppState::InGame), lifetime::reset)
            .add_systems(FixedUpdate, lifetime::advance_clock.in_set(InputPhase::World3d))
            .add_systems(FixedUpdate, lifetime::apply_deletions.in_set(World3dPhase::Deletions));
    }
}

#[cfg(test)]
mod tests;
