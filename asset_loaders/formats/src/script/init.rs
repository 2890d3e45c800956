//! The clan base that function 19 reads (`docs/reference/runtime.md` §3.4,
//! gameplay.md §2.5): the SuperAI converts the clan's anchor when it is created, and
//! fn19 writes base X, base Y and the zero-based clan index into its three operands.
//! The anchor conversion is **disputed**; both readings are implemented behind
//! [`AnchorRule`].

use crate::error::{Error, Result};

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
