//! The debug order command, active while the F3 overlay is shown: a left click near a
//! unit selects it, a left click on an object of a clan at war with the selected
//! unit's orders an attack on it, a left click elsewhere on the ground sends the
//! selected unit there (the right button stays the camera's); a selected building gets
//! a panel that orders robots there. The order
//! goes through the simulation's command queue at the next tick, the path every order
//! takes; the full player controls come with input mapping. The selection and its
//! target are drawn as rings over the scene.

use crate::Settings;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use iron3d_assets::axes::{to_bevy, to_game};
use iron3d_core::{
    ClanRelations, CommandQueue, GameClock, Health, Movable, NavStatus, Order, OriginalObjectId, Owner, SchemeNames,
    SimCommand, SimTransform,
};
use iron3d_mission::MissionObject;
use iron3d_terrain::Ground;
use std::collections::BTreeSet;

/// How far from the clicked point a unit is still picked (game units).
pub const PICK_RADIUS: f32 = 8.0;

/// The unit the debug command controls and where it was last sent.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct DebugSelection {
    /// Selected unit.
    pub unit: Option<u32>,
    /// Last target (game XY).
    pub target: Option<[f32; 2]>,
}

/// Where a Bevy-space ray meets the ground, in game space.
pub fn ground_point(ground: &Ground, ray: Ray3d) -> Option<[f32; 3]> {
    let (origin, direction) = (to_game(ray.origin.into()), to_game((*ray.direction).into()));
    ground.ray_cast(origin, direction, 1.0e6).map(|hit| hit.point)
}

/// The unit nearest `at` within `radius` (ties to the lower id).
pub fn nearest_unit(units: impl Iterator<Item = (u32, [f32; 3])>, at: [f32; 2], radius: f32) -> Option<u32> {
    let d2 = |p: [f32; 3]| (p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2);
    units
        .filter(|(_, p)| d2(*p) <= radius * radius)
        .min_by(|a, b| d2(a.1).total_cmp(&d2(b.1)).then(a.0.cmp(&b.0)))
        .map(|u| u.0)
}

/// Queues `order` for `unit` at the next tick.
pub fn send(queue: &mut CommandQueue, clock: &GameClock, unit: u32, order: Order) {
    queue.push(SimCommand { tick: clock.tick + 1, units: vec![unit], order });
}

/// What a left click means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Click {
    /// Select this unit.
    Select(u32),
    /// The selected unit attacks this object.
    Attack(u32),
    /// The selected unit moves to the clicked ground.
    Move,
    /// Nothing (no selection, nothing picked).
    Nothing,
}

/// The meaning of a click that picked `picked` (`(id, clan, movable)`), with the
/// selection `selected` (`(clan, movable)`): an object of a clan at war with a selected
/// unit's is attacked, any other object is selected (a building to build from), the
/// ground is where a selected unit goes.
pub fn click(selected: Option<(i32, bool)>, picked: Option<(u32, i32, bool)>, relations: &ClanRelations) -> Click {
    match (selected, picked) {
        (Some((mine, true)), Some((id, clan, _))) if relations.hostile(mine, clan) => Click::Attack(id),
        (_, Some((id, ..))) => Click::Select(id),
        (Some((_, true)), None) => Click::Move,
        _ => Click::Nothing,
    }
}

/// The scene under the cursor and the units on it.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Scene<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    ground: Option<Res<'w, Ground>>,
    units: Query<'w, 's, (&'static OriginalObjectId, &'static SimTransform, Option<&'static NavStatus>), With<Movable>>,
    targets:
        Query<'w, 's, (&'static OriginalObjectId, &'static SimTransform, &'static Owner, Has<Movable>), With<Health>>,
    relations: Res<'w, ClanRelations>,
}

impl Scene<'_, '_> {
    fn camera(&self) -> Option<(&Camera, &GlobalTransform)> {
        self.cameras.iter().find(|(c, _)| c.is_active)
    }

    fn cursor_ground(&self) -> Option<[f32; 3]> {
        let cursor = self.windows.single().ok()?.cursor_position()?;
        let (camera, at) = self.camera()?;
        ground_point(self.ground.as_deref()?, camera.viewport_to_world(at, cursor).ok()?)
    }

    fn on_screen(&self, p: [f32; 3]) -> Option<Vec2> {
        let (camera, at) = self.camera()?;
        camera.world_to_viewport(at, Vec3::from(to_bevy(p))).ok()
    }
}

/// Selects or sends on left clicks that egui does not take.
pub(crate) fn command(
    settings: Res<Settings>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut contexts: EguiContexts,
    scene: Scene,
    clock: Res<GameClock>,
    mut queue: ResMut<CommandQueue>,
    mut selection: ResMut<DebugSelection>,
) -> Result {
    if !settings.overlay || !buttons.just_pressed(MouseButton::Left) || contexts.ctx_mut()?.egui_wants_pointer_input() {
        return Ok(());
    }
    let Some(point) = scene.cursor_ground() else { return Ok(()) };
    let objects = scene.targets.iter().map(|(id, t, _, _)| (id.0, t.position));
    let picked = nearest_unit(objects, [point[0], point[1]], PICK_RADIUS)
        .and_then(|id| scene.targets.iter().find(|t| t.0.0 == id).map(|(_, _, o, m)| (id, o.clan, m)));
    let mine = selection.unit.and_then(|u| scene.targets.iter().find(|t| t.0.0 == u).map(|t| (t.2.clan, t.3)));
    match (click(mine, picked, &scene.relations), selection.unit) {
        (Click::Select(id), _) => selection.unit = Some(id),
        (Click::Attack(target), Some(unit)) => {
            send(&mut queue, &clock, unit, Order::Attack(target));
            selection.target = Some([point[0], point[1]]);
            info!(target: "orders", "debug order: unit {unit} attacks {target}");
        }
        (Click::Move, Some(unit)) => {
            send(&mut queue, &clock, unit, Order::MoveTo([point[0], point[1]]));
            selection.target = Some([point[0], point[1]]);
            info!(target: "orders", "debug order: unit {unit} to ({:.1}, {:.1})", point[0], point[1]);
        }
        _ => {}
    }
    Ok(())
}

/// With a building selected, a panel orders robots there: one button per unit scheme
/// the mission's robots were placed from (production decides whether the building
/// builds, research allows the scheme and the clan can pay; a refusal is an event).
pub(crate) fn build_panel(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    selection: Res<DebugSelection>,
    objects: Query<(&OriginalObjectId, &MissionObject, Has<Movable>)>,
    clock: Res<GameClock>,
    mut queue: ResMut<CommandQueue>,
    mut names: ResMut<SchemeNames>,
) -> Result {
    let Some(building) = selection.unit.filter(|_| settings.overlay) else { return Ok(()) };
    if objects.iter().any(|(id, _, movable)| id.0 == building && movable) {
        return Ok(());
    }
    let schemes: BTreeSet<&str> = objects.iter().filter(|o| o.2).map(|o| o.1.key.as_str()).collect();
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(format!("Build at {building}")).anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0]).show(
        ctx,
        |ui| {
            for scheme in schemes {
                if ui.button(scheme).clicked()
                    && let Ok(r) = names.intern(scheme)
                {
                    send(&mut queue, &clock, building, Order::Build(r));
                    info!(target: "orders", "debug order: build {scheme} at {building}");
                }
            }
        },
    );
    Ok(())
}

/// Rings on the selected unit and its target, and a line of help.
pub(crate) fn draw(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    scene: Scene,
    selection: Res<DebugSelection>,
) -> Result {
    if !settings.overlay {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, "debug orders".into()));
    let mut state = "click a unit to select it".to_string();
    let selected = selection.unit.and_then(|id| scene.units.iter().find(|(i, ..)| i.0 == id));
    if let Some((id, t, status)) = selected {
        let ring = |p: Vec2, r: f32, colour: egui::Color32| {
            painter.circle_stroke(egui::pos2(p.x / zoom, p.y / zoom), r, egui::Stroke::new(2.0, colour));
        };
        if let Some(p) = scene.on_screen(t.position) {
            ring(p, 14.0, egui::Color32::from_rgb(90, 230, 90));
        }
        let target = selection.target.and_then(|[x, y]| {
            let z = scene.ground.as_ref().and_then(|g| g.height_at(x, y)).unwrap_or(t.position[2]);
            scene.on_screen([x, y, z])
        });
        if let Some(p) = target {
            ring(p, 8.0, egui::Color32::from_rgb(240, 200, 60));
        }
        let nav = status.map_or("idle".to_string(), |s| format!("{:?}", s.state).to_lowercase());
        state = format!("unit {} ({nav}) · click the ground to send it there, an enemy to attack it", id.0);
    }
    egui::Area::new("debug orders help".into()).anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| ui.monospace(format!("debug orders: {state}")));
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::world::TerrainBuilder;

    #[test]
    fn a_click_picks_the_ground_and_the_nearest_unit_and_queues_a_move() {
        let terrain = TerrainBuilder::height_field(4, 4, 10.0, |x: f32, _| x * 0.5).unwrap();
        let ground = Ground::new(&terrain);
        // A ray straight down (Bevy −Y) over game (12, 7) meets the slope at z = 6.
        let ray = Ray3d::new(Vec3::from(to_bevy([12.0, 7.0, 100.0])), Dir3::NEG_Y);
        let p = ground_point(&ground, ray).expect("hits the ground");
        assert!((p[0] - 12.0).abs() < 1e-3 && (p[1] - 7.0).abs() < 1e-3 && (p[2] - 6.0).abs() < 1e-3, "{p:?}");
        let units = [(5, [20.0, 7.0, 0.0]), (3, [14.0, 7.0, 0.0]), (2, [10.0, 7.0, 0.0])];
        assert_eq!(nearest_unit(units.into_iter(), [12.0, 7.0], PICK_RADIUS), Some(2), "equal distance: lower id");
        assert_eq!(nearest_unit(units.into_iter(), [40.0, 40.0], PICK_RADIUS), None, "nothing within reach");
        let (mut queue, clock) = (CommandQueue::default(), GameClock { tick: 41, time_ms: 41 * 64 });
        send(&mut queue, &clock, 2, Order::MoveTo([30.0, 5.0]));
        let due = queue.take_due(42);
        assert_eq!(due, vec![SimCommand { tick: 42, units: vec![2], order: Order::MoveTo([30.0, 5.0]) }]);
    }

    #[test]
    fn a_click_selects_own_units_attacks_enemies_and_moves_elsewhere() {
        let relations = ClanRelations {
            hostile: vec![vec![false, false, false], vec![false, false, true], vec![false, true, false]],
        };
        let unit = Some((1, true));
        assert_eq!(click(None, Some((4, 1, true)), &relations), Click::Select(4));
        assert_eq!(click(unit, Some((5, 1, true)), &relations), Click::Select(5), "another own unit");
        assert_eq!(click(unit, Some((7, 2, false)), &relations), Click::Attack(7), "an enemy building");
        assert_eq!(click(unit, Some((8, 2, true)), &relations), Click::Attack(8), "an enemy unit");
        assert_eq!(click(unit, Some((9, 1, false)), &relations), Click::Select(9), "an own building: build from it");
        assert_eq!(click(unit, None, &relations), Click::Move);
        assert_eq!(click(None, None, &relations), Click::Nothing);
        let plant = Some((1, false));
        assert_eq!(click(plant, None, &relations), Click::Nothing, "a building does not move");
        assert_eq!(click(plant, Some((8, 2, true)), &relations), Click::Select(8), "nor attack");
    }
}
