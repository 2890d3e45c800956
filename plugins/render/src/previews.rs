//! The warbot designer's previews (openparkan `docs/37-designer.md`, "The previews",
//! read): the part picked in each panel and the project, each drawn alone through a
//! camera of its own into an image the designer lays on its place. The model's centre is
//! moved to the origin, it is pitched 0.5 rad and turns about its up axis at 0.75 rad a
//! second (a whole turn in 8.4 s), a new part carrying the last one's angle on; the camera
//! stands 2r off at a 60° field (near + r or far − r past the planes 0.5 and 50 000, the
//! field then 2·asin(r ÷ distance)); two lights shine from either side and above.
//!
//! Each shown model is an object the renderer builds as it builds a placed one
//! ([`ModelPreview`] in place of registration), on a render layer of its own. The
//! project's: the sphere is the one about the drawn parts' boxes (the original's is the
//! model's bounding sphere); the camera looks along the game's +Y and the pitch tips the
//! model's top toward it (the sign in the original's axes is not read); the turn keeps
//! real time.

use crate::MissionRenderSystems;
use crate::model_view::{Lens, sphere_about, target_image, view_camera};
use crate::models::ModelPart;
use bevy::camera::primitives::Aabb;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use iron3d_core::AppState;
use iron3d_mission::{LoadedMission, MissionObject, PreparedObject};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ModelPreviews>()
        .register_type::<ModelPreviews>()
        .register_type::<ModelPreview>()
        .register_type::<PreviewCamera>()
        .add_systems(Update, (spawn_cameras, show_previews).chain().before(MissionRenderSystems::Request))
        .add_systems(Update, layer_parts.after(MissionRenderSystems::Attach))
        .add_systems(PostUpdate, turn_previews.before(TransformSystems::Propagate));
}

/// The source panel's preview.
pub const SOURCE_PREVIEW: usize = 0;
/// The destination panel's preview.
pub const DESTINATION_PREVIEW: usize = 1;
/// The project's view.
pub const PROJECT_PREVIEW: usize = 2;
/// The render layer of each preview (the world is 0, the cockpit panels' views 1 and 2).
const LAYERS: [usize; 3] = [3, 4, 5];
/// Each image's size (pixels): twice the layout's 160 × 151 and 250 × 290.
const SIZES: [[u32; 2]; 3] = [[320, 302], [320, 302], [500, 580]];
/// The previews' lens: 60°, the planes 0.5 and 50 000 (read).
pub const PREVIEW_LENS: Lens = Lens { widen: 1.0, near: 0.5, far: 50_000.0 };
/// The turn (radians a second: 0.00075 a millisecond, read).
pub const TURN: f32 = 0.75;
/// The pitch (radians, read).
pub const PITCH: f32 = 0.5;

/// What a preview shows: a part by its `objects.rlb` key, or a design by its unit file.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub enum Subject {
    /// A part.
    Part(String),
    /// A design's `.dat`.
    Design(Vec<u8>),
}

/// The designer's three previews: what each shows and the images they draw into. The
/// designer asks for a subject each frame it draws one ([`ModelPreviews::show`]); a
/// preview asked for nothing stops drawing.
#[derive(Resource, Reflect, Debug)]
#[reflect(Resource)]
pub struct ModelPreviews {
    /// The images: source, destination, project.
    pub images: [Handle<Image>; 3],
    asked: [Option<Subject>; 3],
    shown: [Option<Shown>; 3],
    /// Each preview's turn (radians).
    angles: [f32; 3],
}

/// A subject shown: its object (`None`: it could not be made) and its sphere in the
/// object's frame once its parts' boxes are known.
#[derive(Reflect, Debug, Clone, PartialEq)]
struct Shown {
    subject: Subject,
    object: Option<Entity>,
    sphere: Option<(Vec3, f32)>,
}

impl FromWorld for ModelPreviews {
    fn from_world(world: &mut World) -> Self {
        let mut assets = world.resource_mut::<Assets<Image>>();
        let images = SIZES.map(|size| assets.add(target_image(size)));
        Self { images, asked: Default::default(), shown: Default::default(), angles: [0.0; 3] }
    }
}

impl ModelPreviews {
    /// Asks preview `view` ([`SOURCE_PREVIEW`], [`DESTINATION_PREVIEW`] or
    /// [`PROJECT_PREVIEW`]) to show `subject` (for this frame and the next).
    pub fn show(&mut self, view: usize, subject: Subject) {
        if let Some(asked) = self.asked.get_mut(view) {
            *asked = Some(subject);
        }
    }

    /// Whether preview `view` draws a model now.
    pub fn drawing(&self, view: usize) -> bool {
        self.shown.get(view).and_then(Option::as_ref).is_some_and(|s| s.sphere.is_some())
    }
}

/// The object of a preview: the renderer builds its model as a placed object's, and
/// its parts go onto the preview's layer.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct ModelPreview(pub usize);

/// A preview's camera.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct PreviewCamera(pub usize);

/// The previews' cameras, looking along the game's +Y (Bevy's −Z) at the origin, and
/// their two lights, travelling (−1, 0, −1) and (1, 0, −1) in the game's axes (read).
///
/// They are made when the designer first asks for a preview, after the window's camera
/// took egui's primary context (`bevy_egui` gives it to the first camera it sees).
fn spawn_cameras(mut commands: Commands, previews: Res<ModelPreviews>, made: Query<(), With<PreviewCamera>>) {
    if previews.asked.iter().all(Option::is_none) || !made.is_empty() {
        return;
    }
    for (view, image) in previews.images.iter().enumerate() {
        commands.spawn((
            Name::new(["source panel's preview", "destination panel's preview", "project's view"][view]),
            PreviewCamera(view),
            view_camera(image, -3 - view as isize, PREVIEW_LENS, LAYERS[view]),
        ));
    }
    for x in [-1.0, 1.0] {
        commands.spawn((
            Name::new("designer previews' light"),
            DirectionalLight { illuminance: 6_000.0, ..default() },
            Transform::default().looking_to(Vec3::new(x, -1.0, 0.0), Vec3::Z),
            RenderLayers::from_layers(&LAYERS),
        ));
    }
}

/// Makes each preview's object the subject asked for: a part resolved as a placed
/// prototype key, a design as a unit file the game keeps; one that cannot be made is
/// reported once and shows nothing.
fn show_previews(mut commands: Commands, mut previews: ResMut<ModelPreviews>, mission: Option<Res<LoadedMission>>) {
    for view in [SOURCE_PREVIEW, DESTINATION_PREVIEW, PROJECT_PREVIEW] {
        let asked = previews.asked[view].take();
        if previews.shown[view].as_ref().map(|s| &s.subject) == asked.as_ref() {
            continue;
        }
        if let Some(object) = previews.shown[view].take().and_then(|s| s.object) {
            commands.entity(object).despawn();
        }
        let Some(subject) = asked else { continue };
        let made = mission.as_deref().and_then(|m| m.backend.clone()).ok_or_else(|| "no mission is loaded".to_string());
        let made = made.and_then(|backend| {
            let key = match &subject {
                Subject::Part(key) => key.clone(),
                Subject::Design(_) => "design preview".to_string(),
            };
            let mut prepared = PreparedObject::probe(u32::MAX, &key);
            match &subject {
                Subject::Part(_) => backend.prepare_object(&mut prepared),
                Subject::Design(dat) => backend.prepare_design(&mut prepared, dat),
            }
            .map_err(|e| e.to_string())?;
            Ok(MissionObject { key: prepared.key, components: prepared.components, clan: prepared.clan })
        });
        let object = match made {
            Ok(object) => Some(
                commands
                    .spawn((
                        Name::new(format!("designer preview {}", object.key)),
                        object,
                        ModelPreview(view),
                        RenderLayers::layer(LAYERS[view]),
                        Transform::default(),
                        Visibility::default(),
                        DespawnOnExit(AppState::InGame),
                    ))
                    .id(),
            ),
            Err(e) => {
                warn!("the designer's preview of {subject:?}: {e}");
                None
            }
        };
        previews.shown[view] = Some(Shown { subject, object, sphere: None });
    }
}

/// Puts the parts of a preview's model onto its layer as they are spawned.
fn layer_parts(
    mut commands: Commands,
    parts: Query<Entity, Added<ModelPart>>,
    parents: Query<&ChildOf>,
    previews: Query<&RenderLayers, With<ModelPreview>>,
) {
    for part in &parts {
        let root = parents.iter_ancestors(part).last();
        if let Some(layers) = root.and_then(|r| previews.get(r).ok()) {
            commands.entity(part).insert(layers.clone());
        }
    }
}

/// Turns each preview's model about its up axis, its centre at the origin, and frames it.
fn turn_previews(
    mut previews: ResMut<ModelPreviews>,
    time: Res<Time<Real>>,
    mut objects: Query<(&mut Transform, &GlobalTransform), With<ModelPreview>>,
    parts: Query<(&GlobalTransform, Option<&Aabb>), With<ModelPart>>,
    children: Query<&Children>,
    mut cameras: Query<(&PreviewCamera, &mut Camera, &mut Transform, &mut Projection), Without<ModelPreview>>,
) {
    let step = TURN * time.delta_secs();
    let previews = &mut *previews;
    for (PreviewCamera(view), mut camera, mut eye, mut projection) in &mut cameras {
        let angle = &mut previews.angles[*view];
        *angle = (*angle + step) % std::f32::consts::TAU;
        let shown = previews.shown[*view].as_mut();
        let framed = shown.and_then(|s| Some((s.object?, &mut s.sphere)));
        let Some((object, sphere)) = framed else {
            camera.is_active = false;
            continue;
        };
        let Ok((mut transform, at)) = objects.get_mut(object) else { continue };
        if sphere.is_none() {
            // Every part's box, once each is computed.
            let boxes: Option<Vec<_>> = children
                .iter_descendants(object)
                .filter_map(|p| parts.get(p).ok())
                .map(|(at, aabb)| Some((at, aabb?)))
                .collect();
            *sphere = boxes.and_then(|b| sphere_about(at.affine().inverse(), b));
        }
        camera.is_active = sphere.is_some();
        let Some((centre, r)) = *sphere else { continue };
        let turn = Quat::from_rotation_x(PITCH) * Quat::from_rotation_y(*angle);
        *transform = Transform::from_rotation(turn).with_translation(-(turn * centre));
        let (distance, field) = PREVIEW_LENS.framing(r);
        *eye = Transform::from_xyz(0.0, 0.0, distance).looking_to(Vec3::NEG_Z, Vec3::Y);
        if let Projection::Perspective(p) = &mut *projection {
            p.fov = field;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2r at 60° between the planes (read); a tiny part, near + r.
    #[test]
    fn a_preview_frames_its_model_two_radii_off_at_60_degrees() {
        let (d, field) = PREVIEW_LENS.framing(3.0);
        assert_eq!(d, 6.0);
        assert!((field.to_degrees() - 60.0).abs() < 1e-4);
        let (d, field) = PREVIEW_LENS.framing(0.1);
        assert!((d - 0.6).abs() < 1e-6 && (field - 2.0 * (0.1f32 / 0.6).asin()).abs() < 1e-6);
        assert!((std::f32::consts::TAU / TURN - 8.4).abs() < 0.05, "a whole turn in 8.4 s");
    }
}
