//! The one place where Iron3D's axes become Bevy's (`docs/reference/models.md` §7 step 9,
//! `docs/reference/world.md` §1.5).
//!
//! Iron3D is **Z-up** (X/Y is the ground plane, TMA Z is height); Bevy is **Y-up**. Every
//! game-space vector becomes `(x, y, z) → (x, z, −y)`: a proper rotation of −90° about X
//! ([`GAME_TO_BEVY`]), so handedness and triangle winding are preserved. Mesh loaders
//! convert positions and normals with [`to_bevy`]; object placement uses [`placement`],
//! which conjugates the game rotation by the same rotation.

use bevy_math::{Quat, Vec3};
use bevy_transform::components::Transform;
use iron3d_formats::model::mesh_build;

/// Rotation taking game space (Z-up) to Bevy space (Y-up): −90° about X.
pub const GAME_TO_BEVY: Quat =
    Quat::from_xyzw(-core::f32::consts::FRAC_1_SQRT_2, 0.0, 0.0, core::f32::consts::FRAC_1_SQRT_2);

/// A game-space point or direction in Bevy space: `(x, y, z) → (x, z, −y)`.
pub fn to_bevy(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[2], -p[1]]
}

/// A Bevy-space point or direction in game space (the inverse of [`to_bevy`]).
pub fn to_game(p: [f32; 3]) -> [f32; 3] {
    [p[0], -p[2], p[1]]
}

/// The placement rotation in game space: `R = Rz(z)·Ry(y)·Rx(x)` (radians; x applied first).
pub fn game_rotation(orientation: [f32; 3]) -> Quat {
    let [x, y, z] = orientation;
    Quat::from_rotation_z(z) * Quat::from_rotation_y(y) * Quat::from_rotation_x(x)
}

/// Bevy `(translation, rotation, scale)` of a placed object such that
/// `to_bevy(position + R·(scale ∘ p_local)) = translation + rotation·(scale' ∘ to_bevy(p_local))`
/// (`docs/reference/world.md` §1.5). Scale is per game axis, so its Y and Z swap with the axes.
pub fn placement(position: [f32; 3], orientation: [f32; 3], scale: [f32; 3]) -> (Vec3, Quat, Vec3) {
    let rotation = (GAME_TO_BEVY * game_rotation(orientation) * GAME_TO_BEVY.inverse()).normalize();
    (Vec3::from(to_bevy(position)), rotation, Vec3::new(scale[0], scale[2], scale[1]))
}

/// A model node's local transform in Bevy space: the translation through [`to_bevy`],
/// the rotation conjugated by [`GAME_TO_BEVY`] (its axis maps like a vector).
pub fn node_transform(t: &mesh_build::Transform) -> Transform {
    let [x, y, z, w] = t.rotation;
    let [bx, by, bz] = to_bevy([x, y, z]);
    Transform::from_translation(Vec3::from(to_bevy(t.translation))).with_rotation(Quat::from_xyzw(bx, by, bz, w))
}
