//! The original's view modes, stacked (openparkan `docs/39-boarding.md` and
//! `docs/40-command-mode.md`, read; `gameplay.md` §10): the hero on foot at the bottom,
//! then driving a bot, a bunker's or an HQ's command view, and telepresence, a unit
//! driven from a command view. A mode already on the stack is not pushed twice: the
//! stack rolls back to it. Esc rolls back one mode from a command view or telepresence
//! (on foot it stays the game menu).
//!
//! **Command mode is earned**: a bunker's pod that fires for the player's hero (his own
//! clan's, or the capture that makes it so) opens its command view, the camera over the
//! bunker facing north and held within ±200 of it, the hero standing in the pod; an
//! HQ's opens with Enter aboard it, the camera riding with the HQ. Only there (or in the
//! free strategic view of the strategic start) does the player select and order on the
//! map. From a command view `Pilot` drives the one selected unit of his (telepresence);
//! `Pilot` or Esc there returns to the command view, the camera where it was. A
//! factory's pod opens its screen: the factory selected and its panel up (whose
//! constructor opens the designer), the hero standing in the pod; Esc closes the
//! designer first, then the screen. The stack is kept in a save (its `view` chunk).

use crate::command::Battlefield;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, PrimaryWindow};
use iron3d_assets::axes::{to_bevy, to_game};
use iron3d_camera::{CameraMode, GameCamera};
use iron3d_core::{AppState, GameMessage, GameMessageKind, ProductionEvent, UnitClass};
use iron3d_input::{Actions, GameAction, PilotSample, PlayerCommands, Selection};
use iron3d_terrain::NavMap;

/// How far a bunker's command camera goes from it along each ground axis (read).
pub const BUNKER_HOLD: f32 = 200.0;

/// How high a bunker's command camera stays over the ground under it (read).
pub const BUNKER_BAND: (f32, f32) = (36.0, 236.0);

/// One view mode and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub enum View {
    /// The hero on foot (mode 0).
    OnFoot(u32),
    /// Driving a bot the hero boarded (mode 1).
    Driving(u32),
    /// A unit driven from a command view (mode 2).
    Telepresence(u32),
    /// An HQ unit's command view (mode 3).
    Hq(u32),
    /// A bunker's command view (mode 4).
    Bunker(u32),
    /// A building's screen (mode 5): a factory's, from its pod.
    Screen(u32),
}

impl View {
    /// The unit the player drives in this view.
    pub fn driven(self) -> Option<u32> {
        match self {
            Self::OnFoot(u) | Self::Driving(u) | Self::Telepresence(u) => Some(u),
            Self::Hq(_) | Self::Bunker(_) | Self::Screen(_) => None,
        }
    }
}

/// The player's view modes, the front last; empty in the free strategic view (the
/// strategic start).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Views(pub Vec<View>);

impl Views {
    /// The mode the player is in.
    pub fn front(&self) -> Option<View> {
        self.0.last().copied()
    }

    /// Enters `view`, or rolls back to it when it is on the stack already (read).
    pub fn push(&mut self, view: View) {
        match self.0.iter().position(|v| *v == view) {
            Some(i) => self.0.truncate(i + 1),
            None => self.0.push(view),
        }
    }

    /// Rolls back one mode; the bottom one stays. Returns whether it did.
    pub fn back(&mut self) -> bool {
        self.0.len() > 1 && self.0.pop().is_some()
    }

    /// Whether the player selects and orders on the map: in a command view, or in the
    /// free strategic view.
    pub fn commanding(&self) -> bool {
        matches!(self.front(), None | Some(View::Hq(_) | View::Bunker(_)))
    }

    /// Whether a building's panel shows for the selected building: where the player
    /// commands, or on its own screen.
    pub fn panels(&self) -> bool {
        self.commanding() || matches!(self.front(), Some(View::Screen(_)))
    }
}

/// The command camera's own state while the player is elsewhere: its tilt below the
/// horizon and its distance, kept between visits (1.0 rad from straight down at first,
/// read: 0.57 below the horizon; the distance is the project's), and where it looked
/// when the player left for telepresence (focus and heading).
#[derive(Resource)]
struct CommandPose {
    angles: (f32, f32),
    left: Option<(Vec3, f32)>,
}

impl Default for CommandPose {
    fn default() -> Self {
        Self { angles: (std::f32::consts::FRAC_PI_2 - 1.0, 150.0), left: None }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Views>()
        .init_resource::<CommandPose>()
        .register_type::<Views>()
        .add_systems(OnExit(AppState::InGame), |mut views: ResMut<Views>| *views = Views::default())
        .add_systems(Update, band.run_if(in_state(AppState::InGame)))
        .add_systems(
            Update,
            (pods, transitions, present)
                .chain()
                .after(crate::hero::follow_the_hero)
                .before(crate::pilot::pilot)
                .before(crate::hud::toggle_pause)
                .before(crate::saves::thumbnails),
        );
}

/// Whether the player may select and order on the map now (a run condition).
pub(crate) fn commanding(views: Res<Views>) -> bool {
    views.commanding()
}

/// Whether a building's panel may show now (a run condition).
pub(crate) fn panels(views: Res<Views>) -> bool {
    views.panels()
}

/// A pod that fired for the player's hero on foot: a bunker's opens its command view,
/// a factory's its screen (the factory selected, its panel up; read).
fn pods(
    mut read: MessageReader<GameMessage>,
    mut views: ResMut<Views>,
    scene: Battlefield,
    mut selection: ResMut<Selection>,
) {
    for m in read.read() {
        let GameMessageKind::Production { event: ProductionEvent::Opened, ids, .. } = &m.kind else { continue };
        let [building, who] = ids[..] else { continue };
        if views.front() != Some(View::OnFoot(who)) {
            continue;
        }
        match scene.class_of(building) {
            Some(class) if UnitClass::BUNKERS.contains(&class) => views.push(View::Bunker(building)),
            Some(UnitClass::PLANT) => {
                views.push(View::Screen(building));
                selection.select(vec![building], false);
            }
            _ => {}
        }
    }
}

/// Esc and `Pilot` step back from a command view or telepresence (Esc and the right
/// button from a building's screen), `Pilot` in a command
/// view drives the one selected unit, Enter aboard an HQ opens its command view; a
/// unit driven by telepresence that is lost returns to the command view.
pub(crate) fn transitions(
    mut actions: Query<&mut Actions>,
    mut views: ResMut<Views>,
    mut selection: ResMut<Selection>,
    scene: Battlefield,
    designer: Res<crate::designer::DesignerScreen>,
) {
    let Ok(mut a) = actions.single_mut() else { return };
    let front = views.front();
    let own = |id: u32| !scene.own_units(&[id]).is_empty();
    let take = |a: &mut Actions, action: GameAction| {
        let pressed = a.just_pressed(&action);
        if pressed {
            a.release(&action);
        }
        pressed
    };
    match front {
        Some(View::Telepresence(u))
            if !own(u) || take(&mut a, GameAction::Pause) || take(&mut a, GameAction::Pilot) =>
        {
            views.back();
        }
        Some(View::Driving(u) | View::Telepresence(u))
            if scene.class_of(u) == Some(UnitClass::HQ) && take(&mut a, GameAction::Enter) =>
        {
            views.push(View::Hq(u));
        }
        Some(View::Hq(_) | View::Bunker(_)) if take(&mut a, GameAction::Pause) => {
            views.back();
        }
        // Esc closes the designer first, then the screen.
        Some(View::Screen(_)) if !designer.is_open() && take(&mut a, GameAction::Pause) => {
            views.back();
        }
        // So does the right button, letting the building go (read).
        Some(View::Screen(_)) if !designer.is_open() && take(&mut a, GameAction::Order) => {
            selection.select(Vec::new(), false);
            views.back();
        }
        Some(View::Hq(_) | View::Bunker(_)) => match scene.own_units(&selection.units)[..] {
            [unit] if selection.units.len() == 1 && take(&mut a, GameAction::Pilot) => {
                views.push(View::Telepresence(unit));
            }
            _ => {}
        },
        _ => {}
    }
}

/// Puts the player in the front view whenever the stack changes: driving its unit first
/// person, or the command camera (a bunker's held about it, an HQ's riding with it) with
/// the cursor free.
#[allow(clippy::too_many_arguments, reason = "the front view sets the camera, the cursor and who is driven")]
fn present(
    views: Res<Views>,
    scene: Battlefield,
    mut player: ResMut<PlayerCommands>,
    mut pose: ResMut<CommandPose>,
    mut last: Local<Option<View>>,
    mut cameras: Query<&mut GameCamera>,
    mut cursor: Query<&mut CursorOptions, With<PrimaryWindow>>,
) {
    if !views.is_changed() {
        return;
    }
    let front = views.front();
    let was = std::mem::replace(&mut *last, front);
    if matches!(was, Some(View::Hq(_) | View::Bunker(_)))
        && was != front
        && let Some(cam) = cameras.iter().next()
    {
        pose.angles = (cam.pitch, cam.distance);
        pose.left = matches!(front, Some(View::Telepresence(_))).then_some((cam.focus, cam.yaw));
    }
    match front {
        None => {}
        Some(view @ (View::OnFoot(_) | View::Driving(_) | View::Telepresence(_))) => {
            let unit = view.driven().unwrap_or_default();
            player.pilot(PilotSample { unit, ..PilotSample::default() });
            crate::pilot::look(CameraMode::FirstPerson(unit), &mut cameras, &mut cursor);
            for mut cam in &mut cameras {
                (cam.hold, cam.command) = (None, false);
            }
        }
        Some(View::Screen(_)) => {
            // The hero stands in the pod, the view his, the cursor free.
            player.release();
            for mut c in &mut cursor {
                (c.grab_mode, c.visible) = (CursorGrabMode::None, true);
            }
        }
        Some(View::Hq(hq)) => {
            player.release();
            command_camera(CameraMode::Follow(hq), None, was, &mut pose, (&mut cameras, &mut cursor));
        }
        Some(View::Bunker(b)) => {
            player.release();
            let held = scene.object(b).map(|o| Vec3::from(to_bevy(o.1.position)));
            command_camera(CameraMode::Rts, held, was, &mut pose, (&mut cameras, &mut cursor));
        }
    }
}

/// A bunker's command camera stays 36 to 236 over the ground under its eye, and its eye
/// above tan(½ field) × its height and below the map's side on each ground axis (read).
fn band(scene: Battlefield, nav: Option<Res<NavMap>>, mut cameras: Query<&mut GameCamera>) {
    let Some(ground) = scene.ground.as_deref() else { return };
    let side = nav.as_deref().and_then(NavMap::extent).map(|(_, max)| max[0].min(max[1]));
    for mut cam in cameras.iter_mut().filter(|c| c.hold.is_some() && c.mode == CameraMode::Rts) {
        let eye = to_game(cam.transform().translation.to_array());
        if let Some(h) = ground.height_at(eye[0], eye[1]) {
            cam.keep_over(h, BUNKER_BAND);
        }
        if let Some(side) = side {
            cam.keep_margin(side);
        }
    }
}

/// The command camera in `mode` (held about `held`, a bunker's place): back from
/// telepresence where the player left it, else over the bunker facing north (game +y);
/// the tilt and distance of its last visit (read).
fn command_camera(
    mode: CameraMode,
    held: Option<Vec3>,
    was: Option<View>,
    pose: &mut CommandPose,
    (cameras, cursor): (&mut Query<&mut GameCamera>, &mut Query<&mut CursorOptions, With<PrimaryWindow>>),
) {
    crate::pilot::look(mode, cameras, cursor);
    let at = match was {
        Some(View::Telepresence(_)) => pose.left.take(),
        _ => held.map(|c| (c, 0.0)),
    };
    for mut cam in cameras.iter_mut() {
        (cam.hold, cam.command) = (held.map(|c| (c, BUNKER_HOLD)), true);
        (cam.pitch, cam.distance) = pose.angles;
        if let Some((focus, yaw)) = at {
            (cam.focus, cam.yaw) = (focus, yaw);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]
    use super::*;
    use iron3d_core::{
        ClanRelations, DispatchPhase, GameClock, Movable, ObjectTable, OriginalObjectId, Owner, SimTransform,
    };

    const HERO: u32 = 1;
    const BUNKER: u32 = 2;
    const SCOUT: u32 = 3;
    const PLANT: u32 = 4;

    /// The player's hero on foot, his clan's small bunker and factory and a scout, the
    /// views' systems and what they read.
    fn base() -> App {
        let mut app = App::new();
        app.add_message::<GameMessage>()
            .init_resource::<Views>()
            .init_resource::<CommandPose>()
            .init_resource::<ClanRelations>()
            .init_resource::<ObjectTable>()
            .init_resource::<PlayerCommands>()
            .init_resource::<Selection>()
            .init_resource::<crate::designer::DesignerScreen>()
            .add_systems(Update, (pods, transitions, present).chain());
        let player = crate::command::player_clan(None);
        let mut object = |id: u32, at: [f32; 3], class: u32, movable: bool| {
            let t = SimTransform { position: at, ..SimTransform::default() };
            let mut e = app.world_mut().spawn((OriginalObjectId(id), t, Owner { clan: player, player: None }));
            e.insert(UnitClass(class));
            if movable {
                e.insert(Movable);
            }
            let e = e.id();
            app.world_mut().resource_mut::<ObjectTable>().insert(e, OriginalObjectId(id));
        };
        object(HERO, [10.0, 10.0, 0.0], UnitClass::HERO, true);
        object(BUNKER, [100.0, 50.0, 5.0], UnitClass::BUNKERS[0], false);
        object(SCOUT, [120.0, 60.0, 0.0], UnitClass::BATTLE_UNIT, true);
        object(PLANT, [300.0, 300.0, 0.0], UnitClass::PLANT, false);
        app.world_mut().spawn(GameCamera::default());
        app.world_mut().spawn(Actions::default());
        app.world_mut().resource_mut::<Views>().0 = vec![View::OnFoot(HERO)];
        app.update();
        app
    }

    fn opened(app: &mut App, building: u32, who: u32) {
        let clock = GameClock::default();
        let kind = GameMessageKind::Production {
            event: ProductionEvent::Opened,
            ids: vec![building, who],
            detail: String::new(),
        };
        app.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Behavior, kind));
        app.update();
    }

    fn press(app: &mut App, action: GameAction) {
        let mut q = app.world_mut().query::<&mut Actions>();
        q.single_mut(app.world_mut()).unwrap().press(&action);
        app.update();
    }

    fn camera(app: &mut App) -> GameCamera {
        app.world_mut().query::<&GameCamera>().single(app.world()).unwrap().clone()
    }

    /// A unit page's button (openparkan `docs/40-command-mode.md`, "Telepresence: mode
    /// 2"): telepresence, and the level it asked given to the unit once the take has landed.
    #[test]
    fn a_unit_pages_button_takes_the_unit_at_its_auto_driver_level_once_it_is_driven() {
        let mut app = base();
        app.init_resource::<crate::pilot::TakenAt>().add_systems(Update, crate::pilot::taken_at.after(present));
        opened(&mut app, BUNKER, HERO);
        app.world_mut().resource_mut::<Views>().push(View::Telepresence(SCOUT));
        app.world_mut().resource_mut::<crate::pilot::TakenAt>().0 = Some((SCOUT, 2));
        app.update();
        let levels = |app: &App| -> Vec<(Vec<u32>, iron3d_core::Order)> {
            let orders = &app.world().resource::<PlayerCommands>().orders;
            orders
                .iter()
                .filter(|o| matches!(o.order, iron3d_core::Order::AutoDriver(_)))
                .map(|o| (o.units.clone(), o.order))
                .collect()
        };
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(SCOUT), "taken");
        assert!(levels(&app).is_empty(), "not before the take lands: an undriven unit's level is refused");
        let scout = app.world().resource::<ObjectTable>().entity_of(SCOUT).unwrap();
        app.world_mut().entity_mut(scout).insert(iron3d_core::ManualControl::default());
        app.update();
        app.update();
        assert_eq!(levels(&app), [(vec![SCOUT], iron3d_core::Order::AutoDriver(2))], "once, at the level asked");
        assert_eq!(app.world().resource::<crate::pilot::TakenAt>().0, None);
    }

    #[test]
    fn a_bunkers_pod_opens_its_command_view_to_the_hero_and_esc_steps_back() {
        let mut app = base();
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(HERO), "on foot, driven");
        opened(&mut app, BUNKER, SCOUT);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::OnFoot(HERO)), "not the hero's pod");
        opened(&mut app, BUNKER, HERO);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Bunker(BUNKER)));
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), None, "the hero let go");
        let cam = camera(&mut app);
        let over = Vec3::from(to_bevy([100.0, 50.0, 5.0]));
        assert_eq!((cam.mode, cam.focus, cam.yaw), (CameraMode::Rts, over, 0.0), "over the bunker, facing north");
        assert_eq!(cam.hold, Some((over, BUNKER_HOLD)));
        assert!(cam.command, "the command camera's controls");
        // Telepresence: the one selected unit, driven; Esc returns, the camera where it was.
        app.world_mut().resource_mut::<Selection>().units = vec![SCOUT];
        app.world_mut().query::<&mut GameCamera>().single_mut(app.world_mut()).unwrap().yaw = 0.5;
        press(&mut app, GameAction::Pilot);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Telepresence(SCOUT)));
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(SCOUT));
        assert_eq!(camera(&mut app).mode, CameraMode::FirstPerson(SCOUT));
        press(&mut app, GameAction::Pause);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Bunker(BUNKER)));
        let back = camera(&mut app);
        assert_eq!((back.mode, back.yaw), (CameraMode::Rts, 0.5), "where the player left it");
        press(&mut app, GameAction::Pause);
        assert_eq!(app.world().resource::<Views>().0, [View::OnFoot(HERO)]);
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(HERO), "the hero taken back");
        let on_foot = camera(&mut app);
        assert!(on_foot.hold.is_none() && !on_foot.command);
        // On foot Esc is the game menu's and Pilot takes no unit.
        press(&mut app, GameAction::Pause);
        press(&mut app, GameAction::Pilot);
        assert_eq!(app.world().resource::<Views>().0, [View::OnFoot(HERO)]);
    }

    #[test]
    fn enter_aboard_an_hq_opens_its_command_view_riding_with_it_and_esc_returns_to_its_cockpit() {
        let mut app = base();
        app.world_mut().resource_mut::<Views>().push(View::Driving(SCOUT));
        app.update();
        press(&mut app, GameAction::Enter);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Driving(SCOUT)), "no HQ: Enter does nothing");
        let scout = app.world().resource::<ObjectTable>().entity_of(SCOUT).unwrap();
        app.world_mut().entity_mut(scout).insert(UnitClass(UnitClass::HQ));
        press(&mut app, GameAction::Enter);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Hq(SCOUT)));
        let cam = camera(&mut app);
        assert_eq!(cam.mode, CameraMode::Follow(SCOUT), "the camera rides with the HQ");
        assert!(cam.command, "with the command camera's controls");
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), None, "the HQ let go to its AI");
        assert!(app.world().resource::<Views>().commanding());
        press(&mut app, GameAction::Pause);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Driving(SCOUT)));
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(SCOUT), "its cockpit again");
    }

    #[test]
    fn a_factorys_pod_opens_its_screen_and_esc_closes_it() {
        let mut app = base();
        opened(&mut app, PLANT, HERO);
        assert_eq!(app.world().resource::<Views>().front(), Some(View::Screen(PLANT)));
        assert_eq!(app.world().resource::<Selection>().units, [PLANT], "the factory selected, its panel up");
        assert!(app.world().resource::<Views>().panels() && !app.world().resource::<Views>().commanding());
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), None, "the hero let go");
        press(&mut app, GameAction::Pause);
        assert_eq!(app.world().resource::<Views>().0, [View::OnFoot(HERO)]);
        assert_eq!(app.world().resource::<PlayerCommands>().piloted(), Some(HERO));
    }

    #[test]
    fn a_view_on_the_stack_is_not_pushed_twice_and_the_bottom_stays() {
        let mut views = Views(vec![View::OnFoot(1)]);
        assert!(!views.commanding(), "on foot there is no command");
        views.push(View::Bunker(9));
        views.push(View::Telepresence(4));
        assert_eq!(views.front(), Some(View::Telepresence(4)));
        assert!(!views.commanding());
        views.push(View::Bunker(9));
        assert_eq!(views.0, [View::OnFoot(1), View::Bunker(9)], "rolled back to the bunker");
        assert!(views.commanding());
        assert!(views.back());
        assert!(!views.back(), "the hero on foot stays");
        assert_eq!(views.0, [View::OnFoot(1)]);
        assert!(Views::default().commanding(), "the free strategic view");
    }
}
