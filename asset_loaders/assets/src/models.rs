//! Model loaders: MSH → [`MshAsset`] (nodes with one labelled `Mesh` per part), Texm → `Image`,
//! WEAR → [`WearAsset`] (with its MAT0 materials as dependencies), MAT0 →
//! [`Mat0Asset`] (with its phase textures as dependencies). `docs/reference/models.md` §1–§4, §7.

use crate::axes::{node_transform, to_bevy};
use crate::loaders::{LoaderError, ReadSettings, located, read_all};
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, Handle, LoadContext, RenderAssetUsages};
use bevy_image::{Image, ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy_mesh::{Indices, Mesh, PrimitiveTopology};
use bevy_reflect::TypePath;
use bevy_transform::components::Transform;
use iron3d_formats::ReadOptions;
use iron3d_formats::bytes::display_name;
use iron3d_formats::model::mat0::Material;
use iron3d_formats::model::mesh_build::{
    MeshOptions, MeshPart, Pose, QuaternionSense, build_mesh, build_node_meshes, hierarchy_valid, sample_node,
};
use iron3d_formats::model::msh::{Msh, NONE, Node};
use iron3d_formats::model::texm::{DecodeOptions, Texm};
use iron3d_formats::model::wear::{Wear, resolve_material};
use iron3d_formats::{Error, ErrorKind};
use iron3d_vfs::GameDir;
use std::sync::Arc;
use wgpu_types::{Extent3d, TextureDimension, TextureFormat};

/// Archive holding the MAT0 materials (`docs/reference/models.md` §3.1).
pub const MATERIAL_LIB: &str = "Material.lib";
/// Archive holding the Texm textures (`docs/reference/models.md` §4.6).
pub const TEXTURES_LIB: &str = "Textures.lib";

/// Archive holding the lightmaps (`docs/reference/models.md` §4.6).
pub const LIGHTMAP_LIB: &str = "LightMap.lib";

/// `game://` path of lightmap `name` (with the `.texm` loader hint).
pub fn lightmap_path(name: &str) -> String {
    format!("game://{LIGHTMAP_LIB}::{name}.texm")
}

/// `game://` path of MAT0 entry `name` (with the `.mat0` loader hint).
pub fn mat0_path(name: &str) -> String {
    format!("game://{MATERIAL_LIB}::{name}.mat0")
}

/// `game://` path of Texm entry `name` (with the `.texm` loader hint).
pub fn texm_path(name: &str) -> String {
    format!("game://{TEXTURES_LIB}::{name}.texm")
}

/// A triangle list as a Bevy mesh; positions and normals go through [`to_bevy`].
pub fn triangle_mesh(positions: &[[f32; 3]], normals: &[[f32; 3]], uvs: Vec<[f32; 2]>, indices: Vec<u32>) -> Mesh {
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions.iter().map(|&p| to_bevy(p)).collect::<Vec<_>>())
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals.iter().map(|&n| to_bevy(n)).collect::<Vec<_>>())
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

/// The Bevy mesh of a model part; lightmapped parts get `ATTRIBUTE_UV_1`.
fn part_mesh(part: MeshPart) -> Mesh {
    let MeshPart { positions, normals, uvs, indices, lightmap_uvs, lightmapped, .. } = part;
    let mesh = triangle_mesh(&positions, &normals, uvs, indices);
    if lightmapped { mesh.with_inserted_attribute(Mesh::ATTRIBUTE_UV_1, lightmap_uvs) } else { mesh }
}

/// One drawable part of a model: the triangles of one (WEAR row, lightmap row,
/// lightmapped) key.
#[derive(Debug, Clone, TypePath)]
pub struct MshPart {
    /// The mesh (labelled `part{i}`), in Bevy axes.
    pub mesh: Handle<Mesh>,
    /// WEAR row.
    pub material: u16,
    /// Lightmap row.
    pub lightmap: u8,
    /// Any contributing batch is flagged two-sided.
    pub two_sided: bool,
    /// The mesh has lightmap coordinates (`ATTRIBUTE_UV_1`).
    pub lightmapped: bool,
    /// Triangle count.
    pub triangles: usize,
}

/// A coarser level of detail of a node: the parts of its slot cell `(level, 0)`
/// (reading A of `docs/reference/models.md` §1.4: row = LOD, 0 = most detailed).
#[derive(Debug, Clone, TypePath)]
pub struct MshLevel {
    /// The level, 1 or 2.
    pub level: usize,
    /// Its parts, node-local like [`MshNode::parts`].
    pub parts: Vec<MshPart>,
}

/// One node of a model: its parts in node-local space and its rest pose.
#[derive(Debug, Clone, TypePath)]
pub struct MshNode {
    /// Type-10 name (empty without one).
    pub name: String,
    /// Parent node (`None` for roots, and for every node of an unposed model).
    pub parent: Option<usize>,
    /// Local rest pose (fallback key) in Bevy axes; identity for an unposed model.
    pub rest: Transform,
    /// Parts of the node's slot in cell (0, 0) (or its first present cell).
    pub parts: Vec<MshPart>,
    /// The coarser levels the node has a slot for, most detailed first; a level it has
    /// no slot for keeps the one before.
    pub coarser: Vec<MshLevel>,
}

/// A model as a node hierarchy (`docs/reference/models.md` §7 steps 2–5): node-local meshes of slot cell
/// (0, 0) and local poses, so renderers pose nodes as a transform hierarchy.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct MshAsset {
    /// Nodes in file order (parents precede children).
    pub nodes: Vec<MshNode>,
    /// False when a parent index does not precede its child: the model is drawn
    /// unposed (`docs/reference/models.md` §1.10).
    pub posed: bool,
    /// The parsed model, for sampling animation frames.
    pub model: Arc<Msh>,
    /// Radius of the model header's bounding sphere (`docs/reference/models.md` §1.5), in model units.
    pub radius: f32,
    /// The whole model at rest as one set of parts in model space (`docs/reference/models.md` §7 step 5), for
    /// objects drawn without moving pieces: index = level of detail, levels present
    /// while every node with geometry has a slot for them.
    pub merged: Vec<Vec<MshPart>>,
}

impl MshAsset {
    /// Every part of every node.
    pub fn parts(&self) -> impl Iterator<Item = &MshPart> {
        self.nodes.iter().flat_map(|n| n.parts.iter())
    }

    /// The local pose of `node` at animation frame `frame` (`docs/reference/models.md` §1.10 key selection,
    /// conjugate quaternion sense) in Bevy axes; the rest pose for an unposed model.
    pub fn pose(&self, node: usize, frame: f32) -> Transform {
        match sample_node(&self.model, node, frame, QuaternionSense::default()).filter(|_| self.posed) {
            Some(t) => node_transform(&t),
            None => self.nodes.get(node).map_or(Transform::IDENTITY, |n| n.rest),
        }
    }
}

/// Rows of the slot matrix read as levels of detail (`docs/reference/models.md` §1.4, reading A).
pub const LEVELS: usize = 3;

/// The parts of one node level as labelled mesh assets (`{prefix}part{i}`).
fn labelled_parts(ctx: &mut LoadContext<'_>, prefix: &str, parts: Vec<MeshPart>) -> Vec<MshPart> {
    parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let (material, lightmap, two_sided, lightmapped) = (p.material, p.lightmap, p.two_sided, p.lightmapped);
            let triangles = p.indices.len() / 3;
            let mesh = ctx.add_labeled_asset(format!("{prefix}part{i}"), part_mesh(p));
            MshPart { mesh, material, lightmap, two_sided, lightmapped, triangles }
        })
        .collect()
}

/// Loader of MSH models (`.msh`). Load it typed (`load::<MshAsset>`): `Land.msh` shares
/// the extension and has its own asset type.
#[derive(Default, TypePath)]
pub struct MshLoader;

impl AssetLoader for MshLoader {
    type Asset = MshAsset;
    type Settings = ReadSettings;
    type Error = LoaderError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &ReadSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<MshAsset, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let msh = Msh::parse(&bytes, settings.options()).map_err(|e| located(ctx, e))?;
        let options = MeshOptions { slot_fallback: true, lightmap_uv: true, ..MeshOptions::default() };
        let built = build_node_meshes(&msh, 0, 0, options).map_err(|e| located(ctx, e))?;
        let exact = MeshOptions { slot_fallback: false, ..options };
        let mut coarser = (1..LEVELS)
            .map(|level| build_node_meshes(&msh, level, 0, exact).map(|nodes| (level, nodes)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| located(ctx, e))?;
        let posed = hierarchy_valid(&msh);
        let mut nodes = Vec::with_capacity(built.len());
        for (n, parts) in built.into_iter().enumerate() {
            let parts = labelled_parts(ctx, &format!("node{n}"), parts);
            let coarser = coarser
                .iter_mut()
                .filter(|(level, _)| msh.nodes[n].slot(*level, 0).is_some())
                .map(|(level, nodes)| MshLevel {
                    level: *level,
                    parts: labelled_parts(ctx, &format!("lod{level}node{n}"), std::mem::take(&mut nodes[n])),
                })
                .collect();
            // A NaN frame selects the fallback key (`docs/reference/models.md` §1.10).
            let rest = if posed { sample_node(&msh, n, f32::NAN, options.quaternion) } else { None };
            nodes.push(MshNode {
                name: msh.node_name(n).map(display_name).unwrap_or_default(),
                parent: msh.nodes[n].parent().map(usize::from).filter(|_| posed),
                rest: rest.map_or(Transform::IDENTITY, |t| node_transform(&t)),
                parts,
                coarser,
            });
        }
        let radius = msh.header.sphere().1;
        let rest = build_mesh(&msh, 0, 0, Pose::Rest, options).map_err(|e| located(ctx, e))?;
        let mut merged = vec![labelled_parts(ctx, "rest", rest.parts)];
        let drawn: Vec<&Node> = msh.nodes.iter().filter(|n| n.slots.iter().any(|&s| s != NONE)).collect();
        for level in 1..LEVELS {
            if !drawn.iter().all(|n| n.slot(level, 0).is_some()) {
                break;
            }
            let parts = build_mesh(&msh, level, 0, Pose::Rest, exact).map_err(|e| located(ctx, e))?.parts;
            merged.push(labelled_parts(ctx, &format!("lod{level}rest"), parts));
        }
        Ok(MshAsset { nodes, posed, model: Arc::new(msh), radius, merged })
    }

    fn extensions(&self) -> &[&str] {
        &["msh"]
    }
}

/// An RGBA8 sRGB image with repeat addressing and trilinear filtering.
pub fn rgba_image(width: u32, height: u32, levels: Vec<Vec<u8>>) -> Image {
    let count = levels.len().max(1) as u32;
    let base = levels.first().cloned().unwrap_or_default();
    let mut image = Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        base,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    // Level data follow each other (wgpu's mip-major order for one layer).
    image.data = Some(levels.concat());
    image.texture_descriptor.mip_level_count = count;
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        mag_filter: ImageFilterMode::Linear,
        min_filter: ImageFilterMode::Linear,
        mipmap_filter: ImageFilterMode::Linear,
        ..ImageSamplerDescriptor::default()
    });
    image
}

/// Decodes a Texm from its mip-skip base level; all further stored levels become mips
/// when they decode with the expected sizes, otherwise only the base level is kept.
pub fn texm_image(texm: &Texm) -> iron3d_formats::Result<Image> {
    let base = texm.mip_skip().min(texm.header.mip_count.saturating_sub(1));
    let (w, h) = texm.level_dims(base);
    let mut levels = vec![texm.decode_level(base as usize, DecodeOptions::default())?];
    for level in base + 1..texm.mips.len() as u32 {
        let (lw, lh) = texm.level_dims(level);
        match texm.decode_level(level as usize, DecodeOptions::default()) {
            Ok(px) if px.len() == (lw * lh * 4) as usize => levels.push(px),
            _ => break,
        }
        if lw == 1 && lh == 1 {
            break;
        }
    }
    // A partial chain must end at 1×1 for wgpu; otherwise keep the base only.
    let (lw, lh) = texm.level_dims(base + levels.len() as u32 - 1);
    if lw != 1 || lh != 1 {
        levels.truncate(1);
    }
    Ok(rgba_image(w, h, levels))
}

/// Loader of Texm textures (`Textures.lib::NAME.texm`, see the loader hints in
/// [`crate::source`]).
#[derive(Default, TypePath)]
pub struct TexmLoader;

impl AssetLoader for TexmLoader {
    type Asset = Image;
    type Settings = ReadSettings;
    type Error = LoaderError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _: &ReadSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<Image, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let texm = Texm::parse(&bytes).map_err(|e| located(ctx, e))?;
        texm_image(&texm).map_err(|e| located(ctx, e))
    }

    fn extensions(&self) -> &[&str] {
        &["texm"]
    }
}

/// A MAT0 material with its phase textures (`None` for phases without one).
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Mat0Asset {
    /// Entry name in `Material.lib`.
    pub name: String,
    /// Texture of each phase (dependencies of the load).
    pub textures: Vec<Option<Handle<Image>>>,
    /// Parsed payload (phases, blend, animation blocks).
    pub material: Arc<Material>,
}

fn archive_and_entry(ctx: &LoadContext<'_>) -> (String, String) {
    let full = ctx.path().path().to_string_lossy().into_owned();
    let bare = crate::source::strip_hint(&full).map_or(full.clone(), str::to_string);
    match bare.split_once("::") {
        Some((a, e)) => (a.to_string(), e.to_string()),
        None => (String::new(), bare),
    }
}

/// Loader of MAT0 entries (`Material.lib::NAME.mat0`). The entry's NRes attributes
/// (flags, payload version) come from the directory, read through the game directory.
#[derive(TypePath)]
pub struct Mat0Loader {
    /// The game directory (for the entry attributes).
    pub game: Arc<GameDir>,
}

impl AssetLoader for Mat0Loader {
    type Asset = Mat0Asset;
    type Settings = ReadSettings;
    type Error = LoaderError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _: &ReadSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<Mat0Asset, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let (archive, entry) = archive_and_entry(ctx);
        let lib = self.game.archive(&archive).map_err(|e| located(ctx, e))?;
        let nres =
            lib.nres().ok_or_else(|| located(ctx, Error::invalid(0, "material_lib_kind", "not an NRes archive")))?;
        let row = nres
            .find(entry.as_bytes())
            .and_then(|i| nres.entries().get(i))
            .ok_or_else(|| located(ctx, Error::new(ErrorKind::NotFound(format!("Material {entry} not found.")))))?;
        let material = Material::parse(&bytes, row.attr1, row.attr2).map_err(|e| located(ctx, e))?;
        let textures =
            material.phases.iter().map(|p| p.texture_name().map(|t| ctx.load(texm_path(&display_name(t))))).collect();
        Ok(Mat0Asset { name: entry, textures, material: Arc::new(material) })
    }

    fn extensions(&self) -> &[&str] {
        &["mat0"]
    }
}

/// A WEAR table with each material row resolved in `Material.lib` (exact → `DEFAULT` →
/// entry 0, `docs/reference/models.md` §2.2) and loaded as a dependency.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct WearAsset {
    /// One MAT0 per material row, in row order.
    pub materials: Vec<Handle<Mat0Asset>>,
    /// One image per `LIGHTMAPS` row from `LightMap.lib`; `None` for a lightmap the
    /// library does not hold (the engine's slot −1: drawn without, `docs/reference/models.md` §2.2).
    pub lightmaps: Vec<Option<Handle<Image>>>,
    /// The parsed table.
    pub wear: Arc<Wear>,
}

/// Loader of WEAR tables (`.wea`).
#[derive(TypePath)]
pub struct WearLoader {
    /// The game directory (to resolve material names).
    pub game: Arc<GameDir>,
}

impl WearLoader {
    /// The `LightMap.lib` entry name of every `LIGHTMAPS` row, `None` where the library
    /// (or the entry) is missing and the `lightmap_missing_slot` quirk is on (an error
    /// without it).
    fn lightmaps(&self, wear: &Wear, options: ReadOptions) -> Result<Vec<Option<String>>, Error> {
        let count = wear.lightmaps.as_ref().map_or(0, |l| l.rows.len());
        let lib = self.game.archive(LIGHTMAP_LIB).ok();
        let nres = lib.as_ref().and_then(|l| l.nres());
        (0..count)
            .map(|i| {
                let name = wear.lightmap(i).map(display_name);
                let present =
                    name.as_ref().is_some_and(|n| nres.as_ref().is_some_and(|l| l.find(n.as_bytes()).is_some()));
                if present {
                    return Ok(name);
                }
                if options.quirks.lightmap_missing_slot {
                    return Ok(None);
                }
                let name = name.unwrap_or_else(|| format!("row {i}"));
                Err(Error::new(ErrorKind::NotFound(format!("LightMap {name} not found."))))
            })
            .collect()
    }
}

impl AssetLoader for WearLoader {
    type Asset = WearAsset;
    type Settings = ReadSettings;
    type Error = LoaderError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &ReadSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<WearAsset, LoaderError> {
        let bytes = read_all(reader, ctx).await?;
        let options = settings.options();
        let wear = Wear::parse(&bytes, options).map_err(|e| located(ctx, e))?;
        let lib = self.game.archive(MATERIAL_LIB).map_err(|e| located(ctx, e))?;
        let nres =
            lib.nres().ok_or_else(|| located(ctx, Error::invalid(0, "material_lib_kind", "not an NRes archive")))?;
        let mut names = Vec::with_capacity(wear.rows.len());
        for i in 0..wear.rows.len() {
            let Some(name) = wear.material(i) else {
                continue;
            };
            let found =
                resolve_material(&nres, name, options).map_err(|e| located(ctx, e.via(format!("WEAR row {i}"))))?;
            let entry = nres.entries().get(found.index()).map(|e| e.name()).unwrap_or_default();
            names.push(display_name(entry));
        }
        drop(nres);
        let materials = names.iter().map(|n| ctx.load(mat0_path(n))).collect();
        let lightmaps = self.lightmaps(&wear, options).map_err(|e| located(ctx, e))?;
        let lightmaps = lightmaps.into_iter().map(|n| n.map(|n| ctx.load(lightmap_path(&n)))).collect();
        Ok(WearAsset { materials, lightmaps, wear: Arc::new(wear) })
    }

    fn extensions(&self) -> &[&str] {
        &["wea"]
    }
}
