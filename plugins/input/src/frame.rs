//! Frame input becomes tick-stamped commands. The screens and cameras run per frame and
//! put what the player asked for into [`PlayerCommands`]; the first simulation tick
//! after that frame stamps it with its own number and queues it in `CommandQueue`, the
//! path every order takes (network and replays too). A frame that runs no tick keeps
//! its commands for the next one; a frame that runs three applies them in the first
//! only. Piloting input is merged between ticks: held values (throttle, turn, fire)
//! are the latest, aim movement adds up, and a fire press shorter than a tick still
//! fires in the next tick.

use bevy::prelude::*;
use iron3d_core::{CommandQueue, GameClock, Order, PilotInput, SimCommand};

/// An order the player gave this frame.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct PlayerOrder {
    /// Units by `OriginalObjectId`.
    pub units: Vec<u32>,
    /// The order.
    pub order: Order,
    /// Queue behind the units' current orders (waypoints).
    pub queued: bool,
}

/// The pilot's three triggers, in this order: the selected guns (`Fire`), the selected
/// guided guns (`FireMissiles`), every gun (`FireAll`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub struct Triggers {
    /// Held now.
    pub held: [bool; 3],
    /// Went down since the last tick.
    pub pressed: [bool; 3],
}

impl Triggers {
    /// Each trigger held now or pressed since the last tick.
    fn fired(&self) -> [bool; 3] {
        [0, 1, 2].map(|k| self.held[k] || self.pressed[k])
    }
}

/// Piloting input sampled since the last tick.
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect)]
pub struct PilotSample {
    /// The piloted unit.
    pub unit: u32,
    /// Throttle, -1..1 (forward positive).
    pub throttle: f32,
    /// Turn, -1..1 (counter-clockwise positive).
    pub turn: f32,
    /// Strafe, -1..1 (to the left positive).
    pub strafe: f32,
    /// Turret turn since the last tick, radians.
    pub aim: f32,
    /// The triggers.
    pub triggers: Triggers,
    /// The camouflage button went down since the last tick.
    pub camouflage_pressed: bool,
    /// The turret lock's button went down since the last tick.
    pub lock_pressed: bool,
    /// The player's target.
    pub target: Option<u32>,
}

impl PilotSample {
    /// The quantised input of one tick.
    pub fn input(&self) -> PilotInput {
        let level = |v: f32| (v.clamp(-1.0, 1.0) * 127.0).round() as i8;
        let [fire, fire_missiles, fire_all] = self.triggers.fired();
        PilotInput {
            throttle: level(self.throttle),
            turn: level(self.turn),
            strafe: level(self.strafe),
            aim_mrad: (self.aim * 1000.0).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16,
            fire,
            fire_missiles,
            fire_all,
            camouflage: self.camouflage_pressed,
            turret_lock: self.lock_pressed,
            target: self.target,
        }
    }
}

/// What the player asked for since the last tick.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct PlayerCommands {
    /// Orders in the order they were given.
    pub orders: Vec<PlayerOrder>,
    /// Piloting input, while the player pilots a unit.
    pub pilot: Option<PilotSample>,
    /// The pilot input the last tick sent (a command goes out only when it changes).
    pub sent: Option<(u32, PilotInput)>,
}

impl PlayerCommands {
    /// Orders `units` (`queued`: behind their current orders).
    pub fn order(&mut self, units: Vec<u32>, order: Order, queued: bool) {
        if !units.is_empty() {
            self.orders.push(PlayerOrder { units, order, queued });
        }
    }

    /// Samples this frame's piloting input (`frame`: its unit, held values, this frame's
    /// aim and presses): held values replace, aim adds up, a press is kept until a tick
    /// takes it. Piloting another unit releases the first.
    pub fn pilot(&mut self, frame: PilotSample) {
        if self.pilot.is_some_and(|p| p.unit != frame.unit) {
            self.release();
        }
        let previous = self.pilot.unwrap_or(PilotSample { unit: frame.unit, ..default() });
        self.pilot = Some(PilotSample {
            aim: previous.aim + frame.aim,
            triggers: Triggers {
                pressed: [0, 1, 2].map(|k| previous.triggers.pressed[k] || frame.triggers.pressed[k]),
                ..frame.triggers
            },
            camouflage_pressed: previous.camouflage_pressed || frame.camouflage_pressed,
            lock_pressed: previous.lock_pressed || frame.lock_pressed,
            ..frame
        });
    }

    /// Ends piloting: the unit returns to its orders.
    pub fn release(&mut self) {
        if let Some(p) = self.pilot.take() {
            self.order(vec![p.unit], Order::Release, false);
            self.sent = None;
        }
    }

    /// The piloted unit.
    pub fn piloted(&self) -> Option<u32> {
        self.pilot.map(|p| p.unit)
    }
}

/// Stamps the commands waiting with this tick and queues them (`InputPhase::Commands`).
pub(crate) fn stamp(mut player: ResMut<PlayerCommands>, clock: Res<GameClock>, mut queue: ResMut<CommandQueue>) {
    let tick = clock.tick;
    for PlayerOrder { units, order, queued } in std::mem::take(&mut player.orders) {
        queue.push(SimCommand { tick, units, order, queued });
    }
    let Some(sample) = player.pilot.as_mut() else { return };
    let (unit, input) = (sample.unit, sample.input());
    sample.aim = 0.0;
    sample.triggers.pressed = [false; 3];
    sample.camouflage_pressed = false;
    sample.lock_pressed = false;
    if player.sent != Some((unit, input)) {
        player.sent = Some((unit, input));
        queue.push(SimCommand { tick, units: vec![unit], order: Order::Pilot(input), queued: false });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::state::app::StatesPlugin;
    use bevy::time::TimeUpdateStrategy;
    use iron3d_core::{AppState, CorePlugin, InputPhase, SimSystems};
    use std::time::Duration;

    /// The commands the simulation applied: (tick applied, the command).
    #[derive(Resource, Default)]
    struct Applied(Vec<(u32, SimCommand)>);

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, CorePlugin))
            .init_resource::<PlayerCommands>()
            .init_resource::<Applied>()
            .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(64)))
            .add_systems(
                FixedUpdate,
                (
                    (|mut c: ResMut<GameClock>| c.tick += 1).in_set(InputPhase::World3d),
                    stamp.in_set(InputPhase::Commands),
                    (|mut q: ResMut<CommandQueue>, c: Res<GameClock>, mut a: ResMut<Applied>| {
                        a.0.extend(q.take_due(c.tick).into_iter().map(|cmd| (c.tick, cmd)));
                    })
                    .in_set(SimSystems::Behavior),
                ),
            );
        app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
        frame(&mut app, 0);
        app
    }

    /// Runs one frame of `ms` milliseconds; returns the ticks it ran.
    fn frame(app: &mut App, ms: u64) -> u32 {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(ms)));
        let before = app.world().resource::<GameClock>().tick;
        app.update();
        app.world().resource::<GameClock>().tick - before
    }

    fn applied(app: &App) -> Vec<(u32, SimCommand)> {
        app.world().resource::<Applied>().0.clone()
    }

    fn give(app: &mut App, order: Order) {
        app.world_mut().resource_mut::<PlayerCommands>().order(vec![7], order, false);
    }

    #[test]
    fn an_order_applies_once_whether_a_frame_runs_zero_one_or_three_ticks() {
        for (ms, ticks) in [(20, 0), (64, 1), (192, 3)] {
            let mut app = app();
            // Line the fixed clock up with a tick boundary.
            while frame(&mut app, 64) == 0 {}
            let base = app.world().resource::<GameClock>().tick;
            give(&mut app, Order::Stop);
            assert_eq!(frame(&mut app, ms), ticks, "a {ms} ms frame");
            if ticks == 0 {
                assert!(applied(&app).is_empty(), "no tick ran, nothing applied yet");
                assert!(frame(&mut app, 64) == 1);
            }
            let applied = applied(&app);
            assert_eq!(applied.len(), 1, "{ms} ms: applied once, {applied:?}");
            let (at, command) = &applied[0];
            assert_eq!(*at, base + 1, "in the first tick after the frame");
            assert_eq!(command.tick, *at, "stamped with the tick that applied it");
            frame(&mut app, 192);
            assert_eq!(self::applied(&app).len(), 1, "and never again");
        }
    }

    /// The strafe and the three triggers reach the tick's input: a trigger held or
    /// pressed since the last tick fires.
    #[test]
    fn a_samples_strafe_and_triggers_reach_the_input() {
        let triggers = Triggers { held: [false, true, false], pressed: [false, false, true] };
        let input = PilotSample { strafe: -1.0, triggers, ..PilotSample::default() }.input();
        assert_eq!((input.strafe, input.fire, input.fire_missiles, input.fire_all), (-127, false, true, true));
    }

    #[test]
    fn piloting_holds_values_fires_once_per_press_and_adds_up_aim() {
        let mut app = app();
        while frame(&mut app, 64) == 0 {}
        let sample = |app: &mut App, throttle: f32, aim: f32, held: bool, pressed: bool| {
            let frame = PilotSample {
                unit: 3,
                throttle,
                aim,
                triggers: Triggers { held: [held, false, false], pressed: [pressed, false, false] },
                ..PilotSample::default()
            };
            app.world_mut().resource_mut::<PlayerCommands>().pilot(frame);
        };
        // A press and release inside frames that run no tick still fires once.
        sample(&mut app, 1.0, 0.01, true, true);
        assert_eq!(frame(&mut app, 20), 0);
        sample(&mut app, 1.0, 0.02, false, false);
        assert_eq!(frame(&mut app, 44), 1);
        // Three ticks in one frame: the held throttle stays without new commands.
        sample(&mut app, 1.0, 0.0, false, false);
        assert_eq!(frame(&mut app, 192), 3);
        let pilots: Vec<PilotInput> = applied(&app)
            .into_iter()
            .filter_map(|(_, c)| match c.order {
                Order::Pilot(p) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(
            pilots,
            [
                PilotInput { throttle: 127, aim_mrad: 30, fire: true, ..PilotInput::default() },
                PilotInput { throttle: 127, ..PilotInput::default() },
            ],
            "aim adds up, the press fires in the next tick, then one change"
        );
        app.world_mut().resource_mut::<PlayerCommands>().release();
        frame(&mut app, 64);
        assert_eq!(applied(&app).last().map(|(_, c)| c.order), Some(Order::Release));
    }
}
