//! The camera rig: its modes, angles and their rules (`docs/reference/runtime.md` §7.1): the
//! horizontal angle wraps, the vertical one is clamped, and *center* returns both to
//! their set values smoothly on game time, so the path is the same at any frame rate.

use crate::command::{CommandMotion, Zoom};
use bevy::prelude::*;
use std::f32::consts::{PI, TAU};

/// How the camera moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum CameraMode {
    /// Orbit a focus point on the ground (edge scroll, zoom, rotate).
    #[default]
    Rts,
    /// Move freely along the view direction.
    FreeFly,
    /// Orbit a unit, keeping it in the middle (by `OriginalObjectId`).
    Follow(u32),
    /// Look out of a unit from its `CameraCenter` point (piloting).
    FirstPerson(u32),
}

/// The lowest and highest RTS tilt below the horizon (radians).
pub const RTS_PITCH: (f32, f32) = (0.1, 1.5);
/// The free-fly and first-person pitch limits (radians, up positive).
pub const FREE_PITCH: (f32, f32) = (-1.5, 1.5);
/// The zoom limits (distance from the focus).
pub const DISTANCE: (f32, f32) = (20.0, 20_000.0);
/// How fast centering closes the gap (per second of game time): after `t` seconds
/// `exp(-CENTER_RATE · t)` of it is left.
pub const CENTER_RATE: f32 = 6.0;
/// Centering ends when both angles are this close (radians).
pub const CENTER_DONE: f32 = 1.0e-3;

/// The game camera's rig (Bevy's world is Y-up).
#[derive(Component, Debug, Clone, PartialEq, Reflect)]
#[reflect(Component)]
pub struct GameCamera {
    /// Movement mode.
    pub mode: CameraMode,
    /// Point looked at (RTS, follow).
    pub focus: Vec3,
    /// Distance from the focus (RTS, follow).
    pub distance: f32,
    /// Heading, radians, wrapped to (-π, π].
    pub yaw: f32,
    /// Tilt: below the horizon for RTS and follow, up positive for free fly and first
    /// person; clamped per mode.
    pub pitch: f32,
    /// Movement speed, world units per second at distance 100.
    pub speed: f32,
    /// Free-fly position.
    pub position: Vec3,
    /// The angles *center* returns to (set when the mission is framed).
    pub home: (f32, f32),
    /// Centering in progress.
    pub centering: bool,
    /// The infrared view is on (`CMD_CAMERA_INFRARED`).
    pub infrared: bool,
    /// The spotlight is on.
    pub spotlight: bool,
    /// A command view's square: the RTS focus is kept within this far of the centre
    /// along each ground axis (a bunker's camera, ±200 m about it, openparkan
    /// `docs/40-command-mode.md`, read; the original holds the camera's position, the
    /// project's orbit holds its focus).
    pub hold: Option<(Vec3, f32)>,
    /// A command view's camera (a bunker's, or an HQ's riding with it): the cursor at
    /// the edges turns it, PageUp and PageDown lift it and Z zooms, as the original's.
    pub command: bool,
    /// A command camera's motion: its turn, tilt and moves, ramped and dying away.
    pub motion: CommandMotion,
    /// The field of view (the command camera's Z narrows it).
    pub lens: Zoom,
    /// The outer camera is on (`CMD_JAMES_OUTER_CAMERA`): a first-person view is seen
    /// from behind and above the unit ([`crate::outer`]); every switch of mode turns it
    /// off, as the original's view transitions do.
    pub outer: bool,
}

impl Default for GameCamera {
    fn default() -> Self {
        Self {
            mode: CameraMode::Rts,
            focus: Vec3::ZERO,
            distance: 400.0,
            yaw: 0.6,
            pitch: 0.75,
            speed: 250.0,
            position: Vec3::new(0.0, 200.0, 400.0),
            home: (0.6, 0.75),
            centering: false,
            infrared: false,
            spotlight: false,
            hold: None,
            command: false,
            motion: CommandMotion::default(),
            lens: Zoom::default(),
            outer: false,
        }
    }
}

/// `a` wrapped to (-π, π].
pub fn wrap(a: f32) -> f32 {
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w <= -PI { w + TAU } else { w }
}

impl GameCamera {
    /// The pitch limits of the current mode.
    pub fn pitch_limits(&self) -> (f32, f32) {
        match self.mode {
            CameraMode::Rts | CameraMode::Follow(_) => RTS_PITCH,
            CameraMode::FreeFly | CameraMode::FirstPerson(_) => FREE_PITCH,
        }
    }

    /// Turns and tilts by manual input (cancels centering): yaw wraps, pitch clamps.
    pub fn rotate(&mut self, yaw: f32, pitch: f32) {
        if yaw != 0.0 || pitch != 0.0 {
            self.centering = false;
        }
        self.yaw = wrap(self.yaw + yaw);
        let (lo, hi) = self.pitch_limits();
        self.pitch = (self.pitch + pitch).clamp(lo, hi);
    }

    /// Advances centering by `dt` seconds of game time.
    pub fn advance_centering(&mut self, dt: f32) {
        if !self.centering {
            return;
        }
        let keep = (-CENTER_RATE * dt).exp();
        let yaw_gap = wrap(self.yaw - self.home.0) * keep;
        let pitch_gap = (self.pitch - self.home.1) * keep;
        if yaw_gap.abs() < CENTER_DONE && pitch_gap.abs() < CENTER_DONE {
            (self.yaw, self.pitch, self.centering) = (self.home.0, self.home.1, false);
        } else {
            self.yaw = wrap(self.home.0 + yaw_gap);
            self.pitch = self.home.1 + pitch_gap;
        }
    }

    /// Keeps the focus inside the held square, if one is held.
    pub fn keep_held(&mut self) {
        if let Some((c, r)) = self.hold {
            self.focus.x = self.focus.x.clamp(c.x - r, c.x + r);
            self.focus.z = self.focus.z.clamp(c.z - r, c.z + r);
        }
    }

    /// Keeps the orbit's eye within `band` (lowest, highest) over `ground`, the height of
    /// what lies under it, by its distance from the focus (the original's command camera
    /// keeps its height between 36 and 236 over the ground; the orbit keeps its distance
    /// instead, the project's).
    pub fn keep_over(&mut self, ground: f32, (low, high): (f32, f32)) {
        let sin = self.pitch.sin().max(0.05);
        let over = self.focus.y + self.distance * sin - ground;
        if over < low {
            self.distance += (low - over) / sin;
        } else if over > high {
            self.distance = (self.distance - (over - high) / sin).max(DISTANCE.0);
        }
    }

    /// Keeps the eye's ground coordinates (game x and y) above tan(½ field) × its height
    /// and below `side`, the map's (the original's command camera takes a new coordinate
    /// only inside them, openparkan `docs/40-command-mode.md`, read; the orbit moves its
    /// focus back by the overshoot, the project's).
    pub fn keep_margin(&mut self, side: f32) {
        let eye = self.transform().translation;
        let low = (self.lens.field / 2.0).tan() * eye.y;
        let back = |c: f32| {
            if c < low {
                low - c
            } else if c > side {
                side - c
            } else {
                0.0
            }
        };
        // Game x is Bevy's x, game y Bevy's −z.
        self.focus.x += back(eye.x);
        self.focus.z -= back(-eye.z);
    }

    /// Zooms by `steps` wheel steps (positive closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * (1.0 - steps * 0.1)).clamp(DISTANCE.0, DISTANCE.1);
    }

    /// The view rotation of free fly and first person.
    pub fn look_rotation(&self) -> Quat {
        Quat::from_euler(EulerRot::YXZ, self.yaw, self.pitch, 0.0)
    }

    /// The camera transform for the current rig state (first person: the caller
    /// places it at the unit).
    pub fn transform(&self) -> Transform {
        match self.mode {
            CameraMode::Rts | CameraMode::Follow(_) => {
                let offset =
                    Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos())
                        * self.distance;
                Transform::from_translation(self.focus + offset).looking_at(self.focus, Vec3::Y)
            }
            CameraMode::FreeFly | CameraMode::FirstPerson(_) => {
                Transform::from_translation(self.position).with_rotation(self.look_rotation())
            }
        }
    }

    /// Switches mode keeping the view where it is.
    pub fn switch(&mut self, mode: CameraMode) {
        let from = self.transform().translation;
        let was_orbit = matches!(self.mode, CameraMode::Rts | CameraMode::Follow(_));
        let orbit = matches!(mode, CameraMode::Rts | CameraMode::Follow(_));
        if was_orbit != orbit {
            // Orbit pitch is below the horizon; free-fly pitch is up positive.
            self.pitch = -self.pitch;
        }
        self.mode = mode;
        self.outer = false;
        self.position = from;
        let (lo, hi) = self.pitch_limits();
        self.pitch = self.pitch.clamp(lo, hi);
        self.centering = false;
    }

    /// Frames an axis-aligned box of points and makes the current angles home.
    pub fn frame(&mut self, min: Vec3, max: Vec3) {
        self.focus = (min + max) / 2.0;
        let extent = (max - min).length().max(50.0);
        self.distance = extent * 0.8;
        self.position = self.transform().translation;
        self.home = (self.yaw, self.pitch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rts_camera_looks_at_its_focus_from_above() {
        let mut cam = GameCamera { focus: Vec3::new(100.0, 0.0, -50.0), ..Default::default() };
        let t = cam.transform();
        assert!(t.translation.y > 0.0, "above the ground");
        let to_focus = (cam.focus - t.translation).normalize();
        assert!(t.forward().dot(to_focus) > 0.999);
        assert!((t.translation.distance(cam.focus) - cam.distance).abs() < 1e-3);
        cam.frame(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1000.0, 50.0, 1000.0));
        assert_eq!(cam.focus, Vec3::new(500.0, 25.0, 500.0));
        assert!(cam.distance > 1000.0);
    }

    #[test]
    fn free_fly_faces_the_same_way_as_the_rts_view_it_came_from() {
        let mut cam = GameCamera::default();
        let rts = cam.transform();
        cam.switch(CameraMode::FreeFly);
        let fly = cam.transform();
        assert!(rts.forward().dot(*fly.forward()) > 0.999, "{:?} vs {:?}", rts.forward(), fly.forward());
        assert!(rts.translation.distance(fly.translation) < 1e-3);
    }

    #[test]
    fn a_held_camera_keeps_its_focus_within_the_square_on_each_ground_axis() {
        let hold = Some((Vec3::new(100.0, 30.0, -50.0), 200.0));
        let mut cam = GameCamera { focus: Vec3::new(450.0, 5.0, -100.0), hold, ..Default::default() };
        cam.keep_held();
        assert_eq!(cam.focus, Vec3::new(300.0, 5.0, -100.0), "x held, y and z free within");
        cam.focus = Vec3::new(-200.0, 0.0, -400.0);
        cam.keep_held();
        assert_eq!(cam.focus, Vec3::new(-100.0, 0.0, -250.0));
    }

    #[test]
    fn the_eye_stays_above_tan_half_the_field_times_its_height_and_within_the_map() {
        // Looking north (game +y is Bevy −z) from the south-west corner, 120 high.
        let mut cam = GameCamera { focus: Vec3::new(10.0, 0.0, -300.0), yaw: 0.0, pitch: 0.5, ..Default::default() };
        cam.distance = 120.0 / cam.pitch.sin();
        cam.keep_margin(2000.0);
        let eye = cam.transform().translation;
        let low = (1.04f32 / 2.0).tan() * 120.0;
        assert!((low - 68.7).abs() < 0.1, "69 m at 120 m up (read): {low}");
        assert!((eye.x - low).abs() < 1e-3, "x brought to the margin: {eye}");
        assert!(-eye.z > low, "y was inside: {eye}");
        assert_eq!(cam.focus.z, -300.0, "y untouched");
        cam.focus = Vec3::new(2100.0, 0.0, -2400.0);
        cam.keep_margin(2000.0);
        let eye = cam.transform().translation;
        assert!((eye.x - 2000.0).abs() < 1e-3 && (-eye.z - 2000.0).abs() < 1e-3, "held at the map's side: {eye}");
    }

    #[test]
    fn an_eye_kept_over_the_ground_moves_along_its_orbit() {
        let mut cam =
            GameCamera { focus: Vec3::new(0.0, 50.0, 0.0), distance: 600.0, pitch: 0.5, ..Default::default() };
        let over = |cam: &GameCamera, ground: f32| cam.transform().translation.y - ground;
        cam.keep_over(40.0, (36.0, 236.0));
        assert!((over(&cam, 40.0) - 236.0).abs() < 1e-3, "lowered to the band's top: {}", over(&cam, 40.0));
        cam.keep_over(260.0, (36.0, 236.0));
        assert!((over(&cam, 260.0) - 36.0).abs() < 1e-3, "raised over a higher ground: {}", over(&cam, 260.0));
        let before = cam.distance;
        cam.keep_over(150.0, (36.0, 236.0));
        assert_eq!(cam.distance, before, "inside the band it stays");
    }

    #[test]
    fn the_horizontal_angle_wraps_and_the_vertical_one_clamps() {
        let mut cam = GameCamera { yaw: 3.0, pitch: 1.4, ..Default::default() };
        cam.rotate(0.5, 0.5);
        assert!((cam.yaw - (3.5 - TAU)).abs() < 1e-5, "wrapped: {}", cam.yaw);
        assert_eq!(cam.pitch, RTS_PITCH.1, "clamped to the RTS limit");
        cam.rotate(-20.0 * TAU, -5.0);
        assert!(cam.yaw > -PI && cam.yaw <= PI);
        assert_eq!(cam.pitch, RTS_PITCH.0);
        assert_eq!(wrap(PI), PI);
        assert_eq!(wrap(-PI), PI);
    }

    /// Centers for `seconds` at `fps`; returns the angles after each half second.
    fn center_path(fps: u32, seconds: u32) -> Vec<(f32, f32)> {
        let mut cam = GameCamera { yaw: 2.9, pitch: 1.3, home: (-2.9, 0.4), centering: true, ..Default::default() };
        let mut path = Vec::new();
        for frame in 1..=fps * seconds {
            cam.advance_centering(1.0 / fps as f32);
            if frame % (fps / 2) == 0 {
                path.push((cam.yaw, cam.pitch));
            }
        }
        path
    }

    #[test]
    fn centering_takes_the_same_path_at_30_and_144_frames_per_second() {
        let (slow, fast) = (center_path(30, 2), center_path(144, 2));
        assert_eq!(slow.len(), fast.len());
        for ((a, b), (c, d)) in slow.iter().zip(&fast) {
            assert!((wrap(a - c)).abs() < 1e-4 && (b - d).abs() < 1e-4, "{slow:?} vs {fast:?}");
        }
        // The short way round: from 2.9 to -2.9 crosses π, never passing 0.
        assert!(slow.iter().all(|(yaw, _)| yaw.abs() > 2.8), "{slow:?}");
        assert_eq!(*slow.last().unwrap(), (-2.9, 0.4), "arrived and snapped");
    }
}
