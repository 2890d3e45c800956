//! The resource distributor: membership and shares after `docs/reference/runtime.md`
//! §4.1–§4.2, the step as the original runs it (dragonee/openparkan
//! `docs/23-economy.md`, read).
//!
//! * **Membership** (confirmed): a placed object whose Unit DAT class word has its high
//!   bit set gets a registration key; it joins the distributor of the `GetSuperAI`
//!   slot named by its TMA slot word only when that slot holds a SuperAI.
//! * **Shares** (confirmed on synthetic native runs): the first two entries get ½
//!   each; a new entry gets `1/n` and the remainder is split among the earlier
//!   *modifiable* entries; a *pinned* entry keeps its weight; re-adding a key changes
//!   nothing. Arithmetic in `f32`. The weights are the original's priorities `p`
//!   (they always sum to 1; only adding and removing are ever called, so they stay
//!   equal).
//! * **The step** (read): each clan's distributor runs every 192 to 255 ms (three
//!   ticks of 64 ms and 0..63 ms more, drawn from the `distribution` stream), `dt` the
//!   seconds since its last step. Ore holders (mines and storages) offer
//!   `min(held, dt × KPD × Transfer_Ore_OffBoard)`; every other member asks for the
//!   room below its ore maximum (nothing under 0.01). With `A` what is offered, `T`
//!   what is asked and the first tier `F = Σ want × p` ([`two_tier`]): each consumer
//!   receives `want × (p·A' + (1 − p)·B')` and each holder gives its offer × `Take`.
//!   With equal priorities every consumer receives `want × min(1, A / T)`; a surplus
//!   is not drawn, and nothing carries over to the next step.
//! * **Power** goes through the same formula (read, `docs/23-economy.md` "A power
//!   shortage lowers efficiency"): the generators give `Transfer_Power_Out × dt` and
//!   are set full; every other member asks for what its batteries lack, capacity ×
//!   (1 − fill), and is topped up by its share, never over full.
//!
//! The project decides (the spec leaves it open): the numbering of registration keys
//! (sequential from [`FIRST_KEY`], as in the AutoDemo) and how the remainder of a new
//! share is split among modifiable rows (in proportion to their weights).

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
    /// Game time (ms) of its last step.
    pub last_ms: u32,
    /// Game time (ms) of its next step.
    pub next_ms: u32,
}

/// The least time between two steps (three 64 ms ticks) and the most added to it.
pub const PERIOD_MS: (u32, u32) = (192, 64);

/// The least a consumer asks for (`Behavior.dll:0x1001a1af`).
pub const LEAST_WANT: f32 = 0.01;

/// Accepts only finite normal values or zero (`docs/reference/runtime.md` §4.5 numeric policy).
pub fn finite(v: f32) -> Option<f32> {
    (v == 0.0 || v.is_normal()).then_some(v)
}

/// The original's two-tier share (`Behavior.dll:0x10019e80`, read): of `available`,
/// what each consumer of `wants` (`(want, priority)`) receives, and the share of the
/// available that is drawn (`Take`, below 1 only for a surplus).
pub fn two_tier(available: f32, wants: &[(f32, f32)]) -> (Vec<f32>, f32) {
    let total: f32 = wants.iter().map(|w| w.0).sum();
    let first: f32 = wants.iter().map(|(want, p)| want * p).sum();
    let (a, b, take) = if available <= first {
        (if first > 0.0 { available / first } else { 0.0 }, 0.0, 1.0)
    } else if available < total {
        (1.0, (available - first) / (total - first), 1.0)
    } else {
        (1.0, 1.0, if available > 0.0 { total / available } else { 0.0 })
    };
    (wants.iter().map(|(want, p)| want * (p * a + (1.0 - p) * b)).collect(), take)
}

impl Distributor {
    /// An empty distributor (its first step due at once).
    pub fn new(slot: u32) -> Self {
        Self { slot, rows: Vec::new(), last_ms: 0, next_ms: 0 }
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

    /// One step of `dt` seconds through `host`: ore from the holders to the consumers,
    /// power from the generators to the batteries.
    pub fn step(&self, dt: f32, host: &mut dyn StepHost) -> StepReport {
        let mut report = StepReport::default();
        if dt <= 0.0 || finite(dt).is_none() {
            return report;
        }
        let members: Vec<(u32, f32)> =
            self.rows.iter().filter_map(|row| host.lookup(row.key).map(|o| (o, row.weight))).collect();
        Self::ore(dt, host, &members, &mut report);
        Self::power(dt, host, &members, &mut report);
        report
    }

    /// The step's ore: holders offer, the other members ask for their room.
    fn ore(dt: f32, host: &mut dyn StepHost, members: &[(u32, f32)], report: &mut StepReport) {
        let mut offers = Vec::new();
        let mut wants = Vec::new();
        for &(o, weight) in members {
            match host.offer(o, dt).map(finite) {
                Some(Some(offer)) if offer > 0.0 => offers.push((o, offer)),
                Some(Some(_)) => {}
                Some(None) => report.rejected += 1,
                None => match finite(host.want(o)) {
                    Some(want) if want >= LEAST_WANT => wants.push((o, want, weight)),
                    Some(_) => {}
                    None => report.rejected += 1,
                },
            }
        }
        let available: f32 = offers.iter().map(|o| o.1).sum();
        let asked: Vec<(f32, f32)> = wants.iter().map(|w| (w.1, w.2)).collect();
        let (received, take) = two_tier(available, &asked);
        for ((o, _, _), amount) in wants.iter().zip(received) {
            if amount > 0.0 {
                host.give(*o, amount);
                report.delivered += amount;
            }
        }
        for (o, offer) in offers.into_iter().filter(|_| take > 0.0) {
            host.take(o, offer * take);
            report.drawn += offer * take;
        }
    }

    /// The step's power: generators give, the other members' batteries ask for what
    /// they lack.
    fn power(dt: f32, host: &mut dyn StepHost, members: &[(u32, f32)], report: &mut StepReport) {
        let mut wants = Vec::new();
        for &(o, weight) in members {
            match host.generate(o, dt).map(finite) {
                Some(Some(out)) => report.power_available += out,
                Some(None) => report.rejected += 1,
                None => match finite(host.lacks(o)) {
                    Some(want) if want > 0.0 => wants.push((o, want, weight)),
                    Some(_) => {}
                    None => report.rejected += 1,
                },
            }
        }
        let asked: Vec<(f32, f32)> = wants.iter().map(|w| (w.1, w.2)).collect();
        report.power_asked = asked.iter().map(|w| w.0).sum();
        let (received, _) = two_tier(report.power_available, &asked);
        for ((o, _, _), amount) in wants.iter().zip(received) {
            if amount > 0.0 {
                host.charge(*o, amount);
                report.power_delivered += amount;
            }
        }
    }
}

/// What one step moved.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// Drawn from the holders.
    pub drawn: f32,
    /// Delivered to consumers.
    pub delivered: f32,
    /// Members whose values were not finite (left out).
    pub rejected: u32,
    /// Power the generators gave.
    pub power_available: f32,
    /// Power the batteries lacked.
    pub power_asked: f32,
    /// Power put into batteries.
    pub power_delivered: f32,
}

/// The objects behind the rows, as the step sees them.
pub trait StepHost {
    /// The object of `key` now (`None` when it is gone).
    fn lookup(&mut self, key: u32) -> Option<u32>;
    /// A holder's offer over `dt` seconds (`None`: not a holder).
    fn offer(&mut self, object: u32, dt: f32) -> Option<f32>;
    /// What a consumer asks for (0 when nothing).
    fn want(&mut self, object: u32) -> f32;
    /// Takes `amount` from a holder.
    fn take(&mut self, object: u32, amount: f32);
    /// Gives `amount` to a consumer.
    fn give(&mut self, object: u32, amount: f32);
    /// A generator's power over `dt` seconds, its batteries set full (`None`: not a
    /// generator).
    fn generate(&mut self, object: u32, dt: f32) -> Option<f32>;
    /// What a member's batteries lack (0 without batteries).
    fn lacks(&mut self, object: u32) -> f32;
    /// Puts `amount` of power into a member's batteries.
    fn charge(&mut self, object: u32, amount: f32);
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
        if !iron3d_core::UnitClass(class).registers() {
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
