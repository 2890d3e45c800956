//! How a name in a mission becomes concrete resources (`docs/reference/registry.md` §1–3):
//! the `objects.rlb` prototype registry, unit `.dat` component schemes and
//! `BuildDat.lst` building categories.

pub mod build_dat;
pub mod objects;
pub mod unit_dat;

pub use build_dat::{BuildCategory, BuildDat};
pub use objects::{EffectiveRef, MeshSource, ObjectRef64, Prototype, PrototypeResolver, ResourceIndex};
pub use unit_dat::{UnitComponent, UnitDat, UnitRecord};
