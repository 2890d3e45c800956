//! A model view as the original makes one for the cockpit's panels and the designer's
//! previews (openparkan `docs/35-hud.md`, `docs/37-designer.md`, read): a camera of its
//! own framing a model's sphere, drawing its render layer into an image before the
//! world's camera, clearing to nothing.

use bevy::camera::RenderTarget;
use bevy::camera::primitives::Aabb;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;

/// How a model view's camera frames a sphere (openparkan `docs/35-hud.md` and
/// `docs/37-designer.md`, read): K = 1 ÷ sin 30° = 2 radii off at `widen` × 60°; nearer
/// than the near plane allows it stands at near + r, past the far one at far − r, the
/// field then `widen` × 2·asin(r ÷ distance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lens {
    /// How much wider than the sphere's 60° it looks.
    pub widen: f32,
    /// The near plane.
    pub near: f32,
    /// The far plane.
    pub far: f32,
}

impl Lens {
    /// How far the camera stands from the centre of a sphere of radius `r` and its field
    /// (radians).
    pub fn framing(&self, r: f32) -> (f32, f32) {
        const K: f32 = 2.0;
        let field = |distance: f32| self.widen * 2.0 * (r / distance).clamp(-1.0, 1.0).asin();
        if (K - 1.0) * r < self.near {
            (self.near + r, field(self.near + r))
        } else if (K + 1.0) * r > self.far {
            (self.far - r, field(self.far - r))
        } else {
            (K * r, self.widen * 60f32.to_radians())
        }
    }

    /// Whether a sphere of radius `r` fits between its planes: twice `r` within their
    /// span (read).
    pub fn fits(&self, r: f32) -> bool {
        2.0 * r <= self.far - self.near
    }

    /// Its projection at a field of `fov`.
    pub(crate) fn projection(&self, fov: f32) -> Projection {
        Projection::Perspective(PerspectiveProjection { fov, near: self.near, far: self.far, ..default() })
    }
}

/// The sphere about parts' boxes (each with where it is drawn) in the frame `to_frame`
/// takes world points to; `None` without a box.
pub(crate) fn sphere_about<'a>(
    to_frame: bevy::math::Affine3A,
    boxes: impl IntoIterator<Item = (&'a GlobalTransform, &'a Aabb)>,
) -> Option<(Vec3, f32)> {
    let (mut low, mut high) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for (at, aabb) in boxes {
        let (c, h) = (Vec3::from(aabb.center), Vec3::from(aabb.half_extents));
        for corner in 0..8 {
            let sign = |bit: usize| if corner & bit == 0 { -1.0 } else { 1.0 };
            let p = to_frame.transform_point3(at.transform_point(c + h * Vec3::new(sign(1), sign(2), sign(4))));
            (low, high) = (low.min(p), high.max(p));
        }
    }
    (low.x <= high.x).then(|| ((low + high) / 2.0, ((high - low) / 2.0).length().max(0.01)))
}

/// An image a model view draws into, `size` pixels.
pub(crate) fn target_image([w, h]: [u32; 2]) -> Image {
    Image::new_target_texture(w, h, TextureFormat::Rgba8Unorm, Some(TextureFormat::Rgba8UnormSrgb))
}

/// A model view's camera: drawing `layer` into `image` through `lens`, before the world's
/// (`order` below 0), off until it has something to show, clearing to nothing.
pub(crate) fn view_camera(image: &Handle<Image>, order: isize, lens: Lens, layer: usize) -> impl Bundle {
    (
        Camera3d::default(),
        Camera { order, is_active: false, clear_color: Color::NONE.into(), ..default() },
        RenderTarget::Image(image.clone().into()),
        lens.projection(lens.widen * 60f32.to_radians()),
        RenderLayers::layer(layer),
    )
}
