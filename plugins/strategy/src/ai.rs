//! Computer clans (the project's own strategic layer): defend, gather, attack when
//! stronger, build transport robots and send them to haul. Decisions read a census of
//! the world and become orders in the command queue, applied by Behavior in this same
//! tick; nothing here moves an object.

use crate::{Build, Strategy, StrategyRules};
use bevy_ecs::prelude::*;
use iron3d_core::plane::dist;
use iron3d_core::{
    BuildOption, BuildOptions, ClanRelations, ClanSetup, CommandQueue, GameClock, GameMessage, GameMessageKind, Health,
    MindBoard, MissionClans, MissionOutcome, Movable, ObjectTable, Order, OriginalObjectId, Owner, ProductionEvent,
    ResearchBoard, SchemeRef, SimCommand, SimTransform, TICK_MS, UnitClass, Weapon,
};
use iron3d_rules::Role;
use std::collections::BTreeMap;

/// One object as the strategic layer sees it.
#[derive(Debug, Clone, Copy)]
pub struct Seen {
    /// `OriginalObjectId`.
    pub id: u32,
    /// Owning clan.
    pub clan: i32,
    /// Ground position.
    pub at: [f32; 2],
    /// Hit points.
    pub hp: f32,
    /// Has a weapon.
    pub armed: bool,
    /// Takes orders and moves.
    pub movable: bool,
    /// A production building.
    pub producer: bool,
    /// A research building.
    pub institute: bool,
    /// A mine.
    pub mine: bool,
    /// A transport robot.
    pub transport: bool,
}

type Row<'a> =
    (&'a OriginalObjectId, &'a Owner, &'a SimTransform, &'a Health, Option<&'a UnitClass>, Has<Weapon>, Has<Movable>);

/// The orders one clan decides on this turn, by unit (`census` in id order).
pub fn decide(
    clan: &ClanSetup,
    census: &[Seen],
    relations: &ClanRelations,
    rules: &iron3d_rules::Ai,
    assigned: &BTreeMap<u32, Order>,
) -> BTreeMap<u32, Order> {
    let me = clan.index as i32;
    let army: Vec<&Seen> = census.iter().filter(|s| s.clan == me && s.movable && s.armed).collect();
    let enemies: Vec<&Seen> = census.iter().filter(|s| relations.hostile(me, s.clan)).collect();
    let nearest = |from: [f32; 2], pool: &mut dyn Iterator<Item = &&Seen>| {
        pool.min_by(|a, b| dist(from, a.at).total_cmp(&dist(from, b.at)).then(a.id.cmp(&b.id))).map(|s| s.id)
    };
    let alive = |id: u32| census.binary_search_by_key(&id, |s| s.id).is_ok();
    let mut orders = BTreeMap::new();
    let threats: Vec<&&Seen> =
        enemies.iter().filter(|s| s.movable && dist(clan.anchor, s.at) <= rules.defend_radius).collect();
    if !threats.is_empty() {
        for u in &army {
            let busy = matches!(assigned.get(&u.id), Some(Order::Attack(t)) if threats.binary_search_by_key(t, |s| s.id).is_ok());
            if !busy && let Some(t) = nearest(u.at, &mut threats.iter().copied()) {
                orders.insert(u.id, Order::Attack(t));
            }
        }
        return orders;
    }
    let mut by_clan: BTreeMap<i32, f32> = BTreeMap::new();
    for e in enemies.iter().filter(|s| s.armed && s.movable) {
        *by_clan.entry(e.clan).or_default() += e.hp;
    }
    let strongest = by_clan.values().copied().fold(0.0f32, f32::max);
    let mine: f32 = army.iter().map(|s| s.hp).sum();
    let guard = rules.home_guard as usize;
    let target = [
        nearest(clan.anchor, &mut enemies.iter().filter(|s| s.producer)),
        nearest(clan.anchor, &mut enemies.iter().filter(|s| !s.movable)),
        nearest(clan.anchor, &mut enemies.iter()),
    ]
    .into_iter()
    .flatten()
    .next();
    let attacking = army.len() >= guard + rules.min_wave as usize && mine >= rules.attack_ratio * strongest;
    for (k, u) in army.iter().enumerate() {
        let current = assigned.get(&u.id);
        let order = match target {
            Some(t) if attacking && k >= guard => match current {
                Some(Order::Attack(old)) if alive(*old) => continue,
                _ => Order::Attack(t),
            },
            _ => match current {
                Some(Order::Attack(old)) if alive(*old) => continue,
                // On its way to a rally point, or patrolling about it once there.
                Some(Order::MoveTo(_) | Order::Guard(_)) => continue,
                _ => Order::MoveTo(rally(clan.anchor, k)),
            },
        };
        orders.insert(u.id, order);
    }
    orders
}

/// A rally point near the base: units stand on rings around the anchor.
fn rally(anchor: [f32; 2], k: usize) -> [f32; 2] {
    const SPOTS: [[f32; 2]; 8] =
        [[1.0, 0.0], [0.7, 0.7], [0.0, 1.0], [-0.7, 0.7], [-1.0, 0.0], [-0.7, -0.7], [0.0, -1.0], [0.7, -0.7]];
    let s = SPOTS[k % SPOTS.len()];
    let r = 40.0 + 15.0 * (k / SPOTS.len()) as f32;
    [anchor[0] + s[0] * r, anchor[1] + s[1] * r]
}

/// The world as the strategic layer sees it, in id order.
fn census(objects: &Query<Row>, rules: &StrategyRules) -> Vec<Seen> {
    let mut seen: Vec<Seen> = objects
        .iter()
        .map(|(id, owner, t, health, class, armed, movable)| Seen {
            id: id.0,
            clan: owner.clan,
            at: [t.position[0], t.position[1]],
            hp: health.hp,
            armed,
            movable,
            producer: class.is_some_and(|c| rules.producers.contains(&c.0)),
            institute: class.is_some_and(|c| rules.institutes.contains(&c.0)),
            mine: class.is_some_and(|c| c.0 == UnitClass::MINE),
            transport: class.is_some_and(|c| c.0 == UnitClass::TRANSPORT),
        })
        .collect();
    seen.sort_unstable_by_key(|s| s.id);
    seen
}

/// A producer whose robot was built or refused can take the next build; a refused
/// scheme (or a refused research order) waits `retry_seconds` before its clan orders it
/// again.
pub(crate) fn builds_done(
    mut messages: MessageReader<GameMessage>,
    rules: Res<StrategyRules>,
    mut strategy: ResMut<Strategy>,
) {
    let wait = (rules.ai.retry_seconds * 1000.0 / TICK_MS as f32) as u32;
    for m in messages.read() {
        let GameMessageKind::Production { event, ids, .. } = &m.kind else { continue };
        let Some(&building) = ids.first() else { continue };
        let refused = *event == ProductionEvent::Rejected;
        if let Some(done) = strategy.building.remove(&building).filter(|_| refused) {
            strategy.refused.insert((done.clan, done.scheme), m.tick.saturating_add(wait));
        }
        if let Some(clan) = strategy.researching.remove(&building).filter(|_| refused) {
            strategy.research_wait.insert(clan, m.tick.saturating_add(wait));
        }
    }
}

/// A clan's build menu: the schemes of its [`BuildOptions`] by role (`ai.roles`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Menu {
    /// Schemes of the `ai.army` roles, taken in turn.
    pub army: Vec<SchemeRef>,
    /// Transport schemes (the first not refused lately is built).
    pub transports: Vec<SchemeRef>,
}

impl Menu {
    /// The menu of a clan's options, in option order.
    pub fn of(options: &[BuildOption], rules: &iron3d_rules::Ai) -> Self {
        let with = |keep: &dyn Fn(Role) -> bool| -> Vec<SchemeRef> {
            let role = |o: &&BuildOption| rules.role(o.class, &o.component_types).is_some_and(keep);
            options.iter().filter(role).map(|o| o.scheme).collect()
        };
        Self { army: with(&|r| rules.army.contains(&r)), transports: with(&|r| r == Role::Transport) }
    }
}

/// The builds a clan orders at tick `tick`, `(producer, build)` for each of its idle
/// producers, skipping schemes refused lately: first a transport scheme of its menu
/// while it has a mine and fewer than `ai.transports` transports built or being built,
/// then its army schemes in turn while its army and their running builds stay under
/// the cap.
pub fn builds(
    clan: i32,
    tick: u32,
    census: &[Seen],
    rules: &iron3d_rules::Ai,
    menu: &Menu,
    strategy: &Strategy,
) -> Vec<(u32, Build)> {
    let ours = |f: fn(&Seen) -> bool| census.iter().filter(|s| s.clan == clan && f(s)).count();
    let running =
        |transport: bool| strategy.building.values().filter(|b| b.clan == clan && b.transport == transport).count();
    let wanted = if ours(|s| s.mine) > 0 { rules.transports as usize } else { 0 };
    let mut transports = ours(|s| s.transport) + running(true);
    let mut army = ours(|s| s.movable && s.armed) + running(false);
    let n = menu.army.len();
    let mut next = strategy.builds.get(&clan).copied().unwrap_or(0) as usize;
    let open = |s: SchemeRef| strategy.refused.get(&(clan, s)).is_none_or(|until| tick >= *until);
    let mut out = Vec::new();
    for p in census.iter().filter(|s| s.clan == clan && s.producer && !strategy.building.contains_key(&s.id)) {
        if transports < wanted
            && let Some(&scheme) = menu.transports.iter().find(|s| open(**s))
        {
            out.push((p.id, Build { clan, scheme, transport: true }));
            transports += 1;
            continue;
        }
        if army >= rules.unit_cap as usize || n == 0 {
            break;
        }
        let Some(k) = (0..n).map(|k| (next + k) % n).find(|&k| open(menu.army[k])) else { break };
        out.push((p.id, Build { clan, scheme: menu.army[k], transport: false }));
        army += 1;
        next = k + 1;
    }
    out
}

/// The haul orders a clan gives, `(transport, mine)`: each of its transport robots not
/// hauling from one of its mines is ordered to haul, naming its nearest mine (ties by
/// the lower id); the transport then chooses its own route, as the original's does.
pub fn hauls(clan: i32, census: &[Seen], assigned: &BTreeMap<u32, Order>) -> Vec<(u32, u32)> {
    let mines: Vec<&Seen> = census.iter().filter(|s| s.clan == clan && s.mine).collect();
    census
        .iter()
        .filter(|t| t.clan == clan && t.transport)
        .filter(|t| !matches!(assigned.get(&t.id), Some(Order::Haul(m)) if mines.iter().any(|x| x.id == *m)))
        .filter_map(|t| {
            let nearest =
                mines.iter().min_by(|a, b| dist(t.at, a.at).total_cmp(&dist(t.at, b.at)).then(a.id.cmp(&b.id)));
            nearest.map(|m| (t.id, m.id))
        })
        .collect()
}

/// The research a clan starts: when nothing is being researched, the first node of its
/// tree that can start, at its lowest-id institute.
pub fn research(clan: i32, census: &[Seen], board: &ResearchBoard) -> Option<(u32, u32)> {
    let (startable, busy) = board.clans.get(&clan)?;
    let node = startable.first().filter(|_| !busy)?;
    let institute = census.iter().find(|s| s.clan == clan && s.institute)?;
    Some((institute.id, *node))
}

/// Each computer clan whose turn it is decides, in clan order.
#[expect(clippy::too_many_arguments, reason = "one system reading the whole strategic state")]
pub(crate) fn think(
    clans: Option<Res<MissionClans>>,
    rules: Res<StrategyRules>,
    relations: Res<ClanRelations>,
    clock: Res<GameClock>,
    outcome: Res<MissionOutcome>,
    table: Res<ObjectTable>,
    objects: Query<Row>,
    mut strategy: ResMut<Strategy>,
    mut queue: ResMut<CommandQueue>,
    options: Res<BuildOptions>,
    board: Res<ResearchBoard>,
    minds: Res<MindBoard>,
) {
    let Some(clans) = clans else { return };
    let period = ((rules.ai.think_seconds * 1000.0 / TICK_MS as f32).round() as u32).max(1);
    strategy.assigned.retain(|id, _| table.entity_of(*id).is_some());
    strategy.building.retain(|id, _| table.entity_of(*id).is_some());
    strategy.researching.retain(|id, _| table.entity_of(*id).is_some());
    let mut census_now = None;
    for clan in clans.clans.iter().filter(|c| c.is_computer() && outcome.of(c.index).is_none()) {
        if !(clock.tick + clan.index * 7).is_multiple_of(period) {
            continue;
        }
        let census = census_now.get_or_insert_with(|| census(&objects, &rules));
        let orders = decide(clan, census, &relations, &rules.ai, &strategy.assigned);
        let mut grouped: BTreeMap<(u8, u64, u64), (Order, Vec<u32>)> = BTreeMap::new();
        for (unit, order) in orders {
            grouped.entry(order.key()).or_insert((order, Vec::new())).1.push(unit);
            strategy.assigned.insert(unit, order);
        }
        for (order, units) in grouped.into_values() {
            queue.push(SimCommand { tick: clock.tick, units, order, queued: false });
        }
        let me = clan.index as i32;
        for (transport, mine) in hauls(me, census, &strategy.assigned) {
            queue.push(SimCommand {
                tick: clock.tick,
                units: vec![transport],
                order: Order::Haul(mine),
                queued: false,
            });
            strategy.assigned.insert(transport, Order::Haul(mine));
        }
        let menu = Menu::of(options.clans.get(&me).map_or(&[][..], Vec::as_slice), &rules.ai);
        // A build needs a free mind (the original's cap): no more orders than free minds.
        let free = minds.free(me).map_or(usize::MAX, |f| f as usize);
        for (producer, build) in builds(me, clock.tick, census, &rules.ai, &menu, &strategy).into_iter().take(free) {
            let order = Order::Build(build.scheme);
            queue.push(SimCommand { tick: clock.tick, units: vec![producer], order, queued: false });
            if let Some(k) = menu.army.iter().position(|s| *s == build.scheme).filter(|_| !build.transport) {
                strategy.builds.insert(me, k as u32 + 1);
            }
            strategy.building.insert(producer, build);
        }
        let waiting = strategy.research_wait.get(&me).is_some_and(|until| clock.tick < *until);
        if let Some((institute, node)) = research(me, census, &board).filter(|_| !waiting) {
            queue.push(SimCommand {
                tick: clock.tick,
                units: vec![institute],
                order: Order::Research(node),
                queued: false,
            });
            strategy.researching.insert(institute, me);
        }
    }
}
