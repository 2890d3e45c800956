//! `sounds.lib`: an NRes of `SWAV` entries (`docs/reference/runtime.md` §10.2) with synthesised
//! sounds — engine hum, weapon shots, explosion, rain loop, thunder, the ambient theme
//! and its variations, a UI click, two unit responses — encoded as 16-bit PCM or as MS ADPCM by the
//! project's own encoder, plus one deliberately empty entry (the spec's `entry_empty`
//! case, like `ALIEN_ME.WAV` of Part 2); and `voices.lib` with the two mission voices.
//!
//! All synthesis uses only `+ - * /` on `f32` (no `sin`, `exp` or platform maths), a
//! polynomial sine and per-sound seeded noise streams, so the bytes are identical on
//! every machine. Every non-empty entry is mono at 22 050 Hz like the retail corpus.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::rng::SplitMix64;
use iron3d_formats::sound::{SWAV, write_ms_adpcm, write_pcm16};

/// Sample rate of every demo sound (the retail rate).
pub const SAMPLE_RATE: u32 = 22_050;
/// MS ADPCM block size (bytes per mono block; the common choice).
pub const ADPCM_BLOCK: u16 = 256;

/// The rain loop the weather system starts (a bare name = mission sound library).
pub const RAIN_LOOP: &str = "ATM_RAIN1.WAV";
/// The lightning one-shot.
pub const THUNDER: &str = "ATM_THUND1.WAV";
/// The ambient theme loop.
pub const THEME: &str = "THEME1.WAV";
/// Day variations of the theme.
pub const DAY_VARIATIONS: [&str; 2] = ["DAYVAR1.WAV", "DAYVAR2.WAV"];
/// Night variations of the theme.
pub const NIGHT_VARIATIONS: [&str; 2] = ["NIGHTVAR1.WAV", "NIGHTVAR2.WAV"];
/// The deliberately empty entry (payload size 0).
pub const EMPTY: &str = "ALIEN_ME.WAV";

/// How a sound is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// 16-bit linear PCM.
    Pcm,
    /// Microsoft ADPCM (our encoder, standard coefficients).
    Adpcm,
}

/// A synthesiser: samples in `[-1, 1]` drawn from the sound's own random stream.
pub type Synth = fn(&mut SplitMix64) -> Vec<f32>;

/// Every synthesised sound: entry name, encoding, synthesiser.
pub const SOUNDS: &[(&str, Encoding, Synth)] = &[
    ("ENG_HUM1.WAV", Encoding::Adpcm, engine_hum),
    ("WPN_LASER1.WAV", Encoding::Pcm, laser),
    ("WPN_CANNON1.WAV", Encoding::Adpcm, cannon),
    ("EXPLODE1.WAV", Encoding::Adpcm, explosion),
    (RAIN_LOOP, Encoding::Adpcm, rain),
    (THUNDER, Encoding::Adpcm, thunder),
    (THEME, Encoding::Adpcm, theme),
    (DAY_VARIATIONS[0], Encoding::Adpcm, day_1),
    (DAY_VARIATIONS[1], Encoding::Adpcm, day_2),
    (NIGHT_VARIATIONS[0], Encoding::Adpcm, night_1),
    (NIGHT_VARIATIONS[1], Encoding::Adpcm, night_2),
    ("UI_CLICK.WAV", Encoding::Pcm, click),
    ("UNIT_ACK1.WAV", Encoding::Adpcm, acknowledge_rising),
    ("UNIT_ACK2.WAV", Encoding::Pcm, acknowledge_falling),
    (INTERFACE[0].1, Encoding::Pcm, beep::<1800, 35>),
    (INTERFACE[1].1, Encoding::Pcm, beep::<2400, 97>),
    (INTERFACE[2].1, Encoding::Pcm, beep::<1200, 250>),
    (INTERFACE[3].1, Encoding::Pcm, beep::<1500, 60>),
];

/// The interface's sounds `ui/game_resources.cfg` names (the original's names, and the
/// original's entries but the last, the demo's own; openparkan `docs/35-hud.md`,
/// `docs/25-sensors.md`): the guided lock's beeps, a 35 ms one while locking and a 97 ms
/// one locked, the radar's ping and a new target's click.
pub const INTERFACE: [(&str, &str); 4] = [
    ("TARGET_ZOOM", "i_trg_zoom.wav"),
    ("TARGET_READY", "i_trg_ready.wav"),
    ("RADAR", "i_radar.wav"),
    ("TARGET_SELECTED", "i_trg_select.wav"),
];

/// The original's voices (`voices.lib`): the mission's end, the five acknowledgements and
/// the selection of a small (`_S`), big (`_B`) and plain set, a unit ready and the
/// missions' messages (`VC_MSG_*`), here synthesised chirps.
pub const VOICES: &[(&str, Encoding, Synth)] = &[
    ("VOICE_MISSION_COMPLETE", Encoding::Adpcm, voice_complete),
    ("VOICE_MISSION_FAIL", Encoding::Adpcm, voice_fail),
    ("VOICE_ACKNOWLEDGE_S", Encoding::Adpcm, acknowledge::<0, 0>),
    ("VOICE_AFFIRMATIVE_S", Encoding::Adpcm, acknowledge::<0, 1>),
    ("VOICE_YES_SIR_S", Encoding::Adpcm, acknowledge::<0, 2>),
    ("VOICE_OK_S", Encoding::Adpcm, acknowledge::<0, 3>),
    ("VOICE_EXECUTE_S", Encoding::Adpcm, acknowledge::<0, 4>),
    ("VOICE_ACKNOWLEDGE_B", Encoding::Adpcm, acknowledge::<1, 0>),
    ("VOICE_AFFIRMATIVE_B", Encoding::Adpcm, acknowledge::<1, 1>),
    ("VOICE_YES_SIR_B", Encoding::Adpcm, acknowledge::<1, 2>),
    ("VOICE_OK_B", Encoding::Adpcm, acknowledge::<1, 3>),
    ("VOICE_EXECUTE_B", Encoding::Adpcm, acknowledge::<1, 4>),
    ("VOICE_ACKNOWLEDGE", Encoding::Adpcm, acknowledge::<2, 0>),
    ("VOICE_AFFIRMATIVE", Encoding::Adpcm, acknowledge::<2, 1>),
    ("VOICE_YES_SIR", Encoding::Adpcm, acknowledge::<2, 2>),
    ("VOICE_OK", Encoding::Adpcm, acknowledge::<2, 3>),
    ("VOICE_EXECUTE", Encoding::Adpcm, acknowledge::<2, 4>),
    ("VOICE_SELECTED_S", Encoding::Adpcm, selected::<0>),
    ("VOICE_SELECTED_B", Encoding::Adpcm, selected::<1>),
    ("VOICE_SELECTED", Encoding::Adpcm, selected::<2>),
    ("VOICE_UNIT_READY", Encoding::Adpcm, voice_unit_ready),
    ("VOICE_RISK_AREA", Encoding::Adpcm, voice_risk_area),
    ("VOICE_WEAP_AMMO_OUT", Encoding::Adpcm, weapon::<0>),
    ("VOICE_WEAP_ENERGY_OUT", Encoding::Adpcm, weapon::<1>),
    ("VOICE_WEAPON_DESTR", Encoding::Adpcm, weapon::<2>),
    ("VOICE_LIFE_LOW", Encoding::Adpcm, low::<0>),
    ("VOICE_BATT_LOW", Encoding::Adpcm, low::<1>),
    ("VOICE_ENEMY_DETECTED", Encoding::Adpcm, voice_enemy),
    ("VC_MSG_0", Encoding::Adpcm, message::<0>),
    ("VC_MSG_1", Encoding::Adpcm, message::<1>),
    ("VC_MSG_2", Encoding::Adpcm, message::<2>),
];

const SR: f32 = SAMPLE_RATE as f32;

fn frames(seconds: f32) -> usize {
    (seconds * SR) as usize
}

/// `sin(2π·phase)` for any phase, from a refined parabola (error below 0.1 %).
pub(crate) fn sine(phase: f32) -> f32 {
    let t = phase - phase.floor();
    let (t, sign) = if t < 0.5 { (t, 1.0) } else { (t - 0.5, -1.0) };
    let y = 16.0 * t * (0.5 - t);
    sign * (0.225 * (y * y - y) + y)
}

/// Uniform noise in `[-1, 1)`.
fn noise(rng: &mut SplitMix64) -> f32 {
    2.0 * rng.unit() - 1.0
}

/// A one-pole low-pass filter (`a` = smoothing in `(0, 1]`).
struct LowPass {
    a: f32,
    y: f32,
}

impl LowPass {
    fn new(a: f32) -> Self {
        Self { a, y: 0.0 }
    }
    fn step(&mut self, x: f32) -> f32 {
        self.y += self.a * (x - self.y);
        self.y
    }
}

/// A per-sample multiplier that decays to `1/e` in about `seconds` (first-order
/// approximation of `exp(-1 / (seconds·rate))`).
fn decay(seconds: f32) -> f32 {
    1.0 - 1.0 / (seconds * SR)
}

/// Linear attack/release gate over `n` samples.
fn gate(i: usize, n: usize, attack: usize, release: usize) -> f32 {
    let up = if attack == 0 { 1.0 } else { (i as f32 / attack as f32).min(1.0) };
    let down = if release == 0 { 1.0 } else { ((n - i) as f32 / release as f32).min(1.0) };
    up * down
}

/// A 1-second engine loop: a band-limited sawtooth at 55 Hz with a slow 5 Hz throb
/// (whole cycles per loop, so the loop point is seamless).
fn engine_hum(_: &mut SplitMix64) -> Vec<f32> {
    let n = frames(1.0);
    (0..n)
        .map(|i| {
            let t = i as f32 / SR;
            let saw: f32 = (1..=6).map(|k| sine(55.0 * k as f32 * t) / k as f32).sum();
            saw * 0.32 * (0.8 + 0.2 * sine(5.0 * t))
        })
        .collect()
}

/// A laser shot: a square-ish tone sweeping from 1800 Hz down to 300 Hz.
fn laser(_: &mut SplitMix64) -> Vec<f32> {
    let n = frames(0.3);
    let (mut phase, mut env) = (0.0f32, 0.9f32);
    let k = decay(0.09);
    (0..n)
        .map(|i| {
            let f = 1800.0 - 1500.0 * i as f32 / n as f32;
            phase += f / SR;
            env *= k;
            let s = sine(phase);
            (s * 3.0).clamp(-1.0, 1.0) * env * gate(i, n, 20, 200)
        })
        .collect()
}

/// A cannon: a low thump under a filtered noise burst.
fn cannon(rng: &mut SplitMix64) -> Vec<f32> {
    let n = frames(0.5);
    let mut lp = LowPass::new(0.25);
    let (mut env, mut thump, mut phase) = (1.0f32, 1.0f32, 0.0f32);
    let (k, kt) = (decay(0.06), decay(0.15));
    (0..n)
        .map(|i| {
            env *= k;
            thump *= kt;
            phase += (90.0 - 40.0 * i as f32 / n as f32) / SR;
            (0.6 * lp.step(noise(rng)) * env * 2.0 + 0.6 * sine(phase) * thump) * gate(i, n, 10, 400)
        })
        .collect()
}

/// An explosion: noise through a low-pass whose cutoff falls, with a long decay.
fn explosion(rng: &mut SplitMix64) -> Vec<f32> {
    let n = frames(1.5);
    let (mut a, mut b) = (LowPass::new(0.5), LowPass::new(0.2));
    let (mut env, k) = (1.0f32, decay(0.4));
    (0..n)
        .map(|i| {
            let fall = 1.0 - i as f32 / n as f32;
            a.a = 0.02 + 0.5 * fall * fall;
            env *= k;
            b.step(a.step(noise(rng))) * env * 2.4 * gate(i, n, 30, 2000)
        })
        .collect()
}

/// A 2-second rain loop: hiss plus seeded droplets; the tail is cross-faded into the
/// head so the loop point has no click.
fn rain(rng: &mut SplitMix64) -> Vec<f32> {
    let (n, fade) = (frames(2.0), frames(0.25));
    let mut lp = LowPass::new(0.3);
    let mut raw = Vec::with_capacity(n + fade);
    let (mut drop_env, mut drop_phase, mut drop_freq) = (0.0f32, 0.0f32, 0.0f32);
    let k = decay(0.012);
    for _ in 0..n + fade {
        let x = noise(rng);
        let hiss = x - lp.step(x);
        if rng.below(900) == 0 {
            drop_env = 0.2 + 0.3 * rng.unit();
            drop_freq = 1500.0 + 2500.0 * rng.unit();
        }
        drop_env *= k;
        drop_phase += drop_freq / SR;
        raw.push(0.35 * hiss + drop_env * sine(drop_phase));
    }
    (0..n)
        .map(|i| {
            if i < fade {
                let w = i as f32 / fade as f32;
                raw[i] * w + raw[n + i] * (1.0 - w)
            } else {
                raw[i]
            }
        })
        .collect()
}

/// Thunder: a bright crack followed by a rumbling, swelling low roar.
fn thunder(rng: &mut SplitMix64) -> Vec<f32> {
    let n = frames(2.5);
    let (mut crack_lp, mut r1, mut r2) = (LowPass::new(0.6), LowPass::new(0.03), LowPass::new(0.05));
    let (mut crack, mut roar, mut swell) = (1.0f32, 0.0f32, 0.0f32);
    let (kc, kr) = (decay(0.05), decay(0.9));
    (0..n)
        .map(|i| {
            crack *= kc;
            if i < frames(0.3) {
                roar += (1.0 - roar) / (0.3 * SR);
            }
            roar *= kr;
            if rng.below(4000) == 0 {
                swell = 0.5 + 0.5 * rng.unit();
            }
            swell *= decay(0.2);
            let low = r2.step(r1.step(noise(rng)));
            (0.5 * crack * crack_lp.step(noise(rng)) + 9.0 * low * (roar + swell)).clamp(-1.0, 1.0)
                * gate(i, n, 5, 4000)
        })
        .collect()
}

/// A pad chord of `notes` (Hz) with a slow tremolo, `seconds` long.
fn pad(notes: &[f32], seconds: f32, attack: f32, release: f32) -> Vec<f32> {
    let n = frames(seconds);
    let scale = 0.5 / notes.len() as f32;
    (0..n)
        .map(|i| {
            let t = i as f32 / SR;
            let tone: f32 = notes.iter().map(|f| sine(f * t) + 0.3 * sine(2.0 * f * t)).sum();
            tone * scale * (0.85 + 0.15 * sine(0.5 * t)) * gate(i, n, frames(attack), frames(release))
        })
        .collect()
}

/// An arpeggio of `notes`, each `step` seconds, plucked (fast decay), seeded accents.
fn arpeggio(rng: &mut SplitMix64, notes: &[f32], step: f32, repeats: usize) -> Vec<f32> {
    let per = frames(step);
    let k = decay(step * 0.6);
    let mut out = Vec::with_capacity(per * notes.len() * repeats);
    for r in 0..repeats {
        for (j, f) in notes.iter().enumerate() {
            let accent = if (r + j) % 4 == 0 { 0.5 } else { 0.3 + 0.1 * rng.unit() };
            let mut env = accent;
            for i in 0..per {
                env *= k;
                let t = i as f32 / SR;
                out.push((sine(f * t) + 0.25 * sine(3.0 * f * t)) * env * gate(i, per, 40, 200));
            }
        }
    }
    out
}

/// The ambient theme: a 4-second A-minor pad (loops cleanly: silent at both ends).
fn theme(_: &mut SplitMix64) -> Vec<f32> {
    pad(&[110.0, 130.81, 164.81, 220.0], 4.0, 0.8, 0.8)
}

fn day_1(rng: &mut SplitMix64) -> Vec<f32> {
    arpeggio(rng, &[440.0, 554.37, 659.25, 880.0], 0.18, 2)
}

fn day_2(rng: &mut SplitMix64) -> Vec<f32> {
    arpeggio(rng, &[392.0, 493.88, 587.33, 783.99, 587.33], 0.2, 2)
}

fn night_1(_: &mut SplitMix64) -> Vec<f32> {
    pad(&[73.42, 87.31, 110.0], 2.0, 0.5, 0.6)
}

fn night_2(rng: &mut SplitMix64) -> Vec<f32> {
    arpeggio(rng, &[220.0, 261.63, 329.63, 261.63], 0.3, 1)
}

/// A 25 ms UI click.
fn click(_: &mut SplitMix64) -> Vec<f32> {
    let n = frames(0.025);
    let (mut env, k) = (0.8f32, decay(0.004));
    (0..n)
        .map(|i| {
            env *= k;
            sine(2000.0 * i as f32 / SR) * env
        })
        .collect()
}

/// An interface beep: a `HZ` tone of `MS` milliseconds with a short fade in and out.
fn beep<const HZ: u32, const MS: u32>(_: &mut SplitMix64) -> Vec<f32> {
    let n = frames(MS as f32 / 1000.0);
    (0..n).map(|i| 0.5 * sine(HZ as f32 * i as f32 / SR) * gate(i, n, 40, 200)).collect()
}

/// A unit's response: a buzzy robotic chirp of `notes` (Hz), each `step` seconds.
fn chirp(notes: &[f32], step: f32) -> Vec<f32> {
    let per = frames(step);
    let mut out = Vec::with_capacity(per * notes.len());
    for f in notes {
        let mut phase = 0.0f32;
        for i in 0..per {
            let t = i as f32 / SR;
            // A 30 Hz vibrato makes it sound like a voice coder.
            phase += f * (1.0 + 0.03 * sine(30.0 * t)) / SR;
            let buzz = sine(phase) + 0.5 * sine(2.0 * phase) + 0.25 * sine(3.0 * phase);
            out.push(0.45 * buzz * gate(i, per, 150, 600));
        }
    }
    out
}

/// "Acknowledged": a rising two-note chirp.
fn acknowledge_rising(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[520.0, 780.0], 0.12)
}

/// "On my way": a falling three-note chirp.
fn acknowledge_falling(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[880.0, 660.0, 590.0], 0.09)
}

/// "Mission complete": a rising fanfare of chirps.
fn voice_complete(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[392.0, 523.0, 659.0, 784.0], 0.16)
}

/// "Unit ready": a rising pair of chirps, then the first again.
fn voice_unit_ready(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[587.0, 740.0, 587.0], 0.1)
}

/// "Risk area! Landing impossible.": a low warning, twice.
fn voice_risk_area(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[220.0, 175.0, 220.0, 175.0], 0.12)
}

/// A gun's report `KIND` (out of rounds, out of energy, destroyed: each a step lower):
/// a falling pair of chirps.
fn weapon<const KIND: u32>(_: &mut SplitMix64) -> Vec<f32> {
    let base = 523.0 * (1.0 - 0.12 * KIND as f32);
    chirp(&[base, base * 0.75], 0.1)
}

/// "Enemy detected": a rising then falling alarm of chirps.
fn voice_enemy(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[392.0, 523.0, 392.0, 523.0], 0.1)
}

/// The own panel's warning `KIND` (life low, batteries low): three quick low chirps.
fn low<const KIND: u32>(_: &mut SplitMix64) -> Vec<f32> {
    let base = 196.0 * (1.0 + 0.25 * KIND as f32);
    chirp(&[base, base, base], 0.09)
}

/// "Mission failed": a falling line of chirps.
fn voice_fail(_: &mut SplitMix64) -> Vec<f32> {
    chirp(&[440.0, 392.0, 330.0, 262.0], 0.2)
}

/// An acknowledgement of voice set `SET` (small, big, plain: high, low, middle pitch) and
/// voice `VOICE` (each a step higher): two short rising chirps.
fn acknowledge<const SET: usize, const VOICE: u32>(_: &mut SplitMix64) -> Vec<f32> {
    let base = [660.0, 330.0, 494.0][SET] * (1.0 + 0.08 * VOICE as f32);
    chirp(&[base, base * 1.25], 0.08)
}

/// "Selected" in voice set `SET` (small, big, plain: high, low, middle pitch): one
/// falling chirp.
fn selected<const SET: usize>(_: &mut SplitMix64) -> Vec<f32> {
    let base = [700.0, 350.0, 525.0][SET];
    chirp(&[base * 1.25, base], 0.1)
}

/// A mission message's voice (`messages.cfg`'s `voice_resource`): an incoming call, two
/// short notes and a long one, pitched by the message.
fn message<const N: usize>(_: &mut SplitMix64) -> Vec<f32> {
    let base = [440.0, 494.0, 554.0][N];
    chirp(&[base, base, base * 1.5], 0.14)
}

/// Converts `[-1, 1]` samples to 16-bit (clamped, rounded toward zero).
fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples.iter().map(|s| (s.clamp(-1.0, 1.0) * 32_000.0) as i16).collect()
}

fn render(seed: u64, name: &str, synth: Synth) -> Vec<i16> {
    to_i16(&synth(&mut SplitMix64::stream(seed, &format!("sounds/{name}"))))
}

/// The 16-bit samples of sound `name` (`None` for unknown names).
pub fn synthesise(seed: u64, name: &str) -> Option<Vec<i16>> {
    SOUNDS.iter().chain(VOICES).find(|(n, _, _)| *n == name).map(|(n, _, synth)| render(seed, n, *synth))
}

/// An NRes of `sounds`, encoded.
fn library(seed: u64, sounds: &[(&str, Encoding, Synth)]) -> Result<NresWriter> {
    let mut lib = NresWriter::new();
    for (name, encoding, synth) in sounds {
        let samples = render(seed, name, *synth);
        let wav = match encoding {
            Encoding::Pcm => write_pcm16(&samples, 1, SAMPLE_RATE)?,
            Encoding::Adpcm => write_ms_adpcm(&samples, 1, SAMPLE_RATE, ADPCM_BLOCK)?,
        };
        lib.add(SWAV, [0; 3], name.as_bytes(), wav)?;
    }
    Ok(lib)
}

/// Writes `sounds.lib` and `voices.lib`.
pub fn write(tree: &mut DemoTree, seed: u64) -> Result<()> {
    let mut lib = library(seed, SOUNDS)?;
    lib.add(SWAV, [0; 3], EMPTY.as_bytes(), Vec::new())?;
    tree.add("sounds.lib", lib.to_bytes()?)?;
    tree.add("voices.lib", library(seed, VOICES)?.to_bytes()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::nres::Nres;
    use iron3d_formats::sound::{FORMAT_MS_ADPCM, FORMAT_PCM, SoundLoad};

    #[test]
    fn polynomial_sine_is_close_to_std() {
        for i in -200..200 {
            let p = i as f32 * 0.013;
            assert!((sine(p) - (p * std::f32::consts::TAU).sin()).abs() < 2e-3, "{p}");
        }
    }

    #[test]
    fn every_sound_decodes_except_the_empty_entry() {
        let tree = build(DEFAULT_SEED).unwrap();
        let lib = Nres::parse(tree.get("sounds.lib").unwrap(), ReadOptions::strict()).unwrap();
        assert_eq!(lib.len(), SOUNDS.len() + 1);
        assert!(lib.entries().iter().all(|e| e.type_id == SWAV));
        assert_eq!(SoundLoad::from_nres(&lib, EMPTY).name(), "entry_empty");
        assert_eq!(SoundLoad::from_nres(&lib, "NO_SUCH.WAV").name(), "entry_missing");
        for (name, encoding, _) in SOUNDS {
            // Lookup is case-insensitive, as for the engine's bare names (`atm_rain1.wav`).
            let SoundLoad::DecodedSample(s) = SoundLoad::from_nres(&lib, &name.to_ascii_lowercase()) else {
                panic!("{name} does not decode");
            };
            assert_eq!((s.sample_rate, s.channels), (22_050, 1), "{name}");
            let source = synthesise(DEFAULT_SEED, name).unwrap();
            assert_eq!(s.samples.len(), source.len(), "{name}: frame count");
            let peak = source.iter().map(|v| i32::from(*v).abs()).max().unwrap();
            assert!((8_000..32_767).contains(&peak), "{name}: audible and unclipped, peak {peak}");
            match encoding {
                Encoding::Pcm => {
                    assert_eq!(s.format_tag, FORMAT_PCM);
                    assert_eq!(s.samples, source, "{name}: PCM is exact");
                }
                Encoding::Adpcm => {
                    assert_eq!(s.format_tag, FORMAT_MS_ADPCM);
                    let err: f64 =
                        s.samples.iter().zip(&source).map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2)).sum();
                    let sig: f64 = source.iter().map(|b| f64::from(*b).powi(2)).sum();
                    assert!(err < sig * 0.05, "{name}: ADPCM error {err:.0} vs signal {sig:.0}");
                }
            }
        }
        let pcm = SOUNDS.iter().filter(|s| s.1 == Encoding::Pcm).count();
        assert!(pcm > 0 && pcm < SOUNDS.len(), "both encodings appear");
        assert!(tree.get("sounds.lib").unwrap().len() < 1 << 20, "sounds stay small");
    }

    #[test]
    fn loops_join_without_a_click() {
        for name in ["ENG_HUM1.WAV", RAIN_LOOP] {
            let s = synthesise(DEFAULT_SEED, name).unwrap();
            let peak = s.iter().map(|v| i32::from(*v).abs()).max().unwrap();
            let jump = (i32::from(s[s.len() - 1]) - i32::from(s[0])).abs();
            let typical = s.windows(2).map(|w| (i32::from(w[1]) - i32::from(w[0])).abs()).max().unwrap();
            assert!(jump <= typical && jump < peak, "{name}: loop jump {jump}, largest step {typical}");
        }
    }

    #[test]
    fn sounds_depend_on_their_own_stream_only() {
        assert_ne!(synthesise(1, RAIN_LOOP), synthesise(2, RAIN_LOOP), "noise follows the seed");
        assert_eq!(synthesise(1, THEME), synthesise(2, THEME), "a tonal theme is seed-independent");
        assert_eq!(synthesise(1, "NOPE.WAV"), None);
    }
}
