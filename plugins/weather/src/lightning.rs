//! When lightning strikes (`docs/reference/runtime.md` §8.3), pure logic: while the lightning
//! intensity `I` is positive the timer draws a delay
//! `round_half_even((1 − min(I, 0.95)) · 60000 · U)` ms, strikes when it expires (X and
//! Y sampled inside the `LightningBounds`, Z copied), then waits 6000 ms before it draws
//! the next delay. At `I = 0` nothing is pending.
//!
//! `U` comes from a 15-bit random number `r` (`0..=32767`). The spec does not record its
//! normalisation; the project uses `U = r / 32767`, so `U` spans `0..=1` and the longest
//! delay is the formula's full `(1 − I) · 60000`. X and Y use the same `U` of their own
//! draws: `min + (max − min) · U`. Draw order: the delay, then X, then Y.

use crate::schedule::LightningBounds;

/// The largest 15-bit random number.
pub const RAND_MAX: u16 = 0x7FFF;
/// The wait after a strike before the next delay is drawn (ms).
pub const COOLDOWN_MS: f64 = iron3d_formats::config::sky::constants::LIGHTNING_PAUSE_MS as f64;
/// The delay at intensity 0 and `U = 1` (ms).
pub const MAX_DELAY_MS: f64 = 60000.0;
/// Intensities above this shorten the delay no further.
pub const INTENSITY_CAP: f32 = 0.95;

/// `U` of a 15-bit random number.
pub fn unit(r: u16) -> f64 {
    f64::from(r.min(RAND_MAX)) / f64::from(RAND_MAX)
}

/// The delay before a strike (ms) at intensity `intensity` for the random number `r`.
pub fn delay_ms(intensity: f32, r: u16) -> f64 {
    ((1.0 - f64::from(intensity.min(INTENSITY_CAP))) * MAX_DELAY_MS * unit(r)).round_ties_even()
}

/// Where the timer is.
#[derive(Debug, Clone, Copy, PartialEq, Default, bevy::reflect::Reflect)]
pub enum LightningPhase {
    /// No lightning (intensity 0): nothing pending.
    #[default]
    Idle,
    /// Waiting for the next strike (ms left).
    Delay(f64),
    /// Waiting after a strike (ms left) before drawing the next delay.
    Cooldown(f64),
}

/// The strike timer of one mission.
#[derive(Debug, Clone, Copy, PartialEq, Default, bevy::reflect::Reflect)]
pub struct LightningTimer {
    /// The current phase.
    pub phase: LightningPhase,
}

impl LightningTimer {
    /// Advances the timer by `dt_ms` of game time at lightning intensity `intensity`;
    /// `rand` yields 15-bit random numbers. Returns the strike position (game space) when
    /// a delay expires in this step (at most one strike per step; time left over goes
    /// into the cooldown).
    pub fn step(
        &mut self,
        dt_ms: f64,
        intensity: f32,
        bounds: &LightningBounds,
        rand: &mut impl FnMut() -> u16,
    ) -> Option<[f32; 3]> {
        if intensity <= 0.0 {
            self.phase = LightningPhase::Idle;
            return None;
        }
        let mut left = dt_ms;
        loop {
            match self.phase {
                LightningPhase::Idle => self.phase = LightningPhase::Delay(delay_ms(intensity, rand())),
                LightningPhase::Delay(ms) if ms <= left => {
                    let x = sample(bounds.min[0], bounds.max[0], rand());
                    let y = sample(bounds.min[1], bounds.max[1], rand());
                    self.phase = LightningPhase::Cooldown((COOLDOWN_MS - (left - ms)).max(0.0));
                    return Some([x, y, bounds.z]);
                }
                LightningPhase::Cooldown(ms) if ms <= left => {
                    left -= ms;
                    self.phase = LightningPhase::Idle;
                }
                LightningPhase::Delay(ms) => {
                    self.phase = LightningPhase::Delay(ms - left);
                    return None;
                }
                LightningPhase::Cooldown(ms) => {
                    self.phase = LightningPhase::Cooldown(ms - left);
                    return None;
                }
            }
        }
    }
}

fn sample(lo: f32, hi: f32, r: u16) -> f32 {
    (f64::from(lo) + f64::from(hi - lo) * unit(r)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: LightningBounds = LightningBounds { min: [100.0, -50.0], max: [300.0, 50.0], z: 12.0 };

    #[test]
    fn the_delay_formula_caps_intensity_and_rounds_half_to_even() {
        assert_eq!(delay_ms(0.0, RAND_MAX), 60000.0);
        assert_eq!(delay_ms(0.5, RAND_MAX), 30000.0);
        assert_eq!(delay_ms(1.0, RAND_MAX), delay_ms(0.95, RAND_MAX), "capped at 0.95");
        assert_eq!(delay_ms(0.95, RAND_MAX), 3000.0);
        assert_eq!(delay_ms(0.25, 0), 0.0);
        // 45000 · 16384 / 32767 = 22500.686… → 22501.
        assert_eq!(delay_ms(0.25, 16384), 22501.0);
        // Exact halves at U = 1: (1 − 59/64) · 60000 = 4687.5 → 4688 and
        // (1 − 57/64) · 60000 = 6562.5 → 6562 (to the even neighbour both ways).
        assert_eq!(delay_ms(59.0 / 64.0, RAND_MAX), 4688.0);
        assert_eq!(delay_ms(57.0 / 64.0, RAND_MAX), 6562.0);
    }

    #[test]
    fn strikes_follow_the_delays_of_a_fixed_random_sequence() {
        // Delay draws and X, Y draws interleave: delay, x, y, delay, x, y, ...
        let sequence: [u16; 9] = [32767, 0, 32767, 16384, 16384, 0, 8191, 32767, 16384];
        let mut draws = sequence.iter().copied();
        let mut rand = || draws.next().unwrap_or(RAND_MAX);
        let intensity = 0.6;
        let mut timer = LightningTimer::default();
        // Step in whole milliseconds and note when each strike falls.
        let mut strikes = Vec::new();
        for ms in 1..=80_000u32 {
            if let Some(at) = timer.step(1.0, intensity, &BOUNDS, &mut rand) {
                strikes.push((ms, at));
            }
        }
        let delays: Vec<f64> =
            [sequence[0], sequence[3], sequence[6]].iter().map(|&r| delay_ms(intensity, r)).collect();
        // The first delay is drawn on the first step and counts from its start.
        let first = delays[0];
        let second = first + COOLDOWN_MS + delays[1];
        let third = second + COOLDOWN_MS + delays[2];
        let times: Vec<u32> = strikes.iter().map(|(ms, _)| *ms).collect();
        assert_eq!(times, vec![first as u32, second as u32, third as u32]);
        assert_eq!(strikes[0].1, [100.0, 50.0, 12.0], "x at U = 0, y at U = 1, z copied");
        let mid = |lo: f32, hi: f32, r: u16| (f64::from(lo) + f64::from(hi - lo) * f64::from(r) / 32767.0) as f32;
        assert_eq!(strikes[1].1, [mid(100.0, 300.0, 16384), -50.0, 12.0]);
        assert_eq!(strikes[2].1, [300.0, mid(-50.0, 50.0, 16384), 12.0]);
    }

    #[test]
    fn no_intensity_means_nothing_pending() {
        let mut draws = 0;
        let mut rand = || {
            draws += 1;
            0
        };
        let mut timer = LightningTimer::default();
        assert_eq!(timer.step(10.0, 0.0, &BOUNDS, &mut rand), None);
        assert_eq!(timer.phase, LightningPhase::Idle);
        // U = 0: a zero delay strikes in the first step that has lightning.
        assert!(timer.step(10.0, 0.5, &BOUNDS, &mut rand).is_some());
        assert_eq!(timer.phase, LightningPhase::Cooldown(COOLDOWN_MS - 10.0));
        assert_eq!(timer.step(10.0, 0.0, &BOUNDS, &mut rand), None);
        assert_eq!(timer.phase, LightningPhase::Idle, "a calm cancels the cooldown");
        assert_eq!(draws, 3, "one delay and one position");
    }
}
