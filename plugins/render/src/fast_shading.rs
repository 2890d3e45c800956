//! The shading choice (a video setting). The terrain covers nearly every pixel of a
//! mission's frame and the models most of the rest; Bevy's PBR shader costs a software
//! rasteriser (llvmpipe) nearly the whole frame there. [`FastMaterial`] shades the
//! terrain layers and model parts with the same sun, ambient light, lightmaps, exposure,
//! fog, point and spot lights (the camera spotlight, flashes) and tone mapping but one
//! texture sample and Lambert's law: the same look for the game's matte surfaces,
//! without specular highlights or shadows. A view shaded fast gets one light cluster
//! ([`ONE_CLUSTER`], set by `cluster_views`): finding each fragment's cluster cost a
//! software renderer more than its few lights do. [`Shading::Auto`] picks it on a
//! software renderer and PBR on a GPU. Unlit sources (rain and snow) stay unlit, only
//! cheaper; effects and shells keep their `StandardMaterial`s.

use bevy::asset::embedded_asset;
use bevy::ecs::system::SystemParam;
use bevy::light::cluster::{
    ClusterConfig, ClusterFarZMode, ClusterZConfig, GlobalClusterGpuSettings, GlobalClusterSettings,
};
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::pbr::{MaterialPipeline, MaterialPipelineKey};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::render_resource::{AsBindGroup, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError};
use bevy::render::renderer::RenderAdapterInfo;
use bevy::shader::ShaderRef;
use serde::{Deserialize, Serialize};

use crate::MissionRenderSystems;
use crate::software::software;
use iron3d_core::AppState;

/// How terrain and models are shaded (a video setting).
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[reflect(Resource)]
pub enum Shading {
    /// Fast on a software renderer, full on a GPU.
    #[default]
    Auto,
    /// Physically based, with specular highlights.
    Full,
    /// Lambert's law only, for every light and lightmap (`FastMaterial`).
    Fast,
}

impl Shading {
    /// Whether `FastMaterial`s are used on an adapter that is (or is not) a software
    /// renderer.
    pub fn fast(self, software: bool) -> bool {
        match self {
            Shading::Auto => software,
            Shading::Full => false,
            Shading::Fast => true,
        }
    }
}

/// The uniform of [`FastMaterial`].
#[derive(Debug, Clone, Copy, Default, PartialEq, ShaderType)]
pub struct FastUniform {
    /// Base colour (linear).
    pub color: Vec4,
    /// Emissive colour (linear; alpha weighs the exposure as in `StandardMaterial`).
    pub emissive: Vec4,
    /// Alpha-mask cutoff; negative without a mask.
    pub alpha_cutoff: f32,
    /// Scale of lightmap texels.
    pub lightmap_exposure: f32,
    /// 1: no lighting (the source is `unlit`).
    pub unlit: u32,
}

/// The fast counterpart of a `StandardMaterial` (made from it, kept equal to it).
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone, PartialEq)]
pub struct FastMaterial {
    /// Colours and cutoff.
    #[uniform(0)]
    pub uniform: FastUniform,
    /// Base colour texture.
    #[texture(1)]
    #[sampler(2)]
    pub texture: Option<Handle<Image>>,
    /// Blending (opaque, mask, blend or add).
    pub alpha_mode: AlphaMode,
    /// Depth bias (terrain overlays win over their base layer).
    pub depth_bias: f32,
}

impl From<&StandardMaterial> for FastMaterial {
    fn from(m: &StandardMaterial) -> Self {
        let alpha_cutoff = if let AlphaMode::Mask(c) = m.alpha_mode { c } else { -1.0 };
        let alpha_mode = match m.alpha_mode {
            AlphaMode::Opaque | AlphaMode::Mask(_) | AlphaMode::Add => m.alpha_mode,
            _ => AlphaMode::Blend,
        };
        Self {
            uniform: FastUniform {
                color: m.base_color.to_linear().to_vec4(),
                emissive: m.emissive.to_vec4(),
                alpha_cutoff,
                lightmap_exposure: m.lightmap_exposure,
                unlit: u32::from(m.unlit),
            },
            texture: m.base_color_texture.clone(),
            alpha_mode,
            depth_bias: m.depth_bias,
        }
    }
}

const SHADER: &str = "embedded://iron3d_render/fast_shading.wgsl";

impl Material for FastMaterial {
    fn fragment_shader() -> ShaderRef {
        SHADER.into()
    }

    fn alpha_mode(&self) -> AlphaMode {
        self.alpha_mode
    }

    fn depth_bias(&self) -> f32 {
        self.depth_bias
    }

    /// Both faces are drawn, as with the game's `StandardMaterial`s.
    fn specialize(
        _pipeline: &MaterialPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        _key: MaterialPipelineKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        descriptor.primitive.cull_mode = None;
        Ok(())
    }
}

/// An entity that may be drawn with a `FastMaterial` (terrain layers, model parts,
/// precipitation),
/// and its full material (kept while the fast one is shown).
#[derive(Component, Debug, Clone)]
pub struct FastShaded {
    /// The entity's `StandardMaterial` (animated; the source of its fast material).
    pub full: Handle<StandardMaterial>,
}

/// The fast material made for each `StandardMaterial` (shared like the sources).
#[derive(Resource, Debug, Default)]
pub struct FastMaterials(HashMap<AssetId<StandardMaterial>, Handle<FastMaterial>>);

/// Adds the material (with the renderer), the shading switch and its systems.
pub(super) fn plugin(app: &mut App) {
    if app.get_sub_app(RenderApp).is_some() {
        embedded_asset!(app, "fast_shading.wgsl");
        app.add_plugins(MaterialPlugin::<FastMaterial>::default());
    } else {
        app.init_asset::<FastMaterial>();
    }
    app.init_resource::<Shading>()
        .init_resource::<FastMaterials>()
        .register_type::<Shading>()
        .add_systems(OnExit(AppState::InGame), forget)
        .add_systems(
            Update,
            (shade.after(crate::materials::animate_materials), cluster_views).in_set(MissionRenderSystems::Animate),
        );
}

/// The shading in effect: the setting and the adapter it is applied to.
#[derive(SystemParam)]
pub(crate) struct ShadingInEffect<'w> {
    shading: Res<'w, Shading>,
    adapter: Option<Res<'w, RenderAdapterInfo>>,
}

impl ShadingInEffect<'_> {
    /// Whether terrain and models are shaded fast.
    fn fast(&self) -> bool {
        self.shading.fast(software(self.adapter.as_deref()))
    }
}

/// The source materials, their fast counterparts and which was made from which.
#[derive(SystemParam)]
pub(crate) struct Counterparts<'w> {
    standard: Res<'w, Assets<StandardMaterial>>,
    fast: ResMut<'w, Assets<FastMaterial>>,
    made: ResMut<'w, FastMaterials>,
}

/// The light clusters of a view shaded fast: one, as deep as anything is drawn (the
/// fast shader reads cluster 0 only).
pub const ONE_CLUSTER: ClusterConfig = ClusterConfig::XYZ {
    dimensions: UVec3::ONE,
    z_config: ClusterZConfig { first_slice_depth: CLUSTER_DEPTH, far_z_mode: ClusterFarZMode::Constant(CLUSTER_DEPTH) },
    dynamic_resizing: false,
};

/// The depth of [`ONE_CLUSTER`]: beyond the camera's far plane.
const CLUSTER_DEPTH: f32 = 1.0e5;

/// Gives 3D cameras [`ONE_CLUSTER`] while shading is fast (Bevy's own clusters
/// otherwise), and clusters lights on the CPU meanwhile: Bevy's GPU clustering leaves a
/// single cluster empty. `gpu` keeps Bevy's GPU clustering settings until full shading
/// gives them back.
pub(crate) fn cluster_views(
    mut commands: Commands,
    shading: ShadingInEffect,
    cameras: Query<(Entity, Option<&ClusterConfig>), With<Camera3d>>,
    settings: Option<ResMut<GlobalClusterSettings>>,
    mut gpu: Local<Option<GlobalClusterGpuSettings>>,
) {
    let fast = shading.fast();
    if let Some(mut settings) = settings {
        if fast && settings.gpu_clustering.is_some() {
            *gpu = settings.gpu_clustering.take();
        } else if !fast && gpu.is_some() {
            settings.gpu_clustering = gpu.take();
        }
    }
    for (camera, config) in &cameras {
        if fast != matches!(config, Some(ClusterConfig::XYZ { dimensions: UVec3::ONE, .. })) {
            commands.entity(camera).insert(if fast { ONE_CLUSTER } else { ClusterConfig::default() });
        }
    }
}

/// Puts the chosen material on every [`FastShaded`] entity, and keeps fast materials
/// equal to their sources (materials animate).
pub(crate) fn shade(
    mut commands: Commands,
    shading: ShadingInEffect,
    to_fast: Query<(Entity, &FastShaded), Without<MeshMaterial3d<FastMaterial>>>,
    to_full: Query<(Entity, &FastShaded), With<MeshMaterial3d<FastMaterial>>>,
    mut changed: MessageReader<AssetEvent<StandardMaterial>>,
    mut m: Counterparts,
) {
    for event in changed.read() {
        if let AssetEvent::Modified { id } = event
            && let (Some(source), Some(handle)) = (m.standard.get(*id), m.made.0.get(id))
            && let Some(mut fast) = m.fast.get_mut(handle)
        {
            *fast = FastMaterial::from(source);
        }
    }
    if !shading.fast() {
        for (entity, shaded) in &to_full {
            commands
                .entity(entity)
                .remove::<MeshMaterial3d<FastMaterial>>()
                .insert(MeshMaterial3d(shaded.full.clone()));
        }
        return;
    }
    for (entity, shaded) in &to_fast {
        let Some(source) = m.standard.get(&shaded.full) else { continue };
        let handle = m.made.0.entry(shaded.full.id()).or_insert_with(|| m.fast.add(FastMaterial::from(source))).clone();
        commands.entity(entity).remove::<MeshMaterial3d<StandardMaterial>>().insert(MeshMaterial3d(handle));
    }
}

/// A closed mission's fast materials go with it.
pub(crate) fn forget(mut made: ResMut<FastMaterials>) {
    made.0.clear();
}
