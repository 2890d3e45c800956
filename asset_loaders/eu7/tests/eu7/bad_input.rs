//! Malformed input: every truncation, lying counts, bad magic/version/sizes, strict-only
//! rejections — each an `Err` with a location, never a panic.

use crate::bytes::{B, header, strs};
use iron3d_eu7::{ErrorKind, Module, ReadOptions, Section, SectionIndex};

fn kind(bytes: Vec<u8>, strict: bool) -> Result<Module, ErrorKind> {
    let opts = if strict { ReadOptions::strict() } else { ReadOptions::compatible() };
    Module::read(bytes, &opts).map_err(|e| e.kind)
}

fn fixture() -> Vec<u8> {
    let rec = B::new()
        .u8(0x09)
        .u32(0)
        .v3(0.0, 0.0, 0.0)
        .f32(1.0)
        .u8(0)
        .u8(1)
        .v3(1.0, 2.0, 3.0)
        .v3(0.0, 0.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u32(1)
        .u32(0xFFFF_FFFF)
        .u32(1)
        .f32(1.0)
        .u32(0);
    let trak = B::new()
        .u32(1)
        .u8(0)
        .u8(1)
        .u8(1)
        .f32(1.0)
        .f32(1.0)
        .f32(1.0)
        .f32(1.0)
        .u32(0)
        .u32(0)
        .u8(1)
        .u8(0)
        .u32(1)
        .v3(0.0, 0.0, 0.0)
        .f32(0.0)
        .v3(1.0, 0.0, 0.0)
        .v3(2.0, 0.0, 0.0)
        .v3(3.0, 0.0, 0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(1)
        .u8(7)
        .u32(0);
    header(6).chunk(b"STRS", strs(&["m", "m.e3d"])).chunk(b"TRAK", trak).chunk(b"MODL", B::new().u32(1).raw(&rec.0)).0
}

/// Chunk boundaries of the fixture (a prefix ending there is a valid shorter file).
fn boundaries(bytes: &[u8]) -> Vec<usize> {
    let mut v = vec![8];
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]) as usize;
        at += size;
        v.push(at);
    }
    v
}

#[test]
fn every_truncation_is_an_error_in_strict_mode() {
    let full = fixture();
    assert!(kind(full.clone(), true).is_ok());
    let ends = boundaries(&full);
    for n in 0..full.len() {
        let r = kind(full[..n].to_vec(), true);
        if ends.contains(&n) {
            assert!(r.is_ok(), "prefix {n} ends on a chunk boundary");
        } else {
            assert!(r.is_err(), "prefix {n} must fail");
        }
        // Compatible mode never panics either; inside a chunk it must still fail.
        let c = kind(full[..n].to_vec(), false);
        if n >= 8 && !ends.iter().any(|&e| n >= e && n < e + 8) {
            assert!(c.is_err(), "compatible prefix {n} cuts a chunk payload");
        }
    }
}

#[test]
fn every_truncation_of_a_section_is_an_error() {
    let rec = B::new()
        .u8(0x08)
        .v3(0.0, 0.0, 0.0)
        .f32(1.0)
        .u8(0)
        .u8(0)
        .v3(1.0, 2.0, 3.0)
        .v3(0.0, 0.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u32(0)
        .u32(0xFFFF_FFFF)
        .u32(0)
        .u32(0);
    let sec = B::new().u8(5).u32(1).u32(0).u32(0).u32(0).u32(1).u32(1).u32(0).u32(33).raw(&rec.0).0;
    assert!(Section::decode(&sec, 0, 1, true).is_ok());
    for n in 0..sec.len() {
        assert!(Section::decode(&sec[..n], 0, 1, true).is_err(), "section prefix {n}");
    }
}

#[test]
fn bad_magic_version_and_chunk_sizes() {
    assert!(matches!(kind(b"EU7A\x06\0\0\0".to_vec(), false), Err(ErrorKind::BadMagic(_))));
    assert!(matches!(kind(header(3).0, false), Err(ErrorKind::UnsupportedVersion(3))));
    assert!(matches!(kind(header(10).0, false), Err(ErrorKind::UnsupportedVersion(10))));
    let small = header(6).raw(b"STRS").u32(7).0;
    assert!(matches!(kind(small, false), Err(ErrorKind::ChunkTooSmall(7))));
    let over = header(6).raw(b"STRS").u32(1000).u32(0).0;
    assert!(matches!(kind(over, false), Err(ErrorKind::ChunkOverrun { .. })));
}

#[test]
fn lying_counts_are_rejected_before_allocation() {
    for (id, payload) in [
        (b"STRS", B::new().u32(u32::MAX)),
        (b"STRS", B::new().u32(1).u32(u32::MAX)),
        (b"MODL", B::new().u32(0x4000_0000)),
        (b"TRAK", B::new().u32(3)),
        (b"PIDX", B::new().u32(2).raw(&[0; 16])),
    ] {
        let r = kind(header(6).chunk(id, payload).0, false);
        assert!(matches!(r, Err(ErrorKind::CountTooLarge { .. })), "{}: {r:?}", String::from_utf8_lossy(id));
    }
}

#[test]
fn strict_only_rejections_are_kept_losslessly_in_compatible_mode() {
    // Unknown chunk.
    let unk = header(6).chunk(b"ZZZZ", B::new().raw(&[1, 2, 3])).0;
    assert!(matches!(kind(unk.clone(), true), Err(ErrorKind::UnknownChunk)));
    assert_eq!(kind(unk.clone(), false).ok().and_then(|m| m.write().ok()), Some(unk));
    // Extra bytes after a known payload.
    let extra = header(6).chunk(b"FINT", B::new().u32(5).raw(&[9, 9])).0;
    assert!(matches!(kind(extra.clone(), true), Err(ErrorKind::PayloadLength { parsed: 4, declared: 6 })));
    let m = kind(extra.clone(), false).ok();
    assert_eq!(m.as_ref().map(Module::first_init), Some(5));
    assert_eq!(m.and_then(|m| m.write().ok()), Some(extra));
    // Trailing fragment shorter than a chunk header.
    let frag = header(6).chunk(b"FINT", B::new().u32(5)).raw(&[1, 2, 3]).0;
    assert!(matches!(kind(frag.clone(), true), Err(ErrorKind::TrailingFragment(3))));
    assert_eq!(kind(frag.clone(), false).ok().and_then(|m| m.write().ok()), Some(frag));
    // String id beyond STRS.
    let sid =
        header(6).chunk(b"STRS", strs(&["a"])).chunk(b"SOND", B::new().u32(1).u8(1).u32(5).v3(0.0, 0.0, 0.0).u32(0)).0;
    assert!(matches!(kind(sid.clone(), true), Err(ErrorKind::StringIdOutOfRange { id: 5, len: 1 })));
    assert!(kind(sid, false).is_ok());
}

#[test]
fn pidx_offset_beyond_pack_is_an_error() {
    let bytes =
        header(9).chunk(b"PIDX", B::new().u32(1).u16(1).u16(1).u32(1).u64(99)).chunk(b"PACK", B::new().raw(&[0; 4])).0;
    let m = kind(bytes, true).ok();
    assert!(m.is_some(), "PIDX offsets are only checked when the index is built");
    assert!(m.map(|m| SectionIndex::new(&m).is_err()).unwrap_or(false));
}

mod mutation {
    //! Random corruption of generated files: any result is fine except a panic.

    use iron3d_eu7::e3d::E3dModel;
    use iron3d_eu7::generate::{self, GenConfig};
    use iron3d_eu7::{Module, ReadOptions, SectionFormat, SectionIndex};
    use proptest::prelude::*;

    fn exercise(bytes: Vec<u8>, strict: bool) {
        let opts = if strict { ReadOptions::strict() } else { ReadOptions::compatible() };
        let Ok(m) = Module::read(bytes, &opts) else { return };
        let _ = m.write();
        let Ok(index) = SectionIndex::new(&m) else { return };
        for i in 0..index.entries.len() {
            if let Ok(s) = index.decode(&m, i, strict) {
                let _ = s.models(m.prototypes());
                let _ = s.encode();
            }
            let _ = index.decode_chunk(&m, i, 1, strict);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn corrupted_sceneries_never_panic(
            seed in 0u64..4,
            fmt in 0usize..7,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
            cut in any::<prop::sample::Index>(),
            truncate in any::<bool>(),
        ) {
            let formats = [SectionFormat::Flat, SectionFormat::V8, SectionFormat::V9, SectionFormat::V10, SectionFormat::V11, SectionFormat::V12, SectionFormat::V13];
            let cfg = GenConfig { seed, instances: 300, extent_m: 2500.0, model_kinds: 6, terrain_triangles: 4, extra_shapes: 1, tracks: 2, logic: 2, format: Some(formats[fmt]), ..GenConfig::default() };
            let mut bytes = generate::scenery(&cfg).unwrap_or_default();
            prop_assume!(!bytes.is_empty());
            for (at, v) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *v;
            }
            if truncate {
                bytes.truncate(cut.index(bytes.len()));
            }
            exercise(bytes.clone(), true);
            exercise(bytes, false);
        }

        #[test]
        fn corrupted_e3d_never_panics(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
            let Some((_, mut bytes)) = generate::models(1).into_iter().next() else { return Ok(()) };
            for (at, v) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *v;
            }
            if let Ok(m) = E3dModel::read(&bytes, None) {
                for i in 0..m.submodels.len() {
                    let _ = m.triangles(i);
                    let _ = m.texture_of(i, b"");
                }
            }
        }
    }
}
