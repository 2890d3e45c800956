//! Shared helpers: JSON printing, progress bars, reading options and archive-entry
//! addresses.

use indicatif::{ProgressBar, ProgressStyle};
use iron3d_formats::ReadOptions;
use iron3d_vfs::Address;

/// Prints a value as pretty JSON on standard output.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    print_text(&format!("{}\n", serde_json::to_string_pretty(value)?))
}

/// Whether `e` is standard output closed by its reader (`| head`), which ends the
/// command quietly.
pub fn closed_output(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Writes `text` to standard output; a closed output (`| head`) is an error, not a panic
/// ([`closed_output`]).
pub fn print_text(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(out.flush()?)
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

/// A command-line mistake found after parsing; exits with status 2 like clap's own.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Fails with a [`UsageError`].
pub fn usage<T>(message: impl Into<String>) -> anyhow::Result<T> {
    Err(UsageError(message.into()).into())
}

/// The archive entry a command names: `ARCHIVE::ENTRY` (every command's form), or the
/// older two-argument form `ARCHIVE ENTRY` (`entry` given) where a command still takes it.
/// Returns the archive path and the entry name.
pub fn entry_address(source: &str, entry: Option<String>) -> anyhow::Result<(String, String)> {
    let address = Address::parse(source);
    match (address.entry, entry) {
        (Some(_), Some(extra)) => usage(format!("{source} already names an entry; drop the extra argument {extra:?}")),
        (Some(named), None) => Ok((address.file, named)),
        (None, Some(entry)) => Ok((address.file, entry)),
        (None, None) => usage(format!("{source} names no entry; write ARCHIVE::ENTRY")),
    }
}

/// Strict or compatible options.
pub fn options(strict: bool) -> ReadOptions {
    if strict { ReadOptions::strict() } else { ReadOptions::compatible() }
}

/// Fails when a lossless save `written` is not byte-identical to `input`, naming the
/// first differing byte; `what` names the save (`"FILE: the lossless save"`).
pub fn ensure_identical(written: &[u8], input: &[u8], what: &str) -> anyhow::Result<()> {
    if written == input {
        return Ok(());
    }
    let at = written.iter().zip(input).position(|(a, b)| a != b).unwrap_or(written.len().min(input.len()));
    anyhow::bail!("{what} differs from the input at byte {at} ({} bytes written, {} read)", written.len(), input.len())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_save_that_differs_is_an_error_naming_the_byte() {
        assert!(super::ensure_identical(b"same", b"same", "x").is_ok());
        let message =
            |written: &[u8], input: &[u8]| super::ensure_identical(written, input, "f").err().map(|e| e.to_string());
        assert_eq!(
            message(b"abXd", b"abcd").as_deref(),
            Some("f differs from the input at byte 2 (4 bytes written, 4 read)")
        );
        assert_eq!(
            message(b"ab", b"abc").as_deref(),
            Some("f differs from the input at byte 2 (2 bytes written, 3 read)")
        );
    }
}
