//! The committed seed corpus `fuzz/seeds/<target>/`: small sceneries from the generator
//! in every PACK section format, their sections, and E3D models covering every vertex
//! layout, index width, matrix width and submodel record size. Rewrite it with
//! `cargo test -p iron3d_eu7 --lib rewrite_seed_corpus -- --ignored`.

use super::TARGETS;
use crate::cursor::Writer;
use crate::e3d::{E3dModel, Vertex, write_simple};
use crate::generate::{GenConfig, scenery};
use crate::prim::f32_to_half_canonical;
use crate::section::SectionFormat;
use crate::{Module, ReadOptions, Result, Section, SectionIndex};
use iron3d_formats::fuzzing::{Seed, write_seeds};
use std::path::Path;

type Seeds = Vec<Seed>;

fn small(seed: u64, format: Option<SectionFormat>) -> GenConfig {
    GenConfig {
        seed,
        instances: 24,
        extent_m: 1500.0,
        model_kinds: 3,
        terrain_triangles: 8,
        tracks: 1,
        logic: 1,
        format,
        ..GenConfig::default()
    }
}

/// Sceneries in every section format, one with MODL instead of PACK and one with MESH,
/// and the two shapes of MaSzyna's own writers: flat sections starting with a marker's
/// value, and a root without models whose PROT is its header alone.
fn modules() -> Result<Vec<(String, Vec<u8>)>> {
    use SectionFormat::*;
    let mut out = Vec::new();
    for (k, format) in [Flat, V8, V9, V10, V11, V12, V13].into_iter().enumerate() {
        out.push((format!("pack-{format:?}.eu7"), scenery(&small(k as u64 + 1, Some(format)))?));
    }
    out.push(("modl.eu7".to_owned(), scenery(&small(11, None))?));
    out.push(("mesh.eu7".to_owned(), scenery(&GenConfig { extra_shapes: 2, ..small(12, Some(V13)) })?));
    out.push((
        "pack-Flat-bare-nodes.eu7".to_owned(),
        scenery(&GenConfig { bare_nodes: true, ..small(13, Some(Flat)) })?,
    ));
    let root = GenConfig { instances: 0, bare_tables: true, ..small(14, Some(V13)) };
    out.push(("root-bare-tables.eu7".to_owned(), scenery(&root)?));
    Ok(out)
}

/// The smallest section of each PACK module, prefixed with its model count (the
/// `section` target's input layout).
fn sections(modules: &[(String, Vec<u8>)]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for (name, bytes) in modules {
        let m = Module::read(bytes.clone(), &ReadOptions::strict())?;
        let index = SectionIndex::new(&m)?;
        let smallest = (0..index.entries.len())
            .filter(|&i| index.entries[i].model_count <= u32::from(u8::MAX))
            .min_by_key(|&i| index.lengths[i]);
        if let Some(i) = smallest {
            let mut seed = vec![index.entries[i].model_count as u8];
            seed.extend_from_slice(index.section_bytes(&m, i)?.0);
            out.push((name.replace(".eu7", ".section"), seed));
        }
    }
    Ok(out)
}

/// One submodel record (`SUBn`: 256 + 64 n bytes).
struct Sub {
    next: i32,
    kind: i32,
    vertices: (i32, i32),
    texture: i32,
    indices: (i32, i32),
}

/// Vertices of a VNT layout (`layout & 3`: full, half, extended; `& 4`: user data).
fn vnt(layout: u8, points: &[[f32; 3]]) -> Vec<u8> {
    let stride =
        [32, 20, 48][usize::from(layout & 3)] + if layout & 4 != 0 { [16, 8, 16][usize::from(layout & 3)] } else { 0 };
    let mut w = Writer::new();
    for (k, &p) in points.iter().enumerate() {
        let start = w.len();
        let uv = [p[0] * 0.5, k as f32 * 0.25];
        if layout & 3 == 1 {
            p.iter().chain(&[1.0]).for_each(|&x| w.u16(f32_to_half_canonical(x)));
            w.u32(511 << 20); // normal +Z in 10:10:10:2
            uv.iter().for_each(|&x| w.u16(f32_to_half_canonical(x)));
        } else {
            w.vec3(p);
            w.vec3([0.0, 0.0, 1.0]);
            uv.iter().for_each(|&x| w.f32(x));
        }
        w.bytes(&vec![0x11; stride - (w.len() - start)]);
    }
    w.buf
}

fn e3d(
    sub_n: u8,
    subs: &[Sub],
    vnt_layout: u8,
    points: &[[f32; 3]],
    idx: Option<(u8, &[u32])>,
    tra: Option<u8>,
) -> Vec<u8> {
    let chunk = |w: &mut Writer, id: &[u8], body: &[u8]| {
        w.bytes(id);
        w.u32(body.len() as u32 + 8);
        w.bytes(body);
    };
    let mut sub = Writer::new();
    for s in subs {
        let start = sub.len();
        for v in [s.next, -1, s.kind, 0, 0] {
            sub.i32(v);
        }
        sub.u32(0x10);
        for v in [-1, s.vertices.0, s.vertices.1, s.texture, 0] {
            sub.i32(v);
        }
        sub.bytes(&[0; 64 - 44]);
        [0.8, 0.7, 0.6, 1.0].iter().for_each(|&x| sub.f32(x));
        sub.bytes(&[0; 156 - 80]);
        sub.i32(s.indices.0);
        sub.i32(s.indices.1);
        sub.bytes(&vec![0; 256 + 64 * usize::from(sub_n) - (sub.len() - start)]);
    }
    let mut body = Writer::new();
    chunk(&mut body, format!("SUB{sub_n}").as_bytes(), &sub.buf);
    chunk(&mut body, format!("VNT{vnt_layout}").as_bytes(), &vnt(vnt_layout, points));
    if let Some((width, indices)) = idx {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()[..usize::from(width)].to_vec()).collect();
        chunk(&mut body, format!("IDX{width}").as_bytes(), &bytes);
    }
    if let Some(k) = tra {
        let mut m = Writer::new();
        for e in 0..16 {
            let v: f32 = if e % 5 == 0 {
                1.0
            } else if e == 13 {
                2.5
            } else {
                0.0
            };
            if k == 0 { m.f32(v) } else { m.u64(f64::from(v).to_bits()) }
        }
        chunk(&mut body, format!("TRA{k}").as_bytes(), &m.buf);
    }
    chunk(&mut body, b"TEX0", b"\0wall\0roof\0");
    chunk(&mut body, b"NAM0", b"body\0top\0");
    chunk(&mut body, b"XTRA", &[7, 7, 7]);
    let mut w = Writer::new();
    chunk(&mut w, b"E3D0", &body.buf);
    w.buf
}

/// Models in every vertex layout, with 1/2/4-byte or no indices, f32/f64 matrices,
/// triangle lists, strips and fans, linked submodels and skin slots.
fn models() -> Vec<(String, Vec<u8>)> {
    let quad = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.5], [0.0, 1.0, 0.5], [0.5, 0.5, 2.0]];
    let pyramid: Vec<Vertex> =
        quad.iter().map(|&position| Vertex { position, normal: [0.0, 0.0, 1.0], uv: [0.0; 2] }).collect();
    let sub = |next, kind, vertices, texture, indices| Sub { next, kind, vertices, texture, indices };
    vec![
        (
            "simple-vnt0-idx4.e3d".to_owned(),
            write_simple(&pyramid, &[0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], b"stone", b"pyramid"),
        ),
        (
            "strip-vnt1-idx2-tra0.e3d".to_owned(),
            e3d(
                0,
                &[sub(1, 5, (5, 0), 1, (5, 0)), sub(-1, 4, (3, 0), 2, (3, 5))],
                1,
                &quad,
                Some((2, &[0, 1, 3, 2, 4, 0, 1, 2])),
                Some(0),
            ),
        ),
        (
            "fan-vnt2-idx1-tra1-sub1.e3d".to_owned(),
            e3d(1, &[sub(-1, 6, (5, 0), -2, (5, 0))], 2, &quad, Some((1, &[4, 0, 1, 2, 3])), Some(1)),
        ),
        (
            "list-vnt4-noidx.e3d".to_owned(),
            e3d(0, &[sub(-1, 4, (3, 0), 1, (0, 0)), sub(-1, 4, (3, 2), -1, (0, 0))], 4, &quad, None, None),
        ),
        (
            "vnt5-idx4.e3d".to_owned(),
            e3d(0, &[sub(-1, 4, (4, 1), 2, (3, 0))], 5, &quad, Some((4, &[0, 1, 2])), Some(0)),
        ),
        ("vnt6-lines-sub2.e3d".to_owned(), e3d(2, &[sub(-1, 1, (5, 0), 0, (0, 0))], 6, &quad, None, Some(1))),
    ]
}

fn seeds() -> Result<Seeds> {
    let modules = modules()?;
    let mut seeds: Seeds = sections(&modules)?.into_iter().map(|(name, bytes)| ("section", name, bytes)).collect();
    seeds.extend(modules.into_iter().map(|(name, bytes)| ("module", name, bytes)));
    seeds.extend(models().into_iter().map(|(name, bytes)| ("e3d", name, bytes)));
    Ok(seeds)
}

#[test]
fn seed_models_and_sections_are_read_back() {
    for (name, bytes) in models() {
        assert!(E3dModel::read(&bytes, Some(&name)).is_ok(), "{name}");
    }
    let sections = sections(&modules().unwrap()).unwrap();
    assert_eq!(sections.len(), 9, "one section per PACK module with models");
    for (name, bytes) in sections {
        assert!(Section::decode(&bytes[1..], 0, u32::from(bytes[0]), true).is_ok(), "{name}");
    }
}

#[test]
#[ignore = "rewrites fuzz/seeds/ in the source tree"]
fn rewrite_seed_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    write_seeds(&fuzz, TARGETS, seeds().unwrap()).unwrap();
}
