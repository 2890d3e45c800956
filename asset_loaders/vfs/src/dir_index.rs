//! A folded index of every file below the game root, built once, so that paths
//! written on Windows resolve on case-sensitive file systems without renaming files.

use crate::path::fold_path;
use iron3d_formats::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Folded relative path -> real relative path, for every regular file below a root.
#[derive(Debug, Clone, Default)]
pub struct DirIndex {
    files: BTreeMap<String, PathBuf>,
    by_name: BTreeMap<String, Vec<String>>,
    clashes: Vec<(PathBuf, PathBuf)>,
}

impl DirIndex {
    /// Walks `root` (in sorted order, so clashes resolve deterministically).
    pub fn build(root: &Path) -> Result<Self> {
        let mut index = Self::default();
        index.walk(root, Path::new(""))?;
        Ok(index)
    }

    fn walk(&mut self, root: &Path, rel: &Path) -> Result<()> {
        let dir = root.join(rel);
        let io = |e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(dir.display().to_string());
        let mut names: Vec<_> = std::fs::read_dir(&dir).map_err(io)?.collect::<std::io::Result<_>>().map_err(io)?;
        names.sort_by_key(|e| e.file_name());
        for entry in names {
            let rel_path = rel.join(entry.file_name());
            let kind = entry.file_type().map_err(io)?;
            if kind.is_dir() {
                self.walk(root, &rel_path)?;
            } else if kind.is_file() {
                let key = fold_path(&rel_path.to_string_lossy());
                if let Some(first) = self.files.get(&key) {
                    self.clashes.push((first.clone(), rel_path));
                    continue;
                }
                let name = key.rsplit('/').next().unwrap_or(&key).to_string();
                self.by_name.entry(name).or_default().push(key.clone());
                self.files.insert(key, rel_path);
            }
        }
        Ok(())
    }

    /// The real relative path of a game path (any case, `\` or `/`).
    pub fn resolve(&self, game_path: &str) -> Option<&Path> {
        self.files.get(&fold_path(game_path)).map(PathBuf::as_path)
    }

    /// Every folded path whose file name is `name` (any case), in sorted order.
    pub fn by_file_name(&self, name: &str) -> &[String] {
        self.by_name.get(&name.to_ascii_lowercase()).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every real relative path, sorted by folded path.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.values().map(PathBuf::as_path)
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the tree holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Files whose paths differ only in case (the later ones are not addressable).
    pub fn clashes(&self) -> &[(PathBuf, PathBuf)] {
        &self.clashes
    }
}
