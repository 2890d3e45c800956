//! The cockpit's sounds (openparkan `docs/35-hud.md`, read), named by
//! `ui/game_resources.cfg`'s `sounds` block: while a drawn lock is counting, `TARGET_ZOOM`
//! each time more than 0.35 s have passed since the last beep, and once it is locked
//! `TARGET_READY` past 0.2 s, one stamp for all the guns' locks; and the radar's ping,
//! `RADAR`, each time its sweep ring starts again. A sound the block does not name is
//! not played.
//!
//! The lock's stamp runs on real time (the original's timer is the system's unless a
//! clock is set, and whether one is, so whether the beeps pause with the game, is not
//! known); the sweep runs on the game's clock, as its ring.

use bevy::prelude::*;
use iron3d_core::{SoundBus, SoundCue, SoundKey};
use iron3d_formats::config::SoundNames;

/// A counting lock's beep.
pub const TARGET_ZOOM: &str = "TARGET_ZOOM";
/// A lock's beep once locked.
pub const TARGET_READY: &str = "TARGET_READY";
/// The radar's ping.
pub const RADAR: &str = "RADAR";
/// Seconds between a counting lock's beeps and a locked one's (read).
const GAPS: [f64; 2] = [0.35, 0.2];

/// The sounds' names and when each last played.
#[derive(Resource, Debug, Default)]
pub struct CockpitSounds {
    /// The data's names.
    pub names: SoundNames,
    /// When a lock last beeped (real seconds).
    stamp: f64,
    /// The unit whose sweep was last seen, and how far into its period it was.
    sweep: Option<(u32, f32)>,
}

impl CockpitSounds {
    /// The beeps due at `now` (real seconds) for the locks drawn this frame, by their
    /// shares in row order: each row whose gap has passed renews the one stamp.
    pub fn locks(&mut self, now: f64, shares: impl IntoIterator<Item = f32>) -> Vec<&'static str> {
        let mut due = Vec::new();
        for share in shares {
            let (gap, sound) = if share < 1.0 { (GAPS[0], TARGET_ZOOM) } else { (GAPS[1], TARGET_READY) };
            if now - self.stamp > gap {
                self.stamp = now;
                due.push(sound);
            }
        }
        due
    }

    /// Whether `unit`'s sweep, `t` seconds into its period, started again since the
    /// last frame (not on the first frame of a unit).
    pub fn swept(&mut self, unit: u32, t: f32) -> bool {
        let again = self.sweep.is_some_and(|(u, last)| u == unit && t < last);
        self.sweep = Some((unit, t));
        again
    }

    /// The cue playing sound `name` on the interface's bus, if the data names it.
    pub fn cue(&self, name: &str) -> Option<SoundCue> {
        let entry = self.names.entry(name)?;
        let key = SoundKey { library: self.names.library.clone(), name: entry.to_string() };
        Some(SoundCue::play(key, SoundBus::Interface, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counting lock beeps past 0.35 s, a locked one past 0.2 s, on one stamp.
    #[test]
    fn a_lock_beeps_every_035_s_while_counting_and_every_02_s_locked() {
        let mut sounds = CockpitSounds::default();
        assert_eq!(sounds.locks(1.0, [0.4]), [TARGET_ZOOM]);
        assert!(sounds.locks(1.3, [0.6]).is_empty(), "0.3 s: not yet");
        assert_eq!(sounds.locks(1.36, [0.8]), [TARGET_ZOOM]);
        assert!(sounds.locks(1.5, [1.0]).is_empty(), "0.14 s");
        assert_eq!(sounds.locks(1.57, [1.0]), [TARGET_READY]);
        assert_eq!(sounds.locks(1.8, [1.0, 0.5]), [TARGET_READY], "the second lock finds the stamp renewed");
        assert!(sounds.locks(5.0, []).is_empty(), "no lock drawn, no beep");
    }

    #[test]
    fn the_radar_pings_as_its_sweep_starts_again() {
        let mut sounds = CockpitSounds::default();
        assert!(!sounds.swept(7, 1.2), "the first frame");
        assert!(!sounds.swept(7, 1.4));
        assert!(sounds.swept(7, 0.1), "the ring starts again");
        assert!(!sounds.swept(8, 0.0), "another unit starts afresh");
    }

    #[test]
    fn a_sound_plays_by_the_entry_its_block_names_and_not_without_one() {
        let mut sounds = CockpitSounds::default();
        assert!(sounds.cue(RADAR).is_none());
        sounds.names =
            SoundNames { library: "sounds.lib".into(), sounds: vec![("RADAR".into(), "i_radar.wav".into())] };
        let cue = sounds.cue(RADAR).unwrap();
        assert_eq!(
            (cue.key.library.as_str(), cue.key.name.as_str(), cue.bus),
            ("sounds.lib", "i_radar.wav", SoundBus::Interface)
        );
    }
}
