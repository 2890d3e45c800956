//! Combat on screen: shells in flight are small glowing spheres at their simulated
//! position, a destroyed object leaves a fireball that grows and fades, and a beam is
//! a short-lived line from the shooter to its target (the effects the combat rules
//! name are FXID resources; until FXID playback exists these stand in for them).
//! Ages run on virtual time, so a paused game holds its effects.

use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, GameMessage, GameMessageKind, ObjectTable, Projectile, SimTransform, Weapon};

/// How long a fireball lasts (seconds).
const FIREBALL_SECONDS: f32 = 1.5;
/// A fireball's final radius (game units).
const FIREBALL_RADIUS: f32 = 12.0;
/// How long a beam shows (seconds).
const BEAM_SECONDS: f32 = 0.15;

/// The shared meshes and materials of combat effects.
#[derive(Resource)]
pub(crate) struct CombatLook {
    sphere: Handle<Mesh>,
    cube: Handle<Mesh>,
    shell: Handle<StandardMaterial>,
}

/// A fireball and its age.
#[derive(Component, Debug, Default)]
pub(crate) struct Fireball(f32);

/// A beam and its age.
#[derive(Component, Debug, Default)]
pub(crate) struct Beam(f32);

pub(crate) fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let shell = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.8, 0.4),
        emissive: LinearRgba::rgb(8.0, 5.0, 1.5),
        unlit: true,
        ..default()
    });
    let sphere = meshes.add(Sphere::new(1.0).mesh().uv(12, 8));
    commands.insert_resource(CombatLook { sphere, cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)), shell });
}

/// Shells get their look, and follow their simulated position.
pub(crate) fn shells(
    mut commands: Commands,
    look: Res<CombatLook>,
    mut shells: Query<(Entity, &Projectile, Option<&mut Transform>)>,
) {
    for (entity, p, transform) in &mut shells {
        let at =
            Transform::from_translation(Vec3::from(to_bevy(p.position)) + Vec3::Y * 2.0).with_scale(Vec3::splat(0.6));
        match transform {
            Some(mut t) => *t = at,
            None => {
                commands.entity(entity).insert((Mesh3d(look.sphere.clone()), MeshMaterial3d(look.shell.clone()), at));
            }
        }
    }
}

/// Fireballs where objects were destroyed, beams where beam weapons fired.
pub(crate) fn spawn_effects(
    mut commands: Commands,
    mut messages: MessageReader<GameMessage>,
    look: Res<CombatLook>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    table: Res<ObjectTable>,
    objects: Query<(&SimTransform, Option<&Weapon>)>,
) {
    for m in messages.read() {
        match &m.kind {
            GameMessageKind::Destroyed { position, .. } => {
                let material = materials.add(StandardMaterial {
                    base_color: Color::srgba(1.0, 0.55, 0.15, 0.9),
                    emissive: LinearRgba::rgb(10.0, 4.0, 0.8),
                    alpha_mode: AlphaMode::Blend,
                    unlit: true,
                    ..default()
                });
                commands.spawn((
                    Fireball::default(),
                    Mesh3d(look.sphere.clone()),
                    MeshMaterial3d(material),
                    Transform::from_translation(Vec3::from(to_bevy(*position))).with_scale(Vec3::splat(1.0)),
                    DespawnOnExit(AppState::InGame),
                ));
            }
            GameMessageKind::Fired { shooter, target, .. } => {
                let at = |id: u32| table.entity_of(id).and_then(|e| objects.get(e).ok());
                if let (Some((from, Some(w))), Some((to, _))) = (at(shooter.id.0), at(target.id.0))
                    && w.projectile_speed == 0.0
                {
                    let lift = Vec3::Y * 2.0;
                    let (a, b) = (Vec3::from(to_bevy(from.position)) + lift, Vec3::from(to_bevy(to.position)) + lift);
                    let beam = Transform::from_translation((a + b) / 2.0).looking_at(b, Vec3::Y).with_scale(Vec3::new(
                        0.4,
                        0.4,
                        a.distance(b),
                    ));
                    commands.spawn((
                        Beam::default(),
                        Mesh3d(look.cube.clone()),
                        MeshMaterial3d(look.shell.clone()),
                        beam,
                        DespawnOnExit(AppState::InGame),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Fireballs grow and fade; beams vanish after a moment.
pub(crate) fn age_effects(
    mut commands: Commands,
    time: Res<Time<Virtual>>,
    mut fireballs: Query<(Entity, &mut Fireball, &mut Transform, &MeshMaterial3d<StandardMaterial>)>,
    mut beams: Query<(Entity, &mut Beam)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let dt = time.delta_secs();
    for (entity, mut f, mut t, material) in &mut fireballs {
        f.0 += dt;
        let k = (f.0 / FIREBALL_SECONDS).min(1.0);
        t.scale = Vec3::splat(1.0 + (FIREBALL_RADIUS - 1.0) * k);
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.base_color.set_alpha(0.9 * (1.0 - k));
        }
        if k >= 1.0 {
            commands.entity(entity).despawn();
        }
    }
    for (entity, mut b) in &mut beams {
        b.0 += dt;
        if b.0 >= BEAM_SECONDS {
            commands.entity(entity).despawn();
        }
    }
}
