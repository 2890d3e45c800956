//! End-to-end tests of the `iron3d-cli` binary on a small generated game tree.
#![allow(clippy::unwrap_used, reason = "test helpers: a failed unwrap is a failed test")]

use iron3d_formats::nres::NresWriter;
use iron3d_formats::registry::objects::{ObjectRef64, write_refs};
use iron3d_formats::rsli::{Method, NewEntry, RsliWriter};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d-cli")).args(args).output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// An empty scratch directory of this test run.
fn scratch(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("iron3d-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    root
}

fn tree(tag: &str) -> PathBuf {
    let root = scratch(tag);
    let mut objects = NresWriter::new();
    let refs =
        [ObjectRef64::new("bases.rlb", "r_h_01.msh").unwrap(), ObjectRef64::new("bases.rlb", "r_h_01.wea").unwrap()];
    objects.add(0, [0; 3], b"r_h_01", write_refs(&refs)).unwrap();
    let child = [ObjectRef64::new("objects.rlb", "r_h_01").unwrap(), ObjectRef64::new("fortif.rlb", "x.bas").unwrap()];
    objects.add(0, [0; 3], b"fr_child", write_refs(&child)).unwrap();
    std::fs::write(root.join("objects.rlb"), objects.to_bytes().unwrap()).unwrap();
    let mut bases = NresWriter::new();
    bases.add(1, [0; 3], b"r_h_01.msh", b"mesh".to_vec()).unwrap();
    // A one-row material table naming an untextured DEFAULT material (the mission
    // graph parses WEAR and MAT0).
    bases.add(u32::from_le_bytes(*b"WEAR"), [0, 0, 1], b"r_h_01.wea", b"1\r\n0 DEFAULT\r\n".to_vec()).unwrap();
    std::fs::write(root.join("BASES.RLB"), bases.to_bytes().unwrap()).unwrap();
    let phase = iron3d_formats::model::mat0::Phase::new([0; 4], [200; 4], [0; 4], [0; 4], 0, 0, b"").unwrap();
    let material = iron3d_formats::model::mat0::Material::new(0, vec![phase], Vec::new()).to_bytes().unwrap();
    let mut materials = NresWriter::new();
    materials.add(u32::from_le_bytes(*b"MAT0"), [0, 6, 0], b"DEFAULT", material).unwrap();
    std::fs::write(root.join("Material.lib"), materials.to_bytes().unwrap()).unwrap();
    let mut font = RsliWriter::new(0x4242);
    for (name, method) in [("FONT8", Method::Lzss), ("INTERF1.TEX", Method::Deflate), ("HUF", Method::Huffman)] {
        font.add(NewEntry { name: name.into(), method, data: format!("{name} data {name} data").into_bytes() });
    }
    std::fs::write(root.join("gamefont.rlb"), font.to_bytes().unwrap()).unwrap();
    root
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn list_extract_pack_and_roundtrip() {
    let root = tree("archive");
    let lib = root.join("gamefont.rlb");
    let o = cli(&["archive", "list", path(&lib), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 3);
    assert_eq!(rows[1]["method"], "deflate");
    assert_eq!(rows[0]["size"], 21);

    let out = root.join("one.bin");
    let address = format!("{}::interf1.tex", path(&lib));
    assert!(cli(&["archive", "extract", &address, "-o", path(&out)]).status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"INTERF1.TEX data INTERF1.TEX data");
    let older = root.join("older.bin");
    assert!(cli(&["archive", "extract", path(&lib), "interf1.tex", "-o", path(&older)]).status.success());
    assert_eq!(
        std::fs::read(&older).unwrap(),
        std::fs::read(&out).unwrap(),
        "the two-argument form names the same entry"
    );
    for args in [
        &["archive", "extract", &address, "interf1.tex", "-o", path(&older)][..],
        &["archive", "extract", path(&lib), "-o", path(&older)],
        &["archive", "extract", &address, "--all", path(&root.join("x"))],
    ] {
        assert_eq!(cli(args).status.code(), Some(2), "usage error: {args:?}");
    }

    let dir = root.join("unpacked");
    assert!(cli(&["archive", "extract", path(&lib), "--all", path(&dir)]).status.success());
    let packed = root.join("repacked.rlb");
    assert!(cli(&["archive", "pack", path(&dir), "-o", path(&packed)]).status.success());
    assert_eq!(std::fs::read(&packed).unwrap(), std::fs::read(&lib).unwrap(), "writer output repacks identically");

    let bases = root.join("BASES.RLB");
    let copy = root.join("copy.rlb");
    let o = cli(&["archive", "roundtrip", path(&bases), "-o", path(&copy)]);
    assert!(stdout(&o).contains("byte-identical"), "{o:?}");
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&bases).unwrap());
    let o = cli(&["archive", "roundtrip", path(&bases), "-o", path(&copy), "--json"]);
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&r["identical"], &r["bytes"]),
        (&serde_json::json!(true), &serde_json::json!(std::fs::metadata(&bases).unwrap().len()))
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn roundtrip_keeps_an_empty_entry_inside_a_payload_and_documents_its_exit_status() {
    // The first fuzz regression: entry `b` (size 0) points into entry `a`'s payload.
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../asset_loaders/formats/fuzz/regressions/nres/empty-entry-inside-payload.nres");
    let root = std::env::temp_dir().join(format!("iron3d-cli-empty-entry-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let copy = root.join("copy.nres");
    let o = cli(&["archive", "roundtrip", path(&input), "-o", path(&copy)]);
    assert!(o.status.success() && stdout(&o).contains("byte-identical"), "{o:?}");
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&input).unwrap());
    let help = stdout(&cli(&["archive", "roundtrip", "--help"]));
    assert!(help.contains("Exit status: 0 when the output is byte-identical"), "{help}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn verify_exit_codes_follow_the_mode() {
    let root = tree("verify");
    let bases = root.join("BASES.RLB");
    let o = cli(&["archive", "verify", "--strict", path(&bases), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["mode"], &v["entries"]), (&serde_json::json!("strict"), &serde_json::json!(2)));
    // Break the sort map: strict fails naming the quirk, compatible passes.
    let mut bytes = std::fs::read(&bases).unwrap();
    let dir = bytes.len() - 128;
    bytes.swap(dir + 0x3C, dir + 64 + 0x3C);
    std::fs::write(&bases, &bytes).unwrap();
    let o = cli(&["archive", "verify", "--strict", path(&bases)]);
    assert_eq!(o.status.code(), Some(1), "invalid data exits with 1");
    assert!(String::from_utf8_lossy(&o.stderr).contains("nres_linear_lookup"), "{o:?}");
    assert!(cli(&["archive", "verify", path(&bases)]).status.success());
    let o = cli(&["validate", path(&root)]);
    assert!(!o.status.success(), "validate fails when any archive fails strict mode");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn prototype_resolve_and_validate_a_tree() {
    let root = tree("proto");
    let o = cli(&["prototype", "resolve", path(&root), "R_H_01", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let p: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(p["mesh_kind"], "explicit");
    assert_eq!(p["mesh"], "bases.rlb::r_h_01.msh");
    assert_eq!(p["wear"], "bases.rlb::r_h_01.wea");
    let o = cli(&["prototype", "resolve", path(&root), "fr_child"]);
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).contains("fortif.rlb::x.bas  (from fr_child)"), "{}", stdout(&o));
    let o = cli(&["prototype", "resolve", path(&root), "missing_key"]);
    assert!(!o.status.success());
    let o = cli(&["validate", path(&root), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["archives"], 4, "objects, bases, gamefont, Material.lib");
    assert_eq!(report["entries"], 8);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn every_command_has_help() {
    for args in [
        &["--help"][..],
        &["archive", "--help"],
        &["archive", "extract", "--help"],
        &["prototype", "resolve", "--help"],
        &["validate", "--help"],
    ] {
        let o = cli(args);
        assert!(o.status.success() && stdout(&o).contains("Usage"), "{args:?}");
    }
}

#[test]
fn exit_statuses_are_documented_and_kept() {
    let help = stdout(&cli(&["--help"]));
    for line in ["0  success", "1  failure", "2  usage error", "ARCHIVE::ENTRY"] {
        assert!(help.contains(line), "--help names {line:?}:\n{help}");
    }
    assert_eq!(cli(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(cli(&["archive", "list"]).status.code(), Some(2), "missing argument");
    assert_eq!(cli(&["archive", "list", "/no/such/archive.rlb"]).status.code(), Some(1));
    let long = "x".repeat(201);
    for say in ["", " ", long.as_str()] {
        let bots = ["net", "bots", "--server", "127.0.0.1:9", "--clients", "1", "--seconds", "1", "--say", say];
        let o = cli(&bots);
        assert_eq!(o.status.code(), Some(2), "a chat line of {} bytes", say.len());
        assert!(String::from_utf8_lossy(&o.stderr).contains("--say takes 1 to 200 bytes"), "{o:?}");
    }
}

#[test]
fn eu7_generate_info_section_verify() {
    let root = scratch("eu7");
    let file = root.join("scenery.eu7");
    let o = cli(&["eu7", "generate", path(&file), "--instances", "2000", "--seed", "7", "--extent-km", "3"]);
    assert!(o.status.success(), "{o:?}");
    let o = cli(&["eu7", "info", path(&file), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["total_section_models"], 2000);
    assert!(info.get("includes").is_none(), "only with --includes");
    // The generated include lies beside the scenery: loaded, with its record counts.
    let o = cli(&["eu7", "info", path(&file), "--includes", "--json"]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let inc = &info["includes"][0];
    assert_eq!(inc["binary_path"], "flora.eu7");
    assert_eq!(inc["file"].as_str(), Some(path(&root.join("flora.eu7"))));
    assert!(inc["error"].is_null() && inc["children"] == serde_json::json!([]), "{inc}");
    assert!(inc["counts"].as_array().unwrap().contains(&serde_json::json!(["MODL", 25])), "{inc}");
    std::fs::remove_file(root.join("flora.eu7")).unwrap();
    let o = cli(&["eu7", "info", path(&file), "--includes", "--json"]);
    assert!(o.status.success(), "a missing include is a warning: {o:?}");
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let inc = &info["includes"][0];
    assert!(inc["file"].is_null(), "{inc}");
    assert!(inc["error"].as_str().unwrap().contains("chunk INCL -> include 0 -> load: cannot load"), "{inc}");
    let o = cli(&["eu7", "info", path(&file), "--includes"]);
    assert!(stdout(&o).contains("flora.eu7 -> MISSING: "), "{}", stdout(&o));
    let first = &info["sections"][0];
    let (row, col) = (first["row"].to_string(), first["col"].to_string());
    let o = cli(&["eu7", "section", path(&file), &row, &col, "--json"]);
    assert!(o.status.success(), "{o:?}");
    let o = cli(&["eu7", "verify", "--strict", path(&file), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["mode"], &v["section_models"]), (&serde_json::json!("strict"), &serde_json::json!(2000)));
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&file, &bytes).unwrap();
    let o = cli(&["eu7", "verify", path(&file)]);
    assert!(!o.status.success());
    let _ = std::fs::remove_dir_all(root);
}

/// `eu7 generate` writes the two shapes MaSzyna's own writers produce that older
/// readers refused: a version-7 scenery of flat sections whose first byte is a format
/// marker's value (`--format flat --bare-nodes`), and a root without models whose PROT
/// and PACK are chunk headers alone (`--instances 0 --bare-tables`); `eu7 verify --strict`
/// reads both and rewrites them byte for byte. A reader that closes the output early
/// (`| head`) ends the command quietly.
/// `eu7 bake` writes a text scenery as a module `eu7 verify --strict` takes, with its
/// models in PACK sections on request; an unexpected token is a located warning, a file
/// that ends inside a node an error naming its line.
#[test]
fn eu7_bake_writes_a_verified_module_with_located_warnings() {
    let root = scratch("eu7-bake");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../asset_loaders/eu7/tests/bake/demo.scn");
    let out = root.join("demo.eu7");
    let o = cli(&["eu7", "bake", path(&fixture), "-o", path(&out), "--pack", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["version"], &v["warnings"]), (&serde_json::json!(9), &serde_json::json!([])), "{v}");
    let counts: std::collections::BTreeMap<String, u64> = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_str().unwrap().to_string(), c[1].as_u64().unwrap()))
        .collect();
    assert_eq!((counts["TRAK"], counts["INCL"], counts["EVNT"], counts["PIDX"]), (5, 2, 4, 2), "{counts:?}");
    let o = cli(&["eu7", "verify", "--strict", path(&out), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["section_models"], 3, "{v}");
    let odd = root.join("odd.scm");
    std::fs::write(&odd, "node 10 0 m model 1 2 3 0 a.e3d none endmodel\nwhat\n").unwrap();
    let o = cli(&["eu7", "bake", path(&odd), "-o", path(&root.join("odd.eu7")), "--version", "8"]);
    assert!(o.status.success(), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!("warning: {}:2: what: unexpected token", path(&odd))),
        "{o:?}"
    );
    // The whole tree: the root, the module it includes and the template it places, each
    // into the .eu7 its INCL record names.
    let scenery = root.join("scenery");
    std::fs::create_dir_all(scenery.join("objects")).unwrap();
    for file in ["demo.scn", "demo_env.scm", "objects/signal.inc"] {
        std::fs::copy(fixture.parent().unwrap().join(file), scenery.join(file)).unwrap();
    }
    let top = scenery.join("demo.eu7");
    let o = cli(&["eu7", "bake", path(&scenery.join("demo.scn")), "-o", path(&top), "--tree", "--pack", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&v["version"], v["tree"].as_array().unwrap().len(), &v["missing"]),
        (&serde_json::json!(9), 2, &serde_json::json!([])),
        "{v}"
    );
    let o = cli(&["eu7", "info", path(&top), "--includes", "--json"]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let errors: Vec<&serde_json::Value> = info["includes"].as_array().unwrap().iter().map(|i| &i["error"]).collect();
    assert_eq!(errors, [&serde_json::Value::Null; 2], "both includes load: {info}");
    std::fs::write(&odd, "// x\nnode 10 0 m model 1 2\n").unwrap();
    let o = cli(&["eu7", "bake", path(&odd), "-o", path(&root.join("odd.eu7"))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2"), "{o:?}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn eu7_generate_writes_maszynas_flat_v7_sections_and_bare_roots() {
    let root = scratch("eu7-shapes");
    let (flat, bare) = (root.join("flat.eu7"), root.join("root.eu7"));
    let o = cli(&["eu7", "generate", path(&flat), "--instances", "300", "--format", "flat", "--bare-nodes"]);
    assert!(o.status.success(), "{o:?}");
    let o = cli(&["eu7", "verify", "--strict", path(&flat), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["version"], &v["section_models"]), (&serde_json::json!(7), &serde_json::json!(300)), "{v}");
    let o = cli(&["eu7", "info", path(&flat), "--json"]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (row, col) = (info["sections"][0]["row"].to_string(), info["sections"][0]["col"].to_string());
    let o = cli(&["eu7", "section", path(&flat), &row, &col, "--json"]);
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(s["format"], "Flat", "{s}");
    let bytes = std::fs::read(&flat).unwrap();
    let first_section = bytes.windows(4).position(|w| w == b"PACK").unwrap() + 8;
    assert_eq!(bytes[first_section], 1, "a name-only node: the flags byte is format 1's marker");
    let o = cli(&["eu7", "generate", path(&bare), "--instances", "0", "--bare-tables"]);
    assert!(o.status.success(), "{o:?}");
    let bytes = std::fs::read(&bare).unwrap();
    for id in [b"PROT", b"PACK"] {
        let at = bytes.windows(4).position(|w| w == id).unwrap();
        assert_eq!(bytes[at + 4..at + 8], 8u32.to_le_bytes(), "{} is its header alone", String::from_utf8_lossy(id));
    }
    let o = cli(&["eu7", "verify", "--strict", path(&bare)]);
    assert!(o.status.success(), "{o:?}");
    let mut info = Command::new(env!("CARGO_BIN_EXE_iron3d-cli"))
        .args(["eu7", "info", path(&bare)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(info.stdout.take());
    let o = info.wait_with_output().unwrap();
    assert!(o.status.success() && o.stderr.is_empty(), "{o:?}");
    let _ = std::fs::remove_dir_all(root);
}

/// A version-9 scenery whose one PACK section (PIDX row 3, column 4; format 1) holds an
/// instance of prototype 7 while PROT has 2. Returns the bytes and the absolute offset of
/// the instance record.
fn eu7_with_bad_prototype() -> (Vec<u8>, usize) {
    fn chunk(out: &mut Vec<u8>, id: &[u8; 4], payload: &[u8]) {
        out.extend_from_slice(id);
        out.extend_from_slice(&(payload.len() as u32 + 8).to_le_bytes());
        out.extend_from_slice(payload);
    }
    let le = |words: &[u32]| words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let none = u32::MAX;
    // Slim node (bounds flag, centre, radius 3), is_terrain 0, transition 1, model sid 0,
    // no texture, no lights; v9 tail.
    let mut proto = vec![0x08];
    proto.extend(le(&[0, 0, 0, 3.0f32.to_bits()]));
    proto.extend([0, 1]);
    proto.extend(le(&[0, none, 0, 0, none]));
    proto.push(2);
    proto.extend(le(&[0, 0.0f32.to_bits(), (-1.0f32).to_bits()]));
    let mut prot = le(&[2]);
    prot.extend(&proto);
    prot.extend(&proto);
    let mut section = vec![1];
    section.extend(le(&[0, 1, 7, 0, 0, 0, 0, 0, 0, 1.0f32.to_bits(), 1.0f32.to_bits(), 1.0f32.to_bits(), none]));
    let mut pidx = le(&[1, 3 | (4 << 16), 1]);
    pidx.extend(0u64.to_le_bytes());
    let mut strs = le(&[1, 8]);
    strs.extend(b"tree.e3d");
    let mut out = b"EU7B".to_vec();
    out.extend(le(&[9]));
    chunk(&mut out, b"STRS", &strs);
    chunk(&mut out, b"PIDX", &pidx);
    chunk(&mut out, b"PROT", &prot);
    let record_at = out.len() + 8 + 9;
    chunk(&mut out, b"PACK", &section);
    (out, record_at)
}

#[test]
fn eu7_errors_name_file_section_record_offset_and_rule() {
    let root = scratch("eu7-bad");
    let file = root.join("bad.eu7");
    let (bytes, record_at) = eu7_with_bad_prototype();
    std::fs::write(&file, bytes).unwrap();
    let want = format!(
        "error: file {} -> chunk PACK -> section row 3 column 4 -> instance record 0 -> \
         at offset {record_at:#x}: prototype_range: prototype id 7 out of range (PROT has 2)\n",
        file.display()
    );
    for args in [
        &["eu7", "section", path(&file), "3", "4"][..],
        &["eu7", "verify", path(&file)],
        &["eu7", "verify", "--strict", path(&file)],
    ] {
        let o = cli(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), want, "{args:?}");
    }
    let o = cli(&["eu7", "section", path(&file), "9", "9"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("error: file {} -> section_in_pidx: section row 9 column 9 not in PIDX\n", file.display())
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn sound_export_decodes_archive_entries_and_reports_load_results() {
    use iron3d_formats::sound::{SWAV, decode_wave, write_ms_adpcm};
    let root = scratch("sound");
    let samples: Vec<i16> = (0..3000).map(|i| ((i as f32 / 20.0).sin() * 9000.0) as i16).collect();
    let adpcm = write_ms_adpcm(&samples, 1, 22050, 256).unwrap();
    let mut lib = NresWriter::new();
    lib.add(SWAV, [0; 3], b"ATM_RAIN1.WAV", adpcm.clone()).unwrap();
    lib.add(SWAV, [0; 3], b"ALIEN_ME.WAV", Vec::new()).unwrap();
    lib.add(SWAV, [0; 3], b"BROKEN.WAV", b"RIFF".to_vec()).unwrap();
    let sounds = root.join("sounds.lib");
    std::fs::write(&sounds, lib.to_bytes().unwrap()).unwrap();
    let out = root.join("rain.wav");
    let address = format!("{}::atm_rain1.wav", path(&sounds));
    let o = cli(&["sound", "export", &address, "-o", path(&out), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (info["result"].as_str(), info["frames"].as_u64(), info["format_tag"].as_u64()),
        (Some("decoded_sample"), Some(3000), Some(2))
    );
    let pcm = decode_wave(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!((pcm.format_tag, pcm.samples.clone()), (1, decode_wave(&adpcm).unwrap().samples));
    // A loose file works too.
    let loose = root.join("loose.wav");
    std::fs::write(&loose, &adpcm).unwrap();
    assert!(cli(&["sound", "export", path(&loose), "-o", path(&out)]).status.success());
    for (entry, result) in
        [("alien_me.wav", "entry_empty"), ("nothere.wav", "entry_missing"), ("broken.wav", "wave_invalid")]
    {
        let o = cli(&["sound", "export", &format!("{}::{entry}", path(&sounds)), "-o", path(&out)]);
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains(result), "{entry}: {o:?}");
    }
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn script_dump_shows_packages_and_varsets() {
    use iron3d_formats::script::{NodeKind, Record, Relation, ScrPackage};
    let root = scratch("script");
    let mut p = ScrPackage::new();
    p.add_event("Init", vec![Record::call(19, None, vec![224, 225, 226])]).unwrap();
    let mission = vec![
        Record::compare(1, Relation::NotEqual, 2),
        Record::call(30, Some(5), vec![1, 2]),
        Record::of_kind(NodeKind::End, vec![]),
        Record::constant(6, 0x8000_0003),
    ];
    p.add_event("Mission", mission).unwrap();
    let scr = root.join("default.scr");
    std::fs::write(&scr, p.to_bytes().unwrap()).unwrap();
    let o = cli(&["script", "dump", path(&scr), "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["function_count"], 73);
    assert_eq!(v["handlers"][0]["name"], "Init");
    let call = &v["handlers"][0]["nodes"][0];
    assert_eq!(
        (call["kind"].as_str(), call["function"].as_u64(), call["dest"].is_null()),
        (Some("statement"), Some(19), true)
    );
    assert_eq!(call["ops"], serde_json::json!([224, 225, 226]));
    let nodes = &v["handlers"][1]["nodes"];
    assert_eq!((nodes[0]["kind"].as_str(), nodes[0]["relation"].as_str()), (Some("if"), Some("!=")));
    assert_eq!(nodes[1]["text"], "v5 = fn30(v1, v2)");
    assert_eq!(nodes[3]["text"], "v6 = #0x80000003");
    let o = cli(&["script", "dump", path(&scr)]);
    assert!(stdout(&o).contains("handler \"Mission\"") && stdout(&o).contains("if v1 != v2"), "{}", stdout(&o));
    let var = root.join("varset.var");
    std::fs::write(&var, b"// vars\r\nVAR(DWORD, ClanBaseX, 0)\r\nVAR(float, fK, 0.5)\r\n").unwrap();
    let o = cli(&["script", "dump", path(&var), "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows[1]["name"], "fK");
    assert_eq!(rows[1]["initial_word"], 0.5f32.to_bits());
    std::fs::write(&scr, b"\x49\0\0\0\x05").unwrap();
    assert!(!cli(&["script", "dump", path(&scr)]).status.success());
    for args in [&["sound", "export", "--help"][..], &["script", "dump", "--help"]] {
        assert!(stdout(&cli(args)).contains("Usage"), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(root);
}

/// A game tree with a mission (one direct key, one unit reference, one missing key),
/// a generated terrain and areal map.
fn world_tree(tag: &str) -> PathBuf {
    use iron3d_formats::registry::UnitDat;
    use iron3d_formats::registry::unit_dat::UnitRecord;
    use iron3d_formats::world::{ArealMapBuilder, PlacedObject, TerrainBuilder, Tma};
    let root = tree(tag);
    let unit = UnitDat {
        header: [0xF1, 0xF0, 0, 0, 0, 0, 0, 1],
        records: vec![
            UnitRecord::new("r_h_01", 1, -1, b"body", 0, 1).unwrap(),
            UnitRecord::new("r_h_01", 1, 0, b"gun", 1, 0).unwrap(),
        ],
    };
    std::fs::create_dir_all(root.join("UNITS")).unwrap();
    std::fs::write(root.join("UNITS/u1.dat"), unit.to_bytes()).unwrap();
    let maps = root.join("DATA/MAPS/M");
    std::fs::create_dir_all(&maps).unwrap();
    let terrain = TerrainBuilder::height_field(8, 6, 10.0, |x, y| (x + y) * 0.1).unwrap();
    std::fs::write(maps.join("Land.msh"), terrain.to_bytes().unwrap()).unwrap();
    let mut b = ArealMapBuilder::new();
    for j in 0..3 {
        for i in 0..4 {
            let (x, y) = (i as f32 * 20.0, j as f32 * 20.0);
            b.add_polygon(vec![[x, y, 0.0], [x + 20.0, y, 0.0], [x + 20.0, y + 20.0, 0.0], [x, y + 20.0, 0.0]], 1, 0)
                .unwrap();
        }
    }
    std::fs::write(maps.join("Land.map"), b.build(8, 8).unwrap().to_bytes().unwrap()).unwrap();
    for w in ["land1.wea", "land2.wea"] {
        std::fs::write(maps.join(w), b"0\n").unwrap();
    }
    let mut t = Tma::new("DATA\\MAPS\\M\\land");
    t.objects.push(PlacedObject::new(0, "r_h_01", [1.0, 2.0, 3.0]));
    t.objects.push(PlacedObject::new(1, "UNITS\\U1.DAT", [4.0, 5.0, 6.0]));
    std::fs::create_dir_all(root.join("MISSIONS/M1")).unwrap();
    std::fs::write(root.join("MISSIONS/M1/data.tma"), t.to_bytes().unwrap()).unwrap();
    t.objects.push(PlacedObject::new(0, "no_such_key", [0.0; 3]));
    std::fs::create_dir_all(root.join("MISSIONS/M2")).unwrap();
    std::fs::write(root.join("MISSIONS/M2/data.tma"), t.to_bytes().unwrap()).unwrap();
    root
}

#[test]
fn mission_graph_tma_dump_and_land_info() {
    let root = world_tree("world");
    let o = cli(&["mission", "graph", path(&root), "missions\\m1", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let g: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(g["stats"]["placed_objects"], 2);
    assert_eq!(g["stats"]["unit_references"], 1);
    assert_eq!(g["stats"]["components"], 2);
    assert_eq!(g["stats"]["prototype_requests"], 3, "1 direct key + 2 components");
    assert_eq!(g["stats"]["wear_requests"], 3);
    assert_eq!(g["stats"]["failures"], 0);
    assert_eq!(
        (&g["stats"]["research_trees"], &g["weather"]["table"]),
        (&serde_json::json!(0), &serde_json::json!(false)),
        "no clans, no sky files"
    );
    let m1_stats = g["stats"].clone();

    let o = cli(&["mission", "graph", path(&root), "MISSIONS/M2", "--json"]);
    assert!(!o.status.success(), "a reachable failure fails the command");
    let g: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(g["errors"][0]["object"], 2);
    assert_eq!(g["errors"][0]["key"], "no_such_key");
    assert_eq!(g["errors"][0]["link"], "prototype");
    let o = cli(&["mission", "graph", path(&root), "MISSIONS/M2"]);
    assert!(stdout(&o).contains("placed object 2 (no_such_key)"), "{}", stdout(&o));
    // A bare mission name is a folder under MISSIONS, as the game's `--mission` takes it.
    let o = cli(&["mission", "graph", path(&root), "M1", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let by_name: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(by_name["stats"], m1_stats);

    let o = cli(&["tma", "dump", path(&root.join("MISSIONS/M1/data.tma")), "--json", "--strict"]);
    assert!(o.status.success(), "{o:?}");
    let t: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(t["objects"].as_array().unwrap().len(), 2);
    assert_eq!(t["objects"][1]["resource_name"], "UNITS\\U1.DAT");
    assert_eq!(t["objects"][1]["unit_reference"], true);
    assert_eq!(t["land_path"], "DATA\\MAPS\\M\\land");

    let o = cli(&["land", "info", path(&root.join("DATA/MAPS/M/Land.msh")), "--json", "--strict"]);
    assert!(o.status.success(), "{o:?}");
    let l: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(l["terrain"]["vertices"], 63);
    assert_eq!(l["terrain"]["faces"], 96);
    assert_eq!(l["areal_map"]["areals"], 12);
    assert_eq!(l["areal_map"]["vertices"], 48);
    assert_eq!(l["areal_map"]["grid"], serde_json::json!([8, 8]));
    assert_eq!(l["areal_map"]["max_candidates"], 4, "a cell on a corner of four squares");
    let o = cli(&["land", "info", path(&root.join("MISSIONS/M1/data.tma"))]);
    assert!(!o.status.success(), "a TMA is not a terrain");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn world_commands_have_help() {
    for args in [&["mission", "graph", "--help"][..], &["tma", "dump", "--help"], &["land", "info", "--help"]] {
        let o = cli(args);
        assert!(o.status.success() && stdout(&o).contains("Usage"), "{args:?}");
    }
}

fn model_tree(tag: &str) -> PathBuf {
    use iron3d_formats::model::msh::{AnimKey, MeshBatch, MeshData, ModelBuilder, NodeAnimation};
    use iron3d_formats::model::texm::{DecodeOptions, PixelFormat, Texm, build_mips};
    let root = scratch(tag);
    let quad = |material: u8, z: f32| MeshData {
        lightmap_uvs: Vec::new(),
        positions: vec![[0.0, 0.0, z], [1.0, 0.0, z], [1.0, 1.0, z], [0.0, 1.0, z]],
        normals: vec![[0.0, 0.0, 1.0]; 4],
        uvs: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        batches: vec![MeshBatch { material, lightmap: 0, flags: 0, indices: vec![0, 1, 2, 0, 2, 3] }],
    };
    let mut b = ModelBuilder::new();
    let body = b.add_node("body", None, 0).unwrap();
    let top = b.add_node("top", Some(body), 0).unwrap();
    b.set_mesh(body, 0, 0, quad(0, 0.0)).unwrap();
    b.set_mesh(top, 0, 0, quad(1, 1.0)).unwrap();
    let k = |t: f32| AnimKey::new([0.0, 0.0, t], t, [0.0, 0.0, 0.0, 1.0]);
    b.set_animation(top, NodeAnimation { rest: k(0.0), track: vec![k(0.0), k(3.0)] }).unwrap();
    let mut bases = NresWriter::new();
    bases.add(0, [0; 3], b"robot.msh", b.build().unwrap().to_bytes().unwrap()).unwrap();
    std::fs::write(root.join("bases.rlb"), bases.to_bytes().unwrap()).unwrap();
    let rgba: Vec<u8> = (0..16).flat_map(|i| [i as u8 * 16, 255, 0, 255]).collect();
    let mips = build_mips(&rgba, 4, 4, 2);
    let tex = Texm::encode(4, 4, PixelFormat::Rgb565, &mips, None, DecodeOptions::default()).unwrap();
    let mut textures = NresWriter::new();
    textures.add(u32::from_le_bytes(*b"Texm"), [0; 3], b"GRASS.0", tex.to_bytes()).unwrap();
    std::fs::write(root.join("Textures.lib"), textures.to_bytes().unwrap()).unwrap();
    root
}

#[test]
fn model_info_and_export_to_glb_and_obj() {
    let root = model_tree("model");
    let address = format!("{}::robot.msh", path(&root.join("bases.rlb")));
    let o = cli(&["model", "info", &address, "--json", "--strict"]);
    assert!(o.status.success(), "{o:?}");
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(info["nodes"][1]["name"], "top");
    assert_eq!(info["frames"], 4);
    assert_eq!(info["materials"], serde_json::json!([0, 1]));
    assert!(cli(&["model", "info", &address]).status.success());

    let glb = root.join("robot.glb");
    let o = cli(&["model", "export", &address, "-o", path(&glb), "--frame", "1.5"]);
    assert!(o.status.success(), "{o:?}");
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    assert_eq!(doc["meshes"].as_array().unwrap().len(), 2);
    // the top quad at rest z 1 + animated 1.5 -> Y-up height 2.5
    let top_accessor = doc["meshes"][1]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    assert_eq!(doc["accessors"][top_accessor]["max"][1], 2.5);

    let obj = root.join("robot.obj");
    let o = cli(&["model", "export", &address, "-o", path(&obj), "--unposed", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&summary["triangles"], &summary["parts"]), (&serde_json::json!(4), &serde_json::json!(2)));
    let text = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 8);
    assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 4);
    assert_eq!(
        cli(&["model", "export", &address, "-o", path(&root.join("x.fbx"))]).status.code(),
        Some(2),
        "unknown export format"
    );
    assert!(!cli(&["model", "info", &format!("{}::missing.msh", path(&root.join("bases.rlb")))]).status.success());
}

#[test]
fn texture_export_writes_png_levels() {
    let root = model_tree("texture");
    let lib = root.join("Textures.lib");
    let png_path = root.join("grass.png");
    let address = format!("{}::grass.0", path(&lib));
    let o = cli(&["texture", "export", &address, "-o", path(&png_path), "--mip", "1", "--json"]);
    assert!(o.status.success(), "{o:?}");
    assert!(o.stderr.is_empty(), "{o:?}");
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["format"], 565);
    let bytes = std::fs::read(&png_path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // IHDR width/height of mip 1 = 2 x 2
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 2);
    assert!(cli(&["texture", "export", &address, "-o", path(&png_path), "--all-mips"]).status.success());
    assert!(root.join("grass_mip0.png").exists() && root.join("grass_mip1.png").exists());
    assert_eq!(cli(&["texture", "export", &address, "-o", path(&png_path), "--mip", "5"]).status.code(), Some(1));
    // The older two-argument form still works, with a deprecation warning.
    let o = cli(&["texture", "export", path(&lib), "grass.0", "-o", path(&png_path)]);
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("deprecated; write ARCHIVE::ENTRY"), "{o:?}");
    assert_eq!(cli(&["texture", "export", path(&lib), "-o", path(&png_path)]).status.code(), Some(2), "no entry named");
}

#[test]
fn committed_demo_tree_validates_and_its_models_export() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    let o = cli(&["validate", path(&demo)]);
    assert!(o.status.success(), "validate failed: {}", stdout(&o));
    assert!(stdout(&o).contains("strict failures: 0"), "{}", stdout(&o));
    let out = std::env::temp_dir().join(format!("iron3d-demo-model-{}.glb", std::process::id()));
    for entry in ["units.rlb::r_ch_02.msh", "bases.rlb::b_tele_01.msh", "static.rlb::s_tree_0_01.msh"] {
        let source = format!("{}/{}", path(&demo), entry);
        let o = cli(&["model", "export", &source, "-o", path(&out), "--strict", "--frame", "8"]);
        assert!(o.status.success(), "{entry}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0) > 1000);
    }
    let _ = std::fs::remove_file(out);
}

/// `sim run`: the JSON contract, orders applied, deterministic hashes, located order errors.
#[test]
fn sim_run_reports_hashes_objects_and_events_and_rejects_bad_orders() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let dir = std::env::temp_dir().join(format!("iron3d-cli-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |orders: &str| {
        let file = dir.join("orders.json");
        std::fs::write(&file, orders).unwrap();
        cli(&[
            "sim",
            "run",
            demo,
            "tutorial.01",
            "--ticks",
            "60",
            "--orders",
            file.to_str().unwrap(),
            "--hash-every",
            "25",
            "--json",
        ])
    };
    let first = run("[]");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let r: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(
        (r["mission"].as_str(), r["ticks"].as_u64(), r["tick_ms"].as_u64()),
        (Some("tutorial.01"), Some(60), Some(64))
    );
    let ticks: Vec<u64> = r["hashes"].as_array().unwrap().iter().map(|h| h["tick"].as_u64().unwrap()).collect();
    assert_eq!(ticks, [25, 50, 60]);
    let clans = r["clans"].as_array().unwrap();
    let rows: Vec<(u64, u64, bool)> = clans
        .iter()
        .map(|c| (c["index"].as_u64().unwrap(), c["slot"].as_u64().unwrap(), c["outcome"].is_null()))
        .collect();
    assert_eq!(rows, [(0, 0, true), (1, 1, true), (2, 2, true), (3, 3, true)], "every clan with its GetSuperAI slot");
    assert_eq!(clans[1]["units"].as_u64(), Some(6), "three robots, a transport, a builder and the hero");
    assert_eq!(clans[3]["type"], "neutral");
    // The mine (object 1) held 200 and dug 50 a second × its efficiency for 60 ticks, up
    // to its 500: its clan's ore with the 200 its builder holds.
    assert!(clans[1]["buildings"].as_u64().unwrap() > 0);
    let kpd = r["objects"].as_array().unwrap().iter().find(|o| o["id"] == 1).unwrap()["efficiency"].as_f64().unwrap();
    let dug = (200.0 + 50.0 * kpd * 60.0 * 0.064).min(500.0);
    let ore = clans[1]["ore"].as_f64().unwrap() - 200.0;
    assert!((ore - dug).abs() < 0.01, "{ore} at KPD {kpd}");
    assert_eq!(clans[1]["ore_percent"].as_u64(), Some((dug / 45.0).round() as u64), "over 4500");
    // Each base: a generator (10 a second) and three bunkers (0.07 each) supply 10.21;
    // its eight other buildings draw 0.01 each and its digging mine 1 more: 1.08. The
    // map's power is both bases': (10.21 - 1.08) / 20.42 is 45 % for the idle player;
    // the computer clan's plant, hangar and centre draw their Use_Power while they build
    // and research.
    let energy: Vec<u64> = clans.iter().map(|c| c["energy_percent"].as_u64().unwrap()).collect();
    assert_eq!(energy[..2], [0, 45], "the nature clan has no generator");
    assert!(energy[2] < 45, "{energy:?}");
    assert!(clans[1]["power"].is_number());
    assert!(r["hashes"].as_array().unwrap().iter().all(|h| h["hash"].as_str().unwrap().len() == 16));
    let objects = r["objects"].as_array().unwrap();
    let ids: Vec<u64> = objects.iter().map(|o| o["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted by id");
    let unit = objects.iter().find(|o| o["state"] != "idle").expect("a unit moves on its standing order");
    let id = unit["id"].as_u64().unwrap();
    assert!(unit["efficiency"].is_null(), "a unit has no efficiency");
    assert!(objects.iter().any(|o| o["efficiency"].as_f64().is_some_and(|k| k > 0.0)), "buildings give their KPD");
    // The same run again gives the same hashes; an order changes them.
    assert_eq!(run("[]").stdout, first.stdout);
    let stop = run(&format!(r#"[{{"tick": 1, "units": [{id}], "order": "stop"}}]"#));
    let s: serde_json::Value = serde_json::from_slice(&stop.stdout).unwrap();
    assert_ne!(s["hashes"], r["hashes"]);
    let stopped = s["objects"].as_array().unwrap().iter().find(|o| o["id"] == unit["id"]).unwrap().clone();
    assert_eq!(stopped["state"], "idle");
    for (orders, message) in [
        ("{}", "is a JSON array"),
        (r#"[{"tick": 1, "units": [9999], "order": "stop"}]"#, "entry 0: no object with id 9999"),
        (r#"[{"tick": 1, "units": [0], "order": "stop"}]"#, "entry 0: object 0 does not move"),
        (r#"[{"tick": 1, "units": [1]}, {"tick": 1}]"#, "entry 0: no \"order\""),
        (r#"[{"tick": 1, "units": [1], "order": {"fly": 3}}]"#, "entry 0: unknown order"),
        (r#"[{"tick": 1, "units": [18], "order": {"search_lodes": false}}]"#, "entry 0: search_lodes takes true"),
        (
            r#"[{"tick": 1, "units": [18], "order": {"search_lodes": true}}]"#,
            "entry 0: search_lodes: object 18 is not a builder",
        ),
    ] {
        let out = run(orders);
        assert_eq!(out.status.code(), Some(2), "{orders}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{orders}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `sim run` with a haul order on the demo: the Player's transport carries a load from
/// its mine to its storage.
#[test]
fn sim_run_hauls_ore_with_a_transport() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let dir = std::env::temp_dir().join(format!("iron3d-cli-haul-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("orders.json");
    // tutorial.01: object 1 is the Player's mine, 2 its storage, 18 its transport.
    std::fs::write(&file, r#"[{"tick": 1, "units": [18], "order": {"haul": 1}}]"#).unwrap();
    let out =
        cli(&["sim", "run", demo, "tutorial.01", "--ticks", "1200", "--orders", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trips: Vec<(serde_json::Value, serde_json::Value)> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "loaded" || e["kind"] == "unloaded")
        .filter(|e| e["ids"][0] == 18)
        .map(|e| (e["ids"].clone(), e["detail"].clone()))
        .collect();
    assert_eq!(
        trips[..2],
        [(serde_json::json!([18, 1]), "ore=2000".into()), (serde_json::json!([18, 2]), "ore=2000".into())],
        "a full load (haul.capacity, the original's 2000) from the mine to the storage"
    );
    // The digging mine's 500 came back as the transport loaded: the storage's 2000 are
    // the clan's besides (and what the transport carries on its next trip).
    let ore = r["clans"][1]["ore"].as_f64().unwrap();
    assert!(ore >= 2500.0 - 0.01, "{ore}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `sim run --json` prints the demo script's `message` and `objective` events (function
/// 30 of the player clan's `Mission` handler: the start message on its first run, the
/// reinforcement's and the bonus objective on their timers, at most 2 × 8 s + 2 s in,
/// then the attack message with the objective).
#[test]
fn sim_run_json_shows_the_scripts_message_and_objective_events() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let out = cli(&["sim", "run", demo, "tutorial.01", "--ticks", "300", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let of = |kind: &str| -> Vec<(u64, String)> {
        let events = r["events"].as_array().unwrap().iter().filter(|e| e["kind"] == kind);
        events.map(|e| (e["tick"].as_u64().unwrap(), e["detail"].as_str().unwrap().to_string())).collect()
    };
    let (message, objective) = (of("message"), of("objective"));
    let ids: Vec<&str> = message.iter().map(|m| m.1.as_str()).collect();
    assert_eq!(ids, ["clan=1 id=0", "clan=1 id=2", "clan=1 id=1"], "{message:?}");
    assert_eq!(objective.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(), ["clan=1 id=1 complete"], "{objective:?}");
    assert!(message[0].0 < 40, "the start message on the handler's first run: {message:?}");
    assert!(message[1].0 < objective[0].0, "the reinforcement's first");
    assert_eq!(message[2].0, objective[0].0, "the attack message with the bonus objective");
    assert!(of("script").iter().any(|s| s.1.contains("victory rule is off")), "the rule's decision is logged");
    assert_eq!(r["clans"][1]["outcome"], serde_json::Value::Null, "a bonus objective does not end the mission");
}

/// `sim run` with production orders on the demo: a robot is built and reported, a bad
/// production order is exit status 2 naming the entry, a locked scheme a run-time event.
#[test]
fn sim_run_builds_robots_from_build_orders() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let dir = std::env::temp_dir().join(format!("iron3d-cli-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |orders: &str, ticks: &str| {
        let file = dir.join("orders.json");
        std::fs::write(&file, orders).unwrap();
        cli(&["sim", "run", demo, "tutorial.01", "--ticks", ticks, "--orders", file.to_str().unwrap(), "--json"])
    };
    // tutorial.01: object 3 is the Player's plant, 6 its institute, 15 a robot.
    let orders = r#"[{"tick": 2, "units": [3], "order": {"build": "UNITS\\ROBOTS\\scout.dat"}},
        {"tick": 2, "units": [4], "order": {"build": "units/robots/tank.dat"}},
        {"tick": 2, "units": [6], "order": {"research": "R_L_04"}}]"#;
    let out = run(orders, "300");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = r["events"].as_array().unwrap();
    // The Player's buildings (the computer clan builds on its own, from objects past 20).
    let of = |kind: &str| {
        events.iter().filter(|e| e["kind"] == kind && e["ids"][0].as_u64() < Some(10)).cloned().collect::<Vec<_>>()
    };
    let produced = of("produced");
    assert_eq!(produced.len(), 1, "{produced:?}");
    let id = produced[0]["ids"][1].clone();
    assert_eq!(produced[0]["ids"][0], 3);
    assert!(id.as_u64() >= Some(80), "an id past the 80 placed objects (the computer clan builds too): {id}");
    assert_eq!(produced[0]["detail"], "units\\robots\\scout.dat");
    let tick = produced[0]["tick"].as_u64().unwrap();
    assert!(tick >= 2 + 79 - 1, "a paid robot takes 5 s at least (79 ticks of 64 ms), then its ore: {tick}");
    let rejected = of("rejected");
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0]["ids"], serde_json::json!([4]));
    assert!(rejected[0]["detail"].as_str().unwrap().contains("R_L_04 is not researched"));
    assert_eq!(of("researched")[0]["detail"], "clan=1 node=1 CH2");
    let robot = r["objects"].as_array().unwrap().iter().find(|o| o["id"] == id).expect("the robot is an object");
    assert!(robot["areal"].as_i64().unwrap() >= 0, "on walkable ground");
    assert_eq!(r["clans"][1]["units"].as_u64(), Some(7), "the placed five, the hero and the new robot");
    // The scout's parts and the research of R_L_04 were pulled from the clan's only
    // store, its mine, which digs on and writes its running total back: its full 500,
    // and what the plant and the centre hold of what they last asked for (under 1),
    // beside the 200 its builder holds.
    let ore = r["clans"][1]["ore"].as_f64().unwrap() - 200.0;
    assert!((500.0..501.0).contains(&ore), "{ore}");
    for (orders, message) in [
        (
            r#"[{"tick": 1, "units": [15], "order": {"build": "UNITS\\ROBOTS\\scout.dat"}}]"#,
            "entry 0: object 15 is not a production building",
        ),
        (
            r#"[{"tick": 1, "units": [3], "order": {"build": "UNITS\\ROBOTS\\nope.dat"}}]"#,
            "entry 0: scheme units\\robots\\nope.dat",
        ),
        (
            r#"[{"tick": 1, "units": [3], "order": {"build": "UNITS\\BUILDS\\fr_l_gener.dat"}}]"#,
            "has no production cost",
        ),
        (r#"[{"tick": 1, "units": [3], "order": {"build": 7}}]"#, "entry 0: build takes a unit scheme path"),
        (r#"[{"tick": 1, "units": [6], "order": {"research": "x_none"}}]"#, "entry 0: no node named x_none"),
        (r#"[{"tick": 1, "units": [6], "order": {"research": 99}}]"#, "entry 0: no node 99"),
        (r#"[{"tick": 1, "units": [3], "order": {"research": 1}}]"#, "entry 0: object 3 is not a research building"),
        (r#"[{"tick": 1, "units": [15], "order": {"haul": 1}}]"#, "entry 0: haul: object 15 is not a transport robot"),
        (r#"[{"tick": 1, "units": [18], "order": {"haul": 2}}]"#, "entry 0: haul: object 2 is not a mine"),
        (r#"[{"tick": 1, "units": [18], "order": {"haul": 20}}]"#, "entry 0: haul: mine 20 is not of clan 1"),
        (r#"[{"tick": 1, "units": [18], "order": {"haul": "1"}}]"#, "entry 0: haul takes an object id"),
    ] {
        let out = run(orders, "2");
        assert_eq!(out.status.code(), Some(2), "{orders}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{orders}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Rewrites a mission of `game`: drops the objects of clan `gone`, and gives the player
/// clan (1) the `nature` script package, which has neither `Mission_Complete` nor
/// `Mission_Failed` (data the project did not write for this).
fn without_clan(game: &Path, mission: &str, gone: u32) {
    use iron3d_formats::world::Tma;
    let file = game.join(mission).join("data.tma");
    let mut tma = Tma::parse(&std::fs::read(&file).unwrap(), iron3d_formats::ReadOptions::strict()).unwrap();
    tma.objects.retain(|o| o.raw_after_resource != gone);
    tma.clans[1].script = "MISSIONS\\SCRIPTS\\nature".into();
    std::fs::write(file, tma.to_bytes().unwrap()).unwrap();
}

#[test]
fn mission_list_and_headless_campaign_runs_share_the_progress() {
    let demo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo"));
    let game = scratch("campaign-game");
    copy_tree(demo, &game);
    let user = scratch("campaign-user");
    let list = || {
        let out = cli(&["mission", "list", path(&game), "--user-dir", path(&user), "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["missions"].as_array().unwrap().clone()
    };
    let states = |rows: &[serde_json::Value]| -> Vec<(String, String, String)> {
        rows.iter()
            .map(|m| {
                (
                    m["name"].as_str().unwrap().into(),
                    m["kind"].as_str().unwrap().into(),
                    m["state"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let row = |n: &str, k: &str, s: &str| (n.to_string(), k.to_string(), s.to_string());
    let first = list();
    assert_eq!(
        states(&first),
        [
            row("campaign.01/mission.01", "campaign", "available"),
            row("campaign.01/mission.02", "campaign", "locked"),
            row("campaign.01/mission.03", "campaign", "locked"),
            row("single.01", "single", "available"),
            row("single.02", "single", "available"),
            row("tutorial.01", "tutorial", "available"),
        ]
    );
    assert_eq!(first[0]["title"], "Кампания 1, миссия 1: Высадка", "the CP1251 descr");

    // The enemy has nothing left and the player's script has no Mission_Complete: won all the same.
    without_clan(&game, "MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.01", 2);
    let run = |mission: &str| {
        let out = cli(&["sim", "run", path(&game), mission, "--ticks", "8", "--user-dir", path(&user), "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let r = run("CAMPAIGN.01\\MISSION.01");
    assert_eq!(r["mission"], "campaign.01/mission.01", "the name as every tool prints it");
    assert_eq!(r["clans"][1]["outcome"], "completed");
    let details: Vec<&str> = r["events"].as_array().unwrap().iter().filter_map(|e| e["detail"].as_str()).collect();
    assert!(
        details.iter().any(|d| d.contains("handler=Mission_Complete") && d.contains("no such event")),
        "the event is reported missing: {details:?}"
    );
    assert!(details.contains(&"clan=1 completed"), "{details:?}");
    let after = list();
    assert_eq!(after[0]["state"], "completed");
    assert_eq!(after[1]["state"], "available", "the next mission is unlocked");
    let progress = std::fs::read(user.join("progress.ron")).unwrap();
    run("campaign.01/mission.01");
    assert_eq!(std::fs::read(user.join("progress.ron")).unwrap(), progress, "applying it again changes nothing");

    // The player has nothing left: failed, without a Mission_Failed event.
    without_clan(&game, "MISSIONS/CAMPAIGN/CAMPAIGN.01/MISSION.02", 1);
    assert_eq!(run("campaign.01/mission.02")["clans"][1]["outcome"], "failed");
    assert_eq!(list()[1]["state"], "failed");

    // A listed mission whose files do not load is listed broken, with the file.
    std::fs::write(game.join("MISSIONS/single.01/data.tma"), b"not a mission").unwrap();
    let broken = list();
    assert_eq!(broken[3]["state"], "broken");
    assert!(broken[3]["error"].as_str().unwrap().contains("single.01/data.tma"), "{}", broken[3]);
    let table = cli(&["mission", "list", path(&game), "--user-dir", path(&user)]);
    assert!(stdout(&table).contains("campaign.01/mission.01") && stdout(&table).contains("completed"));
    let _ = std::fs::remove_dir_all(game);
    let _ = std::fs::remove_dir_all(user);
}

/// `--mod`: a mod directory adds a mission and replaces a unit scheme (in other letter
/// case than the game's); both are seen by `sim run` (the mission loads, the scheme's
/// robots differ, the state hash differs), `mission graph --json` and `validate --json`
/// name the layer of every file, and a mod that does not exist is an error naming it.
#[test]
fn a_mod_adds_a_mission_and_replaces_a_scheme() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    let root = scratch("mod");
    let m = root.join("bigscouts");
    std::fs::create_dir_all(m.join("missions/Single.03")).unwrap();
    for file in ["data.tma", "mission.cfg", "sky.wea", "weather.ron", "descr"] {
        std::fs::copy(demo.join("MISSIONS/tutorial.01").join(file), m.join("missions/Single.03").join(file)).unwrap();
    }
    std::fs::create_dir_all(m.join("units/robots")).unwrap();
    std::fs::copy(demo.join("UNITS/ROBOTS/tank.dat"), m.join("units/robots/SCOUT.DAT")).unwrap();
    let run = |mission: &str, mods: &[&Path]| {
        let mut args = vec!["sim", "run", path(&demo), mission, "--ticks", "20", "--json"];
        mods.iter().for_each(|d| args.extend(["--mod", path(d)]));
        cli(&args)
    };
    let json = |o: &Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    assert_eq!(run("single.03", &[]).status.code(), Some(1), "the game alone has no such mission");
    let added = json(&run("SINGLE.03", &[&m]));
    let names: Vec<&str> = added["layers"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["project", "game", "mod:bigscouts"]);
    let (plain, modded) = (json(&run("tutorial.01", &[])), json(&run("tutorial.01", &[&m])));
    assert_ne!(plain["hashes"], modded["hashes"], "the mod is in the state hash");
    let radii = |r: &serde_json::Value| -> Vec<String> {
        r["objects"].as_array().unwrap().iter().map(|o| o["radius"].to_string()).collect()
    };
    assert_ne!(radii(&plain), radii(&modded), "the scouts are built from the mod's scheme");
    assert_eq!(radii(&added), radii(&modded), "the added mission is tutorial.01 under another name");

    let listed = |mods: &[&Path]| -> Vec<String> {
        let mut args = vec!["mission", "list", path(&demo), "--json"];
        mods.iter().for_each(|d| args.extend(["--mod", path(d)]));
        let v = json(&cli(&args));
        v["missions"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect()
    };
    assert!(!listed(&[]).contains(&"single.03".to_string()));
    assert!(listed(&[&m]).contains(&"single.03".to_string()), "the mod's mission is listed");

    let graph = cli(&["mission", "graph", path(&demo), "tutorial.01", "--json", "--mod", path(&m)]);
    let g = json(&graph);
    let files = g["files"].as_array().unwrap();
    let row = |name: &str| files.iter().find(|f| f["file"] == name).unwrap_or_else(|| panic!("{name}: {files:?}"));
    assert_eq!(row("units/robots/scout.dat")["layer"], "mod:bigscouts");
    assert_eq!(row("units/robots/scout.dat")["layers"], serde_json::json!(["game", "mod:bigscouts"]));
    assert_eq!(row("units/robots/tank.dat")["layer"], "game");
    assert_eq!(g["layers"].as_array().unwrap().len(), 3);

    let v = json(&cli(&["validate", path(&demo), "--json", "--mod", path(&m)]));
    let layers = v["layers"].as_array().unwrap();
    assert!(layers.iter().all(|l| l["fingerprint"].as_str().unwrap().len() == 16), "{layers:?}");
    assert_eq!(layers[2]["root"], path(&m));
    assert!(v["files"].as_array().unwrap().iter().all(|f| f["layer"] == "game"), "the mod holds no archive");

    let absent = root.join("absent");
    let o = run("tutorial.01", &[&m, &absent]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("mod:absent") && err.contains(path(&absent)), "{err}");
    let _ = std::fs::remove_dir_all(root);
}

/// `sim run --save-at/--save`, `--load`, `--record`, `sim replay` and `save info` on the
/// demo: the loaded run reports what the run that never stopped reports; a damaged file,
/// another mission or a replay that diverges is exit status 1 with a located message.
#[test]
fn sim_saves_loads_records_and_replays() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let dir = scratch("save");
    let (save, replay, orders) = (dir.join("s.i3save"), dir.join("r.i3replay"), dir.join("orders.json"));
    // tutorial.01: object 18 is the Player's transport, 1 its mine, 15 a robot.
    std::fs::write(
        &orders,
        r#"[{"tick": 1, "units": [18], "order": {"haul": 1}}, {"tick": 20, "units": [15], "order": {"move_to": [60, 60]}},
        {"tick": 70, "units": [15], "order": "stop"}]"#,
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args =
            vec!["sim", "run", demo, "--ticks", "120", "--orders", path(&orders), "--hash-every", "8", "--json"];
        args.extend_from_slice(extra);
        cli(&args)
    };
    let straight = run(&["tutorial.01", "--save-at", "50", "--save", path(&save), "--record", path(&replay)]);
    assert!(straight.status.success(), "{}", String::from_utf8_lossy(&straight.stderr));
    let loaded = run(&["--load", path(&save)]);
    assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
    let json = |o: &Output| serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
    assert_eq!(json(&loaded), json(&straight), "the loaded game goes on as the one that never stopped");
    let info = cli(&["save", "info", path(&save), "--json"]);
    let info = json(&info);
    assert_eq!((info["mission"].as_str(), info["tick"].as_u64()), (Some("tutorial.01"), Some(50)));
    assert!(info["chunks"].as_array().unwrap().iter().any(|c| c["name"] == "cmds"));
    let checked = cli(&["sim", "replay", demo, path(&replay), "--json"]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let checked = json(&checked);
    assert_eq!(
        (checked["hash_checks"].as_u64(), checked["mismatches"].as_u64()),
        (Some(15), Some(0)),
        "ticks 8, 16, ..., 120"
    );
    assert_eq!(checked["final_hash"], json(&straight)["hashes"].as_array().unwrap().last().unwrap()["hash"]);
    let other = run(&["single.01", "--load", path(&save)]);
    assert_eq!(other.status.code(), Some(1));
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(message.contains("tutorial.01") && message.contains("single.01"), "{message}");
    // A replay whose recorded hash at tick 64 is wrong diverges there.
    let mut record =
        iron3d_save::Record::decode(&std::fs::read(&replay).unwrap(), iron3d_save::FileKind::Replay).unwrap();
    record.hashes.iter_mut().filter(|h| h.0 == 64).for_each(|h| h.1 ^= 1);
    std::fs::write(&replay, record.encode().unwrap()).unwrap();
    let diverged = cli(&["sim", "replay", demo, path(&replay), "--json"]);
    assert_eq!(diverged.status.code(), Some(1));
    assert_eq!(json(&diverged)["first_mismatch"]["tick"], 64);
    assert!(String::from_utf8_lossy(&diverged.stderr).contains("diverges at tick 64"));
    let mut bytes = std::fs::read(&save).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x10;
    std::fs::write(&save, &bytes).unwrap();
    for args in [vec!["save", "info", path(&save)], vec!["sim", "run", demo, "--load", path(&save), "--ticks", "60"]] {
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(message.contains("s.i3save: tabl at offset") && message.contains("checksum"), "{message}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// With `--load`, the orders up to the save's tick are neither checked nor applied: an
/// orders file the run that never stopped took is taken, although a unit it names
/// before the save has been destroyed since (issue 42).
#[test]
fn sim_run_load_takes_the_orders_file_whose_early_units_are_gone() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    let dir = scratch("load-gone");
    let (save, orders) = (dir.join("s.i3save"), dir.join("orders.json"));
    let json = |o: &Output| serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
    let run = |ticks: &str, extra: &[&str]| {
        let mut args = vec!["sim", "run", demo, "tutorial.01", "--ticks", ticks, "--hash-every", "100", "--json"];
        args.extend_from_slice(extra);
        cli(&args)
    };
    // tutorial.01: the Player's three robots (15 to 17) sent at tick 1 against the
    // Enemy's bunker (22), inside its base's defences.
    let sent = [15u64, 16, 17];
    std::fs::write(&orders, r#"[{"tick": 1, "units": [15, 16, 17], "order": {"attack": 22}}]"#).unwrap();
    let fight = json(&run("4000", &["--orders", path(&orders)]));
    let (gone_at, unit) = fight["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "destroyed" && e["detail"] == "")
        .map(|e| (e["tick"].as_u64().unwrap(), e["ids"][0].as_u64().unwrap()))
        .find(|(_, id)| sent.contains(id))
        .expect("a robot sent against the bunker is destroyed");
    // Saved 10 ticks after the unit is gone, compared 100 ticks on.
    let (at, end) = ((gone_at + 10).to_string(), (gone_at + 110).to_string());
    let straight = run(&end, &["--orders", path(&orders), "--save-at", &at, "--save", path(&save)]);
    assert!(straight.status.success(), "{}", String::from_utf8_lossy(&straight.stderr));
    let loaded = cli(&[
        "sim",
        "run",
        demo,
        "--ticks",
        &end,
        "--hash-every",
        "100",
        "--json",
        "--load",
        path(&save),
        "--orders",
        path(&orders),
    ]);
    assert!(loaded.status.success(), "unit {unit}, gone at {gone_at}: {}", String::from_utf8_lossy(&loaded.stderr));
    assert_eq!(json(&loaded), json(&straight), "the loaded game goes on as the one that never stopped");
    let _ = std::fs::remove_dir_all(dir);
}

/// The economy follows the data's `behpsp.res`, not a constant (issue 41): on a copy of
/// the demo whose generator profile gives 30 a second, each base's power is 30 and its
/// three bunkers' 0.07, where the demo's file gives 10.
#[test]
fn sim_run_follows_the_datas_behaviour_profiles() {
    use iron3d_formats::script::{VarBin, VarItem};
    let dir = scratch("profiles");
    let built = cli(&["demo", "build", path(&dir)]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let power = |dir: &Path| {
        let out = cli(&["sim", "run", path(dir), "tutorial.01", "--ticks", "2", "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        r["clans"][1]["power"].as_f64().unwrap()
    };
    assert!((power(&dir) - 10.21).abs() < 1e-4, "the demo's prof_generator: 10");
    let out = |value: f32| VarItem {
        value_length: 4,
        value_type: 3,
        reserved: 0,
        name: b"Transfer_Power_Out".to_vec(),
        string2: Vec::new(),
        values: [value.to_bits(); 4],
    };
    let mut archive = NresWriter::new();
    for (name, value) in [("prof_generator.var", 30.0), ("prof_bunker.var", 0.07)] {
        let set = VarBin { items: vec![out(value)] }.to_bytes().unwrap();
        archive.add(0, [0; 3], name.as_bytes(), set).unwrap();
    }
    std::fs::write(dir.join("behpsp.res"), archive.to_bytes().unwrap()).unwrap();
    assert!((power(&dir) - 30.21).abs() < 1e-4, "the changed file's 30");
    let _ = std::fs::remove_dir_all(dir);
}

/// `unit design` (issue 44's contract): the designer's fit, the tree's price and the
/// refusals, on the committed demo and under a mod whose tree doubles every build cost.
#[test]
fn unit_design_prices_rates_and_writes_a_design_or_refuses_naming_the_part() {
    use iron3d_formats::nres::{Nres, NresDocument};
    use iron3d_formats::registry::unit_dat::UnitDat;
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
    let dir = scratch("unit-design");
    let out = dir.join("scout.dat");
    let design = |extra: &[&str]| {
        let mut args = vec!["unit", "design", path(&demo), "--chassis", "R_L_03", "--turret", "e_tur_lt_01"];
        args.extend(extra);
        args.extend(["-o", path(&out), "--json"]);
        let o = cli(&args);
        (o.status.success(), serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap())
    };
    // The price is the sum of the three parts' build costs in the player clan's tree.
    let trf = "MISSIONS/SCRIPTS/default.trf";
    let tree_of = |bytes: &[u8]| iron3d_production::ResearchTree::parse(trf, bytes).unwrap();
    let parts: Vec<String> = ["R_L_03", "e_tur_lt_01", "e_gun_lc_01"].map(String::from).into();
    let (ore, power) = tree_of(&std::fs::read(demo.join(trf)).unwrap()).build_price(&parts).unwrap();
    let (ok, r) = design(&["--gun", "central_lc=e_gun_lc_01"]);
    assert!(ok, "{r}");
    assert_eq!(r["price"], serde_json::json!({"ore": ore, "power": power, "seconds": 5.0}));
    assert_eq!(r["parts"], serde_json::json!(parts));
    assert_eq!(r["type"], "0x01008000", "a battle turret makes a warrior");
    assert_eq!(r["name"], "SWW-X Warrior", "a small wheeled warrior (its record's profile chas_wel)");
    let (mass, spare, speed) =
        (r["mass"].as_f64().unwrap(), r["spare"].as_f64().unwrap(), r["speed"].as_f64().unwrap());
    assert!(mass > 0.0 && spare > 0.0 && speed > 0.0 && r["offence"].as_f64() > Some(0.0), "{r}");
    assert_eq!(r["kph"].as_f64().map(|k| (k / 3.6 - speed).abs() < 1e-3), Some(true));
    // Each part's box: its item's stat template's rows, the part's figures with one decimal.
    let rows = |part: &str| -> Vec<(String, String)> { serde_json::from_value(r["boxes"][part].clone()).unwrap() };
    let labels = |part: &str| rows(part).into_iter().map(|(l, _)| l).collect::<Vec<_>>();
    assert_eq!(labels("R_L_03"), ["Weight", "Payload", "Max. speed"]);
    assert_eq!(labels("e_tur_lt_01"), ["Weight"]);
    assert_eq!(labels("e_gun_lc_01"), ["Weight", "Wattage", "Rate of fire", "Damage", "Range"]);
    let one_decimal = |v: &str| v.split(' ').next().and_then(|n| n.split_once('.')).is_some_and(|(_, d)| d.len() == 1);
    assert!(rows("e_gun_lc_01").iter().all(|(_, v)| one_decimal(v)), "{:?}", rows("e_gun_lc_01"));
    let weights: f64 = parts.iter().map(|p| rows(p)[0].1.trim_end_matches(" t").parse::<f64>().unwrap()).sum();
    assert!((weights - mass / 1000.0).abs() < 0.2, "the parts' weights ({weights} t) make the design's {mass} kg");
    // The file: chassis, turret on the chassis's socket node, gun on the turret's.
    let dat = UnitDat::parse(&std::fs::read(&out).unwrap()).unwrap();
    let c = dat.components().unwrap();
    let shape: Vec<_> = c.iter().map(|c| (c.key.as_str(), c.component_type, c.link, c.parent)).collect();
    assert_eq!(shape, [("R_L_03", 0, -1, None), ("e_tur_lt_01", 1, 1, Some(0)), ("e_gun_lc_01", 4, 2, Some(1))]);
    assert_eq!(dat.class_word(), 0x0100_8000);
    // A factory at half efficiency pays twice the ore.
    let (_, half) = design(&["--gun", "2=e_gun_lc_01", "--efficiency", "0.5"]);
    assert_eq!(half["price"]["ore"].as_f64(), Some(f64::from(ore) * 2.0));
    // Refusals name the part: a gun its socket does not take, a part not researched.
    let (ok, r) = design(&["--gun", "2=e_gun_ll_03"]);
    assert!(!ok);
    assert_eq!(r["refused"]["part"], "e_gun_ll_03");
    assert!(r["refused"]["why"].as_str().unwrap().contains("takes e_gun_lc"), "{r}");
    // The demo's controllers label no slots: a part chosen for one has none to go in.
    let (ok, r) = design(&["--gun", "2=e_gun_lc_01", "--part", "i_arm_l=e_gun_lc_02"]);
    assert!(!ok);
    assert_eq!(r["refused"]["part"], "e_gun_lc_02");
    assert!(r["refused"]["why"].as_str().unwrap().contains("no slot labelled i_arm_l"), "{r}");
    let o = cli(&["unit", "design", path(&demo), "--chassis", "R_L_04", "--turret", "e_tur_lt_02", "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("R_L_04: not researched or not in the tree"), "{err}");
    // A tree whose build costs are doubled doubles the price.
    let m = dir.join("mod");
    let bytes = std::fs::read(demo.join(trf)).unwrap();
    let archive = Nres::parse(&bytes, iron3d_formats::ReadOptions::strict()).unwrap();
    let mut doc = NresDocument::from_archive(&archive);
    let at = doc.entries().iter().position(|e| e.row.name() == b"TRF0").unwrap();
    let mut items = doc.entries()[at].payload.clone();
    for item in items.chunks_exact_mut(iron3d_formats::helpers::trf::NODE_SIZE) {
        for at in [8, 12] {
            let v = f32::from_le_bytes(item[at..at + 4].try_into().unwrap()) * 2.0;
            item[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    doc.set_payload(at, items).unwrap();
    std::fs::create_dir_all(m.join("MISSIONS/SCRIPTS")).unwrap();
    std::fs::write(m.join(trf), doc.save().unwrap()).unwrap();
    let (ok, r) = design(&["--gun", "2=e_gun_lc_01", "--mod", path(&m)]);
    assert!(ok, "{r}");
    assert_eq!(r["price"]["ore"].as_f64(), Some(f64::from(ore) * 2.0));
    assert_eq!(r["price"]["power"].as_f64(), Some(f64::from(power) * 2.0));
    // A factory builds a design ({"build_design": FILE}, a file anywhere) from the bytes
    // the game keeps: a save made mid-build carries it, and the loaded game finishes
    // the robot with the file gone.
    let orders = dir.join("orders.json");
    let order = serde_json::json!([{"tick": 2, "units": [3], "order": {"build_design": path(&out)}}]);
    std::fs::write(&orders, order.to_string()).unwrap();
    let save = dir.join("mid_build.sav");
    let run = |extra: &[&str]| {
        let o = cli(&[&["sim", "run", path(&demo), "tutorial.01", "--ticks", "100", "--json"][..], extra].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let produced = r["events"].as_array().unwrap().iter().find(|e| e["kind"] == "produced" && e["ids"][0] == 3);
        let produced = produced.map(|e| (e["detail"].as_str().unwrap().to_string(), e["ids"][1].clone()));
        let name = |id: &serde_json::Value| {
            let o = r["objects"].as_array().unwrap().iter().find(|o| o["id"] == *id).unwrap();
            o["name"].as_str().unwrap().to_string()
        };
        let player = r["clans"].as_array().unwrap().iter().find(|c| c["type"] == "player").unwrap();
        produced.map(|(detail, id)| (detail, name(&id), player["units"].as_u64().unwrap()))
    };
    let (built, name, units) = run(&["--orders", path(&orders), "--save-at", "40", "--save", path(&save)]).unwrap();
    assert!(built.starts_with("units\\design_"), "the design's own name: {built}");
    assert_eq!(name, format!("SWW-{units} Warrior"), "numbered by its clan's running count, the new bot counted");
    std::fs::remove_file(&out).unwrap();
    assert_eq!(run(&["--load", path(&save)]), Some((built, name, units)), "the save carried the design");
}

/// The original's capture and the hero's Enter through `sim run`, on a copy of the demo
/// laid out like an installed original: the hero (marked in `objects[]`) takes the
/// neutral clan's robot by his Enter and its bunker through the control pod
/// (`captured` events naming the clans), the robot holds no mind; a bot is refused his
/// Enter.
#[test]
fn sim_run_the_hero_captures_a_neutral_robot_and_a_building_through_its_pod() {
    let dir = scratch("capture");
    let game = dir.join("game");
    let o = cli(&["demo", "build", path(&game), "--original-like"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("orders.json");
    let run_with = |orders: &serde_json::Value, ticks: &str, extra: &[&str]| {
        std::fs::write(&file, orders.to_string()).unwrap();
        let args = ["sim", "run", path(&game), "TUTORIAL.01", "--ticks", ticks, "--orders", path(&file), "--json"];
        let o = cli(&[&args[..], extra].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let run = |orders: &serde_json::Value, ticks: &str| run_with(orders, ticks, &[]);
    let r = run(&serde_json::json!([]), "1");
    let objects = r["objects"].as_array().unwrap().clone();
    let heroes: Vec<&serde_json::Value> = objects.iter().filter(|o| o["hero"] == true).collect();
    assert_eq!(heroes.len(), 1, "the player's hero is marked");
    let (hero, player) = (heroes[0]["id"].as_u64().unwrap(), heroes[0]["clan"].as_u64().unwrap());
    let neutral = r["clans"].as_array().unwrap().iter().find(|c| c["type"] == "neutral").unwrap()["index"].clone();
    let of_neutral = |building: bool| {
        let o = objects.iter().find(|o| o["clan"] == neutral && o.get("efficiency").is_some() == building).unwrap();
        o["id"].as_u64().unwrap()
    };
    let (bunker, robot) = (of_neutral(true), of_neutral(false));
    let other = objects
        .iter()
        .find(|o| o["clan"] == player && o["id"] != hero && o["key"].as_str().unwrap().contains("ROBOTS"));
    let other = other.unwrap()["id"].as_u64().unwrap();
    let orders = serde_json::json!([
        {"tick": 1, "units": [hero], "order": {"capture": robot}},
        {"tick": 1, "units": [other], "order": {"board": robot}},
        {"tick": 400, "units": [hero], "order": {"capture": bunker}},
    ]);
    let r = run(&orders, "900");
    let events = r["events"].as_array().unwrap();
    let kind = |k: &str| events.iter().filter(|e| e["kind"] == k).cloned().collect::<Vec<_>>();
    let captured = kind("captured");
    let from_to = format!("from={neutral} to={player}");
    assert_eq!(captured.len(), 2, "{captured:?}");
    assert_eq!(
        (&captured[0]["ids"], captured[0]["detail"].as_str()),
        (&serde_json::json!([robot, hero]), Some(from_to.as_str()))
    );
    assert_eq!(
        (&captured[1]["ids"], captured[1]["detail"].as_str()),
        (&serde_json::json!([bunker, hero]), Some(from_to.as_str()))
    );
    let refused = kind("rejected");
    assert!(
        refused.iter().any(|e| e["ids"] == serde_json::json!([other, robot])
            && e["detail"].as_str().unwrap().contains("is not the hero")),
        "{refused:?}"
    );
    let clan = |id: u64| r["objects"].as_array().unwrap().iter().find(|o| o["id"] == id).unwrap()["clan"].clone();
    assert_eq!((clan(robot), clan(bunker)), (player.into(), player.into()));
    let minds = &r["clans"][player as usize];
    assert_eq!(
        minds["units"].as_u64().unwrap() - (minds["minds"].as_u64().unwrap() - minds["free_minds"].as_u64().unwrap()),
        1,
        "the taken robot holds no mind"
    );
    // A save made while the hero stands in the bunker's pod continues to the same end.
    let inside = captured[1]["tick"].as_u64().unwrap() - 20;
    let save = dir.join("in_the_pod.sav");
    run_with(&orders, "900", &["--save-at", &inside.to_string(), "--save", path(&save)]);
    let o =
        cli(&["sim", "run", path(&game), "--load", path(&save), "--ticks", "900", "--orders", path(&file), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let loaded: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(loaded["hashes"].as_array().unwrap().last(), r["hashes"].as_array().unwrap().last());
    assert_eq!(loaded["events"].as_array().unwrap().iter().filter(|e| e["kind"] == "captured").count(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// `sim run`'s guard (the original's patrol): a robot keeps to the ground about its place,
/// a guard of another clan's unit is refused by the run, a save in the middle continues
/// to the same hash, and a malformed guard is a usage error.
#[test]
fn sim_run_guards_a_place_and_refuses_a_guard_of_another_clans_unit() {
    let dir = scratch("guard");
    let game = dir.join("game");
    let o = cli(&["demo", "build", path(&game), "--original-like"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("orders.json");
    let run_with = |orders: &serde_json::Value, extra: &[&str]| {
        std::fs::write(&file, orders.to_string()).unwrap();
        let args = ["sim", "run", path(&game), "tutorial.01", "--ticks", "700", "--orders", path(&file), "--json"];
        cli(&[&args[..], extra].concat())
    };
    let r: serde_json::Value = serde_json::from_slice(&run_with(&serde_json::json!([]), &[]).stdout).unwrap();
    let objects = r["objects"].as_array().unwrap().clone();
    let hero = objects.iter().find(|o| o["hero"] == true).unwrap();
    let player = hero["clan"].clone();
    let robot_of = |o: &&serde_json::Value| o["key"].as_str().unwrap().contains("ROBOTS");
    let robot = objects.iter().find(|o| o["clan"] == player && o["hero"] != true && robot_of(o)).unwrap();
    let (id, at) = (robot["id"].as_u64().unwrap(), robot["position"].clone());
    let stranger = objects.iter().find(|o| o["clan"] != player && robot_of(o)).unwrap()["id"].clone();
    let place = serde_json::json!([at[0], at[1]]);
    let orders = serde_json::json!([
        {"tick": 1, "units": [id], "order": {"guard": {"at": place, "radius": 30}}},
        {"tick": 1, "units": [hero["id"]], "order": {"guard": stranger}},
    ]);
    let o = run_with(&orders, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let now = r["objects"].as_array().unwrap().iter().find(|o| o["id"] == id).unwrap()["position"].clone();
    let d = ((now[0].as_f64().unwrap() - at[0].as_f64().unwrap()).powi(2)
        + (now[1].as_f64().unwrap() - at[1].as_f64().unwrap()).powi(2))
    .sqrt();
    assert!(d <= 30.0 * 2f64.sqrt() + 10.0, "about its place: {d}");
    let refused: Vec<&serde_json::Value> =
        r["events"].as_array().unwrap().iter().filter(|e| e["kind"] == "rejected").collect();
    assert!(
        refused.iter().any(|e| e["ids"] == serde_json::json!([hero["id"], stranger])
            && e["detail"].as_str().unwrap().contains("guard: unit")),
        "{refused:?}"
    );
    let save = dir.join("guarding.sav");
    run_with(&orders, &["--save-at", "350", "--save", path(&save)]);
    let args = ["sim", "run", path(&game), "--load", path(&save), "--ticks", "700", "--orders", path(&file), "--json"];
    let o = cli(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let loaded: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(loaded["hashes"].as_array().unwrap().last(), r["hashes"].as_array().unwrap().last());
    let bad = serde_json::json!([{"tick": 1, "units": [id], "order": {"guard": "here"}}]);
    let o = run_with(&bad, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("guard takes"), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(dir);
}
