use super::*;
use crate::chunk::ChunkBody;
use crate::module::{Module, ReadOptions, resolve};
use std::path::PathBuf;

const DEMO: &[u8] = include_bytes!("../../tests/bake/demo.scn");
const CHILD: &[u8] = include_bytes!("../../tests/bake/demo_env.scm");
const SIGNAL: &[u8] = include_bytes!("../../tests/bake/objects/signal.inc");

fn text(scene: &Scene, s: Sid) -> String {
    String::from_utf8_lossy(resolve(&scene.strings, s)).into_owned()
}

/// The fixture holds every node kind the baker reads; its bake holds what its text
/// holds, kind by kind, and nothing is skipped.
#[test]
fn a_bake_holds_the_records_its_text_holds() {
    let Baked { scene: s, warnings } = bake(DEMO, "demo.scn").unwrap();
    assert_eq!(warnings, [], "every token understood");
    let counts = [
        s.includes.len(),
        s.tracks.len(),
        s.shapes.len(),
        s.lines.len(),
        s.models.len(),
        s.traction.len(),
        s.power.len(),
        s.memcells.len(),
        s.launchers.len(),
        s.dynamics.len(),
        s.sounds.len(),
        s.trainsets.len(),
        s.events.len(),
    ];
    assert_eq!(counts, [2, 5, 3, 3, 3, 1, 1, 1, 1, 3, 1, 1, 4]);
    assert_eq!((s.first_init, s.placement), (1, [0; 4]), "FirstInit once; no placeholders");
    // Includes: their line from 0, the .eu7 they bake to, their parameters as written.
    let inc = &s.includes[1];
    assert_eq!(
        (inc.source_line, text(&s, inc.source_path), text(&s, inc.binary_path)),
        (8, "objects/signal.inc".into(), "objects/signal.eu7".into())
    );
    let params: Vec<String> = inc.params.iter().map(|p| text(&s, *p)).collect();
    assert_eq!(params, ["12.5", "0", "40", "90", "s1"]);
    // Tracks: kinds, categories, environments, the origin added to their ends only.
    let kinds: Vec<(u8, u8, u8, usize)> =
        s.tracks.iter().map(|t| (t.track_type, t.category, t.environment, t.paths.len())).collect();
    assert_eq!(kinds, [(1, 1, 1, 1), (2, 1, 1, 2), (1, 2, 1, 1), (4, 2, 1, 2), (1, 4, 6, 1)]);
    let t1 = &s.tracks[0];
    assert_eq!((t1.paths[0].p_start, t1.paths[0].p_end), ([100.0, 0.0, 200.0], [100.0, 0.0, 300.0]));
    let tail: Vec<(u8, String)> = t1.tail.iter().map(|e| (e.code, text(&s, e.value))).collect();
    assert_eq!(tail, [(7, "60".into()), (8, "iso1".into()), (1, "ev_stop".into())], "text order");
    assert_eq!(t1.node.transform.origins, [[100.0, 0.0, 200.0]]);
    assert_eq!((text(&s, t1.visibility.material1), t1.visibility.tex_slope), ("rail.tex".into(), 1.1));
    // A model turned by the heading of `rotate`, then moved by the origin.
    let lamp = &s.models[0];
    assert!(lamp.location.iter().zip([100.0, 2.0, 190.0]).all(|(a, b)| (a - b).abs() < 1e-4), "{:?}", lamp.location);
    assert_eq!((lamp.angles, lamp.transition), ([0.0, 135.0, 0.0], 0));
    assert_eq!((lamp.light_states.clone(), lamp.light_colors.clone()), (vec![1.0, 0.0], vec![0xFF8000, 0xFFFF00]));
    // Shapes: lists, strips and fans as triangle lists; a material's colours / 255.
    let sizes: Vec<(u8, usize)> = s.shapes.iter().map(|sh| (sh.subtype, sh.vertices.len())).collect();
    assert_eq!(sizes, [(0, 6), (1, 6), (2, 9)]);
    assert_eq!(s.shapes[0].lighting.block.ambient, [1.0; 4]);
    let lines: Vec<(u8, usize, f32)> = s.lines.iter().map(|l| (l.subtype, l.positions.len(), l.line_width)).collect();
    assert_eq!(lines, [(0, 4, 1.0), (1, 4, 2.0), (2, 8, 30.0)], "a width over 30 is 30");
    let wire = &s.traction[0];
    assert_eq!((wire.wires[0], wire.material, wire.wire_count), ([3.0, 5.8, 0.0], 1, 2));
    assert!((wire.resistivity_ohm_per_m - 7.5e-5).abs() < 1e-9, "0.01 stands for 0.075 mΩ/m");
    assert_eq!(s.power[0].values[3], 0.2, "an internal resistance under 0.1 stands for 0.2");
    // Logic.
    assert_eq!((text(&s, s.memcells[0].text), s.memcells[0].value1, s.memcells[0].node.group), ("text".into(), 1.0, 1));
    let la = &s.launchers[0];
    assert_eq!((la.radius_sq, la.launch_hour, la.launch_minute, la.delta_time), (225.0, 12, 30, 0.0));
    assert_eq!(text(&s, la.event2_name), "none");
    let ts = &s.trainsets[0];
    assert_eq!((ts.vehicle_indices.clone(), ts.couplings.clone(), ts.driver_index), (vec![0, 1], vec![3, 0], 0));
    let lone = &s.dynamics[2];
    assert_eq!((lone.has_trainset_index, lone.offset, text(&s, lone.strings[3])), (0, 50.0, "t1".into()));
    let events: Vec<(String, u8, usize, u8, u8)> =
        s.events.iter().map(|e| (text(&s, e.name), e.event_type, e.payload.len(), e.passive, e.ignored)).collect();
    assert_eq!(
        events,
        [
            ("ev_stop".into(), 4, 6, 1, 0),
            ("ev_light".into(), 13, 2, 0, 0),
            ("ev_multi".into(), 7, 4, 0, 0),
            ("none_dummy".into(), 1, 3, 0, 1),
        ]
    );
    assert_eq!(s.events[1].delay_random, 2.0);
}

/// A bake is a module MaSzyna's strict reader takes, with every version and with its
/// models in PACK sections; read back it holds the same records.
#[test]
fn a_bake_writes_a_strict_module_in_every_version_with_or_without_pack() {
    let baked = bake(DEMO, "demo.scn").unwrap();
    for (pack, version) in [
        (false, None),
        (false, Some(7)),
        (false, Some(8)),
        (false, Some(9)),
        (true, None),
        (true, Some(7)),
        (true, Some(8)),
    ] {
        let bytes = baked.write(BakeOptions { pack, version }).unwrap();
        let m =
            Module::read(bytes.clone(), &ReadOptions::strict()).unwrap_or_else(|e| panic!("{pack} {version:?}: {e}"));
        assert_eq!(m.version, version.unwrap_or(if pack { 9 } else { 6 }));
        assert_eq!(m.write().unwrap(), bytes, "written back byte for byte");
        let tracks = m.chunks.iter().find_map(|c| match &c.body {
            ChunkBody::Trak(t) => Some(t.len()),
            _ => None,
        });
        assert_eq!(tracks, Some(5));
        match m.pack() {
            Some(_) => assert!(pack, "PACK only when asked"),
            None => assert!(!pack && m.chunks.iter().any(|c| matches!(&c.body, ChunkBody::Modl(v) if v.len() == 3))),
        }
    }
    assert!(baked.write(BakeOptions { pack: true, version: Some(6) }).is_err(), "version 6 has no PACK");
    assert!(baked.write(BakeOptions { pack: false, version: Some(10) }).is_err());
}

/// An included template's first `origin` and `rotate` placeholders become `PLAC`; a
/// child module bakes on its own.
#[test]
fn placeholders_make_a_placement_and_a_child_bakes_alone() {
    let signal = bake(SIGNAL, "signal.inc").unwrap();
    assert_eq!(signal.scene.placement, [1, 2, 3, 4]);
    assert_eq!(text(&signal.scene, signal.scene.models[0].node.name), "sig_(p5)");
    let child = bake(CHILD, "demo_env.scm").unwrap();
    assert_eq!((child.scene.tracks.len(), child.scene.tracks[0].has_visibility), (1, 0));
    let bytes = child.write(BakeOptions::default()).unwrap();
    assert!(Module::read(bytes, &ReadOptions::strict()).is_ok());
}

/// Commas separate numbers (the 2009 sceneries' `x,y,z`); a token the grammar does not
/// expect is a warning naming its line; a file that ends inside a node is an error
/// naming the line the node began on.
#[test]
fn commas_warnings_and_truncated_nodes() {
    let src = b"node -1 0 none triangles grass.dds\n0,0,0 0,1,0 0,0 end\n1,0,0 0,1,0 1,0 end\n0,0,1 0,1,0 0,1 endtri\nbogus\n";
    let baked = bake(src, "t.scm").unwrap();
    assert_eq!(baked.scene.shapes[0].vertices.len(), 3);
    assert_eq!(
        baked.warnings,
        [Warning { line: 5, token: "bogus".into(), message: "unexpected token: skipped".into() }]
    );
    let e = bake(b"// a\nnode 100 0 t track normal 1 1 1 1 1 1 flat unvis\n0 0 0 0 0 0 0 0 0 0 0 0 1 0 0\n", "x.scn")
        .unwrap_err();
    let message = e.to_string();
    assert!(message.contains("line 2") && message.contains("x.scn") && message.contains("track"), "{message}");
    let e = bake(b"atmo 1 2 3", "y.scn").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("atmo"), "{e}");
}

/// MaSzyna's writer (branch `binary-format-und-streaming`, worked by hand from its code)
/// makes the child module 167 bytes: STRS of one name, an empty INCL, one track, an
/// empty MESH, version 6.
#[test]
fn a_child_module_has_the_size_maszynas_writer_gives_it() {
    let bytes = bake(CHILD, "demo_env.scm").unwrap().write(BakeOptions::default()).unwrap();
    let m = Module::read(bytes.clone(), &ReadOptions::strict()).unwrap();
    let ids: Vec<[u8; 4]> = m.chunks.iter().map(|c| c.id).collect();
    assert_eq!(ids, [*b"STRS", *b"INCL", *b"TRAK", *b"MESH"]);
    assert_eq!(bytes.len(), 167);
}

/// A tree bake finds each included file in any letter case under the scenery folder,
/// bakes it once into the module its INCL record names, and reports a missing one.
#[test]
fn a_tree_bakes_every_included_file_once() {
    let dir = std::env::temp_dir().join(format!("iron3d_eu7_bake_tree_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("Objects")).unwrap();
    std::fs::write(dir.join("demo.scn"), [DEMO, b"\ninclude DEMO_ENV.scm end\ninclude gone.inc end\n"].concat())
        .unwrap();
    std::fs::write(dir.join("demo_env.scm"), CHILD).unwrap();
    std::fs::write(dir.join("Objects/Signal.INC"), SIGNAL).unwrap();
    let t = tree(&dir.join("demo.scn"), &dir.join("out.eu7")).unwrap();
    let modules: Vec<PathBuf> = t.files.iter().map(|f| f.module.strip_prefix(&dir).unwrap().to_path_buf()).collect();
    assert_eq!(modules, [PathBuf::from("out.eu7"), "demo_env.eu7".into(), "objects/signal.eu7".into()]);
    assert_eq!(t.files[2].baked.scene.placement, [1, 2, 3, 4]);
    let [(file, w)] = &t.missing[..] else { panic!("{:?}", t.missing) };
    let line = DEMO.iter().filter(|&&b| b == b'\n').count() as u32 + 3;
    assert_eq!((file, w.token.as_str(), w.line), (&dir.join("demo.scn"), "gone.inc", line));
    let _ = std::fs::remove_dir_all(&dir);
}
