//! `effects.rlb`: FXID effects (`docs/reference/models.md` §6) and the `.sun` entries of the
//! system prototypes.
//!
//! Every effect has an opcode-2 command (3D sound, reference into `sounds.lib`), most an
//! opcode-1 point-light flash (its reference is optional and left empty). The lightning
//! effect follows `docs/reference/runtime.md` §8.3: sound at `min_distance` 100, `max_distance`
//! 1500, `frequency_ratio` 1, plus a point-light flash. The shot and explosion effects
//! the combat rules name also draw: opcode-3 billboards and opcode-7 particles with the
//! `FX_*` materials of `Material.lib` (their field values follow the project's reading
//! of the opaque bodies, see `iron3d_render`'s effect plan).
//!
//! The `.sun` entries (`SUND`, `docs/reference/registry.md` §5.4) have an undocumented layout
//! (*opaque*): they are written with an **empty payload** rather than an invented one.
//! They exist so every reference of the system prototypes names a present entry.

use crate::catalogue::{PROTOTYPES, Role};
use crate::sounds;
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::model::fxid::{Command, Effect, FxHeader, ResourceRef, SoundCommand, TYPE_ID};
use iron3d_formats::nres::NresWriter;

/// NRes type id of sun definitions (`SUND`).
pub const SUND: u32 = u32::from_le_bytes(*b"SUND");
/// Attributes of FXID entries (`docs/reference/containers.md` §1.4: 0 / 0 / 1).
const FXID_ATTRS: [u32; 3] = [0, 0, 1];
/// The sound archive named by opcode-2 references.
pub const SOUND_ARCHIVE: &str = "sounds.lib";

/// The demo's cue table (`iron3d_rules::CUES_FILE`, the project's format): which of
/// these effects and of `sounds.lib`'s samples play for the game's events. The names are
/// the demo's, so the table is part of the demo data, never of the rules.
pub const CUES: &str = r#"// iron3d cue table: the project's own format (not an original file). Which FXID
// effect of effects.rlb and which samples play for an event; entries with a `class`
// (Unit DAT class word) or a `weapon` (of the combat rules) are tried first, an entry
// with neither is the event's fallback.
(
    version: 1,
    origin: Project,
    cues: [
        (event: Shot, weapon: Some("cannon"), effect: Some("fx_shot_02"), samples: ["WPN_CANNON1.WAV"]),
        (event: Shot, weapon: Some("heavy cannon"), effect: Some("fx_shot_02"), samples: ["WPN_CANNON1.WAV"]),
        (event: Shot, effect: Some("fx_shot_01"), samples: ["WPN_LASER1.WAV"]),
        (event: Explosion, effect: Some("fx_explode_01"), samples: ["EXPLODE1.WAV"]),
        (event: Engine, samples: ["ENG_HUM1.WAV"]),
        (event: Response, samples: ["UNIT_ACK1.WAV", "UNIT_ACK2.WAV"]),
        (event: Click, samples: ["UI_CLICK.WAV"]),
    ],
)
"#;

/// One demo effect: name, duration (s), sound, optional flash colour.
pub const EFFECTS: &[(&str, f32, &str, Option<[f32; 3]>)] = &[
    ("fx_lightning", 2.5, sounds::THUNDER, Some([0.8, 0.85, 1.0])),
    ("fx_rain_01", 2.0, sounds::RAIN_LOOP, None),
    ("fx_shot_01", 0.3, "WPN_LASER1.WAV", Some([1.0, 0.3, 0.2])),
    ("fx_shot_02", 0.8, "WPN_CANNON1.WAV", Some([1.0, 0.8, 0.4])),
    ("fx_explode_01", 3.0, "EXPLODE1.WAV", Some([1.0, 0.6, 0.2])),
    ("fx_engine_01", 1.0, "ENG_HUM1.WAV", None),
    // A construction sphere's, by the original's names: its sign, dome and ray.
    ("B_Sphere_Sign", 5.0, "ENG_HUM1.WAV", Some([0.3, 0.9, 1.0])),
    ("B_Sphere_Main", 5.0, "ENG_HUM1.WAV", Some([0.4, 0.6, 1.0])),
    ("B_Sphere_Start", 5.0, sounds::THUNDER, Some([0.7, 0.8, 1.0])),
    ("B_Sphere_Start_BT", 5.0, sounds::THUNDER, Some([0.7, 0.8, 1.0])),
];

/// The material archive named by the drawn commands.
pub const MATERIAL_ARCHIVE: &str = "material.lib";

/// A drawn command of a demo effect (sizes in game units, times in fractions of the
/// effect's duration).
#[derive(Debug, Clone, Copy)]
pub enum Visual {
    /// A billboard (opcode 3): material, `[width, height]` at the start and the end,
    /// active window, opacity at the start and the end, height offset.
    Billboard(&'static str, [[f32; 2]; 2], [f32; 2], [f32; 2], f32),
    /// Particles (opcode 7): material, count, velocity min and max, gravity, side at the
    /// start and the end, active window.
    Particles(&'static str, u32, [[f32; 3]; 2], f32, [f32; 2], [f32; 2]),
}

/// A construction sphere's ray: sparks rising from the site.
const RAY: &[Visual] =
    &[Visual::Particles("FX_SPARK", 40, [[-4.0, -4.0, 20.0], [4.0, 4.0, 60.0]], 0.0, [2.0, 0.5], [0.0, 1.0])];

/// The drawn commands of each effect that has some.
pub const VISUALS: &[(&str, &[Visual])] = &[
    ("B_Sphere_Sign", &[Visual::Billboard("FX_SPARK", [[8.0, 8.0], [14.0, 14.0]], [0.0, 1.0], [0.9, 0.0], 3.0)]),
    ("B_Sphere_Start", RAY),
    ("B_Sphere_Start_BT", RAY),
    ("fx_shot_01", &[Visual::Billboard("FX_SPARK", [[3.0, 3.0], [1.0, 1.0]], [0.0, 1.0], [1.0, 0.0], 0.0)]),
    (
        "fx_shot_02",
        &[
            Visual::Billboard("FX_FIRE", [[4.0, 4.0], [9.0, 9.0]], [0.0, 0.8], [1.0, 0.0], 0.0),
            Visual::Particles("FX_SPARK", 10, [[-8.0, -8.0, 3.0], [8.0, 8.0, 14.0]], 15.0, [1.2, 0.4], [0.0, 1.0]),
        ],
    ),
    (
        "fx_explode_01",
        &[
            Visual::Billboard("FX_FIRE", [[8.0, 8.0], [30.0, 30.0]], [0.0, 0.5], [1.0, 0.0], 2.0),
            Visual::Billboard("FX_SMOKE", [[10.0, 10.0], [36.0, 36.0]], [0.1, 1.0], [0.85, 0.0], 6.0),
            Visual::Particles("FX_SPARK", 32, [[-25.0, -25.0, 8.0], [25.0, 25.0, 35.0]], 20.0, [2.5, 0.6], [0.0, 0.6]),
        ],
    ),
];

/// Writes `value` at offset `at` from the command start (the body starts after the
/// 4-byte word).
fn put(c: &mut Command, at: usize, value: f32) {
    c.body[at - 4..at].copy_from_slice(&value.to_le_bytes());
}

fn put_vec3(c: &mut Command, at: usize, v: [f32; 3]) {
    v.iter().enumerate().for_each(|(i, f)| put(c, at + 4 * i, *f));
}

fn material_ref(name: &str) -> Result<ResourceRef> {
    ResourceRef::new(MATERIAL_ARCHIVE.as_bytes(), name.as_bytes())
}

/// The command of a drawn visual (offsets from the command start, `docs/reference/models.md` §6.7).
fn visual(v: &Visual) -> Result<Command> {
    match *v {
        Visual::Billboard(material, [from, to], [t0, t1], [a0, a1], lift) => {
            let mut c = Command::new(3, true)?;
            c.body[0..4].copy_from_slice(&1u32.to_le_bytes()); // +4 mode
            put(&mut c, 20, a1); // out_min
            put(&mut c, 24, a0); // out_max
            put(&mut c, 28, 1.0); // out_pow
            put(&mut c, 32, t0);
            put(&mut c, 36, t1);
            for at in [40, 52] {
                put_vec3(&mut c, at, [from[0], from[0], from[1]]); // v0_min, v0_max
            }
            put_vec3(&mut c, 64, [0.5, 1.0, 1.0]); // pow0: fast growth, then slower
            for at in [76, 88] {
                put_vec3(&mut c, at, [to[0], to[0], to[1]]); // v1_min, v1_max
            }
            for at in [100, 112] {
                put_vec3(&mut c, at, [0.0, 0.0, lift]); // v2_min, v2_max
            }
            put_vec3(&mut c, 124, [1.0; 3]); // pow1
            c.set_reference(&material_ref(material)?)?;
            Ok(c)
        }
        Visual::Particles(material, count, [min, max], gravity, [s0, s1], [t0, t1]) => {
            let mut c = Command::new(7, true)?;
            c.body[0..4].copy_from_slice(&1u32.to_le_bytes()); // +4 mode
            put(&mut c, 20, t0);
            put(&mut c, 24, t1);
            c.body[32..36].copy_from_slice(&count.to_le_bytes()); // +36 count_a
            put_vec3(&mut c, 44, min); // set 0: min, max, random, pow
            put_vec3(&mut c, 56, max);
            put_vec3(&mut c, 80, [1.0; 3]);
            put_vec3(&mut c, 92, [s0; 3]); // set 1: min, max, random, pow
            put_vec3(&mut c, 104, [s1; 3]);
            put_vec3(&mut c, 128, [1.0; 3]);
            put(&mut c, 140, gravity);
            c.set_reference(&material_ref(material)?)?;
            Ok(c)
        }
    }
}

fn header(duration: f32) -> FxHeader {
    FxHeader {
        command_count: 0,
        time_mode: 1,
        duration,
        phase_jitter: 0.0,
        flags: 0,
        settings_id: 0,
        random_shift: [0.0; 3],
        pivot: [0.0; 3],
        scale: [1.0; 3],
    }
}

/// A point-light flash (opcode 1): `+4 mode` 1, `+8/+12` active window, `+124` colour
/// (offsets from the command start, `docs/reference/models.md` §6.7; names inferred).
fn flash(duration: f32, colour: [f32; 3]) -> Result<Command> {
    let mut c = Command::new(1, true)?;
    // `at` counts from the command start; the body starts after the 4-byte word.
    let mut put = |at: usize, word: u32| c.body[at - 4..at].copy_from_slice(&word.to_le_bytes());
    put(4, 1);
    put(8, 0f32.to_bits());
    put(12, (duration * 0.2).to_bits());
    for (i, v) in colour.iter().enumerate() {
        put(124 + 4 * i, v.to_bits());
    }
    Ok(c)
}

/// A 3D sound (opcode 2) playing `sound` from `sounds.lib` over `[0, duration]`.
fn sound(duration: f32, sound: &str) -> Result<Command> {
    Command::new_sound(
        true,
        &SoundCommand {
            mode: 0,
            t_start: 0.0,
            t_end: duration,
            vectors: [[0.0; 3]; 4],
            scalars: [100.0, 1500.0, 1.0, 1.0],
            manager_arg: 0,
            reference: ResourceRef::new(SOUND_ARCHIVE.as_bytes(), sound.as_bytes())?,
        },
    )
}

/// The effect `name` of [`EFFECTS`].
pub fn effect(duration: f32, sound_name: &str, colour: Option<[f32; 3]>) -> Result<Effect> {
    let mut commands = vec![sound(duration, sound_name)?];
    if let Some(colour) = colour {
        commands.push(flash(duration, colour)?);
    }
    let mut header = header(duration);
    header.command_count = commands.len() as u32;
    Ok(Effect { header, commands })
}

/// Writes `effects.rlb`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let mut rlb = NresWriter::new();
    for (name, duration, sound_name, colour) in EFFECTS {
        let mut fx = effect(*duration, sound_name, *colour)?;
        for (_, visuals) in VISUALS.iter().filter(|(n, _)| n == name) {
            fx.commands.extend(visuals.iter().map(visual).collect::<Result<Vec<_>>>()?);
        }
        fx.header.command_count = fx.commands.len() as u32;
        rlb.add(TYPE_ID, FXID_ATTRS, name.as_bytes(), fx.to_bytes())?;
    }
    for proto in PROTOTYPES.iter().filter(|p| p.role == Role::System && p.archive == "effects.rlb") {
        rlb.add(SUND, [0; 3], format!("{}.sun", proto.stem).as_bytes(), Vec::new())?;
    }
    tree.add("effects.rlb", rlb.to_bytes()?)?;
    tree.add("iron3d.cues.ron", CUES.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::bytes::fixed_str;
    use iron3d_formats::nres::Nres;
    use iron3d_formats::sound::SoundLoad;

    #[test]
    fn effects_parse_strictly_and_their_sounds_decode() {
        let tree = build(DEFAULT_SEED).unwrap();
        let rlb = Nres::parse(tree.get("effects.rlb").unwrap(), ReadOptions::strict()).unwrap();
        let sounds = Nres::parse(tree.get("sounds.lib").unwrap(), ReadOptions::strict()).unwrap();
        let mut checked = 0;
        for (i, e) in rlb.entries().iter().enumerate().filter(|(_, e)| e.type_id == TYPE_ID) {
            assert_eq!([e.attr1, e.attr2, e.attr3], FXID_ATTRS);
            let bytes = rlb.payload(i).unwrap();
            let fx = Effect::parse(bytes, ReadOptions::strict()).unwrap();
            assert_eq!(fx.to_bytes(), bytes, "{}", e.display_name());
            assert!(fx.active_default());
            let s = fx.commands.iter().find_map(Command::sound).unwrap();
            assert_eq!(fixed_str(&s.reference.archive), SOUND_ARCHIVE.as_bytes());
            let name = String::from_utf8(fixed_str(&s.reference.name).to_vec()).unwrap();
            assert_eq!(SoundLoad::from_nres(&sounds, &name).name(), "decoded_sample", "{name}");
            assert!(s.t_end <= fx.header.duration && s.scalars[..3] == [100.0, 1500.0, 1.0]);
            checked += 1;
        }
        assert_eq!(checked, EFFECTS.len());
        let lightning = Effect::parse(rlb.get(b"fx_lightning").unwrap().1, ReadOptions::strict()).unwrap();
        let light = lightning.commands.iter().find(|c| c.opcode() == 1).unwrap();
        assert!(light.enabled() && light.reference().is_none(), "the optional light reference stays empty");
    }

    #[test]
    fn the_drawn_commands_name_materials_of_material_lib() {
        let tree = build(DEFAULT_SEED).unwrap();
        let rlb = Nres::parse(tree.get("effects.rlb").unwrap(), ReadOptions::strict()).unwrap();
        let materials = Nres::parse(tree.get("Material.lib").unwrap(), ReadOptions::strict()).unwrap();
        for (name, visuals) in VISUALS {
            let fx = Effect::parse(rlb.get(name.as_bytes()).unwrap().1, ReadOptions::strict()).unwrap();
            let drawn: Vec<_> = fx.commands.iter().filter(|c| matches!(c.opcode(), 3 | 7)).collect();
            assert_eq!(drawn.len(), visuals.len(), "{name}");
            for c in drawn {
                let r = c.reference().unwrap();
                assert_eq!(fixed_str(&r.archive), MATERIAL_ARCHIVE.as_bytes());
                assert!(materials.get(fixed_str(&r.name)).is_some(), "{name}: {}", r.display());
            }
        }
    }

    #[test]
    fn every_system_prototype_reference_is_present() {
        let tree = build(DEFAULT_SEED).unwrap();
        let rlb = Nres::parse(tree.get("effects.rlb").unwrap(), ReadOptions::strict()).unwrap();
        let systems: Vec<_> = PROTOTYPES.iter().filter(|p| p.role == Role::System).collect();
        assert_eq!(systems.len(), 3);
        for proto in systems {
            for r in crate::registry::refs(proto).unwrap() {
                assert_eq!(r.archive(), b"effects.rlb");
                let (entry, payload) = rlb.get(r.resource()).unwrap_or_else(|| panic!("{}", proto.key));
                assert_eq!(entry.type_id, SUND);
                assert!(payload.is_empty(), "SUND is opaque: nothing is invented");
            }
        }
    }
}
