//! Object-block configuration files (`mission.cfg`, `briefing.cfg`, `messages.cfg`,
//! `ui/*.cfg`; `docs/reference/runtime.md` §2.6, *confirmed grammar*):
//!
//! ```text
//! object <name>
//!     <param> <value>      ; desc, library, libtype, type and any others
//! end
//! ```
//!
//! A generic block parser: block order, unknown parameters, comments (`//`, `;`),
//! blank lines, indentation and line terminators are all kept; `to_bytes` reproduces
//! the input. Keywords match ASCII case-insensitively.

use super::text::{Line, decode, lines, trim};
use crate::error::{Error, Result};

/// One stored line: content and terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// Content without terminator.
    pub text: Vec<u8>,
    /// Terminator as stored.
    pub eol: Vec<u8>,
}

impl RawLine {
    fn from(l: &Line<'_>) -> Self {
        Self { text: l.content.to_vec(), eol: l.eol.to_vec() }
    }

    fn crlf(text: Vec<u8>) -> Self {
        Self { text, eol: b"\r\n".to_vec() }
    }

    /// First whitespace-separated token and the trimmed rest (`None` for blank or
    /// comment lines).
    pub fn key_value(&self) -> Option<(&[u8], &[u8])> {
        let t = trim(&self.text);
        if t.is_empty() || t.starts_with(b"//") || t.starts_with(b";") {
            return None;
        }
        let split = t.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(t.len());
        Some((&t[..split], trim(&t[split..])))
    }
}

/// One `object … end` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfgBlock {
    /// The `object <name>` line.
    pub header: RawLine,
    /// Parameter, comment and blank lines inside the block.
    pub body: Vec<RawLine>,
    /// The `end` line.
    pub end: RawLine,
}

impl CfgBlock {
    /// Block name (text after `object`).
    pub fn name(&self) -> &[u8] {
        self.header.key_value().map_or(&[][..], |(_, v)| v)
    }

    /// The first value of parameter `key` (case-insensitive).
    pub fn param(&self, key: &str) -> Option<&[u8]> {
        self.params().find(|(k, _)| k.eq_ignore_ascii_case(key.as_bytes())).map(|(_, v)| v)
    }

    /// Every parameter in order.
    pub fn params(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.body.iter().filter_map(RawLine::key_value)
    }

    /// `desc` text (CP1251 decoded).
    pub fn desc(&self) -> Option<String> {
        self.param("desc").map(decode)
    }

    /// `library` archive name.
    pub fn library(&self) -> Option<&[u8]> {
        self.param("library")
    }

    /// `libtype` library kind.
    pub fn libtype(&self) -> Option<&[u8]> {
        self.param("libtype")
    }

    /// `type` integer.
    pub fn type_id(&self) -> Option<i64> {
        self.param("type").and_then(super::ini::parse_int)
    }
}

/// A top-level item: a line outside blocks, or a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CfgItem {
    /// Blank, comment or other line outside any block.
    Line(RawLine),
    /// An object block.
    Block(CfgBlock),
}

/// A parsed object-block file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockCfg {
    /// Items in file order.
    pub items: Vec<CfgItem>,
}

fn keyword(l: &RawLine, word: &str) -> bool {
    l.key_value().is_some_and(|(k, _)| k.eq_ignore_ascii_case(word.as_bytes()))
}

impl BlockCfg {
    /// Parses. Errors: `object` inside a block, `end` outside one, a parameter line
    /// outside any block, a block without `end`.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut items = Vec::new();
        let mut open: Option<(CfgBlock, usize)> = None;
        for l in lines(data) {
            let raw = RawLine::from(&l);
            let at = l.offset as u64;
            if keyword(&raw, "object") {
                if let Some((b, _)) = &open {
                    return Err(Error::invalid(
                        at,
                        "cfg_nested_object",
                        format!("`object` inside block {}", decode(b.name())),
                    ));
                }
                open = Some((CfgBlock { header: raw, body: Vec::new(), end: RawLine::crlf(Vec::new()) }, l.offset));
            } else if keyword(&raw, "end") {
                match open.take() {
                    Some((mut b, _)) => {
                        b.end = raw;
                        items.push(CfgItem::Block(b));
                    }
                    None => return Err(Error::invalid(at, "cfg_stray_end", "`end` without `object`")),
                }
            } else if let Some((b, _)) = &mut open {
                b.body.push(raw);
            } else if raw.key_value().is_some() {
                return Err(Error::invalid(
                    at,
                    "cfg_outside_block",
                    format!("`{}` outside an object block", decode(&raw.text)),
                ));
            } else {
                items.push(CfgItem::Line(raw));
            }
        }
        if let Some((b, at)) = open {
            return Err(Error::invalid(
                at as u64,
                "cfg_unterminated",
                format!("block {} has no `end`", decode(b.name())),
            ));
        }
        Ok(Self { items })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut put = |l: &RawLine| {
            out.extend_from_slice(&l.text);
            out.extend_from_slice(&l.eol);
        };
        for item in &self.items {
            match item {
                CfgItem::Line(l) => put(l),
                CfgItem::Block(b) => {
                    put(&b.header);
                    b.body.iter().for_each(&mut put);
                    put(&b.end);
                }
            }
        }
        out
    }

    /// Blocks in order.
    pub fn blocks(&self) -> impl Iterator<Item = &CfgBlock> {
        self.items.iter().filter_map(|i| match i {
            CfgItem::Block(b) => Some(b),
            CfgItem::Line(_) => None,
        })
    }

    /// The first block named `name` (case-insensitive).
    pub fn block(&self, name: &str) -> Option<&CfgBlock> {
        self.blocks().find(|b| b.name().eq_ignore_ascii_case(name.as_bytes()))
    }

    /// Authoring: appends `object <name>`, one indented `<key> <value>` line per
    /// parameter, and `end`, all with CRLF. A parameter named `object` or `end` (any
    /// case) is refused: it would read back as a block's edge.
    pub fn push_block(&mut self, name: &str, params: &[(&str, &str)]) -> Result<()> {
        let bad = |s: &str| s.is_empty() || s.bytes().any(|b| b == b'\r' || b == b'\n');
        if bad(name) || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(Error::invalid(0, "cfg_name", format!("block name {name:?}")));
        }
        let mut body = Vec::with_capacity(params.len());
        for (k, v) in params {
            let edge = ["object", "end"].iter().any(|w| k.eq_ignore_ascii_case(w));
            if bad(k)
                || edge
                || k.bytes().any(|b| b.is_ascii_whitespace())
                || v.bytes().any(|b| b == b'\r' || b == b'\n')
            {
                return Err(Error::invalid(0, "cfg_param", format!("parameter {k:?} = {v:?}")));
            }
            let (enc, _, _) = encoding_rs::WINDOWS_1251.encode(v);
            let mut text = format!("    {k} ").into_bytes();
            text.extend_from_slice(&enc);
            body.push(RawLine::crlf(text));
        }
        if let Some(CfgItem::Line(l) | CfgItem::Block(CfgBlock { end: l, .. })) = self.items.last_mut()
            && l.eol.is_empty()
        {
            l.eol = b"\r\n".to_vec();
        }
        let header = RawLine::crlf(format!("object {name}").into_bytes());
        self.items.push(CfgItem::Block(CfgBlock { header, body, end: RawLine::crlf(b"end".to_vec()) }));
        Ok(())
    }
}
