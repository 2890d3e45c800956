//! Shared output helpers: JSON printing, progress bars and reading options.

use iron3d_formats::ReadOptions;
use indicatif::{ProgressBar, ProgressStyle};

/// Prints a value as pretty JSON on standard output.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// A progress bar on standard error for `len` steps (hidden when not a terminal).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:40} {pos}/{len}") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

/// Strict or compatible options.
pub fn options(strict: bool) -> ReadOptions {
    if strict { ReadOptions::strict() } else { ReadOptions::compatible() }
}
