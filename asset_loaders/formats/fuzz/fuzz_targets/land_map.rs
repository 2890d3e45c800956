//! `Land.map`: parse, round trip, and run areal queries on whatever parses.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::world::{ArealMap, ArealQuery};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = ArealMap::parse(data, ReadOptions::compatible()) {
        assert_eq!(m.to_bytes().ok().as_deref(), Some(data));
        let q = ArealQuery::new(&m);
        let _ = q.area_at(1.0, 2.0);
        if let Some(r) = q.route(0, m.areals.len().saturating_sub(1)) {
            let _ = q.corridor(&r);
        }
    }
});
