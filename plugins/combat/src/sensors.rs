//! Radars, signatures and camouflage (openparkan `docs/25-sensors.md`, read and
//! measured). An object whose data carries a radar scans when its last scan is
//! older than the radar's period: every damageable object within the radar's range
//! (a sphere, no line of sight, no terrain) is a contact when, for any of its three
//! signatures — mass, electronics, drive — `sensitivity × condition × level ×
//! signature × (1 − d²/R²) ≥ 1`. The signatures are the target's mass, its area ×
//! the power it asks a second on channels 0, 2 and 5, and its volume × the power on
//! channels 0, 3 and 4, each cut by its detection shield and cut again while
//! camouflaged. The AI wears camouflage while it has hostile contacts, none within
//! 150 across the ground, and has handed its turret no target for 10 s.
//!
//! The project's parts: every power level is 1 (batteries and power channels are to
//! come), so a camouflage never switches itself off for want of power; a radar's first
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
use iron3d_core::plane::dist;
use iron3d_core::{
    ClanRelations, CombatSheet, Contacts, GameClock, Kinematics, MotionLimits, ObjectTable, OriginalObjectId, Owner,
    Radar, RadarSheet, SimTransform, SpatialGrid, StealthSheet, TICK_MS, UnitClass,
};

/// The length of a power tick (s; `Control.dll:0x1000c756`, read): what a gun's
/// capacitor lacks is asked over one.
const POWER_TICK: f32 = 0.25;
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
}

impl Sensor {
    /// A radar of `sheet` on the object `id`, its first scan spread by the id.
    pub fn new(sheet: RadarSheet, id: u32) -> Self {
        let period = sheet.period_ms.max(TICK_MS as f32) as u32;
        Self { sheet, next_ms: id % period }
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

    /// What it leaves of each signature: `max(0, 1 − cut × condition × level)`, times
    /// `max(0, 1 − camouflage)` while camouflaged (level 1).
    pub fn passes(&self, condition: f32) -> [f32; 3] {
        let camouflage = if self.camouflaged { (1.0 - self.sheet.camouflage).max(0.0) } else { 1.0 };
        self.sheet.cuts.map(|cut| (1.0 - cut * condition).max(0.0) * camouflage)
    }
}

/// Whether a radar of `sheet` at `condition` sees, `d` away, a target of `signature`
/// (level 1): within range and some signature's product at least 1.
pub fn detects(sheet: &RadarSheet, condition: f32, signature: [f32; 3], d: f32) -> bool {
    let r = sheet.range;
    if d >= r || r <= 0.0 {
        return false;
    }
    let near = 1.0 - d * d / (r * r);
    sheet.sensitivity.iter().zip(signature).any(|(s, g)| s * condition * g * near >= 1.0)
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
    &'a OriginalObjectId,
    &'a SimTransform,
    Option<&'a CombatSheet>,
    Option<&'a Body>,
    (Option<&'a Kinematics>, Option<&'a MotionLimits>, Option<&'a Guns>),
    (Option<&'a Shield>, Option<&'a Repair>, Option<&'a Stealth>),
);

/// A target's signatures after its shield; `None` when its data carries no figures.
fn seen_signature(target: &Target<'_>) -> Option<[f32; 3]> {
    let (_, _, sheet, body, (kinematics, limits, guns), (shield, repair, stealth)) = *target;
    let sheet = sheet?;
    let top = limits.and_then(|m| m.top_speed.map(|s| s * m.speed_scale)).filter(|s| *s > 0.0);
    let engine = match (kinematics, top) {
        (Some(k), Some(top)) => sheet.figures.engine * (k.speed.abs() / top).min(1.0),
        _ => 0.0,
    };
    let draws = Draws {
        misc: repair.zip(body).map_or(0.0, |(r, b)| r.draw(b)),
        engine,
        guns: guns.map_or(0.0, |g| g.0.iter().map(|g| g.lack()).sum::<f32>() / POWER_TICK),
        shields: shield.zip(body).map_or(0.0, |(s, b)| s.draw(b))
            + stealth.filter(|s| s.camouflaged).map_or(0.0, |s| s.sheet.camouflage_power),
    };
    let raw = signature(sheet, draws);
    let passes = match (stealth, body) {
        (Some(s), Some(b)) => s.passes(b.condition(s.sheet.node)),
        (Some(s), None) => s.passes(1.0),
        _ => [1.0; 3],
    };
    Some([raw[0] * passes[0], raw[1] * passes[1], raw[2] * passes[2]])
}

fn distance(a: &SimTransform, b: &SimTransform) -> f32 {
    let d = [a.position[0] - b.position[0], a.position[1] - b.position[1], a.position[2] - b.position[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// Runs every radar whose scan is due, in `OriginalObjectId` order, and writes what it
/// sees into its object's [`Contacts`].
pub(crate) fn scan(
    clock: Res<GameClock>,
    targets: Query<Target, With<iron3d_core::Health>>,
    mut radars: Query<(&OriginalObjectId, &SimTransform, &Body, &mut Sensor, &mut Contacts)>,
) {
    let mut due: Vec<_> = radars.iter_mut().filter(|r| clock.reached(r.3.next_ms)).collect();
    if due.is_empty() {
        return;
    }
    due.sort_unstable_by_key(|r| *r.0);
    let mut all: Vec<Target> = targets.iter().collect();
    all.sort_unstable_by_key(|t| *t.0);
    let boxes: Vec<[[f32; 2]; 2]> = all.iter().map(|t| [[t.1.position[0], t.1.position[1]]; 2]).collect();
    let grid = SpatialGrid::build(&boxes, CELL);
    let mut signatures: Vec<Option<Option<[f32; 3]>>> = vec![None; all.len()];
    let mut found = Vec::new();
    for (id, at, body, mut sensor, mut contacts) in due {
        let period = sensor.sheet.period_ms.max(TICK_MS as f32) as u32;
        sensor.next_ms = clock.time_ms.wrapping_add(period);
        contacts.0.clear();
        let condition = body.condition(sensor.sheet.node);
        if condition <= 0.0 {
            continue;
        }
        let r = sensor.sheet.range;
        let here = [at.position[0], at.position[1]];
        found.clear();
        grid.query([here[0] - r, here[1] - r], [here[0] + r, here[1] + r], &mut found);
        found.sort_unstable();
        for &i in &found {
            let i = i as usize;
            let target = &all[i];
            if target.0 == id {
                continue;
            }
            let d = distance(at, target.1);
            let seen = match *signatures[i].get_or_insert_with(|| seen_signature(target)) {
                Some(g) => detects(&sensor.sheet, condition, g, d),
                None => d < r,
            };
            if seen {
                contacts.0.push(target.0.0);
            }
        }
    }
}

/// The AI's engagement check for camouflage: on while its object has hostile
/// contacts, none within 150 across the ground, and its turret was handed no target
/// for 10 s; off otherwise. A building never wears it, nor a neutral clan's machine
/// (no clan is hostile to it).
pub(crate) fn camouflage(
    clock: Res<GameClock>,
    relations: Res<ClanRelations>,
    table: Res<ObjectTable>,
    places: Query<(&Owner, &SimTransform)>,
    mut wearers: Query<(&Owner, &SimTransform, &Contacts, &UnitClass, Option<&Radar>, &mut Stealth)>,
) {
    for (owner, at, contacts, class, radar, mut stealth) in &mut wearers {
        if radar.is_some_and(|r| r.target.is_some()) {
            stealth.targeted_ms = clock.time_ms;
        }
        let here = [at.position[0], at.position[1]];
        let mut hostile = contacts
            .0
            .iter()
            .filter_map(|&c| places.get(table.entity_of(c)?).ok())
            .filter(|(o, _)| relations.hostile(owner.clan, o.clan))
            .map(|(_, t)| dist(here, [t.position[0], t.position[1]]))
            .peekable();
        let listed = hostile.peek().is_some();
        let clear = hostile.all(|d| d > CAMOUFLAGE_CLEAR);
        let quiet = clock.time_ms.wrapping_sub(stealth.targeted_ms) >= CAMOUFLAGE_QUIET_MS;
        let wear = listed && clear && quiet && stealth.sheet.camouflage > 0.0 && !crate::arm::is_building(class.0);
        if stealth.camouflaged != wear {
            stealth.camouflaged = wear;
        }
    }
}
