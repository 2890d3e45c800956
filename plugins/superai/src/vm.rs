//! The script VM of one SuperAI (gameplay.md §2.2 after dragonee/openparkan
//! `docs/15-behaviour.md`, "The kind" to "The jumps"): runs a handler's nodes in order.
//!
//! * **statement** (kind −1): `head0` set — call the function (`crate::functions`) and
//!   store its result slot in `head1`; else `head2` set — `head1` = that variable; else
//!   `head1` = the trailer's formula, through the float setter.
//! * **if** (0): compare the two operands by the relation — **unsigned `DWORD`s when the
//!   first operand's type tag is 5**, floats otherwise — and push the result ANDed with
//!   the enclosing block's; at most 32 blocks are open.
//! * **end** (1): pop; the depth is clamped at 0 (two shipped `Mission` handlers carry
//!   spare ends). **label** (2) does nothing.
//! * **goto** (3): continue at the node the operand numbers; **switch** (4): continue
//!   in the handler the operand numbers, at its node 0; **return** (5): stop. Each clears
//!   every open block. Running off a handler's end stops too.
//! * **constant** (6): `head1` = `head2` as a number (the `DWORD` setter) — **even inside
//!   a false block**: it is the one node that does not check the block's condition.
//!
//! A function the VM does not implement stops the handler with
//! [`EventResult::Unsupported`] (never skipped); a node that cannot run (no number in a
//! variable, a 33rd open block, no running problem) stops it with
//! [`EventResult::Failed`]. The project bounds one run to [`STEP_LIMIT`] nodes (a
//! script that loops forever is stopped, located).

use crate::designs::DesignDraw;
use crate::functions::{self, Call};
use crate::package::ScriptPackage;
use crate::problems::Problems;
use crate::variables::{Variable, kind};
use iron3d_formats::script::init::{ANCHOR_LIMIT, AnchorRule, convert_anchor};
use iron3d_formats::script::{NodeKind, Record};

/// The open blocks the interpreter keeps (its 32 condition bytes).
pub const MAX_BLOCKS: usize = 32;
/// Nodes one run may execute (the project's bound; the original has none).
pub const STEP_LIMIT: usize = 100_000;
/// The variable the engine writes the running problem into.
pub const CURRENT_PROBLEM: &str = "dCurrentProblem";

/// How functions 31 and 34 count a clan's objects (gameplay.md §13, **disputed**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CountRule {
    /// The objects the clan owns now (the retail recordings: counts fall on capture
    /// and destruction; openparkan's engine follows them).
    #[default]
    Live,
    /// Every object ever filed on the clan's list, alive or not (the code as read:
    /// the list is append-only, a captured object is filed on both clans).
    Filed,
}

/// VM switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VmConfig {
    /// Function 19's anchor conversion (reading A by default, `docs/reference/runtime.md` §3.4).
    pub anchor: AnchorRule,
    /// Functions 31 and 34.
    pub counts: CountRule,
}

/// Where a run stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopAt {
    /// The handler (index) running then (a switch may have moved there).
    pub handler: usize,
    /// The node's index in it.
    pub node: usize,
    /// The function the node calls, when it is a call.
    pub function: Option<u32>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventResult {
    /// No handler of that name: nothing ran.
    Missing,
    /// It returned or ran off its end.
    Completed,
    /// A function the VM does not implement: the handler stopped there.
    Unsupported {
        /// Where.
        at: StopAt,
        /// Why.
        reason: String,
    },
    /// A node could not run (the original would misbehave or raise an exception).
    Failed {
        /// Where.
        at: StopAt,
        /// Why.
        reason: String,
    },
}

/// What a function asks of the game (the SuperAI's world side).
pub trait Host {
    /// The node about to call a function (for the host's own reports).
    fn at(&mut self, handler: usize, node: usize, function: u32);
    /// Function 30: the host callback, channel 0 (`kind`, `value`).
    fn callback(&mut self, kind: u32, value: u32);
    /// Function 57: the host callback, channel 2 (its effect is not known).
    fn callback_2(&mut self, a: u32, b: u32);
    /// Function 15: give a unit an order packet; 1 taken, 0 refused, 5 no such object.
    fn order(&mut self, packet: &OrderPacket) -> u32;
    /// Function 15 with a `TARGET_BY_NAME` target: a factory's build of the design the
    /// clan's store picks under `draw`; as [`Host::order`].
    fn order_by_name(&mut self, packet: &OrderPacket, draw: DesignDraw) -> u32;
    /// Function 41: research centre `id` researches the clan's cheapest open design; 1, or
    /// 0 when there is none (or no store, or no such centre).
    fn research_design(&mut self, id: u32, draw: DesignDraw) -> u32;
    /// Function 31: clan `clan`'s units and buildings whose type shares a bit with `mask`.
    fn count_class(&mut self, clan: u32, mask: u32) -> u32;
    /// Function 34: the own clan's units and buildings whose type equals `ty`.
    fn count_type(&mut self, ty: u32) -> u32;
    /// Function 32: whether unit `id` was last reported inside route `route`'s areal.
    fn in_route(&mut self, route: u32, id: u32) -> bool;
    /// Function 52: object `id`'s owner clan, 65534 once destroyed, `ERROR` if none.
    fn owner(&mut self, id: u32) -> u32;
    /// Function 49: the clan's free minds.
    fn free_minds(&mut self) -> u32;
    /// Function 70: a random number below `n` (`n > 0`).
    fn random_below(&mut self, n: u32) -> u32;
}

/// Function 15's order packet (its arguments fetched as `DWORD`s and floats).
#[derive(Debug, Clone, PartialEq)]
pub struct OrderPacket {
    /// The unit's logical id.
    pub unit: u32,
    /// The order (`ORDER_*`, 1..24).
    pub order: u32,
    /// The insert mode: 1 to the end, 2 to the start, 3 replace.
    pub insert: u32,
    /// The order's parameter.
    pub parameter: u32,
    /// The four floats (`fSuccess`..`fIndependence`).
    pub floats: [f32; 4],
    /// The target kind (`TARGET_*`, or 0 `NONE`).
    pub target_kind: u32,
    /// The target's words (a logical id; a place's x and y).
    pub target: Vec<u32>,
}

/// The SuperAI fields function 19 reads (`+0x7C` clan index, `+0x80`/`+0x84` base X/Y as
/// converted at creation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClanBase {
    /// Zero-based clan index.
    pub clan: u32,
    /// Base X word.
    pub x: u32,
    /// Base Y word.
    pub y: u32,
}

/// The base of a clan from its anchor; `Err` when reading A rejects a coordinate above
/// 10000 (the SuperAI is then not created), warnings of reading B in the `bool`.
///
/// # Errors
/// The constructor's range rule under reading A.
pub fn clan_base(clan: u32, anchor: [f32; 2], rule: AnchorRule) -> Result<(ClanBase, bool), String> {
    let x = convert_anchor(f64::from(anchor[0]), rule).map_err(|e| format!("base X {}: {e}", anchor[0]))?;
    let y = convert_anchor(f64::from(anchor[1]), rule).map_err(|e| format!("base Y {}: {e}", anchor[1]))?;
    let warning = x.warning || y.warning;
    debug_assert!(rule == AnchorRule::RoundHalfEven || (x.word <= ANCHOR_LIMIT && y.word <= ANCHOR_LIMIT));
    Ok((ClanBase { clan, x: x.word, y: y.word }, warning))
}

/// The state of one VM: what persists from run to run (and into saves).
#[derive(Debug, Clone, PartialEq)]
pub struct Vm {
    /// Variables (reference order).
    pub vars: Vec<Variable>,
    /// The clan's problems.
    pub problems: Problems,
    /// The clan clock of functions 59 and 60, whole seconds: the game time at creation
    /// over 1000, then **+7 per clan takt**.
    pub clock: u32,
    /// *n* of the problem handler `Problems<n>` (function 33; 0 at creation).
    pub problem_handler: u32,
    /// Game time (ms) of the clan's next takt.
    pub next_takt_ms: u32,
    /// Index of `dCurrentProblem`, when the table declares it.
    pub current_problem: Option<usize>,
    /// The clan base fields.
    pub base: ClanBase,
    /// Functions 43 and 69: the design store loaded, the pick's spread.
    pub designs: DesignDraw,
}

/// Why a node stopped the run.
pub(crate) enum Stop {
    Unsupported(String),
    Failed(String),
}

/// The open blocks: one condition per block.
#[derive(Debug, Default)]
struct Blocks {
    open: Vec<bool>,
}

impl Blocks {
    fn live(&self) -> bool {
        self.open.last().copied().unwrap_or(true)
    }

    fn push(&mut self, holds: bool) -> Result<(), Stop> {
        if self.open.len() == MAX_BLOCKS {
            return Err(Stop::Failed(format!("an if opens block {} (at most {MAX_BLOCKS})", MAX_BLOCKS + 1)));
        }
        let live = self.live();
        self.open.push(live && holds);
        Ok(())
    }
}

/// Fetches operand `i` of `node` (a variable).
pub(crate) fn operand<'v>(vars: &'v [Variable], node: &Record, i: usize) -> Result<&'v Variable, Stop> {
    let r = *node.ops.get(i).ok_or_else(|| Stop::Failed(format!("operand {i} is missing")))?;
    vars.get(r as usize).ok_or_else(|| Stop::Failed(format!("operand {i} = {r} names no variable")))
}

fn dest<'v>(vars: &'v mut [Variable], node: &Record) -> Result<Option<&'v mut Variable>, Stop> {
    match node.dest() {
        None => Ok(None),
        Some(d) => {
            vars.get_mut(d as usize).map(Some).ok_or_else(|| Stop::Failed(format!("destination {d} names no variable")))
        }
    }
}

impl Vm {
    /// A VM over the package's initial variables; its clock starts at `now_ms` / 1000.
    pub fn new(vars: Vec<Variable>, base: ClanBase, now_ms: u32) -> Self {
        let current_problem = vars.iter().position(|v| v.name == CURRENT_PROBLEM && v.kind == kind::DWORD);
        Self {
            vars,
            problems: Problems::default(),
            clock: now_ms / 1000,
            problem_handler: 0,
            next_takt_ms: 0,
            current_problem,
            base,
            designs: DesignDraw::default(),
        }
    }

    /// The current word of the variable named `name`.
    pub fn var(&self, name: &str) -> Option<u32> {
        self.vars.iter().find(|v| v.name == name).map(|v| v.word)
    }

    /// Runs the first handler named `name` (case-sensitive C-string comparison).
    pub fn run_named(&mut self, pkg: &ScriptPackage, name: &str, host: &mut dyn Host) -> (Option<usize>, EventResult) {
        match pkg.handler(name) {
            Some(i) => (Some(i), self.run_event(pkg, i, host)),
            None => (None, EventResult::Missing),
        }
    }

    /// Runs handler `index` from its node 0 until it returns, runs off its end or
    /// stops (the nodes before keep their effects).
    pub fn run_event(&mut self, pkg: &ScriptPackage, index: usize, host: &mut dyn Host) -> EventResult {
        let (mut handler, mut node) = (index, 0usize);
        let mut blocks = Blocks::default();
        for _ in 0..STEP_LIMIT {
            let Some(event) = pkg.scr.events.get(handler) else { return EventResult::Missing };
            let Some(record) = event.records.get(node) else { return EventResult::Completed };
            let at = |function| StopAt { handler, node, function };
            let live = blocks.live();
            let step = match record.kind() {
                NodeKind::Statement if live => self.statement(pkg, handler, node, record, host).map(|()| None),
                NodeKind::If => self.compare(record).and_then(|holds| blocks.push(holds)).map(|()| None),
                NodeKind::End => {
                    blocks.open.pop();
                    Ok(None)
                }
                NodeKind::Goto if live => Ok(Some((handler, record.ops.first().copied().unwrap_or(u32::MAX) as usize))),
                NodeKind::Switch if live => Ok(Some((record.ops.first().copied().unwrap_or(u32::MAX) as usize, 0))),
                NodeKind::Return if live => return EventResult::Completed,
                NodeKind::Constant => self.constant(record).map(|()| None),
                NodeKind::Unknown(w) => Err(Stop::Failed(format!("node kind {w} is not one of -1..6"))),
                _ => Ok(None),
            };
            match step {
                Ok(None) => node += 1,
                Ok(Some(jump)) => {
                    (handler, node) = jump;
                    blocks.open.clear();
                }
                Err(stop) => {
                    let at = at(record.function());
                    return match stop {
                        Stop::Unsupported(reason) => EventResult::Unsupported { at, reason },
                        Stop::Failed(reason) => EventResult::Failed { at, reason },
                    };
                }
            }
        }
        EventResult::Failed {
            at: StopAt { handler, node, function: None },
            reason: format!("the run exceeds {STEP_LIMIT} nodes (the project's bound)"),
        }
    }

    fn statement(
        &mut self,
        pkg: &ScriptPackage,
        handler: usize,
        node: usize,
        record: &Record,
        host: &mut dyn Host,
    ) -> Result<(), Stop> {
        if let Some(f) = record.function() {
            host.at(handler, node, f);
            let mut call = Call {
                vars: &mut self.vars,
                problems: &mut self.problems,
                clock: &mut self.clock,
                problem_handler: &mut self.problem_handler,
                designs: &mut self.designs,
                base: self.base,
                pkg,
                host,
            };
            let result = functions::call(f, record, &mut call)?;
            if let Some(d) = dest(&mut self.vars, record)? {
                d.set_word(result).map_err(Stop::Failed)?;
            }
        } else if let Some(s) = record.source() {
            let source =
                self.vars.get(s as usize).ok_or_else(|| Stop::Failed(format!("source {s} names no variable")))?;
            let (as_float, as_dword) = (source.float(), source.dword());
            if let Some(d) = dest(&mut self.vars, record)? {
                if d.kind == kind::FLOAT {
                    d.set_float(as_float.map_err(Stop::Failed)?)
                } else {
                    d.set_word(as_dword.map_err(Stop::Failed)?)
                }
                .map_err(Stop::Failed)?;
            }
        } else if let Some(f) = record.formula() {
            let formula =
                pkg.formulas.get(f as usize).ok_or_else(|| Stop::Failed(format!("formula {f} does not exist")))?;
            let value = formula.eval(&self.vars).map_err(Stop::Failed)?;
            if let Some(d) = dest(&mut self.vars, record)? {
                d.set_float(value).map_err(Stop::Failed)?;
            }
        } else {
            return Err(Stop::Failed("a statement with no function, source or formula".into()));
        }
        Ok(())
    }

    /// An `if`'s comparison.
    fn compare(&self, record: &Record) -> Result<bool, Stop> {
        let relation = record
            .relation()
            .ok_or_else(|| Stop::Failed(format!("relation {} is not one of 0..5", record.relation)))?;
        let (a, b) = (operand(&self.vars, record, 0)?, operand(&self.vars, record, 1)?);
        if a.kind == kind::DWORD {
            Ok(relation.holds(a.dword().map_err(Stop::Failed)?, b.dword().map_err(Stop::Failed)?))
        } else {
            Ok(relation.holds(a.float().map_err(Stop::Failed)?, b.float().map_err(Stop::Failed)?))
        }
    }

    /// A constant: `head2` as a number; a `DWORD` destination takes the word, a float
    /// one the number as a signed integer (the project's reading: every shipped
    /// destination is a `DWORD`).
    fn constant(&mut self, record: &Record) -> Result<(), Stop> {
        let number = record.head[2];
        match dest(&mut self.vars, record)? {
            Some(d) if d.kind == kind::FLOAT => d.set_float(f64::from(number as i32)).map_err(Stop::Failed),
            Some(d) => d.set_word(number).map_err(Stop::Failed),
            None => Ok(()),
        }
    }
}
