//! What the host replicates of each simulated object, quantised so both sides hold
//! the same integers: [`NetObject`] (created once: `GMSG_CREATE_MIRROR`), [`NetPose`]
//! and [`NetHealth`] (mutations: `GMSG_SYNC_OBJECT_STATE`), [`NetTilt`] (pitch and roll)
//! and an armed object's [`NetTurret`] (the project's own, mutations like the pose),
//! [`NetOwner`] (`GMSG_CHANGE_OBJECT_OWNER`), and the hash of it all that host and
//! clients compare at checkpoints.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{Fnv1a, Health, Owner, SimTransform, Weapon};
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

/// Pitch and roll (1/65536 turn, signed), apart from the pose so an object on flat
/// ground sends them once.
#[derive(Component, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetTilt {
    /// Rotation about X.
    pub pitch: i16,
    /// Rotation about Y.
    pub roll: i16,
}

/// An armed object's turret heading relative to its body (1/65536 turn).
#[derive(Component, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetTurret {
    /// Heading (two fixed bytes on the wire, as the pose's).
    #[serde(with = "two_bytes")]
    pub heading: u16,
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
        Self { position: t.position.map(step), heading: turn_steps(t.orientation[2]) }
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

/// An angle (radians) in 1/65536 turn, wrapped.
fn turn_steps(radians: f32) -> u16 {
    let turn = radians.rem_euclid(std::f32::consts::TAU) / std::f32::consts::TAU;
    ((turn * HEADING_STEPS).round() as u32 & 0xFFFF) as u16
}

/// Radians of an angle in 1/65536 turn, signed (-π..π).
fn signed_radians(steps: u16) -> f32 {
    f32::from(steps as i16) / HEADING_STEPS * std::f32::consts::TAU
}

impl NetTilt {
    /// The quantised pitch and roll of a transform.
    pub fn of(t: &SimTransform) -> Self {
        Self { pitch: turn_steps(t.orientation[0]) as i16, roll: turn_steps(t.orientation[1]) as i16 }
    }

    /// Pitch and roll in radians (-π..π).
    pub fn radians(&self) -> [f32; 2] {
        [signed_radians(self.pitch as u16), signed_radians(self.roll as u16)]
    }
}

impl NetTurret {
    /// The quantised turret heading of a weapon.
    pub fn of(w: &Weapon) -> Self {
        Self { heading: turn_steps(w.turret) }
    }

    /// The heading in radians (-π..π, as combat keeps it).
    pub fn radians(&self) -> f32 {
        signed_radians(self.heading)
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

type Row<'a> =
    (&'a NetObject, &'a NetPose, &'a NetOwner, Option<&'a NetHealth>, Option<&'a NetTilt>, Option<&'a NetTurret>);

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
    /// Pitch and roll, if it tilts.
    pub tilt: Option<NetTilt>,
    /// Turret heading, if it is armed.
    pub turret: Option<NetTurret>,
}

impl ReplicatedRow {
    fn of((object, pose, owner, health, tilt, turret): Row) -> Self {
        Self {
            object: object.clone(),
            pose: *pose,
            owner: *owner,
            health: health.copied(),
            tilt: tilt.copied(),
            turret: turret.copied(),
        }
    }

    /// The row's own hash, folded to 32 bits (a sync report's per-object digest).
    pub fn digest(&self) -> u32 {
        let mut h = Fnv1a::default();
        hash_row(
            &mut h,
            (&self.object, &self.pose, &self.owner, self.health.as_ref(), self.tilt.as_ref(), self.turret.as_ref()),
        );
        (h.0 ^ (h.0 >> 32)) as u32
    }
}

fn hash_row(h: &mut Fnv1a, (object, pose, owner, health, tilt, turret): Row) {
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
    if let Some(t) = tilt {
        h.word(u32::from(t.pitch as u16) | u32::from(t.roll as u16) << 16);
    }
    if let Some(t) = turret {
        h.word(u32::from(t.heading));
    }
}

fn sorted_rows(world: &mut World) -> Vec<Row<'_>> {
    let mut q = world.query_filtered::<Row, Without<DuplicateMirror>>();
    let mut rows: Vec<Row> = q.iter(world).collect();
    rows.sort_unstable_by_key(|r| r.0.id);
    rows
}

/// The hash of the replicated state: every object's identity, pose, owner, hit
/// points, tilt and turret in id order (word-wise FNV-1a). The host and each client compute it over
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
