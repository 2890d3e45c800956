//! The camera commands from the player's actions: pan (keys, stick, screen edges),
//! turn and tilt (keys, the right stick, the mouse while look is held), zoom, rise,
//! center, mode toggles (free fly, follow the selection), infrared and spotlight.
//! Speeds are per second of real time; centering runs on game time.

use crate::command;
use crate::rig::{CameraMode, DISTANCE, GameCamera};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use iron3d_input::{Actions, GameAction, InputSettings, Selection};

/// Pixels from the window border where the RTS camera scrolls.
pub const EDGE: f32 = 8.0;

/// Which edge of a span `len` long the coordinate `c` is at, within `margin`: −1 the
/// low one, +1 the high one, 0 neither.
pub(crate) fn edge_side(c: f32, len: f32, margin: f32) -> f32 {
    if c <= margin {
        -1.0
    } else if c >= len - margin {
        1.0
    } else {
        0.0
    }
}

/// The pan direction from a cursor near the window's edge (x right, y forward).
pub fn edge_scroll(cursor: Vec2, size: Vec2) -> Vec2 {
    Vec2::new(edge_side(cursor.x, size.x, EDGE), -edge_side(cursor.y, size.y, EDGE))
}

/// Steps a command camera (a bunker's, held about it, or an HQ's, which follows it and
/// so is not moved by the pan keys) by `dt`: the cursor at an edge
/// turns and tilts it, the pan keys move it and the rise keys lift its eye at the
/// original's rates whatever its distance; the edges do not scroll it. Its eye rises
/// along the orbit (the original's moves straight up; the project's orbit lengthens).
fn command_step(cam: &mut GameCamera, edges: Vec2, pan: Vec2, rise: f32, dt: f32) {
    let turn = if cam.lens.on { command::ZOOMED_TURN } else { command::TURN };
    let full = [turn, turn, command::SPEED, command::SPEED, command::SPEED / 2.0];
    let [yaw, tilt, sideways, forward, up] = cam.motion.step([edges.x, edges.y, pan.x, pan.y, rise], full, dt);
    cam.rotate(yaw * dt, tilt * dt);
    let (sin, cos) = cam.yaw.sin_cos();
    let (ahead, right) = (-Vec3::new(sin, 0.0, cos), Vec3::new(cos, 0.0, -sin));
    cam.focus += (ahead * forward + right * sideways) * dt;
    cam.distance = (cam.distance + up * dt / cam.pitch.sin().max(0.05)).clamp(DISTANCE.0, DISTANCE.1);
    cam.lens.step();
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
    let command_edge = cursor.map(|(c, size)| command::edges(c, size)).unwrap_or_default();
    let mouse = sensitivity.mouse(a.axis_pair(&GameAction::Look));
    let look = if a.pressed(&GameAction::CameraLookHold) { mouse } else { Vec2::ZERO };
    let stick = sensitivity.stick(a.axis_pair(&GameAction::Stick));
    let boost = if a.pressed(&GameAction::CameraFast) { 4.0 } else { 1.0 };
    for mut cam in &mut cameras {
        if cam.command && matches!(cam.mode, CameraMode::Rts | CameraMode::Follow(_)) {
            if a.just_pressed(&GameAction::CameraZoomMode) {
                cam.lens.toggle();
            }
            let (pan, rise) = (a.clamped_axis_pair(&GameAction::CameraPan), a.clamped_value(&GameAction::CameraRise));
            command_step(&mut cam, command_edge, pan, rise, dt);
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
        if a.just_pressed(&GameAction::OuterCamera) && matches!(cam.mode, CameraMode::FirstPerson(_)) {
            cam.outer = !cam.outer;
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
    fn a_command_camera_turns_moves_and_climbs_at_the_originals_rates() {
        let hold = Some((Vec3::ZERO, 200.0));
        let mut cam = GameCamera { hold, yaw: 0.0, pitch: 0.6, ..Default::default() };
        let dt = 0.05;
        for _ in 0..20 {
            command_step(&mut cam, Vec2::new(1.0, 0.0), Vec2::ZERO, 0.0, dt);
        }
        // 1.5 rad/s ramped over the first half second, then full: 1.5 × (1 − 0.25) after 1 s.
        let expected: f32 = (1..=20).map(|k| 1.5 * command::ramp(k as f32 * dt) * dt).sum();
        assert!((cam.yaw - expected).abs() < 1e-4 && (expected - 1.125).abs() < 0.05, "{} vs {expected}", cam.yaw);
        command_step(&mut cam, Vec2::ZERO, Vec2::new(0.0, 1.0), 0.0, 1.0);
        assert!((cam.focus.length() - 125.0).abs() < 1e-3, "125 m/s on the keys, a second held: {}", cam.focus);
        let eye = cam.transform().translation.y;
        command_step(&mut cam, Vec2::ZERO, Vec2::ZERO, 1.0, 1.0);
        let risen = cam.transform().translation.y - eye;
        assert!((risen - 62.5).abs() < 1e-2, "PageUp lifts the eye at half the speed: {risen}");
        let yaw = cam.yaw;
        cam.lens.toggle();
        for _ in 0..9 {
            command_step(&mut cam, Vec2::new(1.0, 0.0), Vec2::ZERO, 0.0, 1.0);
        }
        assert_eq!(cam.lens.field, command::FIELD.0, "Z narrows the field in nine updates");
        assert!((cam.yaw - yaw - 9.0 * 0.2).abs() < 1e-4, "zoomed, the edge turns it at 0.2 rad/s: {}", cam.yaw - yaw);
    }

    #[test]
    fn the_cursor_at_an_edge_scrolls_that_way() {
        let size = Vec2::new(1280.0, 720.0);
        assert_eq!(edge_scroll(Vec2::new(640.0, 360.0), size), Vec2::ZERO);
        assert_eq!(edge_scroll(Vec2::new(2.0, 360.0), size), Vec2::new(-1.0, 0.0));
        assert_eq!(edge_scroll(Vec2::new(1279.0, 1.0), size), Vec2::new(1.0, 1.0), "top right: right and forward");
        assert_eq!(edge_scroll(Vec2::new(640.0, 716.0), size), Vec2::new(0.0, -1.0));
    }

    /// The outer camera's key turns it on and off only while the camera rides a unit in
    /// first person.
    #[test]
    fn the_outer_camera_key_toggles_it_in_first_person_only() {
        let mut app = App::new();
        app.init_resource::<Time<Real>>()
            .init_resource::<Time<Virtual>>()
            .init_resource::<Selection>()
            .init_resource::<InputSettings>()
            .add_systems(Update, controls);
        let player = app.world_mut().spawn(Actions::default()).id();
        let camera =
            app.world_mut().spawn(GameCamera { mode: CameraMode::FirstPerson(3), ..GameCamera::default() }).id();
        let tap = |app: &mut App| {
            iron3d_input::testing::tap(app, player, GameAction::OuterCamera);
            app.world().get::<GameCamera>(camera).unwrap().outer
        };
        assert!(tap(&mut app), "on");
        assert!(!tap(&mut app), "and off");
        app.world_mut().get_mut::<GameCamera>(camera).unwrap().mode = CameraMode::Follow(3);
        assert!(!tap(&mut app), "not outside first person");
    }
}
