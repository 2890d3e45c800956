//! The user's own files, never inside the game directory: campaign progress in the data
//! directory, settings and key bindings in the config directory. `IRON3D_USER_DIR`
//! overrides both (tests and portable installs). Files are RON with a `version` the
//! reader checks, and are written through a temporary file and a rename, so a crash
//! never leaves half a file.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

fn var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The user's data directory for iron3d: `IRON3D_USER_DIR`, else the platform's
/// (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on
/// macOS, `%APPDATA%` on Windows) joined with `iron3d`.
pub fn data_dir() -> Option<PathBuf> {
    var("IRON3D_USER_DIR").or_else(|| platform_dir("XDG_DATA_HOME", ".local/share").map(|b| b.join("iron3d")))
}

/// The user's config directory for iron3d: `IRON3D_USER_DIR`, else the platform's
/// (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on
/// macOS, `%APPDATA%` on Windows) joined with `iron3d`.
pub fn config_dir() -> Option<PathBuf> {
    var("IRON3D_USER_DIR").or_else(|| platform_dir("XDG_CONFIG_HOME", ".config").map(|b| b.join("iron3d")))
}

fn platform_dir(xdg: &str, home_relative: &str) -> Option<PathBuf> {
    if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        var(xdg).or_else(|| var("HOME").map(|h| h.join(home_relative)))
    }
}

/// A user file with a format version.
pub trait Versioned: Serialize + DeserializeOwned {
    /// The version this build reads and writes.
    const VERSION: u32;
    /// The version of this value (as read).
    fn version(&self) -> u32;
    /// Brings a value read from an older version up to [`Versioned::VERSION`] (named
    /// migrations, one per older version); the default knows no older version.
    ///
    /// # Errors
    /// The older version cannot be migrated.
    fn migrate(&mut self) -> Result<(), String> {
        Err(format!("version {} cannot be migrated", self.version()))
    }
}

/// Reads a user file: `Ok(None)` when it does not exist yet; an older version is
/// migrated ([`Versioned::migrate`]).
///
/// # Errors
/// The file exists but cannot be read, is not valid RON for `T`, or has another
/// version; the message names the file.
pub fn read<T: Versioned>(path: &Path) -> Result<Option<T>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut value: T = ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if value.version() < T::VERSION {
        value.migrate().map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if value.version() != T::VERSION {
        return Err(format!("{}: version {}, this build reads {}", path.display(), value.version(), T::VERSION));
    }
    Ok(Some(value))
}

/// Writes a user file (creating its directory) through a temporary file and a rename.
///
/// # Errors
/// The directory or file cannot be written; the message names the file.
pub fn write<T: Versioned>(path: &Path, value: &T) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, text).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Sample {
        version: u32,
        value: i32,
    }

    impl Versioned for Sample {
        const VERSION: u32 = 2;
        fn version(&self) -> u32 {
            self.version
        }
    }

    #[test]
    fn files_round_trip_and_other_versions_are_named() {
        let dir = std::env::temp_dir().join(format!("iron3d-user-files-{}", std::process::id()));
        let path = dir.join("nested/sample.ron");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read::<Sample>(&path), Ok(None), "a missing file is no error");
        write(&path, &Sample { version: 2, value: 7 }).unwrap();
        assert_eq!(read::<Sample>(&path), Ok(Some(Sample { version: 2, value: 7 })));
        assert!(!dir.join("nested/sample.ron.tmp").exists(), "the temporary file is renamed");
        std::fs::write(&path, "(version: 1, value: 7)").unwrap();
        let e = read::<Sample>(&path).unwrap_err();
        assert!(e.contains("version 1") && e.contains("sample.ron"), "{e}");
        std::fs::write(&path, "(version: 2").unwrap();
        assert!(read::<Sample>(&path).unwrap_err().contains("sample.ron"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
