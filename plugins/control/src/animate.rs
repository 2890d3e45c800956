//! CTLD-bound pieces (`docs/reference/registry.md` §5.5): Control owns their animation state.
//! Cycling bindings (radars, rotors) advance through their frame range at
//! [`ControlConfig::piece_frames_per_second`] every tick; the others keep their initial
//! pose. Presentation only reads [`PieceAnimation`].

use crate::ControlConfig;
use bevy_ecs::prelude::*;
use iron3d_core::{PieceAnimation, PieceBinding, TICK_SECONDS};

/// Advances the cycling bindings of every object by one tick.
pub(crate) fn animate(config: Res<ControlConfig>, mut objects: Query<&mut PieceAnimation>) {
    let frames = config.piece_frames_per_second * TICK_SECONDS;
    for mut animation in &mut objects {
        if animation.bindings.iter().any(PieceBinding::cycles) {
            animation.bindings.iter_mut().for_each(|b| b.advance(frames));
        }
    }
}
