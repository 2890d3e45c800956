//! The VM's variables (gameplay.md §2.3, `docs/reference/runtime.md` §3.8): declarations with
//! their type tag and current 32-bit word, made from a package's variable table, and the
//! interpreter's getters and setters (dragonee/openparkan `docs/15-behaviour.md`, "How
//! a handler runs"): a function fetches each argument as a `DWORD` or as a float, and a
//! result or a formula is stored through the float setter when the destination is a
//! float and through the `DWORD` setter otherwise.

/// Type tags of the interpreter's table (`0x10037688`).
pub mod kind {
    /// `void`: no number.
    pub const OPAQUE: u8 = 0;
    /// `int`.
    pub const INT: u8 = 1;
    /// `BOOL`.
    pub const BOOL: u8 = 2;
    /// `float`.
    pub const FLOAT: u8 = 3;
    /// `char*` (a `STRING(...)` declaration): no number.
    pub const STRING: u8 = 4;
    /// `DWORD` (unsigned).
    pub const DWORD: u8 = 5;
}

/// One VM variable: a declaration of the table and its current 32-bit word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Declared name (raw bytes decoded lossily; compared case-sensitively).
    pub name: String,
    /// Type tag: `float` is 3, `DWORD` 5, a counted `STRING(...)` 4.
    pub kind: u8,
    /// Current raw word (a float keeps its IEEE bits).
    pub word: u32,
}

/// The x87 `__ftol` of the original (truncation toward zero, the low 32 bits of the
/// 64-bit integer); a value with no integer (NaN, infinite, out of range) gives the
/// integer indefinite's low word, 0.
pub fn ftol(v: f64) -> u32 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    if v.is_finite() && v.abs() < LIMIT { v as i64 as u32 } else { 0 }
}

impl Variable {
    /// The `DWORD` getter: a float is truncated, an `int`, `BOOL` or `DWORD` gives its word.
    ///
    /// # Errors
    /// The variable holds no number (`void`, `char*`).
    pub fn dword(&self) -> Result<u32, String> {
        match self.kind {
            kind::FLOAT => Ok(ftol(f64::from(f32::from_bits(self.word)))),
            kind::INT | kind::BOOL | kind::DWORD => Ok(self.word),
            _ => Err(self.no_number()),
        }
    }

    /// The float getter: a float's value, a `DWORD` zero-extended, an `int` signed, a
    /// `BOOL` 0 or 1.
    ///
    /// # Errors
    /// The variable holds no number.
    pub fn float(&self) -> Result<f64, String> {
        match self.kind {
            kind::FLOAT => Ok(f64::from(f32::from_bits(self.word))),
            kind::DWORD => Ok(f64::from(self.word)),
            kind::INT => Ok(f64::from(self.word as i32)),
            kind::BOOL => Ok(f64::from(u8::from(self.word != 0))),
            _ => Err(self.no_number()),
        }
    }

    /// The float setter: a float destination keeps the value (rounded to `f32`), any
    /// other is truncated ([`ftol`]).
    ///
    /// # Errors
    /// The variable holds no number.
    pub fn set_float(&mut self, v: f64) -> Result<(), String> {
        self.word = match self.kind {
            kind::FLOAT => (v as f32).to_bits(),
            kind::INT | kind::BOOL | kind::DWORD => ftol(v),
            _ => return Err(self.no_number()),
        };
        Ok(())
    }

    /// Stores a function's result slot: the float setter of its bits for a float
    /// destination, the `DWORD` setter otherwise — either way the word itself.
    ///
    /// # Errors
    /// The variable holds no number.
    pub fn set_word(&mut self, w: u32) -> Result<(), String> {
        match self.kind {
            kind::FLOAT | kind::INT | kind::BOOL | kind::DWORD => {
                self.word = w;
                Ok(())
            }
            _ => Err(self.no_number()),
        }
    }

    fn no_number(&self) -> String {
        format!("variable {} has type tag {} (no number)", self.name, self.kind)
    }
}
