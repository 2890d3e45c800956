//! MAT0 → `StandardMaterial` (`docs/reference/models.md` §3, §7 step 7): phase colours (diffuse ×
//! texture, emissive), alpha = diffuse A × alpha multiplier, blending when the source/
//! destination blend codes are set (additive for destination ONE), alpha test for a
//! texture with alpha and no blend (threshold 0.5, not established). Everything is drawn
//! double-sided (winding not established). Animated phases follow `Time`. Lightmaps
//! (a separate texture stage in the original, `docs/reference/models.md` §4.6) are Bevy lightmaps on the part
//! entities, scaled like the ambient light they replace.

use crate::MissionRenderSystems;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use iron3d_assets::Mat0Asset;
use iron3d_formats::model::mat0::PhaseColors;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MaterialCache>().add_systems(Update, animate_materials.in_set(MissionRenderSystems::Animate));
}

/// Shared materials: one per MAT0 (and one grey for rows without one), so every
/// model naming the same MAT0 draws with the same material and Bevy batches them.
#[derive(Resource, Default)]
pub struct MaterialCache {
    pub(crate) by_mat0: HashMap<Option<AssetId<Mat0Asset>>, Handle<StandardMaterial>>,
}

/// What a `StandardMaterial` is built from (MAT0 assets and their textures) and where
/// it is added.
#[derive(SystemParam)]
pub(crate) struct MaterialSources<'w> {
    /// MAT0 materials.
    pub(crate) mats: Res<'w, Assets<Mat0Asset>>,
    /// Their textures (for the alpha test).
    pub(crate) images: Res<'w, Assets<Image>>,
    /// The built materials.
    pub(crate) materials: ResMut<'w, Assets<StandardMaterial>>,
}

/// A material whose MAT0 has phase animation.
#[derive(Component, Debug, Clone)]
pub struct AnimatedMaterial {
    /// The shared material to update.
    pub material: Handle<StandardMaterial>,
    /// Its MAT0.
    pub mat0: Handle<Mat0Asset>,
}

const D3DBLEND_ONE: u8 = 2;
const BLEND_UNSET: u8 = 0xFF;

fn colour(c: [f32; 4]) -> Color {
    Color::srgba(c[0], c[1], c[2], c[3])
}

/// The base colour and emissive of a phase's colours.
fn phase_colors(colors: &PhaseColors, alpha_multiplier: f32) -> (Color, LinearRgba) {
    let [r, g, b, a] = colors.diffuse;
    let [er, eg, eb, _] = colors.emissive;
    (colour([r, g, b, (a * alpha_multiplier).clamp(0.0, 1.0)]), Color::srgb(er, eg, eb).to_linear())
}

/// The alpha multiplier of a MAT0 (1 when absent or not finite).
fn alpha_multiplier(mat0: &Mat0Asset) -> f32 {
    let multiplier = mat0.material.alpha_multiplier.map_or(1.0, f32::from_bits);
    if multiplier.is_finite() { multiplier } else { 1.0 }
}

fn has_alpha(image: Option<&Image>) -> bool {
    image.and_then(|i| i.data.as_ref()).is_some_and(|d| d.chunks_exact(4).any(|p| p[3] < 250))
}

/// True when a MAT0 changes phase over time (several phases and an animation block).
pub fn is_animated(mat0: &Mat0Asset) -> bool {
    mat0.material.phases.len() > 1 && !mat0.material.anims.is_empty()
}

/// The material of a MAT0 at phase 0 (`None`: a neutral grey).
pub fn standard_material(mat0: Option<&Mat0Asset>, images: &Assets<Image>) -> StandardMaterial {
    let mut m = StandardMaterial {
        base_color: Color::srgb(0.7, 0.7, 0.7),
        perceptual_roughness: 0.85,
        reflectance: 0.2,
        double_sided: true,
        cull_mode: None,
        lightmap_exposure: crate::environment::AMBIENT_BRIGHTNESS,
        ..default()
    };
    let Some(mat0) = mat0 else { return m };
    let material = &mat0.material;
    if let Some(phase) = material.phases.first() {
        (m.base_color, m.emissive) = phase_colors(&phase.colors(), alpha_multiplier(mat0));
    }
    let texture = mat0.textures.first().cloned().flatten();
    let textured_alpha = has_alpha(texture.as_ref().and_then(|t| images.get(t)));
    m.base_color_texture = texture;
    m.alpha_mode = match material.blend {
        Some([_, dst]) if dst == D3DBLEND_ONE => AlphaMode::Add,
        Some([src, dst]) if src != BLEND_UNSET || dst != BLEND_UNSET => AlphaMode::Blend,
        _ if textured_alpha => AlphaMode::Mask(0.5),
        _ if m.base_color.alpha() < 1.0 => AlphaMode::Blend,
        _ => AlphaMode::Opaque,
    };
    m
}

/// Game time in milliseconds for MAT0 phase selection.
fn game_millis(time: &Time) -> u32 {
    (time.elapsed_secs_f64() * 1000.0) as u64 as u32
}

/// Moves animated materials to their current phase; a material is written (and so
/// prepared again for the GPU) only when its colours or texture change.
pub(crate) fn animate_materials(
    time: Res<Time>,
    animated: Query<&AnimatedMaterial>,
    mats: Res<Assets<Mat0Asset>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut seed: Local<u32>,
) {
    let now = game_millis(&time);
    let mut rand = || {
        *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        *seed >> 16
    };
    for a in &animated {
        let Some(mat0) = mats.get(&a.mat0) else { continue };
        let Ok(sel) = mat0.material.select(0, now, 0, &mut rand) else { continue };
        let Some(colors) = mat0.material.colors(0, &sel) else { continue };
        let Some(current) = materials.get(&a.material) else { continue };
        let (base_color, emissive) = phase_colors(&colors, alpha_multiplier(mat0));
        let texture = mat0.textures.get(sel.phase).cloned().flatten();
        let new_texture = texture.filter(|t| current.base_color_texture.as_ref() != Some(t));
        if current.base_color == base_color && current.emissive == emissive && new_texture.is_none() {
            continue;
        }
        let Some(mut m) = materials.get_mut(&a.material) else { continue };
        (m.base_color, m.emissive) = (base_color, emissive);
        if let Some(texture) = new_texture {
            m.base_color_texture = Some(texture);
        }
    }
}
