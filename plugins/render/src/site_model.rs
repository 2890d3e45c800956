//! The model a building is placed by (openparkan `docs/32-builder.md`, "The model under
//! the cursor", read): the root part of the scheme's first `.dat` (the original's `fr_*`
//! `FORT` record: the bare building, without its batteries, shields and guns), standing
//! at the site turned by its yaw, drawn in one flat colour, green where it may be placed
//! and red where not, unlit, unfogged and over whatever stands in front of it (the
//! original turns the depth test off for it).
//!
//! The placing screen asks for it each frame it places ([`SiteModels::show`]); asked for
//! nothing it goes. The model is an object the renderer builds as it builds a placed one
//! ([`SiteModel`] in place of registration), whose parts take the flat colour.

use crate::MissionRenderSystems;
use crate::fast_shading::{FastMaterial, FastShaded};
use crate::models::ModelPart;
use bevy::camera::visibility::VisibilityRange;
use bevy::light::NotShadowCaster;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::pbr::{ExtendedMaterial, Lightmap, MaterialExtension, MaterialExtensionKey, MaterialExtensionPipeline};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::render_resource::{
    AsBindGroup, CompareFunction, RenderPipelineDescriptor, SpecializedMeshPipelineError,
};
use iron3d_assets::axes::placement;
use iron3d_core::AppState;
use iron3d_mission::{LoadedMission, MissionObject, PreparedObject};

/// Adds the material (with the renderer), the model's resource and its systems.
pub(super) fn plugin(app: &mut App) {
    if app.get_sub_app(RenderApp).is_some() {
        app.add_plugins(MaterialPlugin::<FlatMaterial>::default());
    } else {
        app.init_asset::<FlatMaterial>();
    }
    app.init_resource::<SiteModels>()
        .register_type::<SiteModel>()
        .add_systems(Startup, setup)
        .add_systems(OnExit(AppState::InGame), |mut models: ResMut<SiteModels>| *models = SiteModels::default())
        .add_systems(Update, show_site.before(MissionRenderSystems::Request))
        // After the fast shading's swap, whose material would otherwise come back.
        .add_systems(Update, paint_parts.after(MissionRenderSystems::Animate));
}

/// What the placing screen asks to show: the building scheme whose first building is
/// placed, where (game space, on the ground), its yaw and whether it may be placed.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteAsk {
    /// The scheme's first `.dat`.
    pub scheme: String,
    /// The site (game space).
    pub at: [f32; 3],
    /// Its yaw (radians).
    pub angle: f32,
    /// Green (it may be placed) or red.
    pub placeable: bool,
}

/// The model under the cursor while a building is placed.
#[derive(Resource, Default)]
pub struct SiteModels {
    asked: Option<SiteAsk>,
    /// The scheme shown and its object (`None`: it could not be made).
    shown: Option<(String, Option<Entity>)>,
}

impl SiteModels {
    /// Shows `ask` (for this frame and the next).
    pub fn show(&mut self, ask: SiteAsk) {
        self.asked = Some(ask);
    }

    /// The object of the model shown, once made.
    pub fn object(&self) -> Option<Entity> {
        self.shown.as_ref().and_then(|s| s.1)
    }
}

/// The object of the model under the cursor: the renderer builds its model as a placed
/// object's, and its parts take the flat colour (green or red).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct SiteModel {
    /// Green (it may be placed) or red.
    pub placeable: bool,
}

/// The flat colour drawn over everything: an unlit `StandardMaterial` whose depth test
/// always passes and writes nothing.
pub type FlatMaterial = ExtendedMaterial<StandardMaterial, OverAll>;

/// The extension that turns the depth test off.
#[derive(Asset, AsBindGroup, Reflect, Debug, Clone, Default)]
pub struct OverAll {}

impl MaterialExtension for OverAll {
    fn specialize(
        _pipeline: &MaterialExtensionPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        _key: MaterialExtensionKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        if let Some(depth) = descriptor.depth_stencil.as_mut() {
            depth.depth_compare = Some(CompareFunction::Always);
            depth.depth_write_enabled = Some(false);
        }
        Ok(())
    }
}

/// The two flat colours: red, then green (the original's `0xffff0000` and `0xff00ff00`).
#[derive(Resource)]
struct Flats([Handle<FlatMaterial>; 2]);

fn setup(mut commands: Commands, mut materials: ResMut<Assets<FlatMaterial>>) {
    let flat = |colour: Color| ExtendedMaterial {
        base: StandardMaterial {
            base_color: colour,
            unlit: true,
            fog_enabled: false,
            alpha_mode: AlphaMode::Blend,
            ..default()
        },
        extension: OverAll {},
    };
    commands.insert_resource(Flats(
        [Color::srgb(1.0, 0.0, 0.0), Color::srgb(0.0, 1.0, 0.0)].map(|c| materials.add(flat(c))),
    ));
}

/// Makes, moves and colours the model asked for; one that cannot be made is reported
/// once and shows nothing.
fn show_site(
    mut commands: Commands,
    mut models: ResMut<SiteModels>,
    mission: Option<Res<LoadedMission>>,
    mut placed: Query<(&mut Transform, Mut<SiteModel>)>,
) {
    let asked = models.asked.take();
    if models.shown.as_ref().map(|s| &s.0) != asked.as_ref().map(|a| &a.scheme) {
        if let Some(object) = models.shown.take().and_then(|s| s.1) {
            commands.entity(object).despawn();
        }
        if let Some(ask) = &asked {
            let object = match bare_building(mission.as_deref(), &ask.scheme) {
                Ok(object) => Some(
                    commands
                        .spawn((
                            Name::new(format!("site model {}", ask.scheme)),
                            object,
                            SiteModel { placeable: ask.placeable },
                            site_transform(ask),
                            Visibility::default(),
                            DespawnOnExit(AppState::InGame),
                        ))
                        .id(),
                ),
                Err(e) => {
                    warn!("the site model of {}: {e}", ask.scheme);
                    None
                }
            };
            models.shown = Some((ask.scheme.clone(), object));
        }
    }
    if let (Some(ask), Some(object)) = (asked, models.object())
        && let Ok((mut transform, mut model)) = placed.get_mut(object)
    {
        *transform = site_transform(&ask);
        model.set_if_neq(SiteModel { placeable: ask.placeable });
    }
}

/// The root part of `scheme` as a mission object: the building without its other parts.
fn bare_building(mission: Option<&LoadedMission>, scheme: &str) -> Result<MissionObject, String> {
    let backend = mission.and_then(|m| m.backend.clone()).ok_or("no mission is loaded")?;
    let mut prepared = PreparedObject::probe(u32::MAX, scheme);
    backend.prepare_object(&mut prepared).map_err(|e| e.to_string())?;
    prepared.components.truncate(1);
    Ok(MissionObject { key: prepared.key, components: prepared.components, clan: prepared.clan })
}

/// The model's drawn transform at the site, turned about the up axis by the yaw.
fn site_transform(ask: &SiteAsk) -> Transform {
    let (translation, rotation, scale) = placement(ask.at, [0.0, 0.0, ask.angle], [1.0; 3]);
    Transform { translation, rotation, scale }
}

/// Gives the model's parts its flat colour as they are spawned and as it changes; they
/// cast no shadow and keep no lightmap. The model is drawn whole at any distance: its
/// finest parts lose their distance range, the coarser ones are hidden.
fn paint_parts(
    mut commands: Commands,
    flats: Res<Flats>,
    models: Query<(Entity, Ref<SiteModel>)>,
    parts: Query<(Entity, &ModelPart)>,
    new: Query<(), Added<ModelPart>>,
    children: Query<&Children>,
) {
    for (object, model) in &models {
        let colour = &flats.0[usize::from(model.placeable)];
        for (part, drawn) in children.iter_descendants(object).filter_map(|p| parts.get(p).ok()) {
            if new.contains(part) {
                let mut part = commands.entity(part);
                part.remove::<(FastShaded, MeshMaterial3d<StandardMaterial>, MeshMaterial3d<FastMaterial>)>()
                    .remove::<(Lightmap, VisibilityRange)>()
                    .insert(NotShadowCaster);
                if drawn.level > 0 {
                    part.insert(Visibility::Hidden);
                }
            }
            if model.is_changed() || new.contains(part) {
                commands.entity(part).insert(MeshMaterial3d(colour.clone()));
            }
        }
    }
}
