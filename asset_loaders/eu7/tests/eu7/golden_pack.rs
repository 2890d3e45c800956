//! Hand-built PIDX/PROT/PACK fixtures: one section per format (flat, 1–6, and the 45-byte
//! format-5 variant), decoded on demand, expanded against PROT, re-encoded byte for byte.

use crate::bytes::{B, header, read_back, strs};
use iron3d_eu7::{ErrorKind, Module, ReadOptions, Section, SectionFormat, SectionIndex, Sid};

const STRINGS: [&str; 4] = ["tree.e3d", "bush.e3d", "skin", "obj"];

/// Solo model record with bounds: 71 bytes. model "bush.e3d".
fn solo(x: f32) -> B {
    B::new()
        .u8(0x08)
        .v3(x, 0.0, 760.0)
        .f32(2.0)
        .u8(0)
        .u8(1)
        .v3(x, 0.0, 760.0)
        .v3(0.0, 0.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u32(1)
        .none()
        .u32(0)
        .u32(0)
}

/// Instance of prototype 0 named "obj": 44 bytes (+ cell byte if `cell`).
fn inst(cell: Option<u8>) -> B {
    let b = B::new().u32(0).v3(300.0, 0.0, 900.0).v3(0.0, 90.0, 0.0).v3(2.0, 2.0, 2.0).u32(3);
    match cell {
        Some(c) => b.u8(c),
        None => b,
    }
}

/// (format marker, model_count, section bytes)
fn sections() -> Vec<(Option<u8>, u32, B)> {
    assert_eq!(solo(0.0).len(), 71);
    assert_eq!(inst(None).len(), 44);
    let flat = solo(130.0);
    let f1 = B::new().u8(1).u32(1).u32(1).raw(&solo(1.0).0).raw(&inst(None).0);
    let f2 = B::new().u8(2).u32(1).u32(1).u32(2).u32(0).u32(1).raw(&solo(2.0).0).raw(&inst(None).0);
    // Format 3: header 1+4+4+4+4+4+2*8 = 37; chunk 0 at 37, chunk 1 at 37 + 71 = 108.
    let f3 = B::new()
        .u8(3)
        .u32(2)
        .u32(0)
        .u32(1)
        .u32(1)
        .u32(2)
        .u32(1)
        .u32(37)
        .u32(1)
        .u32(108)
        .raw(&solo(3.0).0)
        .raw(&solo(33.0).0);
    // Format 4: header 1+4+4+(4+4)+(4+4)+4+8 = 37.
    let f4 = B::new().u8(4).u32(1).u32(0).u32(1).u32(1).u32(1).u32(2).u32(1).u32(1).u32(37).raw(&solo(4.0).0);
    // Format 5: header 1+4+4+(4+4)+4+4+12 = 37; one chunk with one solo and one instance.
    let f5 = B::new()
        .u8(5)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(0)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(37)
        .raw(&solo(5.0).0)
        .raw(&inst(None).0);
    let f5b = B::new()
        .u8(5)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(0)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(37)
        .raw(&solo(6.0).0)
        .raw(&inst(Some(9)).0);
    // Format 6: header 1+4+4+(4+8)+(4+4)+4+12 = 45; solo v13 with mesh 0 -> "bush.e3d", texture 0 -> "skin".
    let solo13 = B::new()
        .u8(0x08)
        .v3(7.0, 0.0, 760.0)
        .f32(2.0)
        .u8(0)
        .u8(1)
        .v3(7.0, 0.0, 760.0)
        .v3(0.0, 0.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u16(0)
        .u16(0)
        .u32(0)
        .u32(0)
        .u8(12);
    assert_eq!(solo13.len(), 68);
    let f6 = B::new()
        .u8(6)
        .u32(1)
        .u32(1)
        .u32(2)
        .u32(1)
        .u32(0)
        .u32(1)
        .u32(2)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(45)
        .raw(&solo13.0)
        .raw(&inst(Some(3)).0);
    vec![
        (None, 1, flat),
        (Some(1), 2, f1),
        (Some(2), 2, f2),
        (Some(3), 2, f3),
        (Some(4), 1, f4),
        (Some(5), 2, f5),
        (Some(5), 2, f5b),
        (Some(6), 2, f6),
    ]
}

/// Builds a version-9 module with PIDX (row 250, columns 250..), PROT v9, PACK.
fn module_bytes() -> Vec<u8> {
    let secs = sections();
    let mut pidx = B::new().u32(secs.len() as u32);
    let mut pack = B::new();
    for (k, (_, count, bytes)) in secs.iter().enumerate() {
        pidx = pidx.u16(250).u16(250 + k as u16).u32(*count).u64(pack.len() as u64);
        pack = pack.raw(&bytes.0);
    }
    // Prototype: bounds radius 3, transition 1, "tree.e3d", no texture; v9 tail.
    let prot = B::new()
        .u32(1)
        .u8(0x08)
        .v3(0.0, 0.0, 0.0)
        .f32(3.0)
        .u8(0)
        .u8(1)
        .u32(0)
        .none()
        .u32(0)
        .u32(0)
        .none()
        .u8(2)
        .u32(0)
        .f32(0.0)
        .f32(-1.0);
    header(9).chunk(b"STRS", strs(&STRINGS)).chunk(b"PIDX", pidx).chunk(b"PROT", prot).chunk(b"PACK", pack).0
}

#[test]
fn every_section_format_decodes_expands_and_reencodes() {
    let bytes = module_bytes();
    let m = read_back(&bytes);
    assert_eq!(m.prototypes()[0].tail.map(|t| (t.pack_flags, t.baked_range_max)), Some((2, -1.0)));
    let index = SectionIndex::new(&m).unwrap_or_default();
    let want = [
        SectionFormat::Flat,
        SectionFormat::V8,
        SectionFormat::V9,
        SectionFormat::V10,
        SectionFormat::V11,
        SectionFormat::V12,
        SectionFormat::V12,
        SectionFormat::V13,
    ];
    for (k, (marker, count, raw)) in sections().iter().enumerate() {
        let i = index.find(250, 250 + k as u32);
        assert_eq!(i, Some(k));
        let sec = index.decode(&m, k, true);
        let sec = match sec {
            Ok(s) => s,
            Err(e) => panic!("section {k}: {e}"),
        };
        assert_eq!(sec.format, want[k]);
        assert_eq!(sec.format.marker(), *marker);
        assert_eq!(sec.model_count() as u32, *count);
        assert_eq!(sec.encode().ok().as_ref(), Some(&raw.0), "section {k} re-encodes byte for byte");
        let models = sec.models(m.prototypes()).unwrap_or_default();
        assert_eq!(models.len() as u32, *count);
        assert_eq!(m.string(models[0].model_file), b"bush.e3d", "section {k} solo");
        if let Some(inst) = models.get(1).filter(|_| k != 3) {
            assert_eq!(m.string(inst.model_file), b"tree.e3d", "section {k} instance model from PROT");
            assert_eq!(m.string(inst.node.name), b"obj");
            assert_eq!((inst.node.radius, inst.scale, inst.transition), (3.0, [2.0, 2.0, 2.0], 1));
        }
    }
    let f6 = index.decode(&m, 7, true).ok();
    let f6 = f6.as_ref();
    assert_eq!(f6.map(|s| (s.solo_v13[0].cell_id, s.inst[0].cell_id)), Some((12, Some(3))));
    let f6m = f6.and_then(|s| s.models(m.prototypes()).ok()).unwrap_or_default();
    assert_eq!(m.string(f6m[0].texture_file), b"skin", "format-6 texture index mapped through UTEX");
    let f5b = index.decode(&m, 6, true).ok();
    assert_eq!(f5b.map(|s| s.inst[0].cell_id), Some(Some(9)), "45-byte format-5 instances detected by chunk end");
}

#[test]
fn single_chunk_of_a_chunked_section() {
    let m = read_back(&module_bytes());
    let index = SectionIndex::new(&m).unwrap_or_default();
    let c1 = index.decode_chunk(&m, 3, 1, true).ok();
    assert_eq!(c1.as_ref().map(|s| s.solo.len()), Some(1));
    assert_eq!(c1.map(|s| s.solo[0].location[0]), Some(33.0));
    assert!(index.decode_chunk(&m, 3, 2, true).is_err());
}

#[test]
fn pack_is_not_decoded_at_load() {
    // Corrupt the flat section's payload: the module still loads; only decoding fails.
    let mut bytes = module_bytes();
    let pack_at = bytes.windows(4).position(|w| w == b"PACK").unwrap_or(0) + 8;
    bytes[pack_at + 1 + 16 + 2 + 36 + 8] = 0xFF; // light_count low byte of the flat record
    let m = Module::read(bytes, &ReadOptions::strict());
    assert!(m.is_ok(), "module load must not touch PACK sections");
    let m = m.ok();
    let index = m.as_ref().and_then(|m| SectionIndex::new(m).ok()).unwrap_or_default();
    assert!(m.as_ref().map(|m| index.decode(m, 0, false).is_err()).unwrap_or(false));
    assert!(m.as_ref().map(|m| index.decode(m, 1, false).is_ok()).unwrap_or(false));
    assert_eq!(m.as_ref().and_then(|m| m.pack()).map(|p| p.file_offset as usize), Some(pack_at));
}

#[test]
fn flat_section_whose_first_flags_collide_with_marker_1() {
    // Flat section, first model flags 0x01 (name only): looks like format 1.
    let rec = B::new()
        .u8(0x01)
        .u32(3)
        .u8(0)
        .u8(0)
        .v3(1.0, 2.0, 3.0)
        .v3(0.0, 0.0, 0.0)
        .v3(1.0, 1.0, 1.0)
        .u32(0)
        .none()
        .u32(0)
        .u32(0);
    // It is the flat layout MaSzyna's first v7 writer wrote: read so, strict mode too,
    // since one flat record fills the section exactly.
    for strict in [true, false] {
        let s = Section::decode(&rec.0, 0, 1, strict).ok();
        assert_eq!(s.as_ref().map(|s| s.format), Some(SectionFormat::Flat));
        assert_eq!(s.map(|s| (s.solo[0].node.name, s.solo[0].location)), Some((Sid(3), [1.0, 2.0, 3.0])));
    }
    // A byte more and it is neither: strict mode reports the collision.
    let longer = [rec.0.as_slice(), &[0]].concat();
    let strict = Section::decode(&longer, 0, 1, true);
    assert!(matches!(strict.map_err(|e| e.kind), Err(ErrorKind::FlatMarkerCollision(1))));
}

#[test]
fn unknown_section_and_out_of_range_prototype() {
    let m = read_back(&module_bytes());
    let index = SectionIndex::new(&m).unwrap_or_default();
    assert!(matches!(index.models(&m, 1, 1, false).map_err(|e| e.kind), Err(ErrorKind::SectionNotFound { .. })));
    assert_eq!(index.find(70_000, 250), None);
    // An instance referencing prototype 5 of a 1-entry PROT fails expansion.
    let mut raw = B::new().u8(1).u32(0).u32(1).0;
    raw.extend(B::new().u32(5).v3(0.0, 0.0, 0.0).v3(0.0, 0.0, 0.0).v3(1.0, 1.0, 1.0).none().0);
    let s = Section::decode(&raw, 0, 1, true).ok();
    let r = s.map(|s| s.models(m.prototypes()).map_err(|e| e.kind));
    assert!(matches!(r, Some(Err(ErrorKind::PrototypeOutOfRange { id: 5, len: 1 }))));
}
