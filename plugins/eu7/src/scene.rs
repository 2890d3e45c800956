//! Static scenery geometry of every loaded module, placed by its include transform, turned
//! into meshes at startup: `TERR` (one mesh per terrain batch, so frustum culling works per
//! section) and `MESH` shapes merged per material (their
//! vertices are relative to the shape origin, docs/reference/eu7.md §6.8), `LINE` shapes and traction
//! wires as line lists, tracks as ballast and rail ribbons sampled from their Bézier
//! paths, and `MODL` models as instances. Also the sun, ambient light and sky colour.
//!
//! Winding of scenery triangles is not specified, so scenery meshes are drawn without
//! back-face culling (normals from the data are kept). Tracks are drawn at
//! `max(path height, terrain height)` so a track laid below the terrain surface stays
//! visible; for well-formed sceneries this is the path height.

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;
use iron3d_eu7::ChunkBody;
use iron3d_eu7::include::Affine;
use iron3d_eu7::node::PackedVertex;
use iron3d_eu7::shape::TerrainBody;
use iron3d_eu7::track::{SegmentPath, Traction};

use crate::LoadedScenery;
use crate::data::{Placement, WorldTrack, text, world_point};
use crate::streaming::{ModelInstance, SectionStreamer, placement_transform};
use crate::terrain::TerrainHeights;
use crate::textures::{LoadedTexture, TextureLibrary};

/// Spawns the static geometry and lights.
#[derive(Debug, Clone, Copy, Default)]
pub struct SceneryPlugin;

/// What a static geometry entity shows.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[reflect(Component)]
pub enum StaticGeometry {
    /// A `TERR` batch.
    Terrain,
    /// `MESH` shapes of one material.
    Shapes,
    /// `LINE` shapes.
    Lines,
    /// Track ballast ribbons.
    Ballast,
    /// Rail ribbons of normal tracks.
    Rails,
    /// Rail ribbons of switches (`TRAK` type 2), drawn in orange.
    Switches,
    /// Road surfaces (`TRAK` category 2).
    Roads,
    /// River surfaces (`TRAK` category 4).
    Rivers,
    /// Traction wires.
    Wires,
    /// The parent of `MODL` model instances.
    Models,
}

impl Plugin for SceneryPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<StaticGeometry>()
            .insert_resource(ClearColor(Color::srgb(0.55, 0.7, 0.9)))
            .insert_resource(GlobalAmbientLight { brightness: 600.0, ..default() })
            .add_systems(Startup, spawn_static_geometry);
    }
}

/// Triangle-list accumulator.
#[derive(Debug, Default)]
struct Tris {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
}

impl Tris {
    fn push(&mut self, p: [f32; 3], n: [f32; 3], uv: [f32; 2]) {
        self.positions.push(p);
        self.normals.push(n);
        self.uvs.push(uv);
    }
    fn push_packed(&mut self, v: &PackedVertex, origin: [f32; 3], frame: &Frame) {
        let local = std::array::from_fn(|i| v.position[i] + origin[i]);
        self.push(frame.point(local), frame.normal(v.normal_f32()), v.uv_f32());
    }
    fn into_mesh(self) -> Option<Mesh> {
        (!self.positions.is_empty()).then(|| {
            Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
                .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
                .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, self.normals)
                .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, self.uvs)
        })
    }
}

/// A module's placement (module space → world, docs/reference/eu7.md §6.2–§6.3) applied to its geometry.
#[derive(Debug, Clone, Copy)]
pub struct Frame(pub Affine);

impl Frame {
    /// A point in world space.
    pub fn point(&self, p: [f32; 3]) -> [f32; 3] {
        world_point(&self.0, p)
    }

    /// A direction in world space, normalised (the linear part only).
    pub fn normal(&self, n: [f32; 3]) -> [f32; 3] {
        let m = &self.0;
        let v = Vec3::from_array(std::array::from_fn(|r| {
            (m[r][0] * f64::from(n[0]) + m[r][1] * f64::from(n[1]) + m[r][2] * f64::from(n[2])) as f32
        }));
        v.normalize_or(Vec3::Y).to_array()
    }

    /// The placement as a Bevy transform (exact for rotation about Y with uniform scale).
    pub fn transform(&self) -> Transform {
        let m = &self.0;
        let col = |c: usize| Vec4::new(m[0][c] as f32, m[1][c] as f32, m[2][c] as f32, if c == 3 { 1.0 } else { 0.0 });
        Transform::from_matrix(Mat4::from_cols(col(0), col(1), col(2), col(3)))
    }
}

/// Vertex order of a triangle list for `n` vertices of subtype 0 list, 1 strip, 2 fan
/// (other values: list).
pub fn triangle_order(subtype: u8, n: usize) -> Vec<usize> {
    match subtype {
        1 => (2..n).flat_map(|k| if k % 2 == 0 { [k - 2, k - 1, k] } else { [k - 1, k - 2, k] }).collect(),
        2 => (2..n).flat_map(|k| [0, k - 1, k]).collect(),
        _ => (0..n - n % 3).collect(),
    }
}

/// Line-list vertex order for `n` points of subtype 0 lines, 1 strip, 2 loop.
pub fn line_order(subtype: u8, n: usize) -> Vec<usize> {
    match subtype {
        1 | 2 if n >= 2 => {
            let mut v: Vec<usize> = (1..n).flat_map(|k| [k - 1, k]).collect();
            if subtype == 2 && n > 2 {
                v.extend([n - 1, 0]);
            }
            v
        }
        1 | 2 => Vec::new(),
        _ => (0..n - n % 2).collect(),
    }
}

/// Points along a path, about every `step` metres (at least 2 segments).
pub fn sample_path(p: &SegmentPath, step: f32) -> Vec<Vec3> {
    let poly = [p.p_start, p.cp_out, p.cp_in, p.p_end].map(Vec3::from_array);
    let len: f32 = poly.windows(2).map(|w| w[0].distance(w[1])).sum();
    let n = if len.is_finite() { (len / step.max(0.1)).ceil().clamp(2.0, 1024.0) as usize } else { 2 };
    (0..=n).map(|i| Vec3::from_array(p.point(i as f32 / n as f32))).collect()
}

/// Adds a flat ribbon of `half_width` along `line`, shifted sideways by `offset`.
fn ribbon(out: &mut Tris, line: &[Vec3], offset: f32, half_width: f32) {
    let side = |i: usize| {
        let a = line[i.saturating_sub(1)];
        let b = line[(i + 1).min(line.len() - 1)];
        let d = Vec3::new(b.x - a.x, 0.0, b.z - a.z);
        Vec3::new(-d.z, 0.0, d.x).normalize_or_zero()
    };
    for i in 0..line.len().saturating_sub(1) {
        let (s0, s1) = (side(i), side(i + 1));
        let l0 = line[i] + s0 * (offset - half_width);
        let r0 = line[i] + s0 * (offset + half_width);
        let l1 = line[i + 1] + s1 * (offset - half_width);
        let r1 = line[i + 1] + s1 * (offset + half_width);
        for p in [l0, r0, l1, l1, r0, r1] {
            out.push(p.to_array(), [0.0, 1.0, 0.0], [0.0, 0.0]);
        }
    }
}

/// Ribbons of `tracks` by kind, lifted onto `heights`: rail tracks as ballast and two rails
/// (a switch's rails in their own kind), roads and rivers as one surface of their width.
fn track_meshes(tracks: &[WorldTrack], heights: &TerrainHeights) -> BTreeMap<StaticGeometry, Tris> {
    let mut out: BTreeMap<StaticGeometry, Tris> = BTreeMap::new();
    for t in tracks {
        let width = |default: f32| if t.width.is_finite() && t.width > 0.1 { t.width } else { default };
        for path in &t.paths {
            let line: Vec<Vec3> = sample_path(path, 4.0)
                .into_iter()
                .map(|p| Vec3::new(p.x, heights.height_at(p.x, p.z).map_or(p.y, |h| h.max(p.y)), p.z))
                .collect();
            let lifted = |dy: f32| line.iter().map(|p| *p + Vec3::Y * dy).collect::<Vec<_>>();
            match t.category {
                2 => ribbon(out.entry(StaticGeometry::Roads).or_default(), &lifted(0.06), 0.0, width(6.0) / 2.0),
                4 => ribbon(out.entry(StaticGeometry::Rivers).or_default(), &lifted(0.03), 0.0, width(10.0) / 2.0),
                _ => {
                    let gauge = width(1.435);
                    ribbon(out.entry(StaticGeometry::Ballast).or_default(), &lifted(0.08), 0.0, gauge / 2.0 + 0.9);
                    let kind = if t.track_type == crate::ride::SWITCH {
                        StaticGeometry::Switches
                    } else {
                        StaticGeometry::Rails
                    };
                    let top = lifted(0.25);
                    let rails = out.entry(kind).or_default();
                    ribbon(rails, &top, -gauge / 2.0, 0.09);
                    ribbon(rails, &top, gauge / 2.0, 0.09);
                }
            }
        }
    }
    out
}

fn line_mesh(points: Vec<[f32; 3]>, colors: Vec<[f32; 4]>) -> Option<Mesh> {
    (!points.is_empty()).then(|| {
        Mesh::new(PrimitiveTopology::LineList, RenderAssetUsages::default())
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, points)
            .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    })
}

fn wire_lines(wires: &[(&Traction, Frame)], points: &mut Vec<[f32; 3]>, colors: &mut Vec<[f32; 4]>) {
    for (w, frame) in wires {
        if w.wire_count <= 0 {
            continue;
        }
        for pair in [[w.wires[0], w.wires[1]], [w.wires[2], w.wires[3]]] {
            points.extend(pair.map(|p| frame.point(p)));
            colors.extend([[0.9, 0.75, 0.3, 1.0]; 2]);
        }
    }
}

fn scenery_material(color: Color) -> StandardMaterial {
    StandardMaterial { base_color: color, perceptual_roughness: 0.95, cull_mode: None, ..default() }
}

/// A scenery surface with `texture` (or the fallback), tinted by the diffuse colour
/// relative to the default 0.8 (docs/reference/eu7.md §5.2), two-sided.
fn textured_material(texture: &LoadedTexture, diffuse: [f32; 4]) -> StandardMaterial {
    let c = |k: usize| (diffuse[k] / 0.8).clamp(0.0, 1.0);
    StandardMaterial {
        base_color_texture: Some(texture.image.clone()),
        alpha_mode: if texture.alpha { AlphaMode::Mask(0.5) } else { AlphaMode::Opaque },
        ..scenery_material(Color::srgb(c(0), c(1), c(2)))
    }
}

#[allow(clippy::too_many_arguments, reason = "one system: the resources it reads and writes")]
fn spawn_static_geometry(
    mut commands: Commands,
    scenery: Res<LoadedScenery>,
    mut streamer: ResMut<SectionStreamer>,
    mut textures: ResMut<TextureLibrary>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Name::new("Sun"),
        DirectionalLight { illuminance: 9000.0, shadow_maps_enabled: false, ..default() },
        Transform::from_rotation(Quat::from_euler(EulerRot::YXZ, 0.6, -0.9, 0.0)),
    ));
    let Some(data) = &scenery.data else { return };
    let mut terrain_tris: Vec<[[f32; 3]; 3]> = Vec::new();
    let mut wires = Vec::new();
    let mut shapes: BTreeMap<String, (Tris, [f32; 4])> = BTreeMap::new();
    let (mut line_points, mut line_colors) = (Vec::new(), Vec::new());
    let mut static_models = Vec::new();
    for (index, m) in data.tree.modules.iter().enumerate() {
        let frame = Frame(m.transform);
        for c in &m.module.chunks {
            match &c.body {
                ChunkBody::Terr(t) => {
                    let batches: Vec<&[PackedVertex]> = match &t.body {
                        TerrainBody::Batched(b) => b.iter().map(|b| b.vertices.as_slice()).collect(),
                        TerrainBody::Legacy(v) => vec![v.as_slice()],
                    };
                    let name = text(m.string(t.material));
                    let texture = textures.get(&name, "", &mut images);
                    let material = materials.add(textured_material(&texture, t.lighting.diffuse));
                    for (i, vertices) in batches.into_iter().enumerate() {
                        let mut tris = Tris::default();
                        for v in vertices {
                            tris.push_packed(v, [0.0; 3], &frame);
                        }
                        terrain_tris.extend(tris.positions.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
                        if let Some(mesh) = tris.into_mesh() {
                            commands.spawn((
                                Name::new(format!("Terrain {name} batch {i}")),
                                StaticGeometry::Terrain,
                                Mesh3d(meshes.add(mesh)),
                                MeshMaterial3d(material.clone()),
                            ));
                        }
                    }
                }
                ChunkBody::Mesh(list) => {
                    for s in list {
                        let entry = shapes
                            .entry(text(m.string(s.material)))
                            .or_insert_with(|| (Tris::default(), s.lighting.block.diffuse));
                        for k in triangle_order(s.subtype, s.vertices.len()) {
                            if let Some(v) = s.vertices.get(k) {
                                entry.0.push_packed(v, s.origin, &frame);
                            }
                        }
                    }
                }
                ChunkBody::Line(list) => {
                    for l in list {
                        let d = l.lighting.block.diffuse;
                        for k in line_order(l.subtype, l.positions.len()) {
                            if let Some(p) = l.positions.get(k) {
                                line_points.push(frame.point(std::array::from_fn(|i| p[i] + l.origin[i])));
                                line_colors.push(d);
                            }
                        }
                    }
                }
                ChunkBody::Trac(v) => wires.extend(v.iter().map(|w| (w, frame))),
                ChunkBody::Modl(v) if data.draws_static_models(index) => {
                    static_models.extend(v.iter().map(|r| (r, m, frame)));
                }
                _ => {}
            }
        }
    }
    let tracks = data.world_tracks();
    for (name, (tris, d)) in shapes {
        let texture = textures.get(&name, "", &mut images);
        if let Some(mesh) = tris.into_mesh() {
            commands.spawn((
                Name::new(format!("Shapes {name}")),
                StaticGeometry::Shapes,
                Mesh3d(meshes.add(mesh)),
                MeshMaterial3d(materials.add(textured_material(&texture, d))),
            ));
        }
    }
    let heights = TerrainHeights::new(terrain_tris, 100.0);
    let track_kinds = track_meshes(&tracks, &heights);
    commands.insert_resource(heights);
    let unlit = |materials: &mut Assets<StandardMaterial>, c: Color| {
        materials.add(StandardMaterial { base_color: c, unlit: true, cull_mode: None, ..default() })
    };
    for (kind, tris) in track_kinds {
        if let Some(mesh) = tris.into_mesh() {
            let material = match kind {
                StaticGeometry::Rails => unlit(&mut materials, Color::srgb(0.85, 0.85, 0.9)),
                StaticGeometry::Switches => unlit(&mut materials, Color::srgb(1.0, 0.55, 0.1)),
                StaticGeometry::Roads => materials.add(scenery_material(Color::srgb(0.22, 0.22, 0.24))),
                StaticGeometry::Rivers => materials.add(scenery_material(Color::srgb(0.2, 0.4, 0.75))),
                _ => materials.add(scenery_material(Color::srgb(0.45, 0.38, 0.3))),
            };
            commands.spawn((Name::new(format!("{kind:?}")), kind, Mesh3d(meshes.add(mesh)), MeshMaterial3d(material)));
        }
    }
    let white = unlit(&mut materials, Color::WHITE);
    if let Some(mesh) = line_mesh(line_points, line_colors) {
        commands.spawn((
            Name::new("Lines"),
            StaticGeometry::Lines,
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(white.clone()),
        ));
    }
    let (mut wire_points, mut wire_colors) = (Vec::new(), Vec::new());
    wire_lines(&wires, &mut wire_points, &mut wire_colors);
    if let Some(mesh) = line_mesh(wire_points, wire_colors) {
        commands.spawn((
            Name::new("Traction wires"),
            StaticGeometry::Wires,
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(white),
        ));
    }
    if !static_models.is_empty() {
        let root = commands
            .spawn((Name::new("MODL models"), StaticGeometry::Models, Transform::default(), Visibility::default()))
            .id();
        let children: Vec<_> = static_models
            .iter()
            .filter(|(r, m, _)| {
                let f = m.string(r.model_file);
                !f.is_empty() && !f.eq_ignore_ascii_case(b"notload")
            })
            .map(|(r, m, frame)| {
                let path = text(m.string(r.model_file));
                let model = streamer.intern(&path);
                let p = Placement { model, location: r.location, angles: r.angles, scale: r.scale };
                (
                    Name::new(path),
                    ModelInstance { model },
                    frame.transform().mul_transform(placement_transform(&p)),
                    Visibility::default(),
                    ChildOf(root),
                )
            })
            .collect();
        commands.spawn_batch(children);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_lists() {
        assert_eq!(triangle_order(0, 7), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(triangle_order(1, 5), vec![0, 1, 2, 2, 1, 3, 2, 3, 4]);
        assert_eq!(triangle_order(2, 5), vec![0, 1, 2, 0, 2, 3, 0, 3, 4]);
        assert!(triangle_order(1, 2).is_empty());
        assert_eq!(line_order(0, 5), vec![0, 1, 2, 3]);
        assert_eq!(line_order(1, 3), vec![0, 1, 1, 2]);
        assert_eq!(line_order(2, 3), vec![0, 1, 1, 2, 2, 0]);
        assert!(line_order(2, 1).is_empty());
    }

    #[test]
    fn path_samples_follow_the_curve() {
        let p = SegmentPath {
            p_start: [0.0; 3],
            cp_out: [10.0, 0.0, 0.0],
            cp_in: [20.0, 0.0, 0.0],
            p_end: [30.0, 0.0, 0.0],
            ..SegmentPath::default()
        };
        let s = sample_path(&p, 4.0);
        assert_eq!(s.len(), 9); // 30 m / 4 m -> 8 segments
        assert_eq!(s.first(), Some(&Vec3::ZERO));
        assert_eq!(s.last(), Some(&Vec3::new(30.0, 0.0, 0.0)));
        let mut t = Tris::default();
        ribbon(&mut t, &s, 1.0, 0.5);
        assert_eq!(t.positions.len(), 8 * 6);
        // Travelling +X, the side vector is +Z: offsets 0.5..1.5.
        assert!(t.positions.iter().all(|p| (0.5..=1.5).contains(&p[2])));
    }

    #[test]
    fn tracks_are_lifted_onto_the_terrain() {
        let ground = [[-100.0, 2.0, -100.0], [100.0, 2.0, -100.0], [-100.0, 2.0, 100.0]];
        let heights = TerrainHeights::new(vec![ground], 50.0);
        let path = SegmentPath {
            p_start: [-50.0, 0.0, 0.0],
            cp_out: [-40.0, 0.0, 0.0],
            cp_in: [-30.0, 0.0, 0.0],
            p_end: [-20.0, 0.0, 0.0],
            ..SegmentPath::default()
        };
        let track = WorldTrack {
            name: String::new(),
            track_type: 1,
            category: 1,
            width: 1.435,
            paths: vec![path],
            module: 0,
            index: 0,
        };
        let road = WorldTrack { category: 2, ..track.clone() };
        let switch = WorldTrack { track_type: crate::ride::SWITCH, ..track.clone() };
        let kinds = track_meshes(&[track, road, switch], &heights);
        let keys: Vec<StaticGeometry> = kinds.keys().copied().collect();
        use StaticGeometry as G;
        assert_eq!(keys, vec![G::Ballast, G::Rails, G::Switches, G::Roads]);
        let (ballast, rails) = (&kinds[&G::Ballast], &kinds[&G::Rails]);
        assert!(ballast.positions.iter().all(|p| (p[1] - 2.08).abs() < 1e-5));
        assert!(rails.positions.iter().all(|p| (p[1] - 2.25).abs() < 1e-5));
        assert_eq!(rails.positions.len(), ballast.positions.len(), "two rails of one track, ballast of two");
        assert_eq!(kinds[&G::Switches].positions.len(), rails.positions.len());
    }
}
