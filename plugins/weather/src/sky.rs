//! The mission's sky: its colour, sun and ambient light come from the mission's data,
//! so missions differ. `sky.wea` names the mission's sky materials (`docs/reference/world.md` §5.1,
//! `docs/reference/registry.md` §5.8); the engine's "first active sky object" has a base RGB that picks
//! the day or night music (`docs/reference/runtime.md` §9). How that object is drawn and lit is not
//! recovered, so **the project reads** (labelled here, not the spec's):
//!
//! * the sky object's material is the **first row** of `sky.wea`, looked up in
//!   `Material.lib`; its phase-0 colours give the look;
//! * its **diffuse** RGB is the base colour: the sky's clear colour and fog, and the
//!   music's [`SkyBaseColour`];
//! * its **ambient** RGB is the ambient light: the colour (brightest channel scaled
//!   to one) and the brightness, [`AMBIENT_BRIGHTNESS`] times its length over
//!   [`REFERENCE_AMBIENT`]'s;
//! * its **specular** RGB colours the sun (brightest channel scaled to 1), whose
//!   illuminance is the default's times the base colour's length over
//!   [`REFERENCE_SKY`]'s (a dark sky is a dim sun);
//! * both scales are clamped to [`LIGHT_SCALE`]. The SUND sun definitions are opaque
//!   (`docs/reference/registry.md` §5.4: 12 keys, layout unknown), so nothing is read from them.
//!
//! Without a readable sky the default environment stays and the log says why.

use crate::WeatherSystems;
use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_audio::SkyBaseColour;
use iron3d_core::{AppState, MissionStart};
use iron3d_formats::bytes::display_name;
use iron3d_formats::model::mat0::{Material, PhaseColors};
use iron3d_formats::model::wear::Wear;
use iron3d_formats::world::mission_graph::{MATERIAL_ARCHIVE, SKY_TABLE};
use iron3d_mission::{LoadedMission, MISSIONS_DIR};
use iron3d_render::{AMBIENT_BRIGHTNESS, Environment};
use iron3d_vfs::GameDir;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MissionSky>()
        .init_resource::<SkyBaseColour>()
        .register_type::<MissionSky>()
        .add_systems(OnEnter(AppState::InGame), open.after(crate::mission::open).in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), close.after(crate::overcast::close))
        .add_systems(PostUpdate, publish.after(crate::overcast::update).in_set(WeatherSystems::Weather));
}

/// The sky colour the light scales refer to (sRGB components: the default environment's
/// clear sky).
pub const REFERENCE_SKY: [f32; 3] = [0.55, 0.68, 0.85];
/// The ambient RGB the ambient brightness refers to (half the reference sky).
pub const REFERENCE_AMBIENT: [f32; 3] = [0.275, 0.34, 0.425];
/// The range of both light scales.
pub const LIGHT_SCALE: (f32, f32) = (0.2, 1.5);

/// What the mission's sky looks like (sRGB components in `0..=1`).
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct SkyLook {
    /// The sky material's name.
    pub material: String,
    /// Base colour (diffuse).
    pub base: [f32; 3],
    /// Ambient colour.
    pub ambient: [f32; 3],
    /// Sun tint (specular).
    pub sun: [f32; 3],
}

/// The sky of the open mission.
#[derive(Resource, Reflect, Debug, Clone, Default)]
#[reflect(Resource)]
pub struct MissionSky {
    /// The look (`None`: the default environment).
    pub look: Option<SkyLook>,
    /// Where the look comes from, or why there is none (also logged).
    pub status: String,
    /// The environment before the mission's sky replaced it (restored on close).
    pub before: Option<Environment>,
}

fn length(c: [f32; 3]) -> f32 {
    Vec3::from(c).length()
}

/// `c` with its brightest channel at 1 (white when black).
fn tint(c: [f32; 3]) -> Color {
    let top = c.iter().copied().fold(0.0, f32::max);
    if top <= 0.0 { Color::WHITE } else { Color::srgb(c[0] / top, c[1] / top, c[2] / top) }
}

fn scale(value: f32, reference: [f32; 3]) -> f32 {
    (value / length(reference)).clamp(LIGHT_SCALE.0, LIGHT_SCALE.1)
}

impl SkyLook {
    /// The look of a sky material's phase-0 colours.
    pub fn of(material: String, colours: &PhaseColors) -> Self {
        let rgb = |c: [f32; 4]| [c[0], c[1], c[2]];
        Self { material, base: rgb(colours.diffuse), ambient: rgb(colours.ambient), sun: rgb(colours.specular) }
    }

    /// `default` with this sky's colour and light.
    pub fn environment(&self, default: &Environment) -> Environment {
        let [r, g, b] = self.base;
        Environment {
            sky: Color::srgb(r, g, b),
            ambient: AMBIENT_BRIGHTNESS * scale(length(self.ambient), REFERENCE_AMBIENT),
            ambient_colour: tint(self.ambient),
            sun_illuminance: Environment::default().sun_illuminance * scale(length(self.base), REFERENCE_SKY),
            sun_colour: tint(self.sun),
            ..default.clone()
        }
    }
}

/// Reads the sky of `mission` from `game`.
///
/// # Errors
/// A located description: no `sky.wea`, a bad table, an empty one, a material missing
/// from `Material.lib` or without phases.
pub fn read_sky(game: &GameDir, mission: &str) -> Result<SkyLook, String> {
    let path = format!("{MISSIONS_DIR}/{mission}/{SKY_TABLE}");
    if game.resolve(&path).is_none() {
        return Err(format!("{path} not found"));
    }
    let bytes = game.read_file(&path).map_err(|e| e.to_string())?;
    let wear = Wear::parse(&bytes, game.options()).map_err(|e| format!("{path}: {e}"))?;
    let (_, name) = wear.rows.first().and_then(|r| r.row()).ok_or(format!("{path}: no material row"))?;
    let name = display_name(name);
    let at = format!("{path} row 0: material {name} of {MATERIAL_ARCHIVE}");
    let lib = game.archive(MATERIAL_ARCHIVE).map_err(|e| format!("{at}: {e}"))?;
    let nres = lib.nres().ok_or(format!("{at}: {MATERIAL_ARCHIVE} is not an NRes archive"))?;
    let entry = nres.find(name.as_bytes()).and_then(|i| nres.entries().get(i)).ok_or(format!("{at}: not found"))?;
    let payload = game.read_entry(MATERIAL_ARCHIVE, &name).map_err(|e| format!("{at}: {e}"))?;
    let material = Material::parse(&payload, entry.attr1, entry.attr2).map_err(|e| format!("{at}: {e}"))?;
    let phase = material.phases.first().ok_or(format!("{at}: no phase"))?;
    Ok(SkyLook::of(name, &phase.colors()))
}

/// Gives the environment the mission's sky when the game starts.
pub(crate) fn open(
    mut commands: Commands,
    mission: Option<Res<LoadedMission>>,
    game: Option<Res<GameData>>,
    mut env: ResMut<Environment>,
) {
    let look = match (mission, game) {
        (Some(mission), Some(game)) => read_sky(&game.0, &mission.name),
        _ => Err("no mission or game directory".into()),
    };
    let sky = match look {
        Ok(look) => {
            let before = Some(env.clone());
            *env = look.environment(&env);
            let status = format!("sky from material {} (base colour {:?})", look.material, look.base);
            info!(target: "weather", "{status}");
            MissionSky { look: Some(look), status, before }
        }
        Err(e) => {
            let status = format!("default sky: {e}");
            warn!(target: "weather", "{status}");
            MissionSky { status, ..default() }
        }
    };
    commands.insert_resource(sky);
}

/// Publishes the sky object's base colour for the music (`None`, no sky: day).
pub(crate) fn publish(sky: Res<MissionSky>, mut base: ResMut<SkyBaseColour>) {
    base.set_if_neq(SkyBaseColour(sky.look.as_ref().map(|l| l.base)));
}

/// Restores the environment when the mission closes.
pub(crate) fn close(mut sky: ResMut<MissionSky>, mut env: ResMut<Environment>) {
    if let Some(before) = sky.before.take() {
        *env = before;
    }
    *sky = MissionSky::default();
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use iron3d_formats::ReadOptions;
    use std::path::Path;

    fn demo() -> GameDir {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
        GameDir::open(root, ReadOptions::compatible()).unwrap()
    }

    #[test]
    fn each_mission_lights_its_world_by_its_sky_material() {
        let game = demo();
        let day = read_sky(&game, "tutorial.01").unwrap();
        let dusk = read_sky(&game, "single.01").unwrap();
        assert_eq!((day.material.as_str(), dusk.material.as_str()), ("SKY_DAY", "SKY_DUSK"));
        let default = Environment::default();
        let (lit, dim) = (day.environment(&default), dusk.environment(&default));
        let rgb = |c: Color| {
            let c = c.to_srgba();
            [c.red, c.green, c.blue]
        };
        let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        assert!(close(rgb(lit.sky), day.base) && close(rgb(dim.sky), dusk.base), "the base colour is the sky");
        assert!(dim.sun_illuminance < lit.sun_illuminance && dim.ambient < lit.ambient, "dusk is darker");
        assert!((lit.ambient - AMBIENT_BRIGHTNESS).abs() / AMBIENT_BRIGHTNESS < 0.01, "{}", lit.ambient);
        assert_eq!((lit.fog, lit.exposure), (default.fog, default.exposure), "the rest stays");
        assert!(length(day.base) > 1.1 && length(dusk.base) <= 1.1, "a day and a night sky for the music");
    }

    #[test]
    fn a_mission_without_a_readable_sky_says_why() {
        let root = std::env::temp_dir().join(format!("iron3d-sky-{}", std::process::id()));
        let dir = root.join("MISSIONS/m.01");
        std::fs::create_dir_all(&dir).unwrap();
        let demo_lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo/Material.lib");
        std::fs::copy(demo_lib, root.join("Material.lib")).unwrap();
        let open = || GameDir::open(&root, ReadOptions::compatible()).unwrap();
        let e = read_sky(&open(), "m.01").unwrap_err();
        assert_eq!(e, "MISSIONS/m.01/sky.wea not found");
        std::fs::write(dir.join("sky.wea"), b"1\r\n0 NO_SUCH\r\n").unwrap();
        let e = read_sky(&open(), "m.01").unwrap_err();
        assert!(e.starts_with("MISSIONS/m.01/sky.wea row 0: material NO_SUCH of Material.lib"), "{e}");
        std::fs::write(dir.join("sky.wea"), b"x\r\n").unwrap();
        assert!(read_sky(&open(), "m.01").unwrap_err().contains("wear_count"));
        std::fs::write(dir.join("sky.wea"), b"1\r\n0 SKY_DUSK\r\n").unwrap();
        assert_eq!(read_sky(&open(), "m.01").unwrap().material, "SKY_DUSK");
        let _ = std::fs::remove_dir_all(root);
    }
}
