//! The rebinding capture: the settings screen names an action, the next button pressed
//! on any device becomes its binding of that device and the bindings are saved. Escape
//! cancels (unless the action being bound is the pause key itself).

use crate::actions::GameAction;
use crate::bindings::{Binding, Bindings};
use bevy::prelude::*;

/// The action waiting for its new button, and the last save error.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct Rebinding {
    /// The action to bind the next pressed button to.
    pub action: Option<GameAction>,
    /// Why the last change could not be saved.
    pub error: Option<String>,
}

/// The first button that went down this frame, keyboard first.
fn pressed(keys: &ButtonInput<KeyCode>, mouse: &ButtonInput<MouseButton>, pads: &Query<&Gamepad>) -> Option<Binding> {
    keys.get_just_pressed()
        .next()
        .map(|&k| Binding::Key(k))
        .or_else(|| mouse.get_just_pressed().next().map(|&b| Binding::Mouse(b)))
        .or_else(|| pads.iter().find_map(|p| p.get_just_pressed().next().map(|&b| Binding::Pad(b))))
}

/// Binds the waiting action to the next pressed button and saves.
pub(crate) fn capture(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    pads: Query<&Gamepad>,
    mut rebinding: ResMut<Rebinding>,
    mut bindings: ResMut<Bindings>,
) {
    let Some(action) = rebinding.action else { return };
    let Some(binding) = pressed(&keys, &mouse, &pads) else { return };
    rebinding.action = None;
    if binding == Binding::Key(KeyCode::Escape) && action != GameAction::Pause {
        return;
    }
    bindings.rebind(action, binding);
    rebinding.error = bindings.save_user().err();
}
