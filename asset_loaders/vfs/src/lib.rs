//! The Iron3D game directory as a virtual file system: case-insensitive paths with
//! `\` or `/`, `archive.rlb::entry` addresses, layers (the project's data, the game,
//! mods: [`layer`]) read as one tree, and the four cache levels of the spec (open
//! archives, directory indexes, decoded blobs, parsed assets). Thread-safe.
//!
//! ```
//! use iron3d_formats::{ReadOptions, nres::NresWriter};
//! use iron3d_vfs::GameDir;
//!
//! let root = std::env::temp_dir().join(format!("iron3d-vfs-doc-{}", std::process::id()));
//! std::fs::create_dir_all(root.join("DATA"))?;
//! let mut lib = NresWriter::new();
//! lib.add(0, [0; 3], b"GRASS01", b"texels".to_vec())?;
//! std::fs::write(root.join("Textures.lib"), lib.to_bytes()?)?;
//! std::fs::write(root.join("DATA/Behavior.ini"), b"[Robot]\r\n")?;
//!
//! let game = GameDir::open(&root, ReadOptions::compatible())?;
//! assert_eq!(&*game.read("textures.LIB::grass01")?, b"texels");
//! assert_eq!(&*game.read("data\\behavior.ini")?, b"[Robot]\r\n");
//! # std::fs::remove_dir_all(&root)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

mod archive;
mod dir_index;
mod game_dir;
mod game_files;
pub mod layer;
mod overlay;
mod path;
pub mod user_files;

pub use archive::{Archive, ArchiveKind, EntryInfo};
pub use dir_index::DirIndex;
pub use game_dir::GameDir;
pub use layer::{Layer, LayerKind, LayerStamp};
pub use path::{Address, fold_path};
