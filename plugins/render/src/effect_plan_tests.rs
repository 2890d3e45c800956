//! The plan of hand-built effects: which records play, when, and how bad data is
//! reported.

use super::*;
use iron3d_formats::model::fxid::{FxHeader, ResourceRef, SoundCommand};

/// A header of `duration` seconds (the demo's: time mode 1, no flags, unit scale).
fn header(duration: f32) -> FxHeader {
    iron3d_demo::effects::effect(duration, "X.WAV", None).unwrap().header
}

fn put(c: &mut Command, at: usize, value: f32) {
    c.body[at - 4..at].copy_from_slice(&value.to_le_bytes());
}

fn put_vec3(c: &mut Command, at: usize, v: [f32; 3]) {
    v.iter().enumerate().for_each(|(i, f)| put(c, at + 4 * i, *f));
}

fn light(t: [f32; 2], range: f32) -> Command {
    let mut c = Command::new(1, true).unwrap();
    put(&mut c, 8, t[0]);
    put(&mut c, 12, t[1]);
    put_vec3(&mut c, 16, [0.0, 0.0, 1.0]);
    put_vec3(&mut c, 28, [0.0, 0.0, 3.0]);
    put(&mut c, 116, range);
    put_vec3(&mut c, 124, [1.0, 0.5, 0.25]);
    c
}

fn billboard(t: [f32; 2]) -> Command {
    let mut c = Command::new(3, true).unwrap();
    put(&mut c, 20, 0.1); // out_min
    put(&mut c, 24, 0.9); // out_max
    put(&mut c, 28, 2.0); // out_pow
    put(&mut c, 32, t[0]);
    put(&mut c, 36, t[1]);
    put_vec3(&mut c, 40, [2.0, 0.0, 4.0]);
    put_vec3(&mut c, 52, [4.0, 0.0, 6.0]);
    put_vec3(&mut c, 64, [0.5, 1.0, 1.0]);
    put_vec3(&mut c, 76, [10.0, 0.0, 0.0]);
    put_vec3(&mut c, 88, [10.0, 0.0, 0.0]);
    put_vec3(&mut c, 100, [0.0, 0.0, 2.0]);
    put_vec3(&mut c, 112, [0.0, 0.0, 2.0]);
    c.set_reference(&ResourceRef::new(b"material.lib", b"FX_FIRE").unwrap()).unwrap();
    c
}

fn particles(count: u32) -> Command {
    let mut c = Command::new(7, true).unwrap();
    put(&mut c, 20, 0.25);
    put(&mut c, 24, 0.75);
    c.body[32..36].copy_from_slice(&count.to_le_bytes());
    put_vec3(&mut c, 44, [-1.0, -2.0, 3.0]);
    put_vec3(&mut c, 56, [1.0, 2.0, 5.0]);
    put_vec3(&mut c, 68, [0.0, 0.0, 1.5]);
    put_vec3(&mut c, 92, [0.8; 3]);
    put_vec3(&mut c, 104, [0.2; 3]);
    put(&mut c, 140, 9.5);
    c.set_reference(&ResourceRef::new(b"material.lib", b"FX_SPARK").unwrap()).unwrap();
    c
}

fn sound(t_start: f32) -> Command {
    let s = SoundCommand {
        mode: 0,
        t_start,
        t_end: 1.0,
        vectors: [[0.0; 3]; 4],
        scalars: [100.0, 1500.0, 1.0, 1.0],
        manager_arg: 0,
        reference: ResourceRef::new(b"sounds.lib", b"BOOM.WAV").unwrap(),
    };
    Command::new_sound(true, &s).unwrap()
}

fn effect(duration: f32, commands: Vec<Command>) -> Effect {
    Effect { header: FxHeader { command_count: commands.len() as u32, ..header(duration) }, commands }
}

#[test]
fn records_become_lights_billboards_particles_and_sounds_on_their_windows() {
    let mut off = light([0.0, 1.0], 5.0);
    off.word &= !0x100;
    let fx = effect(
        2.0,
        vec![
            light([0.5, 1.5], 0.0),
            billboard([0.25, 0.5]),
            particles(500),
            sound(0.75),
            sound(9.0),
            off,
            Command::new(5, true).unwrap(),
            Command::new(6, true).unwrap(),
            Command::new(8, true).unwrap(),
        ],
    );
    let p = plan(&fx).unwrap();
    assert_eq!(p.duration, 2.0);
    let commands: Vec<usize> = p.records.iter().map(|r| r.command).collect();
    assert_eq!(commands, [0, 1, 2, 3, 4], "the disabled light, the trail, the no-op and the rings play nothing");
    assert_eq!(p.records[0].window, [0.5, 1.5], "light windows are seconds");
    assert_eq!(
        p.records[0].kind,
        RecordKind::Light { colour: [1.0, 0.5, 0.25], range: DEFAULT_LIGHT_RANGE, offset: [0.0, 0.0, 2.0] }
    );
    assert_eq!(p.records[1].window, [0.5, 1.0], "billboard windows are fractions of the duration");
    let RecordKind::Billboard { material, size, grow_pow, offset, alpha, alpha_pow } = &p.records[1].kind else {
        panic!("{:?}", p.records[1]);
    };
    assert_eq!((material.archive.as_str(), material.name.as_str()), ("material.lib", "FX_FIRE"));
    assert_eq!(*size, [[3.0, 5.0], [10.0, 10.0]], "width from X, height from Z (or X when Z is 0)");
    assert_eq!((*grow_pow, *offset, *alpha, *alpha_pow), (0.5, [0.0, 0.0, 2.0], [0.9, 0.1], 2.0));
    let RecordKind::Particles { material, count, offset, velocity, gravity, size } = &p.records[2].kind else {
        panic!("{:?}", p.records[2]);
    };
    assert_eq!(material.name, "FX_SPARK");
    assert_eq!(*count, MAX_PARTICLES, "500 particles are bounded");
    assert_eq!(
        (*offset, *velocity, *gravity, *size),
        ([0.0, 0.0, 1.5], [[-1.0, -2.0, 3.0], [1.0, 2.0, 5.0]], 9.5, [0.8, 0.2])
    );
    assert_eq!(p.records[2].window, [0.5, 1.5]);
    assert_eq!(p.records[3].window[0], 0.75, "a sound starts at t_start seconds");
    assert_eq!(p.records[4].window[0], 2.0, "a late sound still plays, at the end");
    assert!(p.has_sound());
}

#[test]
fn pivot_and_scale_place_offsets() {
    let mut fx = effect(1.0, vec![]);
    fx.header.pivot = [1.0, 0.0, 2.0];
    fx.header.scale = [2.0, 3.0, 0.5];
    let p = plan(&fx).unwrap();
    assert_eq!(p.place([1.0, 1.0, 4.0]), [0.0, 3.0, 1.0]);
    assert!(!p.has_sound());
}

#[test]
fn bad_effects_are_errors_naming_what_is_wrong() {
    assert_eq!(plan(&effect(0.0, vec![])), Err(PlanError::Duration(0.0)));
    assert!(matches!(plan(&effect(f32::NAN, vec![])), Err(PlanError::Duration(_))));
    let mut fx = effect(1.0, vec![]);
    fx.header.scale[1] = f32::INFINITY;
    assert_eq!(plan(&fx), Err(PlanError::Header("scale")));
    let mut bad = billboard([0.0, 1.0]);
    put(&mut bad, 24, f32::NAN);
    let e = plan(&effect(1.0, vec![sound(0.0), bad])).unwrap_err();
    assert_eq!(e, PlanError::Field { command: 1, opcode: 3, field: "out_max" });
    assert_eq!(e.to_string(), "command 1 (opcode 3): field out_max is missing or not finite");
    let mut unnamed = particles(3);
    unnamed.set_reference(&ResourceRef { archive: [0; 32], name: [0; 32] }).unwrap();
    assert_eq!(plan(&effect(1.0, vec![unnamed])), Err(PlanError::Field { command: 0, opcode: 7, field: "reference" }));
}

#[test]
fn progress_and_easing() {
    assert_eq!(progress([0.5, 1.5], 0.4), None);
    assert_eq!(progress([0.5, 1.5], 1.0), Some(0.5));
    assert_eq!(progress([0.5, 1.5], 1.6), None);
    assert_eq!(progress([1.0, 1.0], 1.0), Some(1.0));
    assert_eq!(ease(2.0, 4.0, 0.25, 0.5), 3.0);
    assert_eq!(ease(1.0, 0.0, 0.5, 1.0), 0.5);
}
