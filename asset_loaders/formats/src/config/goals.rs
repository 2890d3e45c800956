//! What a mission's scripts name in its object-block files (gameplay.md §13, after
//! dragonee/openparkan `docs/34-progression.md` and `docs/21-briefing.md`):
//!
//! * the objectives of `mission.cfg`: every parameter line of its `primary_objectives`
//!   blocks (exempt 0), then of its `bonus_objectives` blocks (exempt 1), in file order
//!   and **every line kept** (a repeated key is another objective); a script names an
//!   objective by its position in that combined list;
//! * the messages of `messages.cfg`: each block's `message_index` (an id, not a
//!   position: gaps are allowed), its `text_resource` (a `TextRes.cfg` key or the text),
//!   its `voice_resource` (a `voices.lib` entry) and, optionally, `info_system` (the
//!   *Information assistant*'s message, not the *Training assistant*'s).
//!
//! The original writes `key = value`; a value's leading `=` and its quotes are dropped
//! ([`value_text`]).

use super::block_cfg::BlockCfg;
use super::ini::parse_int;
use super::text::{decode, trim};

/// The `mission.cfg` block of the primary objectives.
pub const PRIMARY_OBJECTIVES: &str = "primary_objectives";
/// The `mission.cfg` block of the bonus objectives.
pub const BONUS_OBJECTIVES: &str = "bonus_objectives";
/// The `messages.cfg` key of a message's id.
pub const MESSAGE_INDEX: &str = "message_index";

/// One objective line of `mission.cfg`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectiveLine {
    /// Its key (`objective1`).
    pub key: String,
    /// Its value (a text or a `TextRes.cfg` key), CP1251 decoded.
    pub text: String,
    /// A bonus objective (exempt 1): it never holds the mission back.
    pub bonus: bool,
}

/// A parameter value without a leading `=` and surrounding quotes.
pub fn value_text(raw: &[u8]) -> &[u8] {
    let v = trim(raw);
    let v = trim(v.strip_prefix(b"=").unwrap_or(v));
    let v = v.strip_prefix(b"\"").unwrap_or(v);
    v.strip_suffix(b"\"").unwrap_or(v)
}

/// The objectives of a `mission.cfg`: primary lines, then bonus lines.
pub fn objectives(cfg: &BlockCfg) -> Vec<ObjectiveLine> {
    let lines = |name: &str, bonus: bool| {
        cfg.blocks()
            .filter(move |b| b.name().eq_ignore_ascii_case(name.as_bytes()))
            .flat_map(|b| b.params())
            .map(move |(k, v)| ObjectiveLine { key: decode(k), text: decode(value_text(v)), bonus })
            .collect::<Vec<_>>()
    };
    let mut all = lines(PRIMARY_OBJECTIVES, false);
    all.extend(lines(BONUS_OBJECTIVES, true));
    all
}

/// One message of `messages.cfg`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageLine {
    /// Its `message_index`.
    pub id: u32,
    /// Its `text_resource`, CP1251 decoded (empty without one).
    pub text: String,
    /// Its `voice_resource` (`None` without one).
    pub voice: Option<String>,
    /// It sets `info_system` (to anything but 0).
    pub info_system: bool,
}

/// The messages of a `messages.cfg`, in file order (a block without a readable id is
/// left out).
pub fn message_lines(cfg: &BlockCfg) -> Vec<MessageLine> {
    cfg.blocks()
        .filter_map(|b| {
            let id = u32::try_from(parse_int(value_text(b.param(MESSAGE_INDEX)?))?).ok()?;
            let text = |key: &str| b.param(key).map(|v| decode(value_text(v)));
            Some(MessageLine {
                id,
                text: text("text_resource").unwrap_or_default(),
                voice: text("voice_resource").filter(|v| !v.is_empty()),
                info_system: b.param("info_system").is_some_and(|v| parse_int(value_text(v)) != Some(0)),
            })
        })
        .collect()
}

/// The `message_index` ids of a `messages.cfg`, in file order (a block without a
/// readable id is left out).
pub fn message_ids(cfg: &BlockCfg) -> Vec<u32> {
    message_lines(cfg).into_iter().map(|m| m.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_has_its_id_text_and_voice_resources_and_its_info_system_flag() {
        let cfg = BlockCfg::parse(
            b"object m1\r\n  message_index = 3\r\n  text_resource = \"T01_M03\"\r\n  voice_resource = \"vc_t01_03\"\r\nend\r\n\
              object m2\r\n  message_index = 7\r\n  text_resource = T01_M07\r\n  info_system = 1\r\nend\r\n\
              object m3\r\n  text_resource = lost\r\nend\r\n",
        )
        .unwrap();
        let got = message_lines(&cfg);
        assert_eq!(got.len(), 2, "a block without an id is no message");
        assert_eq!(
            got[0],
            MessageLine { id: 3, text: "T01_M03".into(), voice: Some("vc_t01_03".into()), info_system: false }
        );
        assert_eq!((got[1].id, got[1].voice.as_deref(), got[1].info_system), (7, None, true));
    }

    #[test]
    fn objectives_keep_every_line_primary_first_and_values_lose_equals_and_quotes() {
        let cfg = BlockCfg::parse(
            b"object bonus_objectives\r\n  objective1 = \"Destroy the animals\"\r\nend\r\n\
              object primary_objectives\r\n  objective1 = \"Capture\"\r\n  objective4 = T04\r\n  objective4 = T04b\r\nend\r\n\
              object prebuild\r\n  model = x.dat\r\nend\r\n",
        )
        .unwrap();
        let got: Vec<_> = objectives(&cfg).into_iter().map(|o| (o.key, o.text, o.bonus)).collect();
        let want = [("objective1", "Capture", false), ("objective4", "T04", false), ("objective4", "T04b", false)];
        let mut want: Vec<_> = want.iter().map(|(k, t, b)| (k.to_string(), t.to_string(), *b)).collect();
        want.push(("objective1".into(), "Destroy the animals".into(), true));
        assert_eq!(got, want, "a repeated key is another objective; bonus lines come last");
    }

    #[test]
    fn message_ids_are_ids_with_gaps() {
        let cfg = BlockCfg::parse(
            b"object message1\r\n  message_index   = 0\r\n  text_resource = \"T01_T01\"\r\nend\r\n\
              object m2\r\n  message_index 14\r\nend\r\nobject m3\r\n  message_index = 100\r\nend\r\nobject m4\r\n  desc x\r\nend\r\n",
        )
        .unwrap();
        assert_eq!(message_ids(&cfg), [0, 14, 100]);
        assert_eq!(value_text(b" = \"a b\" "), b"a b");
    }
}
