//! The `Init` event and Handler(19) clan base variables (`docs/reference/runtime.md` §3.4).
//!
//! `Init` is the first event whose C-string name is exactly `Init` (case-sensitive).
//! Handler(19) writes three raw words to the varset records it references: base X,
//! base Y (anchor conversions) and the zero-based clan index. The anchor conversion is
//! **disputed**; both readings are implemented behind [`AnchorRule`].

use super::scr::{Record, ScrPackage, Selector};
use crate::error::{Error, Result};

/// Selector of Handler(19).
pub const HANDLER_CLAN_BASE: u32 = 19;
/// Anchor limit of the constructor.
pub const ANCHOR_LIMIT: u32 = 10_000;

/// How an anchor coordinate becomes the stored word — **disputed**.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnchorRule {
    /// Reading A (recommended default): `__ftol` truncation, low 32 bits; values
    /// above 10000 (unsigned compare) are rejected.
    #[default]
    Truncate,
    /// Reading B: round half to even, low 32 bits, stored as a float of the unsigned
    /// word, truncated again to the low 32 bits; values above 10000 only warn.
    RoundHalfEven,
}

/// A converted anchor word and whether reading B warned about the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchor {
    /// The word written to the variable.
    pub word: u32,
    /// True when the value exceeds the limit and the rule only warns.
    pub warning: bool,
}

fn low_word(v: f64) -> u32 {
    // The x87 `fistp qword` result: an i64 (saturating here for out-of-range input).
    (v as i64) as u32
}

/// Converts one anchor coordinate.
pub fn convert_anchor(value: f64, rule: AnchorRule) -> Result<Anchor> {
    match rule {
        AnchorRule::Truncate => {
            let word = low_word(value.trunc());
            if word > ANCHOR_LIMIT {
                return Err(Error::invalid(
                    0,
                    "anchor_limit",
                    format!("anchor {value} -> {word} exceeds {ANCHOR_LIMIT}"),
                ));
            }
            Ok(Anchor { word, warning: false })
        }
        AnchorRule::RoundHalfEven => {
            let first = low_word(value.round_ties_even());
            let stored = first as f32; // the AI keeps the unsigned word as a float
            let word = low_word(f64::from(stored).trunc());
            Ok(Anchor { word, warning: first > ANCHOR_LIMIT })
        }
    }
}

/// What running the first `Init` would do.
#[derive(Debug, Clone, PartialEq)]
pub enum InitPlan {
    /// No event named `Init`: no writes.
    NoInit,
    /// Every record is supported: apply these `(varset index, word)` writes in order.
    Writes(Vec<(u32, u32)>),
    /// A record is not supported: keep defaults and report (never skipped as a no-op).
    Unsupported {
        /// Record index inside `Init`.
        record: usize,
        /// Its selector.
        selector: Selector,
    },
}

/// Plans the first `Init` for a clan: only Handler(19) (exactly three references) is
/// supported; writes are returned only when the whole event was scanned successfully.
pub fn plan_init(pkg: &ScrPackage, base_x: f64, base_y: f64, clan_index: u32, rule: AnchorRule) -> Result<InitPlan> {
    let Some(init) = pkg.event("Init") else { return Ok(InitPlan::NoInit) };
    let mut writes = Vec::new();
    for (i, r) in init.records.iter().enumerate() {
        match (r.selector(), r.refs.as_slice()) {
            (Selector::Handler(HANDLER_CLAN_BASE), &[x, y, clan]) => {
                let ax = convert_anchor(base_x, rule)?;
                let ay = convert_anchor(base_y, rule)?;
                writes.extend([(x, ax.word), (y, ay.word), (clan, clan_index)]);
            }
            (selector, _) => return Ok(InitPlan::Unsupported { record: i, selector }),
        }
    }
    Ok(InitPlan::Writes(writes))
}

/// Authoring: a unit package whose `Init` holds one Handler(19) record referencing the
/// shared varset declarations 224 `ClanBaseX`, 225 `ClanBaseY`, 226 `ClanID`.
pub fn unit_package() -> Result<ScrPackage> {
    let mut p = ScrPackage::new();
    p.add_event("Init", 0, vec![Record::handler19(224, 225, 226)])?;
    Ok(p)
}
