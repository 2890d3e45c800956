//! World benchmarks: TMA parse of a 1 000-object mission, Land.msh + Land.map parse of
//! a 10 000-face / 1 000-areal map, 100 000 `area_at` queries and 10 000 routes.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_formats::ReadOptions;
use iron3d_formats::world::{
    ArealMap, ArealMapBuilder, ArealQuery, LandMsh, PlacedObject, Property, TerrainBuilder, TerrainQuery, Tma,
};
use std::hint::black_box;

fn mission(objects: usize) -> Vec<u8> {
    let mut t = Tma::new("DATA\\MAPS\\Bench\\land");
    for i in 0..objects {
        let key =
            if i % 4 == 0 { "UNITS\\UNITS\\HERO\\hero_t.dat".to_string() } else { format!("s_tree_{:02}", i % 50) };
        let o = PlacedObject::new((i % 4) as u32, &key, [i as f32, (i * 7 % 1000) as f32, 3.0])
            .with_property(Property::int("Invulnerability", 0))
            .with_property(Property::float("Life state", 1.0))
            .with_property(Property::int("NOT USED", 0));
        t.objects.push(o);
    }
    t.to_bytes().expect("mission fits")
}

/// 10 000 faces (100 × 50 cells, two faces each) and 1 000 areals (40 × 25 squares).
fn map() -> (Vec<u8>, Vec<u8>) {
    let terrain =
        TerrainBuilder::height_field(100, 50, 10.0, |x, y| (x * 0.01).sin() * 5.0 + y * 0.01).expect("terrain");
    let mut b = ArealMapBuilder::new();
    for j in 0..25 {
        for i in 0..40 {
            let (x, y) = (i as f32 * 25.0, j as f32 * 20.0);
            b.add_polygon(vec![[x, y, 0.0], [x + 25.0, y, 0.0], [x + 25.0, y + 20.0, 0.0], [x, y + 20.0, 0.0]], 1, 0)
                .expect("areal");
        }
    }
    let areal = b.build(128, 128).expect("map");
    (terrain.to_bytes().expect("terrain bytes"), areal.to_bytes().expect("map bytes"))
}

fn parse(c: &mut Criterion) {
    let tma = mission(1000);
    let mut g = c.benchmark_group("world_parse");
    g.throughput(Throughput::Bytes(tma.len() as u64));
    g.bench_function("tma_1000_objects", |b| {
        b.iter(|| Tma::parse(black_box(&tma), ReadOptions::strict()).expect("valid"))
    });
    let (msh, areal) = map();
    g.throughput(Throughput::Bytes((msh.len() + areal.len()) as u64));
    g.bench_function("land_msh_map_10000_faces_1000_areals", |b| {
        b.iter(|| {
            let t = LandMsh::parse(black_box(&msh), ReadOptions::strict()).expect("valid");
            let m = ArealMap::parse(black_box(&areal), ReadOptions::strict()).expect("valid");
            (t.faces.len(), m.areals.len())
        })
    });
    g.finish();
}

/// Deterministic points over the map extent.
fn points(n: usize, w: f32, h: f32) -> Vec<(f32, f32)> {
    let mut s = 0x2545_F491u32;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        (s % 100_000) as f32 / 100_000.0
    };
    (0..n).map(|_| (next() * w, next() * h)).collect()
}

fn queries(c: &mut Criterion) {
    let (msh, areal) = map();
    let terrain = LandMsh::parse(&msh, ReadOptions::strict()).expect("valid");
    let m = ArealMap::parse(&areal, ReadOptions::strict()).expect("valid");
    let q = ArealQuery::new(&m);
    let tq = TerrainQuery::new(&terrain);
    let pts = points(100_000, 1000.0, 500.0);
    let mut g = c.benchmark_group("world_queries");
    g.throughput(Throughput::Elements(pts.len() as u64));
    g.bench_function("area_at_100000", |b| b.iter(|| pts.iter().filter(|&&(x, y)| q.area_at(x, y).is_some()).count()));
    g.bench_function("height_at_100000", |b| b.iter(|| pts.iter().filter_map(|&(x, y)| tq.height_at(x, y)).count()));
    let pairs: Vec<(usize, usize)> =
        points(10_000, 1000.0, 1000.0).iter().map(|&(a, b)| (a as usize, b as usize)).collect();
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.sample_size(10);
    g.bench_function("route_10000", |b| {
        b.iter(|| pairs.iter().filter_map(|&(f, t)| q.route(f, t)).map(|r| r.len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, parse, queries);
criterion_main!(benches);
