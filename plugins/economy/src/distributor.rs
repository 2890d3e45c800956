//! The resource distributor (`docs/reference/runtime.md` §4.1–§4.3).
//!
//! * **Membership** (confirmed): a placed object whose Unit DAT class word has its high
//!   bit set gets a registration key; it joins the distributor of the `GetSuperAI`
//!   slot named by its TMA slot word only when that slot holds a SuperAI.
//! * **Shares** (confirmed on synthetic native runs): the first two entries get ½
//!   each; a new entry gets `1/n` and the remainder is split among the earlier
//!   *modifiable* entries; a *pinned* entry keeps its weight; re-adding a key changes
//!   nothing. Arithmetic in `f32` (the x87 control word `0x007F` rounds to 24 bits).
//! * **Regular step** (confirmed on a synthetic run): `dt == 0` is a no-op; pass 1 walks
//!   the rows and reads the values; pass 2 walks again, re-looks-up every object and
//!   applies the values it reads *then*.
//!
//! What the spec leaves open and the project decides (labelled so): the numbering of
//! registration keys (sequential from [`FIRST_KEY`], as in the AutoDemo), how the
//! remainder is split among modifiable rows (in proportion to their weights), and what
//! is transferred (producers' output × `dt` into a pool, receivers take their weight's
//! share of what is in the pool when they are visited, capped by their room; a row
//! that produced in this step does not receive; what is left carries over).

use bevy_reflect::Reflect;

/// The first registration key (the AutoDemo's Behavior added `0x80000003..0x80000006`;
/// the project numbers keys sequentially from there, in `OriginalObjectId` order).
pub const FIRST_KEY: u32 = 0x8000_0003;

/// A distributor row.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// Registration key.
    pub key: u32,
    /// The member's `OriginalObjectId`.
    pub object: u32,
    /// Tail word 1: the weight (share of the whole).
    pub weight: f32,
    /// A pinned (flagged) entry keeps its weight.
    pub pinned: bool,
    /// Tail words 2..5, kept raw (meaning unknown).
    pub tail: [u32; 4],
}

/// One clan's distributor.
#[derive(Debug, Clone, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct Distributor {
    /// `GetSuperAI` slot.
    pub slot: u32,
    /// Rows in insertion order.
    pub rows: Vec<Row>,
    /// What the last step left in the pool (project rule).
    pub carry: f32,
}

/// Accepts only finite normal values or zero (`docs/reference/runtime.md` §4.5 numeric policy).
pub fn finite(v: f32) -> Option<f32> {
    (v == 0.0 || v.is_normal()).then_some(v)
}

impl Distributor {
    /// An empty distributor.
    pub fn new(slot: u32) -> Self {
        Self { slot, rows: Vec::new(), carry: 0.0 }
    }

    /// Adds `key`; returns false (and changes nothing) when the key is already a row.
    pub fn add(&mut self, key: u32, object: u32, pinned: bool) -> bool {
        if self.rows.iter().any(|r| r.key == key) {
            return false;
        }
        let n = (self.rows.len() + 1) as f32;
        let share = 1.0 / n;
        let pinned_sum: f32 = self.rows.iter().filter(|r| r.pinned).map(|r| r.weight).sum();
        let modifiable: Vec<usize> = (0..self.rows.len()).filter(|i| !self.rows[*i].pinned).collect();
        let old_sum: f32 = modifiable.iter().map(|i| self.rows[*i].weight).sum();
        let remainder = (1.0 - share - pinned_sum).max(0.0);
        for &i in &modifiable {
            let w = &mut self.rows[i].weight;
            *w = if old_sum > 0.0 { *w / old_sum * remainder } else { remainder / modifiable.len() as f32 };
        }
        self.rows.push(Row { key, object, weight: share, pinned, tail: [0; 4] });
        true
    }

    /// One regular step of `dt` through `host`.
    pub fn step(&mut self, dt: f32, host: &mut dyn StepHost) -> StepReport {
        let mut report = StepReport::default();
        if dt == 0.0 || finite(dt).is_none() {
            return report;
        }
        // Pass 1: read.
        let mut receiving = vec![false; self.rows.len()];
        let mut receiver_weight = 0.0f32;
        for (i, row) in self.rows.iter().enumerate() {
            let Some(o) = host.lookup(row.key) else { continue };
            if host.skips(o) {
                continue;
            }
            let _ = host.output(o);
            if finite(host.room(o)).is_some_and(|r| r > 0.0) {
                receiving[i] = true;
                receiver_weight += row.weight;
            }
        }
        // Pass 2: re-look-up and apply what is read now.
        let mut pool = self.carry;
        for (i, row) in self.rows.iter().enumerate() {
            let Some(o) = host.lookup(row.key) else { continue };
            if host.skips(o) {
                continue;
            }
            let produced = match finite(host.output(o)).map(|r| r * dt).and_then(finite) {
                Some(amount) if amount > 0.0 => {
                    host.take(o, amount);
                    pool += amount;
                    report.produced += amount;
                    true
                }
                Some(_) => false,
                None => {
                    report.rejected += 1;
                    false
                }
            };
            if receiving[i] && produced {
                // A producer does not take back its own output (project rule).
                receiver_weight -= row.weight;
            } else if receiving[i] && receiver_weight > 0.0 {
                let share = pool * row.weight / receiver_weight;
                let room = finite(host.room(o)).unwrap_or(0.0).max(0.0);
                let given = share.min(room);
                if given > 0.0 {
                    host.give(o, given);
                    pool -= given;
                    report.delivered += given;
                }
                receiver_weight -= row.weight;
            }
        }
        self.carry = finite(pool).unwrap_or(0.0);
        report
    }
}

/// What one step moved.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// Produced into the pool.
    pub produced: f32,
    /// Delivered to receivers.
    pub delivered: f32,
    /// Rows whose values were not finite (rejected).
    pub rejected: u32,
}

/// The objects behind the rows, as the step sees them.
pub trait StepHost {
    /// The object of `key` now (`None` when it is gone).
    fn lookup(&mut self, key: u32) -> Option<u32>;
    /// Whether the object's state skips the row before any interface query.
    fn skips(&mut self, object: u32) -> bool;
    /// The object's output rate (0 when it produces nothing).
    fn output(&mut self, object: u32) -> f32;
    /// How much the object can take now (0 when it receives nothing).
    fn room(&mut self, object: u32) -> f32;
    /// Takes `amount` from a producer.
    fn take(&mut self, object: u32, amount: f32);
    /// Gives `amount` to a receiver.
    fn give(&mut self, object: u32, amount: f32);
}

/// One candidate member: `(OriginalObjectId, TMA slot word, Unit DAT class word)`.
pub type Candidate = (u32, u32, u32);

/// The distributors of a mission: registration keys for every high-bit class in
/// `OriginalObjectId` order; membership only for slots `available`.
pub fn memberships(mut candidates: Vec<Candidate>, available: impl Fn(u32) -> bool) -> Vec<Distributor> {
    candidates.sort_unstable();
    let mut out: Vec<Distributor> = Vec::new();
    let mut next = FIRST_KEY;
    for (id, slot, class) in candidates {
        if class & 0x8000_0000 == 0 {
            continue;
        }
        let key = next;
        next = next.wrapping_add(1);
        if !available(slot) {
            continue;
        }
        let i = match out.iter().position(|d| d.slot == slot) {
            Some(i) => i,
            None => {
                out.push(Distributor::new(slot));
                out.len() - 1
            }
        };
        out[i].add(key, id, false);
    }
    out.sort_by_key(|d| d.slot);
    out
}
