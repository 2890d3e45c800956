//! Rain and snow particles (`docs/reference/runtime.md` §8.1): each frame the count of the environment
//! frame's volume for the current intensity, new particles spawned at random
//! volume-local points, all moving in the world at the fixed game-space velocities, a
//! particle past a face wrapped to the opposite one. Drawn as one CPU-built mesh per
//! kind (no compute shaders, so the software Vulkan driver renders it too): a rain
//! drop is a streak from its previous to its current position, a snow flake a square,
//! both facing the camera and as wide as the particle size in pixels. The project
//! bounds the streak: at most the schedule's `streak_max` long (slow frames would draw
//! rods) and at least as long as it is wide (a paused frame still shows its drops).

use crate::WeatherSystems;
use crate::frame::EnvironmentFrame;
use crate::mission::MissionWeather;
use crate::schedule::Look;
use crate::volume::{FAR, NEAR, PrecipitationVolume, RAIN_VELOCITY, SNOW_VELOCITY, VolumePose};
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::NoFrustumCulling;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, MissionStart, RandomStream};
use iron3d_render::FastShaded;

pub(super) fn plugin(app: &mut App) {
    app.register_type::<Precipitation>()
        .add_systems(OnEnter(AppState::InGame), spawn.after(crate::bolts::open).in_set(MissionStart::Present))
        .add_systems(PostUpdate, simulate.in_set(WeatherSystems::Weather));
}

/// The seed stream new particles are placed from.
pub const PARTICLE_STREAM: &str = "weather.particles";

/// Rain or snow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub enum Kind {
    /// Streaks.
    Rain,
    /// Squares.
    Snow,
}

/// One particle (Bevy space).
#[derive(Debug, Clone, Copy, PartialEq, Default, Reflect)]
pub struct Particle {
    /// Position at the previous frame.
    pub previous: Vec3,
    /// Position now.
    pub position: Vec3,
}

/// The particles of one kind and their mesh.
#[derive(Component, Reflect, Debug, Clone)]
#[reflect(Component)]
pub struct Precipitation {
    /// Rain or snow.
    pub kind: Kind,
    /// The live particles.
    pub particles: Vec<Particle>,
    /// Where new particles come from.
    pub random: RandomStream,
}

impl Precipitation {
    /// The world velocity of this kind (Bevy space).
    pub fn velocity(&self) -> Vec3 {
        Vec3::from(to_bevy(match self.kind {
            Kind::Rain => RAIN_VELOCITY,
            Kind::Snow => SNOW_VELOCITY,
        }))
    }

    /// Keeps `count` particles (new ones at random volume-local points), moves them by
    /// `dt` seconds and wraps them into the volume at `pose`.
    pub fn step(&mut self, count: usize, dt: f32, volume: &PrecipitationVolume, pose: &VolumePose) {
        self.particles.truncate(count);
        while self.particles.len() < count {
            let mut unit = || (self.random.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            let local = Vec3::new(
                (2.0 * unit() - 1.0) * volume.half_x,
                (2.0 * unit() - 1.0) * volume.half_y,
                NEAR + unit() * (FAR - NEAR),
            );
            let at = pose.to_world(local);
            self.particles.push(Particle { previous: at, position: at });
        }
        let motion = self.velocity() * dt;
        for p in &mut self.particles {
            if dt > 0.0 {
                p.previous = p.position;
                p.position += motion;
            }
            let local = pose.to_local(p.position);
            let wrapped = volume.wrap(local);
            if wrapped != local {
                let shift = pose.to_world(wrapped) - p.position;
                p.position += shift;
                p.previous += shift;
            }
        }
    }
}

/// Spawns the rain and snow meshes of a mission with weather.
pub(crate) fn spawn(
    mut commands: Commands,
    weather: Res<MissionWeather>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    seed: Option<Res<iron3d_core::SimRandom>>,
) {
    let Some(schedule) = &weather.schedule else { return };
    let seed = seed.map_or(iron3d_core::DEFAULT_SEED, |r| r.seed);
    for (kind, colour, name) in [(Kind::Rain, schedule.look.rain, "Rain"), (Kind::Snow, schedule.look.snow, "Snow")] {
        let [r, g, b, a] = colour;
        let material = materials.add(StandardMaterial {
            base_color: Color::linear_rgba(r, g, b, a),
            base_color_texture: Some(images.add(sprite(kind))),
            unlit: true,
            alpha_mode: AlphaMode::Blend,
            cull_mode: None,
            ..default()
        });
        let random = RandomStream::named(seed, &format!("{PARTICLE_STREAM}.{name}"));
        commands.spawn((
            Name::new(name),
            Precipitation { kind, particles: Vec::new(), random },
            FastShaded { full: material.clone() },
            Mesh3d(meshes.add(quads(vec![[0.0; 3]; 4], vec![[0.0, 0.0, 1.0]; 4]))),
            MeshMaterial3d(material),
            Transform::IDENTITY,
            Visibility::Hidden,
            NoFrustumCulling,
            DespawnOnExit(AppState::InGame),
        ));
    }
}

/// Sprite side in texels.
const SPRITE: u32 = 32;

/// The white alpha sprite of a kind: a soft round flake for snow; for rain a streak
/// fading from the head (`v = 1`) to the tail (`v = 0`) with soft sides.
fn sprite(kind: Kind) -> Image {
    let centre = |i: u32| (i as f32 + 0.5) / SPRITE as f32 * 2.0 - 1.0;
    let data = (0..SPRITE * SPRITE)
        .flat_map(|i| {
            let (u, v) = (centre(i % SPRITE), centre(i / SPRITE));
            let alpha = match kind {
                Kind::Snow => (1.0 - (u * u + v * v).sqrt()).clamp(0.0, 1.0).powf(0.7),
                Kind::Rain => (1.0 - u.abs()).clamp(0.0, 1.0) * (v + 1.0) * 0.5,
            };
            [255, 255, 255, (alpha * 255.0) as u8]
        })
        .collect();
    let size = Extent3d { width: SPRITE, height: SPRITE, depth_or_array_layers: 1 };
    Image::new(size, TextureDimension::D2, data, TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::default())
}

/// A mesh of quads (four corners each, texture corners `(0,0) (1,0) (1,1) (0,1)`; a mesh
/// is never empty, the renderer allocates no storage for one).
pub(crate) fn quads(positions: Vec<[f32; 3]>, normals: Vec<[f32; 3]>) -> Mesh {
    let count = positions.len() as u32 / 4;
    let indices = (0..count).flat_map(|q| [0, 1, 2, 0, 2, 3].map(|i| 4 * q + i)).collect();
    let uvs: Vec<[f32; 2]> = (0..count).flat_map(|_| [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]).collect();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

/// Moves the particles and rebuilds their meshes.
pub(crate) fn simulate(
    frame: Res<EnvironmentFrame>,
    weather: Res<MissionWeather>,
    mut sets: Query<(&mut Precipitation, &Mesh3d, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let Some(schedule) = &weather.schedule else { return };
    let pose = frame.pose();
    for (mut set, mesh, mut visibility) in &mut sets {
        let (intensity, size) = match set.kind {
            Kind::Rain => (weather.intensity.rain, frame.volume.rain_size()),
            Kind::Snow => (weather.intensity.snow, frame.volume.snow_size()),
        };
        let count = if frame.active { frame.volume.count(intensity) } else { 0 };
        set.step(count, weather.step, &frame.volume, &pose);
        let shown = if set.particles.is_empty() { Visibility::Hidden } else { Visibility::Inherited };
        visibility.set_if_neq(shown);
        if set.particles.is_empty() {
            continue;
        }
        if let Some(mut target) = meshes.get_mut(&mesh.0) {
            *target = build_mesh(&set, &frame, size, &schedule.look);
        }
    }
}

/// One quad per particle (at least one particle), facing the camera, `size` pixels wide.
fn build_mesh(set: &Precipitation, frame: &EnvironmentFrame, size: f32, look: &Look) -> Mesh {
    let pose = frame.pose();
    let (right, up) = (frame.rotation * Vec3::X, frame.rotation * Vec3::Y);
    let mut positions = Vec::with_capacity(set.particles.len() * 4);
    let mut normals = Vec::with_capacity(set.particles.len() * 4);
    let fall = set.velocity().normalize_or(Vec3::NEG_Y);
    for p in &set.particles {
        let half = 0.5 * size * frame.pixel_at(pose.to_local(p.position).z);
        let to_camera = (frame.origin - p.position).normalize_or(Vec3::Z);
        let corners = match set.kind {
            Kind::Rain => {
                let trail = p.position - p.previous;
                let length = trail.length().clamp(2.0 * half, look.streak_max);
                let dir = trail.try_normalize().unwrap_or(fall);
                let tail = p.position - dir * length;
                let side = dir.cross(to_camera).normalize_or(right) * half;
                [tail - side, tail + side, p.position + side, p.position - side]
            }
            Kind::Snow => {
                let (r, u) = (right * half, up * half);
                [p.position - r - u, p.position + r - u, p.position + r + u, p.position - r + u]
            }
        };
        positions.extend(corners.map(|c| c.to_array()));
        normals.extend([to_camera.to_array(); 4]);
    }
    quads(positions, normals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rain(seed: u64) -> Precipitation {
        Precipitation { kind: Kind::Rain, particles: Vec::new(), random: RandomStream::named(seed, PARTICLE_STREAM) }
    }

    #[test]
    fn particles_spawn_inside_fall_in_world_space_and_wrap() {
        let volume = PrecipitationVolume { half_x: 20.0, half_y: 10.0, scalar: 600.0 };
        // A camera looking straight down the game X axis, tilted: the fall is not along
        // the volume's own axes.
        let pose = VolumePose { origin: Vec3::new(0.0, 100.0, 0.0), rotation: Quat::from_rotation_x(-0.5) };
        let mut set = rain(7);
        set.step(300, 0.0, &volume, &pose);
        assert_eq!(set.particles.len(), 300);
        let inside = |p: Vec3| {
            let l = pose.to_local(p);
            l.x.abs() <= 20.0 + 1e-3 && l.y.abs() <= 10.0 + 1e-3 && (NEAR - 1e-3..=FAR + 1e-3).contains(&l.z)
        };
        assert!(set.particles.iter().all(|p| inside(p.position)));
        let before = set.particles.clone();
        set.step(300, 0.01, &volume, &pose);
        // 0.01 s: rain moves [0.5, 0, −60]·0.01 in game space = (0.005, −0.6, 0) in Bevy space.
        let motion = Vec3::new(0.005, -0.6, 0.0);
        let moved =
            before.iter().zip(&set.particles).filter(|(a, b)| (b.position - a.position - motion).length() < 1e-4);
        assert!(moved.count() > 250, "most particles just fall");
        for (a, b) in before.iter().zip(&set.particles) {
            let shift = b.previous - a.position;
            assert!((b.position - a.position - motion - shift).length() < 1e-3, "a wrap moves the streak whole");
            assert!(inside(b.position));
        }
        assert!(before.iter().zip(&set.particles).any(|(a, b)| b.previous != a.position), "some wrapped");
        set.step(120, 0.5, &volume, &pose);
        assert_eq!(set.particles.len(), 120, "fewer particles when the count drops");
        assert!(set.particles.iter().all(|p| inside(p.position)), "a long step still wraps into the volume");
    }

    #[test]
    fn flakes_are_round_and_streaks_fade_to_their_tail() {
        let alpha = |image: &Image, x: u32, y: u32| image.data.as_ref().unwrap()[((y * SPRITE + x) * 4 + 3) as usize];
        let snow = sprite(Kind::Snow);
        assert!(alpha(&snow, SPRITE / 2, SPRITE / 2) > 200 && alpha(&snow, 0, 0) == 0);
        let rain = sprite(Kind::Rain);
        let (head, tail) = (alpha(&rain, SPRITE / 2, SPRITE - 1), alpha(&rain, SPRITE / 2, 0));
        assert!(head > 200 && tail < 10, "head {head}, tail {tail}");
        assert!(alpha(&rain, 0, SPRITE - 1) < alpha(&rain, SPRITE / 2, SPRITE - 1), "soft sides");
    }

    #[test]
    fn the_rain_streak_is_capped_and_faces_the_camera() {
        let frame = EnvironmentFrame {
            active: true,
            volume: PrecipitationVolume::for_camera(1.0, 1.5, 900.0),
            origin: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            vfov: 1.0,
            viewport: UVec2::new(900, 600),
        };
        let look = crate::tests::look();
        let mut set = rain(1);
        set.particles.push(Particle { previous: Vec3::new(0.0, 50.0, -20.0), position: Vec3::new(0.0, 0.0, -20.0) });
        let mesh = build_mesh(&set, &frame, 4.0, &look);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION) else {
            panic!("positions")
        };
        let top = p.iter().map(|v| v[1]).fold(f32::MIN, f32::max);
        assert!((top - look.streak_max).abs() < 1e-4, "capped at streak_max: {top}");
        let width = (p[1][0] - p[0][0]).abs();
        assert!((width - 4.0 * frame.pixel_at(20.0)).abs() < 1e-5, "4 pixels wide at depth 20: {width}");
        assert!(p.iter().all(|v| v[2] == -20.0), "the quad faces the camera");
    }
}
