//! The generated tree: relative paths (Windows-style case kept) to file bytes, in a
//! sorted map so iteration and output never depend on hash order.

use iron3d_formats::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// Generated files by relative path (`/`-separated).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DemoTree {
    files: BTreeMap<String, Vec<u8>>,
}

impl DemoTree {
    /// Adds a file; a path may be added only once.
    pub fn add(&mut self, path: &str, bytes: Vec<u8>) -> Result<()> {
        if self.files.insert(path.to_string(), bytes).is_some() {
            return Err(Error::invalid(0, "demo_duplicate_file", format!("{path} generated twice")));
        }
        Ok(())
    }

    /// Every file in path order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))
    }

    /// The bytes of `path`.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    /// Total size in bytes.
    pub fn total_size(&self) -> usize {
        self.files.values().map(Vec::len).sum()
    }

    /// Writes every file below `root` (creating folders).
    pub fn write_to(&self, root: &Path) -> Result<()> {
        for (path, bytes) in &self.files {
            let target = root.join(path);
            let io = |e: std::io::Error| Error::new(ErrorKind::Io(e.to_string())).in_file(target.display().to_string());
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            std::fs::write(&target, bytes).map_err(io)?;
        }
        Ok(())
    }

    /// Paths of `root` that differ from this tree (missing, extra or changed files).
    pub fn diff_against(&self, root: &Path) -> Vec<String> {
        let mut on_disk = Vec::new();
        collect(root, root, &mut on_disk);
        let mut out: Vec<String> = on_disk.iter().filter(|p| !self.files.contains_key(*p)).cloned().collect();
        for (path, bytes) in &self.files {
            if std::fs::read(root.join(path)).ok().as_deref() != Some(bytes.as_slice()) {
                out.push(path.clone());
            }
        }
        out.sort();
        out
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}
