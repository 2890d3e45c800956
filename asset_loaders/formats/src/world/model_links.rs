//! The real WEAR / MAT0 expansion of the mission graph ([`ModelLinks`]): WEAR tables
//! are parsed with [`Wear::parse`] and materials with [`Material::parse`], so the graph
//! follows material slots to `Material.lib` and MAT0 phases to `Textures.lib`.
//!
//! The graph hands over only the MAT0 payload, not its NRes row, so the payload version
//! (`attr2`) is an input of this expander: 6, the only version in the retail corpus
//! (`docs/reference/models.md` §3.7), unless set otherwise.

use super::mission_graph::{ModelLinks, WearLinks};
use crate::bytes::display_name;
use crate::error::Result;
use crate::model::mat0::Material;
use crate::model::wear::Wear;
use crate::options::ReadOptions;

/// Expands WEAR and MAT0 with the crate's parsers.
#[derive(Debug, Clone, Copy)]
pub struct ParsedModelLinks {
    /// Options of the WEAR parser (quirks such as `wear_blank_before_lightmaps`).
    pub options: ReadOptions,
    /// MAT0 payload version assumed for every material (the NRes `attr2`).
    pub material_version: u32,
}

impl ParsedModelLinks {
    /// Strict WEAR parsing and MAT0 version 6.
    pub fn strict() -> Self {
        Self { options: ReadOptions::strict(), material_version: 6 }
    }

    /// Compatible WEAR parsing and MAT0 version 6.
    pub fn compatible() -> Self {
        Self { options: ReadOptions::compatible(), material_version: 6 }
    }
}

impl Default for ParsedModelLinks {
    fn default() -> Self {
        Self::compatible()
    }
}

impl ModelLinks for ParsedModelLinks {
    fn wear_links(&self, wear: &[u8]) -> Result<Option<WearLinks>> {
        let table = Wear::parse(wear, self.options)?;
        let materials = (0..table.rows.len()).filter_map(|i| table.material(i)).map(display_name).collect();
        let lightmap_rows = table.lightmaps.as_ref().map_or(0, |l| l.rows.len());
        let lightmaps = (0..lightmap_rows).filter_map(|i| table.lightmap(i)).map(display_name).collect();
        Ok(Some(WearLinks { materials, lightmaps }))
    }

    fn material_textures(&self, mat0: &[u8]) -> Result<Option<Vec<String>>> {
        let material = Material::parse(mat0, 0, self.material_version)?;
        Ok(Some(material.phases.iter().filter_map(|p| p.texture_name()).map(display_name).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wear_rows_and_lightmaps_are_listed() {
        // Hand-written table: two materials, blank separator, one lightmap.
        let text = b"2\r\n0 HULL\r\n1 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_A.0\r\n";
        let links = ParsedModelLinks::strict().wear_links(text).unwrap().unwrap();
        assert_eq!(links.materials, ["HULL", "GLASS"]);
        assert_eq!(links.lightmaps, ["LM_A.0"]);
        assert!(ParsedModelLinks::strict().wear_links(b"0\r\n").is_err(), "count 0 is illegal");
    }

    #[test]
    fn material_phases_name_their_textures() {
        // Version 6 payload built field by field: 2 phases, 0 anim blocks, blends,
        // alpha multiplier, emissive, then the phases (one textured, one not).
        let mut p = vec![2, 0, 0, 0, 0xFF, 0xFF];
        p.extend_from_slice(&1f32.to_le_bytes());
        p.extend_from_slice(&0f32.to_le_bytes());
        for name in [&b"PANEL.0"[..], b""] {
            p.extend_from_slice(&[0u8; 18]);
            let mut field = [0u8; 16];
            field[..name.len()].copy_from_slice(name);
            p.extend_from_slice(&field);
        }
        let links = ParsedModelLinks::strict();
        assert_eq!(links.material_textures(&p).unwrap().unwrap(), ["PANEL.0"]);
        assert!(links.material_textures(&p[..p.len() - 1]).is_err(), "truncated");
    }
}
