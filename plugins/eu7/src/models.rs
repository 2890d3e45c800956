//! `.e3d` models as Bevy meshes. One mesh and one material handle per model path, created
//! the first time an instance of the model is applied and then shared by every instance,
//! so Bevy's automatic batching draws them instanced. A model whose file is missing or
//! unreadable gets a shared magenta placeholder cube and a [`PlaceholderModel`] label
//! (shown by the overlay). Textures are not loaded: each model gets a stable tint derived
//! from its path, multiplied by the submodel diffuse colours.

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;

use crate::data::ModelGeometry;
use crate::streaming::{ModelInstance, SectionStreamer};

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
    entries: BTreeMap<u32, (Handle<Mesh>, Handle<StandardMaterial>, bool)>,
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

/// A mesh from flattened model geometry.
pub fn geometry_mesh(g: &ModelGeometry) -> Mesh {
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, g.positions.clone())
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, g.normals.clone())
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, g.uvs.clone())
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, g.colors.clone())
}

/// A stable colour for `key` (FNV-1a hash to a hue), for untextured geometry.
pub fn tint(key: &str) -> Color {
    let h = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    Color::hsl((h % 360) as f32, 0.45, 0.55)
}

fn attach_model_meshes(
    mut commands: Commands,
    new: Query<(Entity, &ModelInstance), Added<ModelInstance>>,
    streamer: Res<SectionStreamer>,
    scenery: Res<crate::LoadedScenery>,
    mut library: ResMut<ModelLibrary>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (entity, inst) in &new {
        let path = streamer.model_path(inst.model).unwrap_or("");
        let lib = &mut *library;
        let (mesh, material, missing) = lib
            .entries
            .entry(inst.model)
            .or_insert_with(|| {
                let dir = scenery.data.as_ref().map_or(std::path::Path::new(""), |d| d.dir.as_path());
                let geometry = streamer.cache.get(path).unwrap_or_else(|| streamer.cache.get_or_load(dir, path));
                match &*geometry {
                    Ok(g) => {
                        lib.loaded += 1;
                        let material =
                            StandardMaterial { base_color: tint(path), perceptual_roughness: 0.9, ..default() };
                        (meshes.add(geometry_mesh(g)), materials.add(material), false)
                    }
                    Err(reason) => {
                        lib.missing.insert(path.to_string(), reason.clone());
                        let (mesh, material) = lib
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
                        (mesh, material, true)
                    }
                }
            })
            .clone();
        let mut e = commands.entity(entity);
        e.insert((Mesh3d(mesh), MeshMaterial3d(material)));
        if missing {
            e.insert(PlaceholderModel { model: path.to_string() });
        }
    }
}
