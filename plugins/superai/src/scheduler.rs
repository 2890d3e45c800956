//! Handler(2)'s event-record scheduler (`docs/reference/runtime.md` §3.3.1, confirmed data flow):
//! records keyed by `(slot 0 word, slot 4 IEEE bits, slot 5 IEEE bits)` — exact bit
//! equality, so `-0.0 ≠ +0.0`. A new record caches the ids of the events
//! `<base>_Start` and `<base>_Continue` and dispatches nothing; an existing record is
//! refreshed only when slot 1 differs from its stored value (NaN always differs). The
//! consumer of the records is not known, so nothing reads them yet.

use iron3d_formats::script::ScrPackage;

/// The seven resolved slots of a Handler(2) record.
#[derive(Debug, Clone, PartialEq)]
pub struct Slots {
    /// Slot 0: the `u32` word.
    pub word: u32,
    /// Slot 0: the base string (the referenced declaration's name — the project's
    /// reading of "a base string").
    pub base: String,
    /// Slot 1: the numeric scalar.
    pub numeric: f64,
    /// Slot 2.
    pub a: u32,
    /// Slot 3.
    pub b: u32,
    /// Slot 4 (identity).
    pub key4: f32,
    /// Slot 5 (identity).
    pub key5: f32,
    /// Slot 6.
    pub value6: f32,
}

/// One 100-byte scheduler record (fields named by their offsets).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SchedRecord {
    /// Identity: slot 0 word, slot 4 bits, slot 5 bits.
    pub key: (u32, u32, u32),
    /// The base string.
    pub base: String,
    /// Event id of `<base>_Start`, when the package has one.
    pub start_event: Option<usize>,
    /// Event id of `<base>_Continue`.
    pub continue_event: Option<usize>,
    /// `+0x0C` (slot 6).
    pub value_0c: f32,
    /// `+0x14` (slot 1).
    pub value_14: f64,
    /// `+0x24` (slot 2, then `+= +0x28` on each refresh, wrapping).
    pub word_24: u32,
    /// `+0x28` (slot 2).
    pub word_28: u32,
    /// `+0x2C` (slot 3).
    pub word_2c: u32,
}

/// What [`Scheduler::schedule`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduled {
    /// A new record at this index.
    Created(usize),
    /// The record at this index was refreshed.
    Refreshed(usize),
    /// The record at this index exists and slot 1 was equal: unchanged.
    Unchanged(usize),
}

/// The scheduler (`this+0x7C`, records at `+0x24`).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Scheduler {
    /// Records in creation order.
    pub records: Vec<SchedRecord>,
}

impl Scheduler {
    /// Creates or refreshes the record of `s`.
    pub fn schedule(&mut self, pkg: &ScrPackage, s: Slots) -> Scheduled {
        let key = (s.word, s.key4.to_bits(), s.key5.to_bits());
        if let Some(i) = self.records.iter().position(|r| r.key == key) {
            let r = &mut self.records[i];
            #[allow(clippy::float_cmp)]
            if s.numeric != r.value_14 {
                r.value_14 = s.numeric;
                r.value_0c = s.value6;
                r.word_24 = r.word_24.wrapping_add(r.word_28);
                return Scheduled::Refreshed(i);
            }
            return Scheduled::Unchanged(i);
        }
        let find = |suffix: &str| {
            let name = format!("{}{suffix}", s.base);
            pkg.events.iter().position(|e| e.c_name() == name.as_bytes())
        };
        self.records.push(SchedRecord {
            key,
            start_event: find("_Start"),
            continue_event: find("_Continue"),
            base: s.base,
            value_0c: s.value6,
            value_14: s.numeric,
            word_24: s.a,
            word_28: s.a,
            word_2c: s.b,
        });
        Scheduled::Created(self.records.len() - 1)
    }
}
