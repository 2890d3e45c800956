//! Animals (`gameplay.md` §1.4; openparkan `docs/31-packages.md`, "Migrate" and "A hit
//! pulls a unit in", read): an animal without an order migrates (the original's order
//! 15). Its clan grazes one pasture at a time, re-picked at random when an animal asks
//! after the clan's timer ran out; the animal walks to random points of it and stands
//! at each, and it fires at nothing while it grazes. It attacks a hostile machine that
//! comes within the pasture's inner radius while it stands strictly inside the outer
//! one, and whoever hits it; each such attack ends after a time or outside a circle
//! about the pasture's centre, and the animal migrates again. An attacking animal
//! takes no other interrupt.
//!
//! Not done: the attack's own manoeuvre timers (5 + 5 s, 4 + 4 s, straight at the
//! target on 30 % of picks) and a flyer's height over the ground (45–95 m); an
//! animal's attack closes in to its weapon's range as every attack does.

use crate::navigator::Walker;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::plane::dist;
use iron3d_core::{
    ClanRelations, ClearWizardPath, GameClock, Health, LastHit, MissionClans, Movable, NavState, Order,
    OriginalObjectId, Owner, Pasture, RandomStream, SimRandom, SimTransform, TICK_MS, Weapon,
};
use iron3d_terrain::NavMap;
use std::collections::BTreeMap;

/// A clan's pasture is re-picked this long after the last pick, plus a random share
/// of [`PASTURE_RANDOM_TICKS`] (937 and 1 875 ticks of 64 ms: 60 s plus up to 120 s).
const PASTURE_FIXED_TICKS: u32 = 937;
/// See [`PASTURE_FIXED_TICKS`].
const PASTURE_RANDOM_TICKS: u32 = 1875;
/// The migration's long timer: the animal asks for the pasture again (60 s + 0..120 s).
const LONG_TIMER_S: (u32, u32) = (60, 120);
/// The migration's short timer: how long it stands at a point (5 s + 0..10 s).
const SHORT_TIMER_S: (u32, u32) = (5, 10);
/// The pause between two interrupts a unit lets through (2 s + 0..3 s).
const INTERRUPT_PAUSE_S: (u32, u32) = (2, 3);
/// A walk point's offsets are at least this share of the inner radius.
const POINT_MIN_SHARE: f32 = 0.2;
/// Points drawn before the walk gives up for this time.
const POINT_TRIES: u32 = 50;
/// `rand()`'s largest value (the original's C library).
pub(crate) const RAND_MAX: u32 = 32767;
/// An engagement's attack: its time and how far past the outer radius it may go.
const ENGAGEMENT_LIMIT: (u32, f32) = (20, 80.0);
/// The circle about where it stands of an attack a unit without a pasture answers a
/// hit with (a stopped unit's answer).
const STANDING_CIRCLE: f32 = 1000.0;

/// Each clan's current pasture (the system areal map's migration areal per clan).
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Pastures {
    /// Clan → its pasture now (index into its zones) and when it may change.
    pub clans: BTreeMap<i32, ClanPasture>,
}

/// One clan's current pasture.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct ClanPasture {
    /// The pasture, by zone index (`None` before the first question).
    pub current: Option<u32>,
    /// Queue time after which the next question picks again.
    pub until_ms: u32,
}

/// An animal's migration task and the limit of the attack it let through.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Migration {
    /// The task has started (it starts again whenever the animal returns to it).
    pub started: bool,
    /// The pasture it grazes, by zone index of its clan.
    pub pasture: Option<u32>,
    /// When it asks for the pasture again.
    pub long_until_ms: u32,
    /// When it may walk on from where it stands.
    pub short_until_ms: u32,
    /// Until when it lets no interrupt through.
    pub pause_until_ms: u32,
    /// The tick of the last hit it answered.
    pub answered_hit: u32,
    /// The attack it is in, and where that attack ends.
    pub attack: Option<AttackLimit>,
}

/// Where an animal's attack ends: past its time or outside its circle.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct AttackLimit {
    /// The target.
    pub target: u32,
    /// Queue time it ends at (`None`: no time limit).
    pub until_ms: Option<u32>,
    /// Centre and radius of its circle, in three dimensions (`None`: no circle).
    pub circle: Option<([f32; 3], f32)>,
}

impl AttackLimit {
    fn passed(&self, clock: &GameClock, position: [f32; 3]) -> bool {
        let late = self.until_ms.is_some_and(|t| clock.reached(t));
        let out = self.circle.is_some_and(|(c, r)| {
            let d = [position[0] - c[0], position[1] - c[1], position[2] - c[2]];
            (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() > r
        });
        late || out
    }
}

/// Forgets the pastures of the last mission.
pub(crate) fn reset(mut pastures: ResMut<Pastures>) {
    pastures.clans.clear();
}

/// `rand()` of the original's C library (0..=32767).
pub(crate) fn rand(stream: &mut RandomStream) -> u32 {
    stream.below(RAND_MAX + 1)
}

/// The clans' pastures and the clock: what every animal asks.
#[derive(bevy_ecs::system::SystemParam)]
pub(crate) struct Grazing<'w> {
    clock: Res<'w, GameClock>,
    clans: Option<Res<'w, MissionClans>>,
    relations: Res<'w, ClanRelations>,
    nav: Option<Res<'w, NavMap>>,
    pastures: ResMut<'w, Pastures>,
    random: ResMut<'w, SimRandom>,
}

impl Grazing<'_> {
    fn zones(&self, clan: i32) -> &[Pasture] {
        let clans = self.clans.as_deref().map_or(&[][..], |c| &c.clans[..]);
        usize::try_from(clan).ok().and_then(|i| clans.get(i)).map_or(&[], |c| &c.pastures[..])
    }

    /// The clan's pasture now: picked again (`rand() % zones`, maybe the same) when the
    /// clan's timer has run out, at once on the first question; none for a clan without
    /// zones (the original logs a migration place error, and its animals graze on the
    /// spot).
    fn ask(&mut self, clan: i32) -> Option<u32> {
        let count = self.zones(clan).len() as u32;
        if count == 0 {
            return None;
        }
        let entry = self.pastures.clans.entry(clan).or_default();
        if entry.current.is_none() || self.clock.reached(entry.until_ms) {
            let shared = &mut self.random.shared;
            entry.current = Some(rand(shared) % count);
            let ticks = PASTURE_FIXED_TICKS + PASTURE_RANDOM_TICKS * rand(shared) / RAND_MAX;
            entry.until_ms = self.clock.time_ms.wrapping_add(ticks * TICK_MS);
        }
        entry.current
    }

    fn pasture(&self, clan: i32, index: Option<u32>) -> Option<Pasture> {
        self.zones(clan).get(index? as usize).copied()
    }

    /// A point of the pasture to walk to: its centre plus (u, v) × inner radius, u and v
    /// each `rand() / 32767` held to at least 0.2 (so always on the +x, +y side), the
    /// first of up to 50 that lies in an areal.
    fn point(&mut self, p: Pasture) -> Option<[f32; 2]> {
        for _ in 0..POINT_TRIES {
            let shared = &mut self.random.shared;
            let mut share = || (rand(shared) as f32 / RAND_MAX as f32).max(POINT_MIN_SHARE);
            let (u, v) = (share(), share());
            let q = [p.centre[0] + u * p.inner, p.centre[1] + v * p.inner];
            if self.nav.as_ref().is_none_or(|n| n.walkable(q[0], q[1])) {
                return Some(q);
            }
        }
        None
    }

    /// A timer's deadline: `fixed` seconds plus a random share of `random` seconds.
    fn timer(&mut self, (fixed, random): (u32, u32)) -> u32 {
        let extra = random * 1000 * rand(&mut self.random.shared) / RAND_MAX;
        self.clock.time_ms.wrapping_add(fixed * 1000 + extra)
    }
}

/// An object an animal may attack or answer.
#[derive(Clone, Copy)]
struct Contact {
    id: u32,
    clan: i32,
    position: [f32; 3],
    /// A machine (the radar lists no building).
    machine: bool,
}

/// How far an attack an animal lets through may go: a time and a circle.
#[derive(Clone, Copy)]
struct Reach {
    seconds: Option<u32>,
    circle: Option<([f32; 3], f32)>,
}

impl Reach {
    fn limit(self, target: u32, clock: &GameClock) -> AttackLimit {
        let until_ms = self.seconds.map(|s| clock.time_ms.wrapping_add(s * 1000));
        AttackLimit { target, until_ms, circle: self.circle }
    }

    /// A stopped unit's answer: no time, 1 000 about where it stands.
    fn standing(position: [f32; 3]) -> Self {
        Self { seconds: None, circle: Some((position, STANDING_CIRCLE)) }
    }
}

type Animal<'a> = Walker<'a, (&'a mut Migration, Option<&'a Weapon>, Option<&'a LastHit>)>;

/// Runs every animal's migration, in `OriginalObjectId` order: its default order, the
/// end of its attacks, its answer to a hit, its engagements and its walks.
pub(crate) fn migrate(
    mut grazing: Grazing,
    objects: Query<(&OriginalObjectId, &Owner, &SimTransform, &Health, Has<Movable>)>,
    mut animals: Query<Animal>,
    mut clear: MessageWriter<ClearWizardPath>,
) {
    if animals.is_empty() {
        return;
    }
    let mut contacts: Vec<Contact> = objects
        .iter()
        .filter(|o| o.3.hp > 0.0)
        .map(|(id, o, t, _, machine)| Contact { id: id.0, clan: o.clan, position: t.position, machine })
        .collect();
    contacts.sort_unstable_by_key(|c| c.id);
    let mut order: Vec<_> = animals.iter_mut().collect();
    order.sort_unstable_by_key(|a| *a.1);
    for (entity, &id, owner, t, mut nav, status, (mut m, weapon, hit)) in order {
        let clan = owner.clan;
        if let Some(limit) = m.attack {
            if nav.order != Order::Attack(limit.target) {
                m.attack = None;
            } else if limit.passed(&grazing.clock, t.position) {
                m.attack = None;
                nav.queued.clear();
                nav.start(Order::Stop);
            }
        }
        // No order: the animal's default, migrate.
        if nav.order == Order::Stop && nav.queued.is_empty() {
            nav.start(Order::Migrate);
        }
        // A hit reaches the gate whatever the animal does; only a migrating one answers.
        let hit = hit.filter(|h| h.tick > m.answered_hit);
        if let Some(h) = hit {
            m.answered_hit = h.tick;
        }
        if nav.order != Order::Migrate {
            m.started = false;
            continue;
        }
        let here = [t.position[0], t.position[1]];
        let pasture = if m.started { grazing.pasture(clan, m.pasture) } else { None };
        let interrupt = match hit {
            Some(h) => {
                let firer = contacts.binary_search_by_key(&h.by, |c| c.id).ok().map(|i| contacts[i]);
                Some((firer, answer(pasture, t.position, firer)))
            }
            None => pasture.and_then(|p| {
                let foe = engagement(&grazing.relations, p, here, clan, &contacts)?;
                Some((
                    Some(foe),
                    Reach { seconds: Some(ENGAGEMENT_LIMIT.0), circle: Some((p.centre, p.outer + ENGAGEMENT_LIMIT.1)) },
                ))
            }),
        };
        if let Some((target, reach)) = interrupt
            && let Some(target) = gate(&mut grazing, &mut m, (id.0, clan, weapon.is_some()), target)
        {
            m.attack = Some(reach.limit(target, &grazing.clock));
            m.started = false;
            nav.start(Order::Attack(target));
            clear.write(ClearWizardPath(entity));
            continue;
        }
        let walk = if !m.started || grazing.clock.reached(m.long_until_ms) {
            m.started = true;
            m.pasture = grazing.ask(clan);
            m.long_until_ms = grazing.timer(LONG_TIMER_S);
            true
        } else if status.state == NavState::Moving || nav.replan {
            m.short_until_ms = grazing.timer(SHORT_TIMER_S);
            false
        } else {
            grazing.clock.reached(m.short_until_ms)
        };
        if !walk {
            continue;
        }
        match grazing.pasture(clan, m.pasture).and_then(|p| grazing.point(p)) {
            Some(point) => {
                nav.goal = point;
                nav.replan = true;
                nav.clear_path();
                clear.write(ClearWizardPath(entity));
            }
            // With no pasture it walks nowhere: it grazes where it stands.
            None => nav.replan = false,
        }
        m.short_until_ms = grazing.timer(SHORT_TIMER_S);
    }
}

/// The gate every interrupt passes (the part an animal reaches): the pause between
/// interrupts (checked, then started again), a target that exists, is not the animal
/// itself and not of its own clan, and a weapon. Returns the target let through.
fn gate(
    grazing: &mut Grazing,
    m: &mut Migration,
    (id, clan, armed): (u32, i32, bool),
    target: Option<Contact>,
) -> Option<u32> {
    if !grazing.clock.reached(m.pause_until_ms) {
        return None;
    }
    m.pause_until_ms = grazing.timer(INTERRUPT_PAUSE_S);
    let target = target.filter(|t| t.id != id && t.clan != clan)?;
    armed.then_some(target.id)
}

/// The best hostile machine inside the pasture's inner radius, scoring 1 / (d + 10) by
/// its distance d from the centre (ties: the lower id), when the animal itself stands
/// strictly inside the outer radius and the machine within it.
fn engagement(
    relations: &ClanRelations,
    p: Pasture,
    here: [f32; 2],
    clan: i32,
    contacts: &[Contact],
) -> Option<Contact> {
    let centre = [p.centre[0], p.centre[1]];
    if dist(here, centre) >= p.outer {
        return None;
    }
    let from_centre = |c: &Contact| dist([c.position[0], c.position[1]], centre);
    contacts
        .iter()
        .filter(|c| c.machine && relations.hostile(clan, c.clan))
        .map(|c| (c, from_centre(c)))
        .filter(|(_, d)| *d <= p.inner && *d <= p.outer)
        .max_by(|(a, da), (b, db)| (1.0 / (da + 10.0)).total_cmp(&(1.0 / (db + 10.0))).then(b.id.cmp(&a.id)))
        .map(|(c, _)| *c)
}

/// How far the attack on a firer may go, by where the animal and the firer stand across
/// the ground from the pasture's centre: the animal beyond the outer radius, 10 s and no
/// circle; the firer beyond it, 20 s within outer + 20; between the radii, 25 s within
/// outer + 80; within the inner, 35 s within outer + 100. With no pasture, or the firer
/// exactly on the outer circle, a stopped unit's answer.
fn answer(pasture: Option<Pasture>, position: [f32; 3], firer: Option<Contact>) -> Reach {
    let (Some(p), Some(firer)) = (pasture, firer) else { return Reach::standing(position) };
    let centre = [p.centre[0], p.centre[1]];
    let animal = dist([position[0], position[1]], centre);
    let firer = dist([firer.position[0], firer.position[1]], centre);
    let (seconds, radius) = if animal > p.outer {
        return Reach { seconds: Some(10), circle: None };
    } else if firer > p.outer {
        (20, p.outer + 20.0)
    } else if firer == p.outer {
        return Reach::standing(position);
    } else if firer > p.inner {
        (25, p.outer + 80.0)
    } else {
        (35, p.outer + 100.0)
    };
    Reach { seconds: Some(seconds), circle: Some((p.centre, radius)) }
}
