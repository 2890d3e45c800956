//! The rules file of the mission's data: [`iron3d_rules::FILE_NAME`] from the top layer
//! that has it (a mod or a game directory may replace the project's), and the data's cue
//! table ([`iron3d_rules::CUES_FILE`]), read and checked once per load, published as
//! `iron3d_core::GameRules`.

use iron3d_core::GameRules;
use iron3d_formats::{Error, Result};
use iron3d_rules::{CUES_FILE, Cues, FILE_NAME, Rules};
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// The rules of `game`: its rules file, or the built-in copy when no layer has one
/// (data opened without the project's layer).
///
/// # Errors
/// The file cannot be read, is not UTF-8, or fails the rules reader's checks; the
/// message names the file and the layer it came from.
pub fn game_rules(game: &GameDir) -> Result<GameRules> {
    let cues = match read(game, CUES_FILE)? {
        Some((source, text)) => Cues::parse(&source, &text).map_err(|e| Error::rule("cues", e.to_string()))?,
        None => {
            tracing::info!(target: "mission", "no {CUES_FILE} in the data: events play no effect or sample of their own");
            Cues::default()
        }
    };
    let cues = Arc::new(cues);
    let Some((source, text)) = read(game, FILE_NAME)? else {
        let rules = Rules::shipped().map_err(|e| Error::rule("rules", e.to_string()))?;
        return Ok(GameRules { rules: Arc::new(rules), source: "built-in".into(), cues });
    };
    let rules = Rules::parse(&source, &text).map_err(|e| Error::rule("rules", e.to_string()))?;
    Ok(GameRules { rules: Arc::new(rules), source, cues })
}

/// The text of `file` with its name and layer for messages, if the data has it.
fn read(game: &GameDir, file: &str) -> Result<Option<(String, String)>> {
    if game.resolve(file).is_none() {
        return Ok(None);
    }
    let source = match game.layer_of(file) {
        Some(layer) => format!("{file} (layer {layer})"),
        None => file.into(),
    };
    let bytes = game.read_file(file)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::rule("rules", format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to())).in_file(source.clone())
    })?;
    Ok(Some((source, text)))
}
