//! The one action set of the game (`docs/reference/runtime.md` §6, §7.1): every camera command,
//! selection and orders, control groups, piloting, pause, quick save and load and the
//! debug keys, with the default keyboard, mouse and gamepad bindings. Consumers read
//! `ActionState<GameAction>` and never the raw devices.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

/// Everything the player can ask for.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Reflect, Serialize, Deserialize)]
pub enum GameAction {
    /// Move the camera over the ground (RTS) or along the view (free fly).
    #[actionlike(DualAxis)]
    CameraPan,
    /// `CMD_CAMERA_LEFT` / `CMD_CAMERA_RIGHT`: turn (positive turns left).
    #[actionlike(Axis)]
    CameraTurn,
    /// `CMD_CAMERA_UP` / `CMD_CAMERA_DOWN`: tilt (positive looks down more).
    #[actionlike(Axis)]
    CameraTilt,
    /// Zoom (positive moves closer).
    #[actionlike(Axis)]
    CameraZoom,
    /// Free fly and a command camera (`CMD_JAMES_HQ_MOVE_UP` / `_DOWN`, PageUp and
    /// PageDown): rise (positive) or sink.
    #[actionlike(Axis)]
    CameraRise,
    /// `CMD_JAMES_ZOOM_MODE`: a command camera's zoom on or off.
    CameraZoomMode,
    /// `CMD_JAMES_SATELLITE_MAP`: the satellite map (the minimap) shown or hidden.
    SatelliteMap,
    /// `CMD_PAGER`: the message box shown or hidden.
    Pager,
    /// `CMD_JAMES_MISSION_OBJ`: the objectives screen shown or hidden.
    Objectives,
    /// `CMD_HELP`: the help screen (the message history) shown or hidden.
    Help,
    /// Hold to look around with the mouse.
    CameraLookHold,
    /// Hold to move the camera faster.
    CameraFast,
    /// `CMD_CAMERA_CENTER`: smoothly return the camera angles to their set values.
    CameraCenter,
    /// `CMD_CAMERA_INFRARED`: toggle the infrared view.
    CameraInfrared,
    /// Toggle the spotlight.
    Spotlight,
    /// Toggle RTS and free-fly cameras.
    CameraFreeFly,
    /// Toggle following the selected unit.
    CameraFollow,
    /// Mouse motion (look around, aim while piloting); mouse sensitivity applies.
    #[actionlike(DualAxis)]
    Look,
    /// The right stick (turn and tilt the camera, aim while piloting); joystick
    /// sensitivity applies.
    #[actionlike(DualAxis)]
    Stick,
    /// Select (click or drag a box); fires while piloting.
    Select,
    /// Order the selection: move to the ground, attack an enemy.
    Order,
    /// Held: add to the selection, queue orders as waypoints.
    Queue,
    /// Held with a group key: assign the selection to the group.
    GroupModifier,
    /// Control groups 1 to 9.
    Group1,
    /// Control group 2.
    Group2,
    /// Control group 3.
    Group3,
    /// Control group 4.
    Group4,
    /// Control group 5.
    Group5,
    /// Control group 6.
    Group6,
    /// Control group 7.
    Group7,
    /// Control group 8.
    Group8,
    /// Control group 9.
    Group9,
    /// Stop the selection.
    Stop,
    /// Take or leave direct control of the selected robot; aboard a bot, the hero leaves
    /// it (the original's Esc).
    Pilot,
    /// The hero's Enter (`CMD_ENTER_STATE`): capture or board the unit next to him.
    Enter,
    /// The wingman menu (`CMD_JAMES_WINGMAN_MENU`, the tilde): order the units of the
    /// clan on the driven unit's radar; with `Queue` held, pick them first.
    Wingmen,
    /// `CMD_JAMES_SELECT_TARGET` (Tab): the driven unit's next listed object as its target.
    SelectTarget,
    /// `CMD_JAMES_SELECT_ENEMY` (E): its next or nearest hostile as its target.
    SelectEnemy,
    /// `CMD_JAMES_SELECT_FRIEND` (T): its next or nearest unit of its own clan as its target.
    SelectFriend,
    /// Drive the piloted robot: forward / back, turn (`CMD_OBJ_MOVE_FORWARD` / `_BACKWARD`,
    /// `CMD_OBJ_TURN_LEFT` / `_RIGHT`).
    #[actionlike(DualAxis)]
    Drive,
    /// Strafe the piloted unit, to the left positive (`CMD_OBJ_MOVE_LEFT` / `_RIGHT`).
    #[actionlike(Axis)]
    Strafe,
    /// Fire the piloted unit's selected guns (`CMD_FIRE_SELECTED_CONT`).
    Fire,
    /// Fire its selected guided guns (`CMD_FIRE_MISSILE`).
    FireMissiles,
    /// Fire every gun, selected or not (`CMD_FIRE_ALL`).
    FireAll,
    /// Switch the piloted robot's camouflage on or off.
    Camouflage,
    /// The turret lock (the original's `MCMD_LOCK`, keypad 5): whether the driven bot's
    /// hull follows its turret.
    TurretLock,
    /// `CMD_JAMES_AUTO_DRIVER`: step the driven bot's auto-driver level 0 → 1 → 2 → 0.
    AutoDriver,
    /// `CMD_JAMES_OUTER_CAMERA`: the first-person view seen from outside the unit, or back.
    OuterCamera,
    /// `CMD_SELECT_ALL_WEAPON` (0): select every gun of the driven unit.
    AllWeapons,
    /// `CMD_SELECT_WEAPON_1` to `_9` (the digits): select or deselect the driven unit's
    /// gun 1 (the digits are the control groups' outside a driven unit).
    Weapon1,
    /// Gun 2.
    Weapon2,
    /// Gun 3.
    Weapon3,
    /// Gun 4.
    Weapon4,
    /// Gun 5.
    Weapon5,
    /// Gun 6.
    Weapon6,
    /// Gun 7.
    Weapon7,
    /// Gun 8.
    Weapon8,
    /// Gun 9.
    Weapon9,
    /// `CMD_JAMES_BASE_ROTLEFT`: turn a building being placed 0.05 rad anticlockwise.
    TurnLeft,
    /// `CMD_JAMES_BASE_ROTRIGHT`: turn it 0.05 rad clockwise.
    TurnRight,
    /// Pause and resume (the pause menu).
    Pause,
    /// Open a chat line to the other players (multiplayer).
    Chat,
    /// Save the running game into the quick-save slot.
    QuickSave,
    /// Load the quick-save slot.
    QuickLoad,
    /// The F3 debug overlay.
    DebugOverlay,
    /// The F12 world inspector.
    Inspector,
}

impl GameAction {
    /// The developer's keys: the original's bindings never take theirs.
    pub const DEBUG: [Self; 2] = [Self::DebugOverlay, Self::Inspector];

    /// The control group keys in group order.
    pub const GROUPS: [Self; 9] = [
        Self::Group1,
        Self::Group2,
        Self::Group3,
        Self::Group4,
        Self::Group5,
        Self::Group6,
        Self::Group7,
        Self::Group8,
        Self::Group9,
    ];

    /// The weapon keys in gun order.
    pub const WEAPONS: [Self; 9] = [
        Self::Weapon1,
        Self::Weapon2,
        Self::Weapon3,
        Self::Weapon4,
        Self::Weapon5,
        Self::Weapon6,
        Self::Weapon7,
        Self::Weapon8,
        Self::Weapon9,
    ];

    /// The action that shares this one's key in another view: control group *n* (the
    /// strategic view) and weapon *n* (a driven unit).
    pub fn twin(self) -> Option<Self> {
        let at = |list: &[Self]| list.iter().position(|a| *a == self);
        match (at(&Self::GROUPS), at(&Self::WEAPONS)) {
            (Some(n), _) => Some(Self::WEAPONS[n]),
            (_, Some(n)) => Some(Self::GROUPS[n]),
            _ => None,
        }
    }

    /// The actions bound to buttons, in the order the rebinding screen lists them.
    pub const BUTTONS: [Self; 57] = [
        Self::Select,
        Self::Order,
        Self::Queue,
        Self::Stop,
        Self::GroupModifier,
        Self::Group1,
        Self::Group2,
        Self::Group3,
        Self::Group4,
        Self::Group5,
        Self::Group6,
        Self::Group7,
        Self::Group8,
        Self::Group9,
        Self::CameraLookHold,
        Self::CameraFast,
        Self::CameraCenter,
        Self::CameraInfrared,
        Self::CameraZoomMode,
        Self::SatelliteMap,
        Self::Pager,
        Self::Objectives,
        Self::Help,
        Self::Spotlight,
        Self::CameraFreeFly,
        Self::CameraFollow,
        Self::Pilot,
        Self::Enter,
        Self::Wingmen,
        Self::SelectTarget,
        Self::SelectEnemy,
        Self::SelectFriend,
        Self::Fire,
        Self::FireMissiles,
        Self::FireAll,
        Self::AllWeapons,
        Self::Weapon1,
        Self::Weapon2,
        Self::Weapon3,
        Self::Weapon4,
        Self::Weapon5,
        Self::Weapon6,
        Self::Weapon7,
        Self::Weapon8,
        Self::Weapon9,
        Self::Camouflage,
        Self::TurretLock,
        Self::AutoDriver,
        Self::OuterCamera,
        Self::TurnLeft,
        Self::TurnRight,
        Self::Pause,
        Self::Chat,
        Self::QuickSave,
        Self::QuickLoad,
        Self::DebugOverlay,
        Self::Inspector,
    ];

    /// The analog bindings (fixed; the buttons are the user's [`crate::Bindings`]): keys
    /// as virtual axes, the mouse, the sticks with a dead zone.
    pub fn add_axes(map: &mut InputMap<Self>) {
        use GameAction::*;
        let stick = |s: GamepadStick| s.with_circle_deadzone(0.15);
        map.insert_dual_axis(CameraPan, VirtualDPad::wasd())
            .insert_dual_axis(CameraPan, VirtualDPad::arrow_keys())
            .insert_dual_axis(CameraPan, stick(GamepadStick::LEFT))
            .insert_axis(CameraTurn, VirtualAxis::new(KeyCode::KeyE, KeyCode::KeyQ))
            .insert_axis(CameraTilt, VirtualAxis::new(KeyCode::KeyR, KeyCode::KeyT))
            .insert_axis(CameraZoom, MouseScrollAxis::Y)
            .insert_axis(CameraZoom, VirtualAxis::new(GamepadButton::DPadDown, GamepadButton::DPadUp))
            .insert_axis(CameraRise, VirtualAxis::new(KeyCode::KeyX, KeyCode::Space))
            .insert_axis(CameraRise, VirtualAxis::new(KeyCode::PageDown, KeyCode::PageUp))
            .insert_axis(CameraRise, VirtualAxis::new(GamepadButton::LeftTrigger, GamepadButton::RightTrigger))
            .insert_dual_axis(Look, MouseMove::default())
            .insert_dual_axis(Stick, stick(GamepadStick::RIGHT))
            .insert_dual_axis(Drive, VirtualDPad::new(KeyCode::KeyW, KeyCode::KeyS, KeyCode::Comma, KeyCode::Period))
            .insert_dual_axis(Drive, VirtualDPad::arrow_keys())
            .insert_dual_axis(Drive, stick(GamepadStick::LEFT))
            .insert_axis(Strafe, VirtualAxis::new(KeyCode::KeyD, KeyCode::KeyA));
    }
}
