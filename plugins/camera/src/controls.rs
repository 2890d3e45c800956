//! The camera commands from the player's actions: pan (keys, stick, screen edges),
//! turn and tilt (keys, the right stick, the mouse while look is held), zoom, rise,
//! center, mode toggles (free fly, follow the selection), infrared and spotlight.
//! Speeds are per second of real time; centering runs on game time.

use crate::rig::{CameraMode, GameCamera};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use iron3d_input::{Actions, GameAction, InputSettings, Selection};

/// Pixels from the window border where the RTS camera scrolls.
pub const EDGE: f32 = 8.0;

/// The pan direction from a cursor near the window's edge (x right, y forward).
pub fn edge_scroll(cursor: Vec2, size: Vec2) -> Vec2 {
    let axis = |c: f32, len: f32| {
        if c <= EDGE {
            -1.0
        } else if c >= len - EDGE {
            1.0
        } else {
            0.0
        }
    };
    Vec2::new(axis(cursor.x, size.x), -axis(cursor.y, size.y))
}

/// The command camera's turn rate at an edge and its speed on the keys (rad/s, m/s;
/// openparkan `docs/40-command-mode.md`, read).
pub const COMMAND_RATES: (f32, f32) = (1.5, 125.0);

/// Where the cursor turns a command camera (read): on the original's 640 × 480 layout,
/// x ≤ 6 turns it left and x ≥ 634 right (+1 and −1 of yaw), y ≤ 6 tilts it up toward
/// level and y ≥ 474 down (−1 and +1 below the horizon).
pub fn command_edges(cursor: Vec2, size: Vec2) -> Vec2 {
    let at = cursor * Vec2::new(640.0, 480.0) / size.max(Vec2::ONE);
    let side = |v: f32, end: f32| {
        if v <= 6.0 {
            -1.0
        } else if v >= end - 6.0 {
            1.0
        } else {
            0.0
        }
    };
    Vec2::new(-side(at.x, 640.0), side(at.y, 480.0))
}

/// A command camera's ramp: 2t of its rate for the first half second held, then all of
/// it (read).
pub fn ramp(held: f32) -> f32 {
    (2.0 * held).min(1.0)
}

/// Steps a command camera (one held about a building): the cursor at an edge turns and
/// tilts it, the pan keys move it at 125 m/s whatever its distance, each ramped; the
/// edges do not scroll it (the original's camera slows to a stop over a few frames once
/// let go; here it stops at once, the project's).
fn command_step(cam: &mut GameCamera, edges: Vec2, pan: Vec2, dt: f32) {
    let (rate, speed) = COMMAND_RATES;
    for (k, on) in [edges.x != 0.0, edges.y != 0.0, pan != Vec2::ZERO].into_iter().enumerate() {
        cam.held[k] = if on { cam.held[k] + dt } else { 0.0 };
    }
    let turn = edges * rate * dt * Vec2::new(ramp(cam.held[0]), ramp(cam.held[1]));
    cam.rotate(turn.x, turn.y);
    let (sin, cos) = cam.yaw.sin_cos();
    let (forward, right) = (-Vec3::new(sin, 0.0, cos), Vec3::new(cos, 0.0, -sin));
    cam.focus += (forward * pan.y + right * pan.x) * speed * ramp(cam.held[2]) * dt;
}

/// Applies the camera actions to every game camera.
pub(crate) fn controls(
    actions: Query<&Actions>,
    windows: Query<&Window, With<PrimaryWindow>>,
    time: Res<Time<Real>>,
    game_time: Res<Time<Virtual>>,
    selection: Res<Selection>,
    sensitivity: Res<InputSettings>,
    mut cameras: Query<&mut GameCamera>,
) {
    let Ok(a) = actions.single() else { return };
    let dt = time.delta_secs();
    let window = windows.single().ok();
    let cursor = window.filter(|w| w.focused).and_then(|w| Some((w.cursor_position()?, w.size())));
    let edge = cursor.map(|(c, size)| edge_scroll(c, size)).unwrap_or_default();
    let command_edge = cursor.map(|(c, size)| command_edges(c, size)).unwrap_or_default();
    let mouse = sensitivity.mouse(a.axis_pair(&GameAction::Look));
    let look = if a.pressed(&GameAction::CameraLookHold) { mouse } else { Vec2::ZERO };
    let stick = sensitivity.stick(a.axis_pair(&GameAction::Stick));
    let boost = if a.pressed(&GameAction::CameraFast) { 4.0 } else { 1.0 };
    for mut cam in &mut cameras {
        if cam.hold.is_some() && cam.mode == CameraMode::Rts {
            command_step(&mut cam, command_edge, a.clamped_axis_pair(&GameAction::CameraPan), dt);
            cam.zoom(a.value(&GameAction::CameraZoom));
            continue;
        }
        if a.just_pressed(&GameAction::CameraFreeFly) {
            let next = if cam.mode == CameraMode::FreeFly { CameraMode::Rts } else { CameraMode::FreeFly };
            cam.switch(next);
        }
        if a.just_pressed(&GameAction::CameraFollow) {
            match (cam.mode, selection.first()) {
                (CameraMode::Follow(_), _) | (_, None) => cam.switch(CameraMode::Rts),
                (_, Some(unit)) => cam.switch(CameraMode::Follow(unit)),
            }
        }
        if a.just_pressed(&GameAction::CameraCenter) {
            cam.centering = true;
        }
        if a.just_pressed(&GameAction::CameraInfrared) {
            cam.infrared = !cam.infrared;
        }
        if a.just_pressed(&GameAction::Spotlight) {
            cam.spotlight = !cam.spotlight;
        }
        let turn = a.value(&GameAction::CameraTurn) * dt * 1.5 - look.x * 0.005 - stick.x * dt * 2.0;
        let tilt = a.value(&GameAction::CameraTilt) * dt;
        let pitch_sign = if matches!(cam.mode, CameraMode::Rts | CameraMode::Follow(_)) { 1.0 } else { -1.0 };
        let tilt = tilt + pitch_sign * (look.y * 0.005 + stick.y * dt * 1.5);
        if !matches!(cam.mode, CameraMode::FirstPerson(_)) {
            cam.rotate(turn, tilt);
        } else {
            // Piloting: the unit turns the view; the mouse and stick look up and down.
            cam.rotate(0.0, -mouse.y * 0.005 + stick.y * dt * 1.5);
        }
        cam.advance_centering(game_time.delta_secs());
        let pan =
            a.clamped_axis_pair(&GameAction::CameraPan) + if cam.mode == CameraMode::Rts { edge } else { Vec2::ZERO };
        let (sin, cos) = cam.yaw.sin_cos();
        let ground_forward = -Vec3::new(sin, 0.0, cos);
        let ground_right = Vec3::new(cos, 0.0, -sin);
        let zoom = a.value(&GameAction::CameraZoom);
        match cam.mode {
            CameraMode::Rts | CameraMode::Follow(_) => {
                cam.zoom(zoom);
                if cam.mode == CameraMode::Rts {
                    let step = cam.speed * boost * dt * (cam.distance / 100.0).max(0.5);
                    cam.focus += (ground_forward * pan.y + ground_right * pan.x) * step;
                }
            }
            CameraMode::FreeFly => {
                let view = cam.transform().forward();
                let step = cam.speed * boost * dt * 2.0;
                let rise = a.value(&GameAction::CameraRise);
                cam.position += (*view * pan.y + ground_right * pan.x + Vec3::Y * rise) * step;
                cam.speed = (cam.speed * (1.0 + zoom * 0.1)).clamp(10.0, 5_000.0);
            }
            CameraMode::FirstPerson(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_camera_turns_at_the_edges_of_the_640_by_480_layout_ramped_over_half_a_second() {
        let size = Vec2::new(1280.0, 960.0);
        assert_eq!(command_edges(Vec2::new(640.0, 480.0), size), Vec2::ZERO);
        assert_eq!(command_edges(Vec2::new(12.0, 480.0), size), Vec2::new(1.0, 0.0), "x 6 of 640: turns left");
        assert_eq!(command_edges(Vec2::new(1270.0, 2.0), size), Vec2::new(-1.0, -1.0), "right, and up toward level");
        assert_eq!(command_edges(Vec2::new(640.0, 950.0), size), Vec2::new(0.0, 1.0), "y 475 of 480: down");
        assert_eq!((ramp(0.0), ramp(0.25), ramp(0.5), ramp(2.0)), (0.0, 0.5, 1.0, 1.0));
        let hold = Some((Vec3::ZERO, 200.0));
        let mut cam = GameCamera { hold, yaw: 0.0, pitch: 0.6, ..Default::default() };
        let dt = 0.05;
        for _ in 0..20 {
            command_step(&mut cam, Vec2::new(1.0, 0.0), Vec2::ZERO, dt);
        }
        // 1.5 rad/s ramped over the first half second, then full: 1.5 × (1 − 0.25) after 1 s.
        let expected: f32 = (1..=20).map(|k| 1.5 * ramp(k as f32 * dt) * dt).sum();
        assert!((cam.yaw - expected).abs() < 1e-4 && (expected - 1.125).abs() < 0.05, "{} vs {expected}", cam.yaw);
        command_step(&mut cam, Vec2::ZERO, Vec2::new(0.0, 1.0), 1.0);
        assert!((cam.focus.length() - 125.0).abs() < 1e-3, "125 m/s on the keys, a second held: {}", cam.focus);
    }

    #[test]
    fn the_cursor_at_an_edge_scrolls_that_way() {
        let size = Vec2::new(1280.0, 720.0);
        assert_eq!(edge_scroll(Vec2::new(640.0, 360.0), size), Vec2::ZERO);
        assert_eq!(edge_scroll(Vec2::new(2.0, 360.0), size), Vec2::new(-1.0, 0.0));
        assert_eq!(edge_scroll(Vec2::new(1279.0, 1.0), size), Vec2::new(1.0, 1.0), "top right: right and forward");
        assert_eq!(edge_scroll(Vec2::new(640.0, 716.0), size), Vec2::new(0.0, -1.0));
    }
}
