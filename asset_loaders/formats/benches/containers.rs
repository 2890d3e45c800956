//! Container benchmarks: NRes open + index, name lookup, LZSS / LZHUF / Deflate decode
//! and cipher throughput.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_formats::ReadOptions;
use iron3d_formats::nres::{Nres, NresWriter};
use iron3d_formats::rsli::cipher::XorStream;
use iron3d_formats::rsli::{Method, NewEntry, Rsli, RsliWriter};
use std::hint::black_box;

fn archive(entries: usize) -> Vec<u8> {
    let mut w = NresWriter::new();
    for i in 0..entries {
        w.add(0x3054_414D, [i as u32, 6, 0], format!("entry_{i:05}.mat").as_bytes(), vec![(i % 251) as u8; 24])
            .expect("valid name");
    }
    w.to_bytes().expect("archive fits")
}

/// Text-like sample data: words from a small vocabulary, deterministic.
fn sample(len: usize) -> Vec<u8> {
    let words = [&b"iron "[..], b"strategy ", b"parkan ", b"robot ", b"base ", b"ore ", b"\x00\x01\x02\x03"];
    let mut state = 0x9E37_79B9u32;
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        out.extend_from_slice(words[(state % words.len() as u32) as usize]);
    }
    out.truncate(len);
    out
}

fn nres(c: &mut Criterion) {
    let bytes = archive(10_000);
    let mut g = c.benchmark_group("nres");
    g.throughput(Throughput::Bytes((10_000 * 64) as u64));
    g.bench_function("open_index_10000", |b| {
        b.iter(|| Nres::parse(black_box(&bytes), ReadOptions::strict()).expect("valid"))
    });
    let a = Nres::parse(&bytes, ReadOptions::strict()).expect("valid");
    let names: Vec<Vec<u8>> = (0..10_000).map(|i| format!("ENTRY_{i:05}.MAT").into_bytes()).collect();
    g.throughput(Throughput::Elements(names.len() as u64));
    g.bench_function("lookup_all_10000", |b| {
        b.iter(|| names.iter().filter(|n| a.find(black_box(n)).is_some()).count())
    });
    g.finish();
}

fn rsli(c: &mut Criterion) {
    let data = sample(1 << 20);
    let mut g = c.benchmark_group("rsli_decode");
    g.throughput(Throughput::Bytes(data.len() as u64));
    for method in [Method::Lzss, Method::Huffman, Method::Deflate] {
        let mut w = RsliWriter::new(0x5A5A);
        w.add(NewEntry { name: b"SAMPLE".to_vec(), method, data: data.clone() });
        let bytes = w.to_bytes().expect("library");
        let lib = Rsli::parse(&bytes, ReadOptions::strict()).expect("valid");
        g.bench_function(method.name(), |b| b.iter(|| lib.decode(black_box(0)).expect("decodes")));
    }
    g.finish();
    let mut g = c.benchmark_group("cipher");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("xor_stream_1mib", |b| {
        b.iter(|| {
            let mut buf = data.clone();
            XorStream::new(0x1234).apply_all(&mut buf);
            buf
        })
    });
    g.finish();
}

criterion_group!(benches, nres, rsli);
criterion_main!(benches);
