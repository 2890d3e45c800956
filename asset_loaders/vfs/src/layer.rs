//! Layered game data: an ordered stack of directories read as one tree (the model is
//! OpenMW's `data=` list). The project's own data is at the bottom, then the game
//! directory, then each mod in the order given; a higher layer replaces a file by its
//! (case-insensitive) path, adds files, and an archive of the same path in a higher layer
//! serves the entries it holds while the lower ones serve the rest.
//!
//! Each layer has a content fingerprint (see [`LayerStamp`]) so that a run can record
//! exactly which data it was made with.

use iron3d_formats::{Error, ErrorKind, Result};
use std::fmt;
use std::path::{Path, PathBuf};

/// What a layer is; decides its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerKind {
    /// The project's own data (the rules file), shipped with the binaries.
    Project,
    /// The game directory: an installed copy of the original, or the demo tree.
    Game,
    /// A mod directory (`--mod DIR`).
    Mod,
}

/// One directory of the stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// What it is.
    pub kind: LayerKind,
    /// Its directory.
    pub root: PathBuf,
}

impl Layer {
    /// A layer of `kind` at `root`.
    pub fn new(kind: LayerKind, root: impl Into<PathBuf>) -> Self {
        Self { kind, root: root.into() }
    }

    /// The name recorded for this layer, the same on every machine: `project`, `game`,
    /// or `mod:` and the mod directory's own name.
    pub fn name(&self) -> String {
        match self.kind {
            LayerKind::Project => "project".into(),
            LayerKind::Game => "game".into(),
            LayerKind::Mod => {
                let dir = self.root.file_name().unwrap_or(self.root.as_os_str());
                format!("mod:{}", dir.to_string_lossy())
            }
        }
    }

    /// Refuses a layer that is not a readable directory, naming it.
    pub(crate) fn check(&self) -> Result<()> {
        let located = |what: String| {
            Error::new(ErrorKind::NotFound(what)).in_file(format!("layer {} ({})", self.name(), self.root.display()))
        };
        match std::fs::metadata(&self.root) {
            Ok(m) if m.is_dir() => {
                std::fs::read_dir(&self.root).map_err(|e| located(format!("cannot be read: {e}")))?;
                Ok(())
            }
            Ok(_) => Err(located("is not a directory".into())),
            Err(e) => Err(located(format!("does not exist or cannot be read: {e}"))),
        }
    }
}

/// A layer's name and content fingerprint, as recorded with a run (state hash seed,
/// session records, multiplayer admission).
///
/// The fingerprint is the first 64 bits of a BLAKE3 hash over the layer's own files in
/// folded-path order: for each, its folded path, a NUL, its size (`u64` LE) and its bytes.
/// Content, not modification times, so that two machines with the same files agree. It is
/// computed once per [`crate::GameDir`], on first use (hashing reads every byte of the
/// layer: about 1 GB for an installed original; measured 512 MiB in 1.7 s, 300 MiB/s, on
/// a loaded 2-core machine, so a few seconds once per process for an install).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayerStamp {
    /// [`Layer::name`].
    pub name: String,
    /// The content fingerprint.
    pub fingerprint: u64,
}

impl fmt::Display for LayerStamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:016x}", self.name, self.fingerprint)
    }
}

/// The fingerprint of the files `(folded path, real path)` in that order.
pub(crate) fn fingerprint<'a>(files: impl Iterator<Item = (&'a str, PathBuf)>) -> Result<u64> {
    let mut hasher = blake3::Hasher::new();
    for (key, path) in files {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(path.display().to_string());
        let file = std::fs::File::open(&path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        hasher.update(key.as_bytes()).update(&[0]).update(&size.to_le_bytes());
        hasher.update_reader(file).map_err(io)?;
    }
    let mut first = [0u8; 8];
    first.copy_from_slice(&hasher.finalize().as_bytes()[..8]);
    Ok(u64::from_le_bytes(first))
}

/// The project's data shipped in the source checkout (compiled in; tried last).
pub const CHECKOUT_PROJECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/rules");

/// Where the project's own data layer may be, in order: `rules/` beside the executable
/// (an unpacked release), `../share/iron3d/rules` from its directory (an installed
/// release), the source checkout's `assets/rules` — found like the demo.
pub fn project_candidates(exe: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = exe.and_then(Path::parent) {
        out.push(dir.join("rules"));
        out.push(dir.join("../share/iron3d/rules"));
    }
    out.push(PathBuf::from(CHECKOUT_PROJECT));
    out
}

/// The project's own data layer of this process: the first of [`project_candidates`]
/// that is a directory.
///
/// # Errors
/// None exists; the error names every place tried.
pub fn project_layer() -> Result<Layer> {
    let exe = std::env::current_exe().ok();
    let tried = project_candidates(exe.as_deref());
    match tried.iter().find(|p| p.is_dir()) {
        Some(dir) => Ok(Layer::new(LayerKind::Project, dir)),
        None => {
            let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
            Err(Error::new(ErrorKind::NotFound(format!(
                "the project's data layer (the rules directory); tried {}",
                places.join(", ")
            ))))
        }
    }
}

/// The standard stack: the project's own data, the game directory `game`, then each mod
/// in the order given (a later one wins).
///
/// # Errors
/// The project's data is not found.
pub fn standard_stack(game: &Path, mods: &[PathBuf]) -> Result<Vec<Layer>> {
    let mut out = vec![project_layer()?, Layer::new(LayerKind::Game, game)];
    out.extend(mods.iter().map(|m| Layer::new(LayerKind::Mod, m)));
    Ok(out)
}

#[cfg(test)]
mod tests;
