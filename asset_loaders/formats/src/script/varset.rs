//! Variable tables (`varset.var`, `<bundle>.var`; `docs/reference/runtime.md` §3.8–3.9) —
//! *confirmed grammar*: one declaration per line, `//` comments, blank lines.
//!
//! ```text
//! VAR(<type>, <name>, <default>)   type: float | DWORD; default: decimal, 0x hex, float;
//!                                  optionally followed by `;`
//! STRING(...) / FUNCTION(...)      kept as raw lines
//! ```
//!
//! Every line is kept with its terminator; comments may hold non-UTF-8 bytes.
//! The declaration index (the `.scr` reference number) counts declarations in file
//! order. Whether `STRING(...)` lines take an index is not settled by the spec (the
//! shared table has none): [`StringIndexing`] selects the reading.

use crate::config::text::{decode, lines, strip_comment, trim};
use crate::error::{Error, Result};

/// Declared type of a `VAR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarType {
    /// `float` (declaration kind 3).
    Float,
    /// `DWORD` (declaration kind 5).
    Dword,
}

/// A parsed default value, raw text kept alongside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VarDefault {
    /// Decimal integer.
    Int(i64),
    /// `0x` hexadecimal.
    Hex(u64),
    /// Decimal float.
    Float(f64),
}

/// One `VAR(...)` declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// Type.
    pub ty: VarType,
    /// Name bytes.
    pub name: Vec<u8>,
    /// Default text as written.
    pub default_raw: Vec<u8>,
    /// Parsed default.
    pub default: VarDefault,
}

impl VarDecl {
    /// The initial 32-bit word of the variable: a DWORD keeps the integer's low 32 bits
    /// (a float default truncates); a float stores IEEE bits.
    pub fn initial_word(&self) -> u32 {
        match (self.ty, self.default) {
            (VarType::Dword, VarDefault::Int(v)) => v as u32,
            (VarType::Dword, VarDefault::Hex(v)) => v as u32,
            (VarType::Dword, VarDefault::Float(v)) => v as i64 as u32,
            (VarType::Float, VarDefault::Int(v)) => (v as f32).to_bits(),
            (VarType::Float, VarDefault::Hex(v)) => (v as f32).to_bits(),
            (VarType::Float, VarDefault::Float(v)) => (v as f32).to_bits(),
        }
    }
}

/// What a line holds.
#[derive(Debug, Clone, PartialEq)]
pub enum VarLine {
    /// Blank or comment-only.
    Blank,
    /// A numeric declaration.
    Var(VarDecl),
    /// A `STRING(...)` line (raw).
    String,
    /// A `FUNCTION(...)` line (raw, never indexed).
    Function,
}

/// Whether `STRING(...)` declarations occupy an index — unresolved by the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StringIndexing {
    /// The parser "appends every recognised declaration" (default reading).
    #[default]
    Counted,
    /// Only `VAR` lines form the index space (the numeric reader ignores `STRING`).
    Skipped,
}

/// A stored line with its classification.
#[derive(Debug, Clone, PartialEq)]
pub struct VarsetLine {
    /// Content without terminator.
    pub text: Vec<u8>,
    /// Terminator as stored.
    pub eol: Vec<u8>,
    /// Classification.
    pub kind: VarLine,
}

/// A variable table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Varset {
    /// Lines in file order.
    pub lines: Vec<VarsetLine>,
}

fn parse_default(raw: &[u8]) -> Option<VarDefault> {
    let s = std::str::from_utf8(raw).ok()?;
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok().map(VarDefault::Hex);
    }
    if let Ok(v) = s.parse::<i64>() {
        return Some(VarDefault::Int(v));
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite()).map(VarDefault::Float)
}

fn call_args<'a>(code: &'a [u8], head: &str) -> Option<&'a [u8]> {
    let code = trim(code);
    if code.len() < head.len() + 2 || !code[..head.len()].eq_ignore_ascii_case(head.as_bytes()) {
        return None;
    }
    let rest = trim(&code[head.len()..]);
    rest.strip_prefix(b"(")?.strip_suffix(b")")
}

fn classify(text: &[u8], at: u64) -> Result<VarLine> {
    let code = trim(strip_comment(text));
    // The shipped table ends eleven declarations with a stray `;` (gameplay.md §2.3).
    let code = code.strip_suffix(b";").map_or(code, trim);
    if code.is_empty() {
        return Ok(VarLine::Blank);
    }
    if call_args(code, "STRING").is_some() {
        return Ok(VarLine::String);
    }
    if call_args(code, "FUNCTION").is_some() {
        return Ok(VarLine::Function);
    }
    let bad = |why: &str| Error::invalid(at, "varset_syntax", format!("{why}: {}", decode(code)));
    let args = call_args(code, "VAR").ok_or_else(|| bad("not a declaration"))?;
    let parts: Vec<&[u8]> = args.split(|&b| b == b',').map(trim).collect();
    let [ty, name, default] = parts.as_slice() else { return Err(bad("VAR needs three arguments")) };
    let ty = if ty.eq_ignore_ascii_case(b"float") {
        VarType::Float
    } else if ty.eq_ignore_ascii_case(b"DWORD") {
        VarType::Dword
    } else {
        return Err(bad("type must be float or DWORD"));
    };
    if name.is_empty() || name.iter().any(|b| b.is_ascii_whitespace()) {
        return Err(bad("bad name"));
    }
    let parsed = parse_default(default).ok_or_else(|| bad("bad default"))?;
    Ok(VarLine::Var(VarDecl { ty, name: name.to_vec(), default_raw: default.to_vec(), default: parsed }))
}

impl Varset {
    /// Parses; a line that is neither blank, comment, `VAR`, `STRING` nor `FUNCTION` is
    /// a located syntax error.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut out = Vec::new();
        for l in lines(data) {
            let kind = classify(l.content, l.offset as u64)?;
            out.push(VarsetLine { text: l.content.to_vec(), eol: l.eol.to_vec(), kind });
        }
        Ok(Self { lines: out })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::config::text::join(self.lines.iter().map(|l| (l.text.as_slice(), l.eol.as_slice())))
    }

    /// The index space: `(index, line, declaration)`; `STRING` entries appear as `None`
    /// declarations when counted.
    pub fn declarations(&self, strings: StringIndexing) -> Vec<(usize, Option<&VarDecl>)> {
        let mut out = Vec::new();
        for (i, l) in self.lines.iter().enumerate() {
            match &l.kind {
                VarLine::Var(d) => out.push((i, Some(d))),
                VarLine::String if strings == StringIndexing::Counted => out.push((i, None)),
                _ => {}
            }
        }
        out
    }

    /// The declaration with reference number `index`.
    pub fn get(&self, index: usize, strings: StringIndexing) -> Option<&VarDecl> {
        self.declarations(strings).get(index).and_then(|(_, d)| *d)
    }

    /// The index of the first `VAR` named `name` (case-sensitive bytes).
    pub fn index_of(&self, name: &str, strings: StringIndexing) -> Option<usize> {
        self.declarations(strings).iter().position(|(_, d)| d.is_some_and(|d| d.name == name.as_bytes()))
    }

    /// Authoring: appends `VAR(<type>, <name>, <default>)` + CRLF.
    pub fn push_var(&mut self, ty: VarType, name: &str, default: &str) -> Result<usize> {
        let t = match ty {
            VarType::Float => "float",
            VarType::Dword => "DWORD",
        };
        let text = format!("VAR({t}, {name}, {default})").into_bytes();
        let kind = classify(&text, 0)?;
        if let Some(last) = self.lines.last_mut()
            && last.eol.is_empty()
        {
            last.eol = b"\r\n".to_vec();
        }
        self.lines.push(VarsetLine { text, eol: b"\r\n".to_vec(), kind });
        Ok(self.declarations(StringIndexing::Counted).len() - 1)
    }
}
