//! MaSzyna EU07 scenery binaries (EU7B, `.eu7` versions 4–9) and `.e3d` models.
//!
//! * [`Module`] reads a file (strict or compatible, see [`ReadOptions`]) into its chunks in
//!   file order and writes it back byte for byte. PACK is not decoded at load time:
//!   [`SectionIndex`] maps PIDX entries to byte ranges and decodes one [`Section`] on demand.
//! * [`bake`] turns MaSzyna's text sceneries into modules.
//! * [`canonical`] reproduces the baking tool's output (chunk order, string interning, flag
//!   rules, the `eu7_half_round_carry` half-float quirk, batched terrain, PACK sectioning).
//! * [`e3d`] reads models, [`include`](mod@include) resolves `INCL` trees, [`generate`] builds
//!   deterministic synthetic sceneries for tests and benchmarks.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a panic in a test is a failed test")
)]

pub mod bake;
pub mod canonical;
pub mod chunk;
pub mod cursor;
pub mod e3d;
pub mod error;
pub mod fuzzing;
pub mod generate;
pub mod include;
pub mod logic;
pub mod model;
pub mod module;
pub mod node;
pub mod pack;
pub mod pack_build;
pub mod prim;
pub mod record;
pub mod section;
pub mod shape;
pub mod track;

pub use chunk::{Chunk, ChunkBody, PackPayload, ids};
pub use error::{Error, ErrorKind, Result};
pub use module::{Module, ReadOptions};
pub use pack::SectionIndex;
pub use prim::{FourCc, Sid};
pub use section::{Section, SectionFormat};
