//! Saves and replays (issue 27; spec `runtime.md` §14): the project's own file format
//! (`docs/save-format.md`; never compatible with the original's saves), versioned,
//! chunked, compressed and checksummed ([`mod@format`]), written transactionally
//! ([`mod@file`]). A [`Record`] holds the mission, the data layers, the difficulty, the
//! external command log ([`CommandLog`], kept by [`SavePlugin`]), the commands still
//! queued, the scheme names and state-hash checkpoints; [`resume`] brings a game back to
//! the saved tick by deterministic re-simulation, verified hash by hash, and [`replay`]
//! checks a replay the same way.

mod codec;
pub mod file;
pub mod format;
pub mod fuzzing;
mod log;
mod record;
mod resume;

pub use file::{WriteStep, slot_path, write_file};
pub use format::{Container, ENGINE_VERSION, FORMAT_VERSION, FileKind, FormatError, OLDEST_LOADABLE_VERSION};
pub use log::{CommandLog, SavePlugin};
pub use record::Record;
pub use resume::{Checked, Mismatch, catch_up, check_compatible, replay, resume};

#[cfg(test)]
mod tests;
