//! The player's button bindings: iron3d's defaults, under the original's keys when the
//! data has them ([`crate::original`]), under the user's own changes, kept in
//! `bindings.ron` in the user's config directory (only the actions that differ from what
//! they go over) and made on the rebinding screen. A binding replaces the action's binding
//! of the same device (a key replaces a key, a mouse or gamepad button stays).

use crate::actions::GameAction;
use crate::original::{AxisKeys, OriginalKeys};
use bevy::prelude::*;
use iron3d_vfs::user_files::{self, Versioned};
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
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
    /// A key held with a modifier key (the original's chords).
    Chord(KeyCode, KeyCode),
}

impl Binding {
    fn device(self) -> u8 {
        match self {
            Self::Key(_) | Self::Chord(..) => 0,
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
            Self::Chord(m, k) => format!("{}+{}", Self::Key(m).label(), Self::Key(k).label()),
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
    /// Keys the original's files add to the analog actions (never kept in the file).
    #[serde(skip)]
    #[reflect(ignore)]
    pub axes: Vec<AxisKeys>,
    /// How the original's `ScanCode.dsc` names the buttons (never kept in the file).
    #[serde(skip)]
    #[reflect(ignore)]
    pub labels: HashMap<Binding, String>,
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
        let table: [(GameAction, &[Binding]); 38] = [
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
            (SatelliteMap, &[Key(KeyCode::KeyM)]),
            (Pager, &[Key(KeyCode::F2)]),
            (Objectives, &[Key(KeyCode::KeyO)]),
            (Help, &[Key(KeyCode::F1)]),
            (Spotlight, &[Key(KeyCode::KeyL)]),
            (CameraFreeFly, &[Key(KeyCode::KeyF), Pad(GamepadButton::Select)]),
            (CameraFollow, &[Key(KeyCode::KeyV)]),
            (Pilot, &[Key(KeyCode::KeyP), Pad(GamepadButton::North)]),
            (Enter, &[Key(KeyCode::Enter), Key(KeyCode::NumpadEnter), Pad(GamepadButton::LeftThumb)]),
            (Wingmen, &[Key(KeyCode::Backquote), Pad(GamepadButton::DPadLeft)]),
            (SelectTarget, &[Key(KeyCode::Tab), Pad(GamepadButton::DPadRight)]),
            (SelectEnemy, &[Key(KeyCode::KeyE)]),
            (SelectFriend, &[Key(KeyCode::KeyT)]),
            (Fire, &[Mouse(MouseButton::Left), Key(KeyCode::Space), Pad(GamepadButton::RightTrigger2)]),
            (FireMissiles, &[Mouse(MouseButton::Middle), Pad(GamepadButton::RightTrigger)]),
            (FireAll, &[Key(KeyCode::KeyB)]),
            (Camouflage, &[Key(KeyCode::KeyC), Pad(GamepadButton::LeftTrigger2)]),
            (TurretLock, &[Key(KeyCode::Numpad5)]),
            (AutoDriver, &[Key(KeyCode::KeyY)]),
            (OuterCamera, &[Key(KeyCode::F4)]),
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
        for ((group, weapon), key) in GameAction::GROUPS.into_iter().zip(GameAction::WEAPONS).zip(digits) {
            buttons.insert(group, vec![Key(key)]);
            buttons.insert(weapon, vec![Key(key)]);
        }
        buttons.insert(AllWeapons, vec![Key(KeyCode::Digit0)]);
        Self { version: Self::VERSION, buttons, axes: Vec::new(), labels: HashMap::new() }
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

    /// The bindings kept in the file over `base` (a broken file is reported and left
    /// untouched); an action the file does not name takes `base`'s.
    pub fn load(&self, base: &Bindings) -> Bindings {
        let Some(path) = &self.0 else { return base.clone() };
        match user_files::read::<Bindings>(path) {
            Ok(Some(b)) => b.over(base),
            Ok(None) => base.clone(),
            Err(e) => {
                warn!("key bindings: {e}; using the defaults");
                base.clone()
            }
        }
    }

    /// Saves in the file the actions of `bindings` that differ from `base`.
    ///
    /// # Errors
    /// No config directory is known, or the file cannot be written.
    pub fn save(&self, bindings: &Bindings, base: &Bindings) -> Result<(), String> {
        let path = self.0.as_ref().ok_or("no config directory (set IRON3D_USER_DIR or HOME)")?;
        let buttons = bindings.buttons.iter().filter(|(a, l)| base.buttons.get(a) != Some(l));
        let changes = Bindings { buttons: buttons.map(|(a, l)| (*a, l.clone())).collect(), ..Bindings::default() };
        user_files::write(path, &changes)
    }
}

/// The bindings the user's file goes over: iron3d's defaults, under the original's keys
/// when the data has them.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub struct BaseBindings(pub Bindings);

impl Bindings {
    /// These bindings over `base`: every action they do not name takes `base`'s, and the
    /// axes are `base`'s.
    pub fn over(mut self, base: &Bindings) -> Self {
        for (action, list) in &base.buttons {
            self.buttons.entry(*action).or_insert_with(|| list.clone());
        }
        self.axes.clone_from(&base.axes);
        self.labels.clone_from(&base.labels);
        self
    }

    /// How menus show `binding`: the original's label when its data names the key.
    pub fn label(&self, binding: Binding) -> String {
        match binding {
            Binding::Chord(m, k) => format!("{}+{}", self.label(Binding::Key(m)), self.label(Binding::Key(k))),
            b => self.labels.get(&b).cloned().unwrap_or_else(|| b.label()),
        }
    }

    /// These bindings under the original's: each action the original binds takes its
    /// buttons (a mouse or gamepad button of iron3d's stays when the original gives that
    /// device none), a key it gives leaves every other action that had it but its twin
    /// ([`GameAction::twin`]), and its axis keys join the axes; a key of the developer's
    /// ([`GameAction::DEBUG`]) stays theirs.
    /// What moved, a line each, for the log.
    pub fn with_original(mut self, original: &OriginalKeys) -> (Self, Vec<String>) {
        let debug: Vec<Binding> =
            GameAction::DEBUG.iter().filter_map(|a| self.buttons.get(a)).flatten().copied().collect();
        let mut log = Vec::new();
        let mut given: BTreeMap<GameAction, Vec<Binding>> = BTreeMap::new();
        for (action, list) in &original.buttons {
            let (kept, theirs): (Vec<Binding>, Vec<Binding>) = list.iter().partition(|b| !debug.contains(b));
            log.extend(theirs.iter().map(|b| format!("{} stays the developer's, not given to {action:?}", b.label())));
            given.insert(*action, kept);
        }
        for (action, list) in &mut self.buttons {
            if let Some(given) = given.get(action).filter(|g| !g.is_empty()) {
                list.retain(|b| given.iter().all(|g| g.device() != b.device()));
                list.splice(0..0, given.iter().copied());
            } else if !GameAction::DEBUG.contains(action) {
                let others = given.iter().filter(|(a, _)| Some(**a) != action.twin());
                let theirs = |b: &Binding| b.device() == 0 && others.clone().flat_map(|(_, g)| g).any(|g| g == b);
                let lines = list.iter().filter(|b| theirs(b));
                log.extend(lines.map(|b| format!("{} is the original's, taken from {action:?}", b.label())));
                list.retain(|b| !theirs(b));
            }
        }
        self.axes.clone_from(&original.axes);
        self.labels.clone_from(&original.labels);
        (self, log)
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
        for axis in &self.axes {
            for i in 0..axis.keys.iter().map(Vec::len).max().unwrap_or(0) {
                let key = |side: usize| axis.keys[side].get(i).or(axis.keys[side].last()).copied();
                match (axis.action, key(0), key(1), key(2), key(3)) {
                    (GameAction::CameraRise | GameAction::Strafe, Some(up), Some(down), ..) => {
                        map.insert_axis(axis.action, VirtualAxis::new(down, up));
                    }
                    (action, Some(up), Some(down), Some(left), Some(right)) => {
                        map.insert_dual_axis(action, VirtualDPad::new(up, down, left, right));
                    }
                    _ => {}
                }
            }
        }
        for (&action, list) in &self.buttons {
            for &binding in list {
                match binding {
                    Binding::Key(k) => map.insert(action, k),
                    Binding::Mouse(b) => map.insert(action, b),
                    Binding::Pad(b) => map.insert(action, b),
                    Binding::Chord(m, k) => map.insert(action, ButtonlikeChord::new([m, k])),
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
        let b = b.over(&Bindings::default());
        assert_eq!(b.buttons[&GameAction::QuickLoad], [Binding::Key(KeyCode::F9)], "an action added since the file");
        assert_eq!(b.buttons[&GameAction::Stop][0], Binding::Key(KeyCode::KeyB), "the file's own stay");
    }

    #[test]
    fn the_originals_keys_go_under_the_users_and_take_their_keys_from_other_actions() {
        use Binding::{Key, Mouse, Pad};
        use GameAction::{CameraRise, Camouflage, Fire, Stop};
        let mut original = OriginalKeys::default();
        original.buttons.insert(Camouflage, vec![Key(KeyCode::KeyH)]);
        original.buttons.insert(Fire, vec![Mouse(MouseButton::Left)]);
        original.buttons.insert(GameAction::Objectives, vec![Key(KeyCode::F12)]);
        original.buttons.insert(GameAction::Weapon2, vec![Key(KeyCode::Digit2)]);
        let rise = [vec![KeyCode::Home], vec![KeyCode::End], Vec::new(), Vec::new()];
        original.axes.push(AxisKeys { action: CameraRise, keys: rise });
        let (base, taken) = Bindings::default().with_original(&original);
        assert_eq!(base.buttons[&Camouflage], [Key(KeyCode::KeyH), Pad(GamepadButton::LeftTrigger2)]);
        let fire = [Mouse(MouseButton::Left), Key(KeyCode::Space), Pad(GamepadButton::RightTrigger2)];
        assert_eq!(base.buttons[&Fire], fire, "a device the original does not bind keeps iron3d's");
        assert_eq!(base.buttons[&Stop], [Pad(GamepadButton::East)], "H is the camouflage's now");
        assert_eq!(base.buttons[&GameAction::Inspector], [Key(KeyCode::F12)], "the developer's F12 stays");
        assert_eq!(base.buttons[&GameAction::Objectives], [Key(KeyCode::KeyO)], "iron3d's own, then");
        let two = [Key(KeyCode::Digit2)];
        assert_eq!(
            (&base.buttons[&GameAction::Weapon2][..], &base.buttons[&GameAction::Group2][..]),
            (&two[..], &two[..])
        );
        // Group 2 keeps its digit: it is weapon 2's twin (the groups act in the strategic
        // view, the weapons in a driven unit).
        let log = ["F12 stays the developer's, not given to Objectives", "H is the original's, taken from Stop"];
        assert_eq!(taken, log);
        let axes = |b: &Bindings| b.input_map().get_axislike(&CameraRise).map_or(0, Vec::len);
        assert_eq!(axes(&base), axes(&Bindings::default()) + 1, "Home and End join the rise");

        let dir = std::env::temp_dir().join(format!("iron3d-bindings-{}", std::process::id()));
        let file = BindingsFile(Some(dir.join(FILE)));
        let mut mine = base.clone();
        mine.rebind(Stop, Key(KeyCode::KeyB));
        file.save(&mine, &base).unwrap();
        let saved = user_files::read::<Bindings>(&dir.join(FILE)).unwrap().unwrap();
        assert_eq!(saved.buttons.keys().collect::<Vec<_>>(), [&Stop], "only what differs is kept");
        assert_eq!(file.load(&base), mine, "the user's change over the original's keys");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
