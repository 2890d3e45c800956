//! What the host replicates of each simulated object, quantised so both sides hold
//! the same integers: [`NetObject`] (created once: `GMSG_CREATE_MIRROR`, with the CTLD
//! pieces' [`NetAnimation`], a phase and a rate per binding, sent again when the host's
//! pieces stray from them), [`NetPose`] (mutations: `GMSG_SYNC_OBJECT_STATE`), [`NetTilt`]
//! (pitch and roll) and an armed object's [`NetTurret`] (the project's own, mutations
//! like the pose), [`NetState`] (the components the crates declare replicated, among them
//! the owner, `GMSG_CHANGE_OBJECT_OWNER`, and the hit points: mutations), and the hash of
//! it all that host and clients compare at checkpoints.
//!
//! Each replicated component costs the host hash lookups per object and client every
//! tick, whether it changed or not, so what changes seldom travels with something
//! else rather than alone: the declared components in one [`NetState`], the pieces'
//! cycling with the identity.

use crate::NetState;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{Fnv1a, PieceAnimation, SimTransform, Weapon};
use serde::{Deserialize, Serialize};

/// Position steps per game unit.
pub const POSITION_STEPS: f32 = 16.0;
/// Heading steps per turn.
pub const HEADING_STEPS: f32 = 65_536.0;

/// The signature host and joining game both give object `id`: replicon maps the host's
/// entity to the game's own one of the same signature instead of making a second.
pub(crate) fn signature(id: u32) -> bevy_replicon::prelude::Signature {
    bevy_replicon::prelude::Signature::from_hash(u64::from(id))
}

/// An object's identity and prototype, sent when it is created, and its CTLD pieces'
/// cycling, sent again whenever the pieces stray (the identity never changes).
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Reflect)]
#[reflect(Component)]
pub struct NetObject {
    /// `OriginalObjectId`.
    pub id: u32,
    /// `ObjectKind` as its raw word.
    pub kind: u32,
    /// Prototype key or unit scheme path, as placed or built.
    pub key: String,
    /// Its name as the host's game named it (`SWW-7 Warrior`, `Small Factory`: a built
    /// bot's number is its clan's running count, which only the host knows).
    pub name: String,
    /// Piece animation, if it has CTLD bindings.
    pub animation: Option<NetAnimation>,
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
/// ground sends none: an object gets one from the first tick it stands tilted and
/// keeps it; without one it stands level.
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

/// Blend steps per blend unit (1/65536).
pub const BLEND_STEPS: f32 = 65_536.0;

/// How far (blend steps) a piece may stray from what its replicated phase and rate give
/// before the host sends it again (1/2048 of a cycle: a fraction of a degree for a radar).
pub const BLEND_DRIFT: i32 = 32;

/// An object's CTLD piece bindings ([`PieceAnimation`]): each one's blend at
/// [`NetAnimation::tick`] and how fast it cycles, so a client derives a radar's or a
/// rotor's turning from its own clock instead of receiving it every tick. The host sends
/// it again (in [`NetObject`]) only when a binding's rate changes or its blend strays
/// more than [`BLEND_DRIFT`] steps from what the rate gives.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default, Reflect)]
pub struct NetAnimation {
    /// Game tick the blends were taken at.
    pub tick: u32,
    /// The bindings' blends and rates, in binding order.
    pub blends: Vec<NetBlend>,
}

/// One binding's blend and rate.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub struct NetBlend {
    /// Raw blend in [`BLEND_STEPS`] (a cycling binding's lies in 0..65536).
    pub blend: i32,
    /// Change per tick in 1/2³² of a cycle (0: the binding does not cycle).
    pub rate: u32,
}

impl NetBlend {
    fn of(binding: &iron3d_core::PieceBinding, frames: f32) -> Self {
        let rate = f64::from(binding.rate(frames));
        let rate = if (0.0..1.0).contains(&rate) { rate } else { rate.rem_euclid(1.0) } * 4_294_967_296.0;
        let blend = nearest_i32(binding.blend * BLEND_STEPS);
        Self { blend, rate: rate.round() as u64 as u32 }
    }

    /// A cycling binding's phase (1/2³² of a cycle) `ticks` after it was taken
    /// (wrapping: a tick before it is `u32::MAX` ticks after).
    fn phase(&self, ticks: u32) -> u32 {
        ((self.blend as u32) << 16).wrapping_add(self.rate.wrapping_mul(ticks))
    }

    /// The raw blend `ticks` after it was taken.
    pub fn after(&self, ticks: u32) -> f32 {
        match self.rate {
            0 => self.blend as f32 / BLEND_STEPS,
            _ => (f64::from(self.phase(ticks)) / 4_294_967_296.0) as f32,
        }
    }
}

impl NetAnimation {
    /// The replicated form of an object's bindings at `tick`, Control advancing cycling
    /// ones by `frames` animation frames a tick.
    pub fn of(animation: &PieceAnimation, frames: f32, tick: u32) -> Self {
        Self { tick, blends: animation.bindings.iter().map(|b| NetBlend::of(b, frames)).collect() }
    }

    /// Whether `animation` at `tick` is still what this gives, within [`BLEND_DRIFT`].
    pub fn follows(&self, animation: &PieceAnimation, frames: f32, tick: u32) -> bool {
        let ticks = tick.wrapping_sub(self.tick);
        self.blends.len() == animation.bindings.len()
            && self.blends.iter().zip(&animation.bindings).all(|(n, b)| {
                let now = NetBlend::of(b, frames);
                let drift = match n.rate {
                    0 => now.blend - n.blend,
                    _ => i32::from((now.blend - (n.phase(ticks) >> 16) as i32) as i16),
                };
                now.rate == n.rate && drift.abs() <= BLEND_DRIFT
            })
    }
}

impl NetPose {
    /// The quantised pose of a transform.
    pub fn of(t: &SimTransform) -> Self {
        let step = |v: f32| nearest_i32(v * POSITION_STEPS);
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

/// The integer nearest `x`, halves away from zero, as `x.round() as i64` gives, without
/// the library call (the host quantises eight values an object a tick). Below 2²³ the
/// truncation and the remainder are exact; from there on every float is an integer.
fn nearest(x: f32) -> i64 {
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x as i64;
    }
    let whole = x as i64;
    let rest = x - whole as f32;
    whole + i64::from(rest >= 0.5) - i64::from(rest <= -0.5)
}

/// [`nearest`] held to `i32`, as `x.round() as i32` gives (saturating).
fn nearest_i32(x: f32) -> i32 {
    nearest(x).clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

/// An angle (radians) in 1/65536 turn, wrapped: the nearest step as a wide integer,
/// cut to 16 bits (no `fmod`).
fn turn_steps(radians: f32) -> u16 {
    nearest(radians / std::f32::consts::TAU * HEADING_STEPS) as u16
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

/// A replicated object whose create duplicated another's id: ignored (no mirror).
#[derive(Component, Debug, Clone, Copy, Default, Reflect)]
#[reflect(Component)]
pub struct DuplicateMirror;

/// What is hashed of an object: its replicated components.
type Row<'a> = (&'a NetObject, &'a NetPose, &'a NetState, Option<&'a NetTilt>, Option<&'a NetTurret>);

/// One object's replicated values, as hashed (a sync report's row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicatedRow {
    /// Identity, prototype and piece animation.
    pub object: NetObject,
    /// Pose.
    pub pose: NetPose,
    /// The declared replicated components (owner, hit points, ...).
    pub state: NetState,
    /// Pitch and roll, if it tilts.
    pub tilt: Option<NetTilt>,
    /// Turret heading, if it is armed.
    pub turret: Option<NetTurret>,
}

impl ReplicatedRow {
    fn of((object, pose, state, tilt, turret): Row) -> Self {
        Self { object: object.clone(), pose: *pose, state: state.clone(), tilt: tilt.copied(), turret: turret.copied() }
    }

    /// The row's own hash, folded to 32 bits (a sync report's per-object digest).
    pub fn digest(&self) -> u32 {
        let mut h = Fnv1a::default();
        hash_row(&mut h, self.row());
        (h.0 ^ (h.0 >> 32)) as u32
    }

    fn row(&self) -> Row<'_> {
        (&self.object, &self.pose, &self.state, self.tilt.as_ref(), self.turret.as_ref())
    }
}

/// The hash of rows in id order: [`replicated_hash`] of the world they were taken from.
pub(crate) fn rows_hash(rows: &[ReplicatedRow]) -> u64 {
    let mut h = Fnv1a::default();
    rows.iter().for_each(|r| hash_row(&mut h, r.row()));
    h.0
}

fn hash_row(h: &mut Fnv1a, (object, pose, state, tilt, turret): Row) {
    h.word(object.id);
    h.word(object.kind);
    h.write(object.key.as_bytes());
    pose.position.iter().for_each(|v| h.word(*v as u32));
    h.word(u32::from(pose.heading));
    h.word(state.0.len() as u32);
    h.write(&state.0);
    if let Some(t) = tilt {
        h.word(u32::from(t.pitch as u16) | u32::from(t.roll as u16) << 16);
    }
    if let Some(t) = turret {
        h.word(u32::from(t.heading));
    }
    if let Some(a) = &object.animation {
        h.word(a.tick);
        h.word(a.blends.len() as u32);
        for b in &a.blends {
            h.word(b.blend as u32);
            h.word(b.rate);
        }
    }
}

fn sorted_rows(world: &mut World) -> Vec<Row<'_>> {
    let mut q = world.query_filtered::<Row, Without<DuplicateMirror>>();
    let mut rows: Vec<Row> = q.iter(world).collect();
    rows.sort_unstable_by_key(|r| r.0.id);
    rows
}

/// The hash of the replicated state: every object's identity, pose, declared
/// components, tilt, turret and piece animation in id order (word-wise FNV-1a). The host and each client compute it over
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

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_core::PieceBinding;

    #[test]
    fn the_nearest_integer_is_the_rounded_one() {
        let mut x = -70_000.0f32;
        while x < 70_000.0 {
            for v in [x, x + 0.5, x - 0.5, x.next_up(), x.next_down(), (x + 0.5).next_down(), (x + 0.5).next_up()] {
                assert_eq!(nearest(v), v.round() as i64, "{v}");
            }
            x += 0.37;
        }
        for v in [0.5f32, -0.5, 0.49999997, -0.49999997, 8_388_607.5, -8_388_607.5, 8_388_608.0, 3.0e9, -3.0e9, 1.0e30]
        {
            assert_eq!(nearest(v), v.round() as i64, "{v}");
            assert_eq!(nearest_i32(v), v.round() as i32, "{v}");
        }
        for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN] {
            assert_eq!(nearest(v), v.round() as i64, "{v}");
            assert_eq!(nearest_i32(v), v.round() as i32, "{v}");
        }
    }

    #[test]
    fn angles_wrap_to_the_nearest_step_of_a_turn() {
        use std::f32::consts::{FRAC_PI_2, PI, TAU};
        let steps = [0.0, PI, -FRAC_PI_2, TAU + PI, -TAU - FRAC_PI_2, TAU - 1e-6].map(turn_steps);
        assert_eq!(steps, [0, 0x8000, 0xC000, 0x8000, 0xC000, 0]);
        assert_eq!(
            NetTilt::of(&SimTransform { orientation: [-FRAC_PI_2, 0.5, 0.0], ..Default::default() }).pitch,
            -0x4000
        );
    }

    #[test]
    fn a_cycling_blend_follows_its_rate_both_ways_and_a_stray_is_noticed() {
        let radar = PieceBinding { component: 0, node: 1, endpoints: [0.0, 30.0], blend: 0.9, flags: 1 };
        let frames = 0.96;
        let animation = |b: PieceBinding| PieceAnimation { bindings: vec![b] };
        let net = NetAnimation::of(&animation(radar), frames, 100);
        let mut turned = radar;
        (0..50).for_each(|_| turned.advance(frames));
        assert!((net.blends[0].after(50) - turned.blend).abs() < 1e-4, "{}", turned.blend);
        // A tick before it was taken (a client's clock a little behind the host's).
        assert!((net.blends[0].after(u32::MAX) - (0.9 - 0.032)).abs() < 1e-4);
        assert!(net.follows(&animation(turned), frames, 150));
        turned.blend += 0.01;
        assert!(!net.follows(&animation(turned), frames, 150), "a stray of 1/100 of a cycle is sent");
        let still = PieceBinding { flags: 0, blend: 1.0, ..radar };
        let net = NetAnimation::of(&animation(still), frames, 7);
        assert_eq!((net.blends[0].rate, net.blends[0].after(1_000)), (0, 1.0), "a static binding keeps its blend");
    }
}
