//! The VM's variables (`docs/reference/runtime.md` §3.8): declarations with their kind and current
//! word, made from a package's variable table and read by the handlers.

/// Declaration kinds of the VM (`docs/reference/runtime.md` §3.8).
pub mod kind {
    /// Opaque conversion.
    pub const OPAQUE: u8 = 0;
    /// Signed integer.
    pub const INT: u8 = 1;
    /// Boolean.
    pub const BOOL: u8 = 2;
    /// Float.
    pub const FLOAT: u8 = 3;
    /// String (`char*`): opaque conversion.
    pub const STRING: u8 = 4;
    /// DWORD / unsigned.
    pub const DWORD: u8 = 5;
}

/// One VM variable: a declaration of the table and its current 32-bit word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Declared name (raw bytes decoded lossily; compared case-sensitively).
    pub name: String,
    /// Declaration kind (§3.8): `float` is 3, `DWORD` 5, a counted `STRING(...)` 4.
    pub kind: u8,
    /// Current raw word (a float keeps its IEEE bits).
    pub word: u32,
}
