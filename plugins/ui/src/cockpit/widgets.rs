//! The cockpit's widgets as the original draws them on its 640 × 480 layout (openparkan
//! `docs/35-hud.md`, read): the reticle, the weapons list, the radar with its gauges,
//! the indicators under it, and the two panels (the target at the bottom left, the
//! driven unit at the bottom right). Each widget takes what it shows as plain figures,
//! so its rules are tested without a world.

use super::layout::{Cut, Ink, Pin, argb};
use bevy_egui::egui;
use std::collections::BTreeMap;

/// The art the widgets cut from: the pages by name and the sprite files' sprites.
#[derive(Debug, Clone, Default)]
pub struct Art {
    /// Pages by their `game_resources.cfg` name (lower case).
    pub pages: BTreeMap<String, egui::TextureId>,
    /// Sprites by name (lower case).
    pub sprites: BTreeMap<String, Cut>,
}

impl Art {
    /// `rect` of page `page`, when the page is there.
    pub fn cut(&self, page: &str, rect: [f32; 4]) -> Option<Cut> {
        self.pages.get(page).map(|&texture| Cut { texture, rect, turns: 0 })
    }

    /// The sprite `name`.
    pub fn sprite(&self, name: &str) -> Option<Cut> {
        self.sprites.get(name).copied()
    }
}

/// A frame of the compound skin (`0x1009abf0`, read): its 8 × 8 corners, its 5-thick
/// edges between them, and the inside filled from 5 in with `fill` when given.
pub fn frame(ink: &Ink, art: &Art, [x0, y0, x1, y1]: [f32; 4], fill: Option<egui::Color32>) {
    if let Some(fill) = fill {
        ink.fill([x0 + 5.0, y0 + 5.0, x1 - 5.0, y1 - 5.0], fill);
    }
    let white = egui::Color32::WHITE;
    let c = 8.0;
    let corners =
        [[x0, y0, x0 + c, y0 + c], [x1 - c, y0, x1, y0 + c], [x1 - c, y1 - c, x1, y1], [x0, y1 - c, x0 + c, y1]];
    for (i, quad) in corners.into_iter().enumerate() {
        if let Some(cut) = art.sprite(&format!("ccres_frame_corner_{}", i + 1)) {
            ink.cut(cut, quad, white);
        }
    }
    if let Some(edge) = art.sprite("ccres_frame_edge_h") {
        ink.cut(edge, [x0 + c, y0, x1 - c + 1.0, y0 + 5.0], white);
        ink.cut(edge, [x0 + c, y1, x1 - c + 1.0, y1 - 5.0], white);
    }
    if let Some(edge) = art.sprite("ccres_frame_edge_v") {
        ink.cut(edge, [x0 + 5.0, y0 + c, x0, y1 - c + 1.0], white);
        ink.cut(edge, [x1 - 5.0, y0 + c, x1, y1 - c + 1.0], white);
    }
}

/// A weapon row's lamp (the compound skin's lamps, `docs/35-hud.md`'s table of reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lamp {
    /// Destroyed or out of rounds (report 5).
    Red,
    /// Waiting its interval or short of a shot's charge (reports 4, 6).
    Yellow1,
    /// A stroke under way, or the target out of reach (reports 3, 7).
    Yellow2,
    /// Ready (report 0).
    Green,
    /// Not selected: the player's fire does not reach it.
    Black,
}

impl Lamp {
    /// The compound skin's piece.
    fn sprite(self) -> &'static str {
        match self {
            Self::Red => "ccres_red_lamp",
            Self::Yellow1 => "ccres_yellow1_lamp",
            Self::Yellow2 => "ccres_yellow2_lamp",
            Self::Green => "ccres_green_lamp",
            Self::Black => "ccres_black_lamp",
        }
    }
}

/// The words the widgets print (the original's strings 5094, 6250 and 6178).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Words {
    /// An unlimited magazine's rounds (*INF*).
    pub inf: String,
    /// A gun whose target is beyond its reach (*OUT OF RANGE*).
    pub out_of_range: String,
    /// The distance's unit (*m*).
    pub metres: String,
}

/// One gun of the driven unit as its row shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct GunRow {
    /// Its name.
    pub name: String,
    /// Rounds left (`None`: an unlimited magazine, *INF*).
    pub rounds: Option<i32>,
    /// Its capacitor's level, 0..1 (`None` without a capacitor: no fill).
    pub charge: Option<f32>,
    /// Its lamp.
    pub lamp: Lamp,
    /// Its target beyond its reach: *OUT OF RANGE* over its name.
    pub out_of_range: bool,
}

/// The pieces of a weapon row, right to left from x 640, and their widths
/// (`iron3d.dll:0x1009d4a1`–`0x1009d5b6`).
const ROW: [(&str, f32); 8] = [
    ("ccres_ending_text", 5.0),
    ("ccres_body_text", 12.0),
    ("lamp", 19.0),
    ("ccres_body_text", 24.0),
    ("ccres_separator_left_text", 5.0),
    ("ccres_ray_emitter_off", 10.0),
    ("ccres_ray_body", BAR),
    ("ccres_ray_ending", 6.0),
];

/// The charge bar's width (its `ray_body`'s).
const BAR: f32 = 120.0;

/// A row's height and the step between rows.
pub const ROW_HEIGHT: f32 = 19.0;

/// Each row piece's span across, right to left: a piece drawn right to left covers
/// pen − w − 1 to pen, and the pen moves back by w (read).
pub fn row_spans() -> [[f32; 2]; 8] {
    let mut pen = 640.0;
    ROW.map(|(_, w)| {
        let span = [pen - w - 1.0, pen];
        pen -= w;
        span
    })
}

/// The charge bar's fill: its colour by the percentage (under 20 dark red, under 80
/// olive, else green, all at half alpha) and its span across, from 2 in from the bar's
/// right edge to p % of its width in from it; none at 0 (read).
pub fn charge_fill(level: f32, right: f32) -> Option<(egui::Color32, [f32; 2])> {
    let level = if (0.0..=1.0).contains(&level) { level } else { 0.0 };
    let p = (level * 100.0).round();
    let colour = match p as u8 {
        0 => return None,
        1..20 => 0x8080_0000,
        20..80 => 0x8080_8000,
        _ => 0x8000_8000,
    };
    Some((argb(colour), [right - BAR * p / 100.0, right - 2.0]))
}

/// The weapons list: a row a gun from the top right, 19 apart.
pub fn weapons(ink: &mut Ink, art: &Art, guns: &[GunRow], words: &Words) {
    ink.pin = Pin::TOP_RIGHT;
    let spans = row_spans();
    for (i, gun) in guns.iter().enumerate() {
        let y = ROW_HEIGHT * i as f32;
        for ((piece, _), [x0, x1]) in ROW.iter().zip(spans) {
            let name = if *piece == "lamp" { gun.lamp.sprite() } else { piece };
            // Drawn right to left: mirrored.
            if let Some(cut) = art.sprite(name) {
                ink.cut(cut, [x1, y, x0, y + ROW_HEIGHT], egui::Color32::WHITE);
            }
        }
        let [bar_left, bar_right] = spans[6];
        if let Some((colour, [x0, x1])) = gun.charge.and_then(|c| charge_fill(c, bar_right)) {
            ink.fill([x0, y + 3.0, x1, y + ROW_HEIGHT - 3.0], colour);
        }
        let white = egui::Color32::WHITE;
        ink.text(spans[1], y + 4.0, &(i + 1).to_string(), white);
        let rounds = gun.rounds.map_or_else(|| words.inf.clone(), |r| format!("{r:4}"));
        ink.text(spans[3], y + 4.0, rounds.trim(), white);
        let (name, colour) = if gun.out_of_range {
            (words.out_of_range.as_str(), argb(0xffff_5c5c))
        } else {
            (gun.name.as_str(), white)
        };
        ink.text([bar_left, bar_right], y + 4.0, name, colour);
    }
}

/// The reticle, green about the middle (`0x10042ed0`, read).
pub fn reticle(ink: &mut Ink, art: &Art) {
    ink.pin = Pin::CENTRE;
    let green = egui::Color32::from_rgb(55, 255, 55);
    let pieces: [([f32; 4], &[[f32; 4]]); 3] = [
        ([77.0, 0.0, 64.0, 64.0], &[[288.0, 208.0, 352.0, 272.0]]),
        (
            [54.0, 28.0, 23.0, 23.0],
            &[
                [279.0, 260.0, 300.0, 281.0],
                [279.0, 220.0, 300.0, 199.0],
                [361.0, 260.0, 340.0, 281.0],
                [361.0, 220.0, 340.0, 199.0],
            ],
        ),
        ([168.0, 0.0, 82.0, 15.0], &[[232.0, 233.0, 314.0, 248.0], [408.0, 233.0, 326.0, 248.0]]),
    ];
    for (rect, places) in pieces {
        if let Some(cut) = art.cut("page9", rect) {
            for &quad in places {
                ink.cut(cut, quad, green);
            }
        }
    }
}

/// The radar's centre on the layout.
pub const RADAR: [f32; 2] = [320.0, 396.0];
/// The radar disc's radius for a contact at the radar's range.
pub const RADAR_RADIUS: f32 = 60.0;

/// A contact on the radar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Its place less the driven unit's, across the ground (x east, y north).
    pub offset: [f32; 2],
    /// The clan rule's colour.
    pub colour: egui::Color32,
    /// How it is marked.
    pub mark: Mark,
    /// The list's current target (outlined).
    pub current: bool,
}

/// A radar contact's mark (`0x100402ef`, read): a flyer's cross, another unit's small
/// square, a building's larger one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    /// A unit whose chassis flies.
    Cross,
    /// Any other unit.
    #[default]
    Unit,
    /// A building.
    Building,
}

impl Mark {
    /// The mark's filled rectangles about (x, y), and the current target's outline
    /// about it: a cross's two 4-unit arms and an outline from 2 before to 2 beyond
    /// them; a 3- or 5-unit square and an outline from 2 before to 1 beyond it.
    pub fn shape(self, [x, y]: [f32; 2]) -> (Vec<[f32; 4]>, [f32; 4]) {
        let half = match self {
            Self::Cross => 2.0,
            Self::Unit => 1.5,
            Self::Building => 2.5,
        };
        let fills = match self {
            Self::Cross => vec![[x - half, y - 0.5, x + half, y + 0.5], [x - 0.5, y - half, x + 0.5, y + half]],
            _ => vec![[x - half, y - half, x + half, y + half]],
        };
        let beyond = if self == Self::Cross { 2.0 } else { 1.0 };
        (fills, [x - half - 2.0, y - half - 2.0, x + half + beyond, y + half + beyond])
    }
}

/// What the radar shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sight {
    /// The heading the view faces (radians, 0 east, counter-clockwise).
    pub heading: f32,
    /// The radar's range (`None`: the unit has no radar, 1 m as the original takes it).
    pub range: Option<f32>,
    /// Its contacts.
    pub contacts: Vec<Contact>,
    /// The altitude above the water, the speed and the top speed (km/h), as figures.
    pub altitude: i32,
    /// Speed (km/h).
    pub speed: i32,
    /// Top speed (km/h).
    pub top: i32,
    /// Seconds into the sweep's period, and the period.
    pub sweep: Option<(f32, f32)>,
}

/// A contact's place on the layout: 60 × d ÷ R from the centre, at its bearing less the
/// heading plus π/2 counter-clockwise from the right, y up (`0x100402ef`, read).
pub fn contact_place(offset: [f32; 2], heading: f32, range: f32) -> [f32; 2] {
    let d = offset[0].hypot(offset[1]);
    let r = RADAR_RADIUS * d / range;
    let angle = offset[1].atan2(offset[0]) - heading + std::f32::consts::FRAC_PI_2;
    [RADAR[0] + r * angle.cos(), RADAR[1] - r * angle.sin()]
}

/// The rows a gauge's art starts down: empty at 0 %, full at 100 % (read).
pub fn gauge_rows(percent: i32) -> f32 {
    ((100 - percent.clamp(0, 100)) * 105 / 100) as f32
}

/// The altitude gauge's percentage: empty 100 m under the water, full 100 m over.
pub fn altitude_percent(altitude: i32) -> i32 {
    ((altitude + 100) * 100 / 200).clamp(0, 100)
}

/// The speed gauge's percentage (0 with no top speed).
pub fn speed_percent(speed: i32, top: i32) -> i32 {
    if top > 0 { (speed * 100 / top).clamp(0, 100) } else { 0 }
}

/// The radar: the disc, its two gauges and their figures, north and south, the sweep
/// ring, the contacts and the range figure (`0x1003fb90`, read).
pub fn radar(ink: &mut Ink, art: &Art, sight: &Sight) {
    ink.pin = Pin::BOTTOM;
    let white = egui::Color32::WHITE;
    if let Some(cut) = art.cut("page6", [156.0, 0.0, 99.0, 153.0]) {
        ink.cut(cut, [320.0, 327.0, 221.0, 480.0], white);
    }
    if let Some(cut) = art.cut("page6", [155.0, 0.0, 100.0, 153.0]) {
        ink.cut(cut, [320.0, 327.0, 421.0, 480.0], white);
    }
    if let Some(cut) = art.cut("ui_menu3", [215.0, 0.0, 15.0, 28.0]) {
        ink.cut(cut, [230.0, 383.0, 245.0, 411.0], white);
    }
    if let Some(cut) = art.cut("ui_menu3", [199.0, 0.0, 15.0, 28.0]) {
        ink.cut(cut, [396.0, 383.0, 411.0, 411.0], white);
    }
    let orange = egui::Color32::from_rgb(255, 180, 80);
    let gauges = [
        (altitude_percent(sight.altitude), [271.0, 240.0], sight.altitude, 226.0),
        (speed_percent(sight.speed, sight.top), [370.0, 401.0], sight.speed, 388.0),
    ];
    for (percent, [x0, x1], figure, figure_x) in gauges {
        let e = gauge_rows(percent);
        if e < 105.0
            && let Some(cut) = art.cut("page6", [121.0, e, 31.0, 105.0 - e])
        {
            ink.cut(cut, [x0, 347.0 + e, x1, 452.0], orange);
        }
        ink.text([figure_x, figure_x + 28.0], 446.0, &figure.to_string(), white);
    }
    // The view wedge: the camera's 1.3 rad, always pointing up.
    if let Some(&page7) = art.pages.get("page7") {
        let half = 1.3 / 2.0;
        let corner = |a: f32, r: f32, c: [f32; 2]| [c[0] + r * a.cos(), c[1] - r * a.sin()];
        let up = std::f32::consts::FRAC_PI_2;
        ink.triangle(
            page7,
            [RADAR, corner(up - half, 75.0, RADAR), corner(up + half, 75.0, RADAR)],
            [[192.0, 64.0], corner(up - half, 64.0, [192.0, 64.0]), corner(up + half, 64.0, [192.0, 64.0])],
            white,
        );
    }
    // North at the heading less π/2 clockwise from up, south opposite.
    if let Some(&page6) = art.pages.get("page6") {
        for (bearing, colour) in
            [(0.0, egui::Color32::from_rgb(10, 10, 225)), (std::f32::consts::PI, egui::Color32::from_rgb(225, 10, 10))]
        {
            let a = std::f32::consts::FRAC_PI_2 - (sight.heading - std::f32::consts::FRAC_PI_2) - bearing;
            let at = |r: f32, da: f32| [RADAR[0] + r * (a + da).cos(), RADAR[1] - r * (a + da).sin()];
            let five = 5f32.to_radians();
            let corners = [at(68.0, five), at(68.0, -five), at(56.0, -five)];
            ink.triangle(page6, corners, [[192.0, 154.0], [201.0, 154.0], [201.0, 165.0]], colour);
            ink.triangle(
                page6,
                [corners[0], corners[2], at(56.0, five)],
                [[192.0, 154.0], [201.0, 165.0], [192.0, 165.0]],
                colour,
            );
        }
    }
    if let Some((t, period)) = sight.sweep {
        let radius = (RADAR_RADIUS * t / period).floor();
        ink.circle(RADAR, radius, egui::Color32::from_rgba_unmultiplied(0, 155, 0, 140));
    }
    let range = sight.range.unwrap_or(1.0);
    for c in &sight.contacts {
        let (fills, outline) = c.mark.shape(contact_place(c.offset, sight.heading, range));
        fills.into_iter().for_each(|r| ink.fill(r, c.colour));
        if c.current {
            ink.outline(outline, c.colour);
        }
    }
    if let Some(r) = sight.range {
        ink.text([303.0, 340.0], 467.0, &format!("{}", r.round()), egui::Color32::from_rgb(0, 255, 0));
    }
}

/// The indicators' x, their icons on `ui_menu` (the fifth on `ui_menu3`), in slot order:
/// repair, infrared, camouflage, the mode's figure, the landing warning, the auto-driver's
/// three levels (read).
const INDICATORS: [(f32, &str, [f32; 2]); 8] = [
    (222.0, "ui_menu", [97.0, 126.0]),
    (240.0, "ui_menu", [238.0, 222.0]),
    (258.0, "ui_menu", [239.0, 126.0]),
    (280.0, "ui_menu", [223.0, 142.0]),
    (344.0, "ui_menu3", [180.0, 27.0]),
    (366.0, "ui_menu", [113.0, 94.0]),
    (384.0, "ui_menu", [113.0, 110.0]),
    (402.0, "ui_menu", [81.0, 94.0]),
];

/// The eight indicators under the radar, each 0 dark, 1 lit or 2 red: the lamp (page6's
/// (202 + 18 × state, 154)) and the icon tinted grey, white or red (`0x1003f270`).
pub fn indicators(ink: &mut Ink, art: &Art, states: [u8; 8]) {
    ink.pin = Pin::BOTTOM;
    for ((x, page, [u, v]), state) in INDICATORS.into_iter().zip(states) {
        if let Some(lamp) = art.cut("page6", [202.0 + 18.0 * f32::from(state), 154.0, 17.0, 20.0]) {
            ink.cut(lamp, [x, 459.0, x + 18.0, 484.0], egui::Color32::WHITE);
        }
        let tint = match state {
            0 => egui::Color32::from_gray(128),
            1 => egui::Color32::WHITE,
            _ => egui::Color32::from_rgb(255, 0, 0),
        };
        if let Some(icon) = art.cut(page, [u, v, 15.0, 15.0]) {
            ink.cut(icon, [x + 1.0, 463.0, x + 16.0, 478.0], tint);
        }
    }
}

/// What a panel shows of a unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Panel {
    /// Its name (line one).
    pub name: String,
    /// Line two and its colour (`None`: empty).
    pub status: Option<(String, egui::Color32)>,
    /// Its life over its full life.
    pub life: f32,
    /// Its batteries' fill (`None` without batteries: an empty arc).
    pub battery: Option<f32>,
    /// Each shield sector's share kept, front, back, left, right, top, bottom (`None`
    /// without a shield: no sector drawn).
    pub shields: Option<[f32; 6]>,
    /// The distance to it (the target panel; shown above 0).
    pub distance: Option<f32>,
    /// The image its panel's camera draws of it (`iron3d_render::UnitViews`), once drawn.
    pub view: Option<egui::TextureId>,
    /// It is too big for its panel's view: nothing is drawn from the unit on (read).
    pub too_big: bool,
}

/// The rows an arc's art starts down at `percent` (it empties from the top, read).
pub fn arc_rows(percent: f32) -> f32 {
    let p = (percent.round() as i32).clamp(0, 100);
    (94 * (100 - p) / 100) as f32
}

/// A shield sector's colour: red at 0, green full (read).
pub fn sector_colour(fill: f32) -> egui::Color32 {
    let v = (255.0 * fill.clamp(0.0, 1.0)) as u8;
    egui::Color32::from_rgb(255 - v, v, 0)
}

/// The sectors' sprites and their quads on the target panel (the own panel's are 491
/// further right), front, back, left, right, top, bottom (read).
const SECTORS: [(&str, [f32; 4]); 6] = [
    ("frwd_shld", [44.0, 321.0, 105.0, 340.0]),
    ("back_shld", [30.0, 409.0, 119.0, 438.0]),
    ("left_shld", [16.0, 334.0, 42.0, 413.0]),
    ("left_shld", [133.0, 334.0, 107.0, 413.0]),
    ("top_shld", [40.0, 308.0, 109.0, 327.0]),
    ("bott_shld", [22.0, 420.0, 127.0, 451.0]),
];

/// A panel: the target's at the bottom left (`own` false) or the driven unit's, mirrored,
/// at the bottom right (`0x10040f30`, read); with no unit only its back and two icons.
pub fn panel(ink: &mut Ink, art: &Art, words: &Words, own: bool, unit: Option<&Panel>) {
    ink.pin = if own { Pin::BOTTOM_RIGHT } else { Pin::BOTTOM_LEFT };
    let white = egui::Color32::WHITE;
    let put = |ink: &Ink, name: &str, target: [f32; 4], mine: [f32; 4], tint: egui::Color32| {
        if let Some(cut) = art.sprite(name) {
            ink.cut(cut, if own { mine } else { target }, tint);
        }
    };
    put(ink, "targeter_back", [0.0, 306.0, 150.0, 480.0], [640.0, 306.0, 490.0, 480.0], white);
    put(ink, "targeter_life", [129.0, 411.0, 144.0, 426.0], [496.0, 411.0, 511.0, 426.0], white);
    put(ink, "targeter_energy", [5.0, 411.0, 20.0, 426.0], [620.0, 411.0, 635.0, 426.0], white);
    let Some(unit) = unit else { return };
    let shift = if own { 491.0 } else { 0.0 };
    if let Some(shields) = unit.shields {
        for ((name, [x0, y0, x1, y1]), fill) in SECTORS.into_iter().zip(shields) {
            if let Some(cut) = art.sprite(name) {
                ink.cut(cut, [x0 + shift, y0, x1 + shift, y1], sector_colour(fill));
            }
        }
    }
    let arc = |ink: &Ink, percent: f32, x: [f32; 2], tint: u32| {
        let t = arc_rows(percent);
        if t < 94.0
            && let Some(cut) = art.cut("ui_menu3", [151.0, 82.0 + t, 40.0, 94.0 - t])
        {
            ink.cut(cut, [x[0], 314.0 + t, x[1], 408.0], argb(tint));
        }
    };
    if unit.too_big {
        return;
    }
    if let Some(view) = unit.view {
        let place = if own { [503.0, 315.0, 631.0, 443.0] } else { [9.0, 315.0, 137.0, 443.0] };
        ink.image(view, place, egui::Color32::WHITE);
    }
    arc(ink, unit.life * 100.0, if own { [491.0, 531.0] } else { [149.0, 109.0] }, 0xff19_ffaf);
    arc(ink, unit.battery.unwrap_or(0.0) * 100.0, if own { [640.0, 600.0] } else { [0.0, 40.0] }, 0xffff_b450);
    let x0 = if own { 498.0 } else { 4.0 };
    ink.text([x0, x0 + 138.0], 460.0, &unit.name, argb(0xffc8_c8c8));
    if let Some((status, colour)) = &unit.status {
        ink.text([x0, x0 + 138.0], 469.0, status, *colour);
    }
    if let Some(d) = unit.distance.filter(|d| *d > 0.0 && !own) {
        if let Some(cut) = art.sprite("targeter_range") {
            ink.cut(cut, [108.0, 440.0, 147.0, 456.0], white);
        }
        ink.text([112.0, 143.0], 444.0, &format!("{} {}", d as i32, words.metres), egui::Color32::from_rgb(0, 255, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weapon_rows_pieces_run_right_to_left_from_640_as_measured() {
        assert_eq!(
            row_spans(),
            [
                [634.0, 640.0],
                [622.0, 635.0],
                [603.0, 623.0],
                [579.0, 604.0],
                [574.0, 580.0],
                [564.0, 575.0],
                [444.0, 565.0],
                [438.0, 445.0],
            ]
        );
    }

    #[test]
    fn the_charge_bar_fills_from_its_right_edge_coloured_by_its_share() {
        let bar = row_spans()[6][1];
        assert_eq!(charge_fill(0.0, bar), None, "no fill at 0");
        assert_eq!(charge_fill(1.5, bar), None, "a share above 1 is taken as 0");
        let (colour, span) = charge_fill(0.1, bar).unwrap();
        assert_eq!(colour, argb(0x8080_0000));
        assert_eq!(span, [553.0, 563.0], "10 % of 120 in from the bar's right edge at 565, to 2 in");
        assert_eq!(charge_fill(0.2, bar).unwrap().0, argb(0x8080_8000), "olive from 20 %");
        assert_eq!(charge_fill(0.795, bar).unwrap().0, argb(0x8000_8000), "rounded to 80 %: green");
        assert_eq!(charge_fill(1.0, bar).unwrap().1, [445.0, 563.0]);
    }

    #[test]
    fn a_contact_lies_60_times_its_distance_over_the_range_at_its_bearing_from_the_view() {
        // Facing north, a contact 150 east at a 300 range: half way right.
        let north = std::f32::consts::FRAC_PI_2;
        let [x, y] = contact_place([150.0, 0.0], north, 300.0);
        assert!((x - 350.0).abs() < 1e-3 && (y - 396.0).abs() < 1e-3, "{x}, {y}");
        // Facing east, the same contact is straight ahead: up.
        let [x, y] = contact_place([150.0, 0.0], 0.0, 300.0);
        assert!((x - 320.0).abs() < 1e-3 && (y - 366.0).abs() < 1e-3, "{x}, {y}");
    }

    /// A flyer is a cross of 4-unit arms, outlined 2 beyond them when it is the target;
    /// a unit a 3-unit square and a building a 5-unit one, outlined 1 beyond (read).
    #[test]
    fn a_flyer_is_a_cross_on_the_radar_a_unit_a_small_square_and_a_building_a_large_one() {
        let (fills, outline) = Mark::Cross.shape([100.0, 50.0]);
        assert_eq!(fills, [[98.0, 49.5, 102.0, 50.5], [99.5, 48.0, 100.5, 52.0]], "two arms");
        assert_eq!(outline, [96.0, 46.0, 104.0, 54.0]);
        let (fills, outline) = Mark::Unit.shape([100.0, 50.0]);
        assert_eq!((fills, outline), (vec![[98.5, 48.5, 101.5, 51.5]], [96.5, 46.5, 102.5, 52.5]));
        let (fills, _) = Mark::Building.shape([100.0, 50.0]);
        assert_eq!(fills, [[97.5, 47.5, 102.5, 52.5]]);
    }

    #[test]
    fn the_gauges_fill_from_the_bottom_by_altitude_and_by_speed_over_top_speed() {
        assert_eq!(altitude_percent(-100), 0);
        assert_eq!(altitude_percent(0), 50, "half at the water");
        assert_eq!(altitude_percent(150), 100);
        assert_eq!(gauge_rows(50), 52.0, "(100 − 50) × 105 ÷ 100");
        assert_eq!(gauge_rows(100), 0.0);
        assert_eq!(speed_percent(25, 50), 50);
        assert_eq!(speed_percent(25, 0), 0, "no top speed");
    }

    #[test]
    fn the_arcs_empty_from_the_top_and_the_sectors_run_red_to_green() {
        assert_eq!(arc_rows(100.0), 0.0);
        assert_eq!(arc_rows(50.0), 47.0);
        assert_eq!(arc_rows(0.0), 94.0);
        assert_eq!(arc_rows(140.0), 0.0, "held to 100");
        assert_eq!(sector_colour(0.0), egui::Color32::from_rgb(255, 0, 0));
        assert_eq!(sector_colour(1.0), egui::Color32::from_rgb(0, 255, 0));
    }
}

/// A guided gun's lock closing on its target (`docs/35-hud.md`, "The guided lock", read).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lock {
    /// The target's point on the layout.
    pub at: [f32; 2],
    /// How far the lock has come, 0..1.
    pub share: f32,
}

/// The lock's edges (left, top, right, bottom) for the `n`-th lock drawn this frame
/// (`0x1009ce84`–`0x1009cea0`): from the layout's (30, 30)–(630, 450) at share 0 to a
/// 40-unit square about the target at 1, each later lock 4 further out, each edge
/// rounded to the nearest unit.
pub fn lock_edges(lock: &Lock, n: usize) -> [f32; 4] {
    let (f, k) = (lock.share, 4.0 * n as f32);
    let [x, y] = lock.at;
    [
        ((x - 50.0) * f + 30.0 - k).round(),
        ((y - 50.0) * f + 30.0 - k).round(),
        ((x - 610.0) * f + 630.0 + k).round(),
        ((y - 430.0) * f + 450.0 + k).round(),
    ]
}

/// The locks, each four 9 × 9 corners cut four ways from page9's (0, 32) and (−1, 31),
/// in `0xff14GG14` with GG 205 + round(50 × its share).
pub fn locks(ink: &mut Ink, art: &Art, locks: &[Lock]) {
    ink.pin = Pin::CENTRE;
    let pieces = [([0.0, 32.0], 0), ([0.0, 32.0], 1), ([-1.0, 31.0], 2), ([-1.0, 31.0], 3)];
    for (n, lock) in locks.iter().enumerate() {
        let [l, t, r, b] = lock_edges(lock, n);
        let green = 205 + (lock.share * 50.0).round() as u8;
        let colour = egui::Color32::from_rgb(20, green, 20);
        let quads =
            [[l, t, l + 9.0, t + 9.0], [r - 9.0, t, r, t + 9.0], [r - 9.0, b - 9.0, r, b], [l, b - 9.0, l + 9.0, b]];
        for (([x, y], turns), quad) in pieces.into_iter().zip(quads) {
            if let Some(cut) = art.cut("page9", [x, y, 9.0, 9.0]) {
                ink.cut(Cut { turns, ..cut }, quad, colour);
            }
        }
    }
}
