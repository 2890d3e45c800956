//! Texm tests: hand-built headers and pixels for every format, Page chunk, mip skip,
//! malformed input, encode/decode round trips.

use super::*;
use proptest::prelude::*;

fn header(w: u32, h: u32, mips: u32, flags5: u32, format: u32) -> Vec<u8> {
    let mut out = b"Texm".to_vec();
    for v in [w, h, mips, 32, flags5, 0x1234, format] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

fn decode_one(format: u32, px: &[u8], options: DecodeOptions) -> Vec<u8> {
    let mut bytes = header(1, 1, 1, 0, format);
    bytes.extend_from_slice(px);
    let t = Texm::parse(&bytes).unwrap();
    assert_eq!(t.to_bytes(), bytes);
    t.decode_level(0, options).unwrap()
}

#[test]
fn every_pixel_format_decodes_with_bit_replication() {
    let d = DecodeOptions::default();
    assert_eq!(decode_one(565, &0xF800u16.to_le_bytes(), d), [255, 0, 0, 255]);
    // r=16 -> 128|4, g=32 -> 128|2, b=16 -> 132
    assert_eq!(decode_one(565, &0x8410u16.to_le_bytes(), d), [132, 130, 132, 255]);
    // 556: g5 = 1 -> 8|0, b6 = 63 -> 255
    assert_eq!(decode_one(556, &((1u16 << 6) | 63).to_le_bytes(), d), [0, 8, 255, 255]);
    assert_eq!(decode_one(4444, &0x8F21u16.to_le_bytes(), d), [255, 34, 17, 136]);
    assert_eq!(decode_one(88, &[200, 50], d), [200, 200, 200, 50]);
    let b88 = DecodeOptions { order88: LumAlphaOrder::AlphaFirst, ..d };
    assert_eq!(decode_one(88, &[200, 50], b88), [50, 50, 50, 200]);
    assert_eq!(decode_one(888, &[1, 2, 3, 99], d), [1, 2, 3, 255]);
    assert_eq!(decode_one(8888, &[1, 2, 3, 4], d), [3, 2, 1, 4]);
    let argb = DecodeOptions { order8888: Order8888::Argb, ..d };
    assert_eq!(decode_one(8888, &[1, 2, 3, 4], argb), [2, 3, 4, 1]);
}

#[test]
fn indexed_texture_uses_its_palette_and_mips_shrink_to_one() {
    let mut bytes = header(4, 2, 3, 0, 0);
    let mut pal = vec![0u8; 1024];
    pal[4..8].copy_from_slice(&[10, 20, 30, 40]);
    bytes.extend_from_slice(&pal);
    bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 1]); // 4x2
    bytes.extend_from_slice(&[1, 1]); // 2x1
    bytes.extend_from_slice(&[0]); // 1x1
    let t = Texm::parse(&bytes).unwrap();
    assert_eq!(t.mips.iter().map(Vec::len).collect::<Vec<_>>(), [8, 2, 1]);
    let rgba = t.decode_level(0, DecodeOptions::default()).unwrap();
    assert_eq!(&rgba[..4], &[10, 20, 30, 40]);
    assert_eq!(&rgba[28..], &[10, 20, 30, 40]);
    assert_eq!(t.to_bytes(), bytes);
    assert!(t.decode_level(3, DecodeOptions::default()).is_err());
}

#[test]
fn page_chunk_is_parsed_and_uvs_include_the_implicit_rectangle() {
    let mut bytes = header(2, 2, 1, 0, 565);
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(b"Page");
    bytes.extend_from_slice(&1u32.to_le_bytes());
    for v in [1i16, 1, 0, 2] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let t = Texm::parse(&bytes).unwrap();
    assert_eq!(t.page, Some(vec![PageRect { x: 1, w: 1, y: 0, h: 2 }]));
    assert_eq!(t.page_uvs(), vec![[0.0, 0.0, 1.0, 1.0], [0.5, 0.0, 0.5, 1.0]]);
    assert_eq!(t.to_bytes(), bytes);
    // every prefix fails except the one ending right after the core (a texture
    // without Page chunk); a longer Page chunk and a foreign tail fail
    for n in (0..bytes.len()).filter(|&n| n != 40) {
        assert!(Texm::parse(&bytes[..n]).is_err(), "prefix {n}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(Texm::parse(&long).is_err());
    let mut foreign = header(2, 2, 1, 0, 565);
    foreign.extend_from_slice(&[0; 8]);
    foreign.extend_from_slice(b"Junk");
    assert!(Texm::parse(&foreign).is_err());
}

#[test]
fn malformed_headers_are_rejected() {
    assert!(matches!(Texm::parse(b"Texn").unwrap_err().kind, crate::ErrorKind::BadMagic { .. }));
    assert!(Texm::parse(&header(0, 1, 1, 0, 565)).is_err());
    assert!(matches!(Texm::parse(&header(1, 1, 1, 0, 1234)).unwrap_err().kind, crate::ErrorKind::Unsupported(_)));
    // lying mip count / huge dimensions: rejected before allocating
    assert!(Texm::parse(&header(1, 1, u32::MAX, 0, 8888)).is_err());
    assert!(Texm::parse(&header(u32::MAX, u32::MAX, 1, 0, 8888)).is_err());
}

#[test]
fn mip_skip_policy_matches_the_spec_table() {
    assert_eq!(mip_skip(0x0200_0000, 64, 64, 1), 0);
    assert_eq!(mip_skip(0x0200_0000, 64, 64, 3), 2);
    assert_eq!(mip_skip(0x0200_0000, 64, 64, 2), 1);
    assert_eq!(mip_skip(0x1000_0000, 64, 64, 4), 1);
    assert_eq!(mip_skip(0x2000_0000, 256, 64, 4), 1);
    assert_eq!(mip_skip(0x2000_0000, 128, 128, 4), 0);
    assert_eq!(mip_skip(0x4000_0000, 256, 256, 4), 2);
    assert_eq!(mip_skip(0x4000_0000, 256, 128, 4), 1);
    assert_eq!(mip_skip(0x4000_0000, 64, 64, 4), 0);
    // bits outside the mask are ignored, combined masks select nothing
    assert_eq!(mip_skip(0x0480_0020 | 0x0200_0000, 8, 8, 3), 2);
    assert_eq!(mip_skip(0x1200_0000, 8, 8, 3), 0);
}

#[test]
fn encoder_round_trips_exact_values_for_every_format() {
    let d = DecodeOptions::default();
    let mut pal = vec![0u8; 1024];
    for i in 0..256 {
        pal[i * 4..i * 4 + 4].copy_from_slice(&[i as u8, 255 - i as u8, 7, 255]);
    }
    // colours representable in every format (grey levels 0/255, alpha 255)
    let rgba = [255u8, 255, 255, 255, 0, 0, 0, 255].repeat(2);
    for f in PixelFormat::ALL {
        let p = (f == PixelFormat::Indexed).then_some(&pal[..]);
        let src = if f == PixelFormat::Indexed { [0u8, 255, 7, 255, 255, 0, 7, 255].repeat(2) } else { rgba.clone() };
        let t = Texm::encode(2, 2, f, &[src.clone(), src[..4].to_vec()], p, d).unwrap();
        let back = Texm::parse(&t.to_bytes()).unwrap();
        assert_eq!(back.decode_level(0, d).unwrap(), src, "{f:?}");
        assert_eq!(back.format().unwrap(), f);
    }
    assert!(Texm::encode(2, 2, PixelFormat::Rgb565, &[vec![0; 4]], None, d).is_err());
    assert!(Texm::encode(1, 1, PixelFormat::Indexed, &[vec![0; 4]], None, d).is_err());
}

#[test]
fn box_filter_mips_average_pixels() {
    let rgba = [0u8, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0];
    let mips = build_mips(&rgba, 2, 2, 2);
    assert_eq!(mips[1], vec![128, 128, 128, 128]);
}

proptest! {
    #[test]
    fn texm_write_read_write_identity(
        w in 1u32..9, h in 1u32..9, mips in 1u32..4, fi in 0usize..7, seed in any::<u8>(), page in any::<bool>()
    ) {
        let f = PixelFormat::ALL[fi];
        let mut bytes = header(w, h, mips, 0, f.code());
        if f == PixelFormat::Indexed {
            bytes.extend((0..1024).map(|i| (i as u8).wrapping_mul(seed)));
        }
        for l in 0..mips {
            let (lw, lh) = level_dims(w, h, l);
            bytes.extend((0..lw * lh * f.bytes_per_pixel() as u32).map(|i| (i as u8) ^ seed));
        }
        if page {
            bytes.extend_from_slice(b"Page\x01\0\0\0\x01\0\x02\0\x03\0\x04\0");
        }
        let t = Texm::parse(&bytes).unwrap();
        prop_assert_eq!(t.to_bytes(), bytes.clone());
        prop_assert_eq!(Texm::parse(&t.to_bytes()).unwrap(), t);
    }
}
