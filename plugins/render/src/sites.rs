//! Building sites on screen (openparkan `docs/32-builder.md`): a construction sphere
//! starts its building's effects as the original's controller does, by name from
//! `effects.rlb` when the data has them: the sign (`B_Sphere_Sign`) as code 1 begins,
//! the dome (`B_Sphere_Main`) and the ray (`B_Sphere_Start`, `B_Sphere_Start_BT` on a
//! bunker or a tower, measured) as a killing code (2, 8, 10) begins. While a killing code holds, the dome itself is drawn as a translucent
//! sphere of the construction sphere's radius (the project's stand-in for the four
//! `NE_Shield3` of `B_Sphere_Main`, whose shield effects iron3d does not draw). A mineral
//! lode shows a plume only while no building stands within [`PLUME_HIDE_REACH`] of it
//! (read): a pale column (the project's stand-in for `env_mineral`, whose looping
//! iron3d does not play).

use crate::MissionRenderSystems;
use crate::effects::{EffectPlayer, Play};
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_core::plane::dist;
use iron3d_core::{AppState, BuildingCategory, MineralLodes, OriginalObjectId, SimTransform, UnitClass};
use iron3d_production::sites::Sphere as ConstructionSphere;
use iron3d_terrain::Ground;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownSpheres>()
        .register_type::<Dome>()
        .register_type::<Plume>()
        .add_systems(Startup, setup)
        .add_systems(OnExit(AppState::InGame), |mut shown: ResMut<ShownSpheres>| shown.0.clear())
        .add_systems(Update, (spheres, plumes).in_set(MissionRenderSystems::Animate));
}

/// A lode's plume hides while a building stands strictly nearer than this across the
/// ground (read).
pub const PLUME_HIDE_REACH: f32 = 80.0;
/// The codes whose states hold the dome (read).
const DOME_CODES: [u32; 3] = [2, 8, 10];
/// The stand-in plume's height and radius (game units, the project's).
const PLUME: (f32, f32) = (40.0, 2.5);

/// The shared meshes and materials of building sites.
#[derive(Resource)]
struct SiteLook {
    sphere: Handle<Mesh>,
    dome: Handle<StandardMaterial>,
    column: Handle<Mesh>,
    plume: Handle<StandardMaterial>,
}

/// A construction sphere's dome, drawn for the building of this id.
#[derive(Component, Reflect, Debug)]
#[reflect(Component)]
pub struct Dome(pub u32);

/// A mineral lode's plume (its index among the mission's lodes).
#[derive(Component, Reflect, Debug)]
#[reflect(Component)]
pub struct Plume(pub usize);

/// The code each building's sphere showed last, and its dome.
#[derive(Resource, Default)]
struct ShownSpheres(BTreeMap<u32, (Option<u32>, Option<Entity>)>);

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let glow = |materials: &mut Assets<StandardMaterial>, rgba: [f32; 4], emissive: [f32; 3]| {
        materials.add(StandardMaterial {
            base_color: Color::srgba(rgba[0], rgba[1], rgba[2], rgba[3]),
            emissive: LinearRgba::rgb(emissive[0], emissive[1], emissive[2]),
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            double_sided: true,
            cull_mode: None,
            ..default()
        })
    };
    commands.insert_resource(SiteLook {
        sphere: meshes.add(Sphere::new(1.0).mesh().uv(32, 16)),
        dome: glow(&mut materials, [0.35, 0.6, 1.0, 0.35], [0.3, 0.6, 1.5]),
        column: meshes.add(Cylinder::new(1.0, 1.0)),
        plume: glow(&mut materials, [0.75, 0.9, 1.0, 0.3], [0.6, 0.8, 1.0]),
    });
}

/// The ray effect of a building of `category`: the bunkers' and towers' own (measured).
fn ray(category: Option<&BuildingCategory>) -> &'static str {
    use iron3d_formats::registry::BuildCategory::{BunkerLarge, BunkerMedium, BunkerSmall, TowerLarge, TowerMedium};
    match category.and_then(|c| c.category()) {
        Some(BunkerSmall | BunkerMedium | BunkerLarge | TowerMedium | TowerLarge) => "B_Sphere_Start_BT",
        _ => "B_Sphere_Start",
    }
}

/// Starts each sphere's effects as its code changes, and keeps its dome.
fn spheres(
    mut commands: Commands,
    look: Res<SiteLook>,
    mut shown: ResMut<ShownSpheres>,
    mut effects: EffectPlayer,
    buildings: Query<(&OriginalObjectId, &ConstructionSphere, &SimTransform, Option<&BuildingCategory>)>,
) {
    let mut seen = Vec::new();
    for (id, sphere, t, category) in &buildings {
        seen.push(id.0);
        let code = sphere.code();
        let (was, dome) = shown.0.get(&id.0).copied().unwrap_or((None, None));
        if was == code && shown.0.contains_key(&id.0) {
            continue;
        }
        let play = |name| Play { name, rule: "construction sphere", at: t.position, owner: Some(*id), sound: true };
        let domed = |c: Option<u32>| c.is_some_and(|c| DOME_CODES.contains(&c));
        if code == Some(1) {
            effects.play(&mut commands, &play("B_Sphere_Sign"));
        }
        let dome = match (domed(code), dome) {
            (true, None) => {
                effects.play(&mut commands, &play("B_Sphere_Main"));
                effects.play(&mut commands, &play(ray(category)));
                let at = Vec3::from(to_bevy(t.position));
                let dome = (
                    Name::new(format!("Dome of {}", id.0)),
                    Dome(id.0),
                    Mesh3d(look.sphere.clone()),
                    MeshMaterial3d(look.dome.clone()),
                    Transform::from_translation(at).with_scale(Vec3::splat(sphere.radius)),
                    DespawnOnExit(AppState::InGame),
                );
                Some(commands.spawn(dome).id())
            }
            (false, Some(e)) => {
                commands.entity(e).despawn();
                None
            }
            (_, kept) => kept,
        };
        shown.0.insert(id.0, (code, dome));
    }
    shown.0.retain(|id, (_, dome)| {
        let live = seen.contains(id);
        if let Some(e) = dome.filter(|_| !live) {
            commands.entity(e).despawn();
        }
        live
    });
}

/// Whether a lode at `lode` hides its plume: a building stands strictly nearer than
/// [`PLUME_HIDE_REACH`] across the ground (any clan, read).
pub fn plume_hidden(buildings: &[[f32; 2]], lode: [f32; 2]) -> bool {
    buildings.iter().any(|b| dist(*b, lode) < PLUME_HIDE_REACH)
}

/// Shows each lode's plume while no building stands within [`PLUME_HIDE_REACH`] of it.
fn plumes(
    mut commands: Commands,
    look: Res<SiteLook>,
    lodes: Option<Res<MineralLodes>>,
    ground: Option<Res<Ground>>,
    objects: Query<(&SimTransform, &UnitClass)>,
    mut shown: Query<(&Plume, &mut Visibility)>,
) {
    let Some(lodes) = lodes else { return };
    let buildings: Vec<[f32; 2]> = objects
        .iter()
        .filter(|(_, c)| c.0 & UnitClass::REGISTRATION_BIT != 0)
        .map(|(t, _)| [t.position[0], t.position[1]])
        .collect();
    let hidden = |i: usize| plume_hidden(&buildings, lodes.0[i].position);
    let mut have = vec![false; lodes.0.len()];
    for (plume, mut visibility) in &mut shown {
        if let Some(h) = have.get_mut(plume.0) {
            *h = true;
            visibility.set_if_neq(if hidden(plume.0) { Visibility::Hidden } else { Visibility::Inherited });
        }
    }
    for (i, lode) in lodes.0.iter().enumerate().filter(|(i, _)| !have[*i]) {
        let [x, y] = lode.position;
        let z = ground.as_ref().and_then(|g| g.height_at(x, y)).unwrap_or(0.0);
        let at = Vec3::from(to_bevy([x, y, z + PLUME.0 / 2.0]));
        commands.spawn((
            Name::new(format!("Plume of lode {i}")),
            Plume(i),
            Mesh3d(look.column.clone()),
            MeshMaterial3d(look.plume.clone()),
            Transform::from_translation(at).with_scale(Vec3::new(PLUME.1, PLUME.0, PLUME.1)),
            if hidden(i) { Visibility::Hidden } else { Visibility::Inherited },
            DespawnOnExit(AppState::InGame),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bunkers_and_towers_have_their_own_ray() {
        let of = |mask: u32| ray(Some(&BuildingCategory(mask)));
        assert_eq!([of(0x8001_0000), of(0x8020_0000)], ["B_Sphere_Start_BT"; 2]);
        assert_eq!([of(0x8000_0004), ray(None)], ["B_Sphere_Start"; 2], "a mine, or a building of no category");
    }

    #[test]
    fn a_plume_hides_while_a_building_stands_strictly_within_80() {
        let lode = [100.0, 100.0];
        assert!(!plume_hidden(&[], lode));
        assert!(!plume_hidden(&[[180.0, 100.0]], lode), "at 80 exactly it shows");
        assert!(plume_hidden(&[[300.0, 0.0], [179.9, 100.0]], lode), "any building nearer hides it");
    }
}
