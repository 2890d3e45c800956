//! FX sounds: effect command opcode 2 (`docs/reference/models.md` §6.7, "3D sound"; `docs/reference/runtime.md`
//! §10.1: it stores `archive[32] + name[32]`) as a [`SoundCue`] at the effect's place.
//! The scalars `c0`, `c1`, `c2` are read as minimum distance, maximum distance and
//! frequency ratio — the values weather lightning uses (100, 1500, 1; `docs/reference/runtime.md`
//! §8.3); a range that is not `0 <= c0 < c1` falls back to [`SoundCue::RANGE`], a ratio
//! that is not positive to 1 (the field names are inferred; *project*).

use iron3d_core::{SoundBus, SoundCue, SoundKey};
use iron3d_formats::bytes::display_name;
use iron3d_formats::model::fxid::{Effect, SoundCommand};

/// The sound cues of an effect's enabled opcode-2 commands, in command order.
pub fn effect_sound_cues(effect: &Effect, at: [f32; 3]) -> Vec<SoundCue> {
    effect.commands.iter().filter(|c| c.enabled()).filter_map(|c| c.sound()).map(|s| sound_cue(&s, at)).collect()
}

/// The cue of one opcode-2 command played at `at` (its range and ratio, or the defaults).
pub fn sound_cue(s: &SoundCommand, at: [f32; 3]) -> SoundCue {
    let key = SoundKey { library: display_name(&s.reference.archive), name: display_name(&s.reference.name) };
    let [near, far, ratio, _] = s.scalars;
    let range =
        if near.is_finite() && far.is_finite() && 0.0 <= near && near < far { (near, far) } else { SoundCue::RANGE };
    let frequency_ratio = if ratio.is_finite() && ratio > 0.0 { ratio } else { 1.0 };
    SoundCue { range, frequency_ratio, ..SoundCue::play(key, SoundBus::Effects, Some(at)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::model::fxid::{Command, ResourceRef};

    fn sound(enabled: bool, scalars: [f32; 4], name: &str) -> Command {
        let reference = ResourceRef::new(b"sounds.lib", name.as_bytes()).unwrap();
        let s = SoundCommand {
            mode: 0,
            t_start: 0.0,
            t_end: 1.0,
            vectors: [[0.0; 3]; 4],
            scalars,
            manager_arg: 0,
            reference,
        };
        Command::new_sound(enabled, &s).unwrap()
    }

    #[test]
    fn enabled_opcode_2_commands_become_cues_with_their_range_and_ratio_or_the_defaults() {
        let commands = vec![
            sound(true, [50.0, 900.0, 0.5, 0.0], "A.WAV"),
            sound(false, [50.0, 900.0, 1.0, 0.0], "OFF.WAV"),
            sound(true, [900.0, 50.0, -1.0, 0.0], "B.WAV"),
            Command::new(6, true).unwrap(),
        ];
        // The demo's effect header, with these commands.
        let header = iron3d_demo::effects::effect(1.0, "X.WAV", None).unwrap().header;
        let effect = Effect { header, commands };
        let cues = effect_sound_cues(&effect, [1.0, 2.0, 3.0]);
        let got: Vec<_> = cues.iter().map(|c| (c.key.clone(), c.range, c.frequency_ratio, c.at)).collect();
        assert_eq!(
            got,
            [
                (SoundKey::parse("sounds.lib/A.WAV"), (50.0, 900.0), 0.5, Some([1.0, 2.0, 3.0])),
                (SoundKey::parse("sounds.lib/B.WAV"), SoundCue::RANGE, 1.0, Some([1.0, 2.0, 3.0])),
            ]
        );
    }
}
