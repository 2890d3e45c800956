//! SuperAI (`docs/reference/runtime.md` §3, §4.1): one SuperAI per clan record, in clan order,
//! each with its mission script package and VM.
//!
//! * At scenario start ([`MissionLoadPhase::ScenarioStart`]) every clan of
//!   [`MissionClans`] gets a SuperAI; its package is loaded ([`package::load`]) and,
//!   only when that succeeded, the clan gets `GetSuperAI` slot = its clan index
//!   ([`SuperAiSlots`], never renumbered). Then, in clan order, the first `Init` runs
//!   with the all-or-nothing policy of §3.4.
//! * Each tick, in `SimSystems::SuperAi`, the events requested with
//!   [`RunScriptEvent`] run. Handler(30)'s host callback records the mission outcome
//!   ([`MissionOutcome`]): `(0,0,0)` failed, `(0,0,1)` completed, a repeat is a no-op,
//!   any other command is reported as unhandled.
//! * Everything noteworthy (a package error, an unsupported record — reported once per
//!   record —, a failed record, an unhandled host command) is a
//!   [`GameMessageKind::Script`] on the World3D queue (the stand-in for `ai.log`: the
//!   simulation's event log and `sim run` print it as a `script` event).

pub mod condition;
pub mod handlers;
pub mod package;
mod save;
pub mod scheduler;
pub mod variables;
pub mod vm;

pub use package::{LoadMode, ScriptPackage, TableSource};
pub use save::{SuperAiState, VmState};
pub use variables::Variable;
pub use vm::{ClanBase, EventResult, Host, SentinelPolicy, TargetCall, Vm, VmConfig};

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, ClanSetup, DispatchPhase, Fnv1a, GameClock, GameMessage, GameMessageKind, MissionClans, MissionLoadPhase,
    MissionOutcome, ObjectTable, Outcome, RunScriptEvent, SUPER_AI_SLOTS, SuperAiPhase, SuperAiSlots,
};
use iron3d_formats::script::Selector;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Installs SuperAI (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SuperAiPlugin {
    /// VM switches (anchor reading, sentinel).
    pub vm: VmConfig,
    /// How packages are read.
    pub load: LoadMode,
    /// An incomplete `Init`.
    pub init: InitPolicy,
}

/// What an `Init` that cannot run completely means (`docs/reference/runtime.md` §3.4 execution policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InitPolicy {
    /// Keep the defaults and report *unsupported* (the game's default).
    #[default]
    Preview,
    /// Strict load: the SuperAI is not created — the clan gets no `GetSuperAI` slot.
    Strict,
}

/// The switches in effect.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SuperAiConfig {
    /// VM switches.
    pub vm: VmConfig,
    /// Package reading.
    pub load: LoadMode,
    /// An incomplete `Init`.
    pub init: InitPolicy,
}

impl Plugin for SuperAiPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SuperAiConfig { vm: self.vm, load: self.load, init: self.init })
            .init_resource::<SuperAis>()
            .add_systems(OnEnter(AppState::Loading), reset)
            .add_systems(OnExit(AppState::InGame), reset)
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), start)
            .add_systems(FixedUpdate, run_requested.in_set(SuperAiPhase::Scripts));
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
    /// Result of the first `Init` (`None` until run; the one-shot flag).
    pub init: Option<EventResult>,
    /// `(event, record)` pairs already reported as unsupported.
    reported: BTreeSet<(usize, usize)>,
}

/// Every clan's SuperAI, in clan order.
#[derive(Resource, Debug, Clone, Default)]
pub struct SuperAis(pub Vec<SuperAi>);

impl SuperAis {
    /// The SuperAI in `GetSuperAI` slot `n`.
    pub fn by_slot(&self, n: u32) -> Option<&SuperAi> {
        self.0.iter().find(|a| a.slot == Some(n))
    }

    /// Feeds every SuperAI's state (slot, VM flag, variables, scheduler, problems) to
    /// `h`, in clan order (the simulation's state hash).
    pub fn hash_into(&self, h: &mut Fnv1a) {
        for ai in &self.0 {
            h.write(&ai.clan.index.to_le_bytes());
            h.write(&ai.slot.map_or(u32::MAX, |s| s).to_le_bytes());
            let Some(vm) = &ai.vm else { continue };
            h.write(&vm.flag.to_le_bytes());
            vm.vars.iter().for_each(|v| h.write(&v.word.to_le_bytes()));
            for r in &vm.scheduler.records {
                for w in [r.key.0, r.key.1, r.key.2, r.value_0c.to_bits(), r.word_24, r.word_28, r.word_2c] {
                    h.write(&w.to_le_bytes());
                }
                h.write(&r.value_14.to_bits().to_le_bytes());
            }
            vm.problems.iter().flatten().for_each(|w| h.write(&w.to_le_bytes()));
        }
    }
}

fn reset(mut ais: ResMut<SuperAis>, mut slots: ResMut<SuperAiSlots>, mut outcome: ResMut<MissionOutcome>) {
    *ais = SuperAis::default();
    *slots = SuperAiSlots::default();
    *outcome = MissionOutcome::default();
}

/// Creates a SuperAI for `clan`: loads its package and VM (no slot is assigned here).
pub fn create(clan: &ClanSetup, files: &dyn iron3d_core::ScriptFiles, config: SuperAiConfig) -> SuperAi {
    let mut ai = SuperAi {
        clan: clan.clone(),
        slot: None,
        package: None,
        vm: None,
        error: None,
        init: None,
        reported: BTreeSet::new(),
    };
    let created = package::load(files, &clan.bundle, handlers::HANDLER_COUNT, config.load)
        .map_err(|e| e.to_string())
        .and_then(|p| vm::clan_base(clan.index, clan.anchor, config.vm.anchor).map(|b| (p, b)));
    match created {
        Ok((p, (base, _warning))) => {
            ai.vm = Some(Vm::new(p.variables.clone(), base, config.vm));
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

/// The game side of the VM for one clan.
struct GameHost<'a> {
    clan: u32,
    tick: u32,
    table: &'a ObjectTable,
    outcome: &'a mut MissionOutcome,
    notes: Vec<GameMessageKind>,
    note: Box<dyn Fn(String) -> GameMessageKind + 'a>,
}

impl Host for GameHost<'_> {
    fn callback(&mut self, mode: u32, first: u32, second: u32) {
        let outcome = match (mode, first, second) {
            (0, 0, 0) => Some(Outcome::Failed),
            (0, 0, 1) => Some(Outcome::Completed),
            _ => None,
        };
        match outcome {
            Some(o) => {
                if self.outcome.record(self.clan, o, self.tick) {
                    self.notes.push(GameMessageKind::Outcome { clan: self.clan, outcome: o });
                }
            }
            None => self.notes.push((self.note)(format!("unhandled host command ({mode}, {first}, {second})"))),
        }
    }

    fn target_exists(&mut self, key: u32) -> bool {
        self.table.entity_of(key).is_some()
    }

    fn call_target(&mut self, call: &TargetCall) -> Result<u32, String> {
        Err(format!("the action of Handler(15) on target {} is opaque", call.words[0]))
    }
}

fn event_name(ai: &SuperAi, event: Option<usize>) -> String {
    event.and_then(|e| ai.package.as_ref()?.scr.events.get(e).map(|e| e.display_name())).unwrap_or_default()
}

/// Runs `event` (by name; `None` = the first `Init` with its policy) of `ai`, returning
/// the messages to post.
fn run(
    ai: &mut SuperAi,
    event: Option<&str>,
    table: &ObjectTable,
    outcome: &mut MissionOutcome,
    tick: u32,
) -> Vec<GameMessageKind> {
    let (Some(pkg), Some(vm)) = (ai.package.clone(), ai.vm.as_mut()) else { return Vec::new() };
    let (clan, bundle) = (ai.clan.index, ai.clan.bundle.clone());
    let label = event.unwrap_or("Init").to_string();
    let note_bundle = bundle.clone();
    let note_event = label.clone();
    let mut host = GameHost {
        clan,
        tick,
        table,
        outcome,
        notes: Vec::new(),
        note: Box::new(move |detail| GameMessageKind::Script {
            clan,
            bundle: note_bundle.clone(),
            event: note_event.clone(),
            record: None,
            handler: Some(30),
            detail,
        }),
    };
    let (index, result) = match event {
        None => {
            let i = pkg.scr.events.iter().position(|e| e.c_name() == b"Init");
            (i, vm.run_init(&pkg.scr, &mut host))
        }
        Some(name) => vm.run_named(&pkg.scr, name, &mut host),
    };
    let mut notes = std::mem::take(&mut host.notes);
    drop(host);
    let handler = |s: Selector| match s {
        Selector::Handler(h) | Selector::Unknown(h) => Some(h),
        Selector::Sentinel => Some(u32::MAX),
    };
    let stopped = match &result {
        EventResult::Unsupported { record, selector, reason } => {
            Some(if ai.reported.insert((index.unwrap_or(usize::MAX), *record)) {
                (*record, *selector, format!("unsupported: {reason}"))
            } else {
                (*record, *selector, "stopped again at this record (reported before)".to_string())
            })
        }
        EventResult::Failed { record, selector, reason } => Some((*record, *selector, format!("failed: {reason}"))),
        EventResult::Missing | EventResult::Completed => None,
    };
    if matches!(result, EventResult::Completed) {
        notes.push(GameMessageKind::Script {
            clan,
            bundle: bundle.clone(),
            event: event_name(ai, index),
            record: None,
            handler: None,
            detail: "ran to its end".into(),
        });
    }
    if let Some((record, selector, detail)) = stopped {
        notes.push(GameMessageKind::Script {
            clan,
            bundle: bundle.clone(),
            event: event_name(ai, index),
            record: Some(record as u32),
            handler: handler(selector),
            detail,
        });
    }
    match &result {
        EventResult::Missing if event.is_some() => notes.push(GameMessageKind::Script {
            clan,
            bundle,
            event: label,
            record: None,
            handler: None,
            detail: "no such event".into(),
        }),
        _ => {}
    }
    if event.is_none() {
        ai.init = Some(result);
    }
    notes
}

/// The event scenario start runs after `Init` (the start dispatch of `docs/reference/runtime.md` §3.11, an
/// inferred order: "dispatch `Init`/mission start").
pub const START_EVENT: &str = "Mission";

/// Posts script reports on the World3D queue and as `ai` log lines.
fn post(world: &mut World, clock: &GameClock, notes: Vec<GameMessageKind>) {
    for kind in notes {
        log(&kind);
        world.write_message(GameMessage::new(clock, DispatchPhase::SuperAi, kind));
    }
}

/// One log line per script report: clan, bundle, event, record, handler, what happened.
fn log(kind: &GameMessageKind) {
    if let GameMessageKind::Script { clan, bundle, event, record, handler, detail } = kind {
        let at = |v: &Option<u32>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        tracing::info!(target: "ai", "clan {clan} {bundle} event {event:?} record {} handler {}: {detail}", at(record), at(handler));
    }
}

/// Scenario start: a SuperAI per clan record, slots for the loaded packages, then the
/// first `Init` of each and its [`START_EVENT`], in clan order.
fn start(world: &mut World) {
    let Some(clans) = world.get_resource::<MissionClans>().cloned() else { return };
    let config = *world.resource::<SuperAiConfig>();
    let mut ais: Vec<SuperAi> = clans.clans.iter().map(|c| create(c, clans.files.as_ref(), config)).collect();
    let clock = *world.resource::<GameClock>();
    let mut notes = Vec::new();
    world.resource_scope(|world, mut outcome: Mut<MissionOutcome>| {
        let table = world.resource::<ObjectTable>();
        for ai in &mut ais {
            if ai.error.is_none() {
                notes.extend(run(ai, None, table, &mut outcome, clock.tick));
                if config.init == InitPolicy::Strict
                    && matches!(ai.init, Some(EventResult::Unsupported { .. } | EventResult::Failed { .. }))
                {
                    ai.slot = None;
                    ai.error = Some("Init cannot run completely (strict load)".into());
                }
            }
            if ai.error.is_none() {
                notes.extend(run(ai, Some(START_EVENT), table, &mut outcome, clock.tick));
            }
            if let Some(e) = &ai.error {
                notes.push(GameMessageKind::Script {
                    clan: ai.clan.index,
                    bundle: ai.clan.bundle.clone(),
                    event: String::new(),
                    record: None,
                    handler: None,
                    detail: format!("no SuperAI slot: {e}"),
                });
            }
        }
    });
    let mut slots = SuperAiSlots::default();
    for ai in &ais {
        if let Some(s) = ai.slot {
            slots.0[s as usize] = Some(ai.clan.index);
        }
    }
    world.insert_resource(slots);
    world.insert_resource(SuperAis(ais));
    post(world, &clock, notes);
}

/// Runs the requested events, in request order; a request with a fallback outcome
/// records it through the host callback when the clan is still without one after the
/// event.
fn run_requested(
    mut requests: MessageReader<RunScriptEvent>,
    mut ais: ResMut<SuperAis>,
    table: Res<ObjectTable>,
    mut outcome: ResMut<MissionOutcome>,
    clock: Res<GameClock>,
    mut out: MessageWriter<GameMessage>,
) {
    for r in requests.read() {
        let notes = match ais.0.iter_mut().find(|a| a.slot == Some(r.slot)) {
            None => vec![GameMessageKind::Script {
                clan: u32::MAX,
                bundle: String::new(),
                event: r.event.clone(),
                record: None,
                handler: None,
                detail: format!("GetSuperAI({}) is empty", r.slot),
            }],
            Some(ai) => {
                let mut notes = run(ai, Some(&r.event), &table, &mut outcome, clock.tick);
                if let Some(fallback) = r.fallback.filter(|_| outcome.of(ai.clan.index).is_none()) {
                    notes.extend(callback(ai, fallback, &table, &mut outcome, clock.tick));
                }
                notes
            }
        };
        for kind in notes {
            log(&kind);
            out.write(GameMessage::new(&clock, DispatchPhase::SuperAi, kind));
        }
    }
}

/// Handler(30)'s host callback for `outcome`, called by the host itself (the project's
/// victory and defeat rule): `(0, 0, 1)` completed, `(0, 0, 0)` failed.
fn callback(
    ai: &SuperAi,
    outcome: Outcome,
    table: &ObjectTable,
    recorded: &mut MissionOutcome,
    tick: u32,
) -> Vec<GameMessageKind> {
    let (clan, bundle) = (ai.clan.index, ai.clan.bundle.clone());
    let mut host = GameHost {
        clan,
        tick,
        table,
        outcome: recorded,
        notes: Vec::new(),
        note: Box::new(move |detail| GameMessageKind::Script {
            clan,
            bundle: bundle.clone(),
            event: String::new(),
            record: None,
            handler: Some(30),
            detail,
        }),
    };
    host.callback(0, 0, u32::from(outcome == Outcome::Completed));
    host.notes
}

#[cfg(test)]
mod tests;
