//! The game side of the VM: what the functions ask of the world and what they change.
//!
//! * [`WorldView`]: the mission's objects when the handlers run (logical id, owner,
//!   type word, kind), taken once per tick that runs a handler. A clan's "list" is its
//!   units and buildings (scenery is not filed, gameplay.md §13); an object is named by
//!   its [`LogicalId`], the lowest `OriginalObjectId` first when two share one.
//! * [`MissionState`]: what the scripts change that is no single clan's — the
//!   objectives' states, the logical ids of deleted objects (function 52 answers 65534
//!   for them), the route reports, the filed lists of [`CountRule::Filed`] and the
//!   `Mission` handler's next run.
//! * [`GameHost`]: the [`Host`] of one run. Function 30's channel 0 (gameplay.md §2.5,
//!   §13, after dragonee/openparkan `docs/34-progression.md`): `SYSTEM_MESSAGE` records
//!   the mission's outcome — **the game's one outcome, the player clan's**, whichever
//!   clan's script calls (a repeated complete changes nothing, a later failure replaces
//!   a win); `MESSAGE_INFO` posts [`GameMessageKind::Message`] with the `messages.cfg` id;
//!   `CLAN_HERO_KILLED` does nothing; `OBJECTIVE_COMPLETE` / `_FAILED` / `_PROGRESS` set
//!   the objective of that position (1, failed, 0) and post [`GameMessageKind::Objective`]
//!   when its state changes, and after every `OBJECTIVE_COMPLETE` the mission is complete
//!   when every primary objective is (bonus objectives never hold it back; a mission
//!   without primary objectives passes). The project's: a failed objective keeps its
//!   own state (the original's only shows string 5041), an index past the list or a
//!   message id the mission's `messages.cfg` lacks is reported, and function 57's
//!   channel 2 is reported and does nothing.
//! * Function 15 (the project's reading of the order packet, 31-packages.md): `STOP` (1),
//!   `GO` (2: to a place, or to an object by logical id) and `ATTACK` (3: an object; a
//!   place is a go) become commands of the tick on the command queue, insert mode 1
//!   queued, 2 and 3 replacing; any other order, or a unit that is not a unit, is
//!   refused (0) and reported. With a `TARGET_BY_NAME` target it is a factory's
//!   `ORDER_BUILDING_CONSTRUCT`: the clan's design pick ([`crate::designs`]) names the
//!   scheme of an `Order::Build` (1), or the refusal is reported (0).

use crate::designs::{self, DesignDraw, ORDER_BUILDING_CONSTRUCT, Select};
use crate::package::ScriptPackage;
use crate::routes::Routes;
use crate::vm::{CountRule, Host, OrderPacket, VmConfig};
use bevy_ecs::prelude::*;
use iron3d_core::{
    AiDesigns, CommandQueue, DispatchPhase, GameClock, GameMessage, GameMessageKind, Guard, LogicalId, MindBoard,
    MissionClans, MissionGoals, MissionOutcome, Movable, ObjectKind, ObjectiveChange, Order, OriginalObjectId, Outcome,
    Owner, RandomStream, SchemeRef, SearchFor, SimCommand, SimObject, SimRandom, UnitClass, Ward,
};
use iron3d_formats::script::functions::{DESTROYED_OWNER, ERROR, callback as cb};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The random stream of the clans' takts (7000 + rand % 1000 ms).
pub const TAKT_STREAM: &str = "superai.takt";
/// The random stream of function 70.
pub const RANDOM_STREAM: &str = "superai.random";

/// `TARGET_BY_LOGIC_ID`.
pub const TARGET_BY_LOGIC_ID: u32 = 0x0201;
/// `TARGET_BY_PLACE`.
pub const TARGET_BY_PLACE: u32 = 0x0202;
/// `TARGET_BY_TYPE`: a type mask.
pub const TARGET_BY_TYPE: u32 = 0x0203;
/// `TARGET_NOT_DEFINED`.
pub const TARGET_NOT_DEFINED: u32 = 0x0204;
/// `TARGET_BY_NAME`: a factory's build by name (`crate::designs`).
pub const TARGET_BY_NAME: u32 = 0x0205;

/// An objective's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ObjectiveState {
    /// In progress (state 0).
    #[default]
    Open,
    /// Complete (state 1).
    Complete,
    /// Failed (the project keeps it, see the module docs).
    Failed,
}

/// What the scripts change that is no single clan's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MissionState {
    /// Each objective's state, by position.
    pub objectives: Vec<ObjectiveState>,
    /// Logical ids of deleted objects.
    pub gone: BTreeSet<u32>,
    /// The route reports.
    pub routes: Routes,
    /// [`CountRule::Filed`]: clan → (logical id → type word) of every object ever filed.
    pub filed: BTreeMap<i32, BTreeMap<u32, u32>>,
    /// Game time (ms) the player clan's `Mission` handler is due.
    pub mission_due_ms: u32,
}

/// One object as the scripts see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Row {
    /// `OriginalObjectId`.
    pub id: u32,
    /// Logical id.
    pub logical: u32,
    /// Owner clan.
    pub clan: i32,
    /// Type word (0 without one).
    pub class: u32,
    /// A unit (it takes orders).
    pub movable: bool,
}

/// The objects when the handlers run.
#[derive(Debug, Default)]
pub(crate) struct WorldView {
    /// Units and buildings, by `OriginalObjectId`.
    rows: Vec<Row>,
    /// Logical id → position in `rows`.
    by_logical: BTreeMap<u32, usize>,
}

impl WorldView {
    /// The objects of `world`; under [`CountRule::Filed`] each is filed on its clan.
    pub fn of(world: &mut World, mission: &mut MissionState, counts: CountRule) -> Self {
        let mut rows: Vec<Row> = world
            .query::<(&OriginalObjectId, &LogicalId, &Owner, Option<&UnitClass>, &SimObject, Has<Movable>)>()
            .iter(world)
            .filter(|(.., o, _)| matches!(o.kind, ObjectKind::Unit | ObjectKind::Building))
            .map(|(id, logical, owner, class, _, movable)| Row {
                id: id.0,
                logical: logical.0,
                clan: owner.clan,
                class: class.map_or(0, |c| c.0),
                movable,
            })
            .collect();
        rows.sort_unstable_by_key(|r| r.id);
        let mut by_logical = BTreeMap::new();
        for (i, r) in rows.iter().enumerate() {
            by_logical.entry(r.logical).or_insert(i);
            if counts == CountRule::Filed && r.logical != ERROR {
                mission.filed.entry(r.clan).or_default().entry(r.logical).or_insert(r.class);
            }
        }
        Self { rows, by_logical }
    }

    fn get(&self, logical: u32) -> Option<&Row> {
        self.by_logical.get(&logical).map(|i| &self.rows[*i])
    }

    fn listed(&self, clan: i32) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(move |r| r.clan == clan && r.logical != ERROR)
    }
}

/// What the runs of one tick change outside the SuperAIs, applied at its end.
pub(crate) struct Effects {
    /// The game tick.
    pub clock: GameClock,
    /// The player clan (whose outcome the scripts record).
    pub player: Option<u32>,
    /// The mission's objectives and messages.
    pub goals: MissionGoals,
    /// Free minds.
    pub minds: MindBoard,
    /// The outcome, changed.
    pub outcome: MissionOutcome,
    /// The takt stream.
    pub takt: RandomStream,
    /// Function 70's stream.
    pub random: RandomStream,
    /// Function 15's commands.
    pub commands: Vec<SimCommand>,
    /// The design store (function 15's picks; production names its schemes as it loads).
    pub designs: AiDesigns,
    /// Messages to post.
    pub notes: Vec<GameMessageKind>,
}

impl Effects {
    /// The state the runs start from.
    pub fn of(world: &mut World) -> Self {
        let mut streams = world.resource_mut::<SimRandom>();
        let (takt, random) = (*streams.stream(TAKT_STREAM), *streams.stream(RANDOM_STREAM));
        Self {
            clock: *world.resource::<GameClock>(),
            player: world.get_resource::<MissionClans>().and_then(MissionClans::player),
            goals: world.get_resource::<MissionGoals>().cloned().unwrap_or_default(),
            minds: world.get_resource::<MindBoard>().cloned().unwrap_or_default(),
            outcome: world.resource::<MissionOutcome>().clone(),
            takt,
            random,
            commands: Vec::new(),
            designs: world.get_resource::<AiDesigns>().cloned().unwrap_or_default(),
            notes: Vec::new(),
        }
    }

    /// Writes the changes back and posts the messages (each also an `ai` log line).
    pub fn apply(self, world: &mut World) {
        let mut streams = world.resource_mut::<SimRandom>();
        *streams.stream(TAKT_STREAM) = self.takt;
        *streams.stream(RANDOM_STREAM) = self.random;
        world.insert_resource(self.outcome);
        let mut queue = world.resource_mut::<CommandQueue>();
        self.commands.into_iter().for_each(|c| queue.push(c));
        for kind in self.notes {
            log(&kind);
            world.write_message(GameMessage::new(&self.clock, DispatchPhase::SuperAi, kind));
        }
    }

    /// Records `outcome` for the player clan (else `clan`), posting it when it changed.
    pub fn record(&mut self, clan: u32, outcome: Outcome) {
        let clan = self.player.unwrap_or(clan);
        if self.outcome.record(clan, outcome, self.clock.tick) {
            self.notes.push(GameMessageKind::Outcome { clan, outcome });
        }
    }
}

/// One log line per script report, message and objective.
fn log(kind: &GameMessageKind) {
    match kind {
        GameMessageKind::Script { clan, bundle, handler, node, function, detail } => {
            let at = |v: &Option<u32>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
            tracing::info!(target: "ai", "clan {clan} {bundle} handler {handler:?} node {} function {}: {detail}", at(node), at(function));
        }
        GameMessageKind::Message { clan, id } => tracing::info!(target: "ai", "clan {clan}: message {id}"),
        GameMessageKind::Objective { clan, id, change } => {
            tracing::info!(target: "ai", "clan {clan}: objective {id} {}", change.name());
        }
        _ => {}
    }
}

/// The [`Host`] of one run of one clan's handler.
pub(crate) struct GameHost<'a> {
    /// The clan.
    pub clan: u32,
    /// Its package (names handlers in reports).
    pub pkg: &'a ScriptPackage,
    /// The objects.
    pub view: &'a WorldView,
    /// The mission's script state.
    pub mission: &'a mut MissionState,
    /// The tick's effects.
    pub fx: &'a mut Effects,
    /// The clan's `(handler, node)` pairs already reported.
    pub reported: &'a mut BTreeSet<(usize, usize)>,
    /// The switches.
    pub config: VmConfig,
    /// The node calling now: handler, node, function.
    pub at: Option<(usize, usize, u32)>,
}

impl GameHost<'_> {
    /// Reports `detail` once for the calling node.
    fn note(&mut self, detail: String) {
        let (handler, node, function) = self.at.map_or((usize::MAX, usize::MAX, None), |(h, n, f)| (h, n, Some(f)));
        if self.reported.insert((handler, node)) {
            self.fx.notes.push(script_note(self.clan, self.pkg, handler, Some(node), function, detail));
        }
    }

    fn objective(&mut self, kind: u32, index: u32) {
        let (state, change) = match kind {
            cb::OBJECTIVE_COMPLETE => (ObjectiveState::Complete, ObjectiveChange::Complete),
            cb::OBJECTIVE_FAILED => (ObjectiveState::Failed, ObjectiveChange::Failed),
            _ => (ObjectiveState::Open, ObjectiveChange::Progress),
        };
        let count = self.mission.objectives.len();
        match self.mission.objectives.get_mut(index as usize) {
            Some(s) if *s != state => {
                *s = state;
                self.fx.notes.push(GameMessageKind::Objective { clan: self.clan, id: index, change });
            }
            Some(_) => {}
            None => self.note(format!("objective {index} is not in mission.cfg ({count} objectives)")),
        }
        let mut states = self.mission.objectives.iter().zip(&self.fx.goals.objectives);
        if kind == cb::OBJECTIVE_COMPLETE && states.all(|(s, o)| o.bonus || *s == ObjectiveState::Complete) {
            self.fx.record(self.clan, Outcome::Completed);
        }
    }
}

/// The order a script's packet `p` gives (`object`: a logical id's object id), if the
/// project carries it out: stop, go, attack, guard (PATROL by place or logic id, its
/// radius the parameter unless 0 or −1), search (one building, buildings by type, lodes
/// or enemies) and capture, refit, shutdown, leave, standby, follow, board and upgrade.
pub(crate) fn script_order(p: &OrderPacket, object: impl Fn(u32) -> Option<u32>) -> Option<Order> {
    let place = || match p.target.as_slice() {
        [x, y, ..] => Some([*x as i32 as f32, *y as i32 as f32]),
        _ => None,
    };
    let by_id = || p.target.first().and_then(|l| object(*l));
    let mask = p.target.first().copied().unwrap_or(0);
    // A patrol's radius is its parameter unless that is 0 or −1 (read).
    let radius = match p.parameter as i32 {
        0 | -1 => 0.0,
        r => r as f32,
    };
    let guard = |ward| Order::Guard(Guard { ward, radius });
    match (p.order, p.target_kind) {
        (1, _) => Some(Order::Stop),
        (2, TARGET_BY_PLACE) | (3, TARGET_BY_PLACE) => place().map(Order::MoveTo),
        (2, TARGET_BY_LOGIC_ID) => by_id().map(Order::MoveToObject),
        (3, TARGET_BY_LOGIC_ID) => by_id().map(Order::Attack),
        // A script's place stands at its third word, 0 when it gives none.
        (4, TARGET_BY_PLACE) => {
            place().map(|at| guard(Ward::Place { at, z: Some(p.target.get(2).map_or(0.0, |z| *z as i32 as f32)) }))
        }
        (4, TARGET_BY_LOGIC_ID) => by_id().map(|id| guard(Ward::Object(id))),
        // SEARCH and CAPTURE: one building, buildings by type, lodes, or enemies.
        (5 | 17, TARGET_BY_LOGIC_ID) => by_id().map(Order::Capture),
        (5 | 17, TARGET_BY_TYPE) if mask & 0x8000_0000 != 0 => Some(Order::Search(SearchFor::Capture)),
        (5, TARGET_BY_TYPE) if mask & 0x1000_0000 != 0 => Some(Order::SearchLodes),
        (5, TARGET_NOT_DEFINED) => Some(Order::Search(SearchFor::Enemies)),
        // ORDER_ROBOT_RELOAD and ORDER_ROBOT_REPARE: one task, the refit.
        (8 | 9, _) => Some(Order::Refit),
        (19, _) => Some(Order::Shutdown),
        (20, _) => Some(Order::Leave),
        (21, _) => Some(Order::StandGround),
        (22, TARGET_BY_LOGIC_ID) => by_id().map(Order::Follow),
        (23, TARGET_BY_LOGIC_ID) => by_id().map(Order::Board),
        (24, TARGET_BY_LOGIC_ID) => by_id().map(Order::Upgrade),
        _ => None,
    }
}

/// A script report of `clan` at a node of handler `handler` (`usize::MAX`: none).
pub(crate) fn script_note(
    clan: u32,
    pkg: &ScriptPackage,
    handler: usize,
    node: Option<usize>,
    function: Option<u32>,
    detail: String,
) -> GameMessageKind {
    GameMessageKind::Script {
        clan,
        bundle: pkg.bundle.clone(),
        handler: pkg.handler_name(handler),
        node: node.filter(|n| *n != usize::MAX).map(|n| n as u32),
        function,
        detail,
    }
}

impl Host for GameHost<'_> {
    fn at(&mut self, handler: usize, node: usize, function: u32) {
        self.at = Some((handler, node, function));
    }

    fn callback(&mut self, kind: u32, value: u32) {
        match kind {
            cb::SYSTEM_MESSAGE => match value {
                cb::MISSION_FAILED => self.fx.record(self.clan, Outcome::Failed),
                cb::MISSION_COMPLETE => self.fx.record(self.clan, Outcome::Completed),
                v => self.note(format!("SYSTEM_MESSAGE {v} is neither MISSION_FAILED (0) nor MISSION_COMPLETE (1)")),
            },
            cb::MESSAGE_INFO => {
                self.fx.notes.push(GameMessageKind::Message { clan: self.clan, id: value });
                if !self.fx.goals.messages.contains(&value) {
                    self.note(format!("message {value} is not in the mission's messages.cfg"));
                }
            }
            cb::CLAN_HERO_KILLED => {}
            cb::OBJECTIVE_COMPLETE | cb::OBJECTIVE_FAILED | cb::OBJECTIVE_PROGRESS => self.objective(kind, value),
            _ => self.note(format!("unhandled host callback ({kind}, {value})")),
        }
    }

    fn callback_2(&mut self, a: u32, b: u32) {
        self.note(format!("host callback channel 2 ({a}, {b}): its effect is not known, nothing is done"));
    }

    fn order(&mut self, p: &OrderPacket) -> u32 {
        let Some(unit) = self.view.get(p.unit).copied() else { return 5 };
        let order = script_order(p, |logical| self.view.get(logical).map(|r| r.id));
        match order.filter(|_| unit.movable) {
            Some(order) => {
                let queued = p.insert == 1;
                self.fx.commands.push(SimCommand { tick: self.fx.clock.tick, units: vec![unit.id], order, queued });
                1
            }
            None => {
                self.note(format!(
                    "order {} (target kind {:#x}) to {} is not carried out by the project: refused",
                    p.order, p.target_kind, p.unit
                ));
                0
            }
        }
    }

    fn order_by_name(&mut self, p: &OrderPacket, draw: DesignDraw) -> u32 {
        let Some(unit) = self.view.get(p.unit).copied() else { return 5 };
        let refusal = match (p.order, p.target.first().and_then(|w| Select::of(*w))) {
            (ORDER_BUILDING_CONSTRUCT, Some(_)) if !draw.loaded => {
                "the clan's design store is not loaded (function 43 was not called)".to_string()
            }
            (ORDER_BUILDING_CONSTRUCT, Some(select)) => {
                let ranking = designs::ranking(&self.fx.designs, self.clan as i32, p.parameter, select);
                match designs::pick(&ranking, select, draw.spread, &mut self.fx.random) {
                    Some(i) => {
                        let order = Order::Build(SchemeRef::of(&self.fx.designs.designs[i].scheme));
                        let tick = self.fx.clock.tick;
                        self.fx.commands.push(SimCommand { tick, units: vec![unit.id], order, queued: false });
                        return 1;
                    }
                    None => format!("no design of Type {:#x} in the store is researched whole", p.parameter),
                }
            }
            (ORDER_BUILDING_CONSTRUCT, None) => format!("{:?} names no SELECT_* mode", p.target),
            (order, _) => format!("order {order} by name is not carried out by the project"),
        };
        self.note(format!("order {} by name to {}: {refusal}: refused", p.order, p.unit));
        0
    }

    fn research_design(&mut self, id: u32, draw: DesignDraw) -> u32 {
        let refusal = match self.view.get(id).copied() {
            None => format!("{id} names no object"),
            Some(_) if !draw.loaded => "the clan's design store is not loaded (function 43 was not called)".into(),
            Some(centre) => match designs::cheapest(&self.fx.designs, self.clan as i32) {
                Some(items) => {
                    let tick = self.fx.clock.tick;
                    let orders = items.iter().map(|&n| SimCommand {
                        tick,
                        units: vec![centre.id],
                        order: Order::Research(n),
                        queued: false,
                    });
                    self.fx.commands.extend(orders);
                    return 1;
                }
                // The original's FALSE: nothing to research.
                None => return 0,
            },
        };
        self.note(format!("function 41 for {id}: {refusal}"));
        0
    }

    fn count_class(&mut self, clan: u32, mask: u32) -> u32 {
        self.count(clan as i32, |t| t & mask != 0)
    }

    fn count_type(&mut self, ty: u32) -> u32 {
        self.count(self.clan as i32, |t| t == ty)
    }

    fn in_route(&mut self, route: u32, id: u32) -> bool {
        self.view.get(id).is_some_and(|r| self.mission.routes.inside(route, r.id))
    }

    fn owner(&mut self, id: u32) -> u32 {
        match self.view.get(id) {
            Some(r) => r.clan as u32,
            None if self.mission.gone.contains(&id) => DESTROYED_OWNER,
            None => ERROR,
        }
    }

    fn free_minds(&mut self) -> u32 {
        self.fx.minds.free(self.clan as i32).unwrap_or(0)
    }

    fn random_below(&mut self, n: u32) -> u32 {
        self.fx.random.below(n)
    }
}

impl GameHost<'_> {
    fn count(&self, clan: i32, keep: impl Fn(u32) -> bool) -> u32 {
        let n = match self.config.counts {
            CountRule::Live => self.view.listed(clan).filter(|r| keep(r.class)).count(),
            CountRule::Filed => self.mission.filed.get(&clan).map_or(0, |m| m.values().filter(|t| keep(**t)).count()),
        };
        n as u32
    }
}
