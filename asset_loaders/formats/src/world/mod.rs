//! World formats (`docs/reference/world.md`): missions (`data.tma`), terrain (`Land.msh`), the
//! areal map (`Land.map`), their spatial queries and the mission dependency graph.
//!
//! Coordinates: X and Y are the ground plane, Z is up. Terrain and areal queries work
//! in XY and return Z.

pub mod areal_query;
#[cfg(test)]
mod fixture_bytes;
pub mod land_map;
pub mod land_msh;
pub mod mission_graph;
pub mod model_links;
pub mod surface_mask;
pub mod terrain_query;
pub mod tma;
pub mod walkable;

pub use areal_query::{AreaHit, ArealQuery, CellOrder, Corridor, GridLayout, Portal};
pub use land_map::{Areal, ArealMap, ArealMapBuilder, ArealPrefix56, EdgeLink8};
pub use land_msh::{LandMsh, TerrainBuilder, TerrainFace28};
pub use mission_graph::{GameFiles, GraphReport, LinkKind, MissionGraph, ModelLinks, PresenceOnly, WeatherFiles};
pub use model_links::ParsedModelLinks;
pub use terrain_query::{RayHit, TerrainQuery};
pub use tma::{Clan, ClanType, ExtraRecord28, LpString, PathRecord, PlacedObject, Property, PropertyValue, Tma, Zone};
pub use walkable::{OffMap, off_map};

use crate::error::{Error, Result};
use crate::nres::{NresDocument, NresWriter};

/// A non-fatal finding of a reader (compatible mode keeps the data and reports it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Absolute byte offset of the field concerned.
    pub offset: u64,
    /// Stable rule name.
    pub rule: &'static str,
    /// Human-readable detail.
    pub detail: String,
}

/// Little-endian append helpers for the writers.
pub(crate) trait PutLe {
    fn put_u16(&mut self, v: u16);
    fn put_u32(&mut self, v: u32);
    fn put_i32(&mut self, v: i32);
    fn put_f32(&mut self, v: f32);
    fn put_vec3(&mut self, v: [f32; 3]);
}

impl PutLe for Vec<u8> {
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_vec3(&mut self, v: [f32; 3]) {
        for x in v {
            self.put_f32(x);
        }
    }
}

/// A count as `u32` for a writer, or a located error.
pub(crate) fn count_u32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid(0, "count_overflow", format!("{what}: {n} does not fit in u32")))
}

/// One NRes entry a world writer emits: type, attributes, name, payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamEntry {
    /// Entry type id.
    pub type_id: u32,
    /// `attr1`, `attr2`, `attr3`.
    pub attrs: [u32; 3],
    /// Entry name (logical, without NUL).
    pub name: Vec<u8>,
    /// Payload.
    pub payload: Vec<u8>,
}

/// Writes the container of a world file: when the value was read from an archive the
/// original document is saved losslessly with only changed payloads/attributes
/// replaced; otherwise a canonical archive is built.
pub(crate) fn save_container(doc: Option<&NresDocument>, entries: &[StreamEntry]) -> Result<Vec<u8>> {
    if let Some(doc) = doc.filter(|d| d.entries().len() == entries.len()) {
        let mut doc = doc.clone();
        for (i, e) in entries.iter().enumerate() {
            let row = doc.entries().get(i).map(|d| (d.row, d.payload == e.payload));
            let Some((row, same_payload)) = row else { continue };
            if !same_payload {
                doc.set_payload(i, e.payload.clone())?;
            }
            if [row.attr1, row.attr2, row.attr3] != e.attrs {
                doc.set_attributes(i, e.attrs[0], e.attrs[1], e.attrs[2])?;
            }
        }
        return doc.save();
    }
    let mut w = NresWriter::new();
    for e in entries {
        w.add(e.type_id, e.attrs, &e.name, e.payload.clone())?;
    }
    w.to_bytes()
}
