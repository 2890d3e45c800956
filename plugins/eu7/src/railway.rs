//! The railway's logic made visible, and a ride. Memory cells (those with bounds; the
//! others have no position, docs/reference/eu7.md addendum), launchers, events (at the launchers that
//! fire them), sounds, power sources and trainsets (on their track at their offset) get
//! coloured post markers; a left click on one opens the inspector with its decoded record
//! (string ids resolved). `R` starts or stops a ride on the track nearest to the camera:
//! the camera sits at the driver's seat and follows the track's Bézier paths through the
//! network ([`crate::ride`]) at a speed set with `+`/`-`.

use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_eu7::ChunkBody;
use iron3d_eu7::include::PlacedModule;

use crate::LoadedScenery;
use crate::data::text;
use crate::ride::{Network, RidePosition};
use crate::scene::Frame;
use crate::streaming::StreamFocus;
use crate::terrain::TerrainHeights;

/// Markers, the inspector and the ride.
#[derive(Debug, Clone, Copy, Default)]
pub struct RailwayPlugin;

/// Driver's eye height above the rail, in metres.
pub const SEAT_HEIGHT: f32 = 3.2;

/// What a marker stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Reflect)]
pub enum MarkerKind {
    /// `MEMC`.
    MemoryCell,
    /// `LAUN`.
    Launcher,
    /// `EVNT` (at a launcher firing it).
    Event,
    /// `SOND`.
    Sound,
    /// `PWRS`.
    PowerSource,
    /// `TRSE`.
    Trainset,
}

impl MarkerKind {
    fn color(self) -> Color {
        match self {
            Self::MemoryCell => Color::srgb(0.2, 0.9, 0.9),
            Self::Launcher => Color::srgb(1.0, 0.85, 0.1),
            Self::Event => Color::srgb(1.0, 0.3, 0.3),
            Self::Sound => Color::srgb(0.6, 0.4, 1.0),
            Self::PowerSource => Color::srgb(1.0, 0.5, 0.0),
            Self::Trainset => Color::srgb(0.2, 1.0, 0.3),
        }
    }
}

/// A clickable marker: its kind and decoded record.
#[derive(Component, Reflect, Debug, Clone)]
#[reflect(Component)]
pub struct Marker {
    /// Kind.
    pub kind: MarkerKind,
    /// Title (kind and name).
    pub title: String,
    /// The decoded record, string ids shown as their text.
    pub record: String,
}

/// The selected marker.
#[derive(Resource, Default)]
pub struct Inspector {
    /// Selected marker entity.
    pub selected: Option<Entity>,
}

/// The track network the ride follows.
#[derive(Resource, Default)]
pub struct RideNetwork(pub Network);

/// On the camera while it rides.
#[derive(Component, Debug, Clone, Copy)]
pub struct Ride {
    /// Where on the network.
    pub at: RidePosition,
    /// Speed in m/s.
    pub speed: f32,
    /// False once a dead end was reached.
    pub moving: bool,
}

impl Plugin for RailwayPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<Marker>()
            .init_resource::<Inspector>()
            .init_resource::<RideNetwork>()
            .add_systems(Startup, spawn_markers)
            .add_systems(
                Update,
                (toggle_ride, ride).chain().before(crate::streaming::StreamingSystems).after(crate::camera::fly),
            )
            .add_systems(Update, pick_marker)
            .add_systems(EguiPrimaryContextPass, inspector_panel);
    }
}

/// A record's `Debug` text with every string id shown as the quoted string of `m`'s
/// table (out of range: kept as it is).
pub fn record_text(record: &impl std::fmt::Debug, m: &PlacedModule) -> String {
    let strings = m.strings.len();
    replace_sids(&format!("{record:#?}"), |n| {
        ((n as usize) < strings).then(|| format!("{:?}", text(m.string(iron3d_eu7::Sid(n)))))
    })
}

/// `raw` with every `Sid(n)` (also as `{:#?}` spreads it: `Sid(\n    n,\n)`) replaced
/// by `name(n)` where that gives a name.
fn replace_sids(raw: &str, name: impl Fn(u32) -> Option<String>) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find("Sid(") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 4..];
        let inner = after.trim_start();
        let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
        let close = inner[digits..].trim_start().strip_prefix(',').unwrap_or(&inner[digits..]).trim_start();
        match (inner[..digits].parse::<u32>().ok().and_then(&name), close.strip_prefix(')')) {
            (Some(shown), Some(tail)) => {
                out.push_str(&shown);
                rest = tail;
            }
            _ => {
                out.push_str("Sid(");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn spawn_markers(
    mut commands: Commands,
    scenery: Res<LoadedScenery>,
    mut network: ResMut<RideNetwork>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(data) = &scenery.data else { return };
    network.0 = Network::new(data.world_tracks());
    let mut markers: Vec<([f32; 3], Marker)> = Vec::new();
    let mut on_tracks: Vec<([f32; 3], Marker)> = Vec::new();
    for m in &data.tree.modules {
        let frame = Frame(m.transform);
        let mut add = |at: [f32; 3], kind: MarkerKind, name: &[u8], record: String| {
            let title = format!("{kind:?} {}", text(name));
            markers.push((frame.point(at), Marker { kind, title, record }));
        };
        let mut launchers = Vec::new();
        for c in &m.module.chunks {
            match &c.body {
                ChunkBody::Memc(v) => v
                    .iter()
                    .filter(|r| r.node.flags & iron3d_eu7::node::flags::BOUNDS != 0)
                    .for_each(|r| add(r.node.center, MarkerKind::MemoryCell, m.string(r.node.name), record_text(r, m))),
                ChunkBody::Laun(v) => v.iter().for_each(|r| {
                    launchers.push((r.location, r.event1_name, r.event2_name));
                    add(r.location, MarkerKind::Launcher, m.string(r.node.name), record_text(r, m));
                }),
                ChunkBody::Sond(v) => {
                    v.iter().for_each(|r| add(r.location, MarkerKind::Sound, m.string(r.wav_file), record_text(r, m)))
                }
                ChunkBody::Pwrs(v) => v
                    .iter()
                    .for_each(|r| add(r.position, MarkerKind::PowerSource, m.string(r.node.name), record_text(r, m))),
                _ => {}
            }
        }
        for c in &m.module.chunks {
            match &c.body {
                ChunkBody::Evnt(v) => {
                    for r in v {
                        let fired_at = launchers.iter().find(|l| l.1 == r.name || l.2 == r.name).map(|l| l.0);
                        if let Some(at) = fired_at {
                            add([at[0], at[1] + 4.0, at[2]], MarkerKind::Event, m.string(r.name), record_text(r, m));
                        }
                    }
                }
                ChunkBody::Trse(v) => {
                    for r in v {
                        let name = m.string(r.track);
                        let Some(track) = network.0.tracks.iter().position(|t| t.name.as_bytes() == name) else {
                            continue;
                        };
                        let Some(mut at) = network.0.start(track) else { continue };
                        network.0.advance(&mut at, r.offset.max(0.0));
                        if let Some((p, _)) = network.0.pose(&at) {
                            // The network is in world space already.
                            let title = format!("Trainset {}", text(m.string(r.name)));
                            on_tracks
                                .push((p, Marker { kind: MarkerKind::Trainset, title, record: record_text(r, m) }));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    markers.extend(on_tracks);
    let post = meshes.add(Mesh::from(Cuboid::new(0.8, 3.0, 0.8)).translated_by(Vec3::Y * 1.5));
    let mut by_kind = std::collections::BTreeMap::new();
    for (at, marker) in markers {
        let material = by_kind
            .entry(marker.kind)
            .or_insert_with(|| {
                materials.add(StandardMaterial { base_color: marker.kind.color(), unlit: true, ..default() })
            })
            .clone();
        commands.spawn((
            Name::new(marker.title.clone()),
            marker,
            Mesh3d(post.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(Vec3::from_array(at)),
        ));
    }
}

/// Left click: the marker nearest to the cursor within 16 pixels is selected.
#[allow(clippy::too_many_arguments, reason = "one system: the input and queries it reads")]
fn pick_marker(
    mut moved: MessageReader<CursorMoved>,
    mut last: Local<Option<Vec2>>,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<crate::camera::FlyCamera>>,
    markers: Query<(Entity, &GlobalTransform), With<Marker>>,
    mut inspector: ResMut<Inspector>,
    mut egui: EguiContexts,
) {
    if let Some(m) = moved.read().last() {
        *last = Some(m.position);
    }
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    if egui.ctx_mut().is_ok_and(|c| c.egui_wants_pointer_input()) {
        return;
    }
    // The last pointer message first: the window's own position can lag a synthetic
    // pointer (the developer's `--click`) or stay where the system pointer rests.
    let (Some(cursor), Some((camera, cam_t))) =
        ((*last).or_else(|| window.iter().next().and_then(Window::cursor_position)), cameras.iter().next())
    else {
        return;
    };
    inspector.selected = markers
        .iter()
        .filter_map(|(e, t)| {
            let at = camera.world_to_viewport(cam_t, t.translation() + Vec3::Y * 1.5).ok()?;
            let d = at.distance(cursor);
            (d < 16.0).then_some((d, e))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
}

fn inspector_panel(
    mut egui: EguiContexts,
    inspector: Res<Inspector>,
    markers: Query<&Marker>,
    rides: Query<&Ride>,
    network: Res<RideNetwork>,
) -> Result {
    let ctx = egui.ctx_mut()?;
    if let Some(r) = rides.iter().next() {
        let name = network.0.tracks.get(r.at.track).map_or("", |t| t.name.as_str());
        egui::Window::new("Ride").anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0]).show(ctx, |ui| {
            ui.label(format!("track {name} path {} at {:.0} m", r.at.path, r.at.s));
            ui.label(format!(
                "{:.0} km/h{}  (+/- speed, R stops)",
                r.speed * 3.6,
                if r.moving { "" } else { ", end of line" }
            ));
            if let Some((k, d)) = network.0.next_switch(&r.at, SWITCH_REACH) {
                let paths = network.0.tracks.get(k).map_or(0, |t| t.paths.len());
                let state = network.0.switch_state.get(k).copied().unwrap_or(0);
                let name = network.0.tracks.get(k).map_or("", |t| t.name.as_str());
                ui.label(format!("switch {name} in {d:.0} m: path {} of {paths}  (T throws it)", state + 1));
            }
        });
    }
    let Some(m) = inspector.selected.and_then(|e| markers.get(e).ok()) else { return Ok(()) };
    egui::Window::new("Inspector").anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]).show(ctx, |ui| {
        ui.heading(&m.title);
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| ui.monospace(&m.record));
    });
    Ok(())
}

/// `R`: start riding the track nearest to the camera (from its nearer end), or stop.
fn toggle_ride(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    network: Res<RideNetwork>,
    cams: Query<(Entity, &Transform, Option<&Ride>), With<crate::camera::FlyCamera>>,
) {
    if !keys.just_pressed(KeyCode::KeyR) {
        return;
    }
    for (e, t, ride) in &cams {
        if ride.is_some() {
            commands.entity(e).remove::<Ride>();
            continue;
        }
        let cam = t.translation.to_array();
        let nearest = network
            .0
            .tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.category == 1 || t.category == 0)
            .filter_map(|(k, t)| t.paths.first().map(|p| (k, p.p_start)))
            .min_by(|a, b| {
                let d = |p: [f32; 3]| (p[0] - cam[0]).powi(2) + (p[2] - cam[2]).powi(2);
                d(a.1).total_cmp(&d(b.1))
            });
        if let Some(at) = nearest.and_then(|(k, _)| network.0.start(k)) {
            commands.entity(e).insert(Ride { at, speed: 20.0, moving: true });
        }
    }
}

/// How far ahead of the rider a switch can be thrown, in metres.
const SWITCH_REACH: f32 = 2000.0;

fn ride(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut network: ResMut<RideNetwork>,
    heights: Option<Res<TerrainHeights>>,
    mut cams: Query<(&mut Transform, &mut Ride, Option<&mut StreamFocus>)>,
) {
    for (mut t, mut r, focus) in &mut cams {
        if keys.just_pressed(KeyCode::Equal) || keys.just_pressed(KeyCode::NumpadAdd) {
            r.speed += 5.0;
        }
        if keys.just_pressed(KeyCode::Minus) || keys.just_pressed(KeyCode::NumpadSubtract) {
            r.speed = (r.speed - 5.0).max(0.0);
        }
        if keys.just_pressed(KeyCode::KeyT)
            && let Some((switch, _)) = network.0.next_switch(&r.at, SWITCH_REACH)
        {
            network.0.throw(switch);
        }
        let step = r.speed * time.delta_secs();
        let mut at = r.at;
        r.moving = network.0.advance(&mut at, step);
        r.at = at;
        let Some((p, dir)) = network.0.pose(&r.at) else { continue };
        let dir = Vec3::from_array(dir);
        // The rail is drawn on the terrain where the path lies below it (crate::scene).
        let rail = heights.as_ref().and_then(|h| h.height_at(p[0], p[2])).map_or(p[1], |h| h.max(p[1]));
        t.translation = Vec3::new(p[0], rail + SEAT_HEIGHT, p[2]);
        t.look_to(dir.normalize_or(Vec3::NEG_Z), Vec3::Y);
        if let Some(mut f) = focus {
            f.velocity = if r.moving { dir * r.speed } else { Vec3::ZERO };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    #[expect(dead_code, reason = "read through Debug")]
    struct Cell {
        name: iron3d_eu7::Sid,
        other: iron3d_eu7::Sid,
        group: u32,
    }

    #[test]
    fn string_ids_show_as_their_text_in_both_debug_layouts() {
        let cell = Cell { name: iron3d_eu7::Sid(1), other: iron3d_eu7::Sid(9), group: 4 };
        let name = |n: u32| (n == 1).then(|| "\"grove\"".to_string());
        let pretty = replace_sids(&format!("{cell:#?}"), name);
        assert!(pretty.contains("name: \"grove\",") && !pretty.contains("Sid(\n        1"), "{pretty}");
        assert!(pretty.contains("Sid(\n        9,\n    )"), "out of range is kept: {pretty}");
        let flat = replace_sids(&format!("{cell:?}"), name);
        assert_eq!(flat, "Cell { name: \"grove\", other: Sid(9), group: 4 }");
    }
}
