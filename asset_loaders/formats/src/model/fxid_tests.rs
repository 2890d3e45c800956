//! FXID tests: a hand-built effect with a sound and a billboard command.

use super::*;
use crate::error::ErrorKind;
use proptest::prelude::*;

fn field32(s: &[u8]) -> Vec<u8> {
    let mut f = s.to_vec();
    f.resize(32, 0);
    f
}

fn sample() -> Vec<u8> {
    let mut b = Vec::new();
    for w in [2u32, 1] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&2.5f32.to_le_bytes());
    b.extend_from_slice(&0f32.to_le_bytes());
    b.extend_from_slice(&0x440u32.to_le_bytes());
    b.extend_from_slice(&0x1FFu32.to_le_bytes());
    for f in [0.0f32, 0.0, 0.0, 1.0, 2.0, 3.0, 1.0, 1.0, 1.0] {
        b.extend_from_slice(&f.to_le_bytes());
    }
    // opcode 2, enabled
    b.extend_from_slice(&0x102u32.to_le_bytes());
    b.extend_from_slice(&1u32.to_le_bytes()); // mode
    b.extend_from_slice(&0.5f32.to_le_bytes()); // t_start
    b.extend(vec![0u8; 84 - 12]);
    b.extend(field32(b"sounds.lib"));
    b.extend(field32(b"thunder.wav"));
    // opcode 3, disabled
    b.extend_from_slice(&3u32.to_le_bytes());
    b.extend(vec![0u8; 132]);
    b.extend(field32(b"material.lib"));
    b.extend(field32(b"spark"));
    b
}

#[test]
fn parses_header_commands_and_references() {
    let bytes = sample();
    let e = Effect::parse(&bytes, ReadOptions::strict()).unwrap();
    assert_eq!(e.header.duration, 2.5);
    assert_eq!(e.header.pivot, [1.0, 2.0, 3.0]);
    assert!(!e.active_default());
    assert_eq!(e.commands.len(), 2);
    assert!(e.commands[0].enabled() && !e.commands[1].enabled());
    let s = e.commands[0].sound().unwrap();
    assert_eq!((s.mode, s.t_start), (1, 0.5));
    assert_eq!(s.reference.display(), "sounds.lib / thunder.wav");
    assert_eq!(e.commands[1].reference().unwrap().display(), "material.lib / spark");
    assert!(e.commands[1].sound().is_none());
    assert_eq!(e.to_bytes(), bytes);
}

#[test]
fn malformed_effects_are_errors() {
    let bytes = sample();
    for n in 0..bytes.len() {
        assert!(Effect::parse(&bytes[..n], ReadOptions::compatible()).is_err(), "prefix {n}");
    }
    let mut unknown = bytes.clone();
    unknown[60] = 11;
    let e = Effect::parse(&unknown, ReadOptions::compatible()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "fxid_opcode", .. }) && e.offset == Some(60));
    let mut zero = bytes.clone();
    zero[60] = 0;
    assert!(Effect::parse(&zero, ReadOptions::compatible()).is_err());
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(Effect::parse(&extra, ReadOptions::compatible()).is_err());
    let mut lying = bytes.clone();
    lying[0] = 0xFF;
    assert!(Effect::parse(&lying, ReadOptions::compatible()).is_err());
    let mut empty_ref = bytes.clone();
    empty_ref[60 + 84] = 0;
    assert!(Effect::parse(&empty_ref, ReadOptions::strict()).is_err());
    assert!(Effect::parse(&empty_ref, ReadOptions::compatible()).is_ok());
}

#[test]
fn authoring_builds_commands_of_the_right_size() {
    for op in 1..=10u8 {
        assert_eq!(Command::new(op, true).unwrap().body.len() + 4, command_size(op).unwrap());
    }
    assert!(Command::new(0, true).is_err());
    let r = ResourceRef::new(b"sounds.lib", b"boom.wav").unwrap();
    let s = SoundCommand {
        mode: 0,
        t_start: 0.0,
        t_end: 1.0,
        vectors: [[0.0; 3]; 4],
        scalars: [1.0; 4],
        manager_arg: 7,
        reference: r,
    };
    let sound = Command::new_sound(true, &s).unwrap();
    assert_eq!(sound.body.len(), 144);
    assert_eq!(sound.sound().unwrap(), s);
    let mut light = Command::new(1, false).unwrap();
    assert!(light.reference().is_none());
    light.set_reference(&ResourceRef::new(b"material.lib", b"light_w").unwrap()).unwrap();
    assert!(light.reference().is_some());
    assert!(Command::new(6, false).unwrap().set_reference(&r).is_err());
}

proptest! {
    #[test]
    fn fxid_write_read_write_identity(ops in proptest::collection::vec(1u8..=10, 0..6), flags in any::<u32>(), seed in any::<u8>()) {
        let header = FxHeader { command_count: 0, time_mode: 4, duration: 1.0, phase_jitter: 0.5, flags, settings_id: 3,
            random_shift: [0.0; 3], pivot: [1.0; 3], scale: [2.0; 3] };
        let r = ResourceRef::new(b"a.lib", b"b").unwrap();
        let commands = ops.iter().map(|&op| {
            let mut c = Command::new(op, seed % 2 == 0).unwrap();
            c.body.iter_mut().for_each(|b| *b = seed);
            if op != 6 { c.set_reference(&r).unwrap(); }
            c
        }).collect();
        let e = Effect { header, commands };
        let bytes = e.to_bytes();
        let back = Effect::parse(&bytes, ReadOptions::strict()).unwrap();
        prop_assert_eq!(back.to_bytes(), bytes);
    }
}
