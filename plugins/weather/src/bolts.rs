//! Lightning on screen and in the speakers (`docs/reference/runtime.md` §8.3): the strike timer runs on
//! game time with 15-bit numbers from the named stream [`LIGHTNING_STREAM`]; a strike
//! shows a bolt (the effect body descriptor `[40, 40, 600]`: a jagged ribbon pair
//! within a 40 × 40 footprint, 600 tall, centred at `sampled_z + 300`) and a point light
//! flash at the same place, both for the schedule's `flash_seconds`, and plays the
//! thunder there.

use crate::WeatherSystems;
use crate::lightning::LightningTimer;
use crate::mission::MissionWeather;
use crate::particles::quads;
use crate::schedule::Look;
use crate::sound::thunder_cue;
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, MissionStart, RandomStream, SoundCue};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lightning>()
        .register_type::<Lightning>()
        .register_type::<Flash>()
        .add_systems(OnEnter(AppState::InGame), open.after(crate::sky::open).in_set(MissionStart::Present))
        .add_systems(PostUpdate, (strike, fade).chain().in_set(WeatherSystems::Weather));
}

/// The named stream of the strike timer and positions.
pub const LIGHTNING_STREAM: &str = "weather.lightning";
/// The named stream of the bolts' shapes (apart, so shapes never shift the timer).
pub const BOLT_SHAPE_STREAM: &str = "weather.bolt_shape";
/// The bolt's effect body descriptor: footprint X, footprint Y, height (game units).
pub const BOLT_DESCRIPTOR: [f32; 3] = [40.0, 40.0, 600.0];
/// Zig-zag segments of a bolt.
const SEGMENTS: usize = 24;
/// Segments of its fork.
const FORK_SEGMENTS: usize = 6;

/// The strike timer and its random streams.
#[derive(Resource, Reflect, Debug, Clone)]
#[reflect(Resource)]
pub struct Lightning {
    /// When the next strike falls.
    pub timer: LightningTimer,
    /// 15-bit numbers for the timer and the strike positions.
    pub random: RandomStream,
    /// The bolts' zig-zags.
    pub shape: RandomStream,
    /// Strikes so far this mission.
    pub strikes: u32,
}

impl Lightning {
    /// A fresh timer with the streams of `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            timer: LightningTimer::default(),
            random: RandomStream::named(seed, LIGHTNING_STREAM),
            shape: RandomStream::named(seed, BOLT_SHAPE_STREAM),
            strikes: 0,
        }
    }
}

impl Default for Lightning {
    fn default() -> Self {
        Self::new(iron3d_core::DEFAULT_SEED)
    }
}

/// The top 15 bits of the stream's next number.
pub fn rand15(stream: &mut RandomStream) -> u16 {
    (stream.next_u64() >> 49) as u16
}

/// A bolt or flash light and how long it has shown.
#[derive(Component, Reflect, Debug, Clone, Copy)]
#[reflect(Component)]
pub struct Flash {
    /// Seconds shown.
    pub age: f32,
    /// Seconds it shows in all.
    pub seconds: f32,
    /// Peak light intensity (lumens; 0 for the bolt mesh).
    pub lumens: f32,
}

/// Starts the mission's strike timer.
pub(crate) fn open(mut commands: Commands, seed: Option<Res<iron3d_core::SimRandom>>) {
    commands.insert_resource(Lightning::new(seed.map_or(iron3d_core::DEFAULT_SEED, |r| r.seed)));
}

/// Advances the timer; a strike spawns its bolt and flash and plays the thunder.
pub(crate) fn strike(
    mut commands: Commands,
    weather: Res<MissionWeather>,
    mut lightning: ResMut<Lightning>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(schedule) = &weather.schedule else { return };
    let Lightning { timer, random, shape, strikes } = &mut *lightning;
    let dt_ms = f64::from(weather.step) * 1000.0;
    let Some(at) = timer.step(dt_ms, weather.intensity.lightning, &schedule.lightning_bounds, &mut || rand15(random))
    else {
        return;
    };
    *strikes += 1;
    if let Some(thunder) = thunder_cue(&schedule.sounds, at) {
        cues.write(thunder);
    }
    let look = &schedule.look;
    let [x, y, z] = at;
    let centre = Vec3::from(to_bevy([x, y, z + BOLT_DESCRIPTOR[2] * 0.5]));
    let [r, g, b, a] = look.bolt;
    let peak = r.max(g).max(b).max(1.0);
    let material = materials.add(StandardMaterial {
        base_color: Color::linear_rgba(r / peak, g / peak, b / peak, a),
        emissive: LinearRgba::rgb(r, g, b),
        unlit: true,
        alpha_mode: AlphaMode::Add,
        cull_mode: None,
        ..default()
    });
    let flash = Flash { age: 0.0, seconds: look.flash_seconds, lumens: 0.0 };
    commands.spawn((
        Name::new(format!("Lightning bolt {strikes}")),
        flash,
        Mesh3d(meshes.add(bolt_mesh(look, shape))),
        MeshMaterial3d(material),
        Transform::from_translation(centre),
        DespawnOnExit(AppState::InGame),
    ));
    commands.spawn((
        Name::new(format!("Lightning flash {strikes}")),
        Flash { lumens: look.flash_lumens, ..flash },
        PointLight {
            color: Color::linear_rgb(r / peak, g / peak, b / peak),
            intensity: look.flash_lumens,
            range: look.flash_range,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_translation(centre),
        DespawnOnExit(AppState::InGame),
    ));
}

/// A bolt: a zig-zag from the bottom (−300) to the top (+300) whose ends sit on the axis
/// (zero local offset, §8.3) and one fork, each drawn as two crossed ribbons; every
/// joint stays within the descriptor's footprint (Bevy space, Y up).
fn bolt_mesh(look: &Look, shape: &mut RandomStream) -> Mesh {
    let [fx, fy, height] = BOLT_DESCRIPTOR;
    let limit = Vec3::new(fx * 0.5, f32::INFINITY, fy * 0.5);
    let mut jitter = |scale: f32| {
        let mut u = || f32::from(rand15(shape)) / f32::from(crate::lightning::RAND_MAX) * 2.0 - 1.0;
        Vec3::new(u() * scale, 0.0, u() * scale)
    };
    // A random walk between the ends, pulled back to the axis towards the top.
    let mut main = vec![Vec3::new(0.0, -height * 0.5, 0.0)];
    for i in 1..SEGMENTS {
        let k = i as f32 / SEGMENTS as f32;
        let walk = (main[i - 1] + jitter(9.0)) * (1.0 - k * k * 0.5);
        main.push(Vec3::new(walk.x, (k - 0.5) * height, walk.z).clamp(-limit, limit));
    }
    main.push(Vec3::new(0.0, height * 0.5, 0.0));
    // The fork leaves a joint above the middle and runs a third of the way down.
    let from = main[SEGMENTS * 2 / 3];
    let out = jitter(1.0).normalize_or(Vec3::X);
    let fork: Vec<Vec3> = (0..=FORK_SEGMENTS)
        .map(|i| {
            let k = i as f32 / FORK_SEGMENTS as f32;
            let at = from + out * (k * fx * 0.5) + jitter(4.0) * k - Vec3::Y * (k * height / 3.0);
            at.clamp(-limit, limit)
        })
        .collect();
    let mut positions: Vec<[f32; 3]> = Vec::new();
    for (line, width) in [(&main, look.bolt_width), (&fork, look.bolt_width * 0.6)] {
        for side in [Vec3::X * width * 0.5, Vec3::Z * width * 0.5] {
            for pair in line.windows(2) {
                positions
                    .extend([pair[0] - side, pair[0] + side, pair[1] + side, pair[1] - side].map(|v| v.to_array()));
            }
        }
    }
    let normals = vec![[0.0, 0.0, 1.0]; positions.len()];
    quads(positions, normals)
}

/// Flashes fade (the light with the square of the time left) and vanish.
pub(crate) fn fade(
    mut commands: Commands,
    weather: Res<MissionWeather>,
    mut flashes: Query<(Entity, &mut Flash, Option<&mut PointLight>)>,
) {
    for (entity, mut flash, light) in &mut flashes {
        flash.age += weather.step;
        let left = 1.0 - flash.age / flash.seconds;
        if left <= 0.0 {
            commands.entity(entity).despawn();
        } else if let Some(mut light) = light {
            light.intensity = flash.lumens * left * left;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bolt_spans_the_descriptor_from_its_lower_to_its_upper_end() {
        let look = crate::tests::look();
        let mesh = bolt_mesh(&look, &mut RandomStream::named(3, BOLT_SHAPE_STREAM));
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION) else {
            panic!("positions")
        };
        let (lo, hi) = p.iter().fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v[1]), hi.max(v[1])));
        assert_eq!((lo, hi), (-300.0, 300.0), "600 tall about sampled_z + 300");
        let reach = 20.0 + look.bolt_width * 0.5;
        let bottom: Vec<_> = p.iter().filter(|v| v[1] == -300.0).collect();
        assert!(
            bottom.iter().all(|v| v[0].abs() <= look.bolt_width && v[2].abs() <= look.bolt_width),
            "ends on the axis"
        );
        assert!(p.iter().all(|v| v[0].abs() <= reach && v[2].abs() <= reach), "within the 40 × 40 footprint");
    }

    #[test]
    fn rand15_draws_fifteen_bits() {
        let mut s = RandomStream::named(9, LIGHTNING_STREAM);
        let draws: Vec<u16> = (0..2000).map(|_| rand15(&mut s)).collect();
        assert!(draws.iter().all(|&r| r <= 0x7FFF));
        assert!(draws.iter().any(|&r| r > 0x6000) && draws.iter().any(|&r| r < 0x1000));
    }
}
