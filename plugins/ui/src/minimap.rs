//! The minimap: the mission's `Land.map` areals drawn once per mission (walkable
//! ground shaded by height, the rest dark), the objects on it the original marks (the
//! player's, and what his units' radars list: [`marked`]) in its mark colours
//! ([`crate::cockpit::mark_colour`]; a flyer a cross, any other unit a square
//! ([`mark_side`]), outlined white with a heading line when selected and the hero always
//! in green; buildings as squares), in the original's views at its
//! place, framed and tinted green, and the camera's view on the
//! ground. In the free view a left click moves the camera there and a right click sends
//! the selected units (the project's); in the original's views the map is drawn under the
//! game's own clicks, and in a command view the cursor's pick reads the map point and the
//! object the original takes there ([`map_object`], [`Minimap::point`]), so a click on the
//! map selects, sends, attacks or captures as one in the world does.

use crate::ScreenSystems;
use crate::cockpit::Pin;
use crate::cockpit::satellite::{self, MapLine};
use crate::command::{Battlefield, move_in_formation};
use crate::locale::Locale;
use crate::views::Views;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_assets::axes::{to_bevy, to_game};
use iron3d_camera::{CameraMode, GameCamera};
use iron3d_core::{AppState, Health, Movable, Owner, Radar, RadarContacts, SimTransform};
use iron3d_input::{PlayerCommands, Selection};
use iron3d_terrain::{Ground, NavMap};
use std::collections::BTreeSet;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Minimap>()
        .register_type::<Minimap>()
        .add_systems(EguiPrimaryContextPass, minimap.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame))
        .add_systems(Update, toggle.run_if(in_state(AppState::InGame)))
        .add_systems(OnEnter(AppState::InGame), closed_in_views.after(crate::hero::on_foot));
}

/// A mission opening in the original's views opens with the satellite map closed, as
/// the original's does; the free strategic view keeps the minimap up (the project's).
fn closed_in_views(views: Res<crate::views::Views>, mut minimap: ResMut<Minimap>) {
    minimap.hidden = !views.0.is_empty();
}

/// `CMD_JAMES_SATELLITE_MAP` (M): shows or hides the satellite map, as the commander
/// panel's map button does.
fn toggle(actions: Query<&iron3d_input::Actions>, mut minimap: ResMut<Minimap>) {
    if actions.single().is_ok_and(|a| a.just_pressed(&iron3d_input::GameAction::SatelliteMap)) {
        minimap.hidden = !minimap.hidden;
    }
}

/// Side of the minimap image in pixels.
pub const SIZE: usize = 160;

/// The drawn map of the current mission.
#[derive(Resource, Default, Reflect)]
#[reflect(Resource)]
pub struct Minimap {
    /// Game-space XY of the image's corners (min, max).
    pub bounds: Option<([f32; 2], [f32; 2])>,
    /// Closed by the commander panel's map button.
    pub hidden: bool,
    /// The image (none until the mission's map is drawn).
    #[reflect(ignore)]
    pub texture: Option<egui::TextureHandle>,
    /// Where the map stands in the original's views as last drawn: its frame's and its
    /// picture's rectangles on the window (x₀, y₀, x₁, y₁ in logical pixels, as the
    /// cursor's); none while it is hidden or in the free view.
    pub place: Option<[[f32; 4]; 2]>,
    /// The objects it marks for the player, as last drawn ([`marked`]).
    pub marks: BTreeSet<u32>,
}

/// What a point of the window is on the satellite map (openparkan `docs/42-selection.md`,
/// "What it looks at", read).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MapPoint {
    /// Off the map, or the map is not up in the original's views: the world's pick.
    Off,
    /// On its frame: the pick answers nothing.
    Frame,
    /// On its picture: this world point (game XY).
    At([f32; 2]),
}

impl Minimap {
    /// What the window point `p` is on the map.
    pub fn point(&self, p: Vec2) -> MapPoint {
        let inside = |[x0, y0, x1, y1]: [f32; 4]| (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y);
        match self.place {
            Some([_, picture]) if inside(picture) => self.world(p).map_or(MapPoint::Off, MapPoint::At),
            Some([frame, _]) if inside(frame) => MapPoint::Frame,
            _ => MapPoint::Off,
        }
    }

    /// The world point (game XY) the window point `p` stands for on the map's picture, on
    /// it or beyond it (a band's corners, read: `0x10074110`), while the map is up in the
    /// original's views.
    pub fn world(&self, p: Vec2) -> Option<[f32; 2]> {
        Some(unmap(self.place?[1], self.bounds?, p))
    }
}

/// The world point (game XY) of the window point `p` on a map picture `[x₀, y₀, x₁, y₁]`
/// showing `lo..hi`, north up.
fn unmap([x0, y0, x1, y1]: [f32; 4], (lo, hi): ([f32; 2], [f32; 2]), p: Vec2) -> [f32; 2] {
    [lo[0] + (p.x - x0) / (x1 - x0) * (hi[0] - lo[0]), hi[1] - (p.y - y0) / (y1 - y0) * (hi[1] - lo[1])]
}

/// A unit within this distance of the map point is the map's pick (read).
pub const MAP_PICK_UNIT: f32 = 40.0;
/// Else a building within this distance (read).
pub const MAP_PICK_BUILDING: f32 = 80.0;

/// The object the satellite map's pick takes at `at` (openparkan `docs/42-selection.md`,
/// read, `0x10072b70`, `0x100728e0`, `0x1007e660`): the first live unit within
/// [`MAP_PICK_UNIT`], else the first live building within [`MAP_PICK_BUILDING`], in the
/// list's order and not by distance; the one found is dropped unless `known` holds it
/// (the player's own, or listed by his units' radars: [`marked`]). `objects` are (id,
/// place, a building), live, in the original's list order: the project keeps its
/// objects' ids for that order.
pub fn map_object(at: [f32; 2], objects: &[(u32, [f32; 2], bool)], known: &BTreeSet<u32>) -> Option<u32> {
    let first = |building: bool, within: f32| {
        let near = |p: [f32; 2]| (p[0] - at[0]).hypot(p[1] - at[1]) <= within;
        objects.iter().find(|o| o.2 == building && near(o.1)).map(|o| o.0)
    };
    first(false, MAP_PICK_UNIT).or_else(|| first(true, MAP_PICK_BUILDING)).filter(|id| known.contains(id))
}

/// The XY extent of every areal.
pub fn extent(nav: &NavMap) -> Option<([f32; 2], [f32; 2])> {
    let map = nav.map()?;
    let points = map.areals.iter().flat_map(|a| a.vertices.iter());
    let (lo, hi) = points.fold(([f32::MAX; 2], [f32::MIN; 2]), |(lo, hi), v| {
        ([lo[0].min(v[0]), lo[1].min(v[1])], [hi[0].max(v[0]), hi[1].max(v[1])])
    });
    (lo[0] < hi[0] && lo[1] < hi[1]).then_some((lo, hi))
}

/// The map image: `SIZE`² RGBA, north (game +Y) up.
pub fn paint(nav: &NavMap, ground: Option<&Ground>, (lo, hi): ([f32; 2], [f32; 2])) -> Vec<u8> {
    let mut rgba = Vec::with_capacity(SIZE * SIZE * 4);
    let (mut zmin, mut zmax) = (f32::MAX, f32::MIN);
    let at = |px: usize, py: usize| {
        let x = lo[0] + (px as f32 + 0.5) / SIZE as f32 * (hi[0] - lo[0]);
        let y = hi[1] - (py as f32 + 0.5) / SIZE as f32 * (hi[1] - lo[1]);
        (x, y)
    };
    let heights: Vec<Option<f32>> = (0..SIZE * SIZE)
        .map(|i| {
            let (x, y) = at(i % SIZE, i / SIZE);
            let z = ground.and_then(|g| g.height_at(x, y));
            if let Some(z) = z {
                (zmin, zmax) = (zmin.min(z), zmax.max(z));
            }
            z
        })
        .collect();
    for (i, z) in heights.iter().enumerate() {
        let (x, y) = at(i % SIZE, i / SIZE);
        let shade = z.map_or(0.5, |z| if zmax > zmin { (z - zmin) / (zmax - zmin) } else { 0.5 });
        let c = if nav.walkable(x, y) {
            [(70.0 + 90.0 * shade) as u8, (90.0 + 90.0 * shade) as u8, (50.0 + 50.0 * shade) as u8, 235]
        } else {
            [(25.0 + 40.0 * shade) as u8, (25.0 + 40.0 * shade) as u8, (30.0 + 40.0 * shade) as u8, 235]
        };
        rgba.extend_from_slice(&c);
    }
    rgba
}

/// Where a camera view ray meets the horizontal plane at height `z` (game space).
fn on_plane(ray: Ray3d, z: f32) -> Option<[f32; 2]> {
    let (o, d) = (to_game(ray.origin.into()), to_game((*ray.direction).into()));
    let t = (z - o[2]) / d[2];
    (d[2].abs() > 1e-4 && t > 0.0).then(|| [o[0] + d[0] * t, o[1] + d[1] * t])
}

/// A unit as the satellite map's marks see it: its clan, its place, its radar's range and
/// its radar's last list.
pub type Watcher<'a> = (i32, [f32; 2], Option<f32>, Option<&'a [u32]>);

/// What the satellite map marks (openparkan `docs/35-hud.md`, "Which get a mark", read):
/// the objects of the player's clan `mine`, and every object on the contact list of one
/// of its units this frame. A unit without the radar's list lists what lies within its
/// radar's range across the ground (the project's rule, as for the AI). `objects` are
/// (id, clan, place).
pub fn marked(mine: i32, objects: &[(u32, i32, [f32; 2])], units: &[Watcher]) -> BTreeSet<u32> {
    let mut out: BTreeSet<u32> = objects.iter().filter(|o| o.1 == mine).map(|o| o.0).collect();
    for (clan, at, range, list) in units.iter().filter(|u| u.0 == mine) {
        match (list, range) {
            (Some(list), _) => out.extend(list.iter().copied()),
            (None, Some(r)) => {
                let near = |p: [f32; 2]| (p[0] - at[0]).hypot(p[1] - at[1]) <= *r;
                out.extend(objects.iter().filter(|o| o.1 != *clan && near(o.2)).map(|o| o.0));
            }
            (None, None) => {}
        }
    }
    out
}

/// Where the satellite map stands in the original's views: (374, 0)–(640, 266) over a
/// driven unit, (374, 63)–(640, 329) in the others (read); the map itself 5 in.
fn original_place(views: &Views) -> Option<[f32; 4]> {
    match views.front()? {
        view if view.driven().is_some() => Some([374.0, 0.0, 640.0, 266.0]),
        _ => Some([374.0, 63.0, 640.0, 329.0]),
    }
}

type Watchers<'w, 's> = Query<
    'w,
    's,
    (&'static Owner, &'static SimTransform, Option<&'static Radar>, Option<&'static RadarContacts>),
    With<Movable>,
>;

/// What the map reads of an object besides its place: its name, order and chassis.
type Details<'w, 's> = Query<
    'w,
    's,
    (&'static Name, Option<&'static iron3d_behavior::Navigator>, Option<&'static iron3d_core::ChassisType>),
>;

/// The side of a unit's mark on the satellite map in screen pixels, `scale` of them to a
/// layout unit (read, `0x10077690`): a flyer's cross 4 a side, rounded and made even (up,
/// the project's reading of "made even"), anything else's square 3 a side, rounded.
pub fn mark_side(flyer: bool, scale: f32) -> f32 {
    match flyer {
        true => {
            let side = (4.0 * scale).round();
            if side % 2.0 == 1.0 { side + 1.0 } else { side }
        }
        false => (3.0 * scale).round(),
    }
}

/// How far beyond a unit's mark its outline stands: 2 pixels before it, 2 past a cross
/// and 1 past a square (read).
pub fn outline_reach(flyer: bool) -> [f32; 2] {
    [2.0, if flyer { 2.0 } else { 1.0 }]
}

/// A unit's mark at `p` (read): a flyer a cross, anything else a square, of
/// [`mark_side`]; outlined in `outline` with a line 1.8 × its side along `forward` (the
/// screen's direction of its heading) when it is selected, or the hero.
fn unit_mark(
    painter: &egui::Painter,
    (p, forward): (egui::Pos2, egui::Vec2),
    (flyer, scale): (bool, f32),
    colour: egui::Color32,
    outline: Option<egui::Color32>,
) {
    let side = mark_side(flyer, scale);
    let half = side / 2.0;
    if flyer {
        let stroke = egui::Stroke::new(1.0, colour);
        painter.line_segment([p - egui::vec2(half, 0.0), p + egui::vec2(half, 0.0)], stroke);
        painter.line_segment([p - egui::vec2(0.0, half), p + egui::vec2(0.0, half)], stroke);
    } else {
        painter.rect_filled(egui::Rect::from_min_size(p - egui::vec2(half, half), egui::vec2(side, side)), 0.0, colour);
    }
    let Some(outline) = outline else { return };
    let [before, after] = outline_reach(flyer);
    let min = p - egui::vec2(half + before, half + before);
    let max = p + egui::vec2(half + after, half + after);
    let stroke = egui::Stroke::new(1.0, outline);
    painter.rect_stroke(egui::Rect::from_min_max(min, max), 0.0, stroke, egui::StrokeKind::Middle);
    painter.line_segment([p, p + forward * 1.8 * side], stroke);
}

/// The line under the commander's map for object `(id, clan)`: its name, a unit's with
/// its head order's status (`"%s [%s]"`, read), over its life, in its clan's colour.
fn map_line(scene: &Battlefield, details: &Details, (id, clan): (u32, i32), locale: &Locale) -> Option<MapLine> {
    let object = scene.object(id)?;
    let (name, navigator, _) = details.get(scene.entity(id)?).ok()?;
    let text = match object.3 {
        true => format!("{name} [{}]", crate::hud::describe(navigator.map(|n| n.order), None, locale)),
        false => name.to_string(),
    };
    let mine = scene.player();
    let word = (clan != mine).then(|| scene.relations.word(mine, clan)).flatten();
    Some(MapLine { text, life: object.5.map_or(1.0, Health::share), clan: satellite::line_colour(word) })
}

/// Draws the minimap and takes its clicks.
#[allow(clippy::too_many_arguments, reason = "the map shows the scene and orders the selection")]
pub(crate) fn minimap(
    mut contexts: EguiContexts,
    mut minimap: ResMut<Minimap>,
    nav: Option<Res<NavMap>>,
    scene: Battlefield,
    (watchers, views, mut art): (Watchers, Res<Views>, ResMut<crate::cockpit::CockpitArt>),
    (details, locale): (Details, Res<Locale>),
    mut cameras: Query<&mut GameCamera>,
    (selection, mut player): (Res<Selection>, ResMut<PlayerCommands>),
) -> Result {
    let ground = &scene.ground;
    let ctx = contexts.ctx_mut()?;
    let Some(nav) = nav else { return Ok(()) };
    if minimap.bounds.is_none() {
        let Some(bounds) = extent(&nav) else { return Ok(()) };
        let image = egui::ColorImage::from_rgba_unmultiplied([SIZE, SIZE], &paint(&nav, ground.as_deref(), bounds));
        minimap.texture = Some(ctx.load_texture("minimap", image, egui::TextureOptions::LINEAR));
        minimap.bounds = Some(bounds);
    }
    let (Some((lo, hi)), Some(texture)) = (minimap.bounds, minimap.texture.clone()) else { return Ok(()) };
    if minimap.hidden {
        minimap.place = None;
        return Ok(());
    }
    let mine = scene.player();
    let objects: Vec<(u32, i32, [f32; 2])> =
        scene.objects.iter().map(|(id, t, owner, ..)| (id.0, owner.clan, [t.position[0], t.position[1]])).collect();
    let units: Vec<Watcher> = watchers
        .iter()
        .map(|(o, t, radar, list)| {
            (o.clan, [t.position[0], t.position[1]], radar.map(|r| r.range), list.map(|l| &l.0[..]))
        })
        .collect();
    minimap.marks = marked(mine, &objects, &units);
    // In the original's views: its place and frame, the map tinted green at half alpha
    // (`MAP_ALPHA` 128 over `#37ff37`, read), drawn under the game's own clicks; in the
    // free view, iron3d's corner, taking its own clicks.
    let layout = crate::cockpit::Layout { screen: ctx.content_rect() };
    let (rect, painter, response) = match original_place(&views) {
        Some(place @ [x0, y0, x1, y1]) => {
            let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("map frame")));
            let on_window = |[x0, y0, x1, y1]: [f32; 4]| {
                let [a, b] = [[x0, y0], [x1, y1]].map(|p| layout.point(p, Pin::TOP_RIGHT));
                egui::Rect::from_two_pos(a, b)
            };
            let picture = [x0 + 5.0, y0 + 5.0, x1 - 5.0, y1 - 5.0];
            let mut ink = crate::cockpit::Ink { layout, pin: Pin::TOP_RIGHT, painter: &painter };
            ink.image(texture.id(), picture, egui::Color32::from_rgba_unmultiplied(0x37, 0xff, 0x37, 128));
            let art = art.art(ctx);
            crate::cockpit::frame(&ink, art, place, None);
            satellite::compass(&mut ink, art, place);
            let (frame, rect) = (on_window(place), on_window(picture));
            // On the window in logical pixels: egui's points times its zoom (the UI scale).
            let zoom = ctx.zoom_factor();
            minimap.place = Some([frame, rect].map(|r| [r.min.x, r.min.y, r.max.x, r.max.y].map(|v| v * zoom)));
            if views.commanding() {
                satellite::title_bar(&mut ink, art, &locale.t("commander-map"));
                let under = ctx.pointer_hover_pos().and_then(|p| match minimap.point(Vec2::new(p.x, p.y) * zoom) {
                    MapPoint::At(at) => scene.picked_on_map(at, &minimap.marks),
                    _ => None,
                });
                satellite::line(&mut ink, art, under.and_then(|u| map_line(&scene, &details, u, &locale)).as_ref());
                let exit = on_window(satellite::EXIT);
                let closed = egui::Area::new("map exit".into())
                    .fixed_pos(exit.min)
                    .show(ctx, |ui| ui.allocate_exact_size(exit.size(), egui::Sense::click()).1.clicked())
                    .inner;
                minimap.hidden |= closed;
            }
            (rect, painter.with_clip_rect(rect), None)
        }
        None => {
            minimap.place = None;
            let area = egui::Area::new("minimap".into()).anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]);
            let image = egui::Image::new((texture.id(), egui::Vec2::splat(SIZE as f32 * 1.25)));
            let response = area.show(ctx, |ui| ui.add(image.sense(egui::Sense::click()))).inner;
            let painter = ctx.layer_painter(response.layer_id).with_clip_rect(response.rect);
            (response.rect, painter, Some(response))
        }
    };
    let to_screen = |p: [f32; 2]| {
        egui::pos2(
            rect.left() + (p[0] - lo[0]) / (hi[0] - lo[0]) * rect.width(),
            rect.top() + (hi[1] - p[1]) / (hi[1] - lo[1]) * rect.height(),
        )
    };
    // The marks (read): a unit's by its kind, outlined white when selected and the hero
    // always in green; a building's square white when selected (the original's icons of
    // the `icons` page are not drawn: the project's square).
    let scale = if views.front().is_some() { layout.scale() } else { 1.0 };
    for (id, t, owner, movable, ..) in scene.objects.iter().filter(|o| minimap.marks.contains(&o.0.0)) {
        let selected = selection.units.contains(&id.0);
        let clan = crate::cockpit::mark_colour(&scene.relations, mine, owner.clan);
        let p = to_screen([t.position[0], t.position[1]]);
        if !movable {
            let colour = if selected { egui::Color32::WHITE } else { clan };
            painter.rect_filled(egui::Rect::from_center_size(p, egui::vec2(4.0, 4.0)), 0.0, colour);
            continue;
        }
        let chassis = scene.entity(id.0).and_then(|e| details.get(e).ok()).and_then(|d| d.2);
        let flyer = chassis.is_some_and(|c| c.flies());
        let hero = scene.class_of(id.0) == Some(iron3d_core::UnitClass::HERO) && !flyer;
        let outline = match (selected, hero) {
            (true, _) => Some(egui::Color32::WHITE),
            (false, true) => Some(egui::Color32::from_rgb(0, 255, 0)),
            (false, false) => None,
        };
        let h = t.heading();
        let forward = egui::vec2(h.cos(), -h.sin());
        unit_mark(&painter, (p, forward), (flyer, scale), clan, outline);
    }
    if let Some((camera, at)) = scene.camera()
        && let Some(size) = camera.logical_viewport_size()
    {
        let z = ground.as_ref().and_then(|g| {
            let f = to_game(at.translation().into());
            g.height_at(f[0], f[1])
        });
        let corners = [Vec2::ZERO, Vec2::new(size.x, 0.0), size, Vec2::new(0.0, size.y)];
        let ground_corners: Vec<egui::Pos2> = corners
            .iter()
            .filter_map(|c| camera.viewport_to_world(at, *c).ok())
            .filter_map(|ray| on_plane(ray, z.unwrap_or(0.0)))
            .map(to_screen)
            .collect();
        if ground_corners.len() == 4 {
            let stroke = egui::Stroke::new(1.0, egui::Color32::WHITE);
            painter.add(egui::Shape::closed_line(ground_corners, stroke));
        }
    }
    // The free view's own clicks (the project's): the camera there, the selection sent.
    if let Some(response) = response
        && let Some(click) = response.interact_pointer_pos()
    {
        let target = unmap([rect.min.x, rect.min.y, rect.max.x, rect.max.y], (lo, hi), Vec2::new(click.x, click.y));
        if response.clicked() {
            let z = ground.as_ref().and_then(|g| g.height_at(target[0], target[1])).unwrap_or(0.0);
            for mut cam in &mut cameras {
                if cam.mode != CameraMode::Rts {
                    cam.switch(CameraMode::Rts);
                }
                cam.focus = Vec3::from(to_bevy([target[0], target[1], z]));
            }
        } else if response.secondary_clicked() {
            move_in_formation(&mut player, &scene.own_units(&selection.units), target, false);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The player's objects are marked, and what his units' radars list; a unit without
    /// the radar's list lists what lies within its range; other clans' radars mark
    /// nothing for him.
    #[test]
    fn the_map_marks_the_players_objects_and_what_his_units_radars_list() {
        let objects =
            [(1, 1, [0.0, 0.0]), (2, 2, [50.0, 0.0]), (3, 2, [500.0, 0.0]), (4, 2, [900.0, 0.0]), (5, 3, [0.0, 90.0])];
        let listed = [3u32];
        let units: Vec<Watcher> = vec![
            (1, [0.0, 0.0], Some(100.0), None),
            (1, [480.0, 0.0], Some(300.0), Some(&listed)),
            (2, [900.0, 0.0], Some(1000.0), None),
        ];
        assert_eq!(marked(1, &objects, &units), BTreeSet::from([1, 2, 3, 5]));
        assert_eq!(marked(1, &objects, &[]), BTreeSet::from([1]), "without units only his own");
    }

    /// The map's pick takes the first unit within 40 in the list's order (not the
    /// nearest), else the first building within 80, and drops one the player does not
    /// know rather than look further.
    #[test]
    fn the_maps_pick_is_the_first_unit_within_40_else_the_first_building_within_80_the_player_knows() {
        let objects = [(3, [0.0, 35.0], false), (5, [0.0, 5.0], false), (7, [60.0, 0.0], true), (9, [0.0, 0.0], true)];
        let known = BTreeSet::from([3, 5, 7, 9]);
        assert_eq!(map_object([0.0, 0.0], &objects, &known), Some(3), "the list's first unit, not the nearest");
        assert_eq!(map_object([0.0, -30.0], &objects, &known), Some(5), "the only unit within 40");
        assert_eq!(map_object([-20.0, -50.0], &objects, &known), Some(9), "no unit: the first building within 80");
        assert_eq!(map_object([100.0, -50.0], &objects, &known), Some(7));
        assert_eq!(map_object([300.0, 0.0], &objects, &known), None, "nothing near");
        let unknown = BTreeSet::from([5, 7, 9]);
        assert_eq!(
            map_object([0.0, 0.0], &objects, &unknown),
            None,
            "the first found is dropped, none sought after it"
        );
    }

    /// The picture answers its world point, its frame nothing, the rest the world's pick;
    /// a point beyond the picture still has its world point (a band's corner).
    #[test]
    fn a_window_point_on_the_maps_picture_stands_for_a_world_point_on_its_frame_for_none() {
        let mut map = Minimap { bounds: Some(([0.0, 0.0], [1000.0, 500.0])), ..default() };
        assert_eq!(map.point(Vec2::new(500.0, 150.0)), MapPoint::Off, "not up in the original's views");
        map.place = Some([[374.0, 63.0, 640.0, 329.0], [379.0, 68.0, 635.0, 324.0]]);
        assert_eq!(map.point(Vec2::new(379.0, 68.0)), MapPoint::At([0.0, 500.0]), "north-west");
        assert_eq!(map.point(Vec2::new(507.0, 196.0)), MapPoint::At([500.0, 250.0]));
        assert_eq!(map.point(Vec2::new(376.0, 100.0)), MapPoint::Frame);
        assert_eq!(map.point(Vec2::new(300.0, 100.0)), MapPoint::Off);
        assert_eq!(map.world(Vec2::new(763.0, 196.0)), Some([1500.0, 250.0]), "beyond it");
    }

    /// A flyer's cross is 4 a side at the layout's scale, made even; any other unit's
    /// square 3, rounded; the outline stands 2 before either, 2 past a cross, 1 past a
    /// square.
    #[test]
    fn a_units_mark_is_a_cross_for_a_flyer_and_a_square_for_the_rest() {
        assert_eq!([1.0, 1.5, 1.3].map(|s| mark_side(true, s)), [4.0, 6.0, 6.0]);
        assert_eq!([1.0, 1.5, 2.0].map(|s| mark_side(false, s)), [3.0, 5.0, 6.0]);
        assert_eq!((outline_reach(true), outline_reach(false)), ([2.0, 2.0], [2.0, 1.0]));
    }

    #[test]
    fn the_satellite_map_key_hides_and_shows_it() {
        let mut app = App::new();
        app.init_resource::<Minimap>().add_systems(Update, toggle);
        let player = app.world_mut().spawn(iron3d_input::Actions::default()).id();
        let press = |app: &mut App| {
            iron3d_input::testing::tap(app, player, iron3d_input::GameAction::SatelliteMap);
            app.world().resource::<Minimap>().hidden
        };
        assert!(press(&mut app), "hidden");
        assert!(!press(&mut app), "shown again");
    }

    #[test]
    fn the_map_covers_the_areals_and_shows_where_units_cannot_go() {
        let mut world = World::new();
        // 4 × 4 areals of 10 units; the one at column 3, row 0 (south-east) is missing.
        iron3d_sim::testing::publish_map(&mut world, 4, 10.0, |x, _| x * 0.1, |i, j| (i, j) == (3, 0)).unwrap();
        let nav = world.resource::<NavMap>();
        let bounds = extent(nav).unwrap();
        assert_eq!(bounds, ([0.0, 0.0], [40.0, 40.0]));
        let rgba = paint(nav, world.get_resource::<Ground>(), bounds);
        assert_eq!(rgba.len(), SIZE * SIZE * 4);
        let pixel = |x: usize, y: usize| {
            let i = (y * SIZE + x) * 4;
            u32::from(rgba[i]) + u32::from(rgba[i + 1]) + u32::from(rgba[i + 2])
        };
        // North is up: the missing areal is in the bottom-right corner, drawn dark.
        let (hole, ground) = (pixel(SIZE - 5, SIZE - 5), pixel(SIZE - 5, 5));
        assert!(hole * 2 < ground, "the hole ({hole}) is darker than walkable ground ({ground})");
        assert!(pixel(SIZE - 25, 5) > pixel(5, 5), "higher ground (east) is lighter");
    }
}
