//! Helper formats: CTPT, CTLD (both row layouts), NDPR, EXPL, BASE — each parsed
//! payload must write back byte for byte.
#![no_main]

use iron3d_formats::helpers::{Base, Ctld, Ctpt, Expl, Ndpr, RowLayout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = Ctpt::parse(data) {
        assert_eq!(c.to_bytes().ok().as_deref(), Some(data));
    }
    for layout in [RowLayout::Native36, RowLayout::Decompiled48] {
        if let Ok(c) = Ctld::parse_with(data, layout) {
            assert_eq!(c.to_bytes().ok().as_deref(), Some(data));
            let _ = (c.initial_pose(), c.typed_items(), c.effect_rows());
        }
    }
    if let Ok(n) = Ndpr::parse(data) {
        assert_eq!(n.to_bytes().ok().as_deref(), Some(data));
    }
    if let Ok(e) = Expl::parse(data) {
        assert_eq!(e.to_bytes(), data);
    }
    if let Ok(b) = Base::parse(data) {
        assert_eq!(b.to_bytes().ok().as_deref(), Some(data));
    }
});
