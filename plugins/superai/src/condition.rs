//! The condition-record evaluator (`docs/reference/runtime.md` §3.7, ai.dll RVA `0x5180`): one
//! 16-byte record (`tag`, `subtype`, `payload`, completion byte, 3 opaque bytes). Who
//! creates these records is not known; the evaluator asks a [`ConditionHost`] for the
//! object lookups. The list bound quirk is kept: `index == length` passes the bound
//! check and then fails the next checked access — an error, never `false`.

/// Size of a condition record.
pub const RECORD_SIZE: usize = 16;

/// One condition record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    /// Tag (1..5).
    pub tag: u32,
    /// Subtype: 0 for tags 1–3, 1 for tags 4–5 (anything else never completes).
    pub subtype: u32,
    /// Payload: an object key or a list index.
    pub payload: u32,
    /// Completion flag (set to 1 when the check passes; untouched otherwise).
    pub done: u8,
    /// Opaque bytes `+0x0D..+0x10`.
    pub opaque: [u8; 3],
}

impl Condition {
    /// Reads a record.
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Self {
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Self { tag: w(0), subtype: w(4), payload: w(8), done: b[12], opaque: [b[13], b[14], b[15]] }
    }

    /// Writes the record back.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..4].copy_from_slice(&self.tag.to_le_bytes());
        b[4..8].copy_from_slice(&self.subtype.to_le_bytes());
        b[8..12].copy_from_slice(&self.payload.to_le_bytes());
        b[12] = self.done;
        b[13..].copy_from_slice(&self.opaque);
        b
    }
}

/// An object the host found.
pub type ObjectKey = u32;

/// The lookups the evaluator needs.
pub trait ConditionHost {
    /// The object with `key`, when it exists.
    fn object(&mut self, key: u32) -> Option<ObjectKey>;
    /// Tag 2: the result code of the object's property check.
    fn property_check(&mut self, object: ObjectKey) -> u32;
    /// Tag 3: the value looked up by `key`.
    fn value(&mut self, key: u32) -> Option<u32>;
    /// Tag 3: the first number of the current context.
    fn context_first(&mut self) -> Option<u32>;
    /// Tags 4–5: the number of lists.
    fn list_count(&mut self) -> u32;
    /// Tags 4–5: the child keys of list `index` (`-1` entries included).
    fn list(&mut self, index: u32) -> Option<Vec<i32>>;
    /// Tag 5: the object's second virtual query.
    fn second_query(&mut self, object: ObjectKey) -> u32;
}

/// The failure the original raises as an exception.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConditionError {
    /// The list index equals the list length: it passed the bound check, the next
    /// checked access fails.
    ListIndexAtLength(u32),
}

/// Result codes of tag 2's complex branch that pass.
pub const PROPERTY_PASS: [u32; 3] = [1, 0x12, 0x13];

/// Evaluates `c`; sets `c.done = 1` when the check passes and returns whether it did.
/// A completed record is not evaluated again (the caller skips it): `Ok(true)`.
///
/// # Errors
/// The `index == length` list access.
pub fn evaluate(c: &mut Condition, host: &mut dyn ConditionHost) -> Result<bool, ConditionError> {
    if c.done != 0 {
        return Ok(true);
    }
    let shape_ok = match c.tag {
        1..=3 => c.subtype == 0,
        4 | 5 => c.subtype == 1,
        _ => false,
    };
    if !shape_ok {
        return Ok(false);
    }
    let passes = match c.tag {
        1 => host.object(c.payload).is_none(),
        2 => host.object(c.payload).is_some_and(|o| PROPERTY_PASS.contains(&host.property_check(o))),
        3 => match (host.value(c.payload), host.context_first()) {
            (Some(v), Some(first)) => v == first,
            _ => false,
        },
        _ => {
            let len = host.list_count();
            if c.payload > len {
                return Ok(false);
            }
            if c.payload == len {
                return Err(ConditionError::ListIndexAtLength(c.payload));
            }
            let keys = host.list(c.payload).unwrap_or_default();
            let mut passes = true;
            for key in keys.into_iter().filter(|k| *k != -1) {
                let Some(object) = host.object(key as u32) else { continue };
                if c.tag == 4 || host.second_query(object) != 0 {
                    passes = false;
                    break;
                }
            }
            passes
        }
    };
    if passes {
        c.done = 1;
    }
    Ok(passes)
}
