//! The environment: a sun (casting no shadows), ambient light, sky clear colour, distance
//! fog and exposure on 3D cameras, which draw without multisampling. The defaults stand
//! until a mission's sky replaces its colours and light (`iron3d_weather`'s mission sky,
//! from the mission's `sky.wea` material).

use crate::MissionRenderSystems;
use bevy::camera::Exposure;
use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Environment>().register_type::<Environment>().add_systems(Startup, setup).add_systems(
        Update,
        (
            configure_cameras.in_set(MissionRenderSystems::Attach),
            apply.run_if(resource_changed::<Environment>).after(MissionRenderSystems::Attach),
        ),
    );
}

/// Default ambient brightness; lightmaps (baked ambient) are scaled to match it.
pub const AMBIENT_BRIGHTNESS: f32 = 600.0;

/// Environment settings applied at startup, to new cameras and whenever they change
/// (the weather darkens them under an overcast sky).
#[derive(Resource, Reflect, Debug, Clone)]
#[reflect(Resource)]
pub struct Environment {
    /// Sky (clear) colour, also the fog colour.
    pub sky: Color,
    /// Ambient light brightness.
    pub ambient: f32,
    /// Ambient light colour.
    pub ambient_colour: Color,
    /// Sun illuminance (lux).
    pub sun_illuminance: f32,
    /// Sun colour.
    pub sun_colour: Color,
    /// Fog start and end distances (game units).
    pub fog: (f32, f32),
    /// Camera exposure (EV100; higher is darker).
    pub exposure: f32,
}

impl Default for Environment {
    fn default() -> Self {
        Self {
            sky: Color::srgb(0.55, 0.68, 0.85),
            ambient: AMBIENT_BRIGHTNESS,
            ambient_colour: Color::srgb(0.85, 0.88, 1.0),
            sun_illuminance: 9_000.0,
            sun_colour: Color::WHITE,
            fog: (700.0, 2_600.0),
            exposure: Exposure::EV100_BLENDER,
        }
    }
}

/// Marks the sun light.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct Sun;

pub(crate) fn setup(mut commands: Commands, env: Res<Environment>) {
    commands.insert_resource(ClearColor(env.sky));
    // Lightmapped surfaces take their ambient term from the lightmap instead.
    commands.insert_resource(GlobalAmbientLight {
        color: env.ambient_colour,
        brightness: env.ambient,
        affects_lightmapped_meshes: false,
    });
    commands.spawn((
        Sun,
        Name::new("Sun"),
        DirectionalLight {
            illuminance: env.sun_illuminance,
            color: env.sun_colour,
            shadow_maps_enabled: false,
            ..default()
        },
        // Afternoon sun from the south-west, 40° above the horizon.
        Transform::from_rotation(Quat::from_euler(EulerRot::YXZ, -0.8, -0.7, 0.0)),
    ));
}

/// Gives new 3D cameras the environment's distance fog and exposure, and no multisampling.
pub(crate) fn configure_cameras(
    mut commands: Commands,
    cameras: Query<Entity, (Added<Camera3d>, Without<DistanceFog>)>,
    env: Res<Environment>,
) {
    for camera in &cameras {
        let (start, end) = env.fog;
        commands.entity(camera).insert((
            DistanceFog { color: env.sky, falloff: FogFalloff::Linear { start, end }, ..default() },
            Exposure { ev100: env.exposure },
            // Multisampling costs the software Vulkan driver about a third of a frame.
            Msaa::Off,
        ));
    }
}

/// Applies a changed [`Environment`] to the clear colour, the lights and the cameras' fog
/// and exposure.
pub(crate) fn apply(
    env: Res<Environment>,
    mut clear: ResMut<ClearColor>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut suns: Query<&mut DirectionalLight, With<Sun>>,
    mut fogs: Query<&mut DistanceFog>,
    mut exposures: Query<&mut Exposure, With<Camera3d>>,
) {
    for mut exposure in &mut exposures {
        exposure.ev100 = env.exposure;
    }
    clear.0 = env.sky;
    ambient.brightness = env.ambient;
    ambient.color = env.ambient_colour;
    for mut sun in &mut suns {
        sun.illuminance = env.sun_illuminance;
        sun.color = env.sun_colour;
    }
    let (start, end) = env.fog;
    for mut fog in &mut fogs {
        fog.color = env.sky;
        fog.falloff = FogFalloff::Linear { start, end };
    }
}
