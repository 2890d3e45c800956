//! The original's key bindings (`docs/reference/gameplay.md` §14, openparkan
//! `docs/14-controls.md` and `docs/40-command-mode.md`, read): in play the original looks
//! its game commands up in `addition.man` and the hero's own in `hero.man`. When the data
//! has them, every command iron3d has an action for takes the keys the files give
//! (a chord with its modifier), a key so given leaves every other action that had it, and
//! the command camera's and the drive's keys join their axes. The user's own bindings
//! (`bindings.ron`) go over the result. `ScanCode.dsc` names the keys as the original
//! prints them. The `.tbl` tables are read and checked by `iron3d-cli verify`; their
//! magnitudes and ramps are not applied (the project's own rates drive the camera and the
//! pilot, which has no strafe).

use crate::actions::GameAction;
use crate::bindings::Binding;
use bevy::prelude::*;
use iron3d_formats::config::input_names::{self, NO_MODIFIER};
use iron3d_formats::config::{Descriptor, InputEntry, InputFile, Label, ManBinding, ManFile};
use iron3d_vfs::GameDir;
use std::collections::{BTreeMap, HashMap};

/// The game's commands (`addition.man`), then the hero's (`hero.man`).
pub const FILES: [&str; 2] = ["addition.man", "hero.man"];
/// The keys' names and labels.
pub const SCAN_CODES: &str = "ScanCode.dsc";

/// The original's commands iron3d has a button action for.
const BUTTONS: [(&str, GameAction); 35] = [
    ("CMD_ENTER_STATE", GameAction::Enter),
    ("CMD_ROLLBACK_STATE", GameAction::Pause),
    ("CMD_JAMES_WINGMAN_MENU", GameAction::Wingmen),
    ("CMD_JAMES_SELECT_TARGET", GameAction::SelectTarget),
    ("CMD_JAMES_SELECT_ENEMY", GameAction::SelectEnemy),
    ("CMD_JAMES_SELECT_FRIEND", GameAction::SelectFriend),
    ("CMD_JAMES_ZOOM_MODE", GameAction::CameraZoomMode),
    ("CMD_JAMES_SATELLITE_MAP", GameAction::SatelliteMap),
    ("CMD_PAGER", GameAction::Pager),
    ("CMD_JAMES_MISSION_OBJ", GameAction::Objectives),
    ("CMD_HELP", GameAction::Help),
    ("CMD_JAMES_BASE_ROTLEFT", GameAction::TurnLeft),
    ("CMD_JAMES_BASE_ROTRIGHT", GameAction::TurnRight),
    ("CMD_QUICK_SAVE", GameAction::QuickSave),
    ("CMD_QUICK_LOAD", GameAction::QuickLoad),
    ("CMD_TERMINAL", GameAction::Chat),
    ("CMD_CAMERA_INFRARED", GameAction::CameraInfrared),
    ("CMD_CAMERA_CENTER", GameAction::CameraCenter),
    ("CMD_SPOTLIGHT", GameAction::Spotlight),
    ("CMD_CAMOUFLAGE_WEAR", GameAction::Camouflage),
    ("CMD_JAMES_AUTO_DRIVER", GameAction::AutoDriver),
    ("CMD_JAMES_OUTER_CAMERA", GameAction::OuterCamera),
    ("CMD_FIRE_SELECTED_CONT", GameAction::Fire),
    ("CMD_FIRE_MISSILE", GameAction::FireMissiles),
    ("CMD_FIRE_ALL", GameAction::FireAll),
    ("CMD_SELECT_ALL_WEAPON", GameAction::AllWeapons),
    ("CMD_SELECT_WEAPON_1", GameAction::Weapon1),
    ("CMD_SELECT_WEAPON_2", GameAction::Weapon2),
    ("CMD_SELECT_WEAPON_3", GameAction::Weapon3),
    ("CMD_SELECT_WEAPON_4", GameAction::Weapon4),
    ("CMD_SELECT_WEAPON_5", GameAction::Weapon5),
    ("CMD_SELECT_WEAPON_6", GameAction::Weapon6),
    ("CMD_SELECT_WEAPON_7", GameAction::Weapon7),
    ("CMD_SELECT_WEAPON_8", GameAction::Weapon8),
    ("CMD_SELECT_WEAPON_9", GameAction::Weapon9),
];

/// The axes the original's keys join: the action, then the commands of its up, down,
/// left and right (a single axis: its positive and negative only).
const AXES: [(GameAction, [&str; 4]); 4] = [
    (
        GameAction::CameraPan,
        [
            "CMD_JAMES_HQ_MOVE_FORWARD",
            "CMD_JAMES_HQ_MOVE_BACKWARD",
            "CMD_JAMES_HQ_MOVE_LEFT",
            "CMD_JAMES_HQ_MOVE_RIGHT",
        ],
    ),
    (GameAction::CameraRise, ["CMD_JAMES_HQ_MOVE_UP", "CMD_JAMES_HQ_MOVE_DOWN", "", ""]),
    (GameAction::Drive, ["CMD_OBJ_MOVE_FORWARD", "CMD_OBJ_MOVE_BACKWARD", "CMD_OBJ_TURN_LEFT", "CMD_OBJ_TURN_RIGHT"]),
    (GameAction::Strafe, ["CMD_OBJ_MOVE_LEFT", "CMD_OBJ_MOVE_RIGHT", "", ""]),
];

/// Keys the original's files give to an axis: per direction (up, down, left, right), the
/// keys bound to its command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisKeys {
    /// The axis.
    pub action: GameAction,
    /// Up (or positive), down (or negative), left, right.
    pub keys: [Vec<KeyCode>; 4],
}

/// What the original's files bind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OriginalKeys {
    /// Each button action's bindings, in file order.
    pub buttons: BTreeMap<GameAction, Vec<Binding>>,
    /// The axes' extra keys.
    pub axes: Vec<AxisKeys>,
    /// `ScanCode.dsc`'s label of each binding it names.
    pub labels: HashMap<Binding, String>,
}

/// A button of a scan code (`None`: a mouse axis, a joystick, or the empty key).
fn button(code: u16) -> Option<Binding> {
    use KeyCode::*;
    const MAIN: [KeyCode; 58] = [
        Escape,
        Digit1,
        Digit2,
        Digit3,
        Digit4,
        Digit5,
        Digit6,
        Digit7,
        Digit8,
        Digit9,
        Digit0,
        Minus,
        Equal,
        Backspace,
        Tab,
        KeyQ,
        KeyW,
        KeyE,
        KeyR,
        KeyT,
        KeyY,
        KeyU,
        KeyI,
        KeyO,
        KeyP,
        BracketLeft,
        BracketRight,
        Enter,
        ControlLeft,
        KeyA,
        KeyS,
        KeyD,
        KeyF,
        KeyG,
        KeyH,
        KeyJ,
        KeyK,
        KeyL,
        Semicolon,
        Quote,
        Backquote,
        ShiftLeft,
        Backslash,
        KeyZ,
        KeyX,
        KeyC,
        KeyV,
        KeyB,
        KeyN,
        KeyM,
        Comma,
        Period,
        Slash,
        ShiftRight,
        NumpadMultiply,
        AltLeft,
        Space,
        CapsLock,
    ];
    let key = match code {
        1..=58 => MAIN[usize::from(code - 1)],
        59..=68 => [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10][usize::from(code - 59)],
        69 => Pause,
        70 => ScrollLock,
        71..=83 => [
            Numpad7,
            Numpad8,
            Numpad9,
            NumpadSubtract,
            Numpad4,
            Numpad5,
            Numpad6,
            NumpadAdd,
            Numpad1,
            Numpad2,
            Numpad3,
            Numpad0,
            NumpadDecimal,
        ][usize::from(code - 71)],
        87 => F11,
        88 => F12,
        284 => NumpadEnter,
        285 => ControlRight,
        309 => NumpadDivide,
        325 => NumLock,
        327 => Home,
        328 => ArrowUp,
        329 => PageUp,
        331 => ArrowLeft,
        333 => ArrowRight,
        335 => End,
        336 => ArrowDown,
        337 => PageDown,
        338 => Insert,
        339 => Delete,
        512 => return Some(Binding::Mouse(MouseButton::Left)),
        513 => return Some(Binding::Mouse(MouseButton::Right)),
        514 => return Some(Binding::Mouse(MouseButton::Middle)),
        _ => return None,
    };
    Some(Binding::Key(key))
}

/// The binding of a chord of key names, `None` for one on no button iron3d reads.
///
/// # Errors
/// A name the engine does not know, or a chord of a modifier with a mouse button.
pub fn chord(modifier: &str, key: &str) -> Result<Option<Binding>, String> {
    let code = |name: &str| input_names::scan_code(name).ok_or_else(|| format!("the engine knows no key `{name}`"));
    let pressed = button(code(key)?);
    if modifier == NO_MODIFIER {
        return Ok(pressed);
    }
    Ok(match (button(code(modifier)?), pressed) {
        (Some(Binding::Key(m)), Some(Binding::Key(k))) => Some(Binding::Chord(m, k)),
        (_, None) | (None, _) => None,
        _ => return Err(format!("`{modifier}` + `{key}` is no chord of two keys")),
    })
}

impl OriginalKeys {
    /// Reads the original's bindings from `game`: `None` when it has neither file.
    ///
    /// # Errors
    /// A file that does not parse or names a command or key the engine does not know,
    /// naming the file and line.
    pub fn read(game: &GameDir) -> Result<Option<Self>, String> {
        /// `file` of `game` parsed, `None` when the data has no such file.
        fn parsed<T: InputEntry>(game: &GameDir, file: &str) -> Result<Option<InputFile<T>>, String> {
            let Some(_) = game.resolve(file) else { return Ok(None) };
            let bytes = game.read_file(file).map_err(|e| format!("{file}: {e}"))?;
            InputFile::parse(&bytes).map(Some).map_err(|e| format!("{file}: {e}"))
        }
        let mut out = Self::default();
        let mut found = false;
        for file in FILES {
            let Some(man) = parsed::<ManBinding>(game, file)? else { continue };
            found = true;
            out.add(&man).map_err(|e| format!("{file}: {e}"))?;
        }
        if let Some(dsc) = parsed::<Label>(game, SCAN_CODES)? {
            out.name_keys(&dsc);
        }
        Ok(found.then_some(out))
    }

    /// Adds one file's bindings.
    ///
    /// # Errors
    /// A binding naming a command or key the engine does not know, with its line.
    pub fn add(&mut self, man: &ManFile) -> Result<(), String> {
        for (line, b) in man.numbered() {
            let at = |e: String| format!("line {line}: {e}");
            if input_names::command(&b.command).is_none() {
                return Err(at(format!("the engine knows no command `{}`", b.command)));
            }
            let Some(binding) = chord(&b.modifier, &b.key).map_err(at)? else { continue };
            if let Some(&(_, action)) = BUTTONS.iter().find(|(c, _)| *c == b.command) {
                let list = self.buttons.entry(action).or_default();
                if !list.contains(&binding) {
                    list.push(binding);
                }
            }
            for (action, commands) in AXES {
                let (Some(side), Binding::Key(key)) = (commands.iter().position(|c| *c == b.command), binding) else {
                    continue;
                };
                let i = match self.axes.iter().position(|a| a.action == action) {
                    Some(i) => i,
                    None => {
                        self.axes.push(AxisKeys { action, keys: Default::default() });
                        self.axes.len() - 1
                    }
                };
                self.axes[i].keys[side].push(key);
            }
        }
        Ok(())
    }

    /// Takes the labels of `ScanCode.dsc` for the buttons iron3d reads.
    pub fn name_keys(&mut self, dsc: &Descriptor) {
        for e in dsc.entries() {
            let binding = input_names::scan_code(&e.name).and_then(button);
            if let (Some(b), false) = (binding, e.label.is_empty()) {
                self.labels.insert(b, e.label.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn man(text: &str) -> ManFile {
        ManFile::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_files_bindings_go_to_the_actions_and_axes_of_their_commands() {
        let mut keys = OriginalKeys::default();
        let text = "CMD_ENTER_STATE SCAN_NULL SCAN_W_ENTER\nCMD_CAMOUFLAGE_WEAR SCAN_NULL SCAN_H\n\
                    CMD_TERMINAL SCAN_LSHIFT SCAN_T\nCMD_JAMES_HQ_MOVE_LEFT SCAN_NULL SCAN_G_LEFT\n\
                    CMD_JAMES_HQ_MOVE_UP SCAN_NULL SCAN_G_PGUP\nCMD_FIRE_SELECTED_CONT SCAN_NULL SCAN_LMOUSE\n\
                    CMD_HELP SCAN_NULL SCAN_F1\nCMD_OBJ_TURN_LEFT SCAN_NULL SCAN_COMMA\nCMD_ENTER_STATE SCAN_NULL SCAN_G_ENTER\n\
                    CMD_JAMES_SATELLITE_MAP SCAN_NULL SCAN_M\nCMD_JAMES_OUTER_CAMERA SCAN_NULL SCAN_F4\n\
                    CMD_JAMES_COCKPIT_OFF SCAN_NULL SCAN_F6\n";
        keys.add(&man(text)).unwrap();
        assert_eq!(
            keys.buttons[&GameAction::Enter],
            [Binding::Key(KeyCode::Enter), Binding::Key(KeyCode::NumpadEnter)]
        );
        assert_eq!(keys.buttons[&GameAction::Camouflage], [Binding::Key(KeyCode::KeyH)]);
        assert_eq!(keys.buttons[&GameAction::Chat], [Binding::Chord(KeyCode::ShiftLeft, KeyCode::KeyT)]);
        assert_eq!(keys.buttons[&GameAction::Fire], [Binding::Mouse(MouseButton::Left)]);
        assert_eq!(keys.buttons[&GameAction::SatelliteMap], [Binding::Key(KeyCode::KeyM)]);
        assert_eq!(keys.buttons[&GameAction::Help], [Binding::Key(KeyCode::F1)]);
        assert_eq!(keys.buttons[&GameAction::OuterCamera], [Binding::Key(KeyCode::F4)]);
        assert_eq!(keys.buttons.len(), 7, "F6 (the cockpit off) has no action of iron3d's");
        let pan = keys.axes.iter().find(|a| a.action == GameAction::CameraPan).unwrap();
        assert_eq!(pan.keys[2], [KeyCode::ArrowLeft], "723 moves the command camera left");
        let rise = keys.axes.iter().find(|a| a.action == GameAction::CameraRise).unwrap();
        assert_eq!(rise.keys[0], [KeyCode::PageUp]);
        let drive = keys.axes.iter().find(|a| a.action == GameAction::Drive).unwrap();
        assert_eq!(drive.keys[2], [KeyCode::Comma], "the hero's turn left");
    }

    #[test]
    fn an_unknown_command_or_key_is_refused_with_its_line() {
        let mut keys = OriginalKeys::default();
        let e = keys.add(&man("CMD_HELP SCAN_NULL SCAN_F1\nCMD_FLY SCAN_NULL SCAN_F\n")).unwrap_err();
        assert_eq!(e, "line 2: the engine knows no command `CMD_FLY`");
        let e = keys.add(&man("CMD_HELP SCAN_NULL SCAN_ALT\n")).unwrap_err();
        assert_eq!(e, "line 1: the engine knows no key `SCAN_ALT`");
        assert_eq!(chord("SCAN_NULL", "SCAN_JOY3"), Ok(None), "a joystick button iron3d does not read");
        assert_eq!(chord("SCAN_LMOUSE", "SCAN_A"), Err("`SCAN_LMOUSE` + `SCAN_A` is no chord of two keys".into()));
    }

    #[test]
    fn every_keyboard_scan_code_names_the_key_of_its_place() {
        let key = |name: &str| input_names::scan_code(name).and_then(button);
        assert_eq!(key("SCAN_ESC"), Some(Binding::Key(KeyCode::Escape)));
        assert_eq!(key("SCAN_W_0"), Some(Binding::Key(KeyCode::Digit0)));
        assert_eq!(key("SCAN_TILDA"), Some(Binding::Key(KeyCode::Backquote)));
        assert_eq!(key("SCAN_BLANK"), Some(Binding::Key(KeyCode::Space)));
        assert_eq!(key("SCAN_F12"), Some(Binding::Key(KeyCode::F12)));
        assert_eq!(key("SCAN_G_5"), Some(Binding::Key(KeyCode::Numpad5)));
        assert_eq!(key("SCAN_G_PGDN"), Some(Binding::Key(KeyCode::PageDown)));
        assert_eq!(key("SCAN_RMOUSE"), Some(Binding::Mouse(MouseButton::Right)));
        assert_eq!(key("SCAN_MOUSE_X"), None, "an axis is no button");
        let keys: Vec<_> = input_names::SCAN_CODES.iter().filter_map(|&(_, c)| button(c)).collect();
        let mut unique = keys.clone();
        unique.sort_by_key(|b| format!("{b:?}"));
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "no two codes on one button");
        assert_eq!(keys.len(), 101, "the keyboard's 98 and the mouse's three buttons");
    }
}
