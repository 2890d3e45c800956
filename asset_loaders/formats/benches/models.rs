//! Model benchmarks: MSH parse + build_mesh to triangle lists, Texm decode throughput
//! (MB/s of RGBA output) for 565 and 8888.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_formats::ReadOptions;
use iron3d_formats::model::mesh_build::{MeshOptions, Pose, build_mesh};
use iron3d_formats::model::msh::{AnimKey, MeshBatch, MeshData, ModelBuilder, Msh, NodeAnimation};
use iron3d_formats::model::texm::{DecodeOptions, PixelFormat, Texm};
use std::hint::black_box;

/// A grid of `n × n` quads per node, 8 nodes in a chain, animated.
fn model_bytes(n: u16) -> Vec<u8> {
    let mut b = ModelBuilder::new();
    for node in 0..8usize {
        let id = b.add_node(&format!("piece{node}"), node.checked_sub(1), 0).expect("node");
        let mut mesh = MeshData::default();
        for y in 0..=n {
            for x in 0..=n {
                mesh.positions.push([f32::from(x), f32::from(y), node as f32]);
                mesh.normals.push([0.0, 0.0, 1.0]);
                mesh.uvs.push([f32::from(x) / f32::from(n), f32::from(y) / f32::from(n)]);
            }
        }
        let mut indices = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let i = y * (n + 1) + x;
                indices.extend_from_slice(&[i, i + 1, i + n + 2, i, i + n + 2, i + n + 1]);
            }
        }
        mesh.batches.push(MeshBatch { material: (node % 3) as u8, lightmap: 0, flags: 0, indices });
        b.set_mesh(id, 0, 0, mesh).expect("mesh");
        let k = |t: f32| AnimKey::new([0.0, 0.0, t], t, [0.0, 0.0, 0.0, 1.0]);
        b.set_animation(id, NodeAnimation { rest: k(0.0), track: vec![k(0.0), k(10.0)] }).expect("anim");
    }
    b.build().expect("model").to_bytes().expect("bytes")
}

fn msh(c: &mut Criterion) {
    let bytes = model_bytes(60);
    let model = Msh::parse(&bytes, ReadOptions::strict()).expect("parse");
    let triangles = model.indices.len() / 3;
    let mut g = c.benchmark_group("msh");
    g.throughput(Throughput::Elements(triangles as u64));
    g.bench_function("parse_validate", |b| {
        b.iter(|| Msh::parse(black_box(&bytes), ReadOptions::strict()).expect("parse"))
    });
    g.bench_function("build_mesh_frame", |b| {
        b.iter(|| build_mesh(black_box(&model), 0, 0, Pose::Frame(4.5), MeshOptions::default()).expect("build"))
    });
    g.finish();
}

fn texm(c: &mut Criterion) {
    let mut g = c.benchmark_group("texm_decode");
    for format in [PixelFormat::Rgb565, PixelFormat::Argb8888] {
        let rgba: Vec<u8> = (0..256 * 256 * 4).map(|i| (i * 7 % 251) as u8).collect();
        let t = Texm::encode(256, 256, format, &[rgba], None, DecodeOptions::default()).expect("encode");
        g.throughput(Throughput::Bytes(256 * 256 * 4));
        g.bench_function(format!("{}_256x256", format.code()), |b| {
            b.iter(|| black_box(&t).decode_level(0, DecodeOptions::default()).expect("decode"))
        });
    }
    g.finish();
}

criterion_group!(benches, msh, texm);
criterion_main!(benches);
