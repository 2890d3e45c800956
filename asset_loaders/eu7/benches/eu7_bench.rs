//! Criterion benches: module load (index only) of the 1 000 000-instance synthetic scenery
//! (target < 100 ms), PACK section decode throughput (instances per second) and the
//! baker's throughput in bytes of text a second (the test fixture of every node kind,
//! 320 times over: about 1 MB).

#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_eu7::generate::{self, GenConfig};
use iron3d_eu7::{Module, ReadOptions, SectionIndex};
use std::hint::black_box;
use std::sync::Arc;

fn large() -> Arc<[u8]> {
    match generate::scenery(&GenConfig::large(1)) {
        Ok(b) => b.into(),
        Err(e) => panic!("generator failed: {e}"),
    }
}

fn benches(c: &mut Criterion) {
    let data = large();
    let opts = ReadOptions::compatible();
    let mut g = c.benchmark_group("eu7");
    g.sample_size(10);
    g.bench_function("module_load_index_only_1M", |b| {
        b.iter(|| {
            let m = Module::read(Arc::clone(&data), &opts).ok();
            black_box(m.as_ref().and_then(|m| SectionIndex::new(m).ok()).map(|i| i.entries.len()))
        })
    });
    let m = match Module::read(Arc::clone(&data), &opts) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    let index = SectionIndex::new(&m).unwrap_or_default();
    let total = index.total_models();
    g.throughput(Throughput::Elements(total));
    g.bench_function("decode_all_sections_1M", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for i in 0..index.entries.len() {
                if let Ok(s) = index.decode(&m, i, false) {
                    n += s.model_count();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("decode_and_expand_all_sections_1M", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for i in 0..index.entries.len() {
                if let Ok(models) = index.decode(&m, i, false).and_then(|s| s.models(m.prototypes())) {
                    n += models.len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
    let text = include_bytes!("../tests/bake/demo.scn").repeat(320);
    if let Err(e) = iron3d_eu7::bake::bake(&text, "bench.scn") {
        panic!("{e}");
    }
    let mut g = c.benchmark_group("bake");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("text_to_records_1MB", |b| b.iter(|| black_box(iron3d_eu7::bake::bake(&text, "bench.scn").ok())));
    let pack = iron3d_eu7::bake::BakeOptions { pack: true, version: None };
    g.bench_function("text_to_packed_module_1MB", |b| {
        b.iter(|| black_box(iron3d_eu7::bake::bake(&text, "bench.scn").and_then(|b| b.write(pack)).ok()))
    });
    g.finish();
}

criterion_group!(eu7, benches);
criterion_main!(eu7);
