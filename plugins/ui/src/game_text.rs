//! The game's own text from the game data (`docs/reference/world.md` §5.1, `docs/reference/runtime.md` §2.6):
//! the string table `DATA/TextRes.cfg` (read once at start-up), and a mission's
//! `messages.cfg` and `mistips.mis` (read when it starts loading). All of it is CP1251
//! (decoded by `iron3d_formats::config::game_text`). A malformed or missing file is a
//! warning in the log naming the file (and the byte offset of a grammar error) and an
//! empty text; it never fails the mission.
//!
//! A message is raised by a clan script's function 30 `MESSAGE_INFO` naming its
//! `message_index` (openparkan `docs/34-progression.md`, read): the message box shows its
//! `text_resource` under its assistant's header and its `voice_resource` plays.

use crate::hud::{HudState, MessageKind};
use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_core::{AppState, GameMessage, GameMessageKind, Pause, SoundCue};
use iron3d_formats::config::goals::message_lines;
use iron3d_formats::config::{BlockCfg, TextRes, tips};
use iron3d_mission::MissionRequest;
use iron3d_vfs::GameDir;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_table)
        .add_systems(OnEnter(AppState::Loading), load_mission)
        .add_systems(Update, show.run_if(in_state(Pause::Running).and_then(resource_exists::<MissionText>)));
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

/// One `messages.cfg` message (openparkan `docs/34-progression.md`, read).
#[derive(Debug, Clone, PartialEq)]
pub struct MissionMessage {
    /// Its `message_index`.
    pub id: u32,
    /// Its text (`text_resource`, through the string table).
    pub text: String,
    /// Its voice (`voice_resource`, an entry of `voices.lib`).
    pub voice: Option<String>,
    /// Whose: the Information assistant's (`info_system`) or the Training assistant's.
    pub kind: MessageKind,
}

/// The loading mission's messages and tips.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionText {
    /// `messages.cfg`, in file order.
    pub messages: Vec<MissionMessage>,
    /// The ids shown already (a message is voiced and kept once).
    pub shown: Vec<u32>,
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
        Self { messages: messages(&cfg, table), tips, shown: Vec::new() }
    }
}

/// The messages of a `messages.cfg`, their texts through the string table.
pub fn messages(cfg: &BlockCfg, table: &TextRes) -> Vec<MissionMessage> {
    message_lines(cfg)
        .into_iter()
        .map(|m| MissionMessage {
            id: m.id,
            text: table.resolve(&m.text),
            voice: m.voice,
            kind: if m.info_system { MessageKind::Information } else { MessageKind::Training },
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

/// A clan script's `MESSAGE_INFO` (function 30) shows its message in the message box:
/// the first time voiced (its `voice_resource`) and kept in the history; again, only
/// *"Recieved message is already in history"* (the original's string 6199, read). An id
/// `messages.cfg` does not hold shows nothing.
pub fn show(
    mut read: MessageReader<GameMessage>,
    mut text: ResMut<MissionText>,
    mut hud: ResMut<HudState>,
    mut cues: MessageWriter<SoundCue>,
    locale: Res<crate::locale::Locale>,
) {
    for m in read.read() {
        let GameMessageKind::Message { id, .. } = m.kind else { continue };
        let Some(message) = text.messages.iter().find(|m| m.id == id).cloned() else { continue };
        if text.shown.contains(&id) {
            hud.post(MessageKind::System, locale.t("hud-message-repeated"));
            continue;
        }
        text.shown.push(id);
        hud.post(message.kind, message.text);
        if let Some(voice) = message.voice {
            cues.write(iron3d_audio::voice(voice));
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
    fn a_scripts_message_shows_once_voiced_then_as_already_in_history() {
        let table = TextRes::parse(b"object HELLO\r\n desc \xcf\xf0\xe8\xe2\xe5\xf2\r\nend\r\n").unwrap();
        let cfg = BlockCfg::parse(
            b"object a\r\n message_index = 4\r\n text_resource = HELLO\r\n voice_resource = vc_4\r\nend\r\n\
              object b\r\n message_index = 9\r\n text_resource = plain\r\n info_system = 1\r\nend\r\n",
        )
        .unwrap();
        let list = messages(&cfg, &table);
        assert_eq!((list[0].kind, list[1].kind), (MessageKind::Training, MessageKind::Information));
        let mut app = App::new();
        app.insert_resource(MissionText { messages: list, ..default() })
            .insert_resource(crate::locale::Locale::new(crate::locale::Language::English))
            .init_resource::<HudState>()
            .add_message::<GameMessage>()
            .add_message::<SoundCue>()
            .add_systems(Update, show);
        let raise = |app: &mut App, id: u32| {
            app.world_mut().write_message(GameMessage::new(
                &iron3d_core::GameClock::default(),
                iron3d_core::DispatchPhase::SuperAi,
                GameMessageKind::Message { clan: 1, id },
            ));
            app.update();
            let shown = app.world().resource::<HudState>().shown.clone().map(|s| (s.kind, s.text));
            let voiced: Vec<String> = app
                .world()
                .resource::<Messages<SoundCue>>()
                .iter_current_update_messages()
                .map(|c| c.key.name.clone())
                .collect();
            (shown, voiced)
        };
        assert_eq!(raise(&mut app, 4), (Some((MessageKind::Training, "Привет".to_string())), vec!["vc_4".to_string()]));
        assert_eq!(raise(&mut app, 9), (Some((MessageKind::Information, "plain".to_string())), vec![]));
        assert_eq!(
            raise(&mut app, 4),
            (Some((MessageKind::System, "Recieved message is already in history".to_string())), vec![]),
            "again: not voiced"
        );
        let before = app.world().resource::<HudState>().messages.len();
        raise(&mut app, 77);
        assert_eq!(app.world().resource::<HudState>().messages.len(), before, "an id with no message shows nothing");
    }
}
