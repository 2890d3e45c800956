//! The Iron3D game directory as a virtual file system: case-insensitive paths with
//! `\` or `/`, `archive.rlb::entry` addresses, and the four cache levels of the spec
//! (open archives, directory indexes, decoded blobs, parsed assets). Thread-safe.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

mod archive;
mod dir_index;
mod game_dir;
mod game_files;
mod path;

pub use archive::{Archive, ArchiveKind, EntryInfo};
pub use dir_index::DirIndex;
pub use game_dir::GameDir;
pub use path::{Address, fold_path};
