//! Pure-Rust readers and writers of every Iron3D file format (no Bevy).
//!
//! Every reader checks counts against the remaining bytes before allocating and
//! reports a located [`Error`]; every writer can reproduce its input byte for byte.
//!
//! ```
//! use iron3d_formats::ReadOptions;
//! use iron3d_formats::nres::{Nres, NresWriter};
//!
//! let mut writer = NresWriter::new();
//! writer.add(0, [0; 3], b"GRASS01", vec![1, 2, 3])?;
//! let bytes = writer.to_bytes()?;
//! let archive = Nres::parse(&bytes, ReadOptions::strict())?;
//! let (_, payload) = archive.get(b"grass01").expect("entry names are case-insensitive");
//! assert_eq!(payload, [1, 2, 3]);
//! // Bad input is a located error (file -> entry -> offset -> rule), never a panic.
//! let truncated = Nres::parse(&bytes[..bytes.len() - 1], ReadOptions::compatible());
//! assert!(truncated.is_err());
//! # Ok::<(), iron3d_formats::Error>(())
//! ```
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

pub mod bytes;
pub mod config;
pub mod error;
pub mod fuzzing;
pub mod helpers;
pub mod layout;
pub mod model;
pub mod nres;
pub mod options;
pub mod registry;
pub mod rng;
pub mod rsli;
pub mod script;
pub mod sound;
pub mod world;

pub use error::{Error, ErrorKind, Frame, Result, ResultExt};
pub use options::{Quirks, ReadOptions};
