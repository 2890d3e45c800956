//! Mission scripts (`docs/reference/runtime.md` §3): compiled `.scr` packages, the `Init` /
//! Handler(19) plan, `varset.var` tables, binary variable sets and `.fml` exports.

pub mod fml;
pub mod init;
pub mod scr;
pub mod varbin;
pub mod varset;

#[cfg(test)]
mod tests;

pub use fml::FmlText;
pub use init::{AnchorRule, InitPlan, convert_anchor, plan_init, unit_package};
pub use scr::{Event, Record, ScrPackage, Selector};
pub use varbin::{VarBin, VarItem, VarValue};
pub use varset::{StringIndexing, VarDecl, VarType, Varset};
