//! A text scenery and every file it includes, each baked into its own module, as
//! MaSzyna's tree bake does: an include's path is relative to the scenery folder (the
//! root file's), `\` and `/` alike, any letter case; each file is baked once, whatever
//! includes it how often; its module goes beside its text, where the `INCL` record's
//! `.eu7` path points. *The project's*: a template (`.inc`) is baked too (MaSzyna's
//! root gathers its models into its own sections instead), so the viewer finds it.

use super::{Baked, Warning, bake};
use crate::error::{Error, Result};
use crate::module::resolve;
use std::path::{Path, PathBuf};

/// One file of a tree and its bake.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeFile {
    /// The text file.
    pub text: PathBuf,
    /// Where its module goes (the scenery folder joined with the `.eu7` path).
    pub module: PathBuf,
    /// Its records and warnings.
    pub baked: Baked,
}

/// A baked tree: the root first, then each included file in the order it was first met;
/// includes whose file is missing are warnings of the file that names them.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The files.
    pub files: Vec<TreeFile>,
    /// Includes that name no file: (the including file, its warning).
    pub missing: Vec<(PathBuf, Warning)>,
}

/// `rel` under `dir`, each component matched in any letter case.
fn find(dir: &Path, rel: &str) -> Option<PathBuf> {
    let mut at = dir.to_path_buf();
    for part in rel.split(['/', '\\']).filter(|p| !p.is_empty() && *p != ".") {
        let exact = at.join(part);
        at = if exact.exists() {
            exact
        } else {
            std::fs::read_dir(&at)
                .ok()?
                .filter_map(|e| e.ok())
                .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(part))?
                .path()
        };
    }
    at.is_file().then_some(at)
}

/// Bakes `root` and every file it includes; `out` is where the root's module goes.
///
/// # Errors
/// A file that cannot be read or that ends inside a node (naming the file and line).
pub fn tree(root: &Path, out: &Path) -> Result<Tree> {
    let folder = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut files: Vec<TreeFile> = Vec::new();
    let mut missing = Vec::new();
    let mut queue = vec![(root.to_path_buf(), out.to_path_buf())];
    while let Some((text, module)) = queue.pop() {
        if files.iter().any(|f| f.text == text) {
            continue;
        }
        let name = text.display().to_string();
        let bytes = std::fs::read(&text).map_err(|e| Error::rule("bake_read", format!("{name}: {e}")))?;
        let baked = bake(&bytes, &name)?;
        let mut found = Vec::new();
        for inc in &baked.scene.includes {
            let path = String::from_utf8_lossy(resolve(&baked.scene.strings, inc.source_path)).into_owned();
            let binary = String::from_utf8_lossy(resolve(&baked.scene.strings, inc.binary_path)).into_owned();
            match find(&folder, &path) {
                Some(file) => found.push((file, folder.join(binary.replace('\\', "/")))),
                None => {
                    let message = "include: no such file in the scenery folder".to_string();
                    let warning = Warning { line: inc.source_line + 1, token: path, message };
                    missing.push((text.clone(), warning));
                }
            }
        }
        files.push(TreeFile { text, module, baked });
        // Depth first, in file order.
        queue.extend(found.into_iter().rev());
    }
    Ok(Tree { files, missing })
}
