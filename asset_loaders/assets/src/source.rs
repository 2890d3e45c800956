//! `game://` — a Bevy asset source reading through [`GameDir`]: paths are resolved
//! case-insensitively with `\` or `/`, and `archive.lib::entry` reads a decoded entry.
//!
//! **Loader hints.** Archive entries often have no file extension (Texm names in
//! `Textures.lib`, MAT0 names in `Material.lib`), and Bevy picks a loader by extension.
//! An address may therefore end in a *type hint* from [`LOADER_HINTS`]
//! (`game://Textures.lib::GRASS01.texm`, `game://Material.lib::STEEL.mat0`): when the
//! address does not exist as written, the reader retries without the hint. Loaders
//! register the hint as their extension. Sound entries do have one (`.wav`), but it is
//! kira's: the SWAV loader answers to the hint `.swav`
//! (`game://sounds.lib::EXPLODE1.WAV.swav`).

use crate::watch::Served;
use bevy_asset::io::{AssetReader, AssetReaderError, PathStream, Reader, VecReader};
use bevy_ecs::prelude::Resource;
use iron3d_formats::ErrorKind;
use iron3d_vfs::{GameDir, fold_path};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Name of the asset source: `game://Textures.lib::GRASS01`, `game://MISSIONS/m1/data.tma`.
pub const GAME_SOURCE: &str = "game";

/// Type hints an address may end with (see the module docs).
pub const LOADER_HINTS: [&str; 3] = [".texm", ".mat0", ".swav"];

/// The address without its loader hint, if it has one.
pub fn strip_hint(address: &str) -> Option<&str> {
    LOADER_HINTS.iter().find_map(|hint| {
        let cut = address.len().checked_sub(hint.len())?;
        let tail = address.get(cut..)?;
        tail.eq_ignore_ascii_case(hint).then(|| &address[..cut])
    })
}

/// The opened game directory, shared with systems.
#[derive(Resource, Clone)]
pub struct GameData(pub Arc<GameDir>);

/// Asset reader over a game directory; records what it served for the watcher.
pub struct GameDirReader(pub Arc<GameDir>, pub Served);

fn reader_error(path: &Path, e: iron3d_formats::Error) -> AssetReaderError {
    match e.kind {
        ErrorKind::NotFound(_) => AssetReaderError::NotFound(path.to_path_buf()),
        _ => AssetReaderError::Io(Arc::new(std::io::Error::other(e.to_string()))),
    }
}

impl AssetReader for GameDirReader {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        let address = path.to_string_lossy();
        self.1.record(&address);
        let bytes = match self.0.read(&address) {
            Err(e) if matches!(e.kind, ErrorKind::NotFound(_)) => match strip_hint(&address) {
                Some(bare) => self.0.read(bare),
                None => Err(e),
            },
            other => other,
        }
        .map_err(|e| reader_error(path, e))?;
        Ok(VecReader::new(bytes.to_vec()))
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        // Original game data carries no `.meta` files; loaders use `meta_check: Never`.
        Err::<VecReader, _>(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn read_directory<'a>(&'a self, path: &'a Path) -> Result<Box<PathStream>, AssetReaderError> {
        let prefix = fold_path(&path.to_string_lossy());
        let children: Vec<PathBuf> = self
            .0
            .index()
            .files()
            .filter(|p| {
                let folded = fold_path(&p.to_string_lossy());
                let parent = folded.rsplit_once('/').map_or("", |(dir, _)| dir);
                parent == prefix
            })
            .map(Path::to_path_buf)
            .collect();
        if children.is_empty() {
            return Err(AssetReaderError::NotFound(path.to_path_buf()));
        }
        Ok(Box::new(futures_lite::stream::iter(children)))
    }

    async fn is_directory<'a>(&'a self, path: &'a Path) -> Result<bool, AssetReaderError> {
        let prefix = format!("{}/", fold_path(&path.to_string_lossy()));
        Ok(self.0.index().files().any(|p| fold_path(&p.to_string_lossy()).starts_with(&prefix)))
    }
}
