//! Text configuration (`docs/reference/runtime.md` §2, §8): INI-style files with typed views of
//! `Behavior.ini`, `ArealMap.ini` and `Iron_3D.ini`, the object-block grammar of
//! `mission.cfg` and friends, the game's text files (`TextRes.cfg`, briefings,
//! messages, tips), the objectives and message ids scripts name, the weather files and the
//! input layer's tables (`ScanCode.dsc`, `Command.dsc`, the `.man` bindings, the `.tbl`
//! rows) and the interface's art (`ui/game_resources.cfg`'s pages, the sprite files). Every
//! reader is lossless.

pub mod block_cfg;
pub mod game_text;
pub mod goals;
pub mod ini;
pub mod input_names;
pub mod input_tables;
pub mod sky;
pub mod text;
pub mod typed;
pub mod ui_art;

#[cfg(test)]
mod tests;

pub use block_cfg::{BlockCfg, CfgBlock, CfgItem};
pub use game_text::{TextRes, block_texts, tips, tips_file};
pub use ini::{IniFile, IniLine, IniValue, LineKind};
pub use input_tables::{Descriptor, InputEntry, InputFile, InputTable, Label, ManBinding, ManFile, TableRow};
pub use sky::SkySchedule;
pub use typed::{ArealMapIni, BehaviorIni, Iron3dIni, Setting};
pub use ui_art::{InterfaceArt, SoundNames, Sprite, TextureNames, sprites};
