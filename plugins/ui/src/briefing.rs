//! The briefing screen between choosing a mission and loading it: the blocks of the
//! mission's `briefing.cfg` in file order, each block's `desc` (a `TextRes.cfg` key
//! shows its text), with *Start* and *Back*. A mission without `briefing.cfg` loads
//! straight away; a malformed one is a located warning and an empty briefing (still
//! shown, so the player can start or go back).

use crate::ScreenSystems;
use crate::game_text::{mission_folder, parse, read};
use crate::locale::Locale;
use crate::menu::MissionStarter;
use crate::screen::full_screen;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_core::AppState;
use iron3d_formats::config::{BlockCfg, TextRes, block_texts};
use iron3d_vfs::GameDir;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        screen
            .run_if(in_state(AppState::MainMenu).and_then(resource_exists::<Briefing>))
            .in_set(ScreenSystems::Briefing),
    );
}

/// The briefing on screen.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Briefing {
    /// The mission it introduces.
    pub mission: String,
    /// Its paragraphs, in file order.
    pub paragraphs: Vec<String>,
}

impl Briefing {
    /// The briefing of `mission`, `None` without a `briefing.cfg`.
    pub fn read(game: &GameDir, table: &TextRes, mission: &str) -> Option<Self> {
        let path = format!("{}/briefing.cfg", mission_folder(mission));
        let bytes = read(game, &path, true)?;
        let cfg = parse(&path, &bytes, BlockCfg::parse).unwrap_or_default();
        let paragraphs = block_texts(&cfg, table).into_iter().map(|(_, text)| text).collect();
        Some(Self { mission: mission.to_string(), paragraphs })
    }
}

/// What the player chose on the briefing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Load the mission.
    Start,
    /// Back to the main menu.
    Back,
}

/// Draws `briefing` filling `ui`; returns the player's choice.
pub fn draw(ui: &mut egui::Ui, briefing: &Briefing, locale: &Locale) -> Option<Choice> {
    let mut choice = None;
    ui.vertical_centered(|ui| {
        ui.add_space(40.0);
        ui.heading(egui::RichText::new(locale.t("briefing-title")).size(32.0).strong());
        ui.label(egui::RichText::new(&briefing.mission).size(18.0));
        ui.add_space(16.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_max_width(640.0);
            egui::ScrollArea::vertical().max_height(ui.available_height() - 80.0).show(ui, |ui| {
                for paragraph in briefing.paragraphs.iter().filter(|p| !p.is_empty()) {
                    ui.label(egui::RichText::new(paragraph).size(16.0));
                    ui.add_space(8.0);
                }
            });
        });
        ui.add_space(16.0);
        ui.horizontal(|ui| {
            ui.add_space((ui.available_width() - 260.0).max(0.0) / 2.0);
            if ui.add_sized([120.0, 32.0], egui::Button::new(locale.t("briefing-start"))).clicked() {
                choice = Some(Choice::Start);
            }
            ui.add_space(20.0);
            if ui.add_sized([120.0, 32.0], egui::Button::new(locale.t("briefing-back"))).clicked() {
                choice = Some(Choice::Back);
            }
        });
    });
    choice
}

/// The briefing screen (while a [`Briefing`] is open in the main menu).
pub fn screen(
    mut contexts: EguiContexts,
    briefing: Res<Briefing>,
    locale: Res<Locale>,
    mut starter: MissionStarter,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = full_screen(ctx, "briefing");
    let choice = egui::CentralPanel::default().show_inside(&mut screen, |ui| draw(ui, &briefing, &locale)).inner;
    match choice {
        Some(Choice::Start) => {
            starter.start(&briefing.mission);
            commands.remove_resource::<Briefing>();
        }
        Some(Choice::Back) => commands.remove_resource::<Briefing>(),
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::Language;

    /// Runs one frame of `draw` with `events`; returns the frame's texts with their
    /// centres and the choice.
    fn frame(
        ctx: &egui::Context,
        b: &Briefing,
        l: &Locale,
        events: Vec<egui::Event>,
    ) -> (Vec<(String, egui::Pos2)>, Option<Choice>) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1024.0, 768.0))),
            events,
            ..Default::default()
        };
        let mut choice = None;
        let out = ctx.run_ui(input, |ui| {
            choice = egui::CentralPanel::default().show_inside(ui, |ui| draw(ui, b, l)).inner;
        });
        let texts = out
            .shapes
            .iter()
            .filter_map(|s| match &s.shape {
                egui::Shape::Text(t) => Some((t.galley.text().to_string(), t.visual_bounding_rect().center())),
                _ => None,
            })
            .collect();
        (texts, choice)
    }

    fn click(at: egui::Pos2) -> Vec<egui::Event> {
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        vec![egui::Event::PointerMoved(at), button(true), button(false)]
    }

    #[test]
    fn the_briefing_shows_its_paragraphs_with_start_and_back() {
        let table = TextRes::parse(b"object GOAL\r\n desc \xd6\xe5\xeb\xfc\r\nend\r\n").unwrap();
        let cfg = BlockCfg::parse(b"object p1\r\n desc first\r\nend\r\nobject p2\r\n desc GOAL\r\nend\r\n").unwrap();
        let paragraphs = block_texts(&cfg, &table).into_iter().map(|(_, t)| t).collect();
        let b = Briefing { mission: "m".into(), paragraphs };
        let locale = Locale::new(Language::English);
        for (label, expected) in [("Start", Choice::Start), ("Back", Choice::Back)] {
            let ctx = egui::Context::default();
            let (texts, choice) = frame(&ctx, &b, &locale, Vec::new());
            assert_eq!(choice, None);
            let shown: Vec<&str> = texts.iter().map(|(t, _)| t.as_str()).collect();
            let (first, goal) = (shown.iter().position(|t| *t == "first"), shown.iter().position(|t| *t == "Цель"));
            assert!(first.is_some() && first < goal, "paragraphs in file order, keys resolved: {shown:?}");
            let at = texts.iter().find(|(t, _)| t == label).unwrap().1;
            let (_, choice) = frame(&ctx, &b, &locale, click(at));
            assert_eq!(choice, Some(expected), "{label}");
        }
    }

    #[test]
    fn a_mission_without_briefing_has_none_and_a_malformed_one_is_empty() {
        let dir = std::env::temp_dir().join(format!("iron3d-briefing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("MISSIONS/bad")).unwrap();
        std::fs::create_dir_all(dir.join("MISSIONS/none")).unwrap();
        std::fs::write(dir.join("MISSIONS/bad/briefing.cfg"), b"object a\r\n").unwrap();
        let game = GameDir::open(&dir, iron3d_formats::ReadOptions::default()).unwrap();
        let table = TextRes::default();
        assert_eq!(Briefing::read(&game, &table, "none"), None);
        let bad = Briefing::read(&game, &table, "bad").unwrap();
        assert!(bad.paragraphs.is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
