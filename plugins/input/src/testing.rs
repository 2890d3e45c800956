//! The game's input over egui, headless, for the tests of screens that take keys and clicks: no
//! renderer, a window entity and a camera holding the primary egui context, so egui runs
//! its own input, pass and output systems as in the game.

use crate::{Actions, Bindings, BindingsFile, GameAction, GameInputPlugin, PlayerInput};
use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiPlugin, PrimaryEguiContext};

/// The app (default bindings; `file` is where rebinding saves) after its first frame,
/// and its window.
pub fn egui_app(file: Option<std::path::PathBuf>) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, iron3d_core::CorePlugin));
    let window = add_egui(&mut app, file);
    app.update();
    (app, window)
}

/// Adds the window, egui and the game's input to `app` (which has time, states and
/// `CorePlugin`); returns the window.
pub fn add_egui(app: &mut App, file: Option<std::path::PathBuf>) -> Entity {
    app.add_plugins((InputPlugin, bevy::window::WindowPlugin::default()))
        .add_plugins(bevy::asset::AssetPlugin::default())
        .init_asset::<bevy::shader::Shader>()
        .init_asset::<Image>()
        .add_plugins((EguiPlugin::default(), GameInputPlugin))
        .insert_resource(Bindings::default())
        .insert_resource(BindingsFile(file));
    app.world_mut().spawn((Camera::default(), PrimaryEguiContext));
    let world = app.world_mut();
    world.query_filtered::<Entity, With<PrimaryWindow>>().single(world).expect("one primary window")
}

/// A left click at `position` in `window`, over three frames (the pointer moves there,
/// the button goes down, then up).
pub fn click(app: &mut App, window: Entity, position: Vec2) {
    use bevy::input::mouse::{MouseButton, MouseButtonInput};
    frame(app, bevy::window::CursorMoved { window, position, delta: None });
    for state in [ButtonState::Pressed, ButtonState::Released] {
        frame(app, MouseButtonInput { button: MouseButton::Left, state, window });
    }
}

/// Writes `message` and runs a frame.
pub fn frame(app: &mut App, message: impl Message) {
    app.world_mut().write_message(message);
    app.update();
}

/// A key's press or release in `window` (`logical`: what it types).
pub fn key(window: Entity, key_code: KeyCode, logical_key: Key, state: ButtonState) -> KeyboardInput {
    let text = match (&logical_key, state) {
        (Key::Character(c), ButtonState::Pressed) => Some(c.clone()),
        _ => None,
    };
    KeyboardInput { key_code, logical_key, state, text, repeat: false, window }
}

/// Whether the local player's `action` is pressed.
pub fn pressed(app: &mut App, action: GameAction) -> bool {
    let world = app.world_mut();
    world.query_filtered::<&Actions, With<PlayerInput>>().single(world).expect("the player input").pressed(&action)
}

/// One press of `action` on the action state of `player` (no devices: the state is set
/// directly), then an update of `app`, then its release.
pub fn tap(app: &mut App, player: Entity, action: GameAction) {
    let now = std::time::Instant::now();
    let mut a = app.world_mut().get_mut::<Actions>(player).expect("an action state");
    a.tick(now, now);
    a.press(&action);
    app.update();
    app.world_mut().get_mut::<Actions>(player).expect("an action state").release(&action);
}
