//! Binary variable sets: the `.var` members of `behpsp.res`, the behaviour profiles
//! (`docs/reference/runtime.md` §3.10, whose field names were inferred; the meaning here is
//! dragonee/openparkan's, whose reader walks all 32 shipped members to the byte, *measured*):
//!
//! ```text
//! i32 count
//! Item: i32 value_length (4); i32 value_type; u32 reserved (0); LP name; LP string2
//!       (empty: a zero word); 4 × value-typed: value, default, minimum, maximum
//!       (LP = i32 length + bytes)
//! ```
//!
//! runtime.md's `value` (seen 0) is the reserved word and its `v4` the value. Value types
//! 2 (bool), 3 (float) and 5 (dword) have typed views; the others are kept raw. Negative
//! counts and lengths are rejected.

use crate::bytes::Cursor;
use crate::error::{Error, Result};
use crate::helpers::count_u32;

/// One item, every word raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarItem {
    /// Declared byte length of the value (raw).
    pub value_length: i32,
    /// Value type: 0 float(alt), 1 int, 2 bool, 3 float, 4 char*, 5 dword.
    pub value_type: i32,
    /// The word after the type (0 in every shipped member).
    pub reserved: u32,
    /// Name bytes.
    pub name: Vec<u8>,
    /// Second string (empty in every shipped member).
    pub string2: Vec<u8>,
    /// The value, its default, minimum and maximum (raw words, typed by `value_type`).
    pub values: [u32; 4],
}

/// A typed value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VarValue {
    /// Type 2.
    Bool(bool),
    /// Type 3.
    Float(f32),
    /// Type 5.
    Dword(u32),
    /// Other types: *opaque*.
    Opaque(i32, u32),
}

impl VarItem {
    /// The typed value.
    pub fn typed(&self) -> VarValue {
        let value = self.values[0];
        match self.value_type {
            2 => VarValue::Bool(value != 0),
            3 => VarValue::Float(f32::from_bits(value)),
            5 => VarValue::Dword(value),
            t => VarValue::Opaque(t, value),
        }
    }
}

impl VarValue {
    /// The value as a number (a bool as 0 or 1); `None` for an opaque one.
    pub fn number(self) -> Option<f64> {
        match self {
            Self::Bool(b) => Some(f64::from(u8::from(b))),
            Self::Float(f) => Some(f64::from(f)),
            Self::Dword(d) => Some(f64::from(d)),
            Self::Opaque(..) => None,
        }
    }
}

/// A binary variable set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VarBin {
    /// Items in order.
    pub items: Vec<VarItem>,
}

fn lp(c: &mut Cursor<'_>) -> Result<Vec<u8>> {
    let at = c.offset();
    let n = c.i32()?;
    let n = u32::try_from(n).map_err(|_| Error::invalid(at, "varbin_length", format!("negative length {n}")))?;
    let len = c.check_count(u64::from(n), 1, "string")?;
    Ok(c.take(len)?.to_vec())
}

impl VarBin {
    /// Parses; the data must end after the last item.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let n = c.i32()?;
        let n = u32::try_from(n).map_err(|_| Error::invalid(0, "varbin_count", format!("negative count {n}")))?;
        c.check_count(u64::from(n), 36, "items")?;
        let mut items = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let value_length = c.i32()?;
            let value_type = c.i32()?;
            let reserved = c.u32()?;
            let name = lp(&mut c)?;
            let string2 = lp(&mut c)?;
            let values = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
            items.push(VarItem { value_length, value_type, reserved, name, string2, values });
        }
        c.expect_end("binary variable set")?;
        Ok(Self { items })
    }

    /// The typed value of the variable named `name` (the first of that name).
    pub fn get(&self, name: &str) -> Option<VarValue> {
        self.items.iter().find(|i| i.name == name.as_bytes()).map(VarItem::typed)
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = count_u32(self.items.len(), "items")?.to_le_bytes().to_vec();
        for it in &self.items {
            out.extend_from_slice(&it.value_length.to_le_bytes());
            out.extend_from_slice(&it.value_type.to_le_bytes());
            out.extend_from_slice(&it.reserved.to_le_bytes());
            for s in [&it.name, &it.string2] {
                let n = i32::try_from(s.len()).map_err(|_| Error::invalid(0, "varbin_length", "string too long"))?;
                out.extend_from_slice(&n.to_le_bytes());
                out.extend_from_slice(s);
            }
            for w in it.values {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        Ok(out)
    }
}
