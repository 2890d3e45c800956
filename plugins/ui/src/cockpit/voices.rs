//! The weapons list's voices (openparkan `docs/35-hud.md`, the weapons list, read): each
//! gun of the unit the player drives says `VOICE_WEAP_AMMO_OUT` when its rounds reach 0,
//! `VOICE_WEAP_ENERGY_OUT` when its capacitor falls under 1 % and `VOICE_WEAPON_DESTR`
//! when its node is destroyed, each once as its latch rises; a latch falls with its
//! condition (a refit), and another unit's guns start with their latches down. The own
//! panel's voices (read): `VOICE_LIFE_LOW` while the unit's life is under 20 % and
//! `VOICE_BATT_LOW` while its batteries' fill is under 0.2 (0 without a battery, as the
//! original's failed query reads), each at most once every 20 s (real time, as the
//! lock's beeps).

use super::driven;
use crate::views::Views;
use bevy::prelude::*;
use iron3d_combat::{Body, GunState, Guns};
use iron3d_core::{ObjectTable, Power, SoundCue, Supply};
use iron3d_input::PlayerCommands;

/// The voices, in the latches' order: no rounds, no energy, destroyed.
pub const VOICES: [&str; 3] = ["VOICE_WEAP_AMMO_OUT", "VOICE_WEAP_ENERGY_OUT", "VOICE_WEAPON_DESTR"];

/// The driven unit's guns' latches.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct GunLatches {
    /// The unit they are kept for.
    pub unit: Option<u32>,
    /// Each gun's latches: no rounds, no energy, destroyed.
    pub latches: Vec<[bool; 3]>,
}

impl GunLatches {
    /// The voices whose latches rise for `unit`'s guns in the state `now`.
    pub fn rise(&mut self, unit: u32, now: &[[bool; 3]]) -> Vec<&'static str> {
        if self.unit != Some(unit) {
            (self.unit, self.latches) = (Some(unit), Vec::new());
        }
        self.latches.resize(now.len(), [false; 3]);
        let mut said = Vec::new();
        for (latch, state) in self.latches.iter_mut().zip(now) {
            for ((up, &is), voice) in latch.iter_mut().zip(state).zip(VOICES) {
                if is && !*up {
                    said.push(voice);
                }
                *up = is;
            }
        }
        said
    }
}

/// The own panel's voices: life low, batteries low.
pub const PANEL_VOICES: [&str; 2] = ["VOICE_LIFE_LOW", "VOICE_BATT_LOW"];
/// Each panel voice's least gap (seconds, read).
const PANEL_GAP: f64 = 20.0;

/// When each panel voice last spoke (real seconds).
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct PanelVoices(pub [Option<f64>; 2]);

impl PanelVoices {
    /// The voices due at `now` for a unit at `life` (0..1) with its batteries at `fill`.
    pub fn due(&mut self, now: f64, life: f32, fill: f32) -> Vec<&'static str> {
        let mut said = Vec::new();
        for ((last, low), voice) in self.0.iter_mut().zip([life < 0.2, fill < 0.2]).zip(PANEL_VOICES) {
            if low && last.is_none_or(|t| now - t >= PANEL_GAP) {
                *last = Some(now);
                said.push(voice);
            }
        }
        said
    }
}

/// A gun's state as the latches read it: no rounds, its capacitor under 1 %, its node's
/// life gone.
pub fn state(gun: &GunState, body: &Body) -> [bool; 3] {
    let empty = gun.sheet.capacitor > 0.0 && gun.charge / gun.sheet.capacitor < 0.01;
    [gun.magazine == 0, empty, !body.lives(gun.sheet.node)]
}

/// Plays the driven unit's guns' and own panel's voices.
pub(super) fn speak(
    (views, player, table, real): (Res<Views>, Res<PlayerCommands>, Res<ObjectTable>, Res<Time<Real>>),
    units: Query<(Option<&Guns>, Option<&Body>, Option<&Supply>, Option<&Power>)>,
    (mut latches, mut panel): (ResMut<GunLatches>, ResMut<PanelVoices>),
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(unit) = driven(&views, &player) else { return };
    let Some((guns, body, supply, power)) = table.entity_of(unit).and_then(|e| units.get(e).ok()) else { return };
    let now: Vec<[bool; 3]> = match (guns, body) {
        (Some(guns), Some(body)) => guns.0.iter().map(|g| state(g, body)).collect(),
        _ => Vec::new(),
    };
    let fill = power.filter(|p| !p.batteries.is_empty()).map_or(0.0, |p| p.charge);
    let life = supply.map_or(1.0, |s| s.life);
    let mut said = latches.rise(unit, &now);
    said.extend(panel.due(real.elapsed_secs_f64(), life, fill));
    for voice in said {
        cues.write(iron3d_audio::voice(voice));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Life under 20 % and batteries under 0.2 each speak at once, then at most every
    /// 20 s while they stay low.
    #[test]
    fn the_own_panel_warns_of_low_life_and_batteries_at_most_every_20_s() {
        let mut panel = PanelVoices::default();
        assert!(panel.due(1.0, 0.5, 0.5).is_empty(), "neither low");
        assert_eq!(panel.due(2.0, 0.19, 0.5), ["VOICE_LIFE_LOW"]);
        assert!(panel.due(21.9, 0.1, 0.5).is_empty(), "19.9 s later");
        assert_eq!(panel.due(22.0, 0.1, 0.1), ["VOICE_LIFE_LOW", "VOICE_BATT_LOW"]);
        assert!(panel.due(30.0, 0.2, 0.0).is_empty(), "life at 20 % is not low; batteries spoke 8 s ago");
    }

    /// Each latch speaks once as it rises, falls with its condition, and another unit
    /// starts with its latches down.
    #[test]
    fn a_guns_voices_speak_once_as_their_latches_rise() {
        let mut latches = GunLatches::default();
        let quiet = [[false; 3], [false; 3]];
        assert!(latches.rise(7, &quiet).is_empty());
        let spent = [[true, false, false], [false, true, true]];
        assert_eq!(latches.rise(7, &spent), [VOICES[0], VOICES[1], VOICES[2]]);
        assert!(latches.rise(7, &spent).is_empty(), "once as it rises");
        assert!(latches.rise(7, &quiet).is_empty());
        assert_eq!(latches.rise(7, &[[true, false, false], [false; 3]]), [VOICES[0]], "a refit lowers it");
        assert_eq!(latches.rise(8, &[[true, false, false]]), [VOICES[0]], "another unit's latches start down");
    }
}
