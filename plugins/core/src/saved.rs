//! The state core's types hold ([`declare`]) and core's hasher ([`hash`]): what every
//! object carries (owner, transform, motion, animation, the player's direct control)
//! hashed as words, for speed.

use crate::state::{Hashing, StateApp};
use crate::{
    AutoDriver, BuildOptions, BuildingCategory, ClanRelations, CollisionProxy, CombatSheet, CommandQueue, Designs,
    Difficulty, Fnv1a, GameClock, Kinematics, ManualControl, MineralLodes, MissionOutcome, ModelBounds, MotionLimits,
    MotionRequest, Movable, NavStatus, ObjectHandle, Owner, PieceAnimation, Places, PreviousSimTransform, PropertyBag,
    Rung, SchemeNames, SimObject, SimRandom, SimTransform, SizeClass, SteerIntent, SuperAiSlots, UnitClass,
};
use bevy_app::App;
use bevy_ecs::prelude::*;

const MADE: &str = "set from the data when the object is made, never changed";

/// Declares core's saved state.
pub(crate) fn declare(app: &mut App) {
    let by = Hashing::By("core");
    app.save_component::<SimObject>("core.sim_object", Hashing::Not("a marker every simulated object has"))
        .save_component::<Movable>("core.movable", Hashing::Not(MADE))
        .save_component::<Owner>("core.owner", by.replicated())
        .save_component::<ObjectHandle>("core.handle", Hashing::Not("World3D's handle, allocated in id order"))
        .save_component::<SimTransform>("core.transform", by)
        .save_component::<PreviousSimTransform>("core.previous_transform", Hashing::Not("drawing between ticks"))
        .save_component::<ModelBounds>("core.bounds", Hashing::Not(MADE))
        .save_component::<PieceAnimation>("core.animation", by)
        .save_component::<Kinematics>("core.kinematics", by)
        .save_component::<NavStatus>("core.nav_status", by)
        .save_component::<SteerIntent>("core.steer", by)
        .save_component::<MotionRequest>("core.motion_request", by)
        .save_component::<MotionLimits>("core.motion_limits", Hashing::Not(MADE))
        .save_component::<CollisionProxy>("core.collision", Hashing::Not(MADE))
        .save_component::<BuildingCategory>("core.building_category", Hashing::Not(MADE))
        .save_component::<Rung>("core.rung", Hashing::Not(MADE))
        .save_component::<ManualControl>("core.manual", by)
        .save_component::<AutoDriver>("core.auto_driver", by.replicated())
        .save_component::<UnitClass>("core.class", Hashing::Not(MADE))
        .save_component::<SizeClass>("core.size_class", Hashing::Not(MADE))
        .save_component::<CombatSheet>("core.combat_sheet", Hashing::Not(MADE))
        .save_component::<Places>("core.places", Hashing::Not(MADE))
        .save_component::<PropertyBag>("core.properties", Hashing::Not("the mission's properties as placed"))
        .save_resource::<GameClock>("core.clock", Hashing::Bytes)
        .save_resource::<SimRandom>("core.random", by)
        .save_resource::<CommandQueue>(
            "core.commands",
            Hashing::Not(
                "orders waiting for their tick: their order in the queue is not state, what they change is hashed",
            ),
        )
        .save_resource::<SchemeNames>("core.scheme_names", Hashing::Bytes)
        .save_resource::<Designs>("core.designs", Hashing::Bytes)
        .save_resource::<Difficulty>("core.difficulty", by)
        .save_resource::<ClanRelations>("core.relations", Hashing::Bytes)
        .save_resource::<SuperAiSlots>("core.superai_slots", Hashing::Bytes)
        .save_resource::<MissionOutcome>("core.outcome", by)
        .save_resource::<MineralLodes>("core.lodes", Hashing::Bytes)
        .save_resource::<BuildOptions>("core.build_options", Hashing::Bytes)
        .hash_state("core", hash);
}

type Row<'a> = (
    &'a SimTransform,
    Option<&'a Owner>,
    Option<&'a Kinematics>,
    Option<&'a NavStatus>,
    Option<&'a PieceAnimation>,
    Option<&'a ManualControl>,
    Option<&'a SteerIntent>,
    Option<&'a MotionRequest>,
    Option<&'a AutoDriver>,
);

/// Core's hasher: per object its owner, position, orientation, speed and turn rate, path
/// state, the player's direct control and the auto-driver's level, piece blends, steering and requested velocity;
/// then the random streams, the difficulty and the recorded outcomes.
fn hash(world: &World, objects: &[(u32, Entity)], h: &mut Fnv1a) {
    if let Some(q) = world.try_query::<Row>() {
        for (id, e) in objects {
            let Ok((t, owner, kin, status, animation, manual, steer, request, auto)) = q.get_manual(world, *e) else {
                continue;
            };
            h.word(*id);
            if let Some(o) = owner {
                h.word(o.clan as u32);
                h.word(o.player.map_or(u32::MAX, u32::from));
            }
            h.floats(&t.position);
            h.floats(&t.orientation);
            if let Some(k) = kin {
                h.floats(&[k.speed, k.turn_rate]);
            }
            if let Some(m) = manual {
                h.wide(m.input.bits());
                h.wide(m.input.extra_bits());
                h.word(m.tick);
                h.word(m.since);
                h.word(u32::from(m.level));
            }
            if let Some(a) = auto {
                h.word(u32::from(a.0) | 0x100);
            }
            if let Some(s) = status {
                h.word(s.state as u32);
                h.word(s.areal.unwrap_or(u32::MAX));
                h.word(s.path_revision);
            }
            if let Some(a) = animation {
                a.bindings.iter().for_each(|b| h.word(b.blend.to_bits()));
            }
            if let Some(s) = steer {
                h.word(u32::from(s.active) | u32::from(s.last) << 1);
                h.floats(&[s.from[0], s.from[1], s.waypoint[0], s.waypoint[1]]);
            }
            if let Some(r) = request {
                h.floats(&r.velocity);
            }
        }
    }
    if let Some(random) = world.get_resource::<SimRandom>() {
        h.wide(random.shared.state);
        for (name, stream) in &random.streams {
            h.write(name.as_bytes());
            h.wide(stream.state);
        }
    }
    if let Some(d) = world.get_resource::<Difficulty>() {
        h.word(d.level as u32);
        d.ratios.iter().for_each(|r| h.word(r.to_bits()));
    }
    if let Some(outcome) = world.get_resource::<MissionOutcome>() {
        h.word(outcome.records.len() as u32);
        for (clan, o, tick) in &outcome.records {
            [*clan, *o as u32, *tick].into_iter().for_each(|w| h.word(w));
        }
    }
}
