//! What the host replicates of each simulated object, quantised so both sides hold
//! the same integers: [`NetObject`] (created once: `GMSG_CREATE_MIRROR`), [`NetPose`]
//! and [`NetHealth`] (mutations: `GMSG_SYNC_OBJECT_STATE`), [`NetOwner`]
//! (`GMSG_CHANGE_OBJECT_OWNER`), and the hash of it all that host and clients compare
//! at checkpoints.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{Fnv1a, Health, Owner, SimTransform};
use serde::{Deserialize, Serialize};

/// Position steps per game unit.
pub const POSITION_STEPS: f32 = 16.0;
/// Heading steps per turn.
pub const HEADING_STEPS: f32 = 65_536.0;

/// An object's identity and prototype, sent once when it is created.
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Reflect)]
#[component(immutable)]
#[reflect(Component)]
pub struct NetObject {
    /// `OriginalObjectId`.
    pub id: u32,
    /// `ObjectKind` as its raw word.
    pub kind: u32,
    /// Prototype key or unit scheme path, as placed or built.
    pub key: String,
}

/// Position (1/16 game unit) and heading (1/65536 turn).
#[derive(Component, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetPose {
    /// X, Y, Z in position steps.
    pub position: [i32; 3],
    /// Heading (rotation about Z); two fixed bytes on the wire (a varint would
    /// take three for half the turn).
    #[serde(with = "two_bytes")]
    pub heading: u16,
}

mod two_bytes {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &u16, s: S) -> Result<S::Ok, S::Error> {
        v.to_le_bytes().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
        <[u8; 2]>::deserialize(d).map(u16::from_le_bytes)
    }
}

/// The owning clan and player (0: the computer).
#[derive(Component, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetOwner {
    /// Clan index.
    pub clan: i32,
    /// Player number, 0 for none.
    pub player: u16,
}

/// Hit points, rounded up (a living object never shows 0).
#[derive(Component, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetHealth {
    /// Current hit points.
    pub hp: u16,
    /// Full hit points.
    pub max: u16,
}

impl NetPose {
    /// The quantised pose of a transform.
    pub fn of(t: &SimTransform) -> Self {
        let step = |v: f32| (v * POSITION_STEPS).round() as i32;
        let turn = t.orientation[2].rem_euclid(std::f32::consts::TAU) / std::f32::consts::TAU;
        Self { position: t.position.map(step), heading: ((turn * HEADING_STEPS).round() as u32 & 0xFFFF) as u16 }
    }

    /// Position in game units.
    pub fn position(&self) -> [f32; 3] {
        self.position.map(|v| v as f32 / POSITION_STEPS)
    }

    /// Heading in radians (0..2π).
    pub fn heading(&self) -> f32 {
        f32::from(self.heading) / HEADING_STEPS * std::f32::consts::TAU
    }
}

impl NetOwner {
    /// The replicated form of an owner.
    pub fn of(o: &Owner) -> Self {
        Self { clan: o.clan, player: o.player.map_or(0, u16::from) }
    }

    /// Back to the simulation's form.
    pub fn owner(&self) -> Owner {
        Owner { clan: self.clan, player: u8::try_from(self.player).ok().filter(|p| *p != 0) }
    }
}

impl NetHealth {
    /// The replicated form of hit points.
    pub fn of(h: &Health) -> Self {
        let q = |v: f32| v.max(0.0).ceil().min(f32::from(u16::MAX)) as u16;
        Self { hp: q(h.hp), max: q(h.max) }
    }
}

/// A replicated object whose create duplicated another's id: ignored (no mirror).
#[derive(Component, Debug, Clone, Copy, Default, Reflect)]
#[reflect(Component)]
pub struct DuplicateMirror;

type Row<'a> = (&'a NetObject, &'a NetPose, &'a NetOwner, Option<&'a NetHealth>);

/// One object's replicated values, as hashed (a sync report's row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicatedRow {
    /// Identity and prototype.
    pub object: NetObject,
    /// Pose.
    pub pose: NetPose,
    /// Owner.
    pub owner: NetOwner,
    /// Hit points, if it has them.
    pub health: Option<NetHealth>,
}

impl ReplicatedRow {
    fn of((object, pose, owner, health): Row) -> Self {
        Self { object: object.clone(), pose: *pose, owner: *owner, health: health.copied() }
    }

    /// The row's own hash, folded to 32 bits (a sync report's per-object digest).
    pub fn digest(&self) -> u32 {
        let mut h = Fnv1a::default();
        hash_row(&mut h, (&self.object, &self.pose, &self.owner, self.health.as_ref()));
        (h.0 ^ (h.0 >> 32)) as u32
    }
}

fn hash_row(h: &mut Fnv1a, (object, pose, owner, health): Row) {
    h.word(object.id);
    h.word(object.kind);
    h.write(object.key.as_bytes());
    pose.position.iter().for_each(|v| h.word(*v as u32));
    h.word(u32::from(pose.heading));
    h.word(owner.clan as u32);
    h.word(u32::from(owner.player));
    if let Some(hp) = health {
        h.word(u32::from(hp.hp) | u32::from(hp.max) << 16);
    }
}

fn sorted_rows(world: &mut World) -> Vec<Row<'_>> {
    let mut q = world.query_filtered::<Row, Without<DuplicateMirror>>();
    let mut rows: Vec<Row> = q.iter(world).collect();
    rows.sort_unstable_by_key(|r| r.0.id);
    rows
}

/// The hash of the replicated state: every object's identity, pose, owner and hit
/// points in id order (word-wise FNV-1a). The host and each client compute it over
/// the same integers.
pub fn replicated_hash(world: &mut World) -> u64 {
    let mut h = Fnv1a::default();
    sorted_rows(world).into_iter().for_each(|row| hash_row(&mut h, row));
    h.0
}

/// Every replicated object's values, in id order.
pub fn replicated_rows(world: &mut World) -> Vec<ReplicatedRow> {
    sorted_rows(world).into_iter().map(ReplicatedRow::of).collect()
}
