//! Guns as the original runs them (openparkan `docs/29-weapons.md`, read and measured):
//! a shot needs the gun's node alive, a round in the magazine (−1 is unlimited) and
//! the shot's energy in the capacitor (unless it has none); it starts a barrel stroke,
//! the round leaves halfway through it, the capacitor pays and the magazine loses one,
//! and the gun waits its interval after the stroke. A gun does not fire at a target
//! beyond its round's range. The capacitor refills from its object's power tick by
//! what it lacks × channel 4's level ([`crate::power`]); an object without batteries
//! refills it whole every tick (the project's: full power).
//!
//! The player's fire reaches only the selected guns: a gun whose round carries frame
//! flag 4 starts selected, the hero's others start deselected and any other machine's
//! selected; a number key toggles its gun and 0 selects them all. A gun on an arm is
//! ready only once its arm is out, 0.5 s after it is selected, and stops being ready as
//! it folds (`docs/29-weapons.md`, "The button reaches the selected guns", read).
//!
//! A gun fires only at a target within its gate: its round's range, or its seeker's
//! reach when shorter; a guided gun (one whose round has a seeker) only within the
//! seeker's cone off the barrel, after holding that target for the seeker's lock, which
//! counts down while the gun is ready and starts again with each stroke, each new target
//! and each time the target leaves the gate (`docs/29-weapons.md`, "A guided gun waits
//! for a lock", read).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{
    CommandQueue, GameClock, GunSheet, ManualControl, ObjectTable, Order, RoundSheet, TICK_MS, UnitClass,
};

/// The barrel stroke of a gun whose data names no barrel channel with a rate (ms; the
/// project's: the hero's cannon's and laser's, whose channels run at 4 a second,
/// measured). A gun of the data strokes for 1000 ÷ its first barrel channel's rate
/// ([`iron3d_core::GunSheet::stroke_ms`]; the project's: every barrel strokes as the
/// first).
pub const STROKE_MS: f32 = 250.0;

/// An arm unfolds or folds whole in 0.5 s (its channels run at 2 a second, measured).
const ARM_PER_MS: f32 = 1.0 / 500.0;

/// One gun's state.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct GunState {
    /// What it is.
    pub sheet: GunSheet,
    /// Its stroke (ms; 0 for a gun of the rules file).
    pub stroke_ms: f32,
    /// Rounds left (−1 unlimited).
    pub magazine: i32,
    /// Capacitor charge.
    pub charge: f32,
    /// Ms until its round leaves (during a stroke).
    pub release_ms: Option<f32>,
    /// Ms until it may start its next stroke.
    pub wait_ms: f32,
    /// Its next barrel.
    pub barrel: u16,
    /// The difficulty ratio its rounds hit by.
    pub ratio: f32,
    /// Ms until the AI may fire it again ([`crate::next_wait_ms`]).
    pub ai_wait_ms: f32,
    /// Whether the player's fire reaches it.
    pub selected: bool,
    /// How far its arm is out, 0..1 (1 for a gun without an arm).
    pub arm: f32,
    /// A guided gun's lock left (seconds).
    pub lock: f32,
    /// The target its lock counts for.
    pub lock_on: Option<u32>,
}

impl GunState {
    /// A loaded gun with a full capacitor.
    pub fn new(sheet: GunSheet, stroke_ms: f32, ratio: f32) -> Self {
        Self {
            sheet,
            stroke_ms,
            magazine: sheet.magazine,
            charge: sheet.capacitor,
            release_ms: None,
            wait_ms: 0.0,
            barrel: 0,
            ratio,
            ai_wait_ms: 0.0,
            selected: true,
            arm: if sheet.arm { 0.0 } else { 1.0 },
            lock: sheet.round.lock_seconds().unwrap_or(0.0),
            lock_on: None,
        }
    }

    /// The gate a ready gun passes before it may fire at `target`, `reach` away across
    /// the ground (less its radius), `off` radians off the barrel: within the range gate
    /// and a seeker's cone, the lock counted down by a tick first; outside them the lock
    /// starts again.
    pub fn gate(&mut self, target: u32, reach: f32, off: f32) -> bool {
        let round = self.sheet.round;
        let full = round.lock_seconds().unwrap_or(0.0);
        if self.lock_on != Some(target) {
            (self.lock_on, self.lock) = (Some(target), full);
        }
        if reach > round.gate() || round.seeker.is_some_and(|s| off > s.cone) {
            self.lock = full;
            return false;
        }
        if self.lock > 0.0 {
            self.lock -= TICK_MS as f32 / 1000.0;
            return false;
        }
        true
    }

    /// How far its lock has come, 0..1 (the HUD's share: 1 without a lock).
    pub fn lock_share(&self) -> f32 {
        self.sheet.round.lock_seconds().map_or(1.0, |full| (1.0 - self.lock / full).clamp(0.0, 1.0))
    }

    /// Whether it is selected when the player takes its unit: its round carries flag 4,
    /// or the unit is not the hero.
    pub fn starts_selected(&self, hero: bool) -> bool {
        self.sheet.round.flags & RoundSheet::STARTS_SELECTED != 0 || !hero
    }

    /// What one round hits for: the level ratio times its hit points and its
    /// explosion's damage (openparkan `docs/26-damage.md`, read).
    pub fn round_damage(&self) -> f32 {
        self.ratio * (self.sheet.round.hit_points + self.sheet.round.hit.damage)
    }

    /// A round's life: the level ratio times its hit points.
    pub fn round_life(&self) -> f32 {
        self.ratio * self.sheet.round.hit_points
    }

    /// What its capacitor lacks of full (0 for a gun without one).
    pub fn lack(&self) -> f32 {
        (self.sheet.capacitor - self.charge).max(0.0)
    }

    /// Whether it may start a stroke now: its arm out, rounds left and the shot's energy
    /// held.
    pub fn ready(&self) -> bool {
        self.arm >= 1.0
            && self.release_ms.is_none()
            && self.wait_ms <= 0.0
            && self.magazine != 0
            && (self.sheet.capacitor <= 0.0 || self.charge >= self.sheet.shot_energy)
    }

    /// Starts a stroke (call when [`Self::ready`] and its target is in its sights);
    /// returns the rounds that leave at once (a gun without a stroke). A wait that
    /// ended within the last tick counts toward the stroke, as the original's time
    /// driver catches up on the events a frame held.
    pub fn trigger(&mut self) -> u16 {
        let release = self.stroke_ms / 2.0 + self.wait_ms.min(0.0);
        self.wait_ms = 0.0;
        self.lock = self.sheet.round.lock_seconds().unwrap_or(0.0);
        if release > 0.0 {
            self.release_ms = Some(release);
            0
        } else {
            self.release(-release)
        }
    }

    /// Refills the capacitor by what it lacks × `level` (its channel's).
    pub fn refill(&mut self, level: f32) {
        self.charge += self.lack() * level;
    }

    /// Advances one tick; returns how many rounds leave in it.
    pub fn tick(&mut self) -> u16 {
        let dt = TICK_MS as f32;
        if self.sheet.arm {
            let step = if self.selected { dt } else { -dt } * ARM_PER_MS;
            self.arm = (self.arm + step).clamp(0.0, 1.0);
        }
        self.wait_ms -= dt;
        self.ai_wait_ms = (self.ai_wait_ms - dt).max(0.0);
        match self.release_ms.map(|r| r - dt) {
            Some(left) if left > 0.0 => {
                self.release_ms = Some(left);
                0
            }
            Some(left) => self.release(-left),
            None => {
                self.wait_ms = self.wait_ms.max(-dt);
                0
            }
        }
    }

    /// The round leaves `late` ms after its time: the capacitor pays, the magazine
    /// loses one, and the stroke's second half and the interval follow (less `late`);
    /// one round, or every barrel's at once for a volley gun.
    fn release(&mut self, late: f32) -> u16 {
        self.release_ms = None;
        self.wait_ms = self.stroke_ms / 2.0 + self.sheet.interval_ms - late;
        if self.magazine > 0 {
            self.magazine -= 1;
        }
        if self.sheet.capacitor > 0.0 {
            self.charge -= self.sheet.shot_energy;
        }
        let barrels = self.sheet.barrels.max(1);
        if self.sheet.volley {
            barrels
        } else {
            self.barrel = (self.barrel + 1) % barrels;
            1
        }
    }
}

/// An object's guns, in component order.
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Guns(pub Vec<GunState>);

impl Guns {
    /// Selects the guns that start selected when the player takes the unit (`hero`: it is
    /// the hero) and deselects the others.
    pub fn start_selection(&mut self, hero: bool) {
        for gun in &mut self.0 {
            gun.selected = gun.starts_selected(hero);
        }
    }

    /// A weapon key: 0 selects every gun, *n* toggles the *n*-th (a number past the list
    /// does nothing).
    pub fn select(&mut self, key: u8) {
        match key.checked_sub(1) {
            None => self.0.iter_mut().for_each(|g| g.selected = true),
            Some(n) => {
                if let Some(gun) = self.0.get_mut(usize::from(n)) {
                    gun.selected = !gun.selected;
                }
            }
        }
    }
}

/// The player's hand-overs and weapon keys of this tick: a unit he took this tick gets its
/// starting set (the original picks it whenever a unit is handed to the player, read),
/// then each [`Order::SelectWeapon`] reaches the guns of its units he drives, in the
/// queue's order.
pub(crate) fn select(
    clock: Res<GameClock>,
    table: Res<ObjectTable>,
    mut queue: ResMut<CommandQueue>,
    mut units: Query<(&mut Guns, &ManualControl, Option<&UnitClass>)>,
) {
    for (mut guns, manual, class) in &mut units {
        if manual.since == clock.tick {
            guns.start_selection(class.is_some_and(|c| c.is_hero()));
        }
    }
    for command in queue.take_due_where(clock.tick, |o| matches!(o, Order::SelectWeapon(_))) {
        let Order::SelectWeapon(key) = command.order else { continue };
        for id in &command.units {
            if let Some((mut guns, ..)) = table.entity_of(*id).and_then(|e| units.get_mut(e).ok()) {
                guns.select(key);
            }
        }
    }
}
