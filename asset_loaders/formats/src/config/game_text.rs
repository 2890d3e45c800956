//! The game's text files (`docs/reference/world.md` §5.1, `docs/reference/runtime.md` §2.6): the string table
//! `DATA/TextRes.cfg`, a mission's `briefing.cfg` and `messages.cfg`, and its loading
//! tips `mistips.mis`. All text is CP1251.
//!
//! How they are read (the spec confirms the object-block grammar and that
//! `TextRes.cfg` "maps keys to localised strings"; the field roles below are the
//! project's reading, *inferred*):
//! * `TextRes.cfg` is an object-block file ([`BlockCfg`]): each block is one entry,
//!   its name the key and its `desc` the text. Block order and unknown parameters are
//!   kept; the first block of a key wins (keys match ASCII case-insensitively).
//! * `briefing.cfg` and `messages.cfg` are object-block files too: a block's `desc` is
//!   its text, or a `TextRes.cfg` key standing for its text ([`TextRes::resolve`]).
//! * `mistips.mis` holds one tip per line; blank lines and `//` comments are skipped
//!   (its layout is *opaque*: this is the project's reading).

use super::block_cfg::{BlockCfg, CfgBlock};
use super::text::{decode, lines, trim};
use crate::error::{Error, Result};

/// `DATA/TextRes.cfg`: text keys and their strings, over the lossless block file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextRes {
    /// The file as read (order, unknown parameters and comments kept).
    pub cfg: BlockCfg,
}

impl TextRes {
    /// Parses `TextRes.cfg`.
    ///
    /// # Errors
    /// The object-block grammar is broken (see [`BlockCfg::parse`]).
    pub fn parse(data: &[u8]) -> Result<Self> {
        BlockCfg::parse(data).map(|cfg| Self { cfg })
    }

    /// The text of `key` (its block's `desc`, CP1251 decoded); the first block wins.
    pub fn get(&self, key: &str) -> Option<String> {
        self.cfg.block(key).and_then(CfgBlock::desc)
    }

    /// `text` itself, or the string it names when it is a key of this table.
    pub fn resolve(&self, text: &str) -> String {
        self.get(text.trim()).unwrap_or_else(|| text.to_string())
    }

    /// Every entry in file order: key and text (empty without `desc`).
    pub fn entries(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.cfg.blocks().map(|b| (decode(b.name()), b.desc().unwrap_or_default()))
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.cfg.to_bytes()
    }
}

/// The texts of an object-block file (`briefing.cfg`, `messages.cfg`): each block's
/// name and its `desc` resolved through `table`, in file order.
pub fn block_texts(cfg: &BlockCfg, table: &TextRes) -> Vec<(String, String)> {
    cfg.blocks().map(|b| (decode(b.name()), table.resolve(&b.desc().unwrap_or_default()))).collect()
}

/// The tips of a `mistips.mis`, one per non-blank, non-comment line, in file order.
pub fn tips(data: &[u8]) -> Vec<String> {
    lines(data).iter().map(|l| trim(l.content)).filter(|t| !t.is_empty() && !t.starts_with(b"//")).map(decode).collect()
}

/// Authoring: a `mistips.mis` of a `// comment` line and `tips`, one CP1251 line each
/// (CRLF).
///
/// # Errors
/// The comment or a tip holds a line break.
pub fn tips_file(comment: &str, tips: &[&str]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for line in std::iter::once(format!("// {comment}").as_str()).chain(tips.iter().copied()) {
        if line.contains(['\r', '\n']) {
            return Err(Error::rule("tips_line_break", format!("{line:?}")));
        }
        out.extend_from_slice(&encoding_rs::WINDOWS_1251.encode(line).0);
        out.extend_from_slice(b"\r\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Миссия" / "Цель" in CP1251, an unknown parameter and a comment.
    const TABLE: &[u8] = b"// text\r\nobject MIS_TITLE\r\n    desc \xcc\xe8\xf1\xf1\xe8\xff\r\n    voice v1.wav\r\nend\r\nobject GOAL\r\n    desc \xd6\xe5\xeb\xfc\r\nend\r\nobject mis_title\r\n    desc second\r\nend\r\n";

    #[test]
    fn text_res_looks_keys_up_and_keeps_the_file() {
        let t = TextRes::parse(TABLE).unwrap();
        assert_eq!(t.to_bytes(), TABLE, "order, comments and unknown fields are kept");
        assert_eq!(t.get("mis_title").as_deref(), Some("Миссия"), "case-insensitive, first block wins");
        assert_eq!(t.get("GOAL").as_deref(), Some("Цель"));
        assert_eq!(t.get("NONE"), None);
        assert_eq!(t.cfg.block("MIS_TITLE").unwrap().param("voice"), Some(&b"v1.wav"[..]));
        assert_eq!(t.resolve(" GOAL "), "Цель");
        assert_eq!(t.resolve("plain text"), "plain text");
        let keys: Vec<_> = t.entries().map(|(k, _)| k).collect();
        assert_eq!(keys, ["MIS_TITLE", "GOAL", "mis_title"]);
    }

    #[test]
    fn briefing_blocks_resolve_keys_in_order() {
        let table = TextRes::parse(TABLE).unwrap();
        let cfg = BlockCfg::parse(b"object b2\r\n desc GOAL\r\nend\r\nobject b1\r\n desc \xc2\xef\xe5\xf0\xe5\xe4\r\nend\r\nobject b0\r\nend\r\n")
            .unwrap();
        let texts = block_texts(&cfg, &table);
        let expect = [("b2", "Цель"), ("b1", "Вперед"), ("b0", "")];
        assert_eq!(texts, expect.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn tips_are_lines_without_blanks_and_comments() {
        assert_eq!(tips(b"// tips\r\n\xd1\xee\xe2\xe5\xf2 1\r\n\r\n  second  \nlast"), ["Совет 1", "second", "last"]);
        assert!(tips(b"").is_empty());
        let file = tips_file("tips", &["Совет 1", "two"]).unwrap();
        assert_eq!(file, b"// tips\r\n\xd1\xee\xe2\xe5\xf2 1\r\ntwo\r\n");
        assert_eq!(tips(&file), ["Совет 1", "two"]);
        assert!(tips_file("x", &["a\nb"]).is_err());
    }

    #[test]
    fn a_malformed_table_is_a_located_error() {
        let e = TextRes::parse(b"object A\r\n desc a\r\nend\r\nobject B\r\n desc b\r\n")
            .unwrap_err()
            .in_file("DATA/TextRes.cfg");
        let text = e.to_string();
        assert!(text.contains("DATA/TextRes.cfg") && text.contains("cfg_unterminated"), "{text}");
        assert_eq!(e.offset, Some(24), "the offset of the unterminated block");
    }
}
