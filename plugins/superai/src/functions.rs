//! The function table (gameplay.md §2.5 after dragonee/openparkan `docs/15-behaviour.md`,
//! "What the functions do", and `docs/34-progression.md`): slot *n* is function *n*; a
//! function fetches its operands itself, as `DWORD`s or floats, and leaves its answer
//! in the result slot (cleared to 0 before each call), which the statement stores in
//! its destination.
//!
//! Implemented (each *read* in the original unless marked): 0 (a stub answering 1), 1
//! (reads a float, drops it), 2 (raise a problem, `crate::problems`), 8 (the running
//! problem's state), 9 (a stub), 12 / 62 (its weight), 15 (an order packet to any clan's
//! unit: 1 taken, 0 refused, 5 no object), 19 (base X, base Y, clan index out), 27 (an
//! action on the running problem), 29 (its *p1*..*p3*, `ERROR` if it has none), 30 (the
//! host callback, channel 0), 31 (count a clan's units and buildings with
//! `type & mask ≠ 0`), 32 (a unit in a route), 33 (run `Problems<n>` from now on), 34
//! (count the own clan's of exactly a type), 49 (free minds), 52 (an object's owner),
//! 57 (the callback's channel 2), 59 / 60 (the clan clock's timers), 70 (a random
//! number below *n*), 41 (a research centre researches the cheapest open design), 43
//! (load the design store) and 69 (the design pick's spread, kept when not negative; 1),
//! whose pick function 15 makes for a `TARGET_BY_NAME` target (`crate::designs`). Every other function stops the handler as unsupported.

use crate::designs::DesignDraw;
use crate::host::TARGET_BY_NAME;
use crate::package::ScriptPackage;
use crate::problems::{Problems, Raise};
use crate::variables::Variable;
use crate::vm::{ClanBase, Host, OrderPacket, Stop, operand};
use iron3d_formats::script::Record;
use iron3d_formats::script::functions::*;

/// What a function may touch: the VM's state and the host.
pub(crate) struct Call<'a> {
    /// The variables.
    pub vars: &'a mut [Variable],
    /// The problems.
    pub problems: &'a mut Problems,
    /// The clan clock (whole seconds).
    pub clock: &'a mut u32,
    /// *n* of `Problems<n>`.
    pub problem_handler: &'a mut u32,
    /// Functions 43 and 69's state.
    pub designs: &'a mut DesignDraw,
    /// The clan base.
    pub base: ClanBase,
    /// The package (function 2 looks handlers up by name).
    pub pkg: &'a ScriptPackage,
    /// The game side.
    pub host: &'a mut dyn Host,
}

/// The operands a function reads (the fewest a node must give), for the functions the
/// VM implements; `None` for the others.
pub fn arity(f: u32) -> Option<usize> {
    Some(match f {
        STUB_ONE | STUB_NOTHING | PROBLEM_WEIGHT | FREE_MINDS | LOAD_DESIGNS => 0,
        STUB_READ | PROBLEM_STATE | SET_PROBLEM_WEIGHT | PROBLEM_PARAMETER | PROBLEM_HANDLER | COUNT_TYPE | OWNER
        | TIMER | TIMER_PASSED | RESEARCH_DESIGN | DESIGN_SPREAD | RANDOM => 1,
        PROBLEM_ACTION | CALLBACK | COUNT_CLASS | IN_ROUTE | CALLBACK_2 => 2,
        CLAN_BASE => 3,
        RAISE_PROBLEM => 7,
        ORDER_UNIT => 9,
        _ => return None,
    })
}

impl Call<'_> {
    fn dword(&self, node: &Record, i: usize) -> Result<u32, Stop> {
        operand(self.vars, node, i)?.dword().map_err(Stop::Failed)
    }

    fn float(&self, node: &Record, i: usize) -> Result<f64, Stop> {
        operand(self.vars, node, i)?.float().map_err(Stop::Failed)
    }

    /// Writes `word` into operand `i` (an "out" operand).
    fn out(&mut self, node: &Record, i: usize, word: u32) -> Result<(), Stop> {
        operand(self.vars, node, i)?;
        let r = node.ops[i] as usize;
        self.vars[r].set_word(word).map_err(Stop::Failed)
    }

    fn dwords(&self, node: &Record, from: usize) -> Result<Vec<u32>, Stop> {
        (from..node.ops.len()).map(|i| self.dword(node, i)).collect()
    }
}

/// Runs function `f` of `node`; its result slot.
pub(crate) fn call(f: u32, node: &Record, c: &mut Call<'_>) -> Result<u32, Stop> {
    if let Some(n) = arity(f).filter(|n| node.ops.len() < *n) {
        return Err(Stop::Failed(format!("function {f} reads {n} operands, the node gives {}", node.ops.len())));
    }
    Ok(match f {
        STUB_ONE => 1,
        STUB_READ => {
            c.float(node, 0)?;
            0
        }
        STUB_NOTHING => 0,
        RAISE_PROBLEM => {
            let code = operand(c.vars, node, 0)?;
            let raise = Raise {
                code: code.dword().map_err(Stop::Failed)?,
                name: code.name.clone(),
                weight: c.float(node, 1)? as f32,
                a: c.dword(node, 2)?,
                b: c.dword(node, 3)?,
                params: [c.dword(node, 4)?, c.dword(node, 5)?, c.dword(node, 6)?],
            };
            let pkg = c.pkg;
            c.problems.raise(raise, |name| pkg.handler(name));
            0
        }
        PROBLEM_STATE => {
            let state = c.dword(node, 0)?;
            c.problems.current().map_err(Stop::Failed)?.state = state;
            0
        }
        PROBLEM_WEIGHT => c.problems.current().map_err(Stop::Failed)?.weight.to_bits(),
        SET_PROBLEM_WEIGHT => {
            let weight = c.float(node, 0)? as f32;
            c.problems.current().map_err(Stop::Failed)?.weight = weight;
            0
        }
        PROBLEM_PARAMETER => {
            let i = c.dword(node, 0)? as usize;
            let running = c.problems.current().ok();
            running.and_then(|p| p.params.get(i).copied()).unwrap_or(ERROR)
        }
        PROBLEM_ACTION => {
            let (action, kind, target) = (c.dword(node, 0)?, c.dword(node, 1)?, c.dwords(node, 2)?);
            c.problems.current().map_err(Stop::Failed)?.actions.push((action, kind, target));
            0
        }
        PROBLEM_HANDLER => {
            *c.problem_handler = c.dword(node, 0)?;
            0
        }
        ORDER_UNIT => {
            let packet = OrderPacket {
                unit: c.dword(node, 0)?,
                order: c.dword(node, 1)?,
                insert: c.dword(node, 2)?,
                parameter: c.dword(node, 3)?,
                floats: [c.float(node, 4)?, c.float(node, 5)?, c.float(node, 6)?, c.float(node, 7)?].map(|v| v as f32),
                target_kind: c.dword(node, 8)?,
                target: c.dwords(node, 9)?,
            };
            match packet.target_kind {
                TARGET_BY_NAME => c.host.order_by_name(&packet, *c.designs),
                _ => c.host.order(&packet),
            }
        }
        CLAN_BASE => {
            let base = c.base;
            for (i, word) in [base.x, base.y, base.clan].into_iter().enumerate() {
                c.out(node, i, word)?;
            }
            0
        }
        CALLBACK => {
            let (kind, value) = (c.dword(node, 0)?, c.dword(node, 1)?);
            c.host.callback(kind, value);
            0
        }
        CALLBACK_2 => {
            let (a, b) = (c.dword(node, 0)?, c.dword(node, 1)?);
            c.host.callback_2(a, b);
            0
        }
        COUNT_CLASS => {
            let (clan, mask) = (c.dword(node, 0)?, c.dword(node, 1)?);
            c.host.count_class(clan, mask)
        }
        IN_ROUTE => {
            let (route, id) = (c.dword(node, 0)?, c.dword(node, 1)?);
            u32::from(c.host.in_route(route, id))
        }
        COUNT_TYPE => {
            let ty = c.dword(node, 0)?;
            c.host.count_type(ty)
        }
        FREE_MINDS => c.host.free_minds(),
        RESEARCH_DESIGN => {
            let id = c.dword(node, 0)?;
            c.host.research_design(id, *c.designs)
        }
        // Its result is not read by any shipped call; the project leaves 0.
        LOAD_DESIGNS => {
            c.designs.loaded = true;
            0
        }
        // Stored only when not negative; the result is 1.
        DESIGN_SPREAD => {
            let spread = c.dword(node, 0)?;
            if (spread as i32) >= 0 {
                c.designs.spread = spread;
            }
            1
        }
        OWNER => {
            let id = c.dword(node, 0)?;
            c.host.owner(id)
        }
        TIMER => c.clock.wrapping_add(c.dword(node, 0)?),
        TIMER_PASSED => {
            if *c.clock > c.dword(node, 0)? {
                1
            } else {
                ERROR
            }
        }
        RANDOM => match c.dword(node, 0)? {
            0 => return Err(Stop::Failed("function 70 is asked for a number below 0".into())),
            n => c.host.random_below(n),
        },
        f if f >= iron3d_formats::script::scr::FUNCTION_COUNT => {
            return Err(Stop::Unsupported(format!("function {f} is outside the 73-entry table")));
        }
        f => return Err(Stop::Unsupported(format!("function {f} is not implemented"))),
    })
}
