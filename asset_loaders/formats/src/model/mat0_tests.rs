//! MAT0 tests: hand-built payloads of several versions, selection modes, masks.

use super::*;
use proptest::prelude::*;

fn phase_bytes(diffuse_r: u8, texture: &[u8]) -> Vec<u8> {
    let mut p = vec![10, 20, 30, 50, diffuse_r, 0, 0, 255, 1, 2, 3, 4, 5, 6, 7, 8, 16, 0xFF];
    let mut t = [0u8; 16];
    t[..texture.len()].copy_from_slice(texture);
    p.extend_from_slice(&t);
    p
}

/// Version 6, two phases, one loop block with mask 0x02 and keys (0, 100 ms), (1, 300 ms).
fn sample(mode: u32) -> Vec<u8> {
    let mut b = vec![2, 0, 1, 0, 5, 6];
    b.extend_from_slice(&1.0f32.to_le_bytes());
    b.extend_from_slice(&0.25f32.to_le_bytes());
    b.extend(phase_bytes(0, b"BODY.0\0junk"));
    b.extend(phase_bytes(255, b""));
    b.extend_from_slice(&((0x02 << 3) | mode).to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    for w in [0u16, 100, 0, 1, 300, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b
}

fn no_rand() -> u32 {
    panic!("rand used")
}

#[test]
fn parses_versions_and_round_trips() {
    let bytes = sample(0);
    let m = Material::parse(&bytes, 0x05, 6).unwrap();
    assert_eq!(m.blend, Some([5, 6]));
    assert_eq!(m.alpha_multiplier, Some(1.0f32.to_bits()));
    assert_eq!(m.phases[0].texture_name(), Some(&b"BODY.0"[..]));
    assert_eq!(m.phases[1].texture_name(), None);
    assert_eq!(m.phases[1].colors().stage, -1);
    assert_eq!(m.render_type(), 1);
    let c = m.phases[0].colors();
    assert_eq!(c.ambient, [10.0 / 255.0, 20.0 / 255.0, 30.0 / 255.0, 0.5]);
    assert_eq!(c.power, 16.0);
    assert_eq!(m.to_bytes().unwrap(), bytes);
    // version 1: no blend, no floats
    let mut v1 = vec![1, 0, 0, 0];
    v1.extend(phase_bytes(1, b"A.B"));
    let m1 = Material::parse(&v1, 0, 1).unwrap();
    assert_eq!((m1.blend, m1.alpha_multiplier, m1.emissive_intensity), (None, None, None));
    assert_eq!(m1.to_bytes().unwrap(), v1);
    // the same bytes are wrong for version 6 (they end early)
    assert!(Material::parse(&v1, 0, 6).is_err());
}

#[test]
fn malformed_payloads_are_errors() {
    let bytes = sample(0);
    for n in 0..bytes.len() {
        assert!(Material::parse(&bytes[..n], 0, 6).is_err(), "prefix {n}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(Material::parse(&long, 0, 6).is_err());
    let mut many = bytes.clone();
    many[2] = 20;
    assert!(Material::parse(&many, 0, 6).is_err());
    let mut bad_phase = bytes.clone();
    let at = bytes.len() - 6;
    bad_phase[at] = 2; // key phase 2 of 2
    assert!(matches!(
        Material::parse(&bad_phase, 0, 6).unwrap_err().kind,
        ErrorKind::Invalid { rule: "mat0_key_phase", .. }
    ));
    let mut lying = bytes.clone();
    lying[0] = 0xFF; // 255 phases
    assert!(Material::parse(&lying, 0, 6).is_err());
}

#[test]
fn selection_follows_each_mode() {
    let m = Material::parse(&sample(0), 0, 6).unwrap();
    let s = m.select(0, 1050, 1000, &mut no_rand).unwrap();
    assert_eq!((s.phase, s.next, s.alpha), (0, 1, 0.5));
    // 400 ms cycle: 1000 + 400 + 250 -> r = 250 -> segment 1 at 150/300, next wraps to 0
    let s = m.select(0, 1650, 1000, &mut no_rand).unwrap();
    assert_eq!((s.phase, s.next, s.alpha), (1, 0, 0.5));
    // game time before start wraps as unsigned: d = 2^32 - 1, r = d % 400 = 95
    let s = m.select(0, 0, 1, &mut no_rand).unwrap();
    assert_eq!((s.phase, s.alpha), (0, 0.95));
    let pp = Material::parse(&sample(1), 0, 6).unwrap();
    // q = 1 (odd): r = 400 - 50 = 350 -> segment 1 at 250/300
    let s = pp.select(0, 450, 0, &mut no_rand).unwrap();
    assert_eq!((s.phase, s.alpha), (1, 250.0 / 300.0));
    let one = Material::parse(&sample(2), 0, 6).unwrap();
    let s = one.select(0, 999, 0, &mut no_rand).unwrap();
    assert_eq!((s.phase, s.next, s.alpha), (1, 1, 0.0));
    let rnd = Material::parse(&sample(3), 0, 6).unwrap();
    let s = rnd.select(0, 5, 0, &mut || 1234).unwrap();
    assert_eq!(s.new_start_time, Some(1234 % 400));
    assert_eq!(s.phase, 0); // r = 34 lies in segment 0
    let mut bad = Material::parse(&sample(0), 0, 6).unwrap();
    bad.anims[0].header = 5;
    assert!(bad.select(0, 5, 0, &mut no_rand).is_err());
    assert_eq!(m.select_normalized(0, 0.125).phase, 0);
    assert_eq!(m.select_normalized(0, 7.0).phase, 1); // 0.5 -> r = 200
}

#[test]
fn interpolation_mask_selects_channels() {
    let m = Material::parse(&sample(0), 0, 6).unwrap();
    let sel = Selection { phase: 0, next: 1, alpha: 0.5, new_start_time: None };
    let c = m.colors(0, &sel).unwrap();
    assert_eq!(c.diffuse[0], 0.5); // mask 0x02 interpolates diffuse RGB
    assert_eq!(c.diffuse[3], 1.0);
    assert_eq!(c.stage, -1); // stage comes from phase 0 (stage byte 0xFF sign-extended)
}

#[test]
fn authoring_builds_a_version_6_material() {
    let p = Phase::new([0, 0, 0, 100], [255; 4], [0; 4], [0; 4], 8, -1, b"METAL.A").unwrap();
    let anim = AnimBlock { header: 0, keys: vec![AnimKey { phase: 0, duration_ms: 0, unused: 0 }] };
    let m = Material::new(0, vec![p], vec![anim]);
    let bytes = m.to_bytes().unwrap();
    assert_eq!(Material::parse(&bytes, 0, 6).unwrap(), m);
    assert_eq!(m.select(0, 77, 0, &mut no_rand).unwrap().phase, 0);
    let mut wrong = m.clone();
    wrong.version = 1;
    assert!(wrong.to_bytes().is_err());
}

proptest! {
    #[test]
    fn mat0_write_read_write_identity(
        version in 0u32..8, nphase in 1usize..4, keys in proptest::collection::vec((0u16..4, any::<u16>(), any::<u16>()), 0..6), seed in any::<u8>()
    ) {
        let phases: Vec<Phase> = (0..nphase).map(|i| Phase { params: [seed.wrapping_add(i as u8); 18], texture: [seed; 16] }).collect();
        let keys = keys.into_iter().map(|(p, d, u)| AnimKey { phase: p % nphase as u16, duration_ms: d, unused: u }).collect();
        let mut m = Material::new(seed.into(), phases, vec![AnimBlock { header: u32::from(seed), keys }]);
        m.version = version;
        m.blend = (version >= 2).then_some([seed, 1]);
        m.alpha_multiplier = (version >= 3).then_some(u32::from(seed) * 77);
        m.emissive_intensity = (version >= 4).then_some(3);
        let bytes = m.to_bytes().unwrap();
        let back = Material::parse(&bytes, m.attr1, version).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}
