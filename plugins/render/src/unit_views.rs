//! The cockpit panels' views of a unit (openparkan `docs/35-hud.md`, "The unit in the
//! middle", read): the target panel shows the driven unit's target and the own panel the
//! driven unit, each through a camera of its own that draws that unit alone, every part
//! coloured by its node's life, into an image the HUD lays on the panel.
//!
//! The camera stands 2r from the centre of the unit's sphere (r its radius) with a field
//! of 1.25 × 60° = 75°, so the sphere fills four fifths of the view; when that is nearer
//! than the near plane allows or reaches past the far one it stands at near + r or far −
//! r, and the field is 1.25 × 2·asin(r ÷ distance). It looks along the line from the
//! driven unit's centre to the target's (a building is never seen from below: a rising
//! line is levelled) or, on the own panel, along the unit's forward axis, so the own view
//! shows it from behind. Each part is (0.5, 0, 0) + life × (−0.5, 0.5, 0): green intact,
//! red destroyed. Nothing is cleared around the unit: the panel shows through.
//!
//! The project's: the near and far planes are the original camera's 0.5 and 300 read as
//! near and far (openparkan's guess); the sphere is the one about the drawn parts' boxes
//! (the original's interface `0x20` sphere is not read); a part on no node of the body
//! takes the unit's whole life; a light of the views' own lights the parts from above
//! (how the original's mode 2 applies the colour is not read); the level of detail is
//! the distance's, where the original draws a fixed level.

use crate::MissionRenderSystems;
use crate::model_view::{Lens, sphere_about, target_image, view_camera};
use crate::models::{ModelPart, ModelPiece, ModelState, ObjectModel};
use bevy::camera::primitives::Aabb;
use bevy::camera::visibility::{RenderLayers, VisibilityRange, VisibilitySystems};
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use iron3d_combat::Body;
use iron3d_core::{CombatSheet, Health, Movable};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UnitViews>()
        .register_type::<UnitViews>()
        .register_type::<ViewCopy>()
        .register_type::<ViewCamera>()
        .add_systems(Update, (spawn_cameras, copy_units).chain().in_set(MissionRenderSystems::Animate))
        .add_systems(
            PostUpdate,
            place_views.after(TransformSystems::Propagate).before(VisibilitySystems::UpdateFrusta),
        );
}

/// The target panel's view.
pub const TARGET_VIEW: usize = 0;
/// The own panel's view.
pub const OWN_VIEW: usize = 1;
/// The render layer of each view (the world is drawn on layer 0).
const LAYERS: [usize; 2] = [1, 2];
/// An image's side (pixels).
const SIDE: u32 = 256;
/// The panels' lens: 1.25 × 60°, the planes the original camera's 0.5 and 300
/// (openparkan's guess).
pub const PANEL_LENS: Lens = Lens { widen: 1.25, near: 0.5, far: 300.0 };
/// The steps a part's colour takes from destroyed to intact.
const STEPS: usize = 16;

/// The two views: which unit each shows and the images they draw into. The HUD asks for
/// a unit each frame it draws a panel ([`UnitViews::show`]); a view asked for nothing
/// stops drawing.
#[derive(Resource, Reflect, Debug)]
#[reflect(Resource)]
pub struct UnitViews {
    /// The images, target view first.
    pub images: [Handle<Image>; 2],
    asked: [Option<Entity>; 2],
    shown: [Option<Shown>; 2],
    shades: Vec<Handle<StandardMaterial>>,
}

/// The unit a view copies and its sphere in the unit's own frame, once its parts' boxes
/// are known.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
struct Shown {
    unit: Entity,
    sphere: Option<(Vec3, f32)>,
}

impl FromWorld for UnitViews {
    fn from_world(world: &mut World) -> Self {
        let images = {
            let mut assets = world.resource_mut::<Assets<Image>>();
            [assets.add(target_image([SIDE; 2])), assets.add(target_image([SIDE; 2]))]
        };
        let mut materials = world.resource_mut::<Assets<StandardMaterial>>();
        let shades = (0..=STEPS)
            .map(|step| {
                let [r, g, b] = part_colour(step as f32 / STEPS as f32);
                materials.add(StandardMaterial { base_color: Color::srgb(r, g, b), ..default() })
            })
            .collect();
        Self { images, asked: [None; 2], shown: [None; 2], shades }
    }
}

impl UnitViews {
    /// Asks view `view` ([`TARGET_VIEW`] or [`OWN_VIEW`]) to show `unit` (for this frame
    /// and the next).
    pub fn show(&mut self, view: usize, unit: Entity) {
        if let Some(asked) = self.asked.get_mut(view) {
            *asked = Some(unit);
        }
    }

    /// Whether view `view` draws a unit now.
    pub fn drawing(&self, view: usize) -> bool {
        self.sphere(view).is_some_and(|(_, r)| PANEL_LENS.fits(r))
    }

    /// Whether the unit view `view` shows is too big for it (read: the panel then stops
    /// before the unit, drawing neither it nor its arcs, name and distance).
    pub fn too_big(&self, view: usize) -> bool {
        self.sphere(view).is_some_and(|(_, r)| !PANEL_LENS.fits(r))
    }

    fn sphere(&self, view: usize) -> Option<(Vec3, f32)> {
        self.shown.get(view).copied().flatten()?.sphere
    }
}

/// A part's colour at `life` (its node's life over its full life, read).
pub fn part_colour(life: f32) -> [f32; 3] {
    let life = life.clamp(0.0, 1.0);
    [0.5 - 0.5 * life, 0.5 * life, 0.0]
}

/// The camera's place looking along `d` at a sphere about `centre` at `distance`: z (Bevy's
/// y) up, fixed axes for a vertical look (read).
pub fn eye(centre: Vec3, d: Vec3, distance: f32) -> Transform {
    let up = if d.cross(Vec3::Y).length_squared() < 1e-6 { Vec3::NEG_Z } else { Vec3::Y };
    Transform::from_translation(centre - d * distance).looking_to(d, up)
}

/// The target view's look from the driven unit's centre `from` to the target's `to`: a
/// building is never looked up at (read); `None` when the two meet.
pub fn target_look(from: Vec3, to: Vec3, building: bool) -> Option<Vec3> {
    let d = (to - from).try_normalize()?;
    if building && d.y > 0.0 { Vec3::new(d.x, 0.0, d.z).try_normalize() } else { Some(d) }
}

/// A part a view draws: a copy of `of`, the drawn part, coloured by `node` of the unit's
/// body (`None`: the unit's whole life).
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct ViewCopy {
    /// The view.
    pub view: usize,
    /// The part it copies.
    pub of: Entity,
    /// The body node it shows.
    pub node: Option<u16>,
}

/// A view's camera.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct ViewCamera(pub usize);

/// The two views' cameras, drawn before the world's, and a light of their own.
///
/// They are made when the HUD first asks for a view, after the window's camera took
/// egui's primary context (`bevy_egui` gives it to the first camera it sees).
fn spawn_cameras(mut commands: Commands, views: Res<UnitViews>, made: Query<(), With<ViewCamera>>) {
    if views.asked.iter().all(Option::is_none) || !made.is_empty() {
        return;
    }
    for (view, image) in views.images.iter().enumerate() {
        commands.spawn((
            Name::new(["target panel's view", "own panel's view"][view]),
            ViewCamera(view),
            view_camera(image, -1 - view as isize, PANEL_LENS, LAYERS[view]),
        ));
    }
    commands.spawn((
        Name::new("panel views' light"),
        DirectionalLight { illuminance: 8_000.0, ..default() },
        Transform::from_rotation(Quat::from_euler(EulerRot::YXZ, 0.6, -1.0, 0.0)),
        RenderLayers::from_layers(&LAYERS),
    ));
}

/// Keeps each view's copies those of the unit asked for, once its model is drawn.
fn copy_units(
    mut commands: Commands,
    mut views: ResMut<UnitViews>,
    copies: Query<(Entity, &ViewCopy)>,
    units: Query<(&ObjectModel, Option<&CombatSheet>)>,
    children: Query<&Children>,
    parts: Query<(&Mesh3d, &ChildOf, Option<&VisibilityRange>), With<ModelPart>>,
    pieces: Query<&ModelPiece>,
) {
    for view in [TARGET_VIEW, OWN_VIEW] {
        let asked = views.asked[view].take();
        let ready = asked.filter(|&u| units.get(u).is_ok_and(|(m, _)| m.state == ModelState::Ready));
        if views.shown[view].map(|s| s.unit) == ready {
            continue;
        }
        for (copy, _) in copies.iter().filter(|(_, c)| c.view == view) {
            commands.entity(copy).despawn();
        }
        views.shown[view] = ready.map(|unit| Shown { unit, sphere: None });
        let Some(unit) = ready else { continue };
        let sheet = units.get(unit).ok().and_then(|(_, s)| s);
        for part in children.iter_descendants(unit) {
            let Ok((mesh, parent, range)) = parts.get(part) else { continue };
            let piece = pieces.get(parent.parent()).ok();
            let node = piece.zip(sheet).and_then(|(p, s)| s.node_of(p.component, p.node));
            let mut copy = commands.spawn((
                Name::new("panel view part"),
                ViewCopy { view, of: part, node },
                Mesh3d(mesh.0.clone()),
                MeshMaterial3d(views.shades[STEPS].clone()),
                Transform::default(),
                RenderLayers::layer(LAYERS[view]),
            ));
            if let Some(range) = range {
                copy.insert(range.clone());
            }
        }
    }
}

/// The units the views show: where they are drawn, their bodies and whether they move.
type Units<'w, 's> = Query<
    'w,
    's,
    (&'static GlobalTransform, Option<&'static Body>, Option<&'static Health>, Has<Movable>),
    (Without<ViewCopy>, Without<ViewCamera>),
>;

/// Poses each view's copies as the parts they copy are drawn, colours them by their
/// nodes' life and places the view's camera.
#[allow(clippy::type_complexity, reason = "the parts, the units and the cameras")]
fn place_views(
    mut views: ResMut<UnitViews>,
    mut copies: Query<(&ViewCopy, &mut Transform, &mut GlobalTransform, &mut MeshMaterial3d<StandardMaterial>)>,
    drawn: Query<(&GlobalTransform, Option<&Aabb>), (With<ModelPart>, Without<ViewCopy>)>,
    units: Units,
    mut cameras: Query<
        (&ViewCamera, &mut Camera, &mut Transform, &mut GlobalTransform, &mut Projection),
        (Without<ViewCopy>, Without<ModelPart>),
    >,
) {
    let views = &mut *views;
    for (copy, mut transform, mut global, mut material) in &mut copies {
        let (Some(shown), Ok((at, _))) = (views.shown[copy.view], drawn.get(copy.of)) else { continue };
        *global = *at;
        *transform = at.compute_transform();
        let Ok((_, body, health, _)) = units.get(shown.unit) else { continue };
        let life = match (copy.node, body) {
            (Some(node), Some(body)) => body.condition(node),
            _ => health.map_or(1.0, Health::share),
        };
        let shade = &views.shades[(life.clamp(0.0, 1.0) * STEPS as f32).round() as usize];
        if material.0 != *shade {
            material.0 = shade.clone();
        }
    }
    for view in [TARGET_VIEW, OWN_VIEW] {
        if let Some(shown) = &mut views.shown[view]
            && shown.sphere.is_none()
        {
            shown.sphere = sphere(shown.unit, view, &copies, &drawn, &units);
        }
    }
    let centre = |view: usize| {
        let shown = views.shown[view]?;
        let (unit, _, _, movable) = units.get(shown.unit).ok()?;
        let (middle, r) = shown.sphere?;
        // A unit faces game +X, Bevy's +X (`SimTransform::heading`).
        Some((unit.transform_point(middle), r, unit.rotation() * Vec3::X, movable))
    };
    let (target, own) = (centre(TARGET_VIEW), centre(OWN_VIEW));
    for (ViewCamera(view), mut camera, mut transform, mut global, mut projection) in &mut cameras {
        let look = match (*view, target, own) {
            (OWN_VIEW, _, Some((c, r, forward, _))) => Some((c, r, forward)),
            (TARGET_VIEW, Some((c, r, forward, movable)), own) => {
                let d = own.and_then(|(from, ..)| target_look(from, c, !movable));
                Some((c, r, d.unwrap_or(forward)))
            }
            _ => None,
        };
        let look = look.filter(|(_, r, _)| PANEL_LENS.fits(*r));
        camera.is_active = look.is_some();
        let Some((c, r, d)) = look else { continue };
        // The frame is placed after the transforms' propagation, so both are written.
        let (distance, field) = PANEL_LENS.framing(r);
        *transform = eye(c, d, distance);
        *global = GlobalTransform::from(*transform);
        if let Projection::Perspective(p) = &mut *projection {
            p.fov = field;
        }
    }
}

/// The sphere about a view's copies' parts' boxes in the unit's own frame; `None` while a
/// box is not yet computed.
#[allow(clippy::type_complexity, reason = "the queries place_views holds")]
fn sphere(
    unit: Entity,
    view: usize,
    copies: &Query<(&ViewCopy, &mut Transform, &mut GlobalTransform, &mut MeshMaterial3d<StandardMaterial>)>,
    drawn: &Query<(&GlobalTransform, Option<&Aabb>), (With<ModelPart>, Without<ViewCopy>)>,
    units: &Units,
) -> Option<(Vec3, f32)> {
    let to_unit = units.get(unit).ok()?.0.affine().inverse();
    let boxes: Option<Vec<(&GlobalTransform, &Aabb)>> = copies
        .iter()
        .filter(|(c, ..)| c.view == view)
        .map(|(copy, ..)| drawn.get(copy.of).ok().and_then(|(at, aabb)| Some((at, aabb?))))
        .collect();
    sphere_about(to_unit, boxes?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_intact_part_is_green_a_destroyed_one_red() {
        assert_eq!(part_colour(1.0), [0.0, 0.5, 0.0]);
        assert_eq!(part_colour(0.0), [0.5, 0.0, 0.0]);
        assert_eq!(part_colour(0.5), [0.25, 0.25, 0.0]);
        assert_eq!(part_colour(2.0), part_colour(1.0), "held to its full life");
    }

    /// 2r at 75° between the planes; nearer than the near plane allows, near + r; past
    /// the far one, far − r; the field then 1.25 × 2·asin(r ÷ distance).
    #[test]
    fn the_camera_stands_two_radii_off_with_a_75_degree_field_unless_a_plane_is_crossed() {
        let (d, field) = PANEL_LENS.framing(10.0);
        assert_eq!(d, 20.0);
        assert!((field.to_degrees() - 75.0).abs() < 1e-4, "{}", field.to_degrees());
        let (d, field) = PANEL_LENS.framing(0.2);
        assert!((d - 0.7).abs() < 1e-6, "(K − 1)·r = 0.2 short of the near plane: {d}");
        assert!((field - 1.25 * 2.0 * (0.2f32 / 0.7).asin()).abs() < 1e-6);
        let (d, _) = PANEL_LENS.framing(120.0);
        assert_eq!(d, 180.0, "(K + 1)·r = 360 past the far plane: 300 − 120");
        assert!(PANEL_LENS.fits(149.75) && !PANEL_LENS.fits(149.8), "twice the radius within 300 − 0.5");
    }

    #[test]
    fn the_target_is_seen_along_the_line_from_the_driven_unit_and_a_building_never_from_below() {
        let (from, up_high) = (Vec3::ZERO, Vec3::new(3.0, 4.0, 0.0));
        assert_eq!(target_look(from, up_high, false), Some(Vec3::new(0.6, 0.8, 0.0)));
        assert_eq!(target_look(from, up_high, true), Some(Vec3::X), "levelled");
        let below = Vec3::new(3.0, -4.0, 0.0);
        assert_eq!(target_look(from, below, true), Some(Vec3::new(0.6, -0.8, 0.0)), "looked down at");
        assert_eq!(target_look(from, from, false), None);
    }

    #[test]
    fn the_eye_stands_back_along_the_look_and_keeps_up_up() {
        let t = eye(Vec3::new(1.0, 2.0, 3.0), Vec3::NEG_Z, 4.0);
        assert_eq!(t.translation, Vec3::new(1.0, 2.0, 7.0));
        assert!(t.forward().as_vec3().abs_diff_eq(Vec3::NEG_Z, 1e-6) && t.up().as_vec3().abs_diff_eq(Vec3::Y, 1e-6));
        let down = eye(Vec3::ZERO, Vec3::NEG_Y, 2.0);
        assert!(down.forward().as_vec3().abs_diff_eq(Vec3::NEG_Y, 1e-6), "a vertical look takes fixed axes");
    }
}
