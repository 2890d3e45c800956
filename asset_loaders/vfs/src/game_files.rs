//! [`GameFiles`] for [`GameDir`]: lets the format crate's mission dependency graph
//! read loose files and archive entries of a game tree.

use crate::game_dir::GameDir;
use iron3d_formats::Result;
use iron3d_formats::world::GameFiles;
use std::sync::Arc;

impl GameFiles for GameDir {
    fn load_file(&self, path: &str) -> Result<Arc<[u8]>> {
        Ok(Arc::from(self.read_file(path)?))
    }

    fn load_entry(&self, archive: &str, entry: &str) -> Result<Arc<[u8]>> {
        self.read_entry(archive, entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::ReadOptions;
    use iron3d_formats::nres::NresWriter;

    #[test]
    fn game_dir_serves_files_and_entries_case_insensitively() {
        let root = std::env::temp_dir().join(format!("iron3d-vfs-gamefiles-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("Missions/M1")).unwrap();
        std::fs::write(root.join("Missions/M1/DATA.TMA"), b"tma").unwrap();
        let mut w = NresWriter::new();
        w.add(0, [0; 3], b"Entry.msh", b"payload".to_vec()).unwrap();
        std::fs::write(root.join("bases.rlb"), w.to_bytes().unwrap()).unwrap();
        let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
        let files: &dyn GameFiles = &game;
        assert_eq!(&*files.load_file("missions\\m1\\data.tma").unwrap(), b"tma");
        assert_eq!(&*files.load_entry("BASES.RLB", "entry.MSH").unwrap(), b"payload");
        assert!(files.load_file("missions/m2/data.tma").is_err());
        let _ = std::fs::remove_dir_all(root);
    }
}
