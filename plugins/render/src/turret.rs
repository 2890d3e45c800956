//! Turrets on screen: the first piece of a turret component (component type 1,
//! `docs/reference/registry.md` §2.3) turns by the turret heading combat keeps
//! ([`iron3d_core::Weapon::turret`]) about its chassis' CTPT `TurretCenter` point
//! (`docs/reference/registry.md` §5.1; the point is read in the frame of the chassis node its
//! `owner_piece` names, "node-local assumed" by the spec) and the chassis' up axis.
//! A chassis without the point turns its turret about the turret's own origin.

use crate::MissionRenderSystems;
use bevy::prelude::*;
use iron3d_assets::MshAsset;
use iron3d_assets::axes::to_bevy;
use iron3d_core::Weapon;

pub(super) fn plugin(app: &mut App) {
    app.register_type::<TurretPiece>()
        .register_type::<ControlPointAt>()
        .add_systems(Update, aim_turrets.in_set(MissionRenderSystems::Animate));
}

/// The CTPT name of the point a turret turns about.
pub const TURRET_CENTER: &str = "TurretCenter";

/// A control point of a component's model: the node its `owner_piece` names and its
/// position there (game axes).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub struct ControlPointAt {
    /// Owner node (`owner_piece`; one outside the model means the model's origin).
    pub node: i32,
    /// Position in that node's frame (game axes).
    pub position: [f32; 3],
}

/// The first piece of a turret component: it turns on its mount about `pivot` and
/// `axis` (both in the frame of the piece's parent) by its object's turret heading.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct TurretPiece {
    /// The object entity.
    pub object: Entity,
    /// Its transform with the turret straight ahead.
    pub ahead: Transform,
    /// The point it turns about.
    pub pivot: Vec3,
    /// The axis it turns about (unit length).
    pub axis: Vec3,
    /// True when `pivot` is the chassis' `TurretCenter` (else the turret's own origin).
    pub centred: bool,
}

/// `node`'s transform in its model's space: its pose composed with its ancestors'
/// (`pose` gives a node's local pose); a node outside the model is the model's origin.
pub fn model_space(model: &MshAsset, node: i32, pose: impl Fn(usize) -> Transform) -> Transform {
    let Some(mut at) = usize::try_from(node).ok().filter(|n| *n < model.nodes.len()) else {
        return Transform::IDENTITY;
    };
    let mut t = pose(at);
    while let Some(parent) = model.nodes[at].parent.filter(|p| *p < at) {
        t = pose(parent) * t;
        at = parent;
    }
    t
}

/// The pivot and the axis of a turret hanging from chassis node `mount`, in the
/// mount's frame: the chassis' `TurretCenter` carried from its owner node's frame, and
/// the chassis' up (game +Z, Bevy +Y of the model).
pub fn turret_pivot(center: ControlPointAt, owner: Transform, mount: Transform) -> (Vec3, Vec3) {
    let into_mount = mount.to_matrix().inverse();
    let point = owner.transform_point(Vec3::from(to_bevy(center.position)));
    let axis = (mount.rotation.inverse() * Vec3::Y).normalize();
    (into_mount.transform_point3(point), axis)
}

/// The turret's transform at `heading` (radians): `ahead` turned about `pivot` and
/// `axis` (its parent's frame), so the pivot stays where it is.
pub fn turret_pose(ahead: Transform, pivot: Vec3, axis: Vec3, heading: f32) -> Transform {
    let mut t = ahead;
    t.rotate_around(pivot, Quat::from_axis_angle(axis, heading));
    t
}

/// Turns turret pieces by their object's turret heading; the transform is written
/// only when it changes.
pub(crate) fn aim_turrets(weapons: Query<Ref<Weapon>>, mut turrets: Query<(&TurretPiece, &mut Transform)>) {
    for (turret, mut transform) in &mut turrets {
        let Some(weapon) = weapons.get(turret.object).ok().filter(|w| w.is_changed()) else { continue };
        transform.set_if_neq(turret_pose(turret.ahead, turret.pivot, turret.axis, weapon.turret));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn a_turret_turns_about_its_pivot_which_stays_put() {
        // A turret whose origin is 1 unit ahead of the pivot (X), on a level mount.
        let ahead = Transform::from_xyz(2.0, 1.0, 0.0);
        let pivot = Vec3::new(1.0, 1.0, 0.0);
        let t = turret_pose(ahead, pivot, Vec3::Y, FRAC_PI_2);
        // A quarter turn left (game +Z is Bevy +Y): game +X becomes game +Y, Bevy -Z.
        assert!(near(t.translation, Vec3::new(1.0, 1.0, -1.0)), "{t:?}");
        assert!(t.rotation.abs_diff_eq(Quat::from_rotation_y(FRAC_PI_2), 1e-6));
        // The turret's point over the pivot does not move; a point ahead swings round.
        let over_pivot = ahead.to_matrix().inverse().transform_point3(pivot);
        assert!(near(t.transform_point(over_pivot), pivot));
        assert!(near(t.transform_point(Vec3::X), Vec3::new(1.0, 1.0, -2.0)));
        // Turning about its own origin instead would leave its origin in place.
        assert!(!near(t.translation, ahead.translation));
        assert_eq!(turret_pose(ahead, pivot, Vec3::Y, 0.0), ahead);
    }

    #[test]
    fn the_pivot_is_the_turret_center_carried_into_the_mount_frame() {
        // TurretCenter 1.6 above and 0.3 behind the owner node, which sits 0.5 ahead
        // of the model origin; the mount is 1.5 up, turned a quarter about the up axis.
        let center = ControlPointAt { node: 0, position: [-0.3, 0.0, 1.6] };
        let owner = Transform::from_xyz(0.5, 0.0, 0.0);
        let mount = Transform::from_xyz(0.0, 1.5, 0.0).with_rotation(Quat::from_rotation_y(FRAC_PI_2));
        let (pivot, axis) = turret_pivot(center, owner, mount);
        // In model space the centre is at (0.2, 1.6, 0); seen from the mount:
        let model_space = mount.transform_point(pivot);
        assert!(near(model_space, Vec3::new(0.2, 1.6, 0.0)), "{model_space:?}");
        assert!(near(pivot, Vec3::new(0.0, 0.1, 0.2)), "{pivot:?}");
        assert!(near(axis, Vec3::Y), "the mount's turn leaves the up axis");
        // A tilted mount sees the chassis' up tilted the other way.
        let tilted = Transform::from_rotation(Quat::from_rotation_x(0.3));
        let (_, axis) = turret_pivot(center, owner, tilted);
        assert!(near(tilted.rotation * axis, Vec3::Y));
    }
}
