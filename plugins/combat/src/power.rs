//! Batteries and power channels (openparkan `docs/23-economy.md`, read and measured): an
//! object whose data carries batteries (class 19: value 0 the capacity, the power figure
//! its output a second) runs a power tick every 250 ms. Its batteries give
//! `min(output × charge × condition × dt, capacity × charge × condition)`; what its parts
//! ask is served by channel in a fixed order — 3 (engines; a building's efficiency
//! parts, each its own power figure and its task's [`PowerUsage`]), 0 (repair, doors,
//! computers), 2 and 5 together (radars; shields, deflectors, armour), then 4 (turrets and
//! guns) — each channel's consumers at one level, `min(1, what is left ÷ what the
//! channel wants)`; a channel that wants nothing keeps its level. The batteries lose
//! what was used. The levels scale a radar's sensitivities, a shield's strength and
//! recharge, and what refills a gun's capacitor; a camouflage whose level no longer
//! covers its plain draw switches itself off. A unit's batteries are refilled only in a
//! dock ([`crate::docks`]); a building's by the economy's distribution step, which
//! reads channel 3's level as its efficiency's multiplier. [`Power`] itself is
//! `iron3d_core`'s, as the two subsystems share it.
//!
//! The project's: an object whose data carries no battery runs no power tick and works
//! at full power; a repair system mends at full rate
//! whatever its channel's level (its value ids are not read).

use crate::body::Body;
use crate::guns::Guns;
use crate::repair::Repair;
use crate::sensors::{Live, Stealth};
use crate::shield::Shield;
use bevy_ecs::prelude::*;
use iron3d_core::{CombatSheet, GameClock, Kinematics, MotionLimits, POWER_TICK_MS, Power, PowerUsage};

/// The order channels are served in, 2 and 5 sharing one level (read).
const SERVED: [&[usize]; 4] = [&[3], &[0], &[2, 5], &[4]];

/// One power tick of `dt` seconds on `power`: `wants[c]` is what channel `c` asks over
/// it and `condition(node)` a battery node's condition. Sets the levels and drains the
/// batteries by what was used; returns what was used.
pub fn serve(power: &mut Power, wants: [f32; 6], dt: f32, condition: impl Fn(u16) -> f32) -> f32 {
    let supply: f32 = power
        .batteries
        .iter()
        .map(|b| {
            let c = condition(b.node);
            (b.output * power.charge * c * dt).min(b.capacity * power.charge * c)
        })
        .sum();
    let mut left = supply.max(0.0);
    let mut used = 0.0;
    for group in SERVED {
        let want: f32 = group.iter().map(|&c| wants[c]).sum();
        if want <= 0.0 {
            continue;
        }
        let level = (left / want).min(1.0);
        for &c in group {
            power.levels[c] = level;
        }
        left -= want * level;
        used += want * level;
    }
    let capacity = power.capacity();
    if capacity > 0.0 {
        power.charge = (power.charge - used / capacity).max(0.0);
    }
    used
}

type Powered<'a> = (
    &'a mut Power,
    &'a Body,
    &'a CombatSheet,
    (Option<&'a Kinematics>, Option<&'a MotionLimits>),
    Option<&'a mut Guns>,
    Option<&'a mut Shield>,
    Option<&'a Repair>,
    Option<&'a Stealth>,
    Option<&'a PowerUsage>,
);

/// Runs the power tick of every object whose tick is due: what its parts ask over it
/// by channel (their power figures and their live draws), served from its batteries;
/// then its guns refill and its shield takes its level.
pub(crate) fn tick(clock: Res<GameClock>, mut objects: Query<Powered>) {
    let dt = POWER_TICK_MS as f32 / 1000.0;
    for (mut power, body, sheet, (kinematics, limits), mut guns, mut shield, repair, stealth, usage) in &mut objects {
        if !clock.reached(power.next_ms) {
            continue;
        }
        power.next_ms = clock.time_ms.wrapping_add(POWER_TICK_MS);
        let live = Live {
            body: Some(body),
            kinematics,
            limits,
            guns: guns.as_deref(),
            shield: shield.as_deref(),
            repair,
            stealth,
        };
        let (d, a) = (live.draws(sheet), sheet.figures.asks);
        // Each efficiency part draws the building's task's usage besides its own power.
        let task = usage.map_or(0.0, |u| u.0) * sheet.efficiency.len() as f32;
        let wants = [a[0] + d.misc, 0.0, a[2], a[3] + d.engine + task, a[4] + d.guns, a[5] + d.shields].map(|w| w * dt);
        serve(&mut power, wants, dt, |node| body.condition(node));
        if let Some(guns) = guns.as_mut() {
            guns.0.iter_mut().for_each(|g| g.refill(power.levels[4]));
        }
        if let Some(shield) = shield.as_mut() {
            shield.level = power.levels[5];
        }
    }
}
