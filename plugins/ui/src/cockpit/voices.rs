//! The weapons list's voices (openparkan `docs/35-hud.md`, the weapons list, read): each
//! gun of the unit the player drives says `VOICE_WEAP_AMMO_OUT` when its rounds reach 0,
//! `VOICE_WEAP_ENERGY_OUT` when its capacitor falls under 1 % and `VOICE_WEAPON_DESTR`
//! when its node is destroyed, each once as its latch rises; a latch falls with its
//! condition (a refit), and another unit's guns start with their latches down.

use super::driven;
use crate::views::Views;
use bevy::prelude::*;
use iron3d_combat::{Body, GunState, Guns};
use iron3d_core::{ObjectTable, SoundBus, SoundCue, SoundKey};
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

/// A gun's state as the latches read it: no rounds, its capacitor under 1 %, its node's
/// life gone.
pub fn state(gun: &GunState, body: &Body) -> [bool; 3] {
    let empty = gun.sheet.capacitor > 0.0 && gun.charge / gun.sheet.capacitor < 0.01;
    [gun.magazine == 0, empty, !body.lives(gun.sheet.node)]
}

/// Plays the driven unit's guns' voices.
pub(super) fn speak(
    (views, player, table): (Res<Views>, Res<PlayerCommands>, Res<ObjectTable>),
    units: Query<(&Guns, &Body)>,
    mut latches: ResMut<GunLatches>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(unit) = driven(&views, &player) else { return };
    let Some((guns, body)) = table.entity_of(unit).and_then(|e| units.get(e).ok()) else { return };
    let now: Vec<[bool; 3]> = guns.0.iter().map(|g| state(g, body)).collect();
    for voice in latches.rise(unit, &now) {
        let key = SoundKey { library: iron3d_audio::VOICES.into(), name: voice.into() };
        cues.write(SoundCue::play(key, SoundBus::Voice, None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
