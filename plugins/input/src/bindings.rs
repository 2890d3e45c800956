//! The player's button bindings: shipped defaults, kept in `bindings.ron` in the user's
//! config directory, changed on the rebinding screen. A binding replaces the action's
//! binding of the same device (a key replaces a key, a mouse or gamepad button stays).

use crate::actions::GameAction;
use bevy::prelude::*;
use iron3d_vfs::user_files::{self, Versioned};
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The file name in the config directory.
pub const FILE: &str = "bindings.ron";

/// One button of one device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum Binding {
    /// A keyboard key.
    Key(KeyCode),
    /// A mouse button.
    Mouse(MouseButton),
    /// A gamepad button.
    Pad(GamepadButton),
}

impl Binding {
    fn device(self) -> u8 {
        match self {
            Self::Key(_) => 0,
            Self::Mouse(_) => 1,
            Self::Pad(_) => 2,
        }
    }

    /// How menus show it.
    pub fn label(self) -> String {
        match self {
            Self::Key(k) => format!("{k:?}").trim_start_matches("Key").to_string(),
            Self::Mouse(b) => format!("Mouse {b:?}"),
            Self::Pad(b) => format!("Pad {b:?}"),
        }
    }
}

/// The buttons of every button action (the analog bindings are fixed, see
/// [`GameAction::add_axes`]).
#[derive(Resource, Debug, Clone, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Resource)]
pub struct Bindings {
    /// File version.
    pub version: u32,
    /// Buttons by action.
    pub buttons: BTreeMap<GameAction, Vec<Binding>>,
}

impl Versioned for Bindings {
    const VERSION: u32 = 1;
    fn version(&self) -> u32 {
        self.version
    }
}

impl Default for Bindings {
    fn default() -> Self {
        use Binding::{Key, Mouse, Pad};
        use GameAction::*;
        let mut buttons: BTreeMap<GameAction, Vec<Binding>> = BTreeMap::new();
        let table: [(GameAction, &[Binding]); 26] = [
            (Select, &[Mouse(MouseButton::Left), Pad(GamepadButton::South)]),
            (Order, &[Mouse(MouseButton::Right), Pad(GamepadButton::West)]),
            (Queue, &[Key(KeyCode::ShiftLeft)]),
            (GroupModifier, &[Key(KeyCode::ControlLeft)]),
            (Stop, &[Key(KeyCode::KeyH), Pad(GamepadButton::East)]),
            (CameraLookHold, &[Key(KeyCode::AltLeft), Mouse(MouseButton::Middle)]),
            (CameraFast, &[Key(KeyCode::ShiftLeft)]),
            (CameraCenter, &[Key(KeyCode::Home), Pad(GamepadButton::RightThumb)]),
            (CameraInfrared, &[Key(KeyCode::KeyI)]),
            (CameraZoomMode, &[Key(KeyCode::KeyZ)]),
            (Spotlight, &[Key(KeyCode::KeyL)]),
            (CameraFreeFly, &[Key(KeyCode::KeyF), Pad(GamepadButton::Select)]),
            (CameraFollow, &[Key(KeyCode::KeyV)]),
            (Pilot, &[Key(KeyCode::KeyP), Pad(GamepadButton::North)]),
            (Enter, &[Key(KeyCode::Enter), Key(KeyCode::NumpadEnter), Pad(GamepadButton::LeftThumb)]),
            (Wingmen, &[Key(KeyCode::Backquote), Pad(GamepadButton::DPadLeft)]),
            (Fire, &[Mouse(MouseButton::Left), Key(KeyCode::Space), Pad(GamepadButton::RightTrigger2)]),
            (Camouflage, &[Key(KeyCode::KeyC), Pad(GamepadButton::LeftTrigger2)]),
            (TurnLeft, &[Key(KeyCode::Comma)]),
            (TurnRight, &[Key(KeyCode::Period)]),
            (Pause, &[Key(KeyCode::Escape), Pad(GamepadButton::Start)]),
            (Chat, &[Key(KeyCode::Enter)]),
            (QuickSave, &[Key(KeyCode::F5)]),
            (QuickLoad, &[Key(KeyCode::F9)]),
            (DebugOverlay, &[Key(KeyCode::F3)]),
            (Inspector, &[Key(KeyCode::F12)]),
        ];
        for (action, list) in table {
            buttons.insert(action, list.to_vec());
        }
        let digits = [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
            KeyCode::Digit9,
        ];
        for (group, key) in GameAction::GROUPS.into_iter().zip(digits) {
            buttons.insert(group, vec![Key(key)]);
        }
        Self { version: Self::VERSION, buttons }
    }
}

/// Where the bindings are kept: `bindings.ron` in the user's config directory (`None`: no
/// config directory is known).
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct BindingsFile(pub Option<PathBuf>);

impl BindingsFile {
    /// The user's file.
    pub fn user() -> Self {
        Self(user_files::config_dir().map(|d| d.join(FILE)))
    }

    /// The bindings kept in the file, else the defaults (a broken file is reported and
    /// left untouched); an action the file does not name (added since) gets its default.
    pub fn load(&self) -> Bindings {
        let Some(path) = &self.0 else { return Bindings::default() };
        match user_files::read::<Bindings>(path) {
            Ok(Some(b)) => b.with_defaults(),
            Ok(None) => Bindings::default(),
            Err(e) => {
                warn!("key bindings: {e}; using the defaults");
                Bindings::default()
            }
        }
    }

    /// Saves `bindings` in the file.
    ///
    /// # Errors
    /// No config directory is known, or the file cannot be written.
    pub fn save(&self, bindings: &Bindings) -> Result<(), String> {
        let path = self.0.as_ref().ok_or("no config directory (set IRON3D_USER_DIR or HOME)")?;
        user_files::write(path, bindings)
    }
}

impl Bindings {
    /// These bindings, with the default of every action they do not name.
    pub fn with_defaults(mut self) -> Self {
        for (action, list) in Self::default().buttons {
            self.buttons.entry(action).or_insert(list);
        }
        self
    }

    /// Binds `action` to `binding`, replacing its binding of the same device.
    pub fn rebind(&mut self, action: GameAction, binding: Binding) {
        let list = self.buttons.entry(action).or_default();
        list.retain(|b| b.device() != binding.device());
        list.insert(0, binding);
    }

    /// The input map: the fixed axes and these buttons.
    pub fn input_map(&self) -> InputMap<GameAction> {
        let mut map = InputMap::default();
        GameAction::add_axes(&mut map);
        for (&action, list) in &self.buttons {
            for &binding in list {
                match binding {
                    Binding::Key(k) => map.insert(action, k),
                    Binding::Mouse(b) => map.insert(action, b),
                    Binding::Pad(b) => map.insert(action, b),
                };
            }
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_action_has_a_default_and_rebinding_keeps_other_devices() {
        let mut b = Bindings::default();
        for action in GameAction::BUTTONS {
            assert!(b.buttons.get(&action).is_some_and(|l| !l.is_empty()), "{action:?} unbound");
        }
        b.rebind(GameAction::Stop, Binding::Key(KeyCode::KeyB));
        assert_eq!(b.buttons[&GameAction::Stop], [Binding::Key(KeyCode::KeyB), Binding::Pad(GamepadButton::East)]);
        let text = ron::to_string(&b).unwrap();
        assert_eq!(ron::from_str::<Bindings>(&text).unwrap(), b, "bindings round-trip through RON");
        assert!(b.input_map().get_buttonlike(&GameAction::Stop).is_some_and(|l| l.len() == 2));
        b.buttons.remove(&GameAction::QuickLoad);
        let b = b.with_defaults();
        assert_eq!(b.buttons[&GameAction::QuickLoad], [Binding::Key(KeyCode::F9)], "an action added since the file");
        assert_eq!(b.buttons[&GameAction::Stop][0], Binding::Key(KeyCode::KeyB), "the file's own stay");
    }
}
