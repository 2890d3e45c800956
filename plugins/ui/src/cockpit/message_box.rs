//! The message box (openparkan `docs/35-hud.md`, "The message box", read): one box, the
//! newest message, for 20 s; `Pager` (F2) hides and shows it. It stands at (230, 0),
//! 182 wide, on the 640 × 480 layout, and at (374, 352), 266 wide, in a command view. Its
//! frame is the compound skin's corners and edges, filled from 5 in with half-alpha green;
//! the header (*from: System*, *Training assistant*, *Information assistant*) is white at
//! (x + 8, y + 9), the text `#dcdcdc` from 1.5 lines under it, wrapped to the box's width
//! less 10, at most six lines, the sixth ending in *...* when cut.
//!
//! A cut text gets the footer *"Press F1 to see more"* with the key the player's bindings
//! give the help screen, 1.5 lines under the last.
//!
//! The project's parts: the box stands under iron3d's top bar (48 pixels lower) and its line
//! step is egui's font's (10 layout units).

use super::layout::{Ink, Layout, Pin, argb};
use super::widgets::Art;
use crate::hud::HudState;
use crate::locale::Locale;
use crate::views::{View, Views};
use bevy_egui::egui;

/// The most lines a message shows (read).
pub const MAX_LINES: usize = 6;
/// The line step (layout units; the project's).
const LINE: f32 = 10.0;
/// The font's size (layout units; the project's).
const FONT: f32 = 8.0;
/// Screen pixels the box stands under iron3d's top bar.
const UNDER_BAR: f32 = 48.0;

/// Wraps `text` greedily into lines no wider than `width` by `measure`, then keeps at
/// most [`MAX_LINES`]: the last kept loses words from its end until it and *...* fit 0.95
/// of the width (read). Also whether it cut the text.
pub fn fit(text: &str, width: f32, measure: impl Fn(&str) -> f32) -> (Vec<String>, bool) {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if measure(&format!("{line} {word}")) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    let cut = lines.len() > MAX_LINES;
    if cut {
        lines.truncate(MAX_LINES);
        let last = &mut lines[MAX_LINES - 1];
        while measure(&format!("{last}...")) > width * 0.95 {
            match last.rfind(' ') {
                Some(at) => last.truncate(at),
                None => break,
            }
        }
        last.push_str("...");
    }
    (lines, cut)
}

/// Draws the box while it holds a message and is not hidden; a cut message's footer
/// names `help`, the key of the help screen (the original's 6208).
pub fn draw(ctx: &egui::Context, art: &Art, hud: &HudState, views: &Views, locale: &Locale, help: Option<&str>) {
    let Some(shown) = hud.shown.as_ref().filter(|_| !hud.messages_hidden) else { return };
    let command = matches!(views.front(), Some(View::Hq(_) | View::Bunker(_)));
    let layout = Layout { screen: ctx.content_rect() };
    let (pin, [x, y, width]) = if command {
        (Pin::BOTTOM_RIGHT, [374.0, 352.0, 266.0])
    } else {
        (Pin::TOP, [230.0, UNDER_BAR / layout.scale(), 182.0])
    };
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("message box")));
    let ink = Ink { layout, pin, painter: &painter };
    let font = egui::FontId::proportional(FONT * layout.scale());
    let measure =
        |s: &str| painter.layout_no_wrap(s.to_string(), font.clone(), egui::Color32::WHITE).size().x / layout.scale();
    let (lines, cut) = fit(&shown.text, width - 10.0, measure);
    let footer = help.filter(|_| cut).map(|key| locale.tr("help-more", &[("key", key.to_string().into())]));
    let k = if footer.is_some() { 2.0 } else { 1.0 };
    let bottom = y + (lines.len() as f32 + k) * LINE + (k * LINE / 2.0).floor() + 16.0;
    super::widgets::frame(&ink, art, [x, y, x + width, bottom], Some(argb(0x8000_8000)));
    ink.text_left([x + 8.0, y + 9.0], &locale.t(shown.kind.header()), egui::Color32::WHITE, FONT);
    for (i, line) in lines.iter().enumerate() {
        let at = y + 9.0 + LINE * (1.5 + i as f32);
        ink.text_left([x + 8.0, at], line, egui::Color32::from_gray(0xdc), FONT);
    }
    if let Some(footer) = footer {
        let at = y + 9.0 + LINE * (1.5 + lines.len() as f32 - 1.0) + 1.5 * LINE;
        ink.text_left([x + 8.0, at], &footer, egui::Color32::WHITE, FONT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One unit a character.
    fn chars(s: &str) -> f32 {
        s.chars().count() as f32
    }

    #[test]
    fn a_message_wraps_to_the_width_and_keeps_six_lines_the_last_cut_with_dots() {
        assert_eq!(
            fit("one two three four", 9.0, chars),
            (vec!["one two".into(), "three".into(), "four".into()], false)
        );
        let long = (1..=20).map(|i| format!("w{i:02}")).collect::<Vec<_>>().join(" ");
        let (lines, cut) = fit(&long, 11.0, chars);
        assert!(cut);
        assert_eq!(lines.len(), MAX_LINES);
        assert_eq!(lines[..5], ["w01 w02 w03", "w04 w05 w06", "w07 w08 w09", "w10 w11 w12", "w13 w14 w15"]);
        assert_eq!(lines[5], "w16 w17...", "words dropped until it and the dots fit 0.95 of 11");
        assert_eq!(fit("", 10.0, chars), (Vec::<String>::new(), false));
    }
}
