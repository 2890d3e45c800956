//! Piloting (Parkan's signature): `Pilot` with one of the player's robots selected
//! takes direct control of it. The camera rides it from its `CameraCenter` point, the
//! cursor is captured, `Drive` moves and turns it, `Strafe` moves it sideways, mouse X or
//! the right stick turns its turret, `Fire` fires its selected guns, `FireMissiles` its
//! selected guided ones and `FireAll` every gun at the player's target
//! ([`crate::target`]); the input reaches
//! the simulation as tick-stamped pilot
//! commands through the same Control step as every other unit; the weapon keys select its
//! guns (`AllWeapons`, `Weapon1`…, the original's `CMD_SELECT_*WEAPON*`) while the wingman
//! menu is closed. `Pilot` again, `Pause` or losing the robot hands it back to its orders.

use crate::command::Battlefield;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, PrimaryWindow};
use iron3d_camera::{CameraMode, GameCamera};
use iron3d_core::{Order, Pause};
use iron3d_input::{Actions, GameAction, InputSettings, PilotSample, PlayerCommands, Selection, Triggers};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TakenAt>()
        .register_type::<TakenAt>()
        .add_systems(Update, (pilot, weapon_keys, auto_driver_key, taken_at).run_if(in_state(Pause::Running)));
}

/// The auto-driver level a unit page's button takes its unit at (openparkan
/// `docs/40-command-mode.md`, "Telepresence: mode 2", read: the three buttons push
/// telepresence at level 0, 1 or 2): given the unit as its `Order::AutoDriver` once the
/// take has landed (an order to a unit not yet driven is refused).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct TakenAt(pub Option<(u32, u8)>);

/// Gives the unit of [`TakenAt`] its level once it is driven, unless it is at it already;
/// leaving its telepresence forgets the level asked.
pub(crate) fn taken_at(
    mut asked: ResMut<TakenAt>,
    views: Res<crate::views::Views>,
    scene: Battlefield,
    driven: Query<Option<&iron3d_core::AutoDriver>, With<iron3d_core::ManualControl>>,
    mut player: ResMut<PlayerCommands>,
) {
    let Some((unit, level)) = asked.0 else { return };
    if views.front() != Some(crate::views::View::Telepresence(unit)) {
        asked.0 = None;
        return;
    }
    // The take lands at the end of a tick: until then the unit is not driven.
    let Some(now) = scene.entity(unit).and_then(|e| driven.get(e).ok()) else { return };
    if now.copied().unwrap_or_default().0 != level {
        player.order(vec![unit], Order::AutoDriver(level), false);
    }
    asked.0 = None;
}

/// Turret turn per pixel of mouse motion (radians).
pub const AIM_PER_PIXEL: f32 = 0.003;
/// Turret turn rate at full stick (radians per second).
pub const AIM_STICK_RATE: f32 = 2.0;

/// The pilot's triggers in [`Triggers`]' order.
const TRIGGERS: [GameAction; 3] = [GameAction::Fire, GameAction::FireMissiles, GameAction::FireAll];

/// Switches the cameras to `mode`, capturing the cursor for a first-person view.
pub(crate) fn look(
    mode: CameraMode,
    cameras: &mut Query<&mut GameCamera>,
    cursor: &mut Query<&mut CursorOptions, With<PrimaryWindow>>,
) {
    for mut cam in cameras.iter_mut() {
        cam.switch(mode);
        if matches!(mode, CameraMode::FirstPerson(_)) {
            cam.pitch = -0.1;
        }
    }
    let piloting = matches!(mode, CameraMode::FirstPerson(_));
    for mut c in cursor.iter_mut() {
        c.grab_mode = if piloting { CursorGrabMode::Locked } else { CursorGrabMode::None };
        c.visible = !piloting;
    }
}

/// Samples the piloting input of this frame, or starts and ends piloting.
#[allow(clippy::too_many_arguments, reason = "one system reads the input and drives the camera and cursor")]
pub(crate) fn pilot(
    actions: Query<&Actions>,
    selection: Res<Selection>,
    (views, chosen): (Res<crate::views::Views>, Res<crate::target::PlayerTarget>),
    settings: Res<InputSettings>,
    scene: Battlefield,
    time: Res<Time<Real>>,
    mut player: ResMut<PlayerCommands>,
    mut cameras: Query<&mut GameCamera>,
    mut cursor: Query<&mut CursorOptions, With<PrimaryWindow>>,
) {
    let Ok(a) = actions.single() else { return };
    let own = |id: u32| !scene.own_units(&[id]).is_empty();
    let piloted = player.piloted();
    // In the original's view modes the view stack drives and lets go.
    let free = views.0.is_empty();
    let leave = free
        && piloted.is_some_and(|u| !own(u) || a.just_pressed(&GameAction::Pilot) || a.just_pressed(&GameAction::Pause));
    let mode = if leave {
        let unit = piloted.unwrap_or_default();
        player.release();
        Some(if own(unit) { CameraMode::Follow(unit) } else { CameraMode::Rts })
    } else if free && piloted.is_none() && a.just_pressed(&GameAction::Pilot) {
        match selection.units[..] {
            [unit] if own(unit) => {
                player.pilot(PilotSample { unit, ..PilotSample::default() });
                Some(CameraMode::FirstPerson(unit))
            }
            _ => None,
        }
    } else {
        None
    };
    if let Some(mode) = mode {
        look(mode, &mut cameras, &mut cursor);
    }
    if let Some(unit) = player.piloted() {
        let drive = a.clamped_axis_pair(&GameAction::Drive);
        let look = settings.mouse(a.axis_pair(&GameAction::Look));
        let stick = settings.stick(a.axis_pair(&GameAction::Stick));
        let aim = -look.x * AIM_PER_PIXEL - stick.x * AIM_STICK_RATE * time.delta_secs();
        player.pilot(PilotSample {
            unit,
            throttle: drive.y,
            turn: -drive.x,
            strafe: a.clamped_value(&GameAction::Strafe),
            aim,
            triggers: Triggers { held: TRIGGERS.map(|t| a.pressed(&t)), pressed: TRIGGERS.map(|t| a.just_pressed(&t)) },
            camouflage_pressed: a.just_pressed(&GameAction::Camouflage),
            lock_pressed: a.just_pressed(&GameAction::TurretLock),
            target: chosen.current.filter(|_| chosen.unit == Some(unit)),
        });
    }
}

/// The auto-driver key steps the level of the bot the player drives, aboard it or by
/// telepresence, 0 → 1 → 2 → 0 (`0x10075fc0`, read); on foot it steps nothing.
fn auto_driver_key(
    actions: Query<&Actions>,
    views: Res<crate::views::Views>,
    levels: Query<&iron3d_core::AutoDriver>,
    scene: Battlefield,
    mut player: ResMut<PlayerCommands>,
) {
    let Ok(a) = actions.single() else { return };
    let Some(crate::views::View::Driving(unit) | crate::views::View::Telepresence(unit)) = views.front() else {
        return;
    };
    if a.just_pressed(&GameAction::AutoDriver) {
        let now = scene.entity(unit).and_then(|e| levels.get(e).ok()).copied().unwrap_or_default();
        player.order(vec![unit], Order::AutoDriver(now.next().0), false);
    }
}

/// The weapon keys of this frame reach the driven unit's guns, unless the wingman menu,
/// which takes the digits while open, is up.
fn weapon_keys(actions: Query<&Actions>, wingmen: Res<crate::wingmen::Wingmen>, mut player: ResMut<PlayerCommands>) {
    let (Ok(a), Some(unit)) = (actions.single(), player.piloted()) else { return };
    if wingmen.menu != crate::wingmen::Menu::Off {
        return;
    }
    let keys = std::iter::once(GameAction::AllWeapons).chain(GameAction::WEAPONS);
    for (n, _) in keys.enumerate().filter(|(_, k)| a.just_pressed(k)) {
        player.order(vec![unit], Order::SelectWeapon(n as u8), false);
    }
}
