//! The movement limits among a CTLD's 108 root parameters (`docs/reference/registry.md` §5.5:
//! size *confirmed*; openparkan `docs/24-motion.md`, read: the triples are in the
//! machine's own frame, x right, y forward, z up). Offsets are relative to the end of
//! the header (file `+0x14`); every other root byte stays raw.

use super::{Ctld, ROOT_SIZE};

/// `+0x00` vec3: max tangential acceleration (inferred name).
const ACCELERATION: usize = 0x00;
/// `+0x18` vec3: max tangential speed (inferred name).
const SPEED: usize = 0x18;
/// `+0x24` vec3: max angular speed (inferred name).
const ANGULAR_SPEED: usize = 0x24;
/// `+0x5C` f32: slope limit angle (inferred name).
const SLOPE_LIMIT: usize = 0x5C;
/// `+0x68` f32 (file `+124`): the payload in kg, "Max payload" (openparkan
/// `docs/24-motion.md`, read).
const PAYLOAD: usize = 0x68;
/// `+0x1C` f32 (file `+48`): a round's speed, the forward (second) value of the
/// top-speed triple (openparkan `docs/29-weapons.md`, read and measured).
const ROUND_SPEED: usize = 0x1C;
/// `+0x58` f32 (file `+108`): a round's range, the path it flies (same source).
const ROUND_RANGE: usize = 0x58;
/// `+0x60` u32 (file `+116`): a round's frame flags (same source: 4 starts selected on
/// the player's guns, 8 and 0x10 the AI's distance score, 16 a guided round).
const ROUND_FLAGS: usize = 0x60;

/// The movement limits of a control description, per axis of the machine's own frame
/// (x right, y forward, z up: the original's, openparkan `docs/24-motion.md`, read).
/// Units are game units and seconds; the angles are radians.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MotionParameters {
    /// Max tangential acceleration (units/s²) along X, Y, Z.
    pub max_acceleration: [f32; 3],
    /// Max tangential speed (units/s) along X, Y, Z.
    pub max_speed: [f32; 3],
    /// Max angular speed (rad/s) about X, Y, Z.
    pub max_angular_speed: [f32; 3],
    /// Slope limit angle (radians).
    pub slope_limit: f32,
    /// The payload (kg): what the machine carries at full load beyond its own body.
    pub payload: f32,
}

fn f32_at(root: &[u8; ROOT_SIZE], at: usize) -> f32 {
    f32::from_le_bytes([root[at], root[at + 1], root[at + 2], root[at + 3]])
}

fn vec3_at(root: &[u8; ROOT_SIZE], at: usize) -> [f32; 3] {
    [0, 1, 2].map(|k| f32_at(root, at + 4 * k))
}

fn put(root: &mut [u8; ROOT_SIZE], at: usize, values: &[f32]) {
    for (k, v) in values.iter().enumerate() {
        root[at + 4 * k..at + 4 * k + 4].copy_from_slice(&v.to_le_bytes());
    }
}

impl Ctld {
    /// The movement limits of the root parameters (raw values, possibly zero or not
    /// finite: consumers decide what counts as given).
    pub fn motion(&self) -> MotionParameters {
        MotionParameters {
            max_acceleration: vec3_at(&self.root, ACCELERATION),
            max_speed: vec3_at(&self.root, SPEED),
            max_angular_speed: vec3_at(&self.root, ANGULAR_SPEED),
            slope_limit: f32_at(&self.root, SLOPE_LIMIT),
            payload: f32_at(&self.root, PAYLOAD),
        }
    }

    /// A round's speed (units per second) and range (units), as a projectile's
    /// controller holds them.
    pub fn round_flight(&self) -> (f32, f32) {
        (f32_at(&self.root, ROUND_SPEED), f32_at(&self.root, ROUND_RANGE))
    }

    /// A round's frame flags.
    pub fn round_flags(&self) -> u32 {
        f32_at(&self.root, ROUND_FLAGS).to_bits()
    }

    /// Authoring: writes a round's speed, range and frame flags.
    pub fn set_round_flight(&mut self, speed: f32, range: f32, flags: u32) {
        put(&mut self.root, ROUND_SPEED, &[speed]);
        put(&mut self.root, ROUND_RANGE, &[range]);
        put(&mut self.root, ROUND_FLAGS, &[f32::from_bits(flags)]);
    }

    /// Authoring: writes the movement limits into the root parameters (the other root
    /// bytes are kept).
    pub fn set_motion(&mut self, m: &MotionParameters) {
        put(&mut self.root, ACCELERATION, &m.max_acceleration);
        put(&mut self.root, SPEED, &m.max_speed);
        put(&mut self.root, ANGULAR_SPEED, &m.max_angular_speed);
        put(&mut self.root, SLOPE_LIMIT, &[m.slope_limit]);
        put(&mut self.root, PAYLOAD, &[m.payload]);
    }
}
