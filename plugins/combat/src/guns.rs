//! Guns as the original runs them (openparkan `docs/29-weapons.md`, read and measured):
//! a shot needs the gun's node alive, a round in the magazine (−1 is unlimited) and
//! the shot's energy in the capacitor (unless it has none); it starts a barrel stroke,
//! the round leaves halfway through it, the capacitor pays and the magazine loses one,
//! and the gun waits its interval after the stroke. A gun does not fire at a target
//! beyond its round's range. The capacitor refills from its object's power tick by
//! what it lacks × channel 4's level ([`crate::power`]); an object without batteries
//! refills it whole every tick (the project's: full power).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{GunSheet, TICK_MS};

/// The barrel stroke of a gun whose data names no barrel channel with a rate (ms; the
/// project's: the hero's cannon's and laser's, whose channels run at 4 a second,
/// measured). A gun of the data strokes for 1000 ÷ its first barrel channel's rate
/// ([`iron3d_core::GunSheet::stroke_ms`]; the project's: every barrel strokes as the
/// first).
pub const STROKE_MS: f32 = 250.0;

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
        }
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

    /// Whether it may start a stroke now: rounds left and the shot's energy held.
    pub fn ready(&self) -> bool {
        self.release_ms.is_none()
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
