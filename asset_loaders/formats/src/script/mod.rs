//! Mission scripts (`docs/reference/runtime.md` §3 framing, gameplay.md §2 meaning):
//! compiled `.scr` packages, the clan base conversion function 19 reads, `varset.var`
//! tables, binary variable sets and `.fml` formula exports.

pub mod fml;
pub mod functions;
pub mod init;
pub mod scr;
pub mod varbin;
pub mod varset;

#[cfg(test)]
mod tests;

pub use fml::FmlText;
pub use init::{AnchorRule, convert_anchor};
pub use scr::{Event, NodeKind, Record, Relation, ScrPackage};
pub use varbin::{VarBin, VarItem, VarValue};
pub use varset::{StringIndexing, VarDecl, VarType, Varset};
