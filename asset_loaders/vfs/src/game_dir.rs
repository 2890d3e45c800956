//! The game directory: resolves game paths and addresses, and owns the caches.

use crate::archive::Archive;
use crate::dir_index::DirIndex;
use crate::path::{Address, fold_path};
use iron3d_formats::registry::ResourceIndex;
use iron3d_formats::{Error, ErrorKind, ReadOptions, Result};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

type Shared = Arc<dyn Any + Send + Sync>;
/// Decoded entries by (folded archive path, lower-cased entry name).
type BlobCache = HashMap<(String, String), Arc<[u8]>>;

/// An installed (or generated) game tree. All caches are shared and thread-safe:
/// open archives by folded path, the directory index, decoded entry blobs by
/// `(archive, entry)`, and parsed assets by key and type.
pub struct GameDir {
    root: PathBuf,
    options: ReadOptions,
    index: DirIndex,
    archives: Mutex<HashMap<String, Arc<Archive>>>,
    blobs: Mutex<BlobCache>,
    assets: Mutex<HashMap<(String, std::any::TypeId), Shared>>,
}

impl std::fmt::Debug for GameDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDir").field("root", &self.root).field("files", &self.index.len()).finish_non_exhaustive()
    }
}

fn not_found(what: String) -> Error {
    Error::new(ErrorKind::NotFound(what))
}

impl GameDir {
    /// Opens the tree at `root`, indexing every file once.
    pub fn open(root: impl Into<PathBuf>, options: ReadOptions) -> Result<Self> {
        let root = root.into();
        let index = DirIndex::build(&root)?;
        Ok(Self { root, options, index, archives: Mutex::default(), blobs: Mutex::default(), assets: Mutex::default() })
    }

    /// The root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The reading options archives are opened with.
    pub fn options(&self) -> ReadOptions {
        self.options
    }

    /// The directory index.
    pub fn index(&self) -> &DirIndex {
        &self.index
    }

    /// The real path of a game path (any case, `\` or `/`), relative to the root; an
    /// archive named by file name alone is also found anywhere in the tree when that
    /// name is unique.
    pub fn resolve(&self, game_path: &str) -> Option<PathBuf> {
        if let Some(p) = self.index.resolve(game_path) {
            return Some(self.root.join(p));
        }
        if fold_path(game_path).contains('/') {
            return None;
        }
        match self.index.by_file_name(game_path) {
            [only] => self.index.resolve(only).map(|p| self.root.join(p)),
            _ => None,
        }
    }

    /// Reads a loose file.
    pub fn read_file(&self, game_path: &str) -> Result<Vec<u8>> {
        let path = self.resolve(game_path).ok_or_else(|| not_found(format!("file {game_path}")))?;
        std::fs::read(&path).map_err(|e| Error::new(ErrorKind::Io(e.to_string())).in_file(game_path.to_string()))
    }

    /// Opens an archive (shared: one open per folded path).
    pub fn archive(&self, game_path: &str) -> Result<Arc<Archive>> {
        let path = self.resolve(game_path).ok_or_else(|| not_found(format!("archive {game_path}")))?;
        let key = fold_path(&path.strip_prefix(&self.root).unwrap_or(&path).to_string_lossy());
        if let Some(hit) = self.archives.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let archive = Arc::new(Archive::open(&path, game_path, self.options)?);
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
