//! Input mapping for the game (`docs/reference/runtime.md` §6): one action set,
//! [`GameAction`], for keyboard, mouse and gamepad through leafwing-input-manager; the
//! player's button bindings in the config directory with a rebinding capture; clicks
//! and keys egui takes never reach the game; frame input becomes tick-stamped commands
//! ([`PlayerCommands`]) in `InputPhase::Commands`. No other crate reads the devices.

mod actions;
mod bindings;
mod frame;
pub mod original;
mod rebind;
mod selection;
mod settings;
pub mod testing;

pub use actions::GameAction;
pub use bindings::{BaseBindings, Binding, Bindings, BindingsFile};
pub use frame::{PilotSample, PlayerCommands, PlayerOrder, Triggers};
pub use rebind::Rebinding;
pub use selection::{GROUPS, Selection, in_box};
pub use settings::InputSettings;

use bevy::input::InputSystems;
use bevy::prelude::*;
use bevy_egui::{EguiGlobalSettings, EguiPreUpdateSet};
use iron3d_assets::GameData;
use iron3d_core::InputPhase;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;
use original::OriginalKeys;

/// The player's action state (one per game: the local player).
pub type Actions = ActionState<GameAction>;

/// Marks the entity holding the local player's input map and action state.
#[derive(Component, Debug, Default, Reflect)]
#[reflect(Component)]
pub struct PlayerInput;

/// Installs the action set, the bindings and the command stamping.
#[derive(Debug, Default)]
pub struct GameInputPlugin;

impl Plugin for GameInputPlugin {
    fn build(&self, app: &mut App) {
        let file = BindingsFile::user();
        let base = base_bindings(app.world().get_resource::<GameData>());
        app.add_plugins(InputManagerPlugin::<GameAction>::default())
            .insert_resource(file.load(&base))
            .insert_resource(BaseBindings(base))
            .insert_resource(file)
            .init_resource::<PlayerCommands>()
            .init_resource::<Rebinding>()
            .init_resource::<Selection>()
            .init_resource::<InputSettings>()
            .register_type::<Selection>()
            .register_type::<InputSettings>()
            .register_type::<Bindings>()
            .register_type::<PlayerCommands>()
            .register_type::<Rebinding>()
            .register_type::<PlayerInput>()
            .configure_sets(PreUpdate, InputManagerSystem::Unify.after(EguiPreUpdateSet::ProcessInput))
            .add_systems(Startup, spawn)
            .add_systems(
                PreUpdate,
                rebind::capture
                    .after(InputSystems)
                    .before(EguiPreUpdateSet::ProcessInput)
                    .before(InputManagerSystem::Unify),
            )
            .add_systems(Update, apply_bindings)
            .add_systems(FixedUpdate, frame::stamp.in_set(InputPhase::Commands));
        if let Some(mut egui) = app.world_mut().get_resource_mut::<EguiGlobalSettings>() {
            egui.enable_absorb_bevy_input_system = true;
        }
    }
}

/// iron3d's defaults under the original's keys when `game` has them (a file that does
/// not read is reported, and iron3d's defaults kept).
fn base_bindings(game: Option<&GameData>) -> Bindings {
    let Some(game) = game else { return Bindings::default() };
    match OriginalKeys::read(&game.0) {
        Ok(Some(original)) => {
            let (base, moved) = Bindings::default().with_original(&original);
            for line in moved {
                info!("key bindings: {line}");
            }
            base
        }
        Ok(None) => Bindings::default(),
        Err(e) => {
            error!("key bindings: {e}; iron3d's own are used");
            Bindings::default()
        }
    }
}

fn spawn(mut commands: Commands, bindings: Res<Bindings>) {
    commands.spawn((Name::new("Player input"), PlayerInput, bindings.input_map()));
}

/// Changed bindings take effect at once.
fn apply_bindings(bindings: Res<Bindings>, mut maps: Query<&mut InputMap<GameAction>, With<PlayerInput>>) {
    if bindings.is_changed() && !bindings.is_added() {
        for mut map in &mut maps {
            *map = bindings.input_map();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::InputPlugin;
    use bevy::input::gamepad::{GamepadConnection, GamepadConnectionEvent};
    use bevy::input::keyboard::{Key, KeyboardInput};
    use bevy::input::mouse::MouseButtonInput;
    use bevy::window::CursorMoved;
    use bevy_egui::input::EguiWantsInput;
    use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
    use testing::{frame, pressed};

    fn connect(app: &mut App, gamepad: Entity, connection: GamepadConnection) {
        app.world_mut().write_message(GamepadConnectionEvent { gamepad, connection });
        app.update();
        app.update();
    }

    fn pan(app: &mut App) -> Vec2 {
        let world = app.world_mut();
        world.query::<&Actions>().single(world).unwrap().axis_pair(&GameAction::CameraPan)
    }

    #[test]
    fn an_unplugged_gamepad_leaves_no_deflected_axis() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, InputPlugin, InputManagerPlugin::<GameAction>::default()));
        app.world_mut().spawn(Bindings::default().input_map());
        let pad = app.world_mut().spawn_empty().id();
        let connected = GamepadConnection::Connected { name: "test pad".into(), vendor_id: None, product_id: None };
        connect(&mut app, pad, connected);
        GamepadStick::LEFT.set_axis_pair_as_gamepad(app.world_mut(), Vec2::new(0.0, 0.9), Some(pad));
        app.update();
        assert!(pan(&mut app).y > 0.5, "the stick pans: {}", pan(&mut app));
        connect(&mut app, pad, GamepadConnection::Disconnected);
        assert_eq!(pan(&mut app), Vec2::ZERO, "unplugged: no deflection left");
    }

    /// Whether the egui window's text field holds the keyboard.
    #[derive(Resource, Default)]
    struct Typing(bool);

    /// An egui window over (100, 100)..(300, 200) with a text field.
    fn settings_window(mut contexts: EguiContexts, typing: Res<Typing>, mut text: Local<String>) -> Result {
        egui::Window::new("settings").fixed_pos([100.0, 100.0]).fixed_size([200.0, 100.0]).show(
            contexts.ctx_mut()?,
            |ui| {
                let field = ui.text_edit_singleline(&mut *text);
                if typing.0 { field.request_focus() } else { field.surrender_focus() }
            },
        );
        Ok(())
    }

    /// The game's input over egui with the settings window.
    fn egui_app(file: Option<std::path::PathBuf>) -> (App, Entity) {
        let (mut app, window) = testing::egui_app(file);
        app.init_resource::<Typing>().add_systems(EguiPrimaryContextPass, settings_window);
        app.update();
        (app, window)
    }

    fn point(window: Entity, x: f32, y: f32) -> CursorMoved {
        CursorMoved { window, position: Vec2::new(x, y), delta: None }
    }

    fn mouse(window: Entity, button: MouseButton, state: ButtonState) -> MouseButtonInput {
        MouseButtonInput { button, state, window }
    }

    /// The H key (`Stop`).
    fn key_h(window: Entity, state: ButtonState) -> KeyboardInput {
        testing::key(window, KeyCode::KeyH, Key::Character("h".into()), state)
    }

    #[test]
    fn clicks_and_keys_egui_takes_never_reach_the_game() {
        let (mut app, window) = egui_app(None);
        frame(&mut app, point(window, 150.0, 150.0));
        assert!(app.world().resource::<EguiWantsInput>().wants_pointer_input(), "the pointer is over the window");
        frame(&mut app, mouse(window, MouseButton::Left, ButtonState::Pressed));
        assert!(!pressed(&mut app, GameAction::Select), "egui took the click");
        frame(&mut app, mouse(window, MouseButton::Left, ButtonState::Released));
        frame(&mut app, point(window, 900.0, 600.0));
        frame(&mut app, mouse(window, MouseButton::Left, ButtonState::Pressed));
        assert!(pressed(&mut app, GameAction::Select), "outside the window the game has the click");
        frame(&mut app, mouse(window, MouseButton::Left, ButtonState::Released));

        app.insert_resource(Typing(true));
        app.update();
        frame(&mut app, key_h(window, ButtonState::Pressed));
        assert!(!pressed(&mut app, GameAction::Stop), "the text field took the key");
        app.insert_resource(Typing(false));
        frame(&mut app, key_h(window, ButtonState::Released));
        app.update();
        frame(&mut app, key_h(window, ButtonState::Pressed));
        assert!(pressed(&mut app, GameAction::Stop), "without a text field the game has the key");
    }

    #[test]
    fn a_mouse_button_pressed_over_the_settings_window_is_captured_saved_and_consumed() {
        let dir = std::env::temp_dir().join(format!("iron3d-rebind-{}", std::process::id()));
        let file = BindingsFile(Some(dir.join(bindings::FILE)));
        let (mut app, window) = egui_app(file.0.clone());
        frame(&mut app, point(window, 150.0, 150.0));
        app.world_mut().resource_mut::<Rebinding>().action = Some(GameAction::Stop);
        frame(&mut app, mouse(window, MouseButton::Right, ButtonState::Pressed));
        let bindings = app.world().resource::<Bindings>().clone();
        assert_eq!(bindings.buttons[&GameAction::Stop][0], Binding::Mouse(MouseButton::Right));
        assert_eq!(*app.world().resource::<Rebinding>(), Rebinding::default(), "done, saved without error");
        assert_eq!(file.load(&Bindings::default()), bindings, "saved");
        assert!(!pressed(&mut app, GameAction::Order), "the captured press reached no one");
        frame(&mut app, mouse(window, MouseButton::Right, ButtonState::Released));
        frame(&mut app, point(window, 900.0, 600.0));
        frame(&mut app, mouse(window, MouseButton::Right, ButtonState::Pressed));
        assert!(pressed(&mut app, GameAction::Stop), "the new binding is in effect");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_datas_own_binding_files_in_any_letter_case_make_the_base_bindings() {
        let dir = std::env::temp_dir().join(format!("iron3d-original-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        write("ADDITION.MAN", "CMD_JAMES_WINGMAN_MENU SCAN_NULL SCAN_Y\r\nCMD_HELP SCAN_NULL SCAN_F1\r\n");
        write("Hero.man", "CMD_CAMOUFLAGE_WEAR SCAN_NULL SCAN_H\r\n");
        write("scancode.dsc", "SCAN_H\tHide\r\nSCAN_Y\tY\r\n");
        let game = GameData(std::sync::Arc::new(iron3d_vfs::GameDir::open(&dir, Default::default()).unwrap()));
        let base = base_bindings(Some(&game));
        assert_eq!(
            base.buttons[&GameAction::Wingmen],
            [Binding::Key(KeyCode::KeyY), Binding::Pad(GamepadButton::DPadLeft)]
        );
        assert_eq!(base.buttons[&GameAction::Camouflage][0], Binding::Key(KeyCode::KeyH));
        assert!(!base.buttons[&GameAction::Stop].contains(&Binding::Key(KeyCode::KeyH)), "H is the camouflage's");
        assert_eq!(base.label(Binding::Key(KeyCode::KeyH)), "Hide", "ScanCode.dsc names it");
        write("hero.man", "CMD_CAMOUFLAGE_WEAR SCAN_H\r\n");
        std::fs::remove_file(dir.join("Hero.man")).unwrap();
        let game = GameData(std::sync::Arc::new(iron3d_vfs::GameDir::open(&dir, Default::default()).unwrap()));
        assert_eq!(base_bindings(Some(&game)), Bindings::default(), "a broken file: iron3d's own, reported");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_gamepad_button_being_bound_is_consumed() {
        let (mut app, _) = egui_app(None);
        let pad = app.world_mut().spawn_empty().id();
        let connected = GamepadConnection::Connected { name: "test pad".into(), vendor_id: None, product_id: None };
        connect(&mut app, pad, connected);
        app.world_mut().resource_mut::<Rebinding>().action = Some(GameAction::Stop);
        GamepadButton::South.press_as_gamepad(app.world_mut(), Some(pad));
        app.update();
        let stop = &app.world().resource::<Bindings>().buttons[&GameAction::Stop];
        assert!(stop.contains(&Binding::Pad(GamepadButton::South)), "bound: {stop:?}");
        assert!(
            !pressed(&mut app, GameAction::Select),
            "South selects by default, but the captured press reached no one"
        );
        app.update();
        assert!(!pressed(&mut app, GameAction::Stop), "held on, it is not pressed again");
        GamepadButton::South.release_as_gamepad(app.world_mut(), Some(pad));
        app.update();
        GamepadButton::South.press_as_gamepad(app.world_mut(), Some(pad));
        app.update();
        assert!(pressed(&mut app, GameAction::Stop), "the new binding is in effect");
    }
}
