//! Streaming memory over a straight 100 km flight across the 1 000 000-instance synthetic
//! scenery (`GenConfig::large`): the planner with the seed's and the compact tunables and real section
//! decodes; reports peak resident sections and decoded/held bytes, and times the flight.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented public function")]

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_eu7::generate::{self, GenConfig};
use iron3d_eu7_view::data::Scenery;
use iron3d_eu7_view::planner::{Planner, StreamingConfig, simulate_flight};

fn flight(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("iron3d_eu7_view_bench_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("large.eu7");
    let bytes = generate::scenery(&GenConfig::large(1)).expect("generate");
    std::fs::write(&path, &bytes).expect("write");
    let scenery = Scenery::open(&path).expect("open");
    let mut g = c.benchmark_group("streaming");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    // The seed's numbers (the default) and the project's compact set.
    for (label, config) in [("seed", StreamingConfig::default()), ("compact", StreamingConfig::compact())] {
        // West to east through the middle, 100 km at 100 m/s, 60 frames per second,
        // decodes finishing 3 frames after their request.
        let run = || {
            let mut planner = Planner::new(config, scenery.sections());
            let mut decoded_pack = 0u64;
            let mut instances = 0u64;
            let report =
                simulate_flight(&mut planner, [-50_000.0, 250.0], [50_000.0, 250.0], 100.0, 1.0 / 60.0, 3, |id| {
                    let d = scenery.decode(id).expect("decode");
                    decoded_pack += d.pack_bytes;
                    instances += d.placements.len() as u64;
                    d.resident_bytes()
                });
            (report, decoded_pack, instances)
        };
        let (r, pack, instances) = run();
        eprintln!(
            "streaming ({label}) 100 km over {} bytes / {} sections: peak resident {} sections (bound {}), peak in flight {}, peak ready {}, \
         applied {}, unloaded {}, decoded {} instances from {:.1} MiB PACK, {:.1} MiB decoded in total, peak held {:.2} MiB",
            bytes.len(),
            scenery.sections().len(),
            r.peak_resident,
            r.tracked_bound,
            r.peak_in_flight,
            r.peak_ready,
            r.applied,
            r.unloaded,
            instances,
            pack as f64 / 1048576.0,
            r.decoded_bytes as f64 / 1048576.0,
            r.peak_resident_bytes as f64 / 1048576.0,
        );
        g.bench_function(format!("straight_100km_flight_decode_{label}"), |b| b.iter(run));
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, flight);
criterion_main!(benches);
