//! The game's own text from the game data (`docs/reference/world.md` §5.1, `docs/reference/runtime.md` §2.6):
//! the string table `DATA/TextRes.cfg` (read once at start-up), and a mission's
//! `messages.cfg` and `mistips.mis` (read when it starts loading). All of it is CP1251
//! (decoded by `iron3d_formats::config::game_text`). A malformed or missing file is a
//! warning in the log naming the file (and the byte offset of a grammar error) and an
//! empty text; it never fails the mission.
//!
//! What raises a message is opaque in the original; **the project's rule**: a
//! `messages.cfg` block of `type 0` is raised when the mission starts, a block with a
//! `time <seconds>` parameter when the mission clock passes that time; other blocks
//! are kept and never raised.

use crate::hud::HudState;
use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_core::{AppState, GameClock, Pause, TICK_MS};
use iron3d_formats::config::{BlockCfg, TextRes, block_texts, tips};
use iron3d_mission::MissionRequest;
use iron3d_vfs::GameDir;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_table)
        .add_systems(OnEnter(AppState::Loading), load_mission)
        .add_systems(Update, raise.run_if(in_state(Pause::Running).and_then(resource_exists::<MissionText>)));
}

/// The string table's path in the game directory.
pub const TEXT_RES: &str = "DATA/TextRes.cfg";

/// The folder of mission `mission` in the game directory (the catalogue's reading of
/// its name; a name that is none has no folder, so no text).
pub fn mission_folder(mission: &str) -> String {
    iron3d_mission::MissionName::parse(mission).map(|n| n.folder().to_string()).unwrap_or_default()
}

/// The bytes of `path`: `None` without the file (a warning unless `optional`) or when
/// it cannot be read (a warning).
pub fn read(game: &GameDir, path: &str, optional: bool) -> Option<std::sync::Arc<[u8]>> {
    if game.resolve(path).is_none() {
        if !optional {
            warn!("{path}: missing; its text is empty");
        }
        return None;
    }
    game.read(path).map_err(|e| warn!("{path}: {e}; its text is empty")).ok()
}

/// Parses `bytes` of `path`; a grammar error is a located warning and `None`.
pub fn parse<T>(path: &str, bytes: &[u8], parse: impl Fn(&[u8]) -> iron3d_formats::Result<T>) -> Option<T> {
    parse(bytes).map_err(|e| warn!("{}; its text is empty", e.in_file(path))).ok()
}

/// `DATA/TextRes.cfg` (empty when missing or malformed).
#[derive(Resource, Debug, Clone, Default)]
pub struct TextTable(pub TextRes);

impl TextTable {
    /// Reads the table of `game`.
    pub fn read(game: &GameDir) -> Self {
        let table = read(game, TEXT_RES, false).and_then(|b| parse(TEXT_RES, &b, TextRes::parse));
        Self(table.unwrap_or_default())
    }
}

/// Reads the string table at start-up.
pub fn load_table(mut commands: Commands, game: Option<Res<GameData>>) {
    commands.insert_resource(game.map(|g| TextTable::read(&g.0)).unwrap_or_default());
}

/// When a `messages.cfg` message is raised (the project's rule, see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// When the mission starts (`type 0`).
    Start,
    /// When the mission clock passes this many milliseconds (`time <seconds>`).
    At(u64),
    /// Never (the block's trigger is not known).
    Never,
}

/// One `messages.cfg` message.
#[derive(Debug, Clone, PartialEq)]
pub struct MissionMessage {
    /// Its text (`desc`, through the string table).
    pub text: String,
    /// When it is raised.
    pub trigger: Trigger,
    /// Already in the HUD's log.
    pub raised: bool,
}

/// The loading mission's messages and tips.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionText {
    /// `messages.cfg`, in file order.
    pub messages: Vec<MissionMessage>,
    /// `mistips.mis`, in file order.
    pub tips: Vec<String>,
}

impl MissionText {
    /// Reads `messages.cfg` and `mistips.mis` of `mission`.
    pub fn read(game: &GameDir, table: &TextRes, mission: &str) -> Self {
        let folder = mission_folder(mission);
        let path = format!("{folder}/messages.cfg");
        let cfg = read(game, &path, false).and_then(|b| parse(&path, &b, BlockCfg::parse)).unwrap_or_default();
        let path = format!("{folder}/mistips.mis");
        let tips = read(game, &path, false).map(|b| tips(&b)).unwrap_or_default();
        Self { messages: messages(&cfg, table), tips }
    }
}

/// The messages of a `messages.cfg` with their triggers.
pub fn messages(cfg: &BlockCfg, table: &TextRes) -> Vec<MissionMessage> {
    cfg.blocks()
        .zip(block_texts(cfg, table))
        .map(|(block, (_, text))| {
            let time = block.param("time").and_then(|t| std::str::from_utf8(t).ok()?.trim().parse::<f64>().ok());
            let trigger = match (block.type_id(), time) {
                (_, Some(s)) if s.is_finite() && s >= 0.0 => Trigger::At((s * 1000.0) as u64),
                (Some(0), _) => Trigger::Start,
                _ => Trigger::Never,
            };
            MissionMessage { text, trigger, raised: false }
        })
        .collect()
}

/// Reads the requested mission's texts when it starts loading.
pub fn load_mission(
    mut commands: Commands,
    game: Option<Res<GameData>>,
    table: Option<Res<TextTable>>,
    request: Option<Res<MissionRequest>>,
) {
    let (Some(game), Some(request)) = (game, request) else { return };
    let table = table.map(|t| t.0.clone()).unwrap_or_default();
    commands.insert_resource(MissionText::read(&game.0, &table, &request.mission));
}

/// Raises the messages whose time came into the HUD's log.
pub fn raise(mut text: ResMut<MissionText>, clock: Res<GameClock>, mut hud: ResMut<HudState>) {
    let now = u64::from(clock.tick) * u64::from(TICK_MS);
    for m in &mut text.messages {
        let due = match m.trigger {
            Trigger::Start => true,
            Trigger::At(ms) => now >= ms,
            Trigger::Never => false,
        };
        if due && !m.raised {
            m.raised = true;
            hud.push(m.text.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(files: &[(&str, &[u8])]) -> (std::path::PathBuf, GameDir) {
        let dir = std::env::temp_dir().join(format!("iron3d-text-{}-{}", std::process::id(), files.len()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, bytes) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        let game = GameDir::open(&dir, iron3d_formats::ReadOptions::default()).unwrap();
        (dir, game)
    }

    #[test]
    fn a_malformed_or_missing_text_file_is_empty_text() {
        let (dir, g) = game(&[
            ("DATA/TextRes.cfg", b"object A\r\n desc a\r\n"),
            ("MISSIONS/m/messages.cfg", b"end\r\n"),
            ("MISSIONS/m/mistips.mis", b"tip\r\n"),
        ]);
        assert_eq!(TextTable::read(&g).0, TextRes::default(), "unterminated block: empty table");
        let text = MissionText::read(&g, &TextRes::default(), "m");
        assert!(text.messages.is_empty(), "stray end: no messages");
        assert_eq!(text.tips, ["tip"]);
        let missing = MissionText::read(&g, &TextRes::default(), "none");
        assert!(missing.messages.is_empty() && missing.tips.is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn messages_are_raised_into_the_hud_log_by_the_projects_rule() {
        let table = TextRes::parse(b"object HELLO\r\n desc \xcf\xf0\xe8\xe2\xe5\xf2\r\nend\r\n").unwrap();
        let cfg = BlockCfg::parse(b"object a\r\n desc HELLO\r\n type 0\r\nend\r\nobject b\r\n desc later\r\n time 2\r\nend\r\nobject c\r\n desc never\r\n type 5\r\nend\r\n").unwrap();
        let list = messages(&cfg, &table);
        let triggers: Vec<_> = list.iter().map(|m| m.trigger).collect();
        assert_eq!(triggers, [Trigger::Start, Trigger::At(2000), Trigger::Never]);
        let mut app = App::new();
        app.insert_resource(MissionText { messages: list, tips: Vec::new() })
            .init_resource::<HudState>()
            .insert_resource(GameClock { tick: 1, time_ms: 0 })
            .add_systems(Update, raise);
        app.update();
        assert_eq!(app.world().resource::<HudState>().messages, ["Привет"]);
        app.world_mut().resource_mut::<GameClock>().tick = 2000 / TICK_MS + 1;
        app.update();
        app.update();
        assert_eq!(app.world().resource::<HudState>().messages, ["Привет", "later"], "each once");
    }
}
