//! `Land.msh` → [`LandAsset`]: the parsed terrain plus one Bevy mesh per low material
//! selector (reading A of spec `world.md` §2.4: the low byte picks a `Land2.wea` row),
//! high-detail faces only, in Bevy axes.

use crate::loaders::{LoaderError, located, read_all};
use crate::models::triangle_mesh;
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, Handle, LoadContext};
use bevy_mesh::Mesh;
use bevy_reflect::TypePath;
use iron3d_formats::ReadOptions;
use iron3d_formats::world::LandMsh;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One terrain layer: the faces sharing a low material selector.
#[derive(Debug, Clone, TypePath)]
pub struct LandLayer {
    /// Low material selector (`Land2.wea` row under reading A).
    pub selector: u8,
    /// Mesh (labelled `layer{selector}`), flat-shaded per face.
    pub mesh: Handle<Mesh>,
    /// Face count.
    pub faces: usize,
}

/// A loaded terrain.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct LandAsset {
    /// The parsed `Land.msh` (for height queries and tools).
    pub land: Arc<LandMsh>,
    /// Layers by ascending selector.
    pub layers: Vec<LandLayer>,
    /// Game-space AABB of the drawn faces (`[min, max]`, Z-up).
    pub bounds: [[f32; 3]; 2],
}

/// Faces of the high-detail slots (node slot index 0, spec §2.1); every face when the
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

/// Loader of `Land.msh`. Load it typed (`load::<LandAsset>`): MSH models share the
/// extension, so this loader registers none and is chosen by asset type.
#[derive(Default, TypePath)]
pub struct LandLoader;

impl AssetLoader for LandLoader {
    type Asset = LandAsset;
    type Settings = ();
    type Error = LoaderError;

    async fn load(&self, reader: &mut dyn Reader, _: &(), ctx: &mut LoadContext<'_>) -> Result<LandAsset, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let land = LandMsh::parse(&bytes, ReadOptions::compatible()).map_err(|e| located(ctx, e))?;
        // (positions, normals, uvs) per selector; vertices are unshared so every face is flat.
        type Layer = (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<[f32; 2]>);
        let mut layers: BTreeMap<u8, Layer> = BTreeMap::new();
        let mut bounds = [[f32::MAX; 3], [f32::MIN; 3]];
        for i in high_detail_faces(&land) {
            let (Some(face), Some(tri)) = (land.faces.get(i), land.triangle(i)) else { continue };
            let layer = layers.entry(face.material_low).or_default();
            for (k, p) in tri.iter().enumerate() {
                let v = usize::from(face.vertices[k]);
                layer.0.push(*p);
                layer.1.push(land.normal(v).unwrap_or([0.0, 0.0, 1.0]));
                layer.2.push(land.uv(v).unwrap_or_default());
                for a in 0..3 {
                    bounds[0][a] = bounds[0][a].min(p[a]);
                    bounds[1][a] = bounds[1][a].max(p[a]);
                }
            }
        }
        let layers = layers
            .into_iter()
            .map(|(selector, (positions, normals, uvs))| {
                let indices = (0..positions.len() as u32).collect();
                let faces = positions.len() / 3;
                let mesh = ctx.add_labeled_asset(format!("layer{selector}"), triangle_mesh(&positions, &normals, uvs, indices));
                LandLayer { selector, mesh, faces }
            })
            .collect();
        Ok(LandAsset { land: Arc::new(land), layers, bounds })
    }
}
