//! Damage slows a machine (openparkan `docs/24-motion.md`, read): its [`Drive`] is its
//! engines' drive times their nodes' condition and the life of its running gear, side
//! by side, kept after every change of its body; Behavior and Control move it at the
//! live limits it gives ([`iron3d_core::MotionLimits::live`]). A power shortage does not
//! slow it: only the engines' condition enters, not their power. A builder's [`BeamCondition`] is
//! kept beside it: its node's condition.

use crate::body::Body;
use bevy_ecs::prelude::*;
use iron3d_core::{BeamCondition, CombatSheet, Drive, Gear};

/// The drive of a body built from `sheet`; `None` when its data names no engine.
pub fn drive(sheet: &CombatSheet, body: &Body) -> Option<Drive> {
    if sheet.engines.is_empty() {
        return None;
    }
    let engines = sheet.engines.iter().map(|e| e.drive * body.condition(e.node)).sum();
    let side = |gear: Gear| {
        let (sum, count) = sheet
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.gear == gear)
            .map(|(i, _)| u16::try_from(i).map_or(1.0, |i| body.condition(i)))
            .fold((0.0, 0u32), |(s, c), v| (s + v, c + 1));
        if count == 0 { 1.0 } else { sum / count as f32 }
    };
    Some(Drive { engines, left: side(Gear::Left), right: side(Gear::Right) })
}

/// Keeps the drive and the beam of every machine whose body changed (the original
/// recomputes its live limits on the tick after a node takes damage).
pub(crate) fn keep(
    mut machines: Query<(&CombatSheet, &Body, Option<&mut Drive>, Option<&mut BeamCondition>), Changed<Body>>,
) {
    for (sheet, body, drive, beam) in &mut machines {
        if let (Some(mut drive), Some(now)) = (drive, self::drive(sheet, body)) {
            drive.set_if_neq(now);
        }
        if let (Some(mut beam), Some(node)) = (beam, sheet.beam) {
            beam.set_if_neq(BeamCondition(body.condition(node)));
        }
    }
}
