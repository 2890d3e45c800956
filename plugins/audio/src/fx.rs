//! FX sounds: effect command opcode 2 (spec `models.md` §6.7, "3D sound"; `runtime.md`
//! §10.1: it stores `archive[32] + name[32]`) as a [`SoundCue`] at the effect's place.
//! The scalars `c0`, `c1`, `c2` are read as minimum distance, maximum distance and
//! frequency ratio — the values weather lightning uses (100, 1500, 1; `runtime.md`
//! §8.3); a range that is not `0 <= c0 < c1` falls back to [`SoundCue::RANGE`], a ratio
//! that is not positive to 1 (the field names are inferred; *project*).

use iron3d_core::{SoundBus, SoundCue, SoundKey};
use iron3d_formats::bytes::display_name;
use iron3d_formats::model::fxid::Effect;

/// The sound cues of an effect's enabled opcode-2 commands, in command order.
pub fn effect_sound_cues(effect: &Effect, at: [f32; 3]) -> Vec<SoundCue> {
    effect
        .commands
        .iter()
        .filter(|c| c.enabled())
        .filter_map(|c| c.sound())
        .map(|s| {
            let key = SoundKey { library: display_name(&s.reference.archive), name: display_name(&s.reference.name) };
            let [near, far, ratio, _] = s.scalars;
            let range = if near.is_finite() && far.is_finite() && 0.0 <= near && near < far {
                (near, far)
            } else {
                SoundCue::RANGE
            };
            let frequency_ratio = if ratio.is_finite() && ratio > 0.0 { ratio } else { 1.0 };
            SoundCue { range, frequency_ratio, ..SoundCue::play(key, SoundBus::Effects, Some(at)) }
        })
        .collect()
}
