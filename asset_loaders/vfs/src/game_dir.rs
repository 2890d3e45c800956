//! The game directory: resolves game paths and addresses over its layers (see
//! [`crate::layer`]), and owns the caches.

use crate::archive::Archive;
use crate::dir_index::DirIndex;
use crate::layer::{Layer, LayerKind, LayerStamp};
use crate::path::{Address, fold_path};
use iron3d_formats::registry::ResourceIndex;
use iron3d_formats::{Error, ErrorKind, ReadOptions, Result};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

type Shared = Arc<dyn Any + Send + Sync>;
/// Decoded entries by (folded archive path, lower-cased entry name).
type BlobCache = HashMap<(String, String), Arc<[u8]>>;

/// An installed (or generated) game tree, possibly as a stack of layers read as one
/// tree. All caches are shared and thread-safe: open archives by folded path, the
/// directory index, decoded entry blobs by `(archive, entry)`, and parsed assets by key
/// and type.
pub struct GameDir {
    root: PathBuf,
    layers: Vec<Layer>,
    stamps: OnceLock<Result<Vec<LayerStamp>>>,
    options: ReadOptions,
    index: DirIndex,
    archives: Mutex<HashMap<String, Arc<Archive>>>,
    blobs: Mutex<BlobCache>,
    assets: Mutex<HashMap<(String, std::any::TypeId), Shared>>,
}

impl std::fmt::Debug for GameDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDir")
            .field("layers", &self.layers)
            .field("files", &self.index.len())
            .finish_non_exhaustive()
    }
}

fn not_found(what: String) -> Error {
    Error::new(ErrorKind::NotFound(what))
}

impl GameDir {
    /// Opens the tree at `root` (one [`LayerKind::Game`] layer), indexing every file once.
    pub fn open(root: impl Into<PathBuf>, options: ReadOptions) -> Result<Self> {
        Self::open_layers(&[Layer::new(LayerKind::Game, root)], options)
    }

    /// Opens a stack of layers, bottom first, as one tree (see [`crate::layer`]),
    /// indexing every file once.
    ///
    /// # Errors
    /// An empty stack, or a layer that does not exist or cannot be read (named).
    pub fn open_layers(layers: &[Layer], options: ReadOptions) -> Result<Self> {
        layers.iter().try_for_each(Layer::check)?;
        let root = layers
            .iter()
            .rfind(|l| l.kind == LayerKind::Game)
            .or(layers.last())
            .map(|l| l.root.clone())
            .ok_or_else(|| Error::rule("no_layers", "a game directory needs at least one layer"))?;
        let roots: Vec<&Path> = layers.iter().map(|l| l.root.as_path()).collect();
        let index = DirIndex::build_layers(&roots)?;
        Ok(Self {
            root,
            layers: layers.to_vec(),
            stamps: OnceLock::new(),
            options,
            index,
            archives: Mutex::default(),
            blobs: Mutex::default(),
            assets: Mutex::default(),
        })
    }

    /// The root folder of the game directory layer (of the highest layer when the stack
    /// has none). A file's real place is [`GameDir::resolve`]'s answer.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The layers, bottom first.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Each layer's name and content fingerprint, bottom first (computed on the first
    /// call: every byte of every layer is read once).
    ///
    /// # Errors
    /// A file of a layer cannot be read.
    pub fn stamps(&self) -> Result<Vec<LayerStamp>> {
        self.stamps
            .get_or_init(|| {
                self.layers
                    .iter()
                    .enumerate()
                    .map(|(i, layer)| {
                        let files = self.index.layer_files(i).map(|(key, rel)| (key, layer.root.join(rel)));
                        let fingerprint = crate::layer::fingerprint(files)
                            .map_err(|e| e.in_file(format!("layer {}", layer.name())))?;
                        Ok(LayerStamp { name: layer.name(), fingerprint })
                    })
                    .collect()
            })
            .clone()
    }

    /// The name of the layer serving a game path (a loose file or an archive).
    pub fn layer_of(&self, game_path: &str) -> Option<String> {
        self.layers_of(game_path).pop()
    }

    /// The names of every layer holding a game path, bottom first: the last one serves
    /// it; an archive is the overlay of them all.
    pub fn layers_of(&self, game_path: &str) -> Vec<String> {
        let Some(key) = self.key_of(game_path) else { return Vec::new() };
        self.index.holders(&key).iter().filter_map(|(l, _)| self.layers.get(*l)).map(Layer::name).collect()
    }

    /// The reading options archives are opened with.
    pub fn options(&self) -> ReadOptions {
        self.options
    }

    /// The directory index.
    pub fn index(&self) -> &DirIndex {
        &self.index
    }

    /// The real path of a game path (any case, `\` or `/`) in the highest layer holding
    /// it; an archive named by file name alone is also found anywhere in the tree when
    /// that name is unique.
    pub fn resolve(&self, game_path: &str) -> Option<PathBuf> {
        let key = self.key_of(game_path)?;
        let (layer, rel) = self.index.holders(&key).last()?;
        self.layers.get(*layer).map(|l| l.root.join(rel))
    }

    /// The folded index key a game path is served under.
    fn key_of(&self, game_path: &str) -> Option<String> {
        let key = fold_path(game_path);
        if !self.index.holders(&key).is_empty() {
            return Some(key);
        }
        if key.contains('/') {
            return None;
        }
        match self.index.by_file_name(game_path) {
            [only] => Some(only.clone()),
            _ => None,
        }
    }

    /// Reads a loose file.
    pub fn read_file(&self, game_path: &str) -> Result<Vec<u8>> {
        let path = self.resolve(game_path).ok_or_else(|| not_found(format!("file {game_path}")))?;
        std::fs::read(&path).map_err(|e| Error::new(ErrorKind::Io(e.to_string())).in_file(game_path.to_string()))
    }

    /// Opens an archive (shared: one open per folded path). When several layers hold
    /// it, the archive served is their overlay (see [`crate::layer`]).
    pub fn archive(&self, game_path: &str) -> Result<Arc<Archive>> {
        let key = self.key_of(game_path).ok_or_else(|| not_found(format!("archive {game_path}")))?;
        if let Some(hit) = self.archives.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let mut stack = Vec::new();
        for (layer, rel) in self.index.holders(&key) {
            let Some(layer) = self.layers.get(*layer) else { continue };
            let opened = Archive::open(&layer.root.join(rel), game_path, self.options);
            // With several layers, the error says whose archive is bad.
            let named = |e: Error| if self.layers.len() > 1 { e.in_file(format!("layer {}", layer.name())) } else { e };
            stack.push((layer.name(), opened.map_err(named)?));
        }
        let archive = Arc::new(match stack.len() {
            1 => stack.pop().map(|(_, a)| a).ok_or_else(|| not_found(format!("archive {game_path}")))?,
            _ => crate::overlay::merge(&stack, game_path, self.options)?,
        });
        let mut cache = self.archives.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Arc::clone(cache.entry(key).or_insert(archive)))
    }

    /// Reads an archive entry, decoded (cached by folded archive path and entry name).
    pub fn read_entry(&self, archive: &str, entry: &str) -> Result<Arc<[u8]>> {
        let key = (fold_path(archive), entry.to_ascii_lowercase());
        if let Some(hit) = self.blobs.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let bytes: Arc<[u8]> = Arc::from(self.archive(archive)?.read(entry)?);
        self.blobs.lock().unwrap_or_else(PoisonError::into_inner).insert(key, Arc::clone(&bytes));
        Ok(bytes)
    }

    /// Reads an address: `path` (loose file) or `archive::entry`.
    pub fn read(&self, address: &str) -> Result<Arc<[u8]>> {
        let a = Address::parse(address);
        match &a.entry {
            Some(entry) => self.read_entry(&a.file, entry),
            None => Ok(Arc::from(self.read_file(&a.file)?)),
        }
    }

    /// Returns the parsed asset cached under `key`, parsing it with `parse` on a miss.
    /// Errors are not cached.
    pub fn parsed<T: Send + Sync + 'static>(&self, key: &str, parse: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
        let id = (key.to_ascii_lowercase(), std::any::TypeId::of::<T>());
        let cached = self.assets.lock().unwrap_or_else(PoisonError::into_inner).get(&id).cloned();
        if let Some(hit) = cached.and_then(|a| a.downcast::<T>().ok()) {
            return Ok(hit);
        }
        let value = Arc::new(parse()?);
        self.assets.lock().unwrap_or_else(PoisonError::into_inner).insert(id, value.clone());
        Ok(value)
    }

    /// Drops every cached archive, blob and parsed asset (e.g. after files changed).
    pub fn clear_caches(&self) {
        self.archives.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.blobs.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.assets.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    /// Number of open archives in the cache.
    pub fn open_archives(&self) -> usize {
        self.archives.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl ResourceIndex for GameDir {
    fn has_archive(&self, archive: &str) -> bool {
        self.resolve(archive).is_some()
    }

    fn has_entry(&self, archive: &str, entry: &str) -> bool {
        self.archive(archive).is_ok_and(|a| a.find(entry).is_some())
    }
}

#[cfg(test)]
mod tests;
