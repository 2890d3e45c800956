//! Radars, signatures and camouflage (openparkan `docs/25-sensors.md`, read and
//! measured). An object whose data carries a radar scans when its last scan is
//! older than the radar's period: every damageable object within the radar's range
//! (a sphere, no line of sight, no terrain) is a contact when, for any of its three
//! signatures — mass, electronics, drive — `sensitivity × condition × level ×
//! signature × (1 − d²/R²) ≥ 1`. The signatures are the target's mass, its area ×
//! the power it asks a second on channels 0, 2 and 5, and its volume × the power on
//! channels 0, 3 and 4, each cut by its detection shield and cut again while
//! camouflaged. The AI wears camouflage while it has hostile contacts, none within
//! 150 across the ground (measured at the scan that listed them), and has handed its
//! turret no target for 10 s.
//!
//! A radar's sensitivities and a detection shield's cuts go by their channel's power
//! level ([`crate::power`]; 1 on an object without batteries). The project's parts: a radar's first
//! scan falls at its object's id modulo its period, spreading the scans; a target whose
//! data carries no figures (an object armed by the rules file) is seen whenever it is
//! in range; the engagement check runs every tick, and starting a task does not yet
//! switch camouflage off (the original's does).

use crate::body::Body;
use crate::guns::Guns;
use crate::repair::Repair;
use crate::shield::Shield;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::Power;
use iron3d_core::{
    Aboard, ClanRelations, CombatSheet, GameClock, Kinematics, ManualControl, MotionLimits, OriginalObjectId, Owner,
    Radar, RadarContacts, RadarSheet, SimTransform, SpatialGrid, StealthSheet, TICK_MS, UnitClass,
};

/// The length of a power tick (s): what a gun's capacitor lacks is asked over one.
const POWER_TICK: f32 = iron3d_core::POWER_TICK_MS as f32 / 1000.0;
/// No hostile contact may be closer than this across the ground for the AI to
/// camouflage (read).
const CAMOUFLAGE_CLEAR: f32 = 150.0;
/// Ms since the turret was last handed a target before the AI camouflages (read).
const CAMOUFLAGE_QUIET_MS: u32 = 10_000;
/// Cell size of the grid of targets (game units).
const CELL: f32 = 128.0;

/// An object's radar and when it scans next.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Sensor {
    /// What it is.
    pub sheet: RadarSheet,
    /// Queue time of its next scan (ms).
    pub next_ms: u32,
    /// How far across the ground the nearest hostile contact of its last scan was
    /// (`None`: it listed none).
    pub hostile: Option<f32>,
}

impl Sensor {
    /// A radar of `sheet` on the object `id`, its first scan spread by the id.
    pub fn new(sheet: RadarSheet, id: u32) -> Self {
        let mut sensor = Self { sheet, next_ms: 0, hostile: None };
        sensor.next_ms = id % sensor.period_ms();
        sensor
    }

    /// How long a scan stays good (ms; at least a tick).
    fn period_ms(&self) -> u32 {
        self.sheet.period_ms.max(TICK_MS as f32) as u32
    }
}

/// An object's detection shield and its camouflage.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Stealth {
    /// What it is.
    pub sheet: StealthSheet,
    /// Camouflage is on (mode `0x1000`).
    pub camouflaged: bool,
    /// Queue time its turret was last handed a target (ms).
    pub targeted_ms: u32,
}

impl Stealth {
    /// A shield of `sheet`, camouflage off (mode `0x2000`), as the original starts it.
    pub fn new(sheet: StealthSheet) -> Self {
        Self { sheet, camouflaged: false, targeted_ms: 0 }
    }

    /// What it leaves of each signature at `condition` (its node's condition × its
    /// channel's level): `max(0, 1 − cut × condition)`, times `max(0, 1 − camouflage)`
    /// while camouflaged.
    pub fn passes(&self, condition: f32) -> [f32; 3] {
        let camouflage = if self.camouflaged { (1.0 - self.sheet.camouflage).max(0.0) } else { 1.0 };
        self.sheet.cuts.map(|cut| (1.0 - cut * condition).max(0.0) * camouflage)
    }
}

/// Whether a radar of `sheet` at `condition` sees, `d` away, a target of `signature`
/// (level 1): within range and some signature's product at least 1.
pub fn detects(sheet: &RadarSheet, condition: f32, signature: [f32; 3], d: f32) -> bool {
    sees(sheet.sensitivity.map(|s| s * condition), signature, d * d, sheet.range)
}

/// The detection test with the sensitivities already times the radar's condition, on
/// the squared distance `d2` and the range `r`.
fn sees(reach: [f32; 3], signature: [f32; 3], d2: f32, r: f32) -> bool {
    let near = if r > 0.0 { 1.0 - d2 / (r * r) } else { 0.0 };
    let best = (reach[0] * signature[0]).max(reach[1] * signature[1]).max(reach[2] * signature[2]);
    near > 0.0 && best * near >= 1.0
}

/// What a target's live state adds to its asks a second: channel 0 (repairing), 3
/// (its engine at its speed), 4 (its guns' capacitors' lack) and 5 (its shield's
/// recharge, camouflage).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Draws {
    /// Channel 0.
    pub misc: f32,
    /// Channel 3.
    pub engine: f32,
    /// Channel 4.
    pub guns: f32,
    /// Channel 5.
    pub shields: f32,
}

/// A target's signatures, mass, electronics and drive, from its figures and its
/// draws, before its detection shield.
pub fn signature(sheet: &CombatSheet, draws: Draws) -> [f32; 3] {
    let (f, a) = (&sheet.figures, &sheet.figures.asks);
    let electronics = f.area * (a[0] + a[2] + a[5] + draws.misc + draws.shields);
    let drive = f.volume * (a[0] + a[3] + a[4] + draws.misc + draws.engine + draws.guns);
    [f.mass, electronics, drive]
}

type Target<'a> = (
    (&'a OriginalObjectId, Option<&'a Owner>, Option<&'a Power>),
    &'a SimTransform,
    Option<&'a CombatSheet>,
    Option<&'a Body>,
    (Option<&'a Kinematics>, Option<&'a MotionLimits>, Option<&'a Guns>),
    (Option<&'a Shield>, Option<&'a Repair>, Option<&'a Stealth>),
);

/// An object's live parts, what their draws follow.
pub(crate) struct Live<'a> {
    pub body: Option<&'a Body>,
    pub kinematics: Option<&'a Kinematics>,
    pub limits: Option<&'a MotionLimits>,
    pub guns: Option<&'a Guns>,
    pub shield: Option<&'a Shield>,
    pub repair: Option<&'a Repair>,
    pub stealth: Option<&'a Stealth>,
}

impl Live<'_> {
    /// What the parts ask a second beyond their power figures: the engine its power
    /// × speed ÷ top speed, guns their capacitors' lack over one power tick, a shield
    /// value 2 × its recharge, a repair system value 1 × its mending, camouflage value 4.
    pub(crate) fn draws(&self, sheet: &CombatSheet) -> Draws {
        let top = self.limits.and_then(|m| m.top_speed.map(|s| s * m.speed_scale)).filter(|s| *s > 0.0);
        let engine = match (self.kinematics, top) {
            (Some(k), Some(top)) => sheet.figures.engine * (k.speed.abs() / top).min(1.0),
            _ => 0.0,
        };
        Draws {
            misc: self.repair.zip(self.body).map_or(0.0, |(r, b)| r.draw(b)),
            engine,
            guns: self.guns.map_or(0.0, |g| g.0.iter().map(|g| g.lack()).sum::<f32>() / POWER_TICK),
            shields: self.shield.zip(self.body).map_or(0.0, |(s, b)| s.draw(b))
                + self.stealth.filter(|s| s.camouflaged).map_or(0.0, |s| s.sheet.camouflage_power),
        }
    }
}

/// A target's signatures after its shield; infinite when its data carries no figures
/// (seen whenever it is in range).
fn seen_signature(target: &Target<'_>) -> [f32; 3] {
    let ((_, _, power), _, sheet, body, (kinematics, limits, guns), (shield, repair, stealth)) = *target;
    let Some(sheet) = sheet else { return [f32::INFINITY; 3] };
    let live = Live { body, kinematics, limits, guns, shield, repair, stealth };
    let raw = signature(sheet, live.draws(sheet));
    let level = power.map_or(1.0, |p| p.levels[5]);
    let passes = match stealth {
        Some(s) => s.passes(body.map_or(1.0, |b| b.condition(s.sheet.node)) * level),
        None => [1.0; 3],
    };
    [raw[0] * passes[0], raw[1] * passes[1], raw[2] * passes[2]]
}

/// What a scan needs of a target, packed.
struct Blip {
    id: u32,
    clan: Option<i32>,
    position: [f32; 3],
    signature: [f32; 3],
}

type Scanner<'a> = (
    (&'a OriginalObjectId, Option<&'a Owner>, Option<&'a Power>),
    &'a SimTransform,
    &'a Body,
    &'a mut Sensor,
    &'a mut RadarContacts,
);

/// Runs every radar whose scan is due, in `OriginalObjectId` order, writes what it sees
/// into its object's [`RadarContacts`] and notes how near the nearest hostile one is.
pub(crate) fn scan(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    targets: Query<Target, (With<iron3d_core::Health>, Without<Aboard>)>,
    mut radars: Query<Scanner, Without<Aboard>>,
) {
    let mut due: Vec<_> = radars.iter_mut().filter(|r| clock.reached(r.3.next_ms)).collect();
    if due.is_empty() {
        return;
    }
    due.sort_unstable_by_key(|r| *r.0.0);
    let mut all: Vec<Blip> = targets
        .iter()
        .map(|t| Blip {
            id: t.0.0.0,
            clan: t.0.1.map(|o| o.clan),
            position: t.1.position,
            signature: seen_signature(&t),
        })
        .collect();
    all.sort_unstable_by_key(|t| t.id);
    let boxes: Vec<[[f32; 2]; 2]> = all.iter().map(|t| [[t.position[0], t.position[1]]; 2]).collect();
    let grid = SpatialGrid::build(&boxes, CELL);
    // What a scan detected, one bit per target, read out in id order.
    let mut marks = vec![0u64; all.len().div_ceil(64)];
    let mut found = Vec::new();
    for ((id, owner, power), at, body, mut sensor, mut contacts) in due {
        sensor.next_ms = clock.time_ms.wrapping_add(sensor.period_ms());
        contacts.0.clear();
        // Sensitivities go by the node's condition and channel 2's level.
        let condition = body.condition(sensor.sheet.node) * power.map_or(1.0, |p| p.levels[2]);
        let r = sensor.sheet.range;
        let mut nearest = f32::INFINITY;
        if condition > 0.0 && r > 0.0 {
            let reach = sensor.sheet.sensitivity.map(|s| s * condition);
            let p = at.position;
            found.clear();
            grid.query([p[0] - r, p[1] - r], [p[0] + r, p[1] + r], &mut found);
            let (mut first, mut last) = (usize::MAX, 0);
            for &i in &found {
                let (i, t) = (i as usize, &all[i as usize]);
                let d = [t.position[0] - p[0], t.position[1] - p[1], t.position[2] - p[2]];
                if t.id == id.0 || !sees(reach, t.signature, d[0] * d[0] + d[1] * d[1] + d[2] * d[2], r) {
                    continue;
                }
                marks[i / 64] |= 1 << (i % 64);
                (first, last) = (first.min(i / 64), last.max(i / 64));
                if owner.zip(t.clan).is_some_and(|(o, c)| relations.hostile(o.clan, c)) {
                    nearest = nearest.min(d[0] * d[0] + d[1] * d[1]);
                }
            }
            for w in first..=last {
                let mut bits = std::mem::take(&mut marks[w]);
                while bits != 0 {
                    contacts.0.push(all[w * 64 + bits.trailing_zeros() as usize].id);
                    bits &= bits - 1;
                }
            }
        }
        sensor.hostile = nearest.is_finite().then(|| nearest.sqrt());
    }
}

/// The AI's engagement check for camouflage: on while its object's last scan listed
/// a hostile, none within 150 across the ground, and its turret was handed no target
/// for 10 s; off otherwise, and off while its channel's level × (its power + value 4)
/// is under its power. A building never wears it, nor a neutral clan's machine (no
/// clan is hostile to it). A machine the player drives wears it as the player switches
/// it (`PilotInput::camouflage`, the original's `CMD_CAMOUFLAGE_WEAR` toggle): the
/// engagement check leaves it alone (the project's reading), the power's self-off does not.
pub(crate) fn camouflage(
    clock: Res<GameClock>,
    mut wearers: Query<(&Sensor, &UnitClass, Option<&Radar>, Option<&Power>, Option<&ManualControl>, &mut Stealth)>,
) {
    for (sensor, class, radar, power, manual, mut stealth) in &mut wearers {
        if radar.is_some_and(|r| r.target.is_some()) {
            stealth.targeted_ms = clock.time_ms;
        }
        let quiet = clock.time_ms.wrapping_sub(stealth.targeted_ms) >= CAMOUFLAGE_QUIET_MS;
        let clear = sensor.hostile.is_some_and(|d| d > CAMOUFLAGE_CLEAR);
        // It switches itself off when its channel's level no longer covers its plain draw.
        let (own, extra) = (stealth.sheet.power, stealth.sheet.camouflage_power);
        let powered = power.is_none_or(|p| p.levels[5] * (own + extra) >= own);
        // The player's switch while he fights the unit (auto-driver level 2: the AI's).
        let wanted = match manual.filter(|m| m.fights()) {
            Some(m) => stealth.camouflaged != (m.tick == clock.tick && m.input.camouflage),
            None => clear && quiet,
        };
        let wear = wanted && powered && stealth.sheet.camouflage > 0.0 && !crate::arm::is_building(class.0);
        if stealth.camouflaged != wear {
            stealth.camouflaged = wear;
        }
    }
}
