//! `Land.msh`: parse, round trip, and run surface queries on whatever parses.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::world::{LandMsh, TerrainQuery};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = LandMsh::parse(data, ReadOptions::compatible()) {
        assert_eq!(t.to_bytes().ok().as_deref(), Some(data));
        let q = TerrainQuery::new(&t);
        let _ = q.height_at(1.0, 2.0);
        let _ = q.ray_cast([0.0, 0.0, 100.0], [0.3, 0.2, -1.0], 1e6);
    }
});
