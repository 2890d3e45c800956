//! Input mapping for the game (spec `runtime.md` §6): one action set,
//! [`GameAction`], for keyboard, mouse and gamepad through leafwing-input-manager; the
//! player's button bindings in the config directory with a rebinding capture; clicks
//! and keys egui takes never reach the game; frame input becomes tick-stamped commands
//! ([`PlayerCommands`]) in `InputPhase::Commands`. No other crate reads the devices.

mod actions;
mod bindings;
mod frame;
mod rebind;
mod selection;
mod settings;

pub use actions::GameAction;
pub use bindings::{Binding, Bindings};
pub use frame::{PilotSample, PlayerCommands, PlayerOrder};
pub use rebind::Rebinding;
pub use selection::{GROUPS, Selection, in_box};
pub use settings::InputSettings;

use bevy::prelude::*;
use bevy_egui::{EguiGlobalSettings, EguiPreUpdateSet};
use iron3d_core::InputPhase;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;

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
        app.add_plugins(InputManagerPlugin::<GameAction>::default())
            .insert_resource(Bindings::load_user())
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
            .add_systems(Update, (rebind::capture, apply_bindings).chain())
            .add_systems(FixedUpdate, frame::stamp.in_set(InputPhase::Commands));
        if let Some(mut egui) = app.world_mut().get_resource_mut::<EguiGlobalSettings>() {
            egui.enable_absorb_bevy_input_system = true;
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
    use bevy::input::InputPlugin;
    use bevy::input::gamepad::{GamepadConnection, GamepadConnectionEvent};

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
}
