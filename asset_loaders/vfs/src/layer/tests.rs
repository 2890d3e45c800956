//! Layer stacks on temporary trees: replacement by folded path, added files, archive
//! overlays, refused layers and content fingerprints.

use crate::{GameDir, Layer, LayerKind, layer};
use iron3d_formats::ReadOptions;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::rsli::{Method, NewEntry, RsliWriter};
use std::path::{Path, PathBuf};

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iron3d-layers-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn nres(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = NresWriter::new();
    for (i, (name, data)) in entries.iter().enumerate() {
        w.add(0x10 + i as u32, [i as u32, 7, 9], name.as_bytes(), data.to_vec()).unwrap();
    }
    w.to_bytes().unwrap()
}

fn rsli(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = RsliWriter::new(0x55);
    for (name, data) in entries {
        w.add(NewEntry { name: name.as_bytes().to_vec(), method: Method::Lzss, data: data.to_vec() });
    }
    w.to_bytes().unwrap()
}

fn stack(game: &Path, mods: &[&Path]) -> Vec<Layer> {
    let mut out = vec![Layer::new(LayerKind::Game, game)];
    out.extend(mods.iter().map(|m| Layer::new(LayerKind::Mod, *m)));
    out
}

#[test]
fn a_higher_layer_replaces_by_folded_path_and_adds_files() {
    let root = scratch("replace");
    let (game, first, second) = (root.join("game"), root.join("first"), root.join("second"));
    write(&game, "MISSIONS/Mission1/Data.TMA", b"game tma");
    write(&game, "DATA/Behavior.ini", b"game ini");
    write(&first, "missions/mission1/DATA.tma", b"first tma");
    write(&first, "Missions/Mission2/data.tma", b"added");
    write(&second, "MISSIONS/MISSION1/data.TMA", b"second tma");
    let dir = GameDir::open_layers(&stack(&game, &[&first, &second]), ReadOptions::strict()).unwrap();
    assert_eq!(dir.read_file("missions\\mission1\\data.tma").unwrap(), b"second tma", "the last mod wins");
    assert_eq!(dir.read_file("Missions/Mission2/Data.tma").unwrap(), b"added");
    assert_eq!(dir.read_file("data/behavior.ini").unwrap(), b"game ini", "the rest is the game's");
    assert_eq!(dir.index().len(), 3, "a replaced path counts once");
    let listed: Vec<String> = dir.index().files().map(|p| p.to_string_lossy().replace('\\', "/")).collect();
    assert!(listed.contains(&"Missions/Mission2/data.tma".to_string()), "{listed:?}");
    assert!(listed.contains(&"MISSIONS/MISSION1/data.TMA".to_string()), "served as the mod spells it: {listed:?}");
    assert_eq!(dir.layer_of("MISSIONS/mission1/data.tma").as_deref(), Some("mod:second"));
    assert_eq!(dir.layer_of("missions/mission2/data.tma").as_deref(), Some("mod:first"));
    assert_eq!(dir.layer_of("DATA/BEHAVIOR.INI").as_deref(), Some("game"));
    assert_eq!(dir.root(), game, "the root is the game directory's");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_higher_archive_serves_its_entries_and_the_lower_one_the_rest() {
    let root = scratch("overlay");
    let (game, m) = (root.join("game"), root.join("mod"));
    write(&game, "Textures.lib", &nres(&[("GRASS01", b"grass"), ("ROCK", b"old rock")]));
    write(&m, "textures.LIB", &nres(&[("rock", b"new rock"), ("SAND", b"sand")]));
    write(&game, "gamefont.rlb", &rsli(&[("FONT8", b"eight eight eight"), ("FONT12", b"twelve")]));
    write(&m, "GAMEFONT.RLB", &rsli(&[("FONT12", b"new twelve")]));
    let dir = GameDir::open_layers(&stack(&game, &[&m]), ReadOptions::strict()).unwrap();
    assert_eq!(&*dir.read("textures.lib::ROCK").unwrap(), b"new rock");
    assert_eq!(&*dir.read("textures.lib::grass01").unwrap(), b"grass");
    assert_eq!(&*dir.read("textures.lib::Sand").unwrap(), b"sand");
    let merged = dir.archive("TEXTURES.LIB").unwrap();
    assert_eq!(merged.len(), 3);
    let grass = merged.nres().unwrap().entries()[merged.find("GRASS01").unwrap()];
    assert_eq!((grass.type_id, grass.attr1, grass.attr2, grass.attr3), (0x10, 0, 7, 9), "rows are kept");
    assert_eq!(&*dir.read("gamefont.rlb::font12").unwrap(), b"new twelve");
    assert_eq!(&*dir.read("gamefont.rlb::FONT8").unwrap(), b"eight eight eight");
    assert_eq!(dir.layer_of("textures.lib").as_deref(), Some("mod:mod"));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn an_overlay_of_another_container_kind_is_a_named_error() {
    let root = scratch("kind");
    let (game, m) = (root.join("game"), root.join("mod"));
    write(&game, "sounds.lib", &nres(&[("A", b"a")]));
    write(&m, "sounds.lib", &rsli(&[("A", b"b")]));
    let dir = GameDir::open_layers(&stack(&game, &[&m]), ReadOptions::strict()).unwrap();
    let e = dir.read("sounds.lib::A").unwrap_err().to_string();
    assert!(e.contains("sounds.lib") && e.contains("mod:mod") && e.contains("game"), "{e}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_missing_layer_is_an_error_naming_it() {
    let root = scratch("missing");
    let game = root.join("game");
    write(&game, "a.txt", b"a");
    let absent = root.join("no-such-mod");
    let e = GameDir::open_layers(&stack(&game, &[&absent]), ReadOptions::strict()).unwrap_err().to_string();
    assert!(e.contains("mod:no-such-mod") && e.contains(&absent.display().to_string()), "{e}");
    write(&root, "plain-file", b"x");
    let e = GameDir::open_layers(&stack(&game, &[&root.join("plain-file")]), ReadOptions::strict()).unwrap_err();
    assert!(e.to_string().contains("not a directory"), "{e}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn fingerprints_follow_content_not_place_or_time() {
    let root = scratch("stamps");
    let (a, b, m) = (root.join("a"), root.join("b"), root.join("m"));
    for dir in [&a, &b] {
        write(dir, "DATA/x.ini", b"same");
        write(dir, "y.bin", b"bytes");
    }
    write(&m, "z.txt", b"mod");
    let stamps =
        |game: &Path| GameDir::open_layers(&stack(game, &[&m]), ReadOptions::strict()).unwrap().stamps().unwrap();
    let first = stamps(&a);
    assert_eq!(first.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["game", "mod:m"]);
    assert_eq!(first, stamps(&b), "another directory with the same files");
    write(&b, "y.bin", b"bytez");
    let changed = stamps(&b);
    assert_ne!(first[0].fingerprint, changed[0].fingerprint, "a changed byte");
    assert_eq!(first[1], changed[1], "the other layer is untouched");
    std::fs::rename(b.join("y.bin"), b.join("w.bin")).unwrap();
    assert_ne!(changed[0].fingerprint, stamps(&b)[0].fingerprint, "a renamed file");
    assert_eq!(first[1].to_string(), format!("mod:m {:016x}", first[1].fingerprint));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_standard_stack_puts_the_projects_data_first_and_mods_last() {
    let root = scratch("standard");
    let mods = [root.join("one"), root.join("two")];
    let stack = layer::standard_stack(&root, &mods).unwrap();
    let names: Vec<String> = stack.iter().map(Layer::name).collect();
    assert_eq!(names, ["project", "game", "mod:one", "mod:two"]);
    assert!(stack[0].root.join("iron3d.rules.ron").is_file(), "the checkout's rules: {}", stack[0].root.display());
    let exe = Path::new("/opt/iron3d/bin/iron3d");
    let tried = layer::project_candidates(Some(exe));
    assert_eq!(
        tried[..2],
        [PathBuf::from("/opt/iron3d/bin/rules"), PathBuf::from("/opt/iron3d/bin/../share/iron3d/rules")]
    );
    let _ = std::fs::remove_dir_all(root);
}
