//! Scripts: `.scr` packages (strict and compatible), varset text, binary variable sets.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::script::{AnchorRule, ScrPackage, VarBin, Varset, plan_init};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for opts in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(p) = ScrPackage::parse(data, opts) {
            assert_eq!(p.to_bytes().ok().as_deref(), Some(data));
            let _ = plan_init(&p, 500.0, 752.0, 0, AnchorRule::Truncate);
        }
    }
    if let Ok(v) = Varset::parse(data) {
        assert_eq!(v.to_bytes(), data);
    }
    if let Ok(v) = VarBin::parse(data) {
        assert_eq!(v.to_bytes().ok().as_deref(), Some(data));
    }
});
