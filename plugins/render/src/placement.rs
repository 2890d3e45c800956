//! Simulated objects on screen: their game-space [`SimTransform`] (Z up) becomes a
//! Bevy `Transform` (Y up) here, the one place presentation converts it. Moving objects
//! are interpolated between the last two ticks with the fixed clock's overstep, so
//! motion is smooth at any frame rate; a network mirror is drawn at its
//! `PresentedTransform` (the netcode smooths it between updates).

use crate::MissionRenderSystems;
use bevy::prelude::*;
use iron3d_assets::axes::placement;
use iron3d_core::{
    Aboard, FrameSystems, Movable, OriginalObjectId, PresentedTransform, PreviousSimTransform, SimTransform,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, (interpolate, hide_unseen).in_set(FrameSystems::Place))
        .add_systems(Update, place_new.in_set(MissionRenderSystems::Request));
}

fn transform_of(t: &SimTransform) -> Transform {
    let (translation, rotation, scale) = placement(t.position, t.orientation, t.scale);
    Transform { translation, rotation, scale }
}

/// Gives every newly simulated object its drawn transform.
pub(crate) fn place_new(mut commands: Commands, new: Query<(Entity, &SimTransform), Without<Transform>>) {
    for (entity, t) in &new {
        commands.entity(entity).insert((transform_of(t), Visibility::default()));
    }
}

/// The hero aboard a bot is not drawn (openparkan `docs/39-boarding.md`, read), nor the
/// unit the view rides in first person (the project's: its own body would fill the view
/// its camera point looks out of; the cockpit's own panel stands for it) unless the outer
/// camera shows it from outside.
fn hide_unseen(
    frame: Option<Res<iron3d_camera::CameraFrame>>,
    mut units: Query<(&OriginalObjectId, Has<Aboard>, &mut Visibility), With<Movable>>,
) {
    let ridden = match frame.map(|f| (f.mode, f.outer)) {
        Some((iron3d_camera::CameraMode::FirstPerson(id), false)) => Some(id),
        _ => None,
    };
    for (id, aboard, mut visibility) in &mut units {
        let hidden = aboard || ridden == Some(id.0);
        visibility.set_if_neq(if hidden { Visibility::Hidden } else { Visibility::Inherited });
    }
}

/// Moves the drawn transform of moving objects between their previous and current tick
/// (written only when it changes).
pub(crate) fn interpolate(
    time: Res<Time<Fixed>>,
    mut movers: Query<
        (&SimTransform, Option<&PreviousSimTransform>, Option<&PresentedTransform>, &mut Transform),
        With<Movable>,
    >,
) {
    let alpha = time.overstep_fraction();
    for (current, previous, presented, mut drawn) in &mut movers {
        let now = transform_of(current);
        let moved = match (presented, previous) {
            (Some(presented), _) => transform_of(&presented.0),
            (None, Some(previous)) => {
                let before = transform_of(&previous.0);
                Transform {
                    translation: before.translation.lerp(now.translation, alpha),
                    rotation: before.rotation.slerp(now.rotation, alpha),
                    scale: now.scale,
                }
            }
            (None, None) => now,
        };
        // Objects standing still keep their transform unchanged, so neither transform
        // propagation nor mesh extraction touches their piece hierarchies.
        drawn.set_if_neq(moved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hero aboard and the unit the view rides in first person are hidden; another
    /// unit, the ridden one once the view leaves it or seen by the outer camera, are drawn.
    #[test]
    fn the_unit_the_view_rides_and_the_hero_aboard_are_not_drawn() {
        let mut app = App::new();
        app.add_systems(Update, hide_unseen);
        let mut unit = |id: u32| app.world_mut().spawn((OriginalObjectId(id), Movable, Visibility::default())).id();
        let (ridden, other, hero) = (unit(1), unit(2), unit(3));
        app.world_mut().entity_mut(hero).insert(Aboard(1));
        let frame = |mode| iron3d_camera::CameraFrame { mode, ..Default::default() };
        app.insert_resource(frame(iron3d_camera::CameraMode::FirstPerson(1)));
        app.update();
        let shown = |app: &App| [ridden, other, hero].map(|e| *app.world().get::<Visibility>(e).unwrap());
        assert_eq!(shown(&app), [Visibility::Hidden, Visibility::Inherited, Visibility::Hidden]);
        app.insert_resource(frame(iron3d_camera::CameraMode::Follow(1)));
        app.update();
        assert_eq!(shown(&app), [Visibility::Inherited, Visibility::Inherited, Visibility::Hidden]);
        let outside = iron3d_camera::CameraFrame { outer: true, ..frame(iron3d_camera::CameraMode::FirstPerson(1)) };
        app.insert_resource(outside);
        app.update();
        assert_eq!(shown(&app)[0], Visibility::Inherited, "the outer camera shows the unit it rides");
    }
}
