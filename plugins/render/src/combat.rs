//! Combat on screen: shells in flight are small glowing spheres at their simulated
//! position and a beam is a short-lived line from the shooter to its target. The
//! effects the combat rules name are FXID resources played by [`crate::effects`];
//! when an explosion's cannot be played, a fireball that grows and fades stands in.
//! Ages run on virtual time and hold while the game is paused.

use crate::MissionRenderSystems;
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_core::{AppState, GameMessage, GameMessageKind, ObjectTable, Pause, Projectile, SimTransform, Weapon};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<Fireball>().register_type::<Beam>().add_systems(Startup, setup).add_systems(
        Update,
        ((shells, spawn_beams).chain(), age_stand_ins.after(crate::effects::animate_effects))
            .in_set(MissionRenderSystems::Animate),
    );
}

/// How long a fireball lasts (seconds).
const FIREBALL_SECONDS: f32 = 1.5;
/// A fireball's final radius (game units).
const FIREBALL_RADIUS: f32 = 12.0;
/// How long a beam shows (seconds).
const BEAM_SECONDS: f32 = 0.15;
/// Height above an object's position where shots leave and hit (game units).
pub(crate) const LIFT: f32 = 2.0;

/// The shared meshes and materials of combat effects.
#[derive(Resource)]
pub(crate) struct CombatLook {
    sphere: Handle<Mesh>,
    cube: Handle<Mesh>,
    shell: Handle<StandardMaterial>,
}

/// A fireball and its age.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct Fireball(f32);

/// A beam and its age.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct Beam(f32);

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
            Transform::from_translation(Vec3::from(to_bevy(p.position)) + Vec3::Y * LIFT).with_scale(Vec3::splat(0.6));
        match transform {
            Some(mut t) => *t = at,
            None => {
                commands.entity(entity).insert((Mesh3d(look.sphere.clone()), MeshMaterial3d(look.shell.clone()), at));
            }
        }
    }
}

/// A fireball where an object was destroyed (the stand-in of its explosion effect).
pub(crate) fn spawn_fireball(
    commands: &mut Commands,
    look: &CombatLook,
    materials: &mut Assets<StandardMaterial>,
    position: [f32; 3],
) {
    let material = materials.add(StandardMaterial {
        base_color: Color::srgba(1.0, 0.55, 0.15, 0.9),
        emissive: LinearRgba::rgb(10.0, 4.0, 0.8),
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    });
    commands.spawn((
        Name::new("Fireball"),
        Fireball::default(),
        Mesh3d(look.sphere.clone()),
        MeshMaterial3d(material),
        Transform::from_translation(Vec3::from(to_bevy(position))),
        DespawnOnExit(AppState::InGame),
    ));
}

/// Beams where beam weapons fired.
pub(crate) fn spawn_beams(
    mut commands: Commands,
    mut messages: MessageReader<GameMessage>,
    look: Res<CombatLook>,
    table: Res<ObjectTable>,
    objects: Query<(&SimTransform, Option<&Weapon>)>,
) {
    for m in messages.read() {
        let GameMessageKind::Fired { shooter, target, .. } = &m.kind else { continue };
        let at = |id: u32| table.entity_of(id).and_then(|e| objects.get(e).ok());
        if let (Some((from, Some(w))), Some((to, _))) = (at(shooter.id.0), at(target.id.0))
            && w.projectile_speed == 0.0
        {
            let lift = Vec3::Y * LIFT;
            let (a, b) = (Vec3::from(to_bevy(from.position)) + lift, Vec3::from(to_bevy(to.position)) + lift);
            let beam = Transform::from_translation((a + b) / 2.0).looking_at(b, Vec3::Y).with_scale(Vec3::new(
                0.4,
                0.4,
                a.distance(b),
            ));
            commands.spawn((
                Name::new("Beam"),
                Beam::default(),
                Mesh3d(look.cube.clone()),
                MeshMaterial3d(look.shell.clone()),
                beam,
                DespawnOnExit(AppState::InGame),
            ));
        }
    }
}

/// Fireballs grow and fade; beams vanish after a moment (held while paused).
pub(crate) fn age_stand_ins(
    mut commands: Commands,
    time: Res<Time<Virtual>>,
    pause: Option<Res<State<Pause>>>,
    mut fireballs: Query<(Entity, &mut Fireball, &mut Transform, &MeshMaterial3d<StandardMaterial>)>,
    mut beams: Query<(Entity, &mut Beam)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let dt = if pause.is_some_and(|p| *p.get() == Pause::Paused) { 0.0 } else { time.delta_secs() };
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
