//! A clan's problems (gameplay.md §2.4, §2.5 after dragonee/openparkan
//! `docs/15-behaviour.md`, "Problems"): function 2 raises a problem by the *name* of its
//! code variable, looking up the handlers `<name>_Start` and `<name>_Continue` — if
//! either is missing nothing is raised (*read*) — and raises none while one with the
//! same code, *p1* and *p2* stands; functions 8, 12, 62, 27 and 29 act on the *running*
//! problem.
//!
//! An existing problem is refreshed when function 2 gives it another weight (the data
//! flow of `docs/reference/runtime.md` §3.3.1: the weight and *p3* replaced, *a* advanced
//! by its first value, wrapping; the identity compares words exactly).
//!
//! **The project's rule** (the original's is not read, gameplay.md §15: who writes
//! `dCurrentProblem` and when `_Continue` runs): after each takt's `Problems<n>`, every
//! problem standing then runs once, in the order they were raised — `_Start` the first
//! time, `_Continue` after — as the running problem, with `dCurrentProblem` set to its
//! position; a problem whose state became `ST_SOLVED` (2) or `ST_UNSOLVED` (3) is then
//! dropped (its units released: the project attaches none), so it can be raised again.

use serde::{Deserialize, Serialize};

/// `ST_SOLVING`.
pub const ST_SOLVING: u32 = 1;
/// `ST_SOLVED`.
pub const ST_SOLVED: u32 = 2;
/// `ST_UNSOLVED` (the state `docs/reference/runtime.md` §3.3.2 treats like 2).
pub const ST_UNSOLVED: u32 = 3;

/// What function 2 is given, its arguments fetched.
#[derive(Debug, Clone, PartialEq)]
pub struct Raise {
    /// The code variable's word.
    pub code: u32,
    /// The code variable's name (`PBM_ROBOT_NEEDED`).
    pub name: String,
    /// The weight (a priority: a unit busy on a lighter problem may be taken).
    pub weight: f32,
    /// *a*, *b* (their use is not read).
    pub a: u32,
    /// See `a`.
    pub b: u32,
    /// *p1*, *p2*, *p3*.
    pub params: [u32; 3],
}

/// One raised problem (the original's 0x64-byte record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// The code (`PBM_*` word).
    pub code: u32,
    /// The code variable's name.
    pub name: String,
    /// Handler index of `<name>_Start`.
    pub start: usize,
    /// Handler index of `<name>_Continue`.
    pub resume: usize,
    /// The weight.
    pub weight: f32,
    /// *a* (advanced by its first value on each refresh).
    pub a: u32,
    /// *a*'s first value.
    pub a_step: u32,
    /// *b*.
    pub b: u32,
    /// *p1*, *p2*, *p3*.
    pub params: [u32; 3],
    /// The state (`ST_*`; 0 when raised).
    pub state: u32,
    /// Whether its `_Start` ran (the project's rule above).
    pub started: bool,
    /// What function 27 recorded: `(action, target kind, target words)`.
    pub actions: Vec<(u32, u32, Vec<u32>)>,
}

/// What [`Problems::raise`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raised {
    /// A new problem at this position.
    New(usize),
    /// The standing one at this position got another weight.
    Refreshed(usize),
    /// The standing one at this position already had this weight.
    Standing(usize),
    /// `<name>_Start` or `<name>_Continue` is missing: nothing raised.
    NoHandlers,
}

/// A clan's problems and the running one.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Problems {
    /// Standing problems, in the order they were raised.
    pub list: Vec<Problem>,
    /// The running problem's position (while its handler runs).
    pub running: Option<usize>,
}

impl Problems {
    /// Raises `r`; `handler` finds a handler's index by name.
    pub fn raise(&mut self, r: Raise, handler: impl Fn(&str) -> Option<usize>) -> Raised {
        let same = |p: &Problem| p.code == r.code && p.params[0] == r.params[0] && p.params[1] == r.params[1];
        if let Some(i) = self.list.iter().position(same) {
            let p = &mut self.list[i];
            if p.weight.to_bits() == r.weight.to_bits() {
                return Raised::Standing(i);
            }
            p.weight = r.weight;
            p.params[2] = r.params[2];
            p.a = p.a.wrapping_add(p.a_step);
            return Raised::Refreshed(i);
        }
        let (Some(start), Some(resume)) =
            (handler(&format!("{}_Start", r.name)), handler(&format!("{}_Continue", r.name)))
        else {
            return Raised::NoHandlers;
        };
        self.list.push(Problem {
            code: r.code,
            name: r.name,
            start,
            resume,
            weight: r.weight,
            a: r.a,
            a_step: r.a,
            b: r.b,
            params: r.params,
            state: 0,
            started: false,
            actions: Vec::new(),
        });
        Raised::New(self.list.len() - 1)
    }

    /// The running problem.
    ///
    /// # Errors
    /// No problem is running.
    pub fn current(&mut self) -> Result<&mut Problem, String> {
        let at = self.running;
        at.and_then(|i| self.list.get_mut(i)).ok_or_else(|| "no problem is running".to_string())
    }

    /// Drops the problems whose state closed them (`ST_SOLVED`, `ST_UNSOLVED`).
    pub fn drop_closed(&mut self) {
        self.list.retain(|p| !matches!(p.state, ST_SOLVED | ST_UNSOLVED));
    }
}
