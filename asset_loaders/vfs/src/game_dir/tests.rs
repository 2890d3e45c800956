//! Game-directory tests on a temporary tree with Windows-style names.

use super::*;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::rsli::{Method, NewEntry, RsliWriter};

fn temp_tree(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iron3d-vfs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("MISSIONS/Mission1")).unwrap();
    let mut nres = NresWriter::new();
    nres.add(0x6D78_6554, [0; 3], b"Grass01", b"texels".to_vec()).unwrap();
    std::fs::write(dir.join("Textures.LIB"), nres.to_bytes().unwrap()).unwrap();
    let mut rsli = RsliWriter::new(0x77);
    rsli.add(NewEntry { name: b"FONT8".to_vec(), method: Method::Lzss, data: b"glyphs glyphs glyphs".to_vec() });
    std::fs::write(dir.join("gamefont.rlb"), rsli.to_bytes().unwrap()).unwrap();
    std::fs::write(dir.join("MISSIONS/Mission1/Data.TMA"), b"tma").unwrap();
    dir
}

#[test]
fn resolves_windows_paths_case_insensitively() {
    let root = temp_tree("resolve");
    let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
    assert_eq!(game.read_file("missions\\MISSION1\\data.tma").unwrap(), b"tma");
    assert!(game.resolve("MISSIONS/Mission1/none.tma").is_none());
    assert_eq!(game.index().len(), 3);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn addresses_entries_in_both_archive_kinds_and_caches_them() {
    let root = temp_tree("address");
    let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
    assert_eq!(&*game.read("textures.lib::GRASS01").unwrap(), b"texels");
    assert_eq!(&*game.read("GAMEFONT.RLB::font8").unwrap(), b"glyphs glyphs glyphs");
    let a = game.archive("TEXTURES.lib").unwrap();
    let b = game.archive("textures.LIB").unwrap();
    assert!(Arc::ptr_eq(&a, &b), "one open archive per folded path");
    assert_eq!(game.open_archives(), 2);
    let first = game.read_entry("textures.lib", "grass01").unwrap();
    let again = game.read_entry("Textures.lib", "GRASS01").unwrap();
    assert!(Arc::ptr_eq(&first, &again), "decoded blobs are cached");
    assert!(game.has_entry("textures.lib", "grass01"));
    assert!(!game.has_entry("textures.lib", "sand"));
    assert!(!game.has_archive("bases.rlb"));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn errors_name_file_and_entry() {
    let root = temp_tree("errors");
    std::fs::write(root.join("broken.lib"), b"NRes\x00\x01\x00\x00").unwrap();
    let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
    let e = game.read("textures.lib::sand").unwrap_err();
    assert_eq!(e.to_string(), "file textures.lib -> not found: entry sand");
    let e = game.read("broken.lib::x").unwrap_err();
    assert!(e.to_string().starts_with("file broken.lib -> at offset"), "{e}");
    let e = game.read("nothing.lib::x").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::NotFound(_)));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn parsed_assets_are_cached_by_key_and_type_and_shared_across_threads() {
    let root = temp_tree("parsed");
    let game = GameDir::open(&root, ReadOptions::strict()).unwrap();
    let calls = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let v = game
                    .parsed("Tex::Grass", || {
                        calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        Ok(42u32)
                    })
                    .unwrap();
                assert_eq!(*v, 42);
            });
        }
    });
    assert!(calls.load(std::sync::atomic::Ordering::SeqCst) >= 1);
    let before = calls.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(*game.parsed("tex::grass", || Ok(0u32)).unwrap(), 42);
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), before);
    assert_eq!(*game.parsed("tex::grass", || Ok("other type")).unwrap(), "other type");
    let _ = std::fs::remove_dir_all(root);
}
