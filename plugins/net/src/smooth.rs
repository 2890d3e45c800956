//! Smooth remote motion: a mirror's pose arrives every few ticks (its replication
//! priority), so presentation draws it moving from where it was drawn when the last
//! pose came to that pose, over the time the two poses before took to arrive. The
//! mirror's `SimTransform` keeps the exact replicated pose; only `PresentedTransform`
//! moves in between.

use crate::replicated::{DuplicateMirror, NetPose};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_time::Time;
use iron3d_core::plane::wrap_angle;
use iron3d_core::{PresentedTransform, SimTransform, TICK_SECONDS};

/// Longest segment a mirror is drawn over (a pose after a long silence is reached
/// within this).
const MAX_SPAN: f64 = 1.0;

/// A mirror's drawn motion toward its latest pose.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Component)]
pub struct NetMotion {
    /// Where it was drawn when the latest pose arrived.
    pub from: SimTransform,
    /// When the latest pose arrived (seconds of virtual time).
    pub received: f64,
    /// Seconds between the latest two poses.
    pub span: f64,
}

/// A new pose starts a segment from where the mirror is drawn now.
pub(crate) fn track(
    time: Res<Time>,
    mut commands: Commands,
    mut mirrors: Query<
        (Entity, &SimTransform, Option<&PresentedTransform>, Option<&mut NetMotion>),
        (Changed<NetPose>, Without<DuplicateMirror>),
    >,
) {
    let now = time.elapsed_secs_f64();
    for (e, exact, presented, motion) in &mut mirrors {
        let from = presented.map_or(*exact, |p| p.0);
        let span = |received: f64| (now - received).clamp(f64::from(TICK_SECONDS), MAX_SPAN);
        match motion {
            Some(mut m) => *m = NetMotion { from, received: now, span: span(m.received) },
            None => {
                let motion = NetMotion { from, received: now, span: f64::from(TICK_SECONDS) };
                commands.entity(e).insert((motion, PresentedTransform(*exact)));
            }
        }
    }
}

/// Draws each mirror along its segment (written only when it changes).
pub(crate) fn present(time: Res<Time>, mut mirrors: Query<(&NetMotion, &SimTransform, &mut PresentedTransform)>) {
    let now = time.elapsed_secs_f64();
    for (motion, exact, mut presented) in &mut mirrors {
        let alpha = ((now - motion.received) / motion.span).clamp(0.0, 1.0) as f32;
        presented.set_if_neq(PresentedTransform(between(&motion.from, exact, alpha)));
    }
}

/// The pose `alpha` of the way from `from` to `to` (the heading the short way round).
fn between(from: &SimTransform, to: &SimTransform, alpha: f32) -> SimTransform {
    let mut position = from.position;
    position.iter_mut().zip(to.position).for_each(|(p, t)| *p += (t - *p) * alpha);
    let turn = wrap_angle(to.orientation[2] - from.orientation[2]);
    let mut orientation = to.orientation;
    orientation[2] = from.orientation[2] + turn * alpha;
    SimTransform { position, orientation, ..*to }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_goes_the_short_way_round_and_ends_on_the_pose() {
        let at = |x: f32, heading: f32| SimTransform {
            position: [x, 0.0, 0.0],
            orientation: [0.0, 0.0, heading],
            ..SimTransform::default()
        };
        let (from, to) = (at(0.0, 6.0), at(8.0, 0.2));
        let half = between(&from, &to, 0.5);
        assert_eq!(half.position[0], 4.0);
        let short = (0.2 + std::f32::consts::TAU - 6.0) / 2.0;
        assert!((half.orientation[2] - (6.0 + short)).abs() < 1e-5, "{half:?}");
        assert_eq!(between(&from, &to, 1.0).position, to.position);
    }
}
