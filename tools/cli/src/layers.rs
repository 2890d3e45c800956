//! `--mod DIR`: the commands that read a game directory read the project's own data, the
//! game directory, then each mod in the order given, as one tree (`iron3d_vfs::layer`);
//! their JSON names the layers and where each file came from.

use anyhow::Context;
use clap::Args;
use iron3d_formats::registry::ResourceIndex;
use iron3d_formats::world::GameFiles;
use iron3d_formats::{ReadOptions, Result};
use iron3d_vfs::{GameDir, fold_path, layer};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The mod directories of a command.
#[derive(Args, Debug, Clone, Default)]
pub struct Mods {
    /// A mod directory laid over the game directory: its files replace the game's of the
    /// same path (any case) or add to them, an archive of the same path serves the
    /// entries it holds. Repeatable; a later mod wins.
    #[arg(long = "mod", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
}

impl Mods {
    /// The project's data, `game_dir`, then the mods, opened as one tree; a layer that
    /// does not exist or cannot be read is an error naming it.
    pub fn open(&self, game_dir: &Path) -> anyhow::Result<GameDir> {
        let stack = layer::standard_stack(game_dir, &self.mods)?;
        GameDir::open_layers(&stack, ReadOptions::compatible())
            .with_context(|| format!("opening {}", game_dir.display()))
    }
}

/// `[{"name", "root", "fingerprint"}]`, bottom first.
pub fn layers_json(game: &GameDir) -> anyhow::Result<Value> {
    let stamps = game.stamps()?;
    Ok(game
        .layers()
        .iter()
        .zip(stamps)
        .map(|(l, s)| json!({"name": s.name, "root": l.root.display().to_string(), "fingerprint": format!("{:016x}", s.fingerprint)}))
        .collect())
}

/// `{"file", "layer", "layers"}`: the layer serving a game path and every layer holding
/// it (bottom first; more than one when a file is replaced or an archive overlaid).
pub fn file_json(game: &GameDir, file: &str) -> Value {
    json!({"file": file, "layer": game.layer_of(file), "layers": game.layers_of(file)})
}

/// An archive file of one layer.
pub struct LayerArchive {
    /// The layer's name.
    pub layer: String,
    /// The file on disk.
    pub path: PathBuf,
    /// Its path inside the layer, as the layer spells it (errors name it).
    pub name: String,
}

/// Every layer's own archives (files starting with an NRes or RsLi magic), replaced or
/// not: a lower archive still serves the entries a higher one of the same path does not
/// hold. Bottom layer first, each in index order.
pub fn layer_archives(game: &GameDir) -> Vec<LayerArchive> {
    game.layers()
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| {
            game.index().layer_files(i).map(move |(_, rel)| LayerArchive {
                layer: layer.name(),
                path: layer.root.join(rel),
                name: rel.display().to_string(),
            })
        })
        .filter(|a| is_archive(&a.path))
        .collect()
}

/// True when the file starts with an NRes or RsLi magic.
fn is_archive(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok()
        && (magic == *b"NRes" || magic == *b"NL\0\x01")
}

/// A game tree that remembers every file read from it (loose files and archives).
pub struct Recorded<'a> {
    game: &'a GameDir,
    read: Mutex<BTreeSet<String>>,
}

impl<'a> Recorded<'a> {
    /// Records reads of `game`.
    pub fn new(game: &'a GameDir) -> Self {
        Self { game, read: Mutex::default() }
    }

    fn note(&self, path: &str) {
        self.read.lock().unwrap_or_else(PoisonError::into_inner).insert(fold_path(path));
    }

    /// [`file_json`] of every file read, sorted by folded path.
    pub fn files_json(&self) -> Value {
        let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        read.iter().filter(|f| self.game.resolve(f).is_some()).map(|f| file_json(self.game, f)).collect()
    }
}

impl ResourceIndex for Recorded<'_> {
    fn has_archive(&self, archive: &str) -> bool {
        self.game.has_archive(archive)
    }

    fn has_entry(&self, archive: &str, entry: &str) -> bool {
        let found = self.game.has_entry(archive, entry);
        if found {
            self.note(archive);
        }
        found
    }
}

impl GameFiles for Recorded<'_> {
    fn load_file(&self, path: &str) -> Result<Arc<[u8]>> {
        self.note(path);
        self.game.load_file(path)
    }

    fn load_entry(&self, archive: &str, entry: &str) -> Result<Arc<[u8]>> {
        self.note(archive);
        self.game.load_entry(archive, entry)
    }
}
