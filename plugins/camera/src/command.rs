//! The command camera of a bunker's view (openparkan `docs/40-command-mode.md`, read):
//! the cursor at the 640 × 480 layout's edges turns and tilts it, the keys move it
//! sideways and forward and PageUp and PageDown up and down; each rate ramps up over the
//! first half second held and dies away within half a second once let go; Z narrows
//! the field of view to 0.2 rad and back.

use crate::controls::edge_side;
use bevy::prelude::*;

/// The turn and tilt rate at an edge (rad/s).
pub const TURN: f32 = 1.5;
/// The turn and tilt rate at an edge while zoomed (rad/s).
pub const ZOOMED_TURN: f32 = 0.2;
/// The speed on the keys (m/s); up and down move at half of it.
pub const SPEED: f32 = 125.0;
/// The horizontal field of view zoomed and at its widest (radians; 1.04 is every
/// camera's, the project's for the cameras other than the command one).
pub const FIELD: (f32, f32) = (0.2, 1.04);
/// How far the field moves toward its end each update while zooming (radians, per
/// update, not per second, as the original's).
pub const FIELD_STEP: f32 = 0.1;

/// The command camera's five axes: turn, tilt, sideways, forward, up.
pub const AXES: usize = 5;

/// Where the cursor turns a command camera: on the original's 640 × 480 layout, x ≤ 6
/// turns it left and x ≥ 634 right (+1 and −1 of yaw), y ≤ 6 tilts it up toward level
/// and y ≥ 474 down (−1 and +1 below the horizon).
pub fn edges(cursor: Vec2, size: Vec2) -> Vec2 {
    let at = cursor * Vec2::new(640.0, 480.0) / size.max(Vec2::ONE);
    Vec2::new(-edge_side(at.x, 640.0, 6.0), edge_side(at.y, 480.0, 6.0))
}

/// A rate's ramp: 2t of it for the first half second held, then all of it.
pub fn ramp(held: f32) -> f32 {
    (2.0 * held).min(1.0)
}

/// The command camera's motion along its five axes.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect)]
pub struct CommandMotion {
    /// Per axis, the input of the last update (−1 to 1; 0 let go).
    pub input: [f32; AXES],
    /// Per axis, how long its key or edge has been held that way (seconds).
    pub held: [f32; AXES],
    /// Per axis, its rate now (rad/s, m/s).
    pub velocity: [f32; AXES],
}

impl CommandMotion {
    /// Steps each axis by `dt` seconds with its `input` (−1 to 1) and `full` rate: held,
    /// its rate is the input's share of the full one, ramped from the moment it was
    /// pressed that way; let go, its rate is multiplied by 0.5 − dt each update and is 0
    /// once an update takes half a second. Returns the rates.
    pub fn step(&mut self, input: [f32; AXES], full: [f32; AXES], dt: f32) -> [f32; AXES] {
        for k in 0..AXES {
            let (now, before) = (input[k], self.input[k]);
            if now == 0.0 {
                self.held[k] = 0.0;
                self.velocity[k] = if dt < 0.5 { self.velocity[k] * (0.5 - dt) } else { 0.0 };
            } else {
                let same_way = before != 0.0 && now.signum() == before.signum();
                self.held[k] = if same_way { self.held[k] + dt } else { dt };
                self.velocity[k] = now * full[k] * ramp(self.held[k]);
            }
        }
        self.input = input;
        self.velocity
    }
}

/// A command camera's zoom: the field it shows and whether it narrows.
#[derive(Debug, Clone, Copy, PartialEq, Reflect)]
pub struct Zoom {
    /// The horizontal field of view across a 4 : 3 frame (radians).
    pub field: f32,
    /// Narrowing toward 0.2 rad, else widening toward 1.04.
    pub on: bool,
}

impl Default for Zoom {
    fn default() -> Self {
        Self { field: FIELD.1, on: false }
    }
}

impl Zoom {
    /// Z: turns the zoom on or off, only while the field is at one of its ends.
    pub fn toggle(&mut self) {
        if self.field <= FIELD.0 || self.field >= FIELD.1 {
            self.on = !self.on;
        }
    }

    /// One update: the field a step toward its end.
    pub fn step(&mut self) {
        self.field =
            if self.on { (self.field - FIELD_STEP).max(FIELD.0) } else { (self.field + FIELD_STEP).min(FIELD.1) };
    }

    /// The vertical field of view that shows this horizontal field across a 4 : 3
    /// frame.
    pub fn vertical(&self) -> f32 {
        2.0 * ((self.field / 2.0).tan() * 0.75).atan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_turns_it_at_the_edges_of_the_640_by_480_layout() {
        let size = Vec2::new(1280.0, 960.0);
        assert_eq!(edges(Vec2::new(640.0, 480.0), size), Vec2::ZERO);
        assert_eq!(edges(Vec2::new(12.0, 480.0), size), Vec2::new(1.0, 0.0), "x 6 of 640: turns left");
        assert_eq!(edges(Vec2::new(1270.0, 2.0), size), Vec2::new(-1.0, -1.0), "right, and up toward level");
        assert_eq!(edges(Vec2::new(640.0, 950.0), size), Vec2::new(0.0, 1.0), "y 475 of 480: down");
    }

    #[test]
    fn a_rate_ramps_over_half_a_second_and_dies_away_once_let_go() {
        assert_eq!((ramp(0.0), ramp(0.25), ramp(0.5), ramp(2.0)), (0.0, 0.5, 1.0, 1.0));
        let mut m = CommandMotion::default();
        let full = [TURN, TURN, SPEED, SPEED, SPEED / 2.0];
        let v = m.step([1.0, 0.0, 0.0, -1.0, 1.0], full, 0.1);
        assert_eq!(v, [0.3, 0.0, 0.0, -25.0, 12.5], "a tenth of a second: 2t of each");
        let v = m.step([1.0, 0.0, 0.0, -1.0, 1.0], full, 0.5);
        assert_eq!(v, [1.5, 0.0, 0.0, -125.0, 62.5], "held past half a second: all of it, up at half");
        let v = m.step([-1.0, 0.0, 0.0, 0.0, 1.0], full, 0.1);
        assert_eq!(v[0], -0.3, "turned the other way: ramped again from its press");
        assert!((v[3] + 125.0 * 0.4).abs() < 1e-4, "let go: × (0.5 − dt), {}", v[3]);
        let v = m.step([0.0; AXES], full, 1.0 / 60.0);
        assert!((v[3] + 125.0 * 0.4 * (0.5 - 1.0 / 60.0)).abs() < 1e-4, "at 60 updates a second, × 0.48: {}", v[3]);
        assert!((v[4] - 62.5 * (0.5 - 1.0 / 60.0)).abs() < 1e-4);
        let v = m.step([0.0; AXES], full, 0.5);
        assert_eq!(v, [0.0; AXES], "an update of half a second stops it");
    }

    #[test]
    fn z_narrows_the_field_a_tenth_an_update_and_only_from_an_end() {
        let mut zoom = Zoom::default();
        assert!(
            (zoom.vertical().to_degrees() / 2.0 - 23.24).abs() < 0.01,
            "1.04 across 4 : 3 is 23.2° each way: {}",
            zoom.vertical()
        );
        zoom.toggle();
        zoom.step();
        assert!((zoom.field - 0.94).abs() < 1e-6);
        zoom.toggle();
        assert!(zoom.on, "between the ends Z does nothing");
        for _ in 0..20 {
            zoom.step();
        }
        assert_eq!(zoom.field, FIELD.0, "stops at 0.2");
        zoom.toggle();
        zoom.step();
        assert!(!zoom.on && (zoom.field - 0.3).abs() < 1e-6, "back toward the widest");
    }
}
