//! Scripted input for headless captures, demos and tests (`--press`, `--click`,
//! `--script-event`): synthetic key presses and left clicks written as the window
//! system's own messages at given frames, so they pass through egui and the action set
//! like real ones, and script events of the player's clan (the mission's real outcome
//! path: the script's handlers decide). Frame 1 is the first update, as for
//! `--exit-after-frames`.

use bevy::ecs::system::SystemParam;
use bevy::input::ButtonState;
use bevy::input::InputSystems;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};
use iron3d_core::{AppState, MissionClans, RunScriptEvent, SUPER_AI_SLOTS, SuperAiSlots};
use serde::Deserialize;
use serde::de::IntoDeserializer;

/// What a scripted step does.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Press a key at the frame, release it the next.
    Key(KeyCode),
    /// Move the pointer to this window position (logical pixels) at the frame, press the
    /// left button the next frame and release it the one after.
    Click(Vec2),
    /// Move the pointer to this window position (logical pixels) at the frame.
    Point(Vec2),
    /// Run this script event of the player's clan (the first clan of mode 1) at the
    /// frame, or as soon as the mission is in the game.
    ScriptEvent(String),
}

/// One scripted step at a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Scripted {
    /// The frame (1 = the first update).
    pub frame: u32,
    /// What happens.
    pub step: Step,
}

impl Scripted {
    /// Parses `KEY@FRAME` (`--press`); KEY is a Bevy `KeyCode` name (`Escape`, `F3`,
    /// `KeyH`, `Digit1`, `ArrowUp`, ...).
    ///
    /// # Errors
    /// Names the bad part.
    pub fn parse_press(text: &str) -> Result<Self, String> {
        let (key, frame) = split(text, "KEY@FRAME (e.g. Escape@300)")?;
        let code = KeyCode::deserialize(key.into_deserializer()).map_err(|_: serde::de::value::Error| {
            format!("`{key}` is not a key name (e.g. Escape, F3, KeyH, Digit1)")
        })?;
        Ok(Self { frame, step: Step::Key(code) })
    }

    /// Parses `X,Y@FRAME` (`--click`), window position in logical pixels.
    ///
    /// # Errors
    /// Names the bad part.
    pub fn parse_click(text: &str) -> Result<Self, String> {
        Self::parse_position(text).map(|(frame, at)| Self { frame, step: Step::Click(at) })
    }

    /// Parses `X,Y@FRAME` (`--point`), window position in logical pixels.
    ///
    /// # Errors
    /// Names the bad part.
    pub fn parse_point(text: &str) -> Result<Self, String> {
        Self::parse_position(text).map(|(frame, at)| Self { frame, step: Step::Point(at) })
    }

    fn parse_position(text: &str) -> Result<(u32, Vec2), String> {
        let (at, frame) = split(text, "X,Y@FRAME (e.g. 640,360@120)")?;
        let coordinate = |s: &str| match s.trim().parse::<f32>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(format!("position `{s}` must be a number of pixels, 0 or more")),
        };
        let (x, y) = at.split_once(',').ok_or_else(|| format!("`{at}` is not X,Y (e.g. 640,360)"))?;
        Ok((frame, Vec2::new(coordinate(x)?, coordinate(y)?)))
    }

    /// Parses `EVENT@FRAME` (`--script-event`).
    ///
    /// # Errors
    /// Names the bad part.
    pub fn parse_script_event(text: &str) -> Result<Self, String> {
        let (event, frame) = split(text, "EVENT@FRAME (e.g. Mission_Complete@200)")?;
        if event.is_empty() || event.contains(char::is_whitespace) {
            return Err(format!("`{event}` is not a script event name"));
        }
        Ok(Self { frame, step: Step::ScriptEvent(event.into()) })
    }
}

/// `WHAT@FRAME` split at the last `@`, the frame 1 or more.
fn split<'a>(text: &'a str, form: &str) -> Result<(&'a str, u32), String> {
    let (what, frame) = text.rsplit_once('@').ok_or_else(|| format!("`{text}` is not {form}"))?;
    match frame.trim().parse::<u32>() {
        Ok(f) if f >= 1 => Ok((what.trim(), f)),
        _ => Err(format!("frame `{frame}` must be a whole number from 1")),
    }
}

/// The scripted steps not yet done and the frame count.
#[derive(Resource, Debug, Clone, Default)]
pub struct InputScript {
    /// Frames run so far.
    pub frame: u32,
    /// Steps still to do.
    pub pending: Vec<Scripted>,
}

/// Installs `steps` (run before the frame's input is read).
pub(crate) fn add(app: &mut App, steps: Vec<Scripted>) {
    app.insert_resource(InputScript { frame: 0, pending: steps }).add_systems(PreUpdate, play.before(InputSystems));
}

/// The window messages the script writes.
#[derive(SystemParam)]
pub(crate) struct Synthetic<'w> {
    keys: MessageWriter<'w, KeyboardInput>,
    pointer: MessageWriter<'w, CursorMoved>,
    buttons: MessageWriter<'w, MouseButtonInput>,
}

impl Synthetic<'_> {
    fn key(&mut self, window: Entity, key_code: KeyCode, state: ButtonState) {
        let logical_key = Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified);
        self.keys.write(KeyboardInput { key_code, logical_key, state, text: None, repeat: false, window });
    }

    fn button(&mut self, window: Entity, state: ButtonState) {
        self.buttons.write(MouseButtonInput { button: MouseButton::Left, state, window });
    }

    /// Writes what `step` does `since` frames after its frame; `true` when it is done.
    fn write(&mut self, window: Entity, step: &Step, since: u32) -> bool {
        match (step, since) {
            (Step::Key(k), 0) => self.key(window, *k, ButtonState::Pressed),
            (Step::Key(k), _) => {
                self.key(window, *k, ButtonState::Released);
                return true;
            }
            (Step::Click(at), 0) => {
                self.pointer.write(CursorMoved { window, position: *at, delta: None });
            }
            (Step::Point(at), _) => {
                self.pointer.write(CursorMoved { window, position: *at, delta: None });
                return true;
            }
            (Step::Click(_), 1) => self.button(window, ButtonState::Pressed),
            (Step::Click(_), _) => {
                self.button(window, ButtonState::Released);
                return true;
            }
            (Step::ScriptEvent(_), _) => return true,
        }
        false
    }
}

/// The player's clan's `GetSuperAI` slot, once the mission is in the game.
fn player_slot(state: Option<&State<AppState>>, clans: Option<&MissionClans>, slots: &SuperAiSlots) -> Option<u32> {
    if state.map(State::get) != Some(&AppState::InGame) {
        return None;
    }
    let player = clans?.player()?;
    (0..SUPER_AI_SLOTS as u32).find(|&s| slots.get(s) == Some(player))
}

/// Writes the steps due this frame.
fn play(
    mut script: ResMut<InputScript>,
    mut window: Query<(Entity, &mut Window), With<PrimaryWindow>>,
    state: Option<Res<State<AppState>>>,
    (clans, slots): (Option<Res<MissionClans>>, Option<Res<SuperAiSlots>>),
    mut synthetic: Synthetic,
    mut events: MessageWriter<RunScriptEvent>,
) {
    script.frame += 1;
    let frame = script.frame;
    let Ok((window, mut pointer)) = window.single_mut() else { return };
    let slot = slots.and_then(|s| player_slot(state.as_deref(), clans.as_deref(), &s));
    script.pending.retain(|s| {
        if s.frame > frame {
            return true;
        }
        if let Step::ScriptEvent(event) = &s.step {
            let Some(slot) = slot else { return true };
            info!(target: "dev", "frame {frame}: script event {event} of slot {slot}");
            events.write(RunScriptEvent::new(slot, event.clone()));
        }
        // The window's own pointer moves too: the map reads it (the OS pointer follows).
        if let (Step::Click(at) | Step::Point(at), true) = (&s.step, s.frame == frame) {
            pointer.set_cursor_position(Some(*at));
        }
        !synthetic.write(window, &s.step, frame - s.frame)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_parse_and_bad_parts_are_named() {
        assert_eq!(Scripted::parse_press("Escape@300"), Ok(Scripted { frame: 300, step: Step::Key(KeyCode::Escape) }));
        assert_eq!(Scripted::parse_press("F3@1").map(|s| s.step), Ok(Step::Key(KeyCode::F3)));
        let click = Scripted::parse_click("640.5,360@12").unwrap();
        assert_eq!(click, Scripted { frame: 12, step: Step::Click(Vec2::new(640.5, 360.0)) });
        assert_eq!(Scripted::parse_point("10,20@3").map(|s| s.step), Ok(Step::Point(Vec2::new(10.0, 20.0))));
        let event = Scripted::parse_script_event("Mission_Complete@200").unwrap();
        assert_eq!(event.step, Step::ScriptEvent("Mission_Complete".into()));
        for (bad, named) in [
            (Scripted::parse_press("Escape"), "`Escape` is not KEY@FRAME"),
            (Scripted::parse_press("Esc@3"), "`Esc` is not a key name"),
            (Scripted::parse_press("Escape@0"), "frame `0`"),
            (Scripted::parse_press("Escape@x"), "frame `x`"),
            (Scripted::parse_click("640@3"), "`640` is not X,Y"),
            (Scripted::parse_click("a,3@3"), "position `a`"),
            (Scripted::parse_click("1,-3@3"), "position `-3`"),
            (Scripted::parse_script_event("@3"), "`` is not a script event"),
        ] {
            assert!(bad.as_ref().is_err_and(|e| e.contains(named)), "{bad:?} should name {named}");
        }
    }

    struct NoFiles;

    impl iron3d_core::ScriptFiles for NoFiles {
        fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
            Ok(None)
        }
    }

    /// A headless app with the script, a primary window, and the player's clan in slot 2.
    fn app(steps: Vec<Scripted>) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::input::InputPlugin, bevy::state::app::StatesPlugin))
            .add_message::<CursorMoved>()
            .add_message::<RunScriptEvent>()
            .insert_state(AppState::MainMenu);
        app.world_mut().spawn((Window::default(), PrimaryWindow));
        let mut slots = SuperAiSlots::default();
        slots.0[2] = Some(0);
        let player = iron3d_core::ClanSetup { minds: 17, ..iron3d_core::ClanSetup::bare(0, "Player", 1) };
        let files = std::sync::Arc::new(NoFiles);
        app.insert_resource(slots).insert_resource(MissionClans { clans: vec![player], files });
        add(&mut app, steps);
        app
    }

    /// Per frame: H held, the left button held, pointer moves, script events.
    #[derive(Resource, Default)]
    struct Seen(Vec<(bool, bool, Vec<Vec2>, Vec<(u32, String)>)>);

    fn record(
        keys: Res<ButtonInput<KeyCode>>,
        mouse: Res<ButtonInput<MouseButton>>,
        mut pointer: MessageReader<CursorMoved>,
        mut events: MessageReader<RunScriptEvent>,
        mut seen: ResMut<Seen>,
    ) {
        seen.0.push((
            keys.pressed(KeyCode::KeyH),
            mouse.pressed(MouseButton::Left),
            pointer.read().map(|m| m.position).collect(),
            events.read().map(|e| (e.slot, e.event.clone())).collect(),
        ));
    }

    #[test]
    fn keys_and_clicks_arrive_at_their_frames_and_script_events_wait_for_the_game() {
        let steps =
            [Scripted::parse_press("KeyH@2"), Scripted::parse_click("10,20@3"), Scripted::parse_script_event("Win@1")];
        let mut app = app(steps.into_iter().map(Result::unwrap).collect());
        app.init_resource::<Seen>().add_systems(Update, record);
        for frame in 1..=6 {
            if frame == 4 {
                app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
            }
            app.update();
        }
        let win = vec![(2, "Win".to_string())];
        let expected = vec![
            (false, false, vec![], vec![]),
            (true, false, vec![], vec![]),
            (false, false, vec![Vec2::new(10.0, 20.0)], vec![]),
            (false, true, vec![], vec![]),
            (false, false, vec![], win),
            (false, false, vec![], vec![]),
        ];
        assert_eq!(app.world().resource::<Seen>().0, expected, "frames 1 to 6");
        assert!(app.world().resource::<InputScript>().pending.is_empty());
    }
}
