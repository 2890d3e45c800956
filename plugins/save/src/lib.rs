//! Saves and replays (issue 27; `docs/reference/runtime.md` §14): the project's own file format
//! (`docs/save-format.md`; never compatible with the original's saves), versioned,
//! chunked, compressed and checksummed ([`mod@format`]), written transactionally
//! ([`mod@file`]). A [`Record`] holds the mission, the data layers, the difficulty, the
//! external command log ([`CommandLog`], kept by [`SavePlugin`]), the commands still
//! queued, the scheme names, state-hash checkpoints and a save's [`Snapshot`] of the
//! simulation state; [`resume`] brings a game back to the saved tick by restoring the
//! snapshot, verified by the state hash (a version-1 save by re-simulation), and
//! [`replay`] re-simulates a replay, verified hash by hash. The game keeps its saves in
//! named slots with separate metadata ([`mod@slots`]) and takes, loads, autosaves,
//! records and plays them back through [`GameSavesPlugin`].

mod codec;
pub mod file;
pub mod format;
pub mod fuzzing;
pub mod game;
mod log;
mod pieces;
mod record;
mod resume;
pub mod slots;
mod snapshot;

pub use file::{WriteStep, slot_path, write_file};
pub use format::{Container, ENGINE_VERSION, FORMAT_VERSION, FileKind, FormatError, OLDEST_LOADABLE_VERSION};
pub use game::{
    Autosave, GameSavesPlugin, PendingRestore, ReplayPlayback, RestoredView, SaveFolders, SaveRequests, SaveStatus,
    SaveView, SaveWritten,
};
pub use log::{CommandLog, SavePlugin};
pub use record::Record;
pub use resume::{
    Checked, Mismatch, catch_up, catch_up_in_world, check_compatible, migrate_v1, replay, reproduced, restore, resume,
};
pub use snapshot::Snapshot;

#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod tests;
