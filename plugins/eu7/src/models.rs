//! `.e3d` models as Bevy meshes. One mesh and material handle per model part (a texture
//! and transparency, docs/reference/e3d.md `SUBn`), created the first time an instance of the model is
//! applied and then shared by every instance, so Bevy's automatic batching draws them
//! instanced; the first part goes on the instance entity, the others on children.
//! Textures come from [`TextureLibrary`] (the fallback checker for names not found). A
//! model whose file is missing or unreadable gets a shared magenta placeholder cube and a
//! [`PlaceholderModel`] label (shown by the overlay).

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;

use crate::data::{GeometryPart, ModelGeometry};
use crate::streaming::{ModelInstance, SectionStreamer};
use crate::textures::{LoadedTexture, TextureLibrary};

/// Attaches meshes and materials to new [`ModelInstance`]s.
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelsPlugin;

/// Marks an instance drawn as a placeholder; the overlay labels it.
#[derive(Component, Reflect, Debug, Clone, Default)]
#[reflect(Component)]
pub struct PlaceholderModel {
    /// The model path from the scenery.
    pub model: String,
}

/// Mesh and material handles per model id.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource)]
pub struct ModelLibrary {
    /// Models with a real mesh.
    pub loaded: usize,
    /// Models drawn as placeholders, with the reason, sorted by path.
    pub missing: BTreeMap<String, String>,
    #[reflect(ignore)]
    entries: BTreeMap<u32, (Vec<(Handle<Mesh>, Handle<StandardMaterial>)>, bool)>,
    #[reflect(ignore)]
    placeholder: Option<(Handle<Mesh>, Handle<StandardMaterial>)>,
}

impl Plugin for ModelsPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<PlaceholderModel>()
            .register_type::<ModelLibrary>()
            .init_resource::<ModelLibrary>()
            .add_systems(Update, attach_model_meshes.after(crate::streaming::StreamingSystems));
    }
}

/// A mesh of `part` of flattened model geometry.
pub fn part_mesh(g: &ModelGeometry, part: &GeometryPart) -> Mesh {
    let r = part.start..part.start + part.len;
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, g.positions[r.clone()].to_vec())
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, g.normals[r.clone()].to_vec())
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, g.uvs[r.clone()].to_vec())
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, g.colors[r].to_vec())
}

/// The material of a part: its texture (or the fallback) when it names one, else the
/// vertex colours; translucent parts blend, textures with transparent pixels are
/// alpha-tested; both are drawn two-sided, opaque parts cull back faces.
pub fn part_material(texture: Option<&LoadedTexture>, translucent: bool) -> StandardMaterial {
    let alpha = texture.is_some_and(|t| t.alpha);
    StandardMaterial {
        base_color_texture: texture.map(|t| t.image.clone()),
        perceptual_roughness: 0.9,
        alpha_mode: match (translucent, alpha) {
            (true, _) => AlphaMode::Blend,
            (false, true) => AlphaMode::Mask(0.5),
            (false, false) => AlphaMode::Opaque,
        },
        cull_mode: if translucent || alpha { None } else { Some(bevy::render::render_resource::Face::Back) },
        double_sided: translucent || alpha,
        ..default()
    }
}

/// The folder part of model path `model` (`\` as `/`), where its textures are looked
/// for first.
fn model_dir(model: &str) -> String {
    let m = model.replace('\\', "/");
    m.rfind('/').map_or_else(String::new, |i| m[..i].to_string())
}

#[allow(clippy::too_many_arguments, reason = "one system: the resources it reads and writes")]
fn attach_model_meshes(
    mut commands: Commands,
    new: Query<(Entity, &ModelInstance), Added<ModelInstance>>,
    streamer: Res<SectionStreamer>,
    scenery: Res<crate::LoadedScenery>,
    mut library: ResMut<ModelLibrary>,
    mut textures: ResMut<TextureLibrary>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (entity, inst) in &new {
        let path = streamer.model_path(inst.model).unwrap_or("");
        let lib = &mut *library;
        let (parts, missing) = lib
            .entries
            .entry(inst.model)
            .or_insert_with(|| {
                let dir = scenery.data.as_ref().map_or(std::path::Path::new(""), |d| d.dir.as_path());
                let geometry = streamer.cache.get(path).unwrap_or_else(|| streamer.cache.get_or_load(dir, path));
                match &*geometry {
                    Ok(g) => {
                        lib.loaded += 1;
                        let parts = g
                            .parts
                            .iter()
                            .map(|part| {
                                let texture = (!part.texture.is_empty())
                                    .then(|| textures.get(&part.texture, &model_dir(path), &mut images));
                                let material = part_material(texture.as_ref(), part.translucent);
                                (meshes.add(part_mesh(g, part)), materials.add(material))
                            })
                            .collect();
                        (parts, false)
                    }
                    Err(reason) => {
                        lib.missing.insert(path.to_string(), reason.clone());
                        let placeholder = lib
                            .placeholder
                            .get_or_insert_with(|| {
                                let cube = Mesh::from(Cuboid::new(2.0, 2.0, 2.0)).translated_by(Vec3::Y);
                                let material = StandardMaterial {
                                    base_color: Color::srgb(1.0, 0.0, 1.0),
                                    unlit: true,
                                    ..default()
                                };
                                (meshes.add(cube), materials.add(material))
                            })
                            .clone();
                        (vec![placeholder], true)
                    }
                }
            })
            .clone();
        let mut e = commands.entity(entity);
        let mut parts = parts.into_iter();
        if let Some((mesh, material)) = parts.next() {
            e.insert((Mesh3d(mesh), MeshMaterial3d(material)));
        }
        e.with_children(|c| {
            for (mesh, material) in parts {
                c.spawn((Mesh3d(mesh), MeshMaterial3d(material), Transform::default()));
            }
        });
        if missing {
            e.insert(PlaceholderModel { model: path.to_string() });
        }
    }
}
