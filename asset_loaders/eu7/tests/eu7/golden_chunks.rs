//! Hand-built golden fixtures, one per chunk kind: the reader must see the fields at the
//! offsets the spec gives, and the lossless writer must reproduce every byte.

use crate::bytes::{B, header, read_back, strs};
use iron3d_eu7::Sid;
use iron3d_eu7::chunk::ChunkBody;
use iron3d_eu7::shape::TerrainBody;

fn body<'a>(m: &'a iron3d_eu7::Module, id: &[u8; 4]) -> &'a ChunkBody {
    match m.chunks.iter().find(|c| &c.id == id) {
        Some(c) => &c.body,
        None => panic!("no chunk {:?}", String::from_utf8_lossy(id)),
    }
}

#[test]
fn empty_module_56_bytes_from_spec() {
    let bytes = header(6)
        .chunk(b"STRS", B::new().u32(0))
        .chunk(b"INCL", B::new().u32(0))
        .chunk(b"TRAK", B::new().u32(0))
        .chunk(b"MESH", B::new().u32(0));
    assert_eq!(bytes.len(), 56);
    assert_eq!(&bytes.0[..12], &[0x45, 0x55, 0x37, 0x42, 6, 0, 0, 0, 0x53, 0x54, 0x52, 0x53]);
    let m = read_back(&bytes.0);
    assert_eq!(m.version, 6);
    assert_eq!(m.chunks.len(), 4);
}

#[test]
fn strs_raw_bytes_and_empty_id() {
    // Strings: "a", a Windows-1250 byte string, and an empty entry.
    let bytes = header(6).chunk(b"STRS", B::new().u32(3).u32(1).raw(b"a").u32(2).raw(&[0xB3, 0xF3]).u32(0));
    let m = read_back(&bytes.0);
    assert_eq!(m.strings(), &[b"a".to_vec(), vec![0xB3, 0xF3], Vec::new()]);
    assert_eq!(m.string(Sid(1)), &[0xB3, 0xF3]);
    assert_eq!(m.string(Sid::EMPTY), b"");
    assert_eq!(m.string(Sid(99)), b"", "compatible resolution of out-of-range ids");
}

#[test]
fn incl_v6_site_transform_and_v5_without() {
    let site = B::new().u8(1).v3(10.0, 0.0, 20.0).u8(0).v3(0.0, 90.0, 0.0).u8(2);
    let rec = B::new().u32(42).u32(0).u32(1).u32(2).u32(2).u32(3);
    let bytes = header(6)
        .chunk(b"STRS", strs(&["a.scm", "a.eu7", "1", "2"]))
        .chunk(b"INCL", B::new().u32(1).raw(&rec.0).raw(&site.0));
    let m = read_back(&bytes.0);
    let ChunkBody::Incl(v) = body(&m, b"INCL") else { panic!("INCL") };
    assert_eq!(v[0].source_line, 42);
    assert_eq!(v[0].params, vec![Sid(2), Sid(3)]);
    let t = v[0].site_transform.clone().unwrap_or_default();
    assert_eq!((t.origins, t.rotation, t.group_depth), (vec![[10.0, 0.0, 20.0]], [0.0, 90.0, 0.0], 2));
    // Version 5: no transform follows the parameters.
    let v5 = header(5).chunk(b"STRS", strs(&["a.scm", "a.eu7", "1", "2"])).chunk(b"INCL", B::new().u32(1).raw(&rec.0));
    let m5 = read_back(&v5.0);
    let ChunkBody::Incl(v) = body(&m5, b"INCL") else { panic!("INCL") };
    assert_eq!(v[0].site_transform, None);
}

#[test]
fn plac_and_fint() {
    let bytes = header(6).chunk(b"PLAC", B::new().raw(&[1, 2, 3, 4])).chunk(b"FINT", B::new().u32(7));
    let m = read_back(&bytes.0);
    assert_eq!(m.placement(), [1, 2, 3, 4]);
    assert_eq!(m.first_init(), 7);
}

#[test]
fn trak_with_visibility_path_and_tail() {
    let rec = B::new()
        .u8(0x01)
        .u32(0) // node: name = "t1"
        .u8(2)
        .u8(1) // switch, rail
        .f32(100.0)
        .f32(1.435)
        .f32(0.15)
        .f32(20.0)
        .i32(3)
        .i32(-1)
        .u8(6)
        .u8(1) // environment Bank (stored +1), has_visibility
        .u32(1)
        .f32(4.0)
        .u32(2)
        .f32(0.2)
        .f32(2.5)
        .f32(1.1)
        .u32(1) // one segment
        .v3(0.0, 0.0, 0.0)
        .f32(0.0)
        .v3(33.0, 0.0, 0.0)
        .v3(66.0, 0.0, 0.0)
        .v3(100.0, 0.0, 0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(3) // tail: velocity=80, custom k=v, undefined code 19 kept raw
        .u8(7)
        .u32(3)
        .u8(255)
        .u32(4)
        .u32(5)
        .u8(19)
        .u32(3);
    let bytes = header(6)
        .chunk(b"STRS", strs(&["t1", "rail", "ballast", "80", "k", "v"]))
        .chunk(b"TRAK", B::new().u32(1).raw(&rec.0));
    let m = read_back(&bytes.0);
    let ChunkBody::Trak(v) = body(&m, b"TRAK") else { panic!("TRAK") };
    let t = &v[0];
    assert_eq!((t.track_type, t.damage_flag, t.environment), (2, -1, 6));
    assert_eq!(m.string(t.visibility.material2), b"ballast");
    assert_eq!(t.paths[0].p_end, [100.0, 0.0, 0.0]);
    // Cubic Bézier at t = 0.5: (0 + 3·33 + 3·66 + 100) / 8 = 49.625.
    assert_eq!(t.paths[0].point(0.5)[0], 49.625);
    assert_eq!(m.string(t.tail[1].key), b"k");
    assert_eq!(t.tail[2].code, 19);
}

#[test]
fn trac_with_parallel_and_pwrs() {
    let trac = B::new()
        .u8(0)
        .u32(0)
        .u8(1)
        .f32(3000.0)
        .f32(500.0)
        .f32(0.01)
        .f32(0.02)
        .u32(1)
        .f32(0.012)
        .i32(0)
        .v3(0.0, 5.0, 0.0)
        .v3(10.0, 5.0, 0.0)
        .v3(0.0, 5.5, 0.0)
        .v3(10.0, 5.5, 0.0)
        .f32(5.0)
        .f32(10.0)
        .i32(2)
        .f32(0.1)
        .u8(1)
        .u32(2);
    let pwrs = B::new()
        .u8(0x40)
        .v3(1.0, 2.0, 3.0)
        .f32(3000.0)
        .f32(0.0)
        .f32(0.1)
        .f32(0.2)
        .f32(4000.0)
        .f32(1.0)
        .f32(2.0)
        .f32(3.0)
        .u8(2);
    let bytes = header(6)
        .chunk(b"STRS", strs(&["ps", "cu", "w0"]))
        .chunk(b"TRAC", B::new().u32(1).raw(&trac.0))
        .chunk(b"PWRS", B::new().u32(1).raw(&pwrs.0));
    let m = read_back(&bytes.0);
    let ChunkBody::Trac(v) = body(&m, b"TRAC") else { panic!("TRAC") };
    assert_eq!(v[0].wires[3], [10.0, 5.5, 0.0]);
    assert_eq!((v[0].wire_count, m.string(v[0].parallel_name)), (2, &b"w0"[..]));
    let ChunkBody::Pwrs(p) = body(&m, b"PWRS") else { panic!("PWRS") };
    assert!(!p[0].node.is_visible());
    assert_eq!((p[0].position, p[0].values[4], p[0].modifier), ([1.0, 2.0, 3.0], 4000.0, 2));
}

fn vertex(b: B, x: f32, z: f32) -> B {
    // position, normal (0, 1, 0) as snorm16, uv (0.5, 1.0) as half
    b.v3(x, 0.0, z).u16(0).u16(0x7FFF).u16(0).u16(0x3800).u16(0x3C00)
}

#[test]
fn terr_batched_with_lighting() {
    let mut p = B::new().u8(1 | 2 | 4).u32(0);
    for v in [0.8f32, 0.8, 0.8, 1.0, 0.2, 0.2, 0.2, 1.0, 0.5, 0.0, 0.0, 1.0] {
        p = p.f32(v);
    }
    p = p.u32(1).i32(250).i32(249).u32(3);
    for (x, z) in [(0.0, -10.0), (5.0, -10.0), (0.0, -5.0)] {
        p = vertex(p, x, z);
    }
    let bytes = header(6).chunk(b"STRS", strs(&["grass"])).chunk(b"TERR", p);
    let m = read_back(&bytes.0);
    assert!(m.is_terrain_file());
    let ChunkBody::Terr(t) = body(&m, b"TERR") else { panic!("TERR") };
    assert_eq!(t.lighting.specular[0], 0.5);
    let TerrainBody::Batched(b) = &t.body else { panic!("batched") };
    assert_eq!((b[0].section_x, b[0].section_z, b[0].vertices.len()), (250, 249, 3));
    assert_eq!(b[0].vertices[1].normal_f32(), [0.0, 1.0, 0.0]);
    assert_eq!(b[0].vertices[1].uv_f32(), [0.5, 1.0]);
}

#[test]
fn terr_legacy_and_bad_vertex_count() {
    let mut p = B::new().u8(0).u32(0).u32(1);
    for (x, z) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
        p = vertex(p, x, z);
    }
    let m = read_back(&header(6).chunk(b"STRS", strs(&["g"])).chunk(b"TERR", p).0);
    let ChunkBody::Terr(t) = body(&m, b"TERR") else { panic!("TERR") };
    assert!(matches!(&t.body, TerrainBody::Legacy(v) if v.len() == 3));
    // Batched with vertex_count 2: not a multiple of 3.
    let mut p = B::new().u8(4).u32(0).u32(1).i32(0).i32(0).u32(2);
    for (x, z) in [(0.0, 0.0), (1.0, 0.0)] {
        p = vertex(p, x, z);
    }
    let r = iron3d_eu7::Module::read(header(6).chunk(b"TERR", p).0, &iron3d_eu7::ReadOptions::compatible());
    assert!(r.is_err());
}

#[test]
fn mesh_and_line_with_tagged_lighting() {
    let mut mesh = B::new()
        .u32(1)
        .u8(1) // triangle strip
        .u8(0x08)
        .v3(1.0, 2.0, 3.0)
        .f32(4.0) // bounds only
        .u8(1)
        .u32(0)
        .u8(1);
    for v in [1.0f32, 0.0, 0.0, 1.0, 0.2, 0.2, 0.2, 1.0, 0.0, 0.0, 0.0, 1.0] {
        mesh = mesh.f32(v);
    }
    mesh = vertex(mesh.v3(5.0, 6.0, 7.0).u32(1), 9.0, 9.0);
    let line = B::new().u32(1).u8(2).u8(0).u8(0).f32(1.5).v3(0.0, 0.0, 0.0).u32(2).v3(0.0, 0.0, 0.0).v3(1.0, 1.0, 1.0);
    let m = read_back(&header(6).chunk(b"STRS", strs(&["wall"])).chunk(b"MESH", mesh).chunk(b"LINE", line).0);
    let ChunkBody::Mesh(v) = body(&m, b"MESH") else { panic!("MESH") };
    assert_eq!((v[0].subtype, v[0].node.radius, v[0].lighting.tag), (1, 4.0, 1));
    assert_eq!(v[0].lighting.block.diffuse, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(v[0].origin, [5.0, 6.0, 7.0]);
    let ChunkBody::Line(l) = body(&m, b"LINE") else { panic!("LINE") };
    assert_eq!((l[0].subtype, l[0].line_width, l[0].positions[1]), (2, 1.5, [1.0, 1.0, 1.0]));
}

/// A MODL record: name 0, ranges, no bounds, model 1, texture empty, 2 lights, 1 colour.
pub fn model_record() -> B {
    B::new()
        .u8(0x01 | 0x02 | 0x04)
        .u32(0)
        .f32(4.0)
        .f32(250_000.0)
        .u8(0)
        .u8(1)
        .v3(130.0, 1.0, 760.0)
        .v3(0.0, 45.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u32(1)
        .none()
        .u32(2)
        .f32(1.0)
        .f32(0.0)
        .u32(1)
        .u32(0xFF00_00FF)
}

#[test]
fn modl_record_layout() {
    let m = read_back(
        &header(6).chunk(b"STRS", strs(&["lamp", "lamp.e3d"])).chunk(b"MODL", B::new().u32(1).raw(&model_record().0)).0,
    );
    let ChunkBody::Modl(v) = body(&m, b"MODL") else { panic!("MODL") };
    let r = &v[0];
    assert_eq!((r.node.range_sq_min, r.node.range_sq_max), (4.0, 250_000.0));
    assert_eq!((r.transition, r.location, r.angles[1]), (1, [130.0, 1.0, 760.0], 45.0));
    assert_eq!(m.string(r.model_file), b"lamp.e3d");
    assert_eq!((r.light_states.clone(), r.light_colors.clone()), (vec![1.0, 0.0], vec![0xFF00_00FF]));
}

#[test]
fn logic_chunks_memc_laun_dynm_sond_trse_evnt() {
    let memc = B::new().u32(1).u8(1).u32(0).u32(1).f32(1.5).f32(-2.0).none();
    let laun = B::new()
        .u32(1)
        .u8(0)
        .v3(1.0, 2.0, 3.0)
        .f32(25.0)
        .none()
        .i32(0)
        .f32(-1.0)
        .u32(2)
        .none()
        .i32(-1)
        .i32(-1)
        .u8(1)
        .u32(0)
        .u32(1)
        .f32(0.0)
        .f32(0.0)
        .i32(3)
        .u8(1);
    let dynm = B::new()
        .u32(1)
        .u8(0)
        .u32(3)
        .none()
        .none()
        .none()
        .none()
        .none()
        .none()
        .none()
        .f32(-1.0)
        .i32(3)
        .i32(0)
        .f32(40.0)
        .u8(1)
        .u32(4)
        .u8(1)
        .u32(0);
    let sond = B::new().u32(1).u8(0).v3(0.0, 1.0, 2.0).u32(5);
    let trse = B::new()
        .u32(1)
        .u32(6)
        .none()
        .f32(10.0)
        .f32(40.0)
        .u32(2)
        .u32(4)
        .u32(3)
        .u32(4)
        .u32(5) // duplicate key kept in order
        .u32(1)
        .u32(0)
        .u32(1)
        .i32(3)
        .u32(0);
    let evnt = B::new().u32(1).u32(2).u8(8).f32(1.0).u32(1).u32(0).f32(0.5).f32(0.25).u8(0).u8(1).u32(1).u32(4).u32(1);
    let bytes = header(6)
        .chunk(b"STRS", strs(&["mc1", "none", "ev1", "dynamic/ep07", "Warszawa", "bird.wav", "ts1"]))
        .chunk(b"MEMC", memc)
        .chunk(b"LAUN", laun)
        .chunk(b"DYNM", dynm)
        .chunk(b"SOND", sond)
        .chunk(b"TRSE", trse)
        .chunk(b"EVNT", evnt);
    let m = read_back(&bytes.0);
    let ChunkBody::Memc(mc) = body(&m, b"MEMC") else { panic!() };
    assert_eq!((m.string(mc[0].text), mc[0].value2), (&b"none"[..], -2.0));
    let ChunkBody::Laun(l) = body(&m, b"LAUN") else { panic!() };
    assert_eq!((l[0].condition.check_mask, l[0].train_triggered, m.string(l[0].event1_name)), (3, 1, &b"ev1"[..]));
    let ChunkBody::Dynm(d) = body(&m, b"DYNM") else { panic!() };
    assert_eq!((m.string(d[0].destination), d[0].velocity, d[0].coupling), (&b"Warszawa"[..], 40.0, 3));
    let ChunkBody::Sond(s) = body(&m, b"SOND") else { panic!() };
    assert_eq!(m.string(s[0].wav_file), b"bird.wav");
    let ChunkBody::Trse(t) = body(&m, b"TRSE") else { panic!() };
    assert_eq!(t[0].assignments, vec![(Sid(4), Sid(3)), (Sid(4), Sid(5))]);
    assert_eq!(t[0].couplings, vec![3]);
    let ChunkBody::Evnt(e) = body(&m, b"EVNT") else { panic!() };
    assert_eq!((e[0].event_type, e[0].passive, e[0].delay_departure), (8, 1, 0.25));
    assert_eq!(iron3d_eu7::logic::EVENT_TYPES[usize::from(e[0].event_type)], "Switch");
}

#[test]
fn slim_node_all_seven_bits_and_bit7() {
    // 0xFF: every field, plus the unused bit 7 which must survive a rewrite.
    let node = B::new()
        .u8(0xFF)
        .u32(0)
        .f32(1.0)
        .f32(2.0)
        .v3(1.0, 2.0, 3.0)
        .f32(4.0)
        .u32(77)
        .u8(2)
        .v3(1.0, 0.0, 0.0)
        .v3(2.0, 0.0, 0.0)
        .u8(1)
        .v3(3.0, 3.0, 3.0)
        .v3(0.0, 10.0, 0.0)
        .u8(1);
    let sond = B::new().u32(1).raw(&node.0).v3(0.0, 0.0, 0.0).none();
    let m = read_back(&header(6).chunk(b"STRS", strs(&["n"])).chunk(b"SOND", sond).0);
    let ChunkBody::Sond(s) = body(&m, b"SOND") else { panic!() };
    let n = &s[0].node;
    assert_eq!(
        (n.group, n.transform.origins.len(), n.transform.scales[0], n.transform.group_depth),
        (77, 2, [3.0, 3.0, 3.0], 1)
    );
    assert!(!n.is_visible());
    assert_eq!(n.canonical_flags(true, false), 0x7F, "canonical writers never set bit 7");
}

/// MaSzyna's tree bake writes a root without models with `PROT` and `PACK` of 8 bytes,
/// the chunk headers alone: both are empty tables, in strict mode too, and come back
/// byte for byte; a `PIDX` with no payload is still refused (its reader needs the count).
#[test]
fn header_only_prot_and_pack_are_empty_tables() {
    let root = header(9)
        .chunk(b"STRS", B::new().u32(0))
        .chunk(b"INCL", B::new().u32(0))
        .chunk(b"PIDX", B::new().u32(0))
        .chunk(b"PROT", B::new())
        .chunk(b"PACK", B::new());
    let m = read_back(&root.0);
    assert!(matches!(body(&m, b"PROT"), ChunkBody::Prot(p) if p.is_empty()));
    assert!(m.chunks.iter().any(|c| &c.id == b"PROT" && c.bare));
    assert!(m.prototypes().is_empty());
    assert_eq!(m.pack().map(|p| p.bytes().len()), Some(0));
    let bare_pidx = header(9).chunk(b"STRS", B::new().u32(0)).chunk(b"PIDX", B::new());
    let e = iron3d_eu7::Module::read(bare_pidx.0, &iron3d_eu7::ReadOptions::strict());
    assert!(e.is_err_and(|e| e.to_string().contains("PIDX")));
}
