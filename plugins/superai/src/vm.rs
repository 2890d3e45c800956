//! The script VM of one SuperAI (`docs/reference/runtime.md` §3.2–§3.5): executes the records of
//! an event in order through the handler table. Only the handlers the spec proves are
//! executed — 0, 1, 2, 8, 15, 19, 30 and 57; every other selector (an opaque table
//! entry or a value outside the table) stops the event with an explicit
//! [`EventResult::Unsupported`], never a silent no-op. The sentinel selector
//! `0xFFFFFFFF` carries no action and is passed over (project reading, see
//! [`SentinelPolicy`]).

use crate::handlers::{check_shape, target_refs};
use crate::scheduler::Scheduler;
use crate::variables::{Variable, kind};
use iron3d_formats::script::init::{ANCHOR_LIMIT, AnchorRule, convert_anchor};
use iron3d_formats::script::{Event, Record, ScrPackage, Selector};

/// VM flag value set by Handler(0) and a non-zero Handler(15) result.
pub const FLAG_ACTIVE: u32 = 1;
/// VM flag value of Handler(15) when its target is missing.
pub const FLAG_NO_TARGET: u32 = 5;
/// Problem records of the table at `this+0xA0` (the spec does not give the count:
/// the project's own bound).
pub const PROBLEM_SLOTS: usize = 64;
/// Words of one 100-byte problem record.
pub const PROBLEM_WORDS: usize = 25;
/// Name of the variable Handler(8) reads the current problem from.
pub const CURRENT_PROBLEM: &str = "dCurrentProblem";

/// What to do with the sentinel selector `0xFFFFFFFF` (its meaning is not proven).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SentinelPolicy {
    /// Pass over it (the project's reading: a marker without action).
    #[default]
    Skip,
    /// Treat it like any unproven selector.
    Unsupported,
}

/// VM switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VmConfig {
    /// Handler(19) anchor conversion (reading A by default, `docs/reference/runtime.md` §3.4).
    pub anchor: AnchorRule,
    /// The sentinel selector.
    pub sentinel: SentinelPolicy,
}

/// A scalar on the VM's x87 stack (Handler(1), `docs/reference/runtime.md` §3.3).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Scalar {
    /// A number (kinds 1, 3, 5).
    Number(f64),
    /// Kind 2: one of two static constants (values not recovered), chosen by the payload.
    BoolConstant(bool),
    /// Another kind: the fixed fallback scalar (value not recovered).
    Fallback,
}

/// How an event run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum EventResult {
    /// No event of that name: nothing ran, nothing was written.
    Missing,
    /// Every record ran (an empty event counts as executed).
    Completed,
    /// A record the VM cannot execute: the event stopped there (or, for `Init`, never
    /// started).
    Unsupported {
        /// Record index.
        record: usize,
        /// Its selector.
        selector: Selector,
        /// Why.
        reason: String,
    },
    /// A record failed at run time (the original raises an exception here).
    Failed {
        /// Record index.
        record: usize,
        /// Its selector.
        selector: Selector,
        /// Why.
        reason: String,
    },
}

/// The call record Handler(15) hands to its target (`docs/reference/runtime.md` §3.3.3).
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCall {
    /// Reference 0..3 words (reference 0 is the lookup key).
    pub words: [u32; 4],
    /// Reference 4..7 floats.
    pub floats: [f32; 4],
    /// The mode (reference 8).
    pub mode: u32,
    /// The mode-specific tail (references 9 and, for `TARGET_BY_PLACE`, 10).
    pub tail: Vec<u32>,
    /// The argument passed with the record (reference 2).
    pub argument: u32,
}

/// What the VM asks of the game.
pub trait Host {
    /// The host callback `(mode, first, second)` (Handler(30): mode 0; Handler(57): 2).
    fn callback(&mut self, mode: u32, first: u32, second: u32);
    /// Whether Handler(15)'s target with `key` exists.
    fn target_exists(&mut self, key: u32) -> bool;
    /// Invokes the target (its action is opaque): `Ok(result)` or `Err(why)` when the
    /// host cannot perform it (the event then stops as unsupported).
    ///
    /// # Errors
    /// The action is not available.
    fn call_target(&mut self, call: &TargetCall) -> Result<u32, String>;
    /// The two opaque callbacks of Handler(8) states 2 and 3.
    fn problem_reset(&mut self, _state: u32) {}
}

/// The SuperAI fields Handler(19) reads (`docs/reference/runtime.md` §3.4): `+0x7C` clan index, `+0x80`/`+0x84`
/// base X/Y as converted at creation.
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

/// The state of one VM.
#[derive(Debug, Clone, PartialEq)]
pub struct Vm {
    /// Variables (reference order).
    pub vars: Vec<Variable>,
    /// VM flag `+0x50`.
    pub flag: u32,
    /// The current context set by Handler(0): `(event, record)` and the first word of
    /// its first reference, when it has one.
    pub context: Option<(usize, usize, Option<u32>)>,
    /// The last scalar produced by Handler(1).
    pub scalar: Option<Scalar>,
    /// Handler(2)'s scheduler.
    pub scheduler: Scheduler,
    /// Problem records (`this+0xA0`), 25 words each.
    pub problems: Vec<[u32; PROBLEM_WORDS]>,
    /// Index of `dCurrentProblem` (`this+0x868`).
    pub current_problem: Option<usize>,
    /// The clan base fields.
    pub base: ClanBase,
    /// Switches.
    pub config: VmConfig,
}

/// Whether the VM executes selector `s`.
pub fn supported(s: Selector, sentinel: SentinelPolicy) -> bool {
    match s {
        Selector::Handler(h) => matches!(h, 0 | 1 | 2 | 8 | 15 | 19 | 30 | 57),
        Selector::Sentinel => sentinel == SentinelPolicy::Skip,
        Selector::Unknown(_) => false,
    }
}

enum Stop {
    Unsupported(String),
    Failed(String),
}

impl Vm {
    /// A VM over the package's initial variables.
    pub fn new(vars: Vec<Variable>, base: ClanBase, config: VmConfig) -> Self {
        let current_problem = vars.iter().position(|v| v.name == CURRENT_PROBLEM && v.kind == kind::DWORD);
        Self {
            vars,
            flag: 0,
            context: None,
            scalar: None,
            scheduler: Scheduler::default(),
            problems: vec![[0; PROBLEM_WORDS]; PROBLEM_SLOTS],
            current_problem,
            base,
            config,
        }
    }

    /// The current word of the variable named `name`.
    pub fn var(&self, name: &str) -> Option<u32> {
        self.vars.iter().find(|v| v.name == name).map(|v| v.word)
    }

    /// Runs the first event named `name` (case-sensitive C-string comparison, `docs/reference/runtime.md` §3.4).
    pub fn run_named(&mut self, pkg: &ScrPackage, name: &str, host: &mut dyn Host) -> (Option<usize>, EventResult) {
        match pkg.events.iter().position(|e| e.c_name() == name.as_bytes()) {
            Some(i) => (Some(i), self.run_event(pkg, i, host)),
            None => (None, EventResult::Missing),
        }
    }

    /// Runs event `index`: records in order until the end or the first record that is
    /// unsupported or fails (the records before it keep their effects).
    pub fn run_event(&mut self, pkg: &ScrPackage, index: usize, host: &mut dyn Host) -> EventResult {
        let Some(event) = pkg.events.get(index) else { return EventResult::Missing };
        for (r, record) in event.records.iter().enumerate() {
            if let Err(stop) = self.execute(pkg, index, r, record, host) {
                return stop_result(r, record.selector(), stop);
            }
        }
        EventResult::Completed
    }

    /// Runs the first `Init` with the execution policy of `docs/reference/runtime.md` §3.4: nothing happens
    /// unless every record of it is supported and well-formed; a run-time failure
    /// restores the variables and VM state from before the event.
    pub fn run_init(&mut self, pkg: &ScrPackage, host: &mut dyn Host) -> EventResult {
        let Some(index) = pkg.events.iter().position(|e| e.c_name() == b"Init") else { return EventResult::Missing };
        let event: &Event = &pkg.events[index];
        for (r, record) in event.records.iter().enumerate() {
            let s = record.selector();
            if !supported(s, self.config.sentinel) {
                return EventResult::Unsupported { record: r, selector: s, reason: unsupported_reason(s) };
            }
            if let Selector::Handler(h) = s
                && let Err(why) = check_shape(h, &record.refs, &self.vars)
            {
                return EventResult::Unsupported { record: r, selector: s, reason: why };
            }
        }
        let before = self.clone();
        let result = self.run_event(pkg, index, host);
        if matches!(result, EventResult::Failed { .. } | EventResult::Unsupported { .. }) {
            *self = before;
        }
        result
    }

    fn word(&self, r: u32) -> u32 {
        self.vars[r as usize].word
    }

    fn execute(&mut self, pkg: &ScrPackage, e: usize, r: usize, rec: &Record, host: &mut dyn Host) -> Result<(), Stop> {
        let h = match rec.selector() {
            Selector::Sentinel if self.config.sentinel == SentinelPolicy::Skip => return Ok(()),
            Selector::Handler(h) if supported(Selector::Handler(h), self.config.sentinel) => h,
            s => return Err(Stop::Unsupported(unsupported_reason(s))),
        };
        check_shape(h, &rec.refs, &self.vars).map_err(Stop::Failed)?;
        let refs = rec.refs.as_slice();
        match h {
            0 => {
                let first = refs.first().and_then(|x| self.vars.get(*x as usize)).map(|v| v.word);
                self.context = Some((e, r, first));
                self.flag = FLAG_ACTIVE;
            }
            1 => self.scalar = Some(self.scalar_of(refs[0]).map_err(Stop::Unsupported)?),
            2 => {
                let slot1 = match self.scalar_of(refs[1]).map_err(Stop::Unsupported)? {
                    Scalar::Number(v) => v,
                    other => return Err(Stop::Unsupported(format!("slot 1 is not numeric ({other:?})"))),
                };
                let v0 = &self.vars[refs[0] as usize];
                let input = crate::scheduler::Slots {
                    word: v0.word,
                    base: v0.name.clone(),
                    numeric: slot1,
                    a: self.word(refs[2]),
                    b: self.word(refs[3]),
                    key4: self.float_slot(refs[4]),
                    key5: self.float_slot(refs[5]),
                    value6: self.float_slot(refs[6]),
                };
                self.scheduler.schedule(pkg, input);
                self.flag = 0;
            }
            8 => {
                let state = self.word(refs[0]);
                let var = self.current_problem.ok_or_else(|| Stop::Failed(format!("no {CURRENT_PROBLEM} variable")))?;
                let index = self.vars[var].word as usize;
                let count = self.problems.len();
                let p = self
                    .problems
                    .get_mut(index)
                    .ok_or_else(|| Stop::Failed(format!("problem {index} out of range ({count} records)")))?;
                if state == 2 || state == 3 {
                    for w in [0, 1, 2, 3, 6] {
                        if !(state == 3 && w == 3) {
                            p[w] = 0;
                        }
                    }
                    host.problem_reset(state);
                    host.problem_reset(state);
                }
                self.problems[index][6] = state;
            }
            15 => {
                let key = self.word(refs[0]);
                let m = self.word(refs[8]);
                if target_refs(m) != Some(refs.len()) {
                    return Err(Stop::Failed(format!("mode {m:#x} does not fit {} references", refs.len())));
                }
                if !host.target_exists(key) {
                    self.flag = FLAG_NO_TARGET;
                    return Ok(());
                }
                let call = TargetCall {
                    words: [key, self.word(refs[1]), self.word(refs[2]), self.word(refs[3])],
                    floats: [4, 5, 6, 7].map(|i| f32::from_bits(self.word(refs[i]))),
                    mode: m,
                    tail: refs[9..].iter().map(|x| self.word(*x)).collect(),
                    argument: self.word(refs[2]),
                };
                let result = host.call_target(&call).map_err(Stop::Unsupported)?;
                self.flag = u32::from(result != 0);
            }
            19 => {
                let base = self.base;
                for (x, word) in refs.iter().zip([base.x, base.y, base.clan]) {
                    self.vars[*x as usize].word = word;
                }
                self.flag = 0;
            }
            30 => host.callback(0, self.word(refs[0]), self.word(refs[1])),
            57 => {
                let arg = |i: usize| refs.get(i).map_or(0, |x| self.word(*x));
                host.callback(2, arg(0), arg(1));
            }
            _ => return Err(Stop::Unsupported(unsupported_reason(Selector::Handler(h)))),
        }
        Ok(())
    }

    /// Handler(1)'s conversion of variable `r` by declaration kind (`docs/reference/runtime.md` §3.3).
    fn scalar_of(&self, r: u32) -> Result<Scalar, String> {
        let v = &self.vars[r as usize];
        match v.kind {
            kind::INT => Ok(Scalar::Number(f64::from(v.word as i32))),
            kind::BOOL => Ok(Scalar::BoolConstant(v.word != 0)),
            kind::FLOAT => Ok(Scalar::Number(f64::from(f32::from_bits(v.word)))),
            kind::DWORD => Ok(Scalar::Number(f64::from(v.word))),
            kind::OPAQUE | kind::STRING => Err(format!("variable {} has kind {} (opaque conversion)", v.name, v.kind)),
            _ => Ok(Scalar::Fallback),
        }
    }

    /// Handler(2) slots 4..6: a float only from kinds 5 or 3, anything else `0.0`.
    fn float_slot(&self, r: u32) -> f32 {
        let v = &self.vars[r as usize];
        match v.kind {
            kind::FLOAT => f32::from_bits(v.word),
            kind::DWORD => v.word as f32,
            _ => 0.0,
        }
    }
}

fn unsupported_reason(s: Selector) -> String {
    match s {
        Selector::Handler(h) => format!("Handler({h}) is not proven (opaque)"),
        Selector::Unknown(n) => format!("selector {n:#x} is outside the handler table"),
        Selector::Sentinel => "the sentinel selector is treated as unsupported".into(),
    }
}

fn stop_result(record: usize, selector: Selector, stop: Stop) -> EventResult {
    match stop {
        Stop::Unsupported(reason) => EventResult::Unsupported { record, selector, reason },
        Stop::Failed(reason) => EventResult::Failed { record, selector, reason },
    }
}
