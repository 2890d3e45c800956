//! The player's target (openparkan `docs/25-sensors.md`, "The player's target", read):
//! the unit the player drives keeps a list of what its radar lists, less the player's own
//! hero, bridges, ruins and hostile units shut down, and one of them as its target. Each
//! frame the target is dropped when it is gone or farther across the ground than the
//! radar's range; with none, the nearest hostile is taken, else the nearest unit of the
//! unit's own clan, else the nearest listed. `SelectTarget` (Tab) takes the next listed
//! after it, wrapping; `SelectEnemy` (E) the next hostile after a hostile target, else the
//! nearest hostile; `SelectFriend` (T) the same over the unit's own clan's units; a key
//! that finds nothing leaves the target. The cockpit's radar outlines it and its target
//! panel shows it.
//!
//! The target goes to the simulation with the pilot's input, and the driven unit's guns
//! fire at it (`iron3d_core::PilotInput::target`; read: the original hands it to the
//! unit's guns). Each change of the target plays `TARGET_SELECTED` (the sound
//! `ui/game_resources.cfg` names), and a list that holds a hostile after one that held
//! none has the unit say `VOICE_ENEMY_DETECTED` (read). The project's part: the right
//! button's pick along the view is not done.

use crate::command::Battlefield;
use crate::views::Views;
use bevy::prelude::*;
use iron3d_core::{
    AppState, BuildingCategory, Movable, Order, OriginalObjectId, Owner, Radar, RadarContacts, SimTransform, SoundCue,
    UnitClass,
};
use iron3d_input::{Actions, GameAction, PlayerCommands};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerTarget>()
        .register_type::<PlayerTarget>()
        .add_systems(Update, keep.run_if(in_state(AppState::InGame)).before(crate::pilot::pilot));
}

/// A bridge's and a ruin's Type: never listed (read).
const UNLISTED: [u32; 2] = [0x8000_1000, 0x8000_2000];

/// The driven unit's target list and target.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct PlayerTarget {
    /// The unit whose list it is.
    pub unit: Option<u32>,
    /// What its radar lists, in its radar's order.
    pub listed: Vec<u32>,
    /// The target.
    pub current: Option<u32>,
    /// The last list held a hostile.
    pub hostile_listed: bool,
}

/// The sound a change of the target plays.
pub const TARGET_SELECTED: &str = "TARGET_SELECTED";
/// The voice of a hostile newly listed.
pub const VOICE_ENEMY_DETECTED: &str = "VOICE_ENEMY_DETECTED";

/// A listed object as the target rules see it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Listed {
    /// Its id.
    pub id: u32,
    /// How far it is across the ground.
    pub distance: f32,
    /// Hostile to the unit's clan.
    pub hostile: bool,
    /// A unit of the unit's own clan.
    pub friend: bool,
}

impl PlayerTarget {
    /// One frame's rules over `listed` (in list order) within `range` (read).
    pub fn keep(&mut self, listed: &[Listed], range: f32) {
        self.listed = listed.iter().map(|l| l.id).collect();
        if self.current.is_some_and(|t| !listed.iter().any(|l| l.id == t && l.distance <= range)) {
            self.current = None;
        }
        if self.current.is_none() {
            self.current = nearest(listed, |l| l.hostile)
                .or_else(|| nearest(listed, |l| l.friend))
                .or_else(|| nearest(listed, |_| true));
        }
    }

    /// The sounds of this frame (read): `TARGET_SELECTED` when the target is not `before`,
    /// `VOICE_ENEMY_DETECTED` when `listed` holds a hostile after a list that held none.
    pub fn sounds(&mut self, before: Option<u32>, listed: &[Listed]) -> Vec<&'static str> {
        let hostile = listed.iter().any(|l| l.hostile);
        let mut out = Vec::new();
        if self.current != before {
            out.push(TARGET_SELECTED);
        }
        if hostile && !self.hostile_listed {
            out.push(VOICE_ENEMY_DETECTED);
        }
        self.hostile_listed = hostile;
        out
    }

    /// `CMD_JAMES_SELECT_TARGET`: the listed entry after the target, wrapping; the first
    /// when the target is not listed.
    pub fn next(&mut self) {
        let Some(&first) = self.listed.first() else { return };
        let at = self.current.and_then(|t| self.listed.iter().position(|&i| i == t));
        self.current = Some(at.map_or(first, |at| self.listed[(at + 1) % self.listed.len()]));
    }

    /// `CMD_JAMES_SELECT_ENEMY` (`pick` hostile) and `_FRIEND` (`pick` its own clan's
    /// units): with such a target, the next such in list order, wrapping; else the
    /// nearest such. Nothing such leaves the target.
    pub fn next_of(&mut self, listed: &[Listed], pick: impl Fn(&Listed) -> bool) {
        let such: Vec<&Listed> = listed.iter().filter(|l| pick(l)).collect();
        let at = self.current.and_then(|t| such.iter().position(|l| l.id == t));
        let chosen = match at {
            Some(at) => Some(such[(at + 1) % such.len()].id),
            None => nearest(listed, &pick),
        };
        if chosen.is_some() {
            self.current = chosen;
        }
    }
}

/// The nearest across the ground of `listed` that `pick` takes (the first of equals).
fn nearest(listed: &[Listed], pick: impl Fn(&Listed) -> bool) -> Option<u32> {
    listed.iter().filter(|l| pick(l)).min_by(|a, b| a.distance.total_cmp(&b.distance)).map(|l| l.id)
}

type Seen<'a> = (
    &'a OriginalObjectId,
    &'a SimTransform,
    &'a Owner,
    Option<&'a UnitClass>,
    Option<&'a BuildingCategory>,
    Option<&'a iron3d_behavior::Navigator>,
    Has<Movable>,
);

/// A unit's sensor range (the original's property `0x50`, its radar's value 3, read): its
/// radar's, or for an object armed by iron3d's rules file its rules radar's; `None`
/// without either (the original takes 1 m).
pub fn sensor_range(radar: Option<&Radar>, sensor: Option<&iron3d_combat::Sensor>) -> Option<f32> {
    sensor.map(|s| s.sheet.range).or(radar.map(|r| r.range))
}

/// Keeps the driven unit's list and target, takes the three keys and plays their sounds.
#[allow(clippy::too_many_arguments, reason = "the list reads the radar, the keys and the sounds")]
pub fn keep(
    actions: Query<&Actions>,
    (views, player): (Res<Views>, Res<PlayerCommands>),
    scene: Battlefield,
    radars: Query<(Option<&Radar>, Option<&RadarContacts>, Option<&iron3d_combat::Sensor>)>,
    seen: Query<Seen>,
    mut target: ResMut<PlayerTarget>,
    (sounds, mut cues): (Res<crate::cockpit::CockpitSounds>, MessageWriter<SoundCue>),
) {
    let Some(unit) = crate::cockpit::driven(&views, &player) else {
        *target = PlayerTarget::default();
        return;
    };
    if target.unit != Some(unit) {
        *target = PlayerTarget { unit: Some(unit), ..default() };
    }
    let Some(entity) = scene.entity(unit) else { return };
    let (Ok((radar, contacts, sensor)), Ok(me)) = (radars.get(entity), seen.get(entity)) else { return };
    let range = sensor_range(radar, sensor).unwrap_or(1.0);
    let (at, clan, mine) = (me.1.position, me.2.clan, scene.player());
    let candidates: Vec<_> = match contacts {
        Some(c) => c.0.iter().filter_map(|&id| seen.get(scene.entity(id)?).ok()).collect(),
        None => seen.iter().filter(|s| s.0.0 != unit).collect(),
    };
    let listed: Vec<Listed> = candidates
        .into_iter()
        .filter_map(|(id, t, owner, class, category, nav, movable)| {
            let distance = (t.position[0] - at[0]).hypot(t.position[1] - at[1]);
            let hostile = scene.relations.hostile(clan, owner.clan);
            let hero = owner.clan == mine && class.is_some_and(|c| c.is_hero());
            let unlisted = category.is_some_and(|c| UNLISTED.contains(&c.0))
                || (hostile && movable && nav.is_some_and(|n| n.order == Order::Shutdown));
            // Without the radar's list, what lies within its range (the project's rule).
            let in_range = contacts.is_some() || distance <= range;
            (!hero && !unlisted && in_range).then_some(Listed {
                id: id.0,
                distance,
                hostile,
                friend: movable && owner.clan == clan,
            })
        })
        .collect();
    let before = target.current;
    target.keep(&listed, range);
    if let Ok(a) = actions.single() {
        if a.just_pressed(&GameAction::SelectTarget) {
            target.next();
        }
        if a.just_pressed(&GameAction::SelectEnemy) {
            target.next_of(&listed, |l| l.hostile);
        }
        if a.just_pressed(&GameAction::SelectFriend) {
            target.next_of(&listed, |l| l.friend);
        }
    }
    for sound in target.sounds(before, &listed) {
        let cue = match sound {
            TARGET_SELECTED => sounds.cue(sound),
            voice => Some(iron3d_audio::voice(voice)),
        };
        if let Some(cue) = cue {
            cues.write(cue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed() -> Vec<Listed> {
        let l = |id, distance, hostile, friend| Listed { id, distance, hostile, friend };
        vec![l(5, 80.0, false, true), l(7, 120.0, true, false), l(9, 60.0, true, false), l(11, 40.0, false, false)]
    }

    #[test]
    fn with_no_target_the_nearest_hostile_is_taken_then_a_friend_then_anything() {
        let mut t = PlayerTarget::default();
        t.keep(&listed(), 300.0);
        assert_eq!(t.current, Some(9), "the nearest hostile");
        let calm: Vec<Listed> = listed().into_iter().filter(|l| !l.hostile).collect();
        let mut t = PlayerTarget::default();
        t.keep(&calm, 300.0);
        assert_eq!(t.current, Some(5), "a friend before the nearer neutral");
        let mut t = PlayerTarget::default();
        t.keep(&calm[1..], 300.0);
        assert_eq!(t.current, Some(11), "anything listed");
        t.keep(&[], 300.0);
        assert_eq!(t.current, None, "an empty list leaves no target");
    }

    #[test]
    fn a_target_beyond_the_radars_range_or_gone_is_dropped() {
        let mut t = PlayerTarget { current: Some(7), ..default() };
        t.keep(&listed(), 300.0);
        assert_eq!(t.current, Some(7), "kept while listed and in range");
        t.keep(&listed(), 100.0);
        assert_eq!(t.current, Some(9), "beyond 100: dropped, the nearest hostile taken");
    }

    /// A new target plays `TARGET_SELECTED`; a list that holds a hostile after one that
    /// held none says `VOICE_ENEMY_DETECTED`, once (read).
    #[test]
    fn a_new_target_sounds_and_a_first_hostile_is_announced() {
        let mut t = PlayerTarget::default();
        let calm: Vec<Listed> = listed().into_iter().filter(|l| !l.hostile).collect();
        t.keep(&calm, 300.0);
        assert_eq!(t.sounds(None, &calm), [TARGET_SELECTED], "a friend taken");
        assert!(t.sounds(Some(5), &calm).is_empty(), "nothing changed");
        t.keep(&listed(), 300.0);
        assert_eq!(t.sounds(Some(5), &listed()), [VOICE_ENEMY_DETECTED], "the friend kept, a hostile listed");
        assert!(t.sounds(Some(5), &listed()).is_empty(), "still listed: no second voice");
        t.next_of(&listed(), |l| l.hostile);
        assert_eq!(t.sounds(Some(5), &listed()), [TARGET_SELECTED]);
        t.sounds(Some(9), &calm);
        assert_eq!(t.sounds(Some(9), &listed()), [VOICE_ENEMY_DETECTED], "after a list with none, again");
    }

    #[test]
    fn tab_steps_through_the_list_and_e_and_t_through_hostiles_and_friends() {
        let all = listed();
        let mut t = PlayerTarget { listed: all.iter().map(|l| l.id).collect(), current: Some(9), ..default() };
        t.next();
        assert_eq!(t.current, Some(11));
        t.next();
        assert_eq!(t.current, Some(5), "wrapping");
        t.current = Some(42);
        t.next();
        assert_eq!(t.current, Some(5), "a target not listed: the first");
        t.next_of(&all, |l| l.hostile);
        assert_eq!(t.current, Some(9), "not hostile: the nearest hostile");
        t.next_of(&all, |l| l.hostile);
        assert_eq!(t.current, Some(7), "hostile: the next hostile in list order, wrapping");
        t.next_of(&all, |l| l.friend);
        assert_eq!(t.current, Some(5), "the nearest friend");
        t.next_of(&all, |l| l.friend && l.id != 5);
        assert_eq!(t.current, Some(5), "nothing such: the target stays");
    }
}
