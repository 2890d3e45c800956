//! The game's text (`docs/reference/world.md` §5.1, `docs/reference/runtime.md` §2.6): for each mission folder a
//! `briefing.cfg`, a `messages.cfg` and a `mistips.mis`, and one string table
//! `DATA/TextRes.cfg` holding the keys they name. The original's text is Russian, so
//! the table and the tips are Russian in CP1251; a briefing also has one line of the
//! project's own (English, plain text, not a key).
//!
//! Layouts (the project's reading, see `iron3d_formats::config::game_text`): the table
//! and the two `.cfg` files are object blocks whose `desc` is a text or a table key;
//! `mistips.mis` holds one tip per line. Keys are the mission folder below `MISSIONS`
//! in capitals with `.` and `/` as `_`, then the text's role (`TUTORIAL_01_BRIEF_1`).
//! `messages.cfg` blocks are the original's (openparkan `docs/34-progression.md`): a
//! `message_index` id, a `text_resource` table key, a `voice_resource` entry of
//! `voices.lib` and, on the reinforcement's, `info_system`; the demo's player script
//! raises each through function 30 `MESSAGE_INFO` ([`MESSAGES`]). The mission's
//! objectives ([`objective_keys`]) are table keys too.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::config::{BlockCfg, tips_file};

/// The string table's path.
pub const TEXT_RES: &str = "DATA/TextRes.cfg";

/// Per mission (role, Russian text) of the table.
const TABLE: [(&str, &str); 7] = [
    ("BRIEF_1", "Командир, разведка нашла на этой планете месторождение руды."),
    ("BRIEF_2", "Задача: наладить добычу руды, защитить базу и уничтожить роботов противника."),
    ("MSG_START", "Миссия началась. Удачи, командир!"),
    ("MSG_ATTACK", "Разведка: противник готовит атаку."),
    ("MSG_REINFORCE", "Прибыло подкрепление."),
    ("OBJ_ENEMY", "Уничтожить всех роботов противника."),
    ("OBJ_HOLD", "Продержаться до прибытия подкрепления."),
];

/// The `message_index` of the reinforcement message, which the demo's player script
/// raises (function 30, `MESSAGE_INFO`) once its timer passed.
pub const MESSAGE_REINFORCE: u32 = 2;

/// The messages: block name, `message_index`, table role, `voice_resource`, whether it is
/// the Information assistant's (`info_system`). The script raises the start's from
/// `Init`, the attack's when the bonus objective's time came, the reinforcement's at its
/// timer.
pub const MESSAGES: [(&str, u32, &str, &str, bool); 3] = [
    ("start", 0, "MSG_START", "VC_MSG_0", false),
    ("attack", 1, "MSG_ATTACK", "VC_MSG_1", false),
    ("reinforce", MESSAGE_REINFORCE, "MSG_REINFORCE", "VC_MSG_2", true),
];

/// The objectives of mission folder `folder` as `mission.cfg` lists them: the primary
/// one (destroy the enemy's robots, objective 0), then the bonus one (hold out until the
/// reinforcements, objective 1); each a table key and whether it is a bonus.
pub fn objective_keys(folder: &str) -> [(String, bool); 2] {
    let prefix = key_prefix(folder);
    [(format!("{prefix}_OBJ_ENEMY"), false), (format!("{prefix}_OBJ_HOLD"), true)]
}

/// The loading tips (Russian).
const TIPS: [&str; 3] = [
    "Транспортные роботы возят руду из шахты на склад.",
    "Клавиша P: пилотировать выбранного робота.",
    "Esc: пауза и настройки.",
];

/// The key prefix of a mission folder (`MISSIONS/tutorial.01` -> `TUTORIAL_01`).
pub fn key_prefix(folder: &str) -> String {
    let below = folder.strip_prefix("MISSIONS/").unwrap_or(folder);
    below.chars().map(|c| if c == '.' || c == '/' { '_' } else { c.to_ascii_uppercase() }).collect()
}

/// Collects the table entries while mission texts are written; [`Texts::finish`]
/// writes the table.
#[derive(Debug, Default)]
pub struct Texts {
    table: BlockCfg,
}

impl Texts {
    /// Writes `briefing.cfg`, `messages.cfg` and `mistips.mis` into mission folder
    /// `folder` (e.g. `MISSIONS/tutorial.01`) and records their keys.
    ///
    /// # Errors
    /// A file already exists, or a text cannot be written as a block parameter.
    pub fn mission(&mut self, tree: &mut DemoTree, folder: &str) -> Result<()> {
        let prefix = key_prefix(folder);
        let key = |role: &str| format!("{prefix}_{role}");
        for (role, text) in TABLE {
            self.table.push_block(&key(role), &[("desc", text)])?;
        }
        let mut briefing = header(folder, "briefing.cfg")?;
        briefing.push_block("intro", &[("desc", &key("BRIEF_1"))])?;
        briefing.push_block("goal", &[("desc", &key("BRIEF_2"))])?;
        let note = format!("iron3d demo: {folder} is generated; its robots and bases are the project's own.");
        briefing.push_block("note", &[("desc", &note)])?;
        tree.add(&format!("{folder}/briefing.cfg"), briefing.to_bytes())?;
        let mut messages = header(folder, "messages.cfg")?;
        for (name, id, role, voice, info) in MESSAGES {
            let (id, text, voice) = (format!("= {id}"), format!("= \"{}\"", key(role)), format!("= \"{voice}\""));
            let mut params = vec![("message_index", id.as_str()), ("text_resource", &text), ("voice_resource", &voice)];
            if info {
                params.push(("info_system", "= 1"));
            }
            messages.push_block(name, &params)?;
        }
        tree.add(&format!("{folder}/messages.cfg"), messages.to_bytes())?;
        let tips = tips_file(&format!("mistips.mis of {folder} (iron3d demo)"), &TIPS)?;
        tree.add(&format!("{folder}/mistips.mis"), tips)
    }

    /// Writes `DATA/TextRes.cfg` with every recorded key.
    ///
    /// # Errors
    /// The table already exists.
    pub fn finish(self, tree: &mut DemoTree) -> Result<()> {
        let mut table = header("DATA", "TextRes.cfg")?;
        table.items.extend(self.table.items);
        tree.add(TEXT_RES, table.to_bytes())
    }
}

fn header(folder: &str, name: &str) -> Result<BlockCfg> {
    BlockCfg::parse(format!("// {name} of {folder} (iron3d demo)\r\n").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::missions::MISSIONS;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::config::{TextRes, block_texts, tips};

    #[test]
    fn every_mission_has_texts_whose_keys_are_in_the_table() {
        let tree = build(DEFAULT_SEED).unwrap();
        let bytes = tree.get(TEXT_RES).unwrap();
        let table = TextRes::parse(bytes).unwrap();
        assert_eq!(table.to_bytes(), bytes);
        assert!(bytes.iter().any(|&b| b >= 0xC0), "Russian text in CP1251");
        for spec in MISSIONS {
            let dir = spec.folder();
            let briefing = BlockCfg::parse(tree.get(&format!("{dir}/briefing.cfg")).unwrap()).unwrap();
            let texts = block_texts(&briefing, &table);
            assert_eq!(texts.len(), 3, "{dir}");
            assert_eq!(texts[1].1, TABLE[1].1, "{dir}: a key shows its table text");
            assert!(texts[2].1.starts_with("iron3d demo"), "{dir}: the project's own line");
            let messages = BlockCfg::parse(tree.get(&format!("{dir}/messages.cfg")).unwrap()).unwrap();
            let lines = iron3d_formats::config::goals::message_lines(&messages);
            assert_eq!(table.resolve(&lines[0].text), "Миссия началась. Удачи, командир!", "{dir}");
            let ids: Vec<(u32, bool)> = lines.iter().map(|m| (m.id, m.info_system)).collect();
            assert_eq!(ids, [(0, false), (1, false), (MESSAGE_REINFORCE, true)]);
            for m in &lines {
                let voice = m.voice.as_deref().unwrap();
                assert!(crate::sounds::VOICES.iter().any(|v| v.0 == voice), "{dir}: {voice} is in voices.lib");
            }
            for (key, _) in objective_keys(&dir) {
                assert!(table.get(&key).is_some(), "{dir}: objective {key} is in the table");
            }
            assert_eq!(tips(tree.get(&format!("{dir}/mistips.mis")).unwrap()), TIPS);
        }
        assert_eq!(key_prefix("MISSIONS/campaign/campaign.01/mission.01"), "CAMPAIGN_CAMPAIGN_01_MISSION_01");
    }
}
