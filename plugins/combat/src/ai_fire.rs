//! How the AI fires (openparkan `docs/29-weapons.md`, read, and `gameplay.md` §6.3): a
//! gun it drives fires when its random timer has run out and, unless a task (an attack
//! order) makes it fire on the timer alone, when the round's distance score clears the
//! bar: 0.85 for a machine that moves at 0.5 a second or more and for a building, 0.45
//! for one that does not. A round of more than 10 000 damage is fired at buildings only.
//! The aim factors are 1 once the turret points within `AIM_TOLERANCE` (the project's:
//! the gun's own aim share is not modelled).

use crate::guns::GunState;
use iron3d_core::RandomStream;

/// Damage above which a round is fired at buildings only (read).
pub const HEAVY_ROUND: f32 = 10_000.0;
/// The score bars (read).
pub const MOVING_BAR: f32 = 0.85;
/// The bar of a machine whose live top speed is under [`iron3d_core::ORDERABLE_SPEED`]
/// (and of a flyer).
pub const STILL_BAR: f32 = 0.45;
/// Distance over which the score rises from 0 to 1 (read; the linear shape is
/// openparkan's guess).
const RISE: f32 = 5.0;

/// A round's distance score at `distance` and `height` (the target above or below):
/// frame flag 0x10 scores 1.1 and flag 8 scores 1 anywhere; else it rises to 1 over the
/// first 5 units, holds to `(v + 1) / 2`, falls linearly to 0 at `2 (v + 1)`, then
/// × `(1 − height / v)`. A round of speed 0 (the project's instant beams) scores 1.
pub fn distance_score(flags: u32, speed: f32, distance: f32, height: f32) -> f32 {
    if flags & 0x10 != 0 {
        return 1.1;
    }
    if flags & 8 != 0 || speed <= 0.0 {
        return 1.0;
    }
    let (full, zero) = ((speed + 1.0) / 2.0, 2.0 * (speed + 1.0));
    let band = if distance < RISE {
        distance / RISE
    } else if distance <= full {
        1.0
    } else {
        ((zero - distance) / (zero - full)).max(0.0)
    };
    band * (1.0 - height.abs() / speed).max(0.0)
}

/// The wait before the AI fires a gun again, ms (read): a gun of more than two rounds
/// `30 ÷ magazine` s plus up to as much again, any other (an unlimited one too) 0.5 s
/// plus up to 1.5 s.
pub fn next_wait_ms(magazine: i32, random: &mut RandomStream) -> f32 {
    let unit = random.fraction();
    if magazine > 2 {
        let base = 30_000.0 / magazine as f32;
        base + unit * base
    } else {
        500.0 + unit * 1500.0
    }
}

/// Whether the AI fires `gun` at a target `distance` away and `height` above: a task
/// fires on the timer alone; else the score must clear `bar`.
pub fn allows(gun: &GunState, ordered: bool, bar: f32, distance: f32, height: f32, building: bool) -> bool {
    if gun.ai_wait_ms > 0.0 || gun.round_damage() > HEAVY_ROUND && !building {
        return false;
    }
    let round = &gun.sheet.round;
    ordered || distance_score(round.flags, round.speed, distance, height) > bar
}
