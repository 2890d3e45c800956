//! The cockpit HUD's art, the demo's own, in the original's files (openparkan
//! `docs/35-hud.md`, read and measured): `ui/ui.lib` holds five 256 × 256 `Texm` pages
//! (`ui_menu1.tex`, `ui_menu3.tex`, `ui_tex6.tex`, `ui_tex7.tex`, `ui_tex9.tex`) that
//! `ui/game_resources.cfg`'s `textures` block names `ui_menu`, `ui_menu3`, `page6`,
//! `page7` and `page9` by entry index; `ui/hq.cfg` cuts the target panel's nine sprites
//! and `ui/compaund.cfg` the compound controls' pieces (weapon rows, lamps, frames).
//! Every piece the engine cuts by a fixed rectangle (the radar's disc and gauges, the
//! reticle, the lock's corner, the indicators' lamps and icons, the panels' arc) lies
//! where the original's does; the sprite files' own pieces sit where the demo puts them.
//! The art is grey or white where the original's draw tints it. The same
//! `game_resources.cfg`'s `sounds` block names the lock's beeps and the radar's ping in
//! `sounds.lib` as the original's does.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::config::BlockCfg;
use iron3d_formats::config::ui_art::{GAME_RESOURCES, PAGE_SIDE, SOUNDS, SPRITE_FILES, TEXTURES};
use iron3d_formats::model::texm::{DecodeOptions, MAGIC, PixelFormat, Texm};
use iron3d_formats::nres::NresWriter;

/// The library's path and the pages in it, in entry order, with the names
/// `game_resources.cfg` gives them.
pub const LIBRARY: &str = "ui/ui.lib";
/// Entry name and page name, by entry index.
pub const PAGES: [(&str, &str); 5] = [
    ("ui_menu1.tex", "ui_menu"),
    ("ui_menu3.tex", "ui_menu3"),
    ("ui_tex6.tex", "page6"),
    ("ui_tex7.tex", "page7"),
    ("ui_tex9.tex", "page9"),
];

/// `ui/hq.cfg`'s sprites: name, page, x, y, width, height (the original's rectangles).
const HQ: [(&str, &str, [u16; 4]); 11] = [
    ("targeter_back", "ui_menu3", [0, 82, 150, 174]),
    ("targeter_range", "ui_menu3", [0, 51, 39, 16]),
    ("targeter_life", "ui_menu", [49, 94, 15, 15]),
    ("targeter_energy", "ui_menu", [113, 126, 15, 15]),
    ("left_shld", "ui_menu3", [192, 82, 26, 79]),
    ("frwd_shld", "ui_menu3", [185, 59, 61, 19]),
    ("back_shld", "ui_menu3", [151, 194, 89, 29]),
    ("top_shld", "ui_menu3", [115, 59, 69, 19]),
    ("bott_shld", "ui_menu3", [150, 224, 105, 31]),
    ("exit_icon", "ui_menu", [241, 70, 13, 13]),
    ("map_compass_icon", "page6", [132, 106, 21, 42]),
];

/// `ui/compaund.cfg`'s pieces on `ui_menu`: name, x, y, width, height, rotate (the
/// demo's places; the frame's corners are one art turned, its edges one art).
const COMPOUND: [(&str, [u16; 4], u16); 18] = [
    ("ccres_ending_text", [0, 0, 5, 19], 0),
    ("ccres_body_text", [6, 0, 8, 19], 0),
    ("ccres_red_lamp", [20, 0, 19, 19], 0),
    ("ccres_yellow1_lamp", [40, 0, 19, 19], 0),
    ("ccres_yellow2_lamp", [60, 0, 19, 19], 0),
    ("ccres_green_lamp", [80, 0, 19, 19], 0),
    ("ccres_black_lamp", [100, 0, 19, 19], 0),
    ("ccres_separator_left_text", [120, 0, 5, 19], 0),
    ("ccres_ray_emitter_off", [126, 0, 10, 19], 0),
    ("ccres_ray_body", [140, 0, 8, 19], 0),
    ("ccres_ray_ending", [150, 0, 6, 19], 0),
    ("ccres_frame_corner_1", [160, 0, 8, 8], 0),
    ("ccres_frame_corner_2", [160, 0, 8, 8], 90),
    ("ccres_frame_corner_3", [160, 0, 8, 8], 180),
    ("ccres_frame_corner_4", [160, 0, 8, 8], 270),
    ("ccres_frame_edge_h", [170, 0, 47, 5], 0),
    ("ccres_frame_edge_v", [170, 0, 47, 5], 90),
    ("ccres_exit_button_normal", [0, 20, 35, 19], 0),
];

/// A page being painted: RGBA rows, top first.
struct Canvas(Vec<u8>);

const WHITE: [u8; 4] = [255, 255, 255, 255];
const GREY: [u8; 4] = [200, 200, 200, 255];

impl Canvas {
    fn new() -> Self {
        Self(vec![0; (PAGE_SIDE * PAGE_SIDE * 4) as usize])
    }

    fn set(&mut self, x: i32, y: i32, c: [u8; 4]) {
        let side = PAGE_SIDE as i32;
        if (0..side).contains(&x) && (0..side).contains(&y) {
            let at = ((y * side + x) * 4) as usize;
            self.0[at..at + 4].copy_from_slice(&c);
        }
    }

    /// Every pixel of `[x, y, w, h]` for which `paint` gives a colour (given the pixel's
    /// place within the rectangle).
    fn area(&mut self, [x, y, w, h]: [u16; 4], paint: impl Fn(f32, f32) -> Option<[u8; 4]>) {
        for dy in 0..h {
            for dx in 0..w {
                if let Some(c) = paint(f32::from(dx) + 0.5, f32::from(dy) + 0.5) {
                    self.set(i32::from(x + dx), i32::from(y + dy), c);
                }
            }
        }
    }

    fn fill(&mut self, rect: [u16; 4], c: [u8; 4]) {
        self.area(rect, |_, _| Some(c));
    }

    /// A ring about `(cx, cy)` (within the rectangle) between radii `r0` and `r1`.
    fn ring(&mut self, rect: [u16; 4], (cx, cy): (f32, f32), (r0, r1): (f32, f32), c: [u8; 4]) {
        self.area(rect, |x, y| {
            let r = (x - cx).hypot(y - cy);
            (r0..=r1).contains(&r).then_some(c)
        });
    }
}

/// A box's pixel at (x, y) of the box [x0, y0, x1, y1]: `edge` within a pixel of its
/// border, else `inside`.
fn boxed((x, y): (f32, f32), [x0, y0, x1, y1]: [f32; 4], edge: [u8; 4], inside: [u8; 4]) -> [u8; 4] {
    let near = |v: f32, a: f32, b: f32| v - a < 1.0 || b - v < 1.0;
    if near(x, x0, x1) || near(y, y0, y1) { edge } else { inside }
}

/// The `ui_menu` page: the compound pieces, the indicators' and the panels' icons, the
/// exit icon.
fn menu() -> Canvas {
    let mut c = Canvas::new();
    let frame = |c: &mut Canvas, rect: [u16; 4], fill: [u8; 4]| {
        let [x, y, w, h] = rect;
        c.fill(rect, [0, 60, 0, 230]);
        c.fill([x + 1, y + 2, w.saturating_sub(2).max(1), h - 4], fill);
    };
    frame(&mut c, [0, 0, 5, 19], [40, 120, 40, 255]);
    frame(&mut c, [6, 0, 8, 19], [20, 70, 20, 255]);
    for (i, lamp) in
        [[230, 40, 40, 255], [230, 200, 40, 255], [250, 240, 120, 255], [60, 230, 60, 255], [20, 20, 20, 255]]
            .into_iter()
            .enumerate()
    {
        let x = 20 + 20 * i as u16;
        c.fill([x, 0, 19, 19], [20, 70, 20, 255]);
        c.ring([x, 0, 19, 19], (9.5, 9.5), (0.0, 6.0), lamp);
    }
    frame(&mut c, [120, 0, 5, 19], [60, 140, 60, 255]);
    frame(&mut c, [126, 0, 10, 19], [30, 90, 30, 255]);
    c.fill([140, 0, 8, 19], [0, 102, 0, 51]);
    c.area([150, 0, 6, 19], |x, y| (x < 6.0 - (y - 9.5).abs() * 0.6).then_some([0, 102, 0, 51]));
    // A frame's corner: its outer edges, 2 wide; an edge: a band 2 wide along its top.
    c.area([160, 0, 8, 8], |x, y| (x < 2.0 || y < 2.0).then_some([120, 220, 120, 255]));
    c.fill([170, 0, 47, 2], [120, 220, 120, 255]);
    // The exit button: a box with its green lamp at the left; its icon, a cross.
    frame(&mut c, [0, 20, 35, 19], [20, 70, 20, 255]);
    c.ring([3, 26, 7, 7], (3.5, 3.5), (0.0, 2.5), [60, 230, 60, 255]);
    c.area([241, 70, 13, 13], |x, y| ((x - y).abs() < 1.5 || (x + y - 13.0).abs() < 1.5).then_some(WHITE));
    // The icons, 15 × 15 each.
    let icon = |c: &mut Canvas, x: u16, y: u16, shape: fn(f32, f32) -> bool| {
        c.area([x, y, 15, 15], |u, v| shape(u - 7.5, v - 7.5).then_some(WHITE));
    };
    icon(&mut c, 97, 126, |x, y| (x + y).abs() < 1.6 || (x - 4.0).hypot(y + 4.0) < 3.0); // a wrench
    icon(&mut c, 238, 222, |x, y| (x / 6.5).powi(2) + (y / 3.5).powi(2) < 1.0 && x.hypot(y) > 1.8); // an eye
    icon(&mut c, 239, 126, |x, y| ((x * 0.7 + y).rem_euclid(4.0) < 1.6) && x.hypot(y) < 7.0); // stripes
    icon(&mut c, 223, 142, |x, y| x.hypot(y + 4.5) < 2.5 || (x.abs() < 2.0 && (-2.0..5.0).contains(&y))); // a figure
    icon(&mut c, 113, 94, |x, y| (x.abs() < 4.0 && y > -2.0) || (x.rem_euclid(2.5) < 1.2 && y > -7.0)); // a palm
    icon(&mut c, 113, 110, |x, y| x.abs() < 5.0 && y.abs() < 5.0 && (x.abs() > 3.0 || y.abs() > 3.0)); // a square
    icon(&mut c, 81, 94, |x, y| (x - y * 0.5).abs() < 1.5 || (x + y * 0.5).abs() < 1.5); // a chevron
    icon(&mut c, 49, 94, |x, y| x.abs() < 1.8 || y.abs() < 1.8); // life: a cross
    icon(&mut c, 113, 126, |x, y| (x + y * 0.4).abs() < 1.6 && y.abs() < 7.0); // energy: a bolt
    c
}

/// The `ui_menu3` page: the target panel's back, box, shields and arc, the radar's
/// icons and the landing warning's.
fn menu3() -> Canvas {
    let mut c = Canvas::new();
    // The panel: a dark dial about the view (its centre 73 across, 73 down), two lamp
    // sockets and the name box.
    c.area([0, 82, 150, 174], |x, y| {
        let r = (x - 73.0).hypot(y - 73.0);
        if (66.0..69.0).contains(&r) {
            Some([60, 200, 60, 230])
        } else if r < 66.0 {
            Some([0, 40, 0, 110])
        } else if y > 148.0 && y < 172.0 && x > 3.0 && x < 143.0 {
            Some(boxed((x, y), [3.0, 149.0, 143.0, 171.0], [60, 200, 60, 230], [0, 30, 0, 200]))
        } else if ((x - 12.5).hypot(y - 112.5) < 9.0) || ((x - 136.5).hypot(y - 112.5) < 9.0) {
            Some([20, 60, 20, 230])
        } else {
            None
        }
    });
    c.area([0, 51, 39, 16], |x, y| Some(boxed((x, y), [0.0, 0.0, 39.0, 16.0], [60, 200, 60, 255], [0, 0, 0, 230])));
    // The shield sectors: grey bands bowed about the dial.
    let band = |c: &mut Canvas, rect: [u16; 4], across: bool| {
        let [_, _, w, h] = rect;
        let (w, h) = (f32::from(w), f32::from(h));
        c.area(rect, |x, y| {
            let (t, d) = if across { (x / w, y / h) } else { (y / h, x / w) };
            let bow = 0.35 * (1.0 - (2.0 * t - 1.0).powi(2));
            (d > bow && d < bow + 0.55).then_some(GREY)
        });
    };
    band(&mut c, [192, 82, 26, 79], false);
    band(&mut c, [185, 59, 61, 19], true);
    band(&mut c, [151, 194, 89, 29], true);
    band(&mut c, [115, 59, 69, 19], true);
    band(&mut c, [150, 224, 105, 31], true);
    // The arc: a hatched crescent, its inner edge on a circle.
    c.area([151, 82, 40, 94], |x, y| {
        let edge = 28.0 - 26.0 * (1.0 - ((y - 47.0) / 47.0).powi(2)).max(0.0).sqrt();
        (x > edge && x < edge + 11.0 && (y as i32) % 3 != 0).then_some(GREY)
    });
    c.area([215, 0, 15, 28], |x, y| ((x - 7.5).abs() < 1.2 || (y < 5.0 && (x - 7.5).abs() < 5.0 - y)).then_some(WHITE)); // altitude: an arrow up
    c.area([199, 0, 15, 28], |x, y| {
        ((x - 7.5).hypot(y - 16.0) < 7.0 && (x - 7.5).hypot(y - 16.0) > 5.0 && y < 17.0).then_some(WHITE)
    }); // speed: a dial
    c.area([180, 27, 15, 15], |x, y| {
        ((x - 7.5).abs() < (y - 1.0) * 0.5 && y < 14.0 && !((x - 7.5).abs() < 1.0 && (6.0..10.0).contains(&y)))
            .then_some(WHITE)
    }); // risk: a warning
    c
}

/// The `page6` page: the radar's disc (its right half), the gauges' strip, the
/// north-and-south arrow, the indicators' three lamps and the satellite map's compass.
fn page6() -> Canvas {
    let mut c = Canvas::new();
    // The disc's centre is its half's left edge, 69 down (the radar's (320, 396) on
    // the layout from (320, 327)); the figures' box below it.
    c.area([155, 0, 100, 153], |x, y| {
        let r = x.hypot(y - 69.0);
        if (60.0..62.5).contains(&r) {
            Some([80, 220, 80, 220])
        } else if r < 60.0 {
            Some(if (r as i32) % 20 == 19 { [40, 140, 40, 160] } else { [0, 30, 0, 150] })
        } else if r < 67.0 {
            Some([20, 70, 20, 200])
        } else if y > 132.0 && y < 150.0 && x < 19.0 {
            Some(boxed((x, y), [-1.0, 133.0, 18.0, 149.0], [80, 220, 80, 220], [0, 0, 0, 220]))
        } else {
            None
        }
    });
    c.area([121, 0, 31, 105], |_, y| ((y as i32) % 4 != 0).then_some(WHITE));
    c.area([192, 154, 9, 11], |x, y| ((x - 4.5).abs() < y * 0.45).then_some(WHITE));
    // The satellite map's compass: a blue triangle up over a green ring over a red one
    // down.
    c.area([132, 106, 21, 42], |x, y| {
        let (u, ring) = ((x - 10.5).abs(), (x - 10.5).hypot(y - 21.0));
        if y < 14.0 && u < y * 0.6 {
            Some([60, 110, 255, 255])
        } else if y > 28.0 && u < (42.0 - y) * 0.6 {
            Some([255, 60, 60, 255])
        } else {
            (4.0..6.0).contains(&ring).then_some([60, 230, 60, 255])
        }
    });
    for (i, lamp) in [[70, 70, 70, 255], WHITE, [255, 60, 60, 255]].into_iter().enumerate() {
        let x = 202 + 18 * i as u16;
        c.area([x, 154, 17, 20], |u, v| Some(boxed((u, v), [0.0, 0.0, 17.0, 20.0], [30, 30, 30, 255], lamp)));
    }
    c
}

/// The `page7` page: the fan the view wedge is cut from, about (192, 64).
fn page7() -> Canvas {
    let mut c = Canvas::new();
    c.area([128, 0, 128, 128], |x, y| {
        let r = (x - 64.0).hypot(y - 64.0);
        (r < 64.0).then(|| [255, 255, 255, (90.0 * (1.0 - r / 64.0)) as u8 + 20])
    });
    c
}

/// The `page9` page: the reticle's circle, corner arc and ruler, the lock's corner.
fn page9() -> Canvas {
    let mut c = Canvas::new();
    c.ring([77, 0, 64, 64], (32.0, 32.0), (29.0, 31.0), WHITE);
    c.ring([54, 28, 23, 23], (23.0, 23.0), (19.0, 21.0), WHITE);
    c.area([168, 0, 82, 15], |x, y| {
        ((6.0..8.0).contains(&y) || ((x as i32) % 10 < 2 && y < 14.0 - (x / 82.0) * 6.0)).then_some(WHITE)
    });
    c.area([0, 32, 9, 9], |x, y| (x < 2.0 || y < 2.0).then_some(WHITE));
    c
}

/// An object-block file of sprites: name, page, rectangle, rotation; `key = value`, as
/// the original's `game_resources.cfg` writes its lines.
fn sprite_file<'a>(sprites: impl Iterator<Item = (&'a str, &'a str, [u16; 4], u16)>) -> Result<Vec<u8>> {
    let mut cfg = BlockCfg::default();
    for (name, page, [x, y, w, h], rotate) in sprites {
        let numbers = [x, y, w, h].map(|v| format!("= {v}"));
        let mut params = vec![
            ("TEXTURE", format!("= {page}")),
            ("OFFSET_X", numbers[0].clone()),
            ("OFFSET_Y", numbers[1].clone()),
            ("WIDTH", numbers[2].clone()),
            ("HEIGHT", numbers[3].clone()),
        ];
        if rotate != 0 {
            params.push(("ROTATE", format!("= {rotate}")));
        }
        let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        cfg.push_block(name, &params)?;
    }
    Ok(cfg.to_bytes())
}

/// Writes `ui/ui.lib`, `ui/game_resources.cfg`, `ui/compaund.cfg` and `ui/hq.cfg`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let mut lib = NresWriter::new();
    for ((entry, _), canvas) in PAGES.iter().zip([menu(), menu3(), page6(), page7(), page9()]) {
        let texm =
            Texm::encode(PAGE_SIDE, PAGE_SIDE, PixelFormat::Argb4444, &[canvas.0], None, DecodeOptions::default())?;
        lib.add(MAGIC, [0, 0, 0], entry.as_bytes(), texm.to_bytes())?;
    }
    tree.add(LIBRARY, lib.to_bytes()?)?;
    let mut resources = BlockCfg::default();
    let indices: Vec<String> = (0..PAGES.len()).map(|i| format!("= {i}")).collect();
    let mut params = vec![("library", "= \"ui\\\\ui.lib\"")];
    params.extend(PAGES.iter().zip(&indices).map(|((_, name), i)| (*name, i.as_str())));
    resources.push_block(TEXTURES, &params)?;
    let entries: Vec<String> = crate::sounds::INTERFACE.iter().map(|(_, entry)| format!("= \"{entry}\"")).collect();
    let mut params = vec![("library", "= \"sounds.lib\"")];
    params.extend(crate::sounds::INTERFACE.iter().zip(&entries).map(|((name, _), e)| (*name, e.as_str())));
    resources.push_block(SOUNDS, &params)?;
    tree.add(GAME_RESOURCES, resources.to_bytes())?;
    tree.add(SPRITE_FILES[0], sprite_file(COMPOUND.iter().map(|(n, r, t)| (*n, "ui_menu", *r, *t)))?)?;
    tree.add(SPRITE_FILES[1], sprite_file(HQ.iter().map(|(n, p, r)| (*n, *p, *r, 0)))?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::config::{TextureNames, sprites};

    #[test]
    fn the_demos_hud_art_reads_back_as_the_original_names_it_and_every_sprite_holds_art() {
        let mut tree = DemoTree::default();
        write(&mut tree).unwrap();
        let file = |path: &str| tree.get(path).unwrap();
        let cfg = BlockCfg::parse(file(GAME_RESOURCES)).unwrap();
        let names = TextureNames::read(&cfg).unwrap();
        assert_eq!(names.library, "ui\\ui.lib");
        let sounds = iron3d_formats::config::SoundNames::read(&cfg);
        assert_eq!(sounds.library, "sounds.lib");
        for (name, entry) in crate::sounds::INTERFACE {
            assert_eq!(sounds.entry(name), Some(entry), "{name} names its sounds.lib entry");
        }
        let lib = iron3d_formats::nres::Nres::parse(file(LIBRARY), Default::default()).unwrap();
        let page = |name: &str| {
            let payload = lib.payload(names.index(name).unwrap()).unwrap();
            Texm::parse(payload).unwrap().decode_level(0, DecodeOptions::default()).unwrap()
        };
        for file_name in SPRITE_FILES {
            for s in sprites(&BlockCfg::parse(file(file_name)).unwrap()).unwrap() {
                let rgba = page(&s.texture);
                let [x, y, w, h] = s.rect.map(|v| v as usize);
                let opaque = (y..y + h)
                    .flat_map(|row| (x..x + w).map(move |col| (row * 256 + col) * 4 + 3))
                    .filter(|&a| rgba[a] > 0)
                    .count();
                assert!(opaque > 0, "{file_name}: {} holds art", s.name);
            }
        }
        let reticle = page("page9");
        assert!(reticle[(32 * 256 + 77 + 2) * 4 + 3] > 0, "the circle's left edge");
    }
}
