//! Damage slows a machine (openparkan `docs/24-motion.md`, read): its [`Drive`] is its
//! engines' drive times their nodes' condition and the life of its running gear, side
//! by side, kept after every change of its body; Behavior and Control move it at the
//! live limits it gives ([`iron3d_core::MotionLimits::live`]). A power shortage does not
//! slow it: only the engines' condition enters, not their power. A builder's [`BeamCondition`] is
//! kept beside it: its node's condition.

use crate::body::Body;
use bevy_ecs::prelude::*;
use iron3d_core::{BeamCondition, CombatSheet, CreationNodeCondition, Drive, Gear, Places};

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
/// recomputes its live limits on the tick after a node takes damage), and a factory's
/// creation node's condition.
pub(crate) fn keep(
    mut machines: Query<(&CombatSheet, &Body, Option<&mut Drive>, Option<&mut BeamCondition>), Changed<Body>>,
    mut factories: Query<(&Places, &Body, &mut CreationNodeCondition), Changed<Body>>,
) {
    for (places, body, mut creation) in &mut factories {
        if let Some(node) = places.creation_node() {
            creation.set_if_neq(CreationNodeCondition(body.condition(node.joint)));
        }
    }
    for (sheet, body, drive, beam) in &mut machines {
        if let (Some(mut drive), Some(now)) = (drive, self::drive(sheet, body)) {
            drive.set_if_neq(now);
        }
        if let (Some(mut beam), Some(node)) = (beam, sheet.beam) {
            beam.set_if_neq(BeamCondition(body.condition(node)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{Body, NodeLife};
    use bevy_app::App;
    use iron3d_core::Place;

    #[test]
    fn a_factory_keeps_its_creation_nodes_joint_condition() {
        let mut app = App::new();
        app.add_systems(bevy_app::Update, keep);
        let node = |parent| NodeLife { life: 100.0, max: 100.0, parent, vital: false };
        let body = Body { nodes: vec![node(None), node(Some(0))], armour: [0.0; 2] };
        let places = Places(vec![Place { flags: 0x2000_0800, at: [0.0; 3], joint: 1 }]);
        let plant = app.world_mut().spawn((places, body, CreationNodeCondition(1.0))).id();
        app.update();
        let condition = |app: &App| app.world().get::<CreationNodeCondition>(plant).copied();
        app.world_mut().get_mut::<Body>(plant).unwrap().strike(1, 60.0);
        app.update();
        assert_eq!(condition(&app), Some(CreationNodeCondition(0.4)), "the joint's life over its full life");
        app.world_mut().get_mut::<Body>(plant).unwrap().strike(1, 60.0);
        app.update();
        assert!(condition(&app).is_some_and(|c| !c.intact()), "destroyed: {:?}", condition(&app));
    }
}
