//! The numbers behind the input layer's names (`docs/reference/gameplay.md` §14): the
//! engine resolves every name of `ScanCode.dsc`, `Command.dsc`, the `.man` bindings and
//! the `.tbl` rows to a constant of its own (openparkan `docs/14-controls.md`, read from
//! `World3D.dll` and `iron3d.dll`). A name no table holds is unknown to the engine.

/// Every key of `ScanCode.dsc` and its code: the IBM PC set-1 scan codes (an extended
/// key is 256 + its code), the mouse from 510, the joystick from 516.
#[rustfmt::skip]
pub const SCAN_CODES: [(&str, u16); 174] = [
    ("SCAN_NULL", 0), ("SCAN_ESC", 1), ("SCAN_W_1", 2), ("SCAN_W_2", 3), ("SCAN_W_3", 4),
    ("SCAN_W_4", 5), ("SCAN_W_5", 6), ("SCAN_W_6", 7), ("SCAN_W_7", 8), ("SCAN_W_8", 9),
    ("SCAN_W_9", 10), ("SCAN_W_0", 11), ("SCAN_W_SUB", 12), ("SCAN_W_PLUS", 13), ("SCAN_BS", 14),
    ("SCAN_TAB", 15), ("SCAN_Q", 16), ("SCAN_W", 17), ("SCAN_E", 18), ("SCAN_R", 19),
    ("SCAN_T", 20), ("SCAN_Y", 21), ("SCAN_U", 22), ("SCAN_I", 23), ("SCAN_O", 24), ("SCAN_P", 25),
    ("SCAN_LBRACKET", 26), ("SCAN_RBRACKET", 27), ("SCAN_W_ENTER", 28), ("SCAN_LCTRL", 29),
    ("SCAN_A", 30), ("SCAN_S", 31), ("SCAN_D", 32), ("SCAN_F", 33), ("SCAN_G", 34), ("SCAN_H", 35),
    ("SCAN_J", 36), ("SCAN_K", 37), ("SCAN_L", 38), ("SCAN_SEMIDOT", 39), ("SCAN_QUOTE", 40),
    ("SCAN_TILDA", 41), ("SCAN_LSHIFT", 42), ("SCAN_BSLASH", 43), ("SCAN_Z", 44), ("SCAN_X", 45),
    ("SCAN_C", 46), ("SCAN_V", 47), ("SCAN_B", 48), ("SCAN_N", 49), ("SCAN_M", 50),
    ("SCAN_COMMA", 51), ("SCAN_DOT", 52), ("SCAN_SLASH", 53), ("SCAN_RSHIFT", 54),
    ("SCAN_G_ASTERISK", 55), ("SCAN_BLANK", 57), ("SCAN_CAPS", 58), ("SCAN_F1", 59),
    ("SCAN_F2", 60), ("SCAN_F3", 61), ("SCAN_F4", 62), ("SCAN_F5", 63), ("SCAN_F6", 64),
    ("SCAN_F7", 65), ("SCAN_F8", 66), ("SCAN_F9", 67), ("SCAN_F10", 68), ("SCAN_PAUSE", 69),
    ("SCAN_SLOCK", 70), ("SCAN_G_7", 71), ("SCAN_G_8", 72), ("SCAN_G_9", 73), ("SCAN_G_SUB", 74),
    ("SCAN_G_4", 75), ("SCAN_G_5", 76), ("SCAN_G_6", 77), ("SCAN_G_PLUS", 78), ("SCAN_G_1", 79),
    ("SCAN_G_2", 80), ("SCAN_G_3", 81), ("SCAN_G_0", 82), ("SCAN_W_DEL", 83), ("SCAN_F11", 87),
    ("SCAN_F12", 88), ("SCAN_G_ENTER", 284), ("SCAN_RCTRL", 285), ("SCAN_G_SLASH", 309),
    ("SCAN_NUMLOCK", 325), ("SCAN_G_HOME", 327), ("SCAN_G_UP", 328), ("SCAN_G_PGUP", 329),
    ("SCAN_G_LEFT", 331), ("SCAN_G_RIGHT", 333), ("SCAN_G_END", 335), ("SCAN_G_DOWN", 336),
    ("SCAN_G_PGDN", 337), ("SCAN_G_INS", 338), ("SCAN_G_DEL", 339), ("SCAN_MOUSE_X", 510),
    ("SCAN_MOUSE_Y", 511), ("SCAN_LMOUSE", 512), ("SCAN_RMOUSE", 513), ("SCAN_MMOUSE", 514),
    ("SCAN_JOY1", 516), ("SCAN_JOY2", 517), ("SCAN_JOY3", 518), ("SCAN_JOY4", 519),
    ("SCAN_JOY5", 520), ("SCAN_JOY6", 521), ("SCAN_JOY7", 522), ("SCAN_JOY8", 523),
    ("SCAN_JOY9", 524), ("SCAN_JOY10", 525), ("SCAN_JOY11", 526), ("SCAN_JOY12", 527),
    ("SCAN_JOY13", 528), ("SCAN_JOY14", 529), ("SCAN_JOY15", 530), ("SCAN_JOY16", 531),
    ("SCAN_JOY17", 532), ("SCAN_JOY18", 533), ("SCAN_JOY19", 534), ("SCAN_JOY20", 535),
    ("SCAN_JOY21", 536), ("SCAN_JOY22", 537), ("SCAN_JOY23", 538), ("SCAN_JOY24", 539),
    ("SCAN_JOY25", 540), ("SCAN_JOY26", 541), ("SCAN_JOY27", 542), ("SCAN_JOY28", 543),
    ("SCAN_JOY29", 544), ("SCAN_JOY30", 545), ("SCAN_JOY31", 546), ("SCAN_JOY32", 547),
    ("SCAN_JPOV1_0", 550), ("SCAN_JPOV1_45", 551), ("SCAN_JPOV1_90", 552), ("SCAN_JPOV1_135", 553),
    ("SCAN_JPOV1_180", 554), ("SCAN_JPOV1_225", 555), ("SCAN_JPOV1_270", 556),
    ("SCAN_JPOV1_315", 557), ("SCAN_JPOV2_0", 560), ("SCAN_JPOV2_45", 561), ("SCAN_JPOV2_90", 562),
    ("SCAN_JPOV2_135", 563), ("SCAN_JPOV2_180", 564), ("SCAN_JPOV2_225", 565),
    ("SCAN_JPOV2_270", 566), ("SCAN_JPOV2_315", 567), ("SCAN_JPOV3_0", 570), ("SCAN_JPOV3_45", 571),
    ("SCAN_JPOV3_90", 572), ("SCAN_JPOV3_135", 573), ("SCAN_JPOV3_180", 574),
    ("SCAN_JPOV3_225", 575), ("SCAN_JPOV3_270", 576), ("SCAN_JPOV3_315", 577),
    ("SCAN_JPOV4_0", 580), ("SCAN_JPOV4_45", 581), ("SCAN_JPOV4_90", 582), ("SCAN_JPOV4_135", 583),
    ("SCAN_JPOV4_180", 584), ("SCAN_JPOV4_225", 585), ("SCAN_JPOV4_270", 586),
    ("SCAN_JPOV4_315", 587), ("SCAN_JOY_X", 590), ("SCAN_JOY_Y", 591), ("SCAN_JOY_Z", 592),
    ("SCAN_JOY_R_X", 593), ("SCAN_JOY_R_Y", 594), ("SCAN_JOY_R_Z", 595),
];

/// Every command the engine resolves: 1–66 aimed at the controlled object
/// (`World3D.dll`), 723–754 at the game (`iron3d.dll`); `CMD_FIRE_SELECTED` (51) is
/// named by no shipped file.
#[rustfmt::skip]
pub const COMMANDS: [(&str, u16); 73] = [
    ("CMD_OBJ_MOVE_LEFT", 1), ("CMD_OBJ_MOVE_RIGHT", 2), ("CMD_OBJ_MOVE_FORWARD", 3),
    ("CMD_OBJ_MOVE_BACKWARD", 4), ("CMD_OBJ_MOVE_DOWN", 5), ("CMD_OBJ_MOVE_UP", 6),
    ("CMD_OBJ_TURN_LEFT", 7), ("CMD_OBJ_TURN_RIGHT", 8), ("CMD_OBJ_TURN_UP", 9),
    ("CMD_OBJ_TURN_DOWN", 10), ("CMD_OBJ_SPEED_MAX", 11), ("CMD_OBJ_SPEED_MORE", 12),
    ("CMD_OBJ_SPEED_LESS", 13), ("CMD_OBJ_STOP", 14), ("CMD_TURRET_LEFT", 20),
    ("CMD_TURRET_RIGHT", 21), ("CMD_TURRET_UP", 22), ("CMD_TURRET_DOWN", 23),
    ("CMD_TURRET_CENTER", 24), ("CMD_CAMERA_LEFT", 30), ("CMD_CAMERA_RIGHT", 31),
    ("CMD_CAMERA_UP", 32), ("CMD_CAMERA_DOWN", 33), ("CMD_CAMERA_CENTER", 34),
    ("CMD_CAMERA_INFRARED", 35), ("CMD_SELECT_ALL_WEAPON", 40), ("CMD_SELECT_WEAPON_1", 41),
    ("CMD_SELECT_WEAPON_2", 42), ("CMD_SELECT_WEAPON_3", 43), ("CMD_SELECT_WEAPON_4", 44),
    ("CMD_SELECT_WEAPON_5", 45), ("CMD_SELECT_WEAPON_6", 46), ("CMD_SELECT_WEAPON_7", 47),
    ("CMD_SELECT_WEAPON_8", 48), ("CMD_SELECT_WEAPON_9", 49), ("CMD_FIRE_SELECTED_CONT", 50),
    ("CMD_FIRE_SELECTED", 51), ("CMD_CAMOUFLAGE_WEAR", 60), ("CMD_REPAIRSYS_ON", 61),
    ("CMD_CHANGE_TABLE", 63), ("CMD_SPOTLIGHT", 64), ("CMD_FIRE_MISSILE", 65), ("CMD_FIRE_ALL", 66),
    ("CMD_JAMES_HQ_MOVE_LEFT", 723), ("CMD_JAMES_HQ_MOVE_RIGHT", 724),
    ("CMD_JAMES_HQ_MOVE_UP", 725), ("CMD_JAMES_HQ_MOVE_DOWN", 726),
    ("CMD_JAMES_HQ_MOVE_FORWARD", 727), ("CMD_JAMES_HQ_MOVE_BACKWARD", 728), ("CMD_PAGER", 729),
    ("CMD_ENTER_STATE", 730), ("CMD_JAMES_MISSION_OBJ", 731), ("CMD_JAMES_SELECT_TARGET", 732),
    ("CMD_JAMES_SELECT_ENEMY", 733), ("CMD_JAMES_SELECT_FRIEND", 734), ("CMD_ROLLBACK_STATE", 735),
    ("CMD_JAMES_OUTER_CAMERA", 736), ("CMD_JAMES_COCKPIT_OFF", 737), ("CMD_JAMES_ZOOM_MODE", 738),
    ("CMD_JAMES_SATELLITE_MAP", 739), ("CMD_JAMES_WINGMAN_MENU", 740),
    ("CMD_JAMES_BASE_ROTLEFT", 741), ("CMD_JAMES_BASE_ROTRIGHT", 742),
    ("CMD_JAMES_AUTO_DRIVER", 744), ("CMD_TERMINAL", 746), ("CMD_TERMINAL_NEW_MESSAGE", 747),
    ("CMD_GAME_MENU", 748), ("CMD_HELP", 749), ("CMD_JAMES_AIM_TARGET", 750),
    ("CMD_INC_MAP_ALPHA", 751), ("CMD_DEC_MAP_ALPHA", 752), ("CMD_QUICK_SAVE", 753),
    ("CMD_QUICK_LOAD", 754),
];

/// The `.tbl` movement commands (`MCMD_*`).
#[rustfmt::skip]
pub const MOVE_COMMANDS: [(&str, u8); 22] = [
    ("MCMD_DUMMY", 0), ("MCMD_STATE", 1), ("MCMD_ROTATE_X", 2), ("MCMD_ROTATE_Y", 3),
    ("MCMD_ROTATE_Z", 4), ("MCMD_ANGLE_X", 5), ("MCMD_ANGLE_Y", 6), ("MCMD_FORWARD", 7),
    ("MCMD_BACK", 8), ("MCMD_LEFT", 9), ("MCMD_RIGHT", 10), ("MCMD_UP", 11), ("MCMD_DOWN", 12),
    ("MCMD_SELECT", 13), ("MCMD_SELECT_NEXT", 14), ("MCMD_TABLE", 15), ("MCMD_ANGLE_Z", 16),
    ("MCMD_MISSILE", 17), ("MCMD_FIRE_ALL", 18), ("MCMD_WALK_F", 19), ("MCMD_WALK_B", 20),
    ("MCMD_LOCK", 21),
];

/// The `.tbl` target classes (`CICLS_*`); a name not here (`CICLS_UNKNOWN`) is class 0.
#[rustfmt::skip]
pub const CLASSES: [(&str, u8); 13] = [
    ("CICLS_TURRET", 1), ("CICLS_MULTIGUN", 2), ("CICLS_SIMPLE", 3), ("CICLS_CAMERA", 4),
    ("CICLS_ENGINE", 5), ("CICLS_RADAR", 8), ("CICLS_FIGHTSHIELD", 9),
    ("CICLS_DETECTSHIELD", 10), ("CICLS_ELEVATOR", 11), ("CICLS_DOOR", 12),
    ("CICLS_COMPUTER", 13), ("CICLS_REPAIRSYS", 15), ("CICLS_POWERSTOR", 19),
];

/// The `.tbl` state field's names: the `CIS_*` bits (one bit means different things to
/// different classes) and the `MAN_*` wrap flags.
#[rustfmt::skip]
pub const STATES: [(&str, u16); 17] = [
    ("CIS_SWITCHOFF", 0), ("CIS_SWITCHON", 32), ("CIS_SWITCH_INV", 64), ("CIS_ANGLETRACE", 256),
    ("CIS_CONTINUEFIGHT", 256), ("CIS_TURRETCONTROL", 256), ("CIS_MANUALCONTROL", 512),
    ("CIS_MANUALTRACE", 512), ("CIS_SINGLEFIGHT", 512), ("CIS_GROUPFIGHT", 1024),
    ("CIS_POINTTRACE", 1024), ("CIS_INFRARED_ON", 4096), ("CIS_INFRARED_OFF", 8192),
    ("CIS_CHAMELEON_INV", 16384), ("CIS_INFRARED_INV", 16384), ("MAN_WRAP", 0),
    ("MAN_NOTWRAP", 1),
];

/// The "no key" of a chord's modifier.
pub const NO_MODIFIER: &str = "SCAN_NULL";

fn find<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// The code of the key `name` (`SCAN_A` → 30).
pub fn scan_code(name: &str) -> Option<u16> {
    find(&SCAN_CODES, name)
}

/// The number of the command `name` (`CMD_ENTER_STATE` → 730).
pub fn command(name: &str) -> Option<u16> {
    find(&COMMANDS, name)
}

/// The number of the movement command `name` (`MCMD_LEFT` → 9).
pub fn move_command(name: &str) -> Option<u8> {
    find(&MOVE_COMMANDS, name)
}

/// The id of the class `name`; 0 for a name the engine does not know (`CICLS_UNKNOWN`).
pub fn class(name: &str) -> u8 {
    find(&CLASSES, name).unwrap_or(0)
}

/// The value of a `.tbl` state field: `0`, a `CIS_*` bit or a `MAN_*` flag.
pub fn state(name: &str) -> Option<u16> {
    if name == "0" { Some(0) } else { find(&STATES, name) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_resolve_to_the_engines_numbers() {
        assert_eq!(
            (scan_code("SCAN_ESC"), scan_code("SCAN_A"), scan_code("SCAN_LSHIFT")),
            (Some(1), Some(30), Some(42))
        );
        assert_eq!(
            (scan_code("SCAN_F1"), scan_code("SCAN_G_UP"), scan_code("SCAN_MOUSE_X")),
            (Some(59), Some(328), Some(510))
        );
        assert_eq!((scan_code("SCAN_JOY_X"), scan_code("SCAN_ALT")), (Some(590), None), "the descriptor has no Alt");
        assert_eq!((command("CMD_JAMES_HQ_MOVE_LEFT"), command("CMD_QUICK_LOAD")), (Some(723), Some(754)));
        assert_eq!((command("CMD_CAMERA_INFRARED"), command("CMD_OBJ_STOP")), (Some(35), Some(14)));
        assert!([743, 745].iter().all(|v| COMMANDS.iter().all(|(_, c)| c != v)), "743 and 745 unused");
        assert_eq!((move_command("MCMD_WALK_F"), class("CICLS_UNKNOWN"), class("CICLS_CAMERA")), (Some(19), 0, 4));
        assert_eq!(
            (state("0"), state("CIS_SWITCH_INV"), state("MAN_NOTWRAP"), state("CIS_X")),
            (Some(0), Some(64), Some(1), None)
        );
        let mut names: Vec<&str> = SCAN_CODES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 174, "no key named twice");
    }
}
