//! The ids of the script functions a node calls (`head0`; slot *n* of the 73-entry
//! table is function *n*, gameplay.md §2.5 after dragonee/openparkan
//! `docs/15-behaviour.md`), named by what they do, and the kinds and values of the host
//! callback's channel 0 (function 30; the names are `varset.var`'s own constants).

/// 0: a stub that answers 1.
pub const STUB_ONE: u32 = 0;
/// 1: a stub that reads a float and drops it.
pub const STUB_READ: u32 = 1;
/// 2: raise a problem (code, weight, a, b, p1, p2, p3).
pub const RAISE_PROBLEM: u32 = 2;
/// 8: set the running problem's state.
pub const PROBLEM_STATE: u32 = 8;
/// 9: a stub that does nothing.
pub const STUB_NOTHING: u32 = 9;
/// 12: the running problem's weight.
pub const PROBLEM_WEIGHT: u32 = 12;
/// 15: give a unit an order packet.
pub const ORDER_UNIT: u32 = 15;
/// 19: the clan's base centre and index (x out, y out, clan out).
pub const CLAN_BASE: u32 = 19;
/// 27: record an action and its target on the running problem.
pub const PROBLEM_ACTION: u32 = 27;
/// 29: the running problem's p1, p2 or p3.
pub const PROBLEM_PARAMETER: u32 = 29;
/// 30: the host callback, channel 0 (kind, value).
pub const CALLBACK: u32 = 30;
/// 31: count a clan's units and buildings whose type shares a bit with a mask.
pub const COUNT_CLASS: u32 = 31;
/// 32: whether a unit was last reported inside a route's tactical areal.
pub const IN_ROUTE: u32 = 32;
/// 33: run `Problems<n>` as the problem handler from now on.
pub const PROBLEM_HANDLER: u32 = 33;
/// 34: count the own clan's units and buildings of exactly a type.
pub const COUNT_TYPE: u32 = 34;
/// 41: have a research centre research the cheapest open design of the store.
pub const RESEARCH_DESIGN: u32 = 41;
/// 43: load the design store (`UNITS\\UNITS\\AI\\`).
pub const LOAD_DESIGNS: u32 = 43;
/// 49: the clan's free minds.
pub const FREE_MINDS: u32 = 49;
/// 52: an object's owner clan.
pub const OWNER: u32 = 52;
/// 57: the host callback, channel 2 (meaning unknown).
pub const CALLBACK_2: u32 = 57;
/// 59: the clan clock plus a delay, whole seconds.
pub const TIMER: u32 = 59;
/// 60: whether the clan clock has passed a time.
pub const TIMER_PASSED: u32 = 60;
/// 62: set the running problem's weight.
pub const SET_PROBLEM_WEIGHT: u32 = 62;
/// 69: how far down its ranking the design pick may fall.
pub const DESIGN_SPREAD: u32 = 69;
/// 70: a random number below n.
pub const RANDOM: u32 = 70;

/// The answer of a function that finds nothing (`varset.var`'s `ERROR`).
pub const ERROR: u32 = 0xFFFF_FFFF;
/// Function 52's answer for a destroyed object (its owner word, `0xfffe`).
pub const DESTROYED_OWNER: u32 = 65_534;

/// The kinds of the host callback's channel 0 (function 30's first argument).
pub mod callback {
    /// `SYSTEM_MESSAGE`: the value is [`MISSION_FAILED`] or [`MISSION_COMPLETE`].
    pub const SYSTEM_MESSAGE: u32 = 0;
    /// `MESSAGE_INFO`: the value is a `messages.cfg` `message_index`.
    pub const MESSAGE_INFO: u32 = 1;
    /// `CLAN_HERO_KILLED`: does nothing.
    pub const CLAN_HERO_KILLED: u32 = 2;
    /// `OBJECTIVE_COMPLETE`: the value is an objective's index.
    pub const OBJECTIVE_COMPLETE: u32 = 3;
    /// `OBJECTIVE_FAILED`.
    pub const OBJECTIVE_FAILED: u32 = 4;
    /// `OBJECTIVE_PROGRESS` (un-completes the objective).
    pub const OBJECTIVE_PROGRESS: u32 = 5;
    /// `SYSTEM_MESSAGE`'s value for a failed mission.
    pub const MISSION_FAILED: u32 = 0;
    /// `SYSTEM_MESSAGE`'s value for a completed mission.
    pub const MISSION_COMPLETE: u32 = 1;
}
