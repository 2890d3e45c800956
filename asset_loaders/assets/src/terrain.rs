//! `Land.msh` → [`LandAsset`]: the parsed terrain plus, under reading A of spec
//! `docs/reference/world.md` §2.4, one Bevy mesh per low material selector (base layers, `Land2.wea`
//! rows) and one per high selector other than `0xFF` (overlays, `Land1.wea` rows);
//! high-detail faces only, in Bevy axes.
//!
//! The engine's blend equation is unknown (§2.4). As a presentation choice, overlay
//! vertices carry a vertex-colour alpha (see [`Coverage`]) that fades each overlay out
//! towards its border instead of ending at a hard triangle edge.

use crate::loaders::{LoaderError, ReadSettings, located, read_all};
use crate::models::triangle_mesh;
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, Handle, LoadContext};
use bevy_mesh::Mesh;
use bevy_reflect::TypePath;
use iron3d_formats::world::{LandMsh, TerrainFace28};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One terrain layer: the faces sharing a material selector.
#[derive(Debug, Clone, TypePath)]
pub struct LandLayer {
    /// The selector: low byte of a base layer (`Land2.wea` row under reading A), high
    /// byte of an overlay (`Land1.wea` row).
    pub selector: u8,
    /// Mesh (labelled `layer{selector}` or `overlay{selector}`), flat-shaded per face;
    /// an overlay's mesh has white vertex colours with the [`Coverage`] alpha.
    pub mesh: Handle<Mesh>,
    /// Face count.
    pub faces: usize,
}

/// A loaded terrain.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct LandAsset {
    /// The parsed `Land.msh` (for height queries and tools).
    pub land: Arc<LandMsh>,
    /// Base layers by ascending low selector; together they hold every drawn face.
    pub layers: Vec<LandLayer>,
    /// Overlays by ascending high selector: the faces to draw again, over their base
    /// layer, with a `Land1.wea` material.
    pub overlays: Vec<LandLayer>,
    /// Game-space AABB of the drawn faces (`[min, max]`, Z-up).
    pub bounds: [[f32; 3]; 2],
}

/// Faces of the high-detail slots (node slot index 0, `docs/reference/world.md` §2.1); every face when the
/// nodes name no usable slot.
pub fn high_detail_faces(land: &LandMsh) -> Vec<usize> {
    let mut take = vec![false; land.faces.len()];
    for node in &land.nodes {
        let slot = u16::from_le_bytes([node[8], node[9]]);
        let Some(slot) = land.slots.get(usize::from(slot)) else { continue };
        let first = usize::from(slot.first_face());
        let end = (first + usize::from(slot.face_count())).min(take.len());
        take.get_mut(first..end).into_iter().flatten().for_each(|t| *t = true);
    }
    if !take.contains(&true) {
        return (0..land.faces.len()).collect();
    }
    (0..take.len()).filter(|&i| take[i]).collect()
}

/// How much of an overlay covers each vertex: `2 × share − 1` clamped to `[0, 1]`,
/// where `share` is the fraction of the vertex's drawn faces that carry the overlay.
/// Vertices inside an overlay get 1, vertices on a straight border 0.
pub struct Coverage {
    /// Drawn faces per vertex.
    uses: Vec<u32>,
    /// Faces per vertex carrying each overlay.
    overlays: BTreeMap<u8, Vec<u32>>,
}

impl Coverage {
    /// Counts the uses of every vertex by `faces`.
    pub fn new(land: &LandMsh, faces: &[usize]) -> Self {
        let n = land.positions.len();
        let mut coverage = Self { uses: vec![0; n], overlays: BTreeMap::new() };
        let bump = |counts: &mut Vec<u32>, face: &TerrainFace28| {
            face.vertices.iter().for_each(|&v| counts.get_mut(usize::from(v)).into_iter().for_each(|c| *c += 1))
        };
        for face in faces.iter().filter_map(|&i| land.faces.get(i)) {
            bump(&mut coverage.uses, face);
            if let Some(high) = face.overlay() {
                bump(coverage.overlays.entry(high).or_insert_with(|| vec![0; n]), face);
            }
        }
        coverage
    }

    /// Alpha of `overlay` at vertex `v`.
    pub fn alpha(&self, overlay: u8, v: u16) -> f32 {
        let v = usize::from(v);
        let (Some(&on), Some(&all)) = (self.overlays.get(&overlay).and_then(|c| c.get(v)), self.uses.get(v)) else {
            return 0.0;
        };
        if all == 0 { 0.0 } else { (2.0 * on as f32 / all as f32 - 1.0).clamp(0.0, 1.0) }
    }
}

/// Loader of `Land.msh`. Load it typed (`load::<LandAsset>`): MSH models share the
/// extension, so this loader registers none and is chosen by asset type.
#[derive(Default, TypePath)]
pub struct LandLoader;

impl AssetLoader for LandLoader {
    type Asset = LandAsset;
    type Settings = ReadSettings;
    type Error = LoaderError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &ReadSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<LandAsset, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let land = LandMsh::parse(&bytes, settings.options()).map_err(|e| located(ctx, e))?;
        let mut layers: BTreeMap<u8, Layer> = BTreeMap::new();
        let mut overlays: BTreeMap<u8, Layer> = BTreeMap::new();
        let mut bounds = [[f32::MAX; 3], [f32::MIN; 3]];
        let faces = high_detail_faces(&land);
        let coverage = Coverage::new(&land, &faces);
        for i in faces {
            let (Some(face), Some(tri)) = (land.faces.get(i), land.triangle(i)) else { continue };
            layers.entry(face.material_low).or_default().push(&land, face, &tri);
            if let Some(high) = face.overlay() {
                let overlay = overlays.entry(high).or_default();
                overlay.push(&land, face, &tri);
                overlay.colors.extend(face.vertices.map(|v| [1.0, 1.0, 1.0, coverage.alpha(high, v)]));
            }
            for p in tri {
                for a in 0..3 {
                    bounds[0][a] = bounds[0][a].min(p[a]);
                    bounds[1][a] = bounds[1][a].max(p[a]);
                }
            }
        }
        let layers = layers.into_iter().map(|(selector, layer)| layer.finish(ctx, "layer", selector)).collect();
        let overlays = overlays.into_iter().map(|(selector, layer)| layer.finish(ctx, "overlay", selector)).collect();
        Ok(LandAsset { land: Arc::new(land), layers, overlays, bounds })
    }
}

/// Unshared vertices of one layer (every face flat); colours for overlays only.
#[derive(Default)]
struct Layer {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    colors: Vec<[f32; 4]>,
}

impl Layer {
    fn push(&mut self, land: &LandMsh, face: &TerrainFace28, tri: &[[f32; 3]; 3]) {
        for (p, &v) in tri.iter().zip(&face.vertices) {
            let v = usize::from(v);
            self.positions.push(*p);
            self.normals.push(land.normal(v).unwrap_or([0.0, 0.0, 1.0]));
            self.uvs.push(land.uv(v).unwrap_or_default());
        }
    }

    fn finish(self, ctx: &mut LoadContext<'_>, label: &str, selector: u8) -> LandLayer {
        let indices = (0..self.positions.len() as u32).collect();
        let faces = self.positions.len() / 3;
        let mut mesh = triangle_mesh(&self.positions, &self.normals, self.uvs, indices);
        if !self.colors.is_empty() {
            mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, self.colors);
        }
        let mesh = ctx.add_labeled_asset(format!("{label}{selector}"), mesh);
        LandLayer { selector, mesh, faces }
    }
}
