//! The input layer in the game root, in the original's formats (`docs/reference/gameplay.md`
//! §14): `ScanCode.dsc` (every key the engine knows, with the demo's own labels),
//! `Command.dsc` (every command a shipped file names, with the demo's own sentences),
//! the four binding files the original loads in play (`table_1.man`, `table_2.man`,
//! `hero.man`, `addition.man`) and the three tables (`hero.tbl`, `m1.tbl`, `m2.tbl`).
//! The keys are the original's where openparkan documents them (the command camera on
//! the arrows and PageUp / PageDown, Enter, Esc, Tab, E, T, Y, Z, M, N, G, H, the tilde,
//! `,` and `.`, F1, F2, F3, F12, the right button, W / S / A / D and the keypad's cruise);
//! the others (quick save F5, quick load F9, the terminal F4, the spotlight L, the camera's
//! centre Home) are the demo's.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::config::input_names::{COMMANDS, NO_MODIFIER, SCAN_CODES};
use iron3d_formats::config::{Descriptor, InputTable, Label, ManBinding, ManFile, TableRow};

/// The game's commands, looked up in play (`addition.man`).
const GAME: [(&str, &str); 31] = [
    ("CMD_JAMES_HQ_MOVE_LEFT", "SCAN_G_LEFT"),
    ("CMD_JAMES_HQ_MOVE_RIGHT", "SCAN_G_RIGHT"),
    ("CMD_JAMES_HQ_MOVE_FORWARD", "SCAN_G_UP"),
    ("CMD_JAMES_HQ_MOVE_BACKWARD", "SCAN_G_DOWN"),
    ("CMD_JAMES_HQ_MOVE_UP", "SCAN_G_PGUP"),
    ("CMD_JAMES_HQ_MOVE_DOWN", "SCAN_G_PGDN"),
    ("CMD_PAGER", "SCAN_F2"),
    ("CMD_ENTER_STATE", "SCAN_W_ENTER"),
    ("CMD_ENTER_STATE", "SCAN_G_ENTER"),
    ("CMD_JAMES_MISSION_OBJ", "SCAN_F12"),
    ("CMD_JAMES_SELECT_TARGET", "SCAN_TAB"),
    ("CMD_JAMES_SELECT_ENEMY", "SCAN_E"),
    ("CMD_JAMES_SELECT_FRIEND", "SCAN_T"),
    ("CMD_ROLLBACK_STATE", "SCAN_ESC"),
    ("CMD_JAMES_OUTER_CAMERA", "SCAN_F7"),
    ("CMD_JAMES_COCKPIT_OFF", "SCAN_F8"),
    ("CMD_JAMES_ZOOM_MODE", "SCAN_Z"),
    ("CMD_JAMES_SATELLITE_MAP", "SCAN_M"),
    ("CMD_JAMES_WINGMAN_MENU", "SCAN_TILDA"),
    ("CMD_JAMES_BASE_ROTLEFT", "SCAN_COMMA"),
    ("CMD_JAMES_BASE_ROTRIGHT", "SCAN_DOT"),
    ("CMD_JAMES_AUTO_DRIVER", "SCAN_Y"),
    ("CMD_TERMINAL", "SCAN_F4"),
    ("CMD_GAME_MENU", "SCAN_F3"),
    ("CMD_HELP", "SCAN_F1"),
    ("CMD_JAMES_AIM_TARGET", "SCAN_RMOUSE"),
    ("CMD_INC_MAP_ALPHA", "SCAN_RBRACKET"),
    ("CMD_DEC_MAP_ALPHA", "SCAN_LBRACKET"),
    ("CMD_QUICK_SAVE", "SCAN_F5"),
    ("CMD_QUICK_LOAD", "SCAN_F9"),
    ("CMD_CAMERA_INFRARED", "SCAN_N"),
];

/// The controlled object's commands every scheme has (`hero.man`, both tables).
const OBJECT: [(&str, &str); 20] = [
    ("CMD_OBJ_MOVE_FORWARD", "SCAN_W"),
    ("CMD_OBJ_MOVE_BACKWARD", "SCAN_S"),
    ("CMD_OBJ_MOVE_LEFT", "SCAN_A"),
    ("CMD_OBJ_MOVE_RIGHT", "SCAN_D"),
    ("CMD_OBJ_TURN_LEFT", "SCAN_COMMA"),
    ("CMD_OBJ_TURN_RIGHT", "SCAN_DOT"),
    ("CMD_TURRET_CENTER", "SCAN_G_5"),
    ("CMD_CAMERA_CENTER", "SCAN_G_HOME"),
    ("CMD_CAMERA_INFRARED", "SCAN_N"),
    ("CMD_SELECT_ALL_WEAPON", "SCAN_W_0"),
    ("CMD_SELECT_WEAPON_1", "SCAN_W_1"),
    ("CMD_SELECT_WEAPON_2", "SCAN_W_2"),
    ("CMD_SELECT_WEAPON_3", "SCAN_W_3"),
    ("CMD_FIRE_SELECTED_CONT", "SCAN_LMOUSE"),
    ("CMD_FIRE_MISSILE", "SCAN_MMOUSE"),
    ("CMD_FIRE_ALL", "SCAN_BLANK"),
    ("CMD_CAMOUFLAGE_WEAR", "SCAN_H"),
    ("CMD_REPAIRSYS_ON", "SCAN_G"),
    ("CMD_SPOTLIGHT", "SCAN_L"),
    ("CMD_CHANGE_TABLE", "SCAN_Q"),
];

/// A machine's cruise keys (`table_1.man`, `table_2.man`).
const CRUISE: [(&str, &str); 4] = [
    ("CMD_OBJ_SPEED_MORE", "SCAN_G_PLUS"),
    ("CMD_OBJ_SPEED_LESS", "SCAN_G_SUB"),
    ("CMD_OBJ_SPEED_MAX", "SCAN_G_ASTERISK"),
    ("CMD_OBJ_STOP", "SCAN_G_SLASH"),
];

/// A flyer's climb and sink (`table_2.man`).
const CLIMB: [(&str, &str); 2] = [("CMD_OBJ_MOVE_UP", "SCAN_R"), ("CMD_OBJ_MOVE_DOWN", "SCAN_F")];

/// The demo's label of a key: its name without `SCAN_`, with a few spelled out.
fn key_label(name: &str) -> String {
    let bare = name.trim_start_matches("SCAN_");
    let spelled = [
        ("ESC", "Esc"),
        ("BLANK", "Space"),
        ("TILDA", "~"),
        ("COMMA", ","),
        ("DOT", "."),
        ("W_ENTER", "Enter"),
        ("LMOUSE", "Left button"),
        ("RMOUSE", "Right button"),
        ("MMOUSE", "Middle button"),
    ];
    match spelled.iter().find(|(n, _)| *n == bare) {
        Some((_, label)) => (*label).to_string(),
        None => bare.strip_prefix("W_").unwrap_or(bare).replace('_', " "),
    }
}

/// The demo's sentence for a command: its name in words.
fn command_sentence(name: &str) -> String {
    let words = name.trim_start_matches("CMD_").trim_start_matches("JAMES_").replace('_', " ").to_lowercase();
    let mut chars = words.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn descriptor(heading: &str, names: impl Iterator<Item = (String, String)>) -> Descriptor {
    let mut d = Descriptor::default();
    d.push(None, heading);
    for (name, label) in names {
        d.push(Some(Label { name, label }), "");
    }
    d
}

fn man(heading: &str, rows: &[&[(&str, &str)]]) -> ManFile {
    let mut f = ManFile::default();
    f.push(None, heading);
    for &(command, key) in rows.iter().copied().flatten() {
        let binding = ManBinding { command: command.into(), modifier: NO_MODIFIER.into(), key: key.into() };
        f.push(Some(binding), "");
    }
    f
}

/// A table row as pressed: device, modifier, key, class, command, magnitude, index, state,
/// ramp, ramp time and name; the release sends the same with 0.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    f32,
    i32,
    &'static str,
    f32,
    i32,
    &'static str,
);

const U: &str = "CICLS_UNKNOWN";
const N: &str = NO_MODIFIER;

/// Every scheme's rows.
#[rustfmt::skip]
const WALK: [Row; 10] = [
    ("KEY", N, "SCAN_W", U, "MCMD_WALK_F", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_FORWARD"),
    ("KEY", N, "SCAN_S", U, "MCMD_WALK_B", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_BACKWARD"),
    ("KEY", N, "SCAN_A", U, "MCMD_LEFT", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_LEFT"),
    ("KEY", N, "SCAN_D", U, "MCMD_RIGHT", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_RIGHT"),
    ("KEY", N, "SCAN_COMMA", U, "MCMD_ROTATE_Z", 0.7, 0, "0", 0.0, 0, "OBJ_TURN_LEFT"),
    ("KEY", N, "SCAN_DOT", U, "MCMD_ROTATE_Z", -0.7, 0, "0", 0.0, 0, "OBJ_TURN_RIGHT"),
    ("MOUSE", N, "SCAN_MOUSE_X", "CICLS_TURRET", "MCMD_ANGLE_X", 0.1, 1, "MAN_WRAP", 0.0, 0, "TURRET_LEFT"),
    ("MOUSE", "SCAN_LSHIFT", "SCAN_MOUSE_X", "CICLS_CAMERA", "MCMD_ANGLE_X", 0.1, 1, "MAN_WRAP", 0.0, 0, "CAMERA_LEFT"),
    ("KEY", N, "SCAN_LMOUSE", "CICLS_MULTIGUN", "MCMD_STATE", 1.0, 0, "CIS_CONTINUEFIGHT", 0.0, 0, "FIRE_SELECTED_CONT"),
    ("KEY", N, "SCAN_N", "CICLS_CAMERA", "MCMD_STATE", 1.0, 0, "CIS_INFRARED_INV", 0.0, 0, "CAMERA_INFRARED"),
];

/// A machine's cruise rows (`m1.tbl`, `m2.tbl`).
#[rustfmt::skip]
const CRUISE_ROWS: [Row; 2] = [
    ("KEY", N, "SCAN_G_PLUS", U, "MCMD_FORWARD", 1.0, 0, "0", 0.05, 1000, "OBJ_SPEED_MORE"),
    ("KEY", N, "SCAN_G_SUB", U, "MCMD_FORWARD", -1.0, 0, "0", 0.05, 1000, "OBJ_SPEED_LESS"),
];

/// A flyer's climb rows (`m2.tbl`).
#[rustfmt::skip]
const CLIMB_ROWS: [Row; 2] = [
    ("KEY", N, "SCAN_R", U, "MCMD_UP", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_UP"),
    ("KEY", N, "SCAN_F", U, "MCMD_DOWN", 1.0, 0, "0", 0.0, 0, "OBJ_MOVE_DOWN"),
];

/// `hero.tbl`, `m1.tbl` (a walker's cruise) or `m2.tbl` (a flyer's climb as well).
fn table(rows: &[&[Row]]) -> InputTable {
    let mut t = InputTable::default();
    t.push(None, "what each key sends (iron3d demo)");
    for &(device, modifier, key, class, command, magnitude, index, state, ramp, ramp_time, note) in
        rows.iter().copied().flatten()
    {
        for pressed in [true, false] {
            let row = TableRow {
                device: device.into(),
                modifier: modifier.into(),
                key: key.into(),
                pressed,
                class: class.into(),
                command: command.into(),
                magnitude: if pressed { magnitude } else { 0.0 },
                index,
                state: state.into(),
                ramp: if pressed { ramp } else { 0.0 },
                ramp_time: if pressed { ramp_time } else { 0 },
                note: if pressed { note.into() } else { format!("{note} off") },
            };
            t.push(Some(row), "");
        }
    }
    t
}

/// Writes the descriptors, the binding files and the tables.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let keys = SCAN_CODES.iter().map(|(n, _)| ((*n).to_string(), key_label(n)));
    tree.add("ScanCode.dsc", descriptor("keys (iron3d demo)", keys).to_bytes())?;
    let named = COMMANDS.iter().filter(|(n, _)| *n != "CMD_FIRE_SELECTED");
    let commands = named.map(|(n, _)| ((*n).to_string(), command_sentence(n)));
    tree.add("Command.dsc", descriptor("commands (iron3d demo)", commands).to_bytes())?;
    tree.add("addition.man", man("the game's keys (iron3d demo)", &[&GAME]).to_bytes())?;
    tree.add("hero.man", man("the hero's keys (iron3d demo)", &[&OBJECT]).to_bytes())?;
    tree.add("table_1.man", man("a walker's keys (iron3d demo)", &[&OBJECT, &CRUISE]).to_bytes())?;
    tree.add("table_2.man", man("a flyer's keys (iron3d demo)", &[&OBJECT, &CRUISE, &CLIMB]).to_bytes())?;
    tree.add("hero.tbl", table(&[&WALK]).to_bytes())?;
    tree.add("m1.tbl", table(&[&WALK, &CRUISE_ROWS]).to_bytes())?;
    tree.add("m2.tbl", table(&[&WALK, &CRUISE_ROWS, &CLIMB_ROWS]).to_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::config::input_names;

    #[test]
    fn every_name_the_files_use_is_the_engines_and_each_file_reads_back() {
        let mut tree = DemoTree::default();
        write(&mut tree).unwrap();
        let dsc = Descriptor::parse(tree.get("ScanCode.dsc").unwrap()).unwrap();
        assert_eq!(dsc.entries().count(), 174);
        assert_eq!(dsc.entries().find(|e| e.name == "SCAN_W_ENTER").unwrap().label, "Enter");
        let commands = Descriptor::parse(tree.get("Command.dsc").unwrap()).unwrap();
        assert_eq!(commands.entries().count(), 72, "every command but the unnamed CMD_FIRE_SELECTED");
        for file in ["addition.man", "hero.man", "table_1.man", "table_2.man"] {
            let man = ManFile::parse(tree.get(file).unwrap()).unwrap();
            for b in man.entries() {
                assert!(input_names::command(&b.command).is_some(), "{file}: {}", b.command);
                assert!(input_names::scan_code(&b.key).is_some(), "{file}: {}", b.key);
            }
        }
        let m2 = InputTable::parse(tree.get("m2.tbl").unwrap()).unwrap();
        assert!(m2.entries().all(|r| input_names::move_command(&r.command).is_some()));
        assert!(m2.entries().all(|r| input_names::state(&r.state).is_some()));
        assert_eq!(m2.entries().filter(|r| r.pressed).count(), m2.entries().filter(|r| !r.pressed).count());
        assert_eq!(m2.to_bytes(), tree.get("m2.tbl").unwrap());
    }
}
