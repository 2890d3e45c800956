//! A building's efficiency (KPD; `docs/reference/runtime.md` §4.5, its terms read by
//! dragonee/openparkan `docs/23-economy.md`) as the economy takes it: Behavior sums what
//! the building's efficiency parts (class 26) answer, `(condition × value) × level`,
//! which combat publishes ([`iron3d_core::Efficiency`]: the nodes' life and the
//! batteries' level are its). A mine digs, a holder offers ore and a working building
//! collects its power by it. Only a finite normal (or zero) efficiency is accepted; any
//! other value is an error, not an emulation of the 80-bit accumulator.
//!
//! The project's: an object without efficiency parts works at 1.

use crate::distributor::finite;
use iron3d_core::Efficiency;

/// A value the numeric policy rejects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonFinite(pub f32);

/// The KPD of an object that publishes `efficiency`; 1 without efficiency parts.
///
/// # Errors
/// An efficiency that is not finite, or subnormal.
pub fn of(efficiency: Option<&Efficiency>) -> Result<f32, NonFinite> {
    efficiency.map_or(Ok(1.0), |e| finite(e.0).ok_or(NonFinite(e.0)))
}
