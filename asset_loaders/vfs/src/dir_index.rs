//! A folded index of every file below the game's layer roots, built once, so that paths
//! written on Windows resolve on case-sensitive file systems without renaming files, and
//! a file of a higher layer replaces the file of the same (folded) path below it.

use crate::path::fold_path;
use iron3d_formats::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Folded relative path -> the layers holding it (real relative path per layer), for
/// every regular file below the layer roots.
#[derive(Debug, Clone, Default)]
pub struct DirIndex {
    /// Holders in ascending layer order: the last one serves the path.
    files: BTreeMap<String, Vec<(usize, PathBuf)>>,
    by_name: BTreeMap<String, Vec<String>>,
    clashes: Vec<(PathBuf, PathBuf)>,
}

impl DirIndex {
    /// Walks `root` (in sorted order, so clashes resolve deterministically).
    pub fn build(root: &Path) -> Result<Self> {
        Self::build_layers(&[root])
    }

    /// Walks each root in order as layer 0, 1, ...: a file of a later root replaces the
    /// file of the same folded path in an earlier one.
    pub fn build_layers(roots: &[&Path]) -> Result<Self> {
        let mut index = Self::default();
        for (layer, root) in roots.iter().enumerate() {
            index.walk(root, Path::new(""), layer)?;
        }
        Ok(index)
    }

    fn walk(&mut self, root: &Path, rel: &Path, layer: usize) -> Result<()> {
        let dir = root.join(rel);
        let io = |e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(dir.display().to_string());
        let mut names: Vec<_> = std::fs::read_dir(&dir).map_err(io)?.collect::<std::io::Result<_>>().map_err(io)?;
        names.sort_by_key(|e| e.file_name());
        for entry in names {
            let rel_path = rel.join(entry.file_name());
            let kind = entry.file_type().map_err(io)?;
            if kind.is_dir() {
                self.walk(root, &rel_path, layer)?;
            } else if kind.is_file() {
                let key = fold_path(&rel_path.to_string_lossy());
                let holders = self.files.entry(key.clone()).or_default();
                if let Some((_, first)) = holders.last().filter(|(l, _)| *l == layer) {
                    self.clashes.push((first.clone(), rel_path));
                    continue;
                }
                if holders.is_empty() {
                    let name = key.rsplit('/').next().unwrap_or(&key).to_string();
                    self.by_name.entry(name).or_default().push(key);
                }
                holders.push((layer, rel_path));
            }
        }
        Ok(())
    }

    /// The real relative path of a game path (any case, `\` or `/`), in the highest
    /// layer holding it.
    pub fn resolve(&self, game_path: &str) -> Option<&Path> {
        self.files.get(&fold_path(game_path)).and_then(|h| h.last()).map(|(_, p)| p.as_path())
    }

    /// Every layer holding a game path, bottom first, with its real relative path there.
    pub fn holders(&self, game_path: &str) -> &[(usize, PathBuf)] {
        self.files.get(&fold_path(game_path)).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every folded path whose file name is `name` (any case), in sorted order.
    pub fn by_file_name(&self, name: &str) -> &[String] {
        self.by_name.get(&name.to_ascii_lowercase()).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every real relative path (as the serving layer spells it), sorted by folded path.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.values().filter_map(|h| h.last()).map(|(_, p)| p.as_path())
    }

    /// Every real relative path of one layer's own files (served or replaced), sorted by
    /// folded path, with the folded path.
    pub fn layer_files(&self, layer: usize) -> impl Iterator<Item = (&str, &Path)> {
        self.files
            .iter()
            .filter_map(move |(key, h)| h.iter().find(|(l, _)| *l == layer).map(|(_, p)| (key.as_str(), p.as_path())))
    }

    /// Number of files (a path held by several layers counts once).
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the tree holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Files of one layer whose paths differ only in case (the later ones are not
    /// addressable).
    pub fn clashes(&self) -> &[(PathBuf, PathBuf)] {
        &self.clashes
    }
}
