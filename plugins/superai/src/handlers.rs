//! The handler table (`docs/reference/runtime.md` §3.2, §3.3): its size, Handler(15)'s modes and
//! the references a record of each analysed handler takes, checked when a package loads
//! and again before a record runs.

use crate::variables::{Variable, kind};

/// Handler-table size the VM implements (the GOG table; `docs/reference/runtime.md` §3.2).
pub const HANDLER_COUNT: u32 = 73;
/// Handler(15) modes (names from the shipped `varset.var`, `docs/reference/runtime.md` §3.3.3).
pub mod mode {
    /// `NONE`.
    pub const NONE: u32 = 0;
    /// `TARGET_BY_LOGIC_ID`.
    pub const BY_LOGIC_ID: u32 = 0x0201;
    /// `TARGET_BY_PLACE`.
    pub const BY_PLACE: u32 = 0x0202;
    /// `TARGET_BY_TYPE`.
    pub const BY_TYPE: u32 = 0x0203;
    /// `TARGET_NOT_DEFINED`.
    pub const NOT_DEFINED: u32 = 0x0204;
    /// `TARGET_BY_NAME`.
    pub const BY_NAME: u32 = 0x0205;
}

fn in_range(refs: &[u32], vars: &[Variable]) -> Result<(), String> {
    match refs.iter().position(|r| *r as usize >= vars.len()) {
        Some(i) => Err(format!("reference {i} = {} out of range ({} variables)", refs[i], vars.len())),
        None => Ok(()),
    }
}

fn need_kind(
    refs: &[u32],
    vars: &[Variable],
    range: std::ops::Range<usize>,
    want: u8,
    what: &str,
) -> Result<(), String> {
    for i in range {
        let v = &vars[refs[i] as usize];
        if v.kind != want {
            return Err(format!("reference {i} ({}) is kind {}, {what} needed", v.name, v.kind));
        }
    }
    Ok(())
}

/// References a Handler(15) record needs for `mode`.
pub fn target_refs(mode: u32) -> Option<usize> {
    match mode {
        mode::NONE => Some(9),
        mode::BY_LOGIC_ID | mode::BY_TYPE | mode::NOT_DEFINED | mode::BY_NAME => Some(10),
        mode::BY_PLACE => Some(11),
        _ => None,
    }
}

/// Checks the references of a record of handler `h` against the variables (count,
/// range, declaration kinds). Handlers whose inputs are not analysed pass.
///
/// # Errors
/// What is wrong, naming the reference.
pub fn check_shape(h: u32, refs: &[u32], vars: &[Variable]) -> Result<(), String> {
    let count = |n: usize| {
        if refs.len() == n {
            Ok(())
        } else {
            Err(format!("Handler({h}) takes {n} references, the record has {}", refs.len()))
        }
    };
    match h {
        1 => {
            if refs.is_empty() {
                return Err("Handler(1) needs a reference".into());
            }
            in_range(&refs[..1], vars)
        }
        2 => {
            count(7)?;
            in_range(refs, vars)
        }
        // Handler(8): one DWORD state; Handler(30): two DWORD callback arguments.
        8 | 30 => {
            count(if h == 8 { 1 } else { 2 })?;
            in_range(refs, vars)?;
            need_kind(refs, vars, 0..refs.len(), kind::DWORD, "DWORD")
        }
        15 => {
            if refs.len() < 9 {
                return Err(format!("Handler(15) takes at least 9 references, the record has {}", refs.len()));
            }
            in_range(refs, vars)?;
            need_kind(refs, vars, 0..4, kind::DWORD, "DWORD")?;
            need_kind(refs, vars, 4..8, kind::FLOAT, "float")?;
            need_kind(refs, vars, 8..refs.len(), kind::DWORD, "DWORD")?;
            let m = vars[refs[8] as usize].word;
            match target_refs(m) {
                Some(n) if n == refs.len() => Ok(()),
                Some(n) => Err(format!("Handler(15) mode {m:#x} takes {n} references, the record has {}", refs.len())),
                None => Err(format!("Handler(15) mode {m:#x} is not a known mode")),
            }
        }
        19 => {
            count(3)?;
            in_range(refs, vars)
        }
        57 => in_range(refs, vars),
        _ => Ok(()),
    }
}
