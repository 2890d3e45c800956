//! The rules file of the mission's data: [`iron3d_rules::FILE_NAME`] from the top layer
//! that has it (a mod or a game directory may replace the project's), read and checked
//! once per load, published as `iron3d_core::GameRules`.

use iron3d_core::GameRules;
use iron3d_formats::{Error, Result};
use iron3d_rules::{FILE_NAME, Rules};
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// The rules of `game`: its rules file, or the built-in copy when no layer has one
/// (data opened without the project's layer).
///
/// # Errors
/// The file cannot be read, is not UTF-8, or fails the rules reader's checks; the
/// message names the file and the layer it came from.
pub fn game_rules(game: &GameDir) -> Result<GameRules> {
    if game.resolve(FILE_NAME).is_none() {
        let rules = Rules::shipped().map_err(|e| Error::rule("rules", e.to_string()))?;
        return Ok(GameRules { rules: Arc::new(rules), source: "built-in".into() });
    }
    let source = match game.layer_of(FILE_NAME) {
        Some(layer) => format!("{FILE_NAME} (layer {layer})"),
        None => FILE_NAME.into(),
    };
    let bytes = game.read_file(FILE_NAME)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| Error::rule("rules", format!("not UTF-8 at byte {}", e.valid_up_to())).in_file(source.clone()))?;
    let rules = Rules::parse(&source, text).map_err(|e| Error::rule("rules", e.to_string()))?;
    Ok(GameRules { rules: Arc::new(rules), source })
}
