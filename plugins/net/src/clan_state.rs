//! A clan's state for its players (the project's own rule; the original's is unknown):
//! the host sends each joined player its clan's ore and power, every production queue
//! of the clan's buildings and the clan's research (`IRON3D_CLAN_STATE`), and the
//! production and research events of the clan (`IRON3D_CLAN_NEWS`: built, researched,
//! refused). A joined game lays the state over its own published boards,
//! `EconomyBoard`, `ProductionBoard` and `ResearchBoard` (never production's own
//! state), and replays the events as `GameMessage`s, so its HUD, build panel and
//! research buttons work as in a game of one player; its orders still go to the host. The state is sent when it changed, at most every [`STATE_EVERY`] ticks,
//! and in full to a player who just became ready.

use crate::schema::{Gmsg, Reader, Writer};
use crate::sender::send;
use crate::watcher::NetWatcher;
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanEconomy, DispatchPhase, EconomyBoard, GameClock, GameMessage, GameMessageKind, JobView, ObjectTable, Owner,
    ProductionBoard, ProductionEvent, QueueView, ResearchBoard, SchemeRef,
};
use iron3d_production::{ClanResearch, Job, Production};
use std::collections::BTreeMap;

/// Ticks between two sends of a clan's state at most (a change waits for the next).
pub const STATE_EVERY: u32 = 4;

/// Longest list in a clan's state (queues, schemes waiting, research nodes).
const MAX_LIST: usize = 4_096;

/// A clan's research.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WireResearch {
    /// Each node's state bits, in tree order.
    pub states: Vec<u8>,
    /// `(node, institute)` waiting, first next.
    pub waiting: Vec<(u32, u32)>,
    /// `(node, job, institute)` being researched (the job names no scheme).
    pub active: Option<(u32, JobView, u32)>,
}

/// `IRON3D_CLAN_STATE`: what a clan's players see of its economy, production and research.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClanState {
    /// Clan index.
    pub clan: u32,
    /// The clan's economy (ore, power and the HUD's bars).
    pub economy: ClanEconomy,
    /// The queue of every production building of the clan, by id.
    pub producers: Vec<(u32, QueueView)>,
    /// The clan's research (`None`: the clan has no tree).
    pub research: Option<WireResearch>,
}

/// `IRON3D_CLAN_NEWS`: a production event of the receiver's clan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClanNews {
    /// What happened.
    pub event: ProductionEvent,
    /// Objects involved (`OriginalObjectId`).
    pub ids: Vec<u32>,
    /// Scheme, node or reason.
    pub detail: String,
}

fn write_job(w: &mut Writer, j: &JobView) {
    w.str(&j.scheme);
    w.u32(j.elapsed_ms);
    w.u32(j.total_ms);
}

fn read_job(r: &mut Reader) -> Result<JobView, String> {
    Ok(JobView { scheme: r.str()?, elapsed_ms: r.u32()?, total_ms: r.u32()? })
}

impl ClanState {
    pub(crate) fn write(&self, w: &mut Writer) {
        w.u32(self.clan);
        w.u32(self.economy.ore.to_bits());
        w.u32(self.economy.power.to_bits());
        w.u8(self.economy.ore_percent);
        w.u8(self.economy.energy_percent);
        w.len(self.producers.len(), "production queues");
        for (producer, q) in &self.producers {
            w.u32(*producer);
            w.len(q.waiting.len(), "schemes waiting");
            q.waiting.iter().for_each(|s| w.str(s));
            write_option(w, q.active.as_ref(), write_job);
            w.u8(u8::from(q.batch));
        }
        write_option(w, self.research.as_ref(), |w, r| {
            w.bytes(&r.states);
            w.len(r.waiting.len(), "research waiting");
            for (node, at) in &r.waiting {
                w.u32(*node);
                w.u32(*at);
            }
            write_option(w, r.active.as_ref(), |w, (node, job, at)| {
                w.u32(*node);
                write_job(w, job);
                w.u32(*at);
            });
        });
    }

    pub(crate) fn read(r: &mut Reader) -> Result<Self, String> {
        let (clan, ore, power) = (r.u32()?, f32::from_bits(r.u32()?), f32::from_bits(r.u32()?));
        if !(ore.is_finite() && power.is_finite()) {
            return Err(format!("clan {clan}: ore {ore} or power {power} is not finite"));
        }
        let (ore_percent, energy_percent) = (r.u8()?, r.u8()?);
        if ore_percent > 100 || energy_percent > 100 {
            return Err(format!("clan {clan}: bars {ore_percent} % and {energy_percent} % are not 0..100"));
        }
        let economy = ClanEconomy { ore, power, ore_percent, energy_percent };
        let producers = (0..count(r, 7)?)
            .map(|_| {
                let producer = r.u32()?;
                let waiting = (0..count(r, 2)?).map(|_| r.str()).collect::<Result<_, _>>()?;
                let active = read_option(r, read_job)?;
                Ok((producer, QueueView { waiting, active, batch: r.flag()? }))
            })
            .collect::<Result<_, String>>()?;
        let research = read_option(r, |r| {
            let states = r.bytes()?;
            let waiting = (0..count(r, 8)?).map(|_| Ok((r.u32()?, r.u32()?))).collect::<Result<_, String>>()?;
            let active = read_option(r, |r| Ok((r.u32()?, read_job(r)?, r.u32()?)))?;
            Ok(WireResearch { states, waiting, active })
        })?;
        Ok(Self { clan, economy, producers, research })
    }
}

/// The production events clan news carries, by their wire number.
const NEWS_EVENTS: [ProductionEvent; 10] = [
    ProductionEvent::Produced,
    ProductionEvent::Researched,
    ProductionEvent::Rejected,
    ProductionEvent::LodeFound,
    ProductionEvent::Constructed,
    ProductionEvent::Upgraded,
    ProductionEvent::Captured,
    ProductionEvent::Boarded,
    ProductionEvent::Left,
    ProductionEvent::Opened,
];

/// Whether the host sends `event` as clan news: all of [`NEWS_EVENTS`] but a robot
/// built, which every client hears as a combat event ([`crate::events`]).
fn is_news(event: ProductionEvent) -> bool {
    event != ProductionEvent::Produced && NEWS_EVENTS.contains(&event)
}

impl ClanNews {
    pub(crate) fn write(&self, w: &mut Writer) {
        let number = NEWS_EVENTS.iter().position(|e| *e == self.event).unwrap_or(usize::from(u8::MAX));
        w.u8(u8::try_from(number).unwrap_or(u8::MAX));
        w.len(self.ids.len(), "ids");
        self.ids.iter().for_each(|id| w.u32(*id));
        w.str(&self.detail);
    }

    pub(crate) fn read(r: &mut Reader) -> Result<Self, String> {
        let number = r.u8()?;
        let event = *NEWS_EVENTS
            .get(usize::from(number))
            .ok_or_else(|| format!("clan news event {number} is not 0..={}", NEWS_EVENTS.len() - 1))?;
        let ids = (0..count(r, 4)?).map(|_| r.u32()).collect::<Result<_, _>>()?;
        Ok(Self { event, ids, detail: r.str()? })
    }
}

/// A list's length, checked against [`MAX_LIST`] and the bytes left (`each` at least).
fn count(r: &mut Reader, each: usize) -> Result<usize, String> {
    let n = usize::from(r.u16()?);
    if n > MAX_LIST {
        return Err(format!("{n} entries exceed {MAX_LIST}"));
    }
    r.need(n * each)?;
    Ok(n)
}

fn write_option<T>(w: &mut Writer, value: Option<&T>, write: impl FnOnce(&mut Writer, &T)) {
    w.u8(u8::from(value.is_some()));
    if let Some(v) = value {
        write(w, v);
    }
}

fn read_option<T>(r: &mut Reader, read: impl FnOnce(&mut Reader) -> Result<T, String>) -> Result<Option<T>, String> {
    r.flag()?.then(|| read(r)).transpose()
}

/// The host's last state sent to each clan's players.
#[derive(Resource, Debug, Default)]
pub(crate) struct SentClanStates(BTreeMap<u32, ClanState>);

impl SentClanStates {
    /// The clan's next state goes to its players whether it changed or not (a player
    /// of it became ready).
    pub(crate) fn resend(&mut self, clan: u32) {
        self.0.remove(&clan);
    }
}

/// The state of `clan` as the host holds it now.
pub(crate) fn state_of(world: &World, clan: u32) -> ClanState {
    let economy = world.resource::<EconomyBoard>().of(clan as i32);
    let mut state = ClanState { clan, economy, ..ClanState::default() };
    let Some(production) = world.get_resource::<Production>() else { return state };
    let table = world.resource::<ObjectTable>();
    let of_clan =
        |id: u32| table.entity_of(id).and_then(|e| world.get::<Owner>(e)).is_some_and(|o| o.clan == clan as i32);
    state.producers = world
        .resource::<ProductionBoard>()
        .producers
        .iter()
        .filter(|(id, _)| of_clan(**id))
        .map(|(id, q)| (*id, q.clone()))
        .collect();
    state.research = production.clans.get(&(clan as i32)).and_then(|r| {
        let tree = r.tree.as_ref()?;
        Some(WireResearch {
            states: tree.nodes.iter().map(|n| n.state).collect(),
            waiting: r.waiting.clone(),
            active: r.active.as_ref().map(|(j, at)| {
                let job = JobView { scheme: String::new(), elapsed_ms: j.elapsed_ms, total_ms: j.total_ms };
                (j.what.0 as u32, job, *at)
            }),
        })
    });
    state
}

/// After a tick: every [`STATE_EVERY`] ticks, each clan with a joined player gets its
/// state if it changed since the last one sent.
pub(crate) fn publish(world: &mut World) {
    let tick = world.resource::<GameClock>().tick;
    if !tick.is_multiple_of(STATE_EVERY) {
        return;
    }
    let mut clans: BTreeMap<u32, Vec<Entity>> = BTreeMap::new();
    for p in world.resource::<NetWatcher>().players.values().filter(|p| p.connected()) {
        if let Some(clan) = p.clan {
            clans.entry(clan).or_default().push(p.client);
        }
    }
    for (clan, clients) in clans {
        let state = state_of(world, clan);
        if world.resource::<SentClanStates>().0.get(&clan) == Some(&state) {
            continue;
        }
        send(world, &clients, &[Gmsg::ClanState(state.clone())]);
        world.resource_mut::<SentClanStates>().0.insert(clan, state);
    }
}

/// The host's production events for the clans' players (research, refusals, lodes,
/// buildings raised and upgraded, captures, boarding and leaving, a pod's opening: what
/// a client's HUD, voices and view modes follow), each to the players of the clan owning
/// its first object (robots built reach every client as combat events,
/// [`crate::events`], so the HUD shows each once).
pub(crate) fn news(
    mut read: MessageReader<GameMessage>,
    table: Res<ObjectTable>,
    owners: Query<&Owner>,
    watcher: Res<NetWatcher>,
    mut commands: Commands,
) {
    for m in read.read() {
        let GameMessageKind::Production { event, ids, detail } = &m.kind else { continue };
        if !is_news(*event) {
            continue;
        }
        let owner = ids.first().and_then(|id| table.entity_of(*id)).and_then(|e| owners.get(e).ok());
        let Some(clan) = owner.and_then(|o| u32::try_from(o.clan).ok()) else { continue };
        let clients: Vec<Entity> =
            watcher.players.values().filter(|p| p.connected() && p.clan == Some(clan)).map(|p| p.client).collect();
        let news = Gmsg::ClanNews(ClanNews { event: *event, ids: ids.clone(), detail: detail.clone() });
        commands.queue(move |world: &mut World| send(world, &clients, &[news]));
    }
}

/// What a client last heard of its clan.
#[derive(Resource, Debug, Clone, Default)]
pub struct ClanView {
    /// The latest state (`None` before the first).
    pub state: Option<ClanState>,
    /// Production events received.
    pub news: u32,
    /// The state arrived since it was laid over the world.
    pub(crate) fresh: bool,
}

/// Lays the latest state over the client's own boards: its economy, its clan's
/// production queues and what its clan may research (the host's research states over
/// a copy of the client's own tree; a client without production, a bot, keeps it in
/// [`ClanView`] only).
pub(crate) fn apply(
    mut view: ResMut<ClanView>,
    mut economy: ResMut<EconomyBoard>,
    mut research: ResMut<ResearchBoard>,
    mut shown: ResMut<ProductionBoard>,
    production: Option<Res<Production>>,
    (table, owners): (Res<ObjectTable>, Query<&Owner>),
) {
    if !view.fresh {
        return;
    }
    view.fresh = false;
    let Some(state) = view.state.as_ref() else { return };
    let clan = state.clan as i32;
    economy.clans.insert(clan, state.economy);
    let Some(production) = production else { return };
    // A queue the host no longer lists is empty.
    let listed: Vec<u32> = state.producers.iter().map(|q| q.0).collect();
    let of_clan = |id: u32| table.entity_of(id).and_then(|e| owners.get(e).ok()).is_some_and(|o| o.clan == clan);
    shown.producers.retain(|id, _| listed.contains(id) || !of_clan(*id));
    shown.producers.extend(state.producers.iter().cloned());
    let Some((wire, mine)) = state.research.as_ref().zip(production.clans.get(&clan)) else { return };
    let mut mine = mine.clone();
    lay_research(wire, &mut mine);
    match iron3d_production::board_entry(&mine) {
        Some(entry) => research.clans.insert(clan, entry),
        None => research.clans.remove(&clan),
    };
}

/// The host's research over the client's own tree (the same mission's, so the same
/// nodes; a tree of another length is left as it is and logged).
fn lay_research(wire: &WireResearch, mine: &mut ClanResearch) {
    let Some(tree) = mine.tree.as_mut().filter(|t| t.nodes.len() == wire.states.len()) else {
        tracing::warn!(target: "netwatch", "clan state: the host's research tree differs from this client's");
        return;
    };
    let active = wire.active.as_ref().map(|(node, ..)| *node as usize);
    for (i, (n, s)) in tree.nodes.iter_mut().zip(&wire.states).enumerate() {
        n.state = *s;
        n.active = active == Some(i);
    }
    mine.waiting.clone_from(&wire.waiting);
    mine.active = wire.active.as_ref().map(|(node, j, at)| {
        let what = SchemeRef(u64::from(*node));
        (Job { what, elapsed_ms: j.elapsed_ms, total_ms: j.total_ms, ..Job::default() }, *at)
    });
}

/// The host's production events of this client's clan, replayed as the client's own
/// `GameMessage`s (the HUD shows them).
pub(crate) fn replay_news(news: Vec<ClanNews>, clock: &GameClock, out: &mut MessageWriter<GameMessage>) {
    for n in news {
        let kind = GameMessageKind::Production { event: n.event, ids: n.ids, detail: n.detail };
        out.write(GameMessage::new(clock, DispatchPhase::Production, kind));
    }
}
