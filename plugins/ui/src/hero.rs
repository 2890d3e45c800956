//! Playing as the original is played (openparkan `docs/39-boarding.md`, `gameplay.md`
//! §10.2–§10.3): the player is the hero. A mission whose player clan has a hero opens
//! with him on foot, driven first person, unless the strategic start is on
//! ([`StrategicStart`]). `Enter` (the original's `CMD_ENTER_STATE` on Enter) gives his
//! Enter order on the nearest unit he may enter within 20 (the original takes his current
//! target; the nearest stands in for it, the project's), else at the door of a building
//! with a control pod takes him in to the pod (the original walks him in along its hall
//! way; [`crate::views`] opens what the pod opens). Once he is aboard the player drives
//! the bot; `Pilot` aboard (the original's Esc, which stays the game menu here) orders
//! him out, and once he is out the player drives him again (the view stack).

use crate::command::Battlefield;
use crate::views::{View, Views};
use bevy::prelude::*;
use iron3d_behavior::ENTER_REACH;
use iron3d_core::{
    Aboard, AppState, CollisionProxy, MissionStart, Movable, Order, OriginalObjectId, Owner, Places, SimTransform,
    UnitClass, place,
};
use iron3d_input::{Actions, GameAction, PlayerCommands};
use iron3d_mission::{LoadedMission, MissionKind, MissionName};

/// Whether a mission opens in the free strategic view instead of with the hero on foot.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Resource)]
pub enum StrategicStart {
    /// Skirmish missions (`single.NN`) open strategic, the others on foot (the project's).
    #[default]
    Auto,
    /// Every mission opens strategic.
    On,
    /// Every mission with a hero opens on foot (the original's).
    Off,
}

impl std::str::FromStr for StrategicStart {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "auto" => Ok(Self::Auto),
            "on" => Ok(Self::On),
            "off" => Ok(Self::Off),
            other => Err(format!("{other:?} is not auto, on or off")),
        }
    }
}

impl StrategicStart {
    /// Whether mission `name` opens strategic.
    pub fn applies(self, name: &str) -> bool {
        match self {
            Self::On => true,
            Self::Off => false,
            Self::Auto => MissionName::parse(name).ok().and_then(|n| n.kind()) == Some(MissionKind::Single),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.register_type::<StrategicStart>()
        .add_systems(OnEnter(AppState::InGame), on_foot.after(MissionStart::Present))
        .add_systems(Update, (enter_and_leave, follow_the_hero).chain().before(crate::pilot::pilot));
}

type Units<'w, 's> = Query<
    'w,
    's,
    (&'static OriginalObjectId, &'static Owner, &'static UnitClass, Option<&'static Aboard>),
    With<Movable>,
>;

/// The player's hero: his id and the bot he is aboard.
fn hero(units: &Units, clan: i32) -> Option<(u32, Option<u32>)> {
    let mut heroes: Vec<(u32, Option<u32>)> =
        units.iter().filter(|u| u.1.clan == clan && u.2.is_hero()).map(|u| (u.0.0, u.3.map(|a| a.0))).collect();
    heroes.sort_unstable();
    heroes.first().copied()
}

/// The mission opens with the hero on foot (or in his bot, for a saved game), unless
/// the strategic start applies or the player's clan has no hero: the free strategic
/// view, no view stack.
pub(crate) fn on_foot(
    start: Res<StrategicStart>,
    mission: Option<Res<LoadedMission>>,
    scene: Battlefield,
    units: Units,
    mut views: ResMut<Views>,
) {
    let hero = hero(&units, scene.player()).filter(|_| mission.is_some_and(|m| !start.applies(&m.name)));
    views.0 = match hero {
        Some((hero, aboard)) => std::iter::once(View::OnFoot(hero)).chain(aboard.map(View::Driving)).collect(),
        None => Vec::new(),
    };
}

/// `Enter` on foot orders the hero's Enter on the nearest unit he may enter, else on the
/// nearest building with a control pod he stands by (the project's: the original walks
/// him in along its hall way); `Pilot` aboard orders him out (and is no longer the
/// piloting toggle there).
fn enter_and_leave(
    mut actions: Query<&mut Actions>,
    scene: Battlefield,
    units: Units,
    views: Res<Views>,
    places: Query<(&OriginalObjectId, &SimTransform, &UnitClass), With<Movable>>,
    doors: Query<(&OriginalObjectId, &SimTransform, &Places, Option<&CollisionProxy>), Without<Movable>>,
    mut player: ResMut<PlayerCommands>,
) {
    let Ok(mut a) = actions.single_mut() else { return };
    let Some((hero, _)) = hero(&units, scene.player()) else { return };
    match views.front() {
        Some(View::Driving(_)) if a.just_pressed(&GameAction::Pilot) => {
            a.release(&GameAction::Pilot);
            player.order(vec![hero], Order::Leave, false);
        }
        Some(View::OnFoot(_)) if a.just_pressed(&GameAction::Enter) => {
            let Some(at) = places.iter().find(|p| p.0.0 == hero).map(|p| p.1.position) else { return };
            let near = |t: &SimTransform| (t.position[0] - at[0]).hypot(t.position[1] - at[1]);
            let unit = places
                .iter()
                .filter(|(id, t, class)| id.0 != hero && class.0 & !UnitClass::ENTERABLE == 0 && near(t) < ENTER_REACH)
                .min_by(|a, b| near(a.1).total_cmp(&near(b.1)).then(a.0.0.cmp(&b.0.0)))
                .map(|u| u.0.0);
            let building = || {
                doors
                    .iter()
                    .filter(|(_, t, places, proxy)| {
                        places.of(place::POD).next().is_some()
                            && near(t) < proxy.map_or(0.0, |p| p.radius) + ENTER_REACH
                    })
                    .min_by(|a, b| near(a.1).total_cmp(&near(b.1)).then(a.0.0.cmp(&b.0.0)))
                    .map(|b| b.0.0)
            };
            if let Some(target) = unit.or_else(building) {
                player.order(vec![hero], Order::Board(target), false);
            }
        }
        _ => {}
    }
}

/// The hero's boarding and leaving change the view: driving his bot once he boarded
/// it; on foot once he is out, or put out of a lost one, from whatever view stands on
/// his bot's (an HQ's command view, telepresence).
pub(crate) fn follow_the_hero(scene: Battlefield, units: Units, mut views: ResMut<Views>) {
    let Some((_, aboard)) = hero(&units, scene.player()) else { return };
    let driving = views.0.iter().position(|v| matches!(v, View::Driving(_)));
    match (views.front(), aboard, driving) {
        (Some(View::OnFoot(_)), Some(bot), _) => views.push(View::Driving(bot)),
        (_, None, Some(i)) => views.0.truncate(i),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skirmish_missions_open_strategic_unless_told_otherwise() {
        let auto = StrategicStart::Auto;
        assert!(auto.applies("single.01") && auto.applies("SINGLE.02"));
        assert!(!auto.applies("tutorial.01") && !auto.applies("campaign.01/mission.02"));
        assert!(StrategicStart::On.applies("tutorial.01"));
        assert!(!StrategicStart::Off.applies("single.01"));
        assert_eq!("off".parse::<StrategicStart>(), Ok(StrategicStart::Off));
        assert!("maybe".parse::<StrategicStart>().unwrap_err().contains("not auto, on or off"));
    }
}
