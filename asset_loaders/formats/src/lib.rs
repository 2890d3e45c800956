//! Pure-Rust readers and writers of every Iron3D file format (no Bevy).
//!
//! Every reader checks counts against the remaining bytes before allocating and
//! reports a located [`Error`]; every writer can reproduce its input byte for byte.
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
