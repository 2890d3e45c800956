//! Transactional writing (`docs/reference/runtime.md` §14): the bytes go to a temporary file
//! beside the target, are read back and verified, synced, then atomically renamed over
//! the target; the slot metadata (`FILE.slot`, a few `key=value` lines) is written the
//! same way last. A write failing or interrupted at any step leaves the file it was
//! replacing intact (before the rename) or the new file complete (after it).

use crate::format::{Container, FileKind};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The steps of a transactional write, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteStep {
    /// Writing the temporary file.
    Temporary,
    /// Reading it back and decoding it.
    Verify,
    /// Flushing it to the disk.
    Sync,
    /// Renaming it over the target.
    Replace,
    /// Writing the slot metadata.
    Metadata,
}

impl WriteStep {
    /// Every step, in order.
    pub const ALL: [Self; 5] = [Self::Temporary, Self::Verify, Self::Sync, Self::Replace, Self::Metadata];
}

/// `FILE.suffix` beside `path`.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The slot metadata file of a save.
pub fn slot_path(path: &Path) -> PathBuf {
    beside(path, ".slot")
}

/// Writes `bytes` (a file of `kind`) to `path` transactionally, then `slot` as its slot
/// metadata.
///
/// # Errors
/// The step that failed and why; the previous file at `path` is then intact.
pub fn write_file(path: &Path, bytes: &[u8], kind: FileKind, slot: &str) -> Result<(), String> {
    write_with(path, bytes, kind, slot, &|_| Ok(()))
}

/// [`write_file`] with `fault` called before each step (tests fail each one).
pub(crate) fn write_with(
    path: &Path,
    bytes: &[u8],
    kind: FileKind,
    slot: &str,
    fault: &dyn Fn(WriteStep) -> std::io::Result<()>,
) -> Result<(), String> {
    let temp = beside(path, ".tmp");
    let result = replace(path, &temp, bytes, fault, Some(kind));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
        return result;
    }
    fault(WriteStep::Metadata).map_err(|e| format!("{}: slot metadata: {e}", path.display()))?;
    let (slot_path, slot_temp) = (slot_path(path), beside(path, ".slot.tmp"));
    let result = replace(&slot_path, &slot_temp, slot.as_bytes(), &|_| Ok(()), None);
    if result.is_err() {
        let _ = std::fs::remove_file(&slot_temp);
    }
    result
}

/// Temporary file, verification (when `kind` is given), sync, rename.
fn replace(
    path: &Path,
    temp: &Path,
    bytes: &[u8],
    fault: &dyn Fn(WriteStep) -> std::io::Result<()>,
    kind: Option<FileKind>,
) -> Result<(), String> {
    let step = |what: &str, e: std::io::Error| format!("{}: {what}: {e}", path.display());
    fault(WriteStep::Temporary).map_err(|e| step("writing the temporary file", e))?;
    let mut file = File::create(temp).map_err(|e| step("creating the temporary file", e))?;
    file.write_all(bytes).map_err(|e| step("writing the temporary file", e))?;
    fault(WriteStep::Verify).map_err(|e| step("re-reading the temporary file", e))?;
    let back = std::fs::read(temp).map_err(|e| step("re-reading the temporary file", e))?;
    if back != bytes {
        return Err(format!("{}: the temporary file reads back different bytes", temp.display()));
    }
    if let Some(kind) = kind {
        Container::decode(&back, kind).map_err(|e| format!("{}: does not verify: {e}", temp.display()))?;
    }
    fault(WriteStep::Sync).map_err(|e| step("syncing", e))?;
    file.sync_all().map_err(|e| step("syncing", e))?;
    drop(file);
    fault(WriteStep::Replace).map_err(|e| step("replacing", e))?;
    std::fs::rename(temp, path).map_err(|e| step("replacing", e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Makes the rename durable where directories can be synced (not on every system).
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}
