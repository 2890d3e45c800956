//! Helper-format benchmarks: MS ADPCM decode (target > 1000× real time for 22 050 Hz
//! mono, i.e. > 22 M samples/s), MS ADPCM encode, and CTLD parse of a
//! `fr_l_plant`-sized description.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_formats::helpers::ctld::{BindingRow, Command, CommandList, Ctld, ItemRecord, RowLayout};
use iron3d_formats::sound::{AdpcmParams, adpcm, decode_wave, write_ms_adpcm};
use std::hint::black_box;

fn signal(n: usize) -> Vec<i16> {
    let mut state = 0x1234_5678u32;
    (0..n)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let tone = ((i as f32) * 0.05).sin() * 8000.0;
            (tone + (state % 2001) as f32 - 1000.0) as i16
        })
        .collect()
}

fn adpcm_bench(c: &mut Criterion) {
    let seconds = 10;
    let input = signal(22_050 * seconds);
    let wav = write_ms_adpcm(&input, 1, 22_050, 256).expect("encodes");
    let params = AdpcmParams::standard(1, 256).expect("valid");
    let data = adpcm::encode(&input, &params).expect("encodes");
    let mut g = c.benchmark_group("ms_adpcm");
    g.throughput(Throughput::Elements(input.len() as u64));
    g.bench_function("decode_10s_22050_mono", |b| {
        let mut out = Vec::with_capacity(input.len() + 512);
        b.iter(|| {
            out.clear();
            adpcm::decode(black_box(&data), &params, 0, &mut out).expect("decodes");
            black_box(out.len())
        })
    });
    g.bench_function("decode_wave_10s", |b| {
        b.iter(|| black_box(decode_wave(black_box(&wav)).expect("decodes").samples.len()))
    });
    g.sample_size(10);
    g.bench_function("encode_10s_22050_mono", |b| {
        b.iter(|| black_box(adpcm::encode(black_box(&input), &params).expect("encodes").len()))
    });
    g.finish();
}

fn plant_like() -> Vec<u8> {
    // Counts [14, 0, 5, 11, 13] like fr_l_plant.ctl.
    let mut ctld =
        Ctld::with_pose((0..5).map(|i| BindingRow::new(i, 0.0, 10.0, 0.5, 0).expect("row")).collect()).expect("pose");
    ctld.counts = [14, 0, 5, 11, 13];
    ctld.states_raw = vec![0x11; 3096 - 128];
    ctld.items = (0..11u32)
        .map(|i| {
            let mut fixed = [0u8; 0xAC];
            fixed[..4].copy_from_slice(&[2u32, 5, 19, 26][i as usize % 4].to_le_bytes());
            ItemRecord { fixed, bindings: vec![0, 1, 2], name: format!("item_{i}").into_bytes() }
        })
        .collect();
    ctld.lists = (0..13)
        .map(|_| CommandList {
            commands: (0..3)
                .map(|k| {
                    Command::new([0, 0, 0], 4, [k, 104, 105, 106, 0], "effects.rlb", "f_smalllight_y").expect("cmd")
                })
                .collect(),
        })
        .collect();
    ctld.hooks[0] = 8;
    ctld.to_bytes().expect("writes")
}

fn ctld_bench(c: &mut Criterion) {
    let bytes = plant_like();
    let mut g = c.benchmark_group("ctld");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_plant_like", |b| {
        b.iter(|| black_box(Ctld::parse_with(black_box(&bytes), RowLayout::Native36).expect("parses").rows.len()))
    });
    g.bench_function("parse_and_pose", |b| {
        b.iter(|| black_box(Ctld::parse(black_box(&bytes)).expect("parses").initial_pose().len()))
    });
    g.finish();
}

criterion_group!(benches, adpcm_bench, ctld_bench);
criterion_main!(benches);
