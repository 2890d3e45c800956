//! The rebinding capture: the settings screen names an action, the next button pressed
//! on any device becomes its binding of that device and the bindings are saved. Escape
//! cancels (unless the action being bound is the pause key itself). The capture runs in
//! `PreUpdate` before egui and the game read the frame's input, so a mouse button
//! pressed over the settings window is captured (egui would absorb it) and the captured
//! key, mouse button or gamepad button reaches neither egui nor the game.

use crate::actions::GameAction;
use crate::bindings::{BaseBindings, Binding, Bindings, BindingsFile};
use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::MouseButtonInput;
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

/// This frame's buttons, before egui and the game read them.
#[derive(SystemParam)]
pub(crate) struct FrameButtons<'w, 's> {
    keys: ResMut<'w, ButtonInput<KeyCode>>,
    mouse: ResMut<'w, ButtonInput<MouseButton>>,
    key_messages: ResMut<'w, Messages<KeyboardInput>>,
    mouse_messages: ResMut<'w, Messages<MouseButtonInput>>,
    pads: Query<'w, 's, &'static mut Gamepad>,
}

impl FrameButtons<'_, '_> {
    /// The first button that went down this frame, keyboard first.
    fn first_pressed(&self) -> Option<Binding> {
        self.keys
            .get_just_pressed()
            .next()
            .map(|&k| Binding::Key(k))
            .or_else(|| self.mouse.get_just_pressed().next().map(|&b| Binding::Mouse(b)))
            .or_else(|| self.pads.iter().find_map(|p| p.get_just_pressed().next().map(|&b| Binding::Pad(b))))
    }

    /// Takes a press out of the frame: a key or mouse button with its device's messages
    /// (egui reads them), a gamepad button from the pads that pressed it (the game reads
    /// their state). A button held on is not pressed again until it is released.
    fn consume(&mut self, binding: Binding) {
        match binding {
            Binding::Key(k) | Binding::Chord(_, k) => {
                self.keys.reset(k);
                self.key_messages.clear();
            }
            Binding::Mouse(b) => {
                self.mouse.reset(b);
                self.mouse_messages.clear();
            }
            Binding::Pad(b) => {
                for mut pad in &mut self.pads {
                    pad.digital_mut().reset(b);
                    pad.analog_mut().set(b, 0.0);
                }
            }
        }
    }
}

/// Binds the waiting action to the first button pressed this frame and saves.
pub(crate) fn capture(
    mut buttons: FrameButtons,
    file: Res<BindingsFile>,
    mut rebinding: ResMut<Rebinding>,
    mut bindings: ResMut<Bindings>,
    base: Res<BaseBindings>,
) {
    let Some(action) = rebinding.action else { return };
    let Some(binding) = buttons.first_pressed() else { return };
    buttons.consume(binding);
    rebinding.action = None;
    if binding == Binding::Key(KeyCode::Escape) && action != GameAction::Pause {
        return;
    }
    bindings.rebind(action, binding);
    rebinding.error = file.save(&bindings, &base.0).err();
}
