//! The interface's art as the original names it (openparkan `docs/35-hud.md`, read and
//! measured): `ui/game_resources.cfg`'s `textures` block names the pages of its
//! `library` (`ui\ui.lib`, each entry a 256 × 256 `Texm`) by entry index (`page9 = …`,
//! `ui_menu = …`), and the sprite files (`ui/compaund.cfg`, `ui/hq.cfg`) cut named
//! sprites from those pages: each `object` block with a `texture`, an `offset_x`,
//! `offset_y`, `width`, `height` and an optional `rotate` (90, 180 or 270), its keys in
//! any case. Both are object-block files ([`super::BlockCfg`]), kept as stored.
//!
//! The same file's `sounds` block names the interface's sounds (`TARGET_ZOOM`,
//! `TARGET_READY`, `RADAR`, read: the names the HUD plays) by the entries of its library
//! (`sounds.lib`): the block's lines are not published, so the project reads each
//! parameter but `library`, `type` and `libtype` as a sound name and its entry's name
//! ([`SoundNames`]).

use super::goals::value_text;
use super::text::decode;
use super::{BlockCfg, CfgBlock};
use crate::error::{Error, Result};

/// The file naming the interface's pages.
pub const GAME_RESOURCES: &str = "ui/game_resources.cfg";
/// The block of [`GAME_RESOURCES`] naming them.
pub const TEXTURES: &str = "textures";
/// The sprite files, in the order the game reads them (a later name wins).
pub const SPRITE_FILES: [&str; 2] = ["ui/compaund.cfg", "ui/hq.cfg"];
/// The side of a page (the cut's divisor, `iron3d.dll:0x1008f830`).
pub const PAGE_SIDE: u32 = 256;

/// The `textures` block: its library and each page name's entry index in it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextureNames {
    /// The library, its `\\` read as one separator (`ui\ui.lib`).
    pub library: String,
    /// Page names (lower case) and entry indices, in file order.
    pub pages: Vec<(String, usize)>,
}

impl TextureNames {
    /// Reads the `textures` block of a `game_resources.cfg`: every parameter whose value
    /// is a whole number, but `type` and `libtype`, names a page.
    pub fn read(cfg: &BlockCfg) -> Result<Self> {
        let block = cfg.block(TEXTURES).ok_or_else(|| Error::rule("ui_no_textures", "no `textures` block"))?;
        let library = library(block)
            .filter(|l| !l.is_empty())
            .ok_or_else(|| Error::rule("ui_no_library", "the `textures` block names no library"))?;
        let pages = named(block).filter_map(|(k, v)| Some((k.to_ascii_lowercase(), v.parse().ok()?))).collect();
        Ok(Self { library, pages })
    }

    /// The entry index of page `name` (any case).
    pub fn index(&self, name: &str) -> Option<usize> {
        self.pages.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|p| p.1)
    }
}

/// The block of [`GAME_RESOURCES`] naming the interface's sounds.
pub const SOUNDS: &str = "sounds";

/// The `sounds` block: its library and each sound's entry in it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SoundNames {
    /// The library as named (empty: the mission's sound library).
    pub library: String,
    /// Sound names (upper case) and entry names, in file order.
    pub sounds: Vec<(String, String)>,
}

impl SoundNames {
    /// Reads the `sounds` block of a `game_resources.cfg`; none without one.
    pub fn read(cfg: &BlockCfg) -> Self {
        let Some(block) = cfg.block(SOUNDS) else { return Self::default() };
        let sounds =
            named(block).map(|(k, v)| (k.to_ascii_uppercase(), v)).filter(|(_, entry)| !entry.is_empty()).collect();
        Self { library: library(block).unwrap_or_default(), sounds }
    }

    /// The entry of sound `name` (any case).
    pub fn entry(&self, name: &str) -> Option<&str> {
        self.sounds.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|s| s.1.as_str())
    }
}

/// A resource block's library, its `\\` read as one separator (`ui\ui.lib`).
fn library(block: &CfgBlock) -> Option<String> {
    block.library().map(|v| decode(value_text(v)).replace("\\\\", "\\"))
}

/// A resource block's names and values (decoded): every parameter but `type`, `libtype`
/// and `library`.
fn named(block: &CfgBlock) -> impl Iterator<Item = (String, String)> + '_ {
    block
        .params()
        .filter(|(k, _)| !["type", "libtype", "library"].iter().any(|w| k.eq_ignore_ascii_case(w.as_bytes())))
        .map(|(k, v)| (decode(k), decode(value_text(v))))
}

/// A sprite: a rectangle of a page, turned by quarter turns.
#[derive(Debug, Clone, PartialEq)]
pub struct Sprite {
    /// Its name (lower case).
    pub name: String,
    /// The page it is cut from (a [`TextureNames`] name, lower case).
    pub texture: String,
    /// x, y, width, height on the page (pixels).
    pub rect: [f32; 4],
    /// Quarter turns of its corners (`rotate` ÷ 90).
    pub turns: u8,
}

/// The sprites of a sprite file: every block with a `texture`. A block naming a texture
/// without its four numbers, or with a number that is none, is refused naming the block
/// and the key.
pub fn sprites(cfg: &BlockCfg) -> Result<Vec<Sprite>> {
    let mut out = Vec::new();
    for block in cfg.blocks() {
        let Some(texture) = block.param("texture") else { continue };
        let name = decode(block.name());
        let number = |key: &str| -> Result<Option<f32>> {
            block
                .param(key)
                .map(|v| {
                    decode(value_text(v))
                        .trim()
                        .parse::<f32>()
                        .map_err(|_| Error::rule("ui_sprite_number", format!("sprite {name}: `{key}` is not a number")))
                })
                .transpose()
        };
        let need = |key: &str| {
            number(key)?.ok_or_else(|| Error::rule("ui_sprite_missing", format!("sprite {name}: no `{key}`")))
        };
        let rect = [need("offset_x")?, need("offset_y")?, need("width")?, need("height")?];
        let turns = match number("rotate")?.unwrap_or(0.0) as i32 {
            r @ (0 | 90 | 180 | 270) => (r / 90) as u8,
            r => {
                return Err(Error::rule(
                    "ui_sprite_rotate",
                    format!("sprite {name}: `rotate` {r} is not 0, 90, 180 or 270"),
                ));
            }
        };
        out.push(Sprite {
            name: name.to_ascii_lowercase(),
            texture: decode(value_text(texture)).to_ascii_lowercase(),
            rect,
            turns,
        });
    }
    Ok(out)
}

/// A page of art, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Its `game_resources.cfg` name (lower case).
    pub name: String,
    /// Width and height (pixels).
    pub size: [u32; 2],
    /// RGBA rows, top first.
    pub rgba: Vec<u8>,
}

/// The interface's art: the named pages and every sprite of the sprite files.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InterfaceArt {
    /// The pages, in `game_resources.cfg`'s order.
    pub pages: Vec<Page>,
    /// The sprites, in file order (a sprite may name a page of another resource file).
    pub sprites: Vec<Sprite>,
    /// The sounds [`GAME_RESOURCES`] names.
    pub sounds: SoundNames,
}

impl InterfaceArt {
    /// Reads [`GAME_RESOURCES`], its library's pages and the [`SPRITE_FILES`] through
    /// `read` (a game path's bytes); an error names the file and, for a page, its name
    /// and entry.
    pub fn read(read: impl Fn(&str) -> Result<std::sync::Arc<[u8]>>) -> Result<Self> {
        let cfg = |path: &str| read(path).and_then(|b| BlockCfg::parse(&b)).map_err(|e| e.in_file(path));
        let resources = cfg(GAME_RESOURCES)?;
        let names = TextureNames::read(&resources).map_err(|e| e.in_file(GAME_RESOURCES))?;
        let library = names.library.replace('\\', "/");
        let bytes = read(&library).map_err(|e| e.in_file(GAME_RESOURCES))?;
        let archive =
            crate::nres::Nres::parse(&bytes, crate::ReadOptions::default()).map_err(|e| e.in_file(library.clone()))?;
        let mut pages = Vec::new();
        for (name, index) in &names.pages {
            let in_page = |e: Error| e.in_entry(format!("{index} (page {name})")).in_file(library.clone());
            let payload = archive
                .payload(*index)
                .ok_or_else(|| Error::rule("ui_no_page", format!("{library} has {} entries", archive.entries().len())));
            let texm = crate::model::texm::Texm::parse(payload.map_err(in_page)?).map_err(in_page)?;
            let rgba = texm.decode_level(0, crate::model::texm::DecodeOptions::default()).map_err(in_page)?;
            pages.push(Page { name: name.clone(), size: [texm.header.width, texm.header.height], rgba });
        }
        let mut all = Vec::new();
        for file in SPRITE_FILES {
            all.extend(sprites(&cfg(file)?).map_err(|e| e.in_file(file))?);
        }
        Ok(Self { pages, sprites: all, sounds: SoundNames::read(&resources) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_textures_block_names_pages_by_entry_index_and_its_library_by_path() {
        let text = b"; the interface\r\nobject textures\r\n  library = \"ui\\\\ui.lib\"\r\n  type = 3\r\n  page9 = 12\r\n  UI_MENU = 10\r\n  desc = \"art\"\r\nend\r\n";
        let cfg = BlockCfg::parse(text).unwrap();
        let names = TextureNames::read(&cfg).unwrap();
        assert_eq!(names.library, "ui\\ui.lib");
        assert_eq!(names.pages, vec![("page9".to_string(), 12), ("ui_menu".to_string(), 10)]);
        assert_eq!(names.index("Ui_Menu"), Some(10));
        assert_eq!(cfg.to_bytes(), text, "kept as stored");
        let none = BlockCfg::parse(b"object sounds\r\nlibrary = \"sounds.lib\"\r\nend\r\n").unwrap();
        assert!(TextureNames::read(&none).unwrap_err().to_string().contains("no `textures` block"));
        assert_eq!(SoundNames::read(&cfg), SoundNames::default(), "no `sounds` block: no sounds");
    }

    #[test]
    fn the_sounds_block_names_each_sound_by_its_entry() {
        let cfg = BlockCfg::parse(
            b"object SOUNDS\r\n  library = \"sounds.lib\"\r\n  libtype = 1\r\n  target_zoom = \"i_trg_zoom.wav\"\r\n  RADAR = i_radar.wav\r\nend\r\n",
        )
        .unwrap();
        let names = SoundNames::read(&cfg);
        assert_eq!(names.library, "sounds.lib");
        assert_eq!(
            names.sounds,
            vec![("TARGET_ZOOM".into(), "i_trg_zoom.wav".into()), ("RADAR".into(), "i_radar.wav".into())]
        );
        assert_eq!(names.entry("Target_Zoom"), Some("i_trg_zoom.wav"));
        assert_eq!(names.entry("TARGET_READY"), None);
    }

    #[test]
    fn sprites_are_cut_by_their_four_numbers_and_turned_by_quarters() {
        let cfg = BlockCfg::parse(
            b"object targeter_back\r\nTEXTURE = ui_menu3\r\nOFFSET_X = 0\r\nOFFSET_Y = 82\r\nWIDTH = 150\r\nHEIGHT = 174\r\nend\r\n\
object edge\r\ntexture ui_menu\r\noffset_x 1\r\noffset_y 2\r\nwidth 47\r\nheight 5\r\nrotate 90\r\nend\r\n\
object cursor\r\nframes 4\r\nend\r\n",
        )
        .unwrap();
        let got = sprites(&cfg).unwrap();
        assert_eq!(got.len(), 2, "a block without a texture is no sprite");
        assert_eq!(
            got[0],
            Sprite {
                name: "targeter_back".into(),
                texture: "ui_menu3".into(),
                rect: [0.0, 82.0, 150.0, 174.0],
                turns: 0
            }
        );
        assert_eq!(got[1].turns, 1);
        let bad =
            BlockCfg::parse(b"object a\r\ntexture p\r\noffset_x 1\r\noffset_y 2\r\nwidth w\r\nheight 5\r\nend\r\n")
                .unwrap();
        assert!(sprites(&bad).unwrap_err().to_string().contains("sprite a: `width` is not a number"));
        let short = BlockCfg::parse(b"object b\r\ntexture p\r\noffset_x 1\r\nend\r\n").unwrap();
        assert!(sprites(&short).unwrap_err().to_string().contains("sprite b: no `offset_y`"));
        let turned = BlockCfg::parse(
            b"object c\r\ntexture p\r\noffset_x 1\r\noffset_y 2\r\nwidth 3\r\nheight 4\r\nrotate 45\r\nend\r\n",
        )
        .unwrap();
        assert!(sprites(&turned).unwrap_err().to_string().contains("`rotate` 45"));
    }
}
