//! SuperAI: one per clan record, in clan order, each with its mission script package and
//! VM, run with the original's meaning (gameplay.md §2 and §13, after dragonee/openparkan
//! `docs/15-behaviour.md` and `docs/34-progression.md`; the framing of
//! `docs/reference/runtime.md` §3, whose reading of the words this replaces).
//!
//! * **Scenario start** ([`MissionLoadPhase::ScenarioStart`]): every clan of
//!   [`MissionClans`] gets a SuperAI; its package is loaded ([`package::load`]) and, only
//!   when that succeeded, the clan gets `GetSuperAI` slot = its clan index
//!   ([`SuperAiSlots`], never renumbered). In clan order each runs its `Init` once (the
//!   original's slot 5). A package whose table-length word is not 73 is reported and
//!   runs all the same (the original logs "Scripts are not up to date").
//! * **When handlers run, on game time** ([`GameClock`], 64 ms ticks; the original's
//!   `timeGetTime`): the **player clan's** `Mission` handler at most every
//!   [`MISSION_PERIOD_MS`] (first on the first tick; it keeps running after the outcome;
//!   other clans' `Mission` never runs); **every clan's takt** every 7000 + rand % 1000 ms
//!   (the seeded stream `superai.takt`), which adds 7 to the clan clock of functions 59
//!   and 60 and runs `Problems<n>` (function 33 picks *n*, 0 at first). The first takt
//!   comes one period after the start (the project's: the original's first is not read).
//!   After `Problems<n>` the raised problems run their `_Start` / `_Continue` handlers
//!   (the project's rule, [`problems`]). Events asked for with [`RunScriptEvent`] run at
//!   the start of the next tick's scripts. Variables persist from run to run and into
//!   saves ([`SuperAiState`]).
//! * The VM ([`vm`]), its functions ([`functions`]), formulas ([`formula`]), the world
//!   side and function 30's host callback (module `host`: outcome, messages, objectives),
//!   routes as polygons ([`routes`]).
//! * **The project's "every enemy out" victory rule** (`iron3d_strategy::outcome`)
//!   applies only when the player clan's package can never record the outcome itself:
//!   no function-30 call whose kind operand is `SYSTEM_MESSAGE` (0) at load or is
//!   written by a node ([`records_outcome`]). Decided at scenario start, published as
//!   [`EnemyOutVictory`] and logged (a `script` event).
//! * Everything noteworthy (a package error, a function the VM does not implement or a
//!   node that failed — reported once per node —, an unhandled callback) is a
//!   [`GameMessageKind::Script`] on the World3D queue (the stand-in for `ai.log`: the
//!   event log and `sim run` print it as a `script` event naming the clan, the handler,
//!   the node and the function).

pub mod condition;
pub mod designs;
pub mod formula;
pub mod functions;
mod host;
pub mod package;
pub mod problems;
pub mod routes;
mod save;
pub mod variables;
pub mod vm;

pub use host::{MissionState, ObjectiveState};
pub use package::{LoadMode, ScriptPackage, TableSource};
pub use save::{SuperAiState, SuperAisState, VmState};
pub use variables::Variable;
pub use vm::{ClanBase, CountRule, EventResult, Host, OrderPacket, StopAt, Vm, VmConfig};

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use host::{Effects, GameHost, WorldView, script_note};
use iron3d_core::{
    AppState, ClanSetup, EnemyOutVictory, Fnv1a, GameClock, GameMessageKind, LogicalId, MissionClans, MissionGoals,
    MissionLoadPhase, MissionOutcome, OriginalObjectId, Outcome, RunScriptEvent, SUPER_AI_SLOTS, StateApp,
    SuperAiPhase, SuperAiSlots,
};
use iron3d_formats::script::functions::{CALLBACK, callback as cb};
use iron3d_formats::script::scr::FUNCTION_COUNT;
use iron3d_terrain::MissionPaths;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The `Mission` handler's period (ms of game time).
pub const MISSION_PERIOD_MS: u32 = 2000;
/// A takt's fixed wait (ms); the random share is below [`TAKT_SPREAD_MS`].
pub const TAKT_MS: u32 = 7000;
/// The takt's random share's bound (ms).
pub const TAKT_SPREAD_MS: u32 = 1000;
/// Seconds the clan clock advances per takt.
pub const TAKT_SECONDS: u32 = 7;
/// The handler that runs once at the start.
pub const INIT: &str = "Init";
/// The player clan's periodic handler.
pub const MISSION: &str = "Mission";
/// The problem handler's name before its number.
pub const PROBLEMS: &str = "Problems";

/// Installs SuperAI (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SuperAiPlugin {
    /// VM switches (anchor reading, count rule).
    pub vm: VmConfig,
    /// How packages are read.
    pub load: LoadMode,
    /// An `Init` that stops.
    pub init: InitPolicy,
}

/// What an `Init` that stops (at a function the VM does not implement, or a failed
/// node) means — the project's (the original runs every function).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InitPolicy {
    /// What ran before the stop is kept and the stop reported (the game's default).
    #[default]
    Lenient,
    /// Strict load: the clan gets no `GetSuperAI` slot.
    Strict,
}

/// The switches in effect.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SuperAiConfig {
    /// VM switches.
    pub vm: VmConfig,
    /// Package reading.
    pub load: LoadMode,
    /// An `Init` that stops.
    pub init: InitPolicy,
}

impl Plugin for SuperAiPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SuperAiConfig { vm: self.vm, load: self.load, init: self.init })
            .init_resource::<SuperAis>()
            .hash_state("superai", |world, _, h| {
                if let Some(ais) = world.get_resource::<SuperAis>() {
                    ais.hash_into(h);
                }
            })
            .init_resource::<Inbox>()
            .add_observer(forget_removed)
            .add_systems(OnEnter(AppState::Loading), reset)
            .add_systems(OnExit(AppState::InGame), reset)
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), start)
            .add_systems(FixedUpdate, (collect, step).chain().in_set(SuperAiPhase::Scripts));
    }
}

/// One clan's SuperAI.
#[derive(Debug, Clone)]
pub struct SuperAi {
    /// The clan record.
    pub clan: ClanSetup,
    /// `GetSuperAI` slot (only when the package loaded and the SuperAI was created).
    pub slot: Option<u32>,
    /// The loaded package.
    pub package: Option<Arc<ScriptPackage>>,
    /// The VM (with the package).
    pub vm: Option<Vm>,
    /// Why the clan has no slot.
    pub error: Option<String>,
    /// Result of `Init` (`None` until run).
    pub init: Option<EventResult>,
    /// `(handler, node)` pairs already reported.
    reported: BTreeSet<(usize, usize)>,
}

/// Every clan's SuperAI, in clan order, and the mission's script state.
#[derive(Resource, Debug, Clone, Default)]
pub struct SuperAis {
    /// The SuperAIs in clan order.
    pub clans: Vec<SuperAi>,
    /// What the scripts change that is no single clan's.
    pub mission: MissionState,
}

/// The events asked for this tick.
#[derive(Resource, Debug, Default)]
struct Inbox(Vec<RunScriptEvent>);

impl SuperAis {
    /// The SuperAI in `GetSuperAI` slot `n`.
    pub fn by_slot(&self, n: u32) -> Option<&SuperAi> {
        self.clans.iter().find(|a| a.slot == Some(n))
    }

    /// Feeds every SuperAI's state (slot, variables, problems, clocks, design draw) and the
    /// mission's script state to `h`, in clan order (the simulation's state hash).
    pub fn hash_into(&self, h: &mut Fnv1a) {
        for ai in &self.clans {
            h.word(ai.clan.index);
            h.word(ai.slot.map_or(u32::MAX, |s| s));
            let Some(vm) = &ai.vm else { continue };
            vm.vars.iter().for_each(|v| h.word(v.word));
            let running = vm.problems.running.map_or(u32::MAX, |r| r as u32);
            let designs = [u32::from(vm.designs.loaded), vm.designs.spread];
            for w in [vm.clock, vm.problem_handler, vm.next_takt_ms, running].into_iter().chain(designs) {
                h.word(w);
            }
            for p in &vm.problems.list {
                for w in [p.code, p.weight.to_bits(), p.a, p.b, p.state, u32::from(p.started)].iter().chain(&p.params) {
                    h.word(*w);
                }
                h.word(p.actions.len() as u32);
            }
        }
        let m = &self.mission;
        m.objectives.iter().for_each(|o| h.word(*o as u32));
        m.gone.iter().for_each(|id| h.word(*id));
        h.word(m.mission_due_ms);
        for (id, r) in &m.routes.units {
            for w in [*id, r.at[0].to_bits(), r.at[1].to_bits(), r.nav.unwrap_or(u32::MAX), r.next_ms] {
                h.word(w);
            }
            r.inside.iter().for_each(|a| h.word(*a));
        }
        for (clan, list) in &m.filed {
            h.word(*clan as u32);
            for (id, ty) in list {
                h.word(*id);
                h.word(*ty);
            }
        }
    }
}

fn reset(
    mut ais: ResMut<SuperAis>,
    mut slots: ResMut<SuperAiSlots>,
    mut outcome: ResMut<MissionOutcome>,
    mut victory: ResMut<EnemyOutVictory>,
) {
    *ais = SuperAis::default();
    *slots = SuperAiSlots::default();
    *outcome = MissionOutcome::default();
    *victory = EnemyOutVictory::default();
}

/// A deleted object: function 52 answers 65534 for its logical id from now on, and it
/// leaves the route reports.
fn forget_removed(
    remove: On<Remove, LogicalId>,
    objects: Query<(&LogicalId, &OriginalObjectId)>,
    mut ais: ResMut<SuperAis>,
) {
    if let Ok((logical, id)) = objects.get(remove.entity) {
        ais.mission.gone.insert(logical.0);
        ais.mission.routes.units.remove(&id.0);
    }
}

/// A script report of a clan (no node): its bundle and the handler it is about.
fn clan_note(clan: u32, bundle: &str, handler: &str, detail: String) -> GameMessageKind {
    GameMessageKind::Script { clan, bundle: bundle.into(), handler: handler.into(), node: None, function: None, detail }
}

/// Creates a SuperAI for `clan`: loads its package and VM (no slot is assigned here).
pub fn create(clan: &ClanSetup, files: &dyn iron3d_core::ScriptFiles, config: SuperAiConfig, now_ms: u32) -> SuperAi {
    let mut ai = SuperAi {
        clan: clan.clone(),
        slot: None,
        package: None,
        vm: None,
        error: None,
        init: None,
        reported: BTreeSet::new(),
    };
    let created = package::load(files, &clan.bundle, config.load)
        .map_err(|e| e.to_string())
        .and_then(|p| vm::clan_base(clan.index, clan.anchor, config.vm.anchor).map(|b| (p, b)));
    match created {
        Ok((p, (base, _warning))) => {
            ai.vm = Some(Vm::new(p.variables.clone(), base, now_ms));
            ai.package = Some(Arc::new(p));
            if (clan.index as usize) < SUPER_AI_SLOTS {
                ai.slot = Some(clan.index);
            } else {
                ai.error = Some(format!("clan index {} has no GetSuperAI slot (0..63)", clan.index));
            }
        }
        Err(e) => ai.error = Some(e),
    }
    ai
}

/// Whether a package can record the mission's outcome: a function-30 call whose kind
/// operand is `SYSTEM_MESSAGE` at load or is the destination of some node (the
/// project's reading of "can never call the outcome").
pub fn records_outcome(pkg: &ScriptPackage) -> bool {
    let nodes = || pkg.scr.events.iter().flat_map(|e| &e.records);
    let written: BTreeSet<u32> = nodes().filter_map(|r| r.dest()).collect();
    nodes()
        .filter(|r| r.function() == Some(CALLBACK))
        .filter_map(|r| r.ops.first())
        .any(|k| written.contains(k) || pkg.variables.get(*k as usize).is_some_and(|v| v.word == cb::SYSTEM_MESSAGE))
}

/// Which handler a run starts in.
#[derive(Debug, Clone, Copy)]
enum Entry<'a> {
    /// The first handler of this name.
    Named(&'a str),
    /// A handler by index.
    Index(usize),
}

/// Runs one handler of `ai` and reports a stop (once per node) and, for a `requested`
/// event, a missing handler and a completed run.
fn run(
    ai: &mut SuperAi,
    mission: &mut MissionState,
    fx: &mut Effects,
    view: &WorldView,
    config: VmConfig,
    entry: Entry<'_>,
    requested: bool,
) -> Option<EventResult> {
    let (Some(pkg), Some(vm)) = (ai.package.clone(), ai.vm.as_mut()) else { return None };
    let clan = ai.clan.index;
    let mut host = GameHost { clan, pkg: &pkg, view, mission, fx, reported: &mut ai.reported, config, at: None };
    let (index, result) = match entry {
        Entry::Named(name) => vm.run_named(&pkg, name, &mut host),
        Entry::Index(i) => (Some(i), vm.run_event(&pkg, i, &mut host)),
    };
    let note = |handler: usize, node: Option<usize>, function, detail| {
        script_note(clan, &pkg, handler, node, function, detail)
    };
    let report = match &result {
        EventResult::Unsupported { at, reason } | EventResult::Failed { at, reason } => {
            let kind = if matches!(result, EventResult::Unsupported { .. }) { "unsupported" } else { "failed" };
            ai.reported
                .insert((at.handler, at.node))
                .then(|| note(at.handler, Some(at.node), at.function, format!("{kind}: {reason}")))
        }
        EventResult::Completed if requested => {
            Some(note(index.unwrap_or(usize::MAX), None, None, "ran to its end".into()))
        }
        EventResult::Missing if requested => {
            let handler = match entry {
                Entry::Named(n) => n.to_string(),
                Entry::Index(i) => pkg.handler_name(i),
            };
            Some(clan_note(clan, &pkg.bundle, &handler, "no such event".into()))
        }
        _ => None,
    };
    fx.notes.extend(report);
    Some(result)
}

/// A takt of `ai`: the clan clock steps 7 s, `Problems<n>` runs, then every standing
/// problem's handler (the project's rule, [`problems`]).
fn takt(ai: &mut SuperAi, mission: &mut MissionState, fx: &mut Effects, view: &WorldView, config: VmConfig) {
    let Some(vm) = ai.vm.as_mut() else { return };
    vm.clock = vm.clock.wrapping_add(TAKT_SECONDS);
    vm.next_takt_ms = fx.clock.time_ms.wrapping_add(TAKT_MS + fx.takt.below(TAKT_SPREAD_MS));
    let name = format!("{PROBLEMS}{}", vm.problem_handler);
    run(ai, mission, fx, view, config, Entry::Named(&name), false);
    let count = ai.vm.as_ref().map_or(0, |vm| vm.problems.list.len());
    for i in 0..count {
        let Some(vm) = ai.vm.as_mut() else { return };
        let Some(p) = vm.problems.list.get_mut(i) else { break };
        let handler = if p.started { p.resume } else { p.start };
        p.started = true;
        vm.problems.running = Some(i);
        if let Some(v) = vm.current_problem {
            vm.vars[v].word = i as u32;
        }
        run(ai, mission, fx, view, config, Entry::Index(handler), false);
        if let Some(vm) = ai.vm.as_mut() {
            vm.problems.running = None;
        }
    }
    if let Some(vm) = ai.vm.as_mut() {
        vm.problems.drop_closed();
    }
}

/// Scenario start: a SuperAI per clan record, slots for the loaded packages, each
/// `Init` in clan order, the first takts, and whether the project's victory rule
/// applies.
fn start(world: &mut World) {
    let Some(clans) = world.get_resource::<MissionClans>().cloned() else { return };
    let config = *world.resource::<SuperAiConfig>();
    let now = world.resource::<GameClock>().time_ms;
    let mut ais: Vec<SuperAi> = clans.clans.iter().map(|c| create(c, clans.files.as_ref(), config, now)).collect();
    let goals = world.get_resource::<MissionGoals>().cloned().unwrap_or_default();
    let routes = world.get_resource::<MissionPaths>().map(routes::Routes::of).unwrap_or_default();
    let mut mission = MissionState {
        objectives: vec![ObjectiveState::Open; goals.objectives.len()],
        routes,
        mission_due_ms: now,
        ..MissionState::default()
    };
    let view = WorldView::of(world, &mut mission, config.vm.counts);
    let mut fx = Effects::of(world);
    for ai in &mut ais {
        if let Some(pkg) = ai.package.clone().filter(|p| p.scr.function_count != FUNCTION_COUNT) {
            let detail = format!(
                "the package was compiled for {} functions, not {FUNCTION_COUNT} (the original logs \"Scripts are not up to date\" and runs it)",
                pkg.scr.function_count
            );
            fx.notes.push(script_note(ai.clan.index, &pkg, usize::MAX, None, None, detail));
        }
        if ai.error.is_none() {
            ai.init = run(ai, &mut mission, &mut fx, &view, config.vm, Entry::Named(INIT), false);
            if let (Some(pkg), Some(EventResult::Completed)) = (&ai.package, &ai.init) {
                let at = pkg.handler(INIT).unwrap_or(usize::MAX);
                fx.notes.push(script_note(ai.clan.index, pkg, at, None, None, "ran to its end".into()));
            }
            if config.init == InitPolicy::Strict
                && matches!(ai.init, Some(EventResult::Unsupported { .. } | EventResult::Failed { .. }))
            {
                ai.slot = None;
                ai.error = Some("Init cannot run completely (strict load)".into());
            }
        }
        if let Some(vm) = ai.vm.as_mut() {
            vm.next_takt_ms = now.wrapping_add(TAKT_MS + fx.takt.below(TAKT_SPREAD_MS));
        }
        if let Some(e) = &ai.error {
            fx.notes.push(clan_note(ai.clan.index, &ai.clan.bundle, "", format!("no SuperAI slot: {e}")));
        }
    }
    let player = clans.player().and_then(|p| ais.iter().find(|a| a.clan.index == p && a.slot.is_some()));
    let scripted = player.and_then(|a| a.package.as_deref()).is_some_and(records_outcome);
    if let Some(ai) = player {
        let detail = if scripted {
            "the package records the outcome itself (function 30, SYSTEM_MESSAGE): the project's every-enemy-out victory rule is off"
        } else {
            "the package can never record the outcome (no function 30 SYSTEM_MESSAGE call): the project's every-enemy-out victory rule decides the win"
        };
        fx.notes.push(clan_note(ai.clan.index, &ai.clan.bundle, "", detail.into()));
    }
    world.insert_resource(EnemyOutVictory(!scripted));
    let mut slots = SuperAiSlots::default();
    for ai in &ais {
        if let Some(s) = ai.slot {
            slots.0[s as usize] = Some(ai.clan.index);
        }
    }
    world.insert_resource(slots);
    world.insert_resource(SuperAis { clans: ais, mission });
    fx.apply(world);
}

/// Takes the events asked for into the inbox.
fn collect(mut requests: MessageReader<RunScriptEvent>, mut inbox: ResMut<Inbox>) {
    inbox.0.extend(requests.read().cloned());
}

/// One tick of scripts: the route reports, then the events asked for (in request
/// order; a request's fallback outcome goes through the host callback when the clan
/// has none after it), the player clan's `Mission` when due, every due clan's takt in
/// clan order.
fn step(world: &mut World) {
    let requests = std::mem::take(&mut world.resource_mut::<Inbox>().0);
    let config = world.resource::<SuperAiConfig>().vm;
    world.resource_scope(|world, mut ais: Mut<SuperAis>| {
        let SuperAis { clans, mission } = &mut *ais;
        routes::report(world, &mut mission.routes);
        let clock = *world.resource::<GameClock>();
        let player = world.get_resource::<MissionClans>().and_then(MissionClans::player);
        let player = player.and_then(|p| clans.iter().position(|a| a.clan.index == p && a.slot.is_some()));
        let mission_due = player.is_some() && clock.reached(mission.mission_due_ms);
        let takts: Vec<usize> = (0..clans.len())
            .filter(|i| {
                clans[*i].slot.is_some() && clans[*i].vm.as_ref().is_some_and(|vm| clock.reached(vm.next_takt_ms))
            })
            .collect();
        if requests.is_empty() && !mission_due && takts.is_empty() {
            return;
        }
        let view = WorldView::of(world, mission, config.counts);
        let mut fx = Effects::of(world);
        for r in &requests {
            let Some(ai) = clans.iter_mut().find(|a| a.slot == Some(r.slot)) else {
                fx.notes.push(clan_note(u32::MAX, "", &r.event, format!("GetSuperAI({}) is empty", r.slot)));
                continue;
            };
            run(ai, mission, &mut fx, &view, config, Entry::Named(&r.event), true);
            if let Some(fallback) = r.fallback.filter(|_| fx.outcome.of(ai.clan.index).is_none()) {
                fallback_outcome(ai, mission, &mut fx, &view, config, fallback);
            }
        }
        if let Some(p) = player.filter(|_| mission_due) {
            mission.mission_due_ms = clock.time_ms.wrapping_add(MISSION_PERIOD_MS);
            run(&mut clans[p], mission, &mut fx, &view, config, Entry::Named(MISSION), false);
        }
        for i in takts {
            takt(&mut clans[i], mission, &mut fx, &view, config);
        }
        fx.apply(world);
    });
}

/// A request's fallback outcome, recorded through function 30's host callback (the
/// project's victory and defeat rule): `SYSTEM_MESSAGE` `MISSION_COMPLETE` or
/// `MISSION_FAILED`.
fn fallback_outcome(
    ai: &mut SuperAi,
    mission: &mut MissionState,
    fx: &mut Effects,
    view: &WorldView,
    config: VmConfig,
    outcome: Outcome,
) {
    let Some(pkg) = ai.package.clone() else { return };
    let mut host =
        GameHost { clan: ai.clan.index, pkg: &pkg, view, mission, fx, reported: &mut ai.reported, config, at: None };
    let value = if outcome == Outcome::Completed { cb::MISSION_COMPLETE } else { cb::MISSION_FAILED };
    vm::Host::callback(&mut host, cb::SYSTEM_MESSAGE, value);
}

#[cfg(test)]
mod tests;
