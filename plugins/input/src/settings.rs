//! The input options of the original's settings (`docs/reference/runtime.md` §2.5: 102 mouse
//! sensitivity, 103 joystick sensitivity, 105–108 inverse mouse / joystick X and Y),
//! applied to the mouse motion and right-stick actions by whoever reads them.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Mouse and gamepad sensitivity and inversion.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Resource)]
#[serde(default)]
pub struct InputSettings {
    /// Mouse sensitivity in percent (`MOUSE_SENS`, 100 = as measured).
    pub mouse_sensitivity: u32,
    /// Gamepad stick sensitivity in percent (`JOY_SENS`).
    pub stick_sensitivity: u32,
    /// Inverse mouse X (option 105).
    pub invert_mouse_x: bool,
    /// Inverse mouse Y (option 106, `MOUSE_REV_Y`).
    pub invert_mouse_y: bool,
    /// Inverse joystick X (option 107).
    pub invert_stick_x: bool,
    /// Inverse joystick Y (option 108, `JOY_REV_Y`).
    pub invert_stick_y: bool,
}

impl Default for InputSettings {
    fn default() -> Self {
        Self {
            mouse_sensitivity: 100,
            stick_sensitivity: 100,
            invert_mouse_x: false,
            invert_mouse_y: false,
            invert_stick_x: false,
            invert_stick_y: false,
        }
    }
}

fn apply(v: Vec2, percent: u32, invert_x: bool, invert_y: bool) -> Vec2 {
    let sign = |inverted: bool| if inverted { -1.0 } else { 1.0 };
    v * (percent as f32 / 100.0) * Vec2::new(sign(invert_x), sign(invert_y))
}

impl InputSettings {
    /// Mouse motion as the player set it up.
    pub fn mouse(&self, motion: Vec2) -> Vec2 {
        apply(motion, self.mouse_sensitivity, self.invert_mouse_x, self.invert_mouse_y)
    }

    /// The right stick as the player set it up.
    pub fn stick(&self, stick: Vec2) -> Vec2 {
        apply(stick, self.stick_sensitivity, self.invert_stick_x, self.invert_stick_y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitivity_scales_and_inversion_flips_each_axis() {
        let s = InputSettings { mouse_sensitivity: 50, invert_mouse_y: true, invert_stick_x: true, ..default() };
        assert_eq!(s.mouse(Vec2::new(10.0, 4.0)), Vec2::new(5.0, -2.0));
        assert_eq!(s.stick(Vec2::new(0.5, 0.5)), Vec2::new(-0.5, 0.5));
    }
}
