//! Combat and effects for clients. The host gathers each tick's shots, hits,
//! destructions, productions and outcomes from its World3D queue ([`GameMessage`]) and
//! sends them as one `IRON3D_EVENTS` batch per tick (reliable, ordered; a batch goes
//! every tick, empty or not, so its tick is also the host's clock). A client writes
//! them back into its own queue, so presentation plays them as on the host (FXID
//! effects, beams, fireballs, sounds, the outcome voice) and nothing is simulated
//! twice; a shell is drawn flying from its shooter's mirror toward its target's at its
//! speed (presentation only: the hit comes from the host). An outcome is recorded in
//! the client's [`MissionOutcome`] (its outcome screen and campaign progress follow);
//! once every clan a player commands has one, the host ends the session
//! (`GMSG_SET_STATE` [`SessionPhase::Ended`]), stops its simulation, and each client
//! leaves. A player who becomes ready later is sent the outcomes recorded so far (and the
//! end, if it came).
//!
//! The sight rule (the project's own): a shot and a hit reach a client only when their
//! place (the shooter's for a shot, the target's for a hit) lies in or next to a square
//! of [`HostSettings::event_sight`] game units where one of the client's clan's objects
//! stands; destructions, productions and outcomes reach every client, and so does
//! everything for an observer (a client without a clan).

use crate::host::HostSettings;
use crate::schema::{Gmsg, SessionPhase};
use crate::sender::send;
use crate::watcher::NetWatcher;
use crate::{ClientSession, replicated::POSITION_STEPS};
use bevy_ecs::message::MessageCursor;
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_replicon::prelude::AuthorizedClient;
use bevy_state::prelude::DespawnOnExit;
use iron3d_core::{
    AppState, DispatchPhase, GameClock, GameMessage, GameMessageKind, MissionOutcome, ObjectHandle, ObjectRef,
    ObjectTable, OriginalObjectId, Outcome, Owner, ProductionEvent, Projectile, SimObject, SimTransform, TICK_MS,
    TICK_SECONDS, Weapon,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// Default side of the sight rule's squares (game units; the project's own: about what
/// the strategy camera shows across at its usual height).
pub const SIGHT: f32 = 400.0;

/// Largest encoded events of one `IRON3D_EVENTS` frame (a tick with more is sent in
/// several frames of the same tick).
const FRAME_BYTES: usize = 16 * 1024;

/// One combat or effect event as it travels (the project's own encoding).
#[derive(Debug, Clone, PartialEq)]
pub enum NetEvent {
    /// A weapon fired.
    Fired {
        /// The shooter (`OriginalObjectId`).
        shooter: u32,
        /// Its target.
        target: u32,
        /// Weapon kind (index in the combat rules' weapon table).
        weapon: u16,
        /// Shell speed in game units per second (0: a beam).
        speed: u16,
    },
    /// An object took damage.
    Hit {
        /// The object hit.
        target: u32,
        /// Who fired, if it still stands.
        attacker: Option<u32>,
        /// The node struck.
        node: u16,
        /// Hit points lost, rounded up.
        amount: u16,
        /// Hit points left, rounded up.
        hp: u16,
    },
    /// An object was destroyed.
    Destroyed {
        /// The object.
        object: u32,
        /// Who fired the last hit.
        by: Option<u32>,
        /// Where, in position steps (1/16 game unit).
        position: [i32; 3],
    },
    /// A robot was built.
    Produced {
        /// The building that made it.
        producer: u32,
        /// The new object.
        object: u32,
        /// Its unit scheme.
        scheme: String,
    },
    /// A clan's mission outcome was recorded.
    Outcome {
        /// Clan index.
        clan: u32,
        /// The outcome.
        outcome: Outcome,
    },
}

impl NetEvent {
    /// The event of a World3D message, if it is one clients see.
    fn of(kind: &GameMessageKind, speed: impl Fn(u32) -> u16) -> Option<Self> {
        let q = |v: f32| v.max(0.0).ceil().min(f32::from(u16::MAX)) as u16;
        Some(match kind {
            GameMessageKind::Fired { shooter, target, weapon } => {
                Self::Fired { shooter: shooter.id.0, target: target.id.0, weapon: *weapon, speed: speed(shooter.id.0) }
            }
            GameMessageKind::Damaged { target, attacker, node, amount, hp } => Self::Hit {
                target: target.id.0,
                attacker: attacker.map(|a| a.id.0),
                node: *node,
                amount: q(*amount),
                hp: q(*hp),
            },
            GameMessageKind::Destroyed { object, by, position } => Self::Destroyed {
                object: object.id.0,
                by: by.map(|b| b.id.0),
                position: position.map(|v| (v * POSITION_STEPS).round() as i32),
            },
            GameMessageKind::Production { event: ProductionEvent::Produced, ids, detail } if ids.len() == 2 => {
                Self::Produced { producer: ids[0], object: ids[1], scheme: detail.clone() }
            }
            GameMessageKind::Outcome { clan, outcome } => Self::Outcome { clan: *clan, outcome: *outcome },
            _ => return None,
        })
    }

    /// The World3D message it stands for on a client, with the client's handles (an
    /// object already gone gets a handle that resolves to nothing).
    fn message(&self, table: &ObjectTable) -> GameMessageKind {
        let r = |id: u32| ObjectRef {
            id: OriginalObjectId(id),
            handle: table.handle_of(id).unwrap_or(ObjectHandle { index: u32::MAX, generation: 0 }),
        };
        match self {
            Self::Fired { shooter, target, weapon, .. } => {
                GameMessageKind::Fired { shooter: r(*shooter), target: r(*target), weapon: *weapon }
            }
            Self::Hit { target, attacker, node, amount, hp } => GameMessageKind::Damaged {
                target: r(*target),
                attacker: attacker.map(r),
                node: *node,
                amount: f32::from(*amount),
                hp: f32::from(*hp),
            },
            Self::Destroyed { object, by, position } => GameMessageKind::Destroyed {
                object: r(*object),
                by: by.map(r),
                position: position.map(|v| v as f32 / POSITION_STEPS),
            },
            Self::Produced { producer, object, scheme } => GameMessageKind::Production {
                event: ProductionEvent::Produced,
                ids: vec![*producer, *object],
                detail: scheme.clone(),
            },
            Self::Outcome { clan, outcome } => GameMessageKind::Outcome { clan: *clan, outcome: *outcome },
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        let some = |v: Option<u32>| v.map_or(0, |v| u64::from(v) + 1);
        match self {
            Self::Fired { shooter, target, weapon, speed } => {
                out.push(0);
                [u64::from(*shooter), u64::from(*target), u64::from(*weapon), u64::from(*speed)]
                    .iter()
                    .for_each(|v| varint(out, *v));
            }
            Self::Hit { target, attacker, node, amount, hp } => {
                out.push(1);
                [u64::from(*target), some(*attacker), u64::from(*node), u64::from(*amount), u64::from(*hp)]
                    .iter()
                    .for_each(|v| varint(out, *v));
            }
            Self::Destroyed { object, by, position } => {
                out.push(2);
                varint(out, u64::from(*object));
                varint(out, some(*by));
                position.iter().for_each(|v| varint(out, u64::from(((v << 1) ^ (v >> 31)) as u32)));
            }
            Self::Produced { producer, object, scheme } => {
                out.push(3);
                varint(out, u64::from(*producer));
                varint(out, u64::from(*object));
                varint(out, scheme.len() as u64);
                out.extend_from_slice(scheme.as_bytes());
            }
            Self::Outcome { clan, outcome } => {
                out.push(4);
                varint(out, u64::from(*clan));
                out.push(match outcome {
                    Outcome::Completed => 0,
                    Outcome::Failed => 1,
                    Outcome::Defeated => 2,
                });
            }
        }
    }

    fn read(r: &mut Cursor) -> Result<Self, String> {
        let at = r.at;
        Ok(match r.byte()? {
            0 => Self::Fired { shooter: r.u32()?, target: r.u32()?, weapon: r.u16()?, speed: r.u16()? },
            1 => Self::Hit { target: r.u32()?, attacker: r.option()?, node: r.u16()?, amount: r.u16()?, hp: r.u16()? },
            2 => Self::Destroyed { object: r.u32()?, by: r.option()?, position: [r.i32()?, r.i32()?, r.i32()?] },
            3 => {
                let (producer, object, len) = (r.u32()?, r.u32()?, r.u32()? as usize);
                let bytes = r.take(len)?;
                let scheme = String::from_utf8(bytes.to_vec()).map_err(|_| format!("scheme at {at} is not UTF-8"))?;
                Self::Produced { producer, object, scheme }
            }
            4 => {
                let clan = r.u32()?;
                let outcome = match r.byte()? {
                    0 => Outcome::Completed,
                    1 => Outcome::Failed,
                    2 => Outcome::Defeated,
                    other => return Err(format!("outcome {other} at offset {} is not 0..=2", r.at - 1)),
                };
                Self::Outcome { clan, outcome }
            }
            tag => return Err(format!("event tag {tag} at offset {at} is not 0..=4")),
        })
    }
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Encodes events (a tag byte, then LEB128 varints; signed values zig-zag).
pub(crate) fn encode(events: &[NetEvent]) -> Vec<u8> {
    let mut out = Vec::new();
    events.iter().for_each(|e| e.write(&mut out));
    out
}

/// Decodes what [`encode`] wrote.
///
/// # Errors
/// The first defect, with its offset in the events' bytes.
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<NetEvent>, String> {
    let mut r = Cursor { bytes, at: 0 };
    let mut out = Vec::new();
    while r.at < bytes.len() {
        out.push(NetEvent::read(&mut r)?);
    }
    Ok(out)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or_else(|| format!("events end at offset {} inside an event", self.at))?;
        self.at += 1;
        Ok(b)
    }
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let have = self.bytes.len() - self.at;
        if have < n {
            return Err(format!("need {n} bytes at offset {}, have {have}", self.at));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }
    fn varint(&mut self, bits: u32) -> Result<u64, String> {
        let at = self.at;
        let mut v = 0u64;
        for shift in (0..bits + 7).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return match v >> bits {
                    0 => Ok(v),
                    _ => Err(format!("varint at offset {at} exceeds {bits} bits")),
                };
            }
        }
        Err(format!("varint at offset {at} exceeds {bits} bits"))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(self.varint(32)? as u32)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(self.varint(16)? as u16)
    }
    fn i32(&mut self) -> Result<i32, String> {
        let z = self.u32()?;
        Ok((z >> 1) as i32 ^ -((z & 1) as i32))
    }
    fn option(&mut self) -> Result<Option<u32>, String> {
        let at = self.at;
        match self.varint(33)? {
            0 => Ok(None),
            v => u32::try_from(v - 1).map(Some).map_err(|_| format!("object id at offset {at} exceeds 32 bits")),
        }
    }
}

/// The session's end as the host decided it.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct SessionEnd {
    /// The tick after which the session ended (every played clan had an outcome).
    pub tick: Option<u32>,
}

/// The host simulates until the session ended.
pub(crate) fn running(end: Option<Res<SessionEnd>>) -> bool {
    end.is_none_or(|e| e.tick.is_none())
}

/// After the ticks of a frame: each tick's events, per client, then the session's end
/// once every clan a player commands has an outcome.
pub(crate) fn gather(world: &mut World, mut cursor: Local<MessageCursor<GameMessage>>) {
    let speed = |world: &World, id: u32| {
        let weapon = world.resource::<ObjectTable>().entity_of(id).and_then(|e| world.get::<Weapon>(e));
        weapon.map_or(0, |w| w.projectile_speed.round().clamp(0.0, f32::from(u16::MAX)) as u16)
    };
    let mut ticks: BTreeMap<u32, Vec<NetEvent>> = BTreeMap::new();
    for m in cursor.read(world.resource::<Messages<GameMessage>>()) {
        if let Some(e) = NetEvent::of(&m.kind, |id| speed(world, id)) {
            ticks.entry(m.tick).or_default().push(e);
        }
    }
    let now = world.resource::<GameClock>().tick;
    ticks.entry(now).or_default();
    let clients = receivers(world);
    let sight = Sight::new(world, &clients);
    for (tick, events) in &ticks {
        for (client, clan) in &clients {
            let seen: Vec<NetEvent> =
                events.iter().filter(|e| clan.is_none_or(|c| sight.sees(world, c, e))).cloned().collect();
            for frame in frames(*tick, seen) {
                send(world, &[*client], &[frame]);
            }
        }
    }
    end_when_decided(world, now);
}

/// Ready clients and their clans, in player order.
fn receivers(world: &mut World) -> Vec<(Entity, Option<i32>)> {
    let watcher = world.resource::<NetWatcher>();
    let players: Vec<(Entity, Option<i32>)> =
        watcher.players.values().filter(|p| !p.local).map(|p| (p.client, p.clan.map(|c| c as i32))).collect();
    players.into_iter().filter(|(e, _)| world.get::<AuthorizedClient>(*e).is_some()).collect()
}

/// Splits a tick's events into frames of at most [`FRAME_BYTES`] (one, empty, when
/// there are none).
fn frames(tick: u32, events: Vec<NetEvent>) -> Vec<Gmsg> {
    let mut out = vec![Gmsg::Events { tick, events: Vec::new() }];
    let mut bytes = 0;
    for e in events {
        let mut one = Vec::new();
        e.write(&mut one);
        if bytes + one.len() > FRAME_BYTES && bytes > 0 {
            out.push(Gmsg::Events { tick, events: Vec::new() });
            bytes = 0;
        }
        bytes += one.len();
        if let Some(Gmsg::Events { events, .. }) = out.last_mut() {
            events.push(e);
        }
    }
    out
}

/// The squares where each client clan's objects stand (see the module's sight rule).
struct Sight {
    size: f32,
    cells: BTreeMap<i32, HashSet<(i32, i32)>>,
}

impl Sight {
    fn new(world: &mut World, clients: &[(Entity, Option<i32>)]) -> Self {
        let size = world.resource::<HostSettings>().event_sight.max(1.0);
        let mut cells: BTreeMap<i32, HashSet<(i32, i32)>> =
            clients.iter().filter_map(|(_, c)| *c).map(|c| (c, HashSet::new())).collect();
        let mut q = world.query_filtered::<(&SimTransform, &Owner), With<SimObject>>();
        for (t, owner) in q.iter(world) {
            if let Some(set) = cells.get_mut(&owner.clan) {
                set.insert(cell(t.position, size));
            }
        }
        Self { size, cells }
    }

    fn sees(&self, world: &World, clan: i32, event: &NetEvent) -> bool {
        let at = |id: u32| {
            let e = world.resource::<ObjectTable>().entity_of(id)?;
            world.get::<SimTransform>(e).map(|t| t.position)
        };
        let place = match event {
            NetEvent::Fired { shooter, .. } => at(*shooter),
            NetEvent::Hit { target, attacker, .. } => at(*target).or_else(|| attacker.and_then(at)),
            _ => return true,
        };
        let Some(place) = place else { return true };
        let Some(cells) = self.cells.get(&clan) else { return false };
        let (x, y) = cell(place, self.size);
        (-1..=1).any(|dx| (-1..=1).any(|dy| cells.contains(&(x + dx, y + dy))))
    }
}

fn cell(p: [f32; 3], size: f32) -> (i32, i32) {
    ((p[0] / size).floor() as i32, (p[1] / size).floor() as i32)
}

/// Ends the session once every clan a player (the host's own included) commands has an
/// outcome: everyone is told at this tick, and the host stops.
fn end_when_decided(world: &mut World, tick: u32) {
    if world.resource::<SessionEnd>().tick.is_some() {
        return;
    }
    let clans: Vec<u32> = world.resource::<NetWatcher>().players.values().filter_map(|p| p.clan).collect();
    let outcome = world.resource::<MissionOutcome>();
    if clans.is_empty() || !clans.iter().all(|c| outcome.of(*c).is_some()) {
        return;
    }
    tracing::info!(target: "netwatch", "every player's clan has its outcome: the session ends after tick {tick}");
    world.resource_mut::<SessionEnd>().tick = Some(tick);
    crate::sender::broadcast(world, &[Gmsg::SetState { phase: SessionPhase::Ended, tick }], None);
}

/// What a player who becomes ready (a late joiner, a game whose mission just loaded, a
/// rejoining player) missed: the outcomes recorded so far, as one batch at this tick,
/// and the session's end.
pub(crate) fn catch_up(world: &World) -> Vec<Gmsg> {
    let tick = world.resource::<GameClock>().tick;
    let records = &world.resource::<MissionOutcome>().records;
    let outcomes: Vec<NetEvent> =
        records.iter().map(|&(clan, outcome, _)| NetEvent::Outcome { clan, outcome }).collect();
    let mut missed = Vec::new();
    if !outcomes.is_empty() {
        missed.push(Gmsg::Events { tick, events: outcomes });
    }
    if let Some(end) = world.resource::<SessionEnd>().tick {
        missed.push(Gmsg::SetState { phase: SessionPhase::Ended, tick: end });
    }
    missed
}

/// What a client received, by kind (`net bots --json`'s `events`).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Reflect)]
#[reflect(Resource)]
pub struct EventCounts {
    /// Shots.
    pub fired: u32,
    /// Hits.
    pub hit: u32,
    /// Destructions.
    pub destroyed: u32,
    /// Robots built.
    pub produced: u32,
}

/// Batches received and not yet played: (tick, events).
#[derive(Resource, Debug, Default)]
pub(crate) struct Inbox(pub(crate) Vec<(u32, Vec<NetEvent>)>);

/// A shell a client draws (presentation only; its `Projectile` moves toward the
/// target's mirror).
#[derive(Component, Debug, Clone, Copy, Default, Reflect)]
#[reflect(Component)]
pub struct NetShell;

/// Plays the host's events into this client's World3D queue, counts them, records
/// outcomes, starts the drawn shells, and follows the host's clock.
pub(crate) fn play(
    mut inbox: ResMut<Inbox>,
    mut session: ResMut<ClientSession>,
    mut counts: ResMut<EventCounts>,
    mut outcome: ResMut<MissionOutcome>,
    mut out: MessageWriter<GameMessage>,
    (table, places): (Res<ObjectTable>, Query<&SimTransform>),
    mut commands: Commands,
) {
    for (tick, events) in std::mem::take(&mut inbox.0) {
        session.last_tick = session.last_tick.max(tick);
        session.set_time = Some(tick);
        let clock = GameClock { tick, time_ms: tick.wrapping_mul(TICK_MS) };
        for e in events {
            match &e {
                NetEvent::Fired { shooter, target, weapon, speed } => {
                    counts.fired += 1;
                    let from = table.entity_of(*shooter).and_then(|s| places.get(s).ok());
                    if let Some(from) = from.filter(|_| *speed > 0) {
                        commands.spawn(shell(*shooter, *target, *weapon, *speed, from.position, counts.fired));
                    }
                }
                NetEvent::Hit { .. } => counts.hit += 1,
                NetEvent::Destroyed { .. } => counts.destroyed += 1,
                NetEvent::Produced { .. } => counts.produced += 1,
                NetEvent::Outcome { clan, outcome: o } => {
                    outcome.record(*clan, *o, tick);
                }
            }
            out.write(GameMessage::new(&clock, DispatchPhase::Control, e.message(&table)));
        }
    }
}

fn shell(shooter: u32, target: u32, kind: u16, speed: u16, at: [f32; 3], sequence: u32) -> impl Bundle {
    let projectile = Projectile {
        sequence,
        shooter,
        target,
        kind,
        position: at,
        speed: f32::from(speed),
        damage: 0.0,
        life: 0.0,
        blast: 0.0,
        ttl: SHELL_TICKS,
    };
    (Name::new("Shell"), NetShell, projectile, DespawnOnExit(AppState::InGame))
}

/// Longest a drawn shell flies (ticks; its hit comes from the host anyway).
const SHELL_TICKS: u32 = 160;

/// Drawn shells home on their target's mirror and vanish when they reach it (or it is
/// gone).
pub(crate) fn fly_shells(
    mut commands: Commands,
    table: Res<ObjectTable>,
    places: Query<&SimTransform>,
    mut shells: Query<(Entity, &mut Projectile), With<NetShell>>,
) {
    for (e, mut p) in &mut shells {
        let to = table.entity_of(p.target).and_then(|t| places.get(t).ok()).map(|t| t.position);
        let Some(to) = to.filter(|_| p.ttl > 0) else {
            commands.entity(e).despawn();
            continue;
        };
        p.ttl -= 1;
        let d = [to[0] - p.position[0], to[1] - p.position[1], to[2] - p.position[2]];
        let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let step = p.speed * TICK_SECONDS;
        if length <= step {
            commands.entity(e).despawn();
            continue;
        }
        p.position.iter_mut().zip(d).for_each(|(v, dk)| *v += dk / length * step);
    }
}

/// A client leaves once the host ended the session.
pub(crate) fn leave_when_ended(world: &mut World) {
    let ended = world.resource::<ClientSession>().phase.is_some_and(|(p, _)| p == SessionPhase::Ended as u8);
    if ended && world.contains_resource::<bevy_replicon_renet::RenetClient>() {
        tracing::info!(target: "netwatch", "the host ended the session");
        crate::disconnect(world);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_and_defects_are_refused_with_their_offset() {
        let events = vec![
            NetEvent::Fired { shooter: 7, target: 300_000, weapon: 3, speed: 120 },
            NetEvent::Hit { target: 300_000, attacker: None, node: 40, amount: 12, hp: 65_535 },
            NetEvent::Hit { target: 1, attacker: Some(u32::MAX), node: 0, amount: 0, hp: 1 },
            NetEvent::Destroyed { object: 9, by: Some(0), position: [-5, 70_000, i32::MIN] },
            NetEvent::Produced { producer: 4, object: 9_000, scheme: "UNITS\\ROBOTS\\scout.dat".into() },
            NetEvent::Outcome { clan: 2, outcome: Outcome::Defeated },
        ];
        let bytes = encode(&events);
        assert_eq!(decode(&bytes).unwrap(), events);
        for len in 0..bytes.len() {
            if let Ok(d) = decode(&bytes[..len]) {
                assert!(d.len() < events.len(), "cut at {len}");
            }
        }
        assert!(decode(&[9]).unwrap_err().contains("event tag 9 at offset 0"));
        assert!(decode(&[0, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]).unwrap_err().contains("exceeds 32 bits"));
        assert!(decode(&[4, 1, 3]).unwrap_err().contains("outcome 3"));
    }

    #[test]
    fn a_busy_tick_is_split_into_frames_of_bounded_size() {
        let fired = |i| NetEvent::Fired { shooter: i, target: i + 1, weapon: 0, speed: 0 };
        let frames = frames(5, (0..10_000).map(fired).collect());
        assert!(frames.len() > 1);
        let mut total = 0;
        for f in &frames {
            let Gmsg::Events { tick: 5, events } = f else { panic!("{f:?}") };
            assert!(encode(events).len() <= FRAME_BYTES);
            total += events.len();
        }
        assert_eq!(total, 10_000);
        assert_eq!(super::frames(6, Vec::new()), [Gmsg::Events { tick: 6, events: Vec::new() }]);
    }
}
