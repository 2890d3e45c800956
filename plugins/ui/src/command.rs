//! The player's commands on the map. A left click selects one of the player's objects
//! (Shift adds or removes it), a left drag selects the player's units in the box; a
//! right click orders the selected units: an object of a hostile clan under the
//! cursor is attacked, anywhere else on the ground is where they go, spread in a
//! formation around the point (Shift queues it as a waypoint). `Stop` stops them;
//! Ctrl+digit stores the selection as a control group, the digit selects it again.
//! In a command view the left button acts as the original's (openparkan
//! `docs/42-selection.md`, read): on the way down, by what is under the cursor
//! ([`crate::cursor::pick`]: select, go, attack, capture, guard; the object under it is
//! the one whose sphere the cursor's ray passes through nearest the eye, [`pick`]), a band only after
//! 0.35 s held, no Shift and no groups; a go sends every selected unit to the one point
//! (each then patrols about it, Behavior's rule); the right click gives no order there
//! but clears, as the original's does ([`right_click`]).
//! Every order goes through `PlayerCommands`, stamped with the next tick: the one path
//! orders take. Selection rings, health bars, the drag box and order markers are drawn
//! over the scene; a selected production building gets a build panel (a builder its own,
//! `site`; while a building is placed the map takes no other command).

use crate::ScreenSystems;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_assets::axes::{to_bevy, to_game};
use iron3d_core::{
    AppState, BuildOptions, ClanRelations, CollisionProxy, Designs, Guard, Health, InterfaceClick, MissionClans,
    ModelBounds, Movable, ObjectTable, Order, OriginalObjectId, Owner, Pause, ProductionBoard, Rung, SchemeNames,
    SimTransform, SizeClass, UnderConstruction, UnitClass, UnitResponse, Ward,
};
use iron3d_input::{Actions, GameAction, PlayerCommands, Selection, in_box};
use iron3d_mission::MissionObject;
use iron3d_terrain::Ground;
use std::collections::BTreeSet;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapCommand>()
        .register_type::<MapCommand>()
        .add_systems(
            Update,
            command
                .after(crate::pilot::pilot)
                .run_if(in_state(Pause::Running))
                .run_if(crate::views::commanding)
                .run_if(|placing: Res<crate::site::Placing>| placing.0.is_none()),
        )
        .add_systems(Update, selection_voice.run_if(in_state(AppState::InGame)))
        .add_systems(
            EguiPrimaryContextPass,
            (draw, build_panel.run_if(crate::views::panels))
                .run_if(in_state(AppState::InGame))
                .in_set(ScreenSystems::InGame),
        );
}

/// The share of a building's sphere the cursor's ray must pass through (a unit's whole
/// sphere counts; openparkan `docs/42-selection.md`, read).
pub const BUILDING_PICK_SHARE: f32 = 0.7;
/// A press that moves this many pixels before it is released is a drag (box select).
pub const DRAG_PIXELS: f32 = 6.0;
/// Room per unit in a move formation (game units).
pub const FORMATION_SPACING: f32 = 8.0;
/// How long an order marker stays on screen (seconds).
pub const MARKER_SECONDS: f32 = 1.2;

/// Where a Bevy-space ray meets the ground, in game space.
pub fn ground_point(ground: &Ground, ray: Ray3d) -> Option<[f32; 3]> {
    let (origin, direction) = (to_game(ray.origin.into()), to_game((*ray.direction).into()));
    ground.ray_cast(origin, direction, 1.0e6).map(|hit| hit.point)
}

/// A pickable object: its id, its sphere's centre and radius (game space) and whether it
/// is a building.
pub type Pickable = (u32, Vec3, f32, bool);

/// The object the ray from `eye` along `dir` (game space) picks (openparkan
/// `docs/42-selection.md`, "The object pick", read): of those whose sphere its line
/// passes through (a building's at [`BUILDING_PICK_SHARE`] of its radius), their centre
/// ahead and the eye not inside the whole sphere, the one whose centre is nearest the
/// eye; a tie keeps the building (the original walks the buildings first), then the
/// lower id (the project's, for the original's list order).
pub fn pick(eye: Vec3, dir: Vec3, objects: impl Iterator<Item = Pickable>) -> Option<u32> {
    let dir = dir.try_normalize()?;
    objects
        .filter_map(|(id, centre, radius, building)| {
            let to = centre - eye;
            let ahead = to.dot(dir);
            let r = if building { radius * BUILDING_PICK_SHARE } else { radius };
            let off_line = to.length_squared() - ahead * ahead;
            (to.length() >= radius && ahead > 0.0 && off_line <= r * r).then_some((id, to.length_squared(), building))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)))
        .map(|(id, ..)| id)
}

/// An object's sphere in game space: about its model's bounds turned by its heading and
/// scaled (the project's reading of the original's bounding sphere), else its collision
/// radius about a point that high above its place.
pub fn sphere(at: &SimTransform, bounds: Option<&ModelBounds>, radius: f32) -> (Vec3, f32) {
    let place = Vec3::from(at.position);
    let Some(b) = bounds else { return (place + Vec3::Z * radius, radius) };
    let scale = Vec3::from(at.scale);
    let (low, high) = (Vec3::from(b.min) * scale, Vec3::from(b.max) * scale);
    let centre = Quat::from_rotation_z(at.heading()) * ((low + high) / 2.0);
    (place + centre, (high - low).length() / 2.0)
}

/// Goals for `n` units sent to `center`: a square grid around it, filled row by row
/// (the project's own rule; unit `k` in id order gets goal `k`).
pub fn formation(center: [f32; 2], n: usize, spacing: f32) -> Vec<[f32; 2]> {
    let side = (n as f32).sqrt().ceil().max(1.0) as usize;
    let offset = (side as f32 - 1.0) / 2.0;
    (0..n)
        .map(|k| {
            let (row, col) = ((k / side) as f32, (k % side) as f32);
            [center[0] + (col - offset) * spacing, center[1] + (row - offset) * spacing]
        })
        .collect()
}

/// Sends `units` to `point`, each to its place of the [`formation`] (`queued`: as a
/// waypoint).
pub fn move_in_formation(player: &mut PlayerCommands, units: &[u32], point: [f32; 2], queued: bool) {
    for (&unit, goal) in units.iter().zip(formation(point, units.len(), FORMATION_SPACING)) {
        player.order(vec![unit], Order::MoveTo(goal), queued);
    }
}

/// The player's clan: the first clan a person plays (mode 1), else clan 1.
pub fn player_clan(clans: Option<&MissionClans>) -> i32 {
    clans.and_then(|c| c.player()).map_or(1, |c| c as i32)
}

/// What a right click on `picked` (`(id, clan)`) means for units of `mine`.
pub fn order_at(mine: i32, picked: Option<(u32, i32)>, relations: &ClanRelations) -> Option<Order> {
    match picked {
        Some((id, clan)) if relations.hostile(mine, clan) => Some(Order::Attack(id)),
        _ => None,
    }
}

/// A right click on a mine of the player's clan (`picked`: id, clan, class word) sends
/// the transports among `units` (id, class word) to haul from it: `(mine, transports)`
/// and the units that take the ordinary order there.
pub fn haul_split(
    mine: i32,
    picked: Option<(u32, i32, Option<u32>)>,
    units: &[(u32, Option<u32>)],
) -> (Option<(u32, Vec<u32>)>, Vec<u32>) {
    let all = || units.iter().map(|u| u.0).collect();
    let Some((id, _, _)) = picked.filter(|&(_, clan, class)| clan == mine && class == Some(UnitClass::MINE)) else {
        return (None, all());
    };
    let (haulers, others): (Vec<_>, Vec<_>) = units.iter().partition(|u| u.1 == Some(UnitClass::TRANSPORT));
    let ids = |v: Vec<&(u32, Option<u32>)>| v.into_iter().map(|u| u.0).collect::<Vec<_>>();
    if haulers.is_empty() { (None, all()) } else { (Some((id, ids(haulers))), ids(others)) }
}

/// A right click on a building of the player's clan that can be upgraded (`picked`: id,
/// clan, whether a next rung is open) sends the builders among `units` (id, class word)
/// to upgrade it (the builders' Upgrade row, openparkan `docs/32-builder.md`; the right
/// click is the project's way to it): `(building, builders)` and the units that take
/// the ordinary order there.
pub fn upgrade_split(
    mine: i32,
    picked: Option<(u32, i32, bool)>,
    units: &[(u32, Option<u32>)],
) -> (Option<(u32, Vec<u32>)>, Vec<u32>) {
    let all = || units.iter().map(|u| u.0).collect();
    let Some((id, _, _)) = picked.filter(|&(_, clan, open)| clan == mine && open) else { return (None, all()) };
    let (builders, others): (Vec<_>, Vec<_>) = units.iter().partition(|u| u.1 == Some(UnitClass::BUILDER));
    let ids = |v: Vec<&(u32, Option<u32>)>| v.into_iter().map(|u| u.0).collect::<Vec<_>>();
    if builders.is_empty() { (None, all()) } else { (Some((id, ids(builders))), ids(others)) }
}

/// In a command view a band starts once the left button has been held this long
/// (seconds, read).
pub const BAND_SECONDS: f32 = 0.35;
/// In a command view a band selects only when it is at least this many pixels across
/// and down (read).
pub const BAND_PIXELS: f32 = 10.0;

/// What the original's right click does in a command view: the first that applies
/// (openparkan `docs/42-selection.md`, "A right click", read; its route and placement
/// cases are the builder's site's and absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RightClick {
    /// The band is up: it is cancelled.
    Band,
    /// Units are selected: they are let go, a unit page closes.
    Units,
    /// A building is selected: it is let go, a building page closes.
    Building,
    /// Nothing is selected and a page is open: it closes.
    Page,
    /// Otherwise, with the satellite map open: it closes.
    Map,
    /// Nothing.
    Nothing,
}

/// Which [`RightClick`] applies: the band up, units and a building among the selection,
/// a page open, the satellite map open.
pub fn right_click(band: bool, (units, building): (bool, bool), page: bool, map: bool) -> RightClick {
    match () {
        _ if band => RightClick::Band,
        _ if units => RightClick::Units,
        _ if building => RightClick::Building,
        _ if page => RightClick::Page,
        _ if map => RightClick::Map,
        _ => RightClick::Nothing,
    }
}

/// Whether a command view's band from `start` to `end`, the button held `held` seconds,
/// selects (read): a shorter press or a smaller band selects nothing and clears nothing.
pub fn band_selects(held: f32, start: Vec2, end: Vec2) -> bool {
    held > BAND_SECONDS && (end - start).abs().min_element() >= BAND_PIXELS
}

/// A guard's ward at a ground point the cursor picked (its height given).
fn place_ward(p: [f32; 3]) -> Ward {
    Ward::Place { at: [p[0], p[1]], z: Some(p[2]) }
}

/// A left press in progress (screen position) and the markers of recent orders.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct MapCommand {
    /// Where the left button went down (logical pixels), while it is held.
    pub press: Option<Vec2>,
    /// How long it has been held (seconds).
    pub held: f32,
    /// The press has become a band, drawn from it to the cursor.
    pub band: bool,
    /// The press went down on the open satellite map: its band selects by the world
    /// points its corners stand for.
    pub on_map: bool,
    /// Recent orders: where (game space), whether an attack, age in seconds.
    pub markers: Vec<([f32; 3], bool, f32)>,
}

type Object = (
    &'static OriginalObjectId,
    &'static SimTransform,
    &'static Owner,
    Has<Movable>,
    Option<&'static CollisionProxy>,
    Option<&'static Health>,
    Option<&'static ModelBounds>,
);

/// The scene under the cursor and its objects.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Battlefield<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    pub(crate) ground: Option<Res<'w, Ground>>,
    pub(crate) objects: Query<'w, 's, Object>,
    pub(crate) relations: Res<'w, ClanRelations>,
    clans: Option<Res<'w, MissionClans>>,
    table: Res<'w, ObjectTable>,
    classes: Query<'w, 's, &'static UnitClass>,
    sizes: Query<'w, 's, &'static SizeClass>,
    rungs: Query<'w, 's, (&'static Rung, Has<UnderConstruction>)>,
}

impl Battlefield<'_, '_> {
    /// The world's camera: the active one of the highest order (the panels' views of a
    /// unit draw before it).
    pub(crate) fn camera(&self) -> Option<(&Camera, &GlobalTransform)> {
        self.cameras.iter().filter(|(c, _)| c.is_active).max_by_key(|(c, _)| c.order)
    }

    /// The cursor on the window (logical pixels).
    pub(crate) fn cursor(&self) -> Option<Vec2> {
        self.windows.single().ok()?.cursor_position()
    }

    /// The entity of object `id`.
    pub(crate) fn entity(&self, id: u32) -> Option<Entity> {
        self.table.entity_of(id)
    }

    pub(crate) fn cursor_ground(&self) -> Option<[f32; 3]> {
        let (camera, at) = self.camera()?;
        ground_point(self.ground.as_deref()?, camera.viewport_to_world(at, self.cursor()?).ok()?)
    }

    pub(crate) fn on_screen(&self, p: [f32; 3]) -> Option<Vec2> {
        let (camera, at) = self.camera()?;
        camera.world_to_viewport(at, Vec3::from(to_bevy(p))).ok()
    }

    pub(crate) fn player(&self) -> i32 {
        player_clan(self.clans.as_deref())
    }

    /// The object with this id.
    pub(crate) fn object(&self, id: u32) -> Option<<Object as bevy::ecs::query::QueryData>::Item<'_, '_>> {
        self.objects.get(self.table.entity_of(id)?).ok()
    }

    /// The class word of object `id`.
    pub(crate) fn class_of(&self, id: u32) -> Option<u32> {
        self.classes.get(self.table.entity_of(id)?).ok().map(|c| c.0)
    }

    /// The size class of object `id`.
    pub(crate) fn size_of(&self, id: u32) -> Option<u8> {
        self.sizes.get(self.table.entity_of(id)?).ok().map(|s| s.0)
    }

    /// Whether `ids` are capturers: some, each of size class 1 or 2.
    pub(crate) fn capturers(&self, ids: &[u32]) -> bool {
        let small = |id: &u32| self.size_of(*id).is_some_and(|s| s <= SizeClass::CAPTURER);
        !ids.is_empty() && ids.iter().all(small)
    }

    /// Object `id` as an order's target: id, clan, whether a building, its Type.
    pub(crate) fn target(&self, id: u32) -> Option<(u32, i32, bool, u32)> {
        let o = self.object(id)?;
        Some((id, o.2.clan, !o.3, self.class_of(id).unwrap_or_default()))
    }

    /// Whether object `id` is a building one rung below the top of its ladder whose
    /// construction sphere does not run.
    fn upgradable(&self, id: u32) -> bool {
        let rung = self.table.entity_of(id).and_then(|e| self.rungs.get(e).ok());
        rung.is_some_and(|(r, running)| r.upgradable() && !running)
    }

    /// Those of `ids` that are the player's units (the ones orders go to).
    pub(crate) fn own_units(&self, ids: &[u32]) -> Vec<u32> {
        let mine = self.player();
        ids.iter().copied().filter(|&id| self.object(id).is_some_and(|o| o.3 && o.2.clan == mine)).collect()
    }

    /// The object under the cursor ([`pick`] along its ray): `(id, clan)`.
    pub(crate) fn picked(&self) -> Option<(u32, i32)> {
        let (camera, at) = self.camera()?;
        let ray = camera.viewport_to_world(at, self.cursor()?).ok()?;
        let (eye, dir) = (Vec3::from(to_game(ray.origin.into())), Vec3::from(to_game((*ray.direction).into())));
        let objects = self.objects.iter().map(|(id, t, _, movable, proxy, _, bounds)| {
            let (centre, radius) = sphere(t, bounds, proxy.map_or(1.0, |p| p.radius));
            (id.0, centre, radius, !movable)
        });
        let id = pick(eye, dir, objects)?;
        self.object(id).map(|o| (id, o.2.clan))
    }

    /// The object the satellite map's pick takes at `at` among the live objects, `known`
    /// to the player ([`crate::minimap::map_object`]): `(id, clan)`.
    pub(crate) fn picked_on_map(&self, at: [f32; 2], known: &BTreeSet<u32>) -> Option<(u32, i32)> {
        let mut objects: Vec<_> = (self.objects.iter())
            .filter(|o| o.5.is_none_or(|h| h.hp > 0.0))
            .map(|(id, t, _, movable, ..)| (id.0, [t.position[0], t.position[1]], !movable))
            .collect();
        objects.sort_unstable_by_key(|o| o.0);
        let id = crate::minimap::map_object(at, &objects, known)?;
        self.object(id).map(|o| (id, o.2.clan))
    }
}

/// Selection and orders from the player's actions (not while piloting).
pub(crate) fn command(
    actions: Query<&Actions>,
    pointing: crate::cursor::Pointing,
    time: Res<Time<Real>>,
    (mut state, mut panel): (ResMut<MapCommand>, ResMut<crate::commander::Commander>),
    mut selection: ResMut<Selection>,
    (mut player, mut pick, views, mut map): (
        ResMut<PlayerCommands>,
        ResMut<crate::hq_menu::GuardPick>,
        Res<crate::views::Views>,
        ResMut<crate::minimap::Minimap>,
    ),
    mut respond: MessageWriter<UnitResponse>,
) {
    let scene = &pointing.scene;
    for m in &mut state.markers {
        m.2 += time.delta_secs();
    }
    state.markers.retain(|m| m.2 < MARKER_SECONDS);
    selection.retain(|id| scene.table.entity_of(id).is_some());
    let Ok(a) = actions.single() else { return };
    if player.piloted().is_some() {
        state.press = None;
        return;
    }
    let mine = scene.player();
    // A command view selects as the original's: a click replaces, on the way down; no
    // control groups.
    let original = views.front().is_some();
    let add = a.pressed(&GameAction::Queue) && !original;
    for (group, action) in GameAction::GROUPS.iter().enumerate().filter(|_| !original) {
        if a.just_pressed(action) {
            if a.pressed(&GameAction::GroupModifier) {
                selection.assign(group);
            } else {
                selection.recall(group);
            }
        }
    }
    let units = scene.own_units(&selection.units);
    let answer = |respond: &mut MessageWriter<UnitResponse>, units: &[u32]| {
        if let Some(&unit) = units.first() {
            respond.write(UnitResponse { unit: OriginalObjectId(unit) });
        }
    };
    if a.just_pressed(&GameAction::Stop) {
        player.order(units.clone(), Order::Stop, false);
        answer(&mut respond, &units);
    }
    let picked_own = || scene.picked().filter(|p| p.1 == mine).map(|p| p.0);
    if a.just_pressed(&GameAction::Select) {
        (state.press, state.held) = (scene.cursor(), 0.0);
        let on_map = |p: Vec2| matches!(map.point(p), crate::minimap::MapPoint::At(_));
        state.on_map = original && state.press.is_some_and(on_map);
        // In a command view the click acts on the way down, by what is under it (read).
        if original && let Some((click, at)) = pointing.pick(&selection, pick.0, &map) {
            use crate::cursor::{BUILDING_GUARD_RADIUS, Pick};
            let guard = |ward, radius| Order::Guard(Guard { ward, radius });
            let order = match click {
                Pick::Select(id) | Pick::Again(id) if scene.class_of(id) != Some(UnitClass::HERO) => {
                    selection.select(vec![id], false);
                    let building = scene.object(id).is_some_and(|o| !o.3);
                    panel.clicked(scene.class_of(id).unwrap_or_default(), building, matches!(click, Pick::Again(_)));
                    None
                }
                // Every unit to the one point, in whole units (read): each patrols about it
                // once there.
                Pick::Go => Some(Order::MoveTo([at[0].round(), at[1].round()])),
                Pick::Attack(id) => Some(Order::Attack(id)),
                Pick::Capture(id) => Some(Order::Capture(id)),
                Pick::GuardObject(id) if std::mem::take(&mut pick.0) => {
                    Some(guard(Ward::Object(id), crate::hq_menu::GUARD_RADIUS))
                }
                Pick::GuardObject(id) => Some(guard(Ward::Object(id), BUILDING_GUARD_RADIUS)),
                Pick::GuardPlace => {
                    pick.0 = false;
                    Some(guard(place_ward(at), crate::hq_menu::GUARD_RADIUS))
                }
                Pick::Select(_) | Pick::Again(_) | Pick::Nothing | Pick::Refused => None,
            };
            if let Some(order) = order {
                answer(&mut respond, &units);
                state.markers.push((at, matches!(click, Pick::Attack(_)), 0.0));
                player.order(units.clone(), order, false);
            }
        }
    } else if a.pressed(&GameAction::Select) {
        state.held += time.delta_secs();
    }
    // A band starts once the button has been held 0.35 s in a command view, once the
    // cursor has moved 6 pixels elsewhere.
    let moved = |start: Vec2| scene.cursor().is_some_and(|now| start.distance(now) > DRAG_PIXELS);
    state.band = state.press.is_some_and(|start| if original { state.held > BAND_SECONDS } else { moved(start) });
    if a.just_released(&GameAction::Select)
        && let Some(start) = state.press.take()
    {
        let end = scene.cursor().unwrap_or(start);
        let band = if original { band_selects(state.held, start, end) } else { state.band };
        state.band = false;
        if band {
            // Over the open satellite map the band is the world's rectangle its corners
            // stand for (read); elsewhere, what the camera shows inside it.
            let corners = map.world(start).zip(map.world(end)).filter(|_| state.on_map);
            let inside = |p: [f32; 3]| match corners {
                Some((a, b)) => in_box(Vec2::new(p[0], p[1]), a.into(), b.into()),
                None => scene.on_screen(p).is_some_and(|p| in_box(p, start, end)),
            };
            let boxed = scene
                .objects
                .iter()
                .filter(|o| o.3 && o.2.clan == mine)
                .filter(|o| !(original && scene.class_of(o.0.0) == Some(UnitClass::HERO)))
                .filter(|o| inside(o.1.position))
                .map(|o| o.0.0)
                .collect();
            selection.select(boxed, add);
        } else if !original {
            match picked_own() {
                Some(id) => selection.select(vec![id], add),
                None if !add => selection.select(Vec::new(), false),
                None => {}
            }
        }
    }
    if original && a.just_pressed(&GameAction::Order) {
        let selected =
            |movable: bool| selection.units.iter().any(|&id| scene.object(id).is_some_and(|o| o.3 == movable));
        let page = panel.page.lists();
        let click = right_click(state.band, (selected(true), selected(false)), page.is_some(), !map.hidden);
        match click {
            RightClick::Band => (state.press, state.band) = (None, false),
            RightClick::Units | RightClick::Building => {
                selection.select(Vec::new(), false);
                pick.0 = false;
                let units_page = matches!(page, Some(crate::commander::Lists::Units(_)));
                if units_page == (click == RightClick::Units) {
                    panel.page = crate::commander::Page::None;
                }
            }
            RightClick::Page => panel.page = crate::commander::Page::None,
            RightClick::Map => map.hidden = true,
            RightClick::Nothing => {}
        }
        return;
    }
    if a.just_pressed(&GameAction::Order)
        && !units.is_empty()
        && let Some(point) = scene.cursor_ground()
    {
        answer(&mut respond, &units);
        let picked = scene.picked();
        // The HQ menu's Guard picks what it guards: the object clicked, else the place.
        if std::mem::take(&mut pick.0) {
            let ward = picked.map_or(place_ward(point), |p| Ward::Object(p.0));
            player.order(units, Order::Guard(Guard { ward, radius: crate::hq_menu::GUARD_RADIUS }), add);
            state.markers.push((point, false, 0.0));
            return;
        }
        let classed: Vec<_> = units.iter().map(|&u| (u, scene.class_of(u))).collect();
        let (haul, units) = haul_split(mine, picked.map(|(id, clan)| (id, clan, scene.class_of(id))), &classed);
        if let Some((from, transports)) = haul {
            player.order(transports, Order::Haul(from), add);
        }
        let classed: Vec<_> = units.iter().map(|&u| (u, scene.class_of(u))).collect();
        let (upgrade, units) = upgrade_split(mine, picked.map(|(id, clan)| (id, clan, scene.upgradable(id))), &classed);
        if let Some((building, builders)) = upgrade {
            player.order(builders, Order::Upgrade(building), add);
        }
        // With only capturers selected, another clan's building is captured (read).
        let target = picked.and_then(|p| scene.target(p.0));
        let capture = crate::wingmen::Row::CaptureBuilding.order(0, scene.capturers(&units), target, mine);
        let order = capture.or_else(|| order_at(mine, picked, &scene.relations));
        state.markers.push((point, order.is_some(), 0.0));
        match order {
            Some(order) => player.order(units, order, add),
            None => move_in_formation(&mut player, &units, [point[0], point[1]], add),
        }
    }
}

/// A building of the player's clan newly selected (by a click, a page, its pod) says
/// so: the original's select routine voices a building that was not selected (openparkan
/// `docs/36-factory.md`, read).
fn selection_voice(
    selection: Res<Selection>,
    scene: Battlefield,
    mut last: Local<Vec<u32>>,
    mut out: MessageWriter<iron3d_core::BuildingSelected>,
) {
    if !selection.is_changed() {
        return;
    }
    let mine = scene.player();
    for &id in selection.units.iter().filter(|id| !last.contains(id)) {
        if scene.object(id).is_some_and(|o| !o.3 && o.2.clan == mine) {
            out.write(iron3d_core::BuildingSelected { building: OriginalObjectId(id) });
        }
    }
    last.clone_from(&selection.units);
}

/// Rings and health bars on the selection, the drag box, the order markers.
pub(crate) fn draw(
    mut contexts: EguiContexts,
    scene: Battlefield,
    state: Res<MapCommand>,
    selection: Res<Selection>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let pos = |p: Vec2| egui::pos2(p.x / zoom, p.y / zoom);
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, "map command".into()));
    let green = egui::Color32::from_rgb(90, 230, 90);
    for (id, t, _, _, proxy, health, _) in &scene.objects {
        if !selection.contains(id.0) {
            continue;
        }
        let Some(p) = scene.on_screen(t.position) else { continue };
        let r = (proxy.map_or(2.0, |c| c.radius) * 4.0).clamp(10.0, 40.0);
        painter.circle_stroke(pos(p), r, egui::Stroke::new(2.0, green));
        if let Some(h) = health.filter(|h| h.max > 0.0) {
            let share = (h.hp / h.max).clamp(0.0, 1.0);
            let top = pos(p) + egui::vec2(-r, -r - 8.0);
            let bar = egui::Rect::from_min_size(top, egui::vec2(2.0 * r, 4.0));
            painter.rect_filled(bar, 0.0, egui::Color32::from_black_alpha(160));
            let fill = egui::Color32::from_rgb((255.0 * (1.0 - share)) as u8, (220.0 * share) as u8, 40);
            painter.rect_filled(egui::Rect::from_min_size(top, egui::vec2(2.0 * r * share, 4.0)), 0.0, fill);
        }
    }
    if let (Some(start), Some(now), true) = (state.press, scene.cursor(), state.band) {
        let rect = egui::Rect::from_two_pos(pos(start), pos(now));
        painter.rect_filled(rect, 0.0, egui::Color32::from_rgba_unmultiplied(90, 230, 90, 30));
        painter.rect_stroke(rect, 0.0, egui::Stroke::new(1.0, green), egui::StrokeKind::Inside);
    }
    for (point, attack, age) in &state.markers {
        let Some(p) = scene.on_screen(*point) else { continue };
        let fade = 1.0 - age / MARKER_SECONDS;
        let colour = if *attack { egui::Color32::from_rgb(240, 70, 60) } else { egui::Color32::from_rgb(240, 200, 60) };
        let r = 6.0 + 10.0 * age / MARKER_SECONDS;
        painter.circle_stroke(pos(p), r, egui::Stroke::new(2.0 * fade + 0.5, colour.gamma_multiply(fade)));
    }
    Ok(())
}

/// With one of the player's production buildings selected, a panel orders robots there:
/// one button per unit scheme the mission's robots were placed from (production decides
/// whether the building builds, research allows the scheme and the clan can pay).
pub(crate) fn build_panel(
    mut contexts: EguiContexts,
    selection: Res<Selection>,
    objects: Query<(&OriginalObjectId, &MissionObject, Has<Movable>)>,
    (board, options, clans): (Res<ProductionBoard>, Res<BuildOptions>, Option<Res<MissionClans>>),
    (mut player, mut designer): (ResMut<PlayerCommands>, ResMut<crate::designer::DesignerScreen>),
    (mut names, mut designs): (ResMut<SchemeNames>, ResMut<Designs>),
    (mut click, locale): (MessageWriter<InterfaceClick>, Res<crate::locale::Locale>),
) -> Result {
    let Some(building) = selection.first().filter(|_| selection.units.len() == 1) else { return Ok(()) };
    let is_producer = board.producers.contains_key(&building);
    if designer.is_open() || !is_producer || objects.iter().any(|(id, _, movable)| id.0 == building && movable) {
        return Ok(());
    }
    // What the player's clan can build in this mission's data (never the hero, an animal).
    let mine = options.clans.get(&player_clan(clans.as_deref())).map(Vec::as_slice).unwrap_or_default();
    let schemes: BTreeSet<String> = mine.iter().filter_map(|o| names.name(o.scheme).map(str::to_string)).collect();
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(locale.tr("build-title", &[("building", building.into())]))
        .id("build_panel".into())
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(q) = board.producers.get(&building) {
                if let Some(job) = &q.active {
                    let done = job.elapsed_ms as f32 / job.total_ms.max(1) as f32;
                    let design = designs.get(&job.scheme).and_then(|d| designer.recent.iter().find(|p| p.dat == d));
                    let name = match design {
                        Some(p) => p.name.clone(),
                        None if job.scheme.is_empty() => locale.t("build-robot"),
                        None => job.scheme.clone(),
                    };
                    ui.add(egui::ProgressBar::new(done).text(locale.tr("build-building", &[("name", name.into())])));
                }
                if !q.waiting.is_empty() {
                    ui.label(locale.tr("build-waiting", &[("count", q.waiting.len().into())]));
                }
            }
            let orders = (names.as_mut(), designs.as_mut());
            let busy =
                board.producers.get(&building).is_some_and(|q| q.batch || q.active.is_some() || !q.waiting.is_empty());
            if crate::designer::factory_rows(ui, (building, busy), &mut designer, orders, &mut player, &locale) {
                click.write(InterfaceClick);
            }
            ui.separator();
            for scheme in &schemes {
                let label = scheme.rsplit(['\\', '/']).next().unwrap_or(scheme);
                if ui.button(label).on_hover_text(scheme).clicked()
                    && let Ok(r) = names.intern(scheme)
                {
                    player.order(vec![building], Order::Build(r), false);
                    click.write(InterfaceClick);
                }
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::world::TerrainBuilder;

    #[test]
    fn a_click_meets_the_ground_under_the_cursor() {
        let terrain = TerrainBuilder::height_field(4, 4, 10.0, |x: f32, _| x * 0.5).unwrap();
        let ground = Ground::new(&terrain);
        // A ray straight down (Bevy −Y) over game (12, 7) meets the slope at z = 6.
        let ray = Ray3d::new(Vec3::from(to_bevy([12.0, 7.0, 100.0])), Dir3::NEG_Y);
        let p = ground_point(&ground, ray).expect("hits the ground");
        assert!((p[0] - 12.0).abs() < 1e-3 && (p[1] - 7.0).abs() < 1e-3 && (p[2] - 6.0).abs() < 1e-3, "{p:?}");
    }

    /// The object pick (`docs/42-selection.md`, read): the ray's line through a unit's
    /// whole sphere or 0.7 of a building's, centre ahead, the eye not inside; the centre
    /// nearest the eye wins, a tie the building.
    #[test]
    fn the_cursors_ray_picks_the_nearest_sphere_it_passes_a_buildings_shrunk_to_0_7() {
        let (eye, down) = (Vec3::new(0.0, 0.0, 100.0), Vec3::NEG_Z);
        let at = |x: f32, z: f32| Vec3::new(x, 0.0, z);
        // 8 off the line: inside a unit's sphere of 10, outside 0.7 of a building's.
        assert_eq!(pick(eye, down, [(1, at(8.0, 0.0), 10.0, false)].into_iter()), Some(1));
        assert_eq!(pick(eye, down, [(2, at(8.0, 0.0), 10.0, true)].into_iter()), None, "0.7 × 10 < 8");
        assert_eq!(pick(eye, down, [(2, at(6.0, 0.0), 10.0, true)].into_iter()), Some(2));
        // The nearer centre wins; behind the eye or around it, nothing.
        let both = [(5, at(0.0, 0.0), 3.0, false), (6, at(1.0, 40.0), 3.0, false)];
        assert_eq!(pick(eye, down, both.into_iter()), Some(6), "the higher is nearer the eye");
        assert_eq!(pick(eye, down, [(7, at(0.0, 120.0), 3.0, false)].into_iter()), None, "behind the eye");
        assert_eq!(pick(eye, down, [(8, at(0.0, 95.0), 10.0, false)].into_iter()), None, "the eye inside it");
        // A tie keeps the building, then the lower id.
        let tie = [(3, at(0.0, 0.0), 5.0, false), (4, at(0.0, 0.0), 5.0, true)];
        assert_eq!(pick(eye, down, tie.into_iter()), Some(4), "a tie keeps the building");
        let units = [(9, at(0.0, 0.0), 5.0, false), (2, at(0.0, 0.0), 5.0, false)];
        assert_eq!(pick(eye, down, units.into_iter()), Some(2));
    }

    #[test]
    fn an_objects_sphere_is_about_its_bounds_turned_and_scaled() {
        let at = SimTransform {
            position: [10.0, 0.0, 5.0],
            orientation: [0.0, 0.0, std::f32::consts::FRAC_PI_2],
            scale: [2.0; 3],
        };
        let bounds = ModelBounds { min: [0.0, -1.0, 0.0], max: [4.0, 1.0, 2.0] };
        let (c, r) = sphere(&at, Some(&bounds), 3.0);
        assert!(c.abs_diff_eq(Vec3::new(10.0, 4.0, 7.0), 1e-4), "{c}");
        assert!((r - Vec3::new(8.0, 4.0, 4.0).length() / 2.0).abs() < 1e-4);
        assert_eq!(sphere(&at, None, 3.0), (Vec3::new(10.0, 0.0, 8.0), 3.0), "no bounds: its collision radius");
    }

    #[test]
    fn a_command_views_right_click_does_the_first_that_applies() {
        assert_eq!(right_click(true, (true, false), true, true), RightClick::Band);
        assert_eq!(right_click(false, (true, true), true, true), RightClick::Units, "units before a building");
        assert_eq!(right_click(false, (false, true), false, true), RightClick::Building);
        assert_eq!(right_click(false, (false, false), true, true), RightClick::Page);
        assert_eq!(right_click(false, (false, false), false, true), RightClick::Map);
        assert_eq!(right_click(false, (false, false), false, false), RightClick::Nothing);
    }

    #[test]
    fn a_command_views_band_takes_a_press_held_over_0_35_s_and_10_pixels_each_way() {
        let start = Vec2::new(100.0, 100.0);
        assert!(band_selects(0.4, start, Vec2::new(140.0, 60.0)));
        assert!(!band_selects(0.3, start, Vec2::new(140.0, 60.0)), "a quicker drag is no band");
        assert!(!band_selects(0.4, start, Vec2::new(200.0, 109.0)), "under 10 down");
        assert!(!band_selects(0.4, start, Vec2::new(91.0, 300.0)), "under 10 across");
    }

    #[test]
    fn hostile_objects_are_attacked_anything_else_is_ground() {
        let mut relations = ClanRelations::uniform(vec![1, 1, 2], iron3d_core::relation::NEUTRAL);
        (relations.words[1][2], relations.words[2][1]) = (0, 0);
        assert_eq!(order_at(1, Some((7, 2)), &relations), Some(Order::Attack(7)));
        assert_eq!(order_at(1, Some((5, 1)), &relations), None, "an own unit: move there");
        assert_eq!(order_at(1, None, &relations), None);
    }

    #[test]
    fn a_right_click_on_an_own_mine_sends_the_selected_transports_to_haul() {
        let units = [(3, Some(UnitClass::TRANSPORT)), (4, Some(0x0100_8000)), (5, Some(UnitClass::TRANSPORT))];
        let own_mine = Some((9, 1, Some(UnitClass::MINE)));
        assert_eq!(haul_split(1, own_mine, &units), (Some((9, vec![3, 5])), vec![4]), "the others move there");
        assert_eq!(haul_split(2, own_mine, &units), (None, vec![3, 4, 5]), "another clan's mine");
        assert_eq!(haul_split(1, Some((9, 1, Some(0x8000_0010))), &units), (None, vec![3, 4, 5]), "not a mine");
        assert_eq!(haul_split(1, own_mine, &units[1..2]), (None, vec![4]), "no transport selected");
        assert_eq!(haul_split(1, None, &units), (None, vec![3, 4, 5]));
    }

    #[test]
    fn a_right_click_on_an_own_building_below_the_top_of_its_ladder_sends_the_selected_builders_to_upgrade_it() {
        let units = [(3, Some(UnitClass::BUILDER)), (4, Some(0x0100_8000))];
        assert_eq!(upgrade_split(1, Some((9, 1, true)), &units), (Some((9, vec![3])), vec![4]), "the others move");
        assert_eq!(upgrade_split(1, Some((9, 1, false)), &units), (None, vec![3, 4]), "at the top, or its sphere runs");
        assert_eq!(upgrade_split(1, Some((9, 2, true)), &units), (None, vec![3, 4]), "another clan's building");
        assert_eq!(upgrade_split(1, Some((9, 1, true)), &units[1..]), (None, vec![4]), "no builder selected");
    }

    #[test]
    fn a_formation_gives_each_unit_its_own_goal_around_the_point() {
        let goals = formation([100.0, 50.0], 4, 8.0);
        assert_eq!(goals, [[96.0, 46.0], [104.0, 46.0], [96.0, 54.0], [104.0, 54.0]]);
        assert_eq!(formation([1.0, 2.0], 1, 8.0), [[1.0, 2.0]]);
        let many = formation([0.0, 0.0], 10, 8.0);
        let distinct: BTreeSet<(i32, i32)> = many.iter().map(|g| (g[0] as i32, g[1] as i32)).collect();
        assert_eq!(distinct.len(), 10);
    }
}
