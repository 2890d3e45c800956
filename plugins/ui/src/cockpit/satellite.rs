//! The satellite map's own pieces on the 640 × 480 layout (openparkan `docs/35-hud.md`,
//! "The satellite map", read): its compass, and in the commander's views its title bar
//! with the exit button and the line under it naming what the cursor points at on the
//! map. The pieces are the compound skin's, drawn with the pen's widths.

use super::layout::{Ink, Pin, argb};
use super::widgets::Art;
use bevy_egui::egui;

/// The exit button's rectangle on the commander's map's title bar (read: the map's
/// `+0x230`, stored as the bar is drawn).
pub const EXIT: [f32; 4] = [605.0, 43.0, 640.0, 63.0];
/// The title bar's and the line's height (the pieces' 19).
const HEIGHT: f32 = 19.0;
/// The name bar's span on the line under the map (read: the emitter at 436, the bar 183
/// wide from 446).
const BAR: [f32; 2] = [446.0, 629.0];

/// What the line under the commander's map names: the object the cursor points at on
/// the map.
#[derive(Debug, Clone, PartialEq)]
pub struct MapLine {
    /// Its name, and a unit's head order's status in brackets.
    pub text: String,
    /// Its life over its full life.
    pub life: f32,
    /// Its clan's colour by the player's word towards it ([`line_colour`]).
    pub clan: egui::Color32,
}

/// The line's clan colour (read, `0x10039440`, `0x10039460`): the player's word towards
/// the object's clan 0 (hostile) red, 1 (neutral) grey, anything else (allied, his own)
/// light blue; no clan type is asked.
pub fn line_colour(word: Option<u32>) -> egui::Color32 {
    match word {
        Some(0) => argb(0xffff_0000),
        Some(1) => argb(0xff80_8080),
        _ => argb(0xff80_80ff),
    }
}

/// The compass in the map's bottom right corner, 5 in and a pixel off its edge (read).
pub fn compass(ink: &mut Ink, art: &Art, [_, _, x1, y1]: [f32; 4]) {
    ink.pin = Pin::TOP_RIGHT;
    if let Some(cut) = art.sprite("map_compass_icon") {
        ink.cut(cut, [x1 - 27.0, y1 - 48.0, x1 - 6.0, y1 - 6.0], egui::Color32::WHITE);
    }
}

/// The commander's map's title bar from (374, 43): an end, `title` centred in
/// `#37ff37` on a box 226 wide, the end mirrored back from 610, and the exit button with
/// its icon ([`EXIT`]).
pub fn title_bar(ink: &mut Ink, art: &Art, title: &str) {
    ink.pin = Pin::TOP_RIGHT;
    let y = EXIT[1];
    let row = [
        ("ccres_ending_text", [374.0, 379.0]),
        ("ccres_body_text", [379.0, 605.0]),
        ("ccres_ending_text", [610.0, 604.0]),
        ("ccres_exit_button_normal", [EXIT[0], EXIT[2]]),
    ];
    pieces(ink, art, y, &row);
    if let Some(cut) = art.sprite("exit_icon") {
        ink.cut(cut, [620.0, 46.0, 633.0, 59.0], argb(0xfff0_f0f0));
    }
    ink.text([379.0, 605.0], y + 4.0, title, argb(0xff37_ff37));
}

/// A row of the compound skin's pieces from `y`, each over its span across (a span
/// right to left mirrors its piece).
fn pieces(ink: &Ink, art: &Art, y: f32, row: &[(&str, [f32; 2])]) {
    for &(name, [x0, x1]) in row {
        if let Some(cut) = art.sprite(name) {
            ink.cut(cut, [x0, y, x1, y + HEIGHT], egui::Color32::WHITE);
        }
    }
}

/// The line under the commander's map from (374, 330): an end, the boxes to 436 (the
/// clan's sign in its colour in the first when there is an object), the emitter, the name
/// bar from 446 to 629 with `line`'s text over its life, and the bar's end. The clan's
/// emblem and the object's type icons are not cut from the `icons` page: the sign is its
/// colour's square (the project's).
pub fn line(ink: &mut Ink, art: &Art, line: Option<&MapLine>) {
    ink.pin = Pin::TOP_RIGHT;
    let (y0, y1) = (330.0, 330.0 + HEIGHT);
    let row = [
        ("ccres_ending_text", [374.0, 379.0]),
        ("ccres_body_text", [379.0, 436.0]),
        ("ccres_ending_text", [441.0, 435.0]),
        ("ccres_ray_emitter_off", [436.0, BAR[0]]),
        ("ccres_ray_body", BAR),
        ("ccres_ray_ending", [BAR[1], BAR[1] + 6.0]),
    ];
    pieces(ink, art, y0, &row);
    let Some(line) = line else { return };
    ink.fill([381.0, y0 + 2.0, 396.0, y0 + 17.0], line.clan);
    let life = line.life.clamp(0.0, 1.0);
    if life > 0.0 {
        ink.fill([BAR[0] + 2.0, y0 + 3.0, BAR[0] + (BAR[1] - BAR[0]) * life, y1 - 3.0], argb(0x8000_8000));
    }
    ink.text(BAR, y0 + 4.0, &line.text, egui::Color32::WHITE);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_colour_is_the_players_word_towards_the_objects_clan() {
        assert_eq!(line_colour(Some(0)), egui::Color32::from_rgb(255, 0, 0), "hostile");
        assert_eq!(line_colour(Some(1)), egui::Color32::from_gray(128), "neutral, whatever the clan's type");
        assert_eq!(line_colour(Some(2)), egui::Color32::from_rgb(128, 128, 255), "allied");
        assert_eq!(line_colour(None), egui::Color32::from_rgb(128, 128, 255), "his own");
    }
}
