//! Deterministic synthetic sceneries for tests and benchmarks: terrain, Bézier tracks,
//! traction, logic records and Zipf-distributed model placements sectioned into PACK,
//! plus small E3D models. Same config and seed → same bytes (no clock, no hash order).

use crate::canonical::{Interner, PackOptions, PackOptionsEq, Scene};
use crate::e3d::{Vertex, write_simple};
use crate::error::Result;
use crate::logic::{Dynamic, Event, Include, LaunchCondition, Launcher, MemCell, Sound, Trainset};
use crate::model::ModelRecord;
use crate::node::{Lighting, PackedVertex, SlimNode, TaggedLighting, flags};
use crate::prim::Sid;
use crate::section::SectionFormat;
use crate::shape::{LineShape, Shape};
use crate::track::{PowerSource, SegmentPath, TailEntry, Track, TrackVisibility, Traction};
use iron3d_formats::rng::SplitMix64;

/// Generator settings.
#[derive(Debug, Clone)]
pub struct GenConfig {
    /// PRNG seed.
    pub seed: u64,
    /// Model instances to place.
    pub instances: usize,
    /// Side of the square area in metres, centred on the origin.
    pub extent_m: f64,
    /// Distinct model files (Zipf ranks).
    pub model_kinds: usize,
    /// Terrain triangles.
    pub terrain_triangles: usize,
    /// Extra non-terrain shapes (any > 0 forces MESH instead of TERR).
    pub extra_shapes: usize,
    /// Tracks (each also gets a traction wire).
    pub tracks: usize,
    /// Memory cells, events and launchers each.
    pub logic: usize,
    /// PACK section format; `None` writes models as `MODL`.
    pub format: Option<SectionFormat>,
    /// Models' nodes carry a name only (no bounds, no ranges): their flags byte is 1, a
    /// flat section then starts with a format marker's value, as MaSzyna's first v7
    /// writer wrote them.
    pub bare_nodes: bool,
    /// An empty `PROT` is written as its chunk header alone, as MaSzyna's tree bake
    /// writes a root without models ([`crate::Chunk::bare`]).
    pub bare_tables: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            instances: 1000,
            extent_m: 10_000.0,
            model_kinds: 50,
            terrain_triangles: 200,
            extra_shapes: 0,
            tracks: 20,
            logic: 10,
            format: Some(SectionFormat::V13),
            bare_nodes: false,
            bare_tables: false,
        }
    }
}

impl GenConfig {
    /// The large benchmark scenery: 1 000 000 instances over 100 × 100 km.
    pub fn large(seed: u64) -> Self {
        Self {
            seed,
            instances: 1_000_000,
            extent_m: 100_000.0,
            model_kinds: 400,
            terrain_triangles: 20_000,
            tracks: 500,
            logic: 200,
            ..Self::default()
        }
    }
}

/// Binary path of the module the generated scenery includes (beside the scenery).
pub const INCLUDE_FILE: &str = "flora.eu7";

/// Path of generated model kind `k`.
pub fn model_path(k: usize) -> String {
    format!("models/gen/m{k:03}.e3d")
}

fn node_with_name(name: Sid) -> SlimNode {
    SlimNode { flags: if name.is_empty() { 0 } else { flags::NAME }, name, ..SlimNode::default() }
}

/// Builds the scene (strings interned in creation order; the canonical writer re-interns).
pub fn scene(cfg: &GenConfig) -> Scene {
    let mut r = SplitMix64::new(cfg.seed);
    let mut int = Interner::default();
    let half = cfg.extent_m / 2.0;
    let mut s = Scene::default();
    let inc_params = [int.intern(b"100"), int.intern(b"0"), int.intern(b"-50")];
    s.includes.push(Include {
        source_line: 12,
        source_path: int.intern(b"scenery/gen/flora.inc"),
        binary_path: int.intern(INCLUDE_FILE.as_bytes()),
        params: inc_params.to_vec(),
        site_transform: Some(crate::node::TransformContext {
            origins: vec![[10.0, 0.0, 20.0]],
            rotation: [0.0, 90.0, 0.0],
            ..Default::default()
        }),
    });

    let grass = int.intern(TERRAIN_TEXTURE.as_bytes());
    let grid = (cfg.terrain_triangles as f64 / 2.0).sqrt().ceil().max(1.0);
    let cell = cfg.extent_m / grid;
    for t in 0..cfg.terrain_triangles {
        let q = (t / 2) as f64;
        let (gx, gz) = ((q % grid) * cell - half, (q / grid).floor() * cell - half);
        let h = |r: &mut SplitMix64| r.range_f64(0.0, 5.0) as f32;
        let corners =
            if t % 2 == 0 { [(0.0, 0.0), (cell, 0.0), (0.0, cell)] } else { [(cell, 0.0), (cell, cell), (0.0, cell)] };
        let vertices = corners
            .iter()
            .map(|&(dx, dz)| {
                PackedVertex::from_floats(
                    [(gx + dx) as f32, h(&mut r), (gz + dz) as f32],
                    [0.0, 1.0, 0.0],
                    [(dx / cell) as f32, (dz / cell) as f32],
                )
            })
            .collect();
        s.shapes.push(Shape {
            material: grass,
            lighting: TaggedLighting::canonical(Lighting::default()),
            vertices,
            ..Shape::default()
        });
    }
    for i in 0..cfg.extra_shapes {
        let name = int.intern(format!("shape{i}").as_bytes());
        let vertices = (0..4)
            .map(|k| PackedVertex::from_floats([k as f32, 1.0, 0.0], [0.0, 0.0, 1.0], [1.9999, 0.49999]))
            .collect();
        s.shapes.push(Shape {
            subtype: 1,
            node: node_with_name(name),
            material: int.intern(b"wall"),
            lighting: TaggedLighting::canonical(Lighting { diffuse: [1.0, 0.5, 0.5, 1.0], ..Lighting::default() }),
            origin: [1.0, 2.0, 3.0],
            vertices,
            ..Shape::default()
        });
        s.lines.push(LineShape {
            node: node_with_name(name),
            line_width: 2.0,
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0]],
            ..LineShape::default()
        });
    }

    let (rail, ballast) = (int.intern(b"rail/std"), int.intern(b"ballast/std"));
    for i in 0..cfg.tracks {
        let name = int.intern(format!("track{i}").as_bytes());
        let p0 = [r.range_f64(-half, half) as f32, 0.0, r.range_f64(-half, half) as f32];
        let yaw = r.range_f64(0.0, std::f64::consts::TAU);
        let len = r.range_f64(50.0, 400.0);
        let dir = [yaw.cos() * len, yaw.sin() * len];
        let at = |t: f64| [p0[0] + (dir[0] * t) as f32, 0.0, p0[2] + (dir[1] * t) as f32];
        let bend = r.range_f64(-20.0, 20.0) as f32;
        let mut cp_out = at(1.0 / 3.0);
        cp_out[0] += bend;
        let path = SegmentPath {
            p_start: p0,
            cp_out,
            cp_in: at(2.0 / 3.0),
            p_end: at(1.0),
            radius: if bend.abs() > 10.0 { 500.0 } else { 0.0 },
            ..SegmentPath::default()
        };
        let tail = vec![
            TailEntry { code: 7, key: Sid::EMPTY, value: int.intern(b"80") },
            TailEntry { code: 255, key: int.intern(b"customkey"), value: int.intern(format!("v{}", i % 3).as_bytes()) },
        ];
        s.tracks.push(Track {
            node: node_with_name(name),
            track_type: 1,
            category: 1,
            length: len as f32,
            track_width: 1.435,
            friction: 0.15,
            environment: 1,
            has_visibility: 1,
            visibility: TrackVisibility {
                material1: rail,
                tex_length: 4.0,
                material2: ballast,
                tex_height1: 0.2,
                tex_width: 2.5,
                tex_slope: 1.1,
            },
            paths: vec![path],
            tail,
            ..Track::default()
        });
        s.traction.push(Traction {
            node: node_with_name(int.intern(format!("wire{i}").as_bytes())),
            power_supply_name: int.intern(b"ps0"),
            material: 1,
            nominal_voltage: 3000.0,
            material_raw: int.intern(b"cu"),
            wires: [p0, at(1.0), [p0[0], 5.5, p0[2]], [at(1.0)[0], 5.5, at(1.0)[2]]],
            wire_count: 2,
            has_parallel: u8::from(i > 0),
            parallel_name: if i > 0 { int.intern(format!("wire{}", i - 1).as_bytes()) } else { Sid::EMPTY },
            ..Traction::default()
        });
    }
    if cfg.tracks > 0 {
        s.power.push(PowerSource {
            node: node_with_name(int.intern(b"ps0")),
            position: [0.0, 0.0, 0.0],
            values: [3000.0, 0.0, 0.1, 0.1, 5000.0, 1.0, 10.0, 5.0],
            modifier: 1,
        });
    }

    for i in 0..cfg.logic {
        let mc = int.intern(format!("mc{i}").as_bytes());
        s.memcells.push(MemCell {
            node: node_with_name(mc),
            text: int.intern(b"none"),
            value1: i as f32,
            value2: 0.0,
            track_name: Sid::EMPTY,
        });
        let ev = int.intern(format!("ev{i}").as_bytes());
        s.events.push(Event {
            name: ev,
            event_type: (r.below_mod(19)) as u8,
            delay: r.range_f64(0.0, 10.0) as f32,
            targets: vec![mc],
            payload: vec![(int.intern(b"text"), int.intern(b"go"))],
            ..Event::default()
        });
        s.launchers.push(Launcher {
            node: node_with_name(int.intern(format!("la{i}").as_bytes())),
            location: [r.range_f64(-half, half) as f32, 0.0, r.range_f64(-half, half) as f32],
            radius_sq: 100.0,
            delta_time: -1.0,
            event1_name: ev,
            event2_name: Sid::EMPTY,
            activation_key_raw: Sid::EMPTY,
            launch_hour: -1,
            launch_minute: -1,
            has_condition: u8::from(i % 2 == 0),
            condition: if i % 2 == 0 {
                LaunchCondition {
                    memcell_name: mc,
                    compare_text: int.intern(b"*"),
                    check_mask: 1,
                    ..LaunchCondition::default()
                }
            } else {
                LaunchCondition::default()
            },
            ..Launcher::default()
        });
        s.sounds.push(Sound {
            node: node_with_name(Sid::EMPTY),
            location: [0.0, 1.0, i as f32],
            wav_file: int.intern(b"sounds/bird.wav"),
        });
    }
    if cfg.logic > 0 {
        let track = int.intern(b"track0");
        s.dynamics.push(Dynamic {
            node: node_with_name(int.intern(b"loco1")),
            strings: [
                int.intern(b"dynamic/ep07"),
                int.intern(b"skin"),
                int.intern(b"ep07.mmd"),
                track,
                int.intern(b"1"),
                Sid::EMPTY,
                Sid::EMPTY,
                int.intern(b"3"),
            ],
            offset: -1.0,
            coupling: 3,
            has_trainset_index: 1,
            ..Dynamic::default()
        });
        s.trainsets.push(Trainset {
            name: int.intern(b"ts1"),
            track,
            offset: 10.0,
            velocity: 40.0,
            assignments: vec![(int.intern(b"a"), int.intern(b"b"))],
            vehicle_indices: vec![0],
            couplings: vec![3],
            driver_index: 0,
        });
        s.first_init = cfg.logic as u32;
        s.placement = [1, 2, 3, 0];
    }

    let zipf = Zipf::new(cfg.model_kinds.max(1), 1.0);
    let kinds: Vec<(Sid, Sid, f32)> = (0..cfg.model_kinds.max(1))
        .map(|k| {
            let tex = if k % 3 == 0 { int.intern(format!("textures/gen/t{}", k % 7).as_bytes()) } else { Sid::EMPTY };
            (int.intern(model_path(k).as_bytes()), tex, (200.0 + 10.0 * k as f32).powi(2))
        })
        .collect();
    s.models.reserve(cfg.instances);
    for i in 0..cfg.instances {
        let k = zipf.sample(&mut r);
        let Some(&(mesh, tex, range)) = kinds.get(k) else { continue };
        let named = r.below_mod(100) == 0;
        let lit = r.below_mod(200) == 0;
        let mut node = SlimNode {
            flags: flags::BOUNDS | flags::RANGE_MAX,
            range_sq_max: range,
            radius: 5.0,
            ..SlimNode::default()
        };
        if named || cfg.bare_nodes {
            node.flags |= flags::NAME;
            node.name = int.intern(format!("obj{i}").as_bytes());
        }
        if cfg.bare_nodes {
            // No bounds, no range: the canonical flags are the name's alone.
            (node.radius, node.range_sq_max) = (-1.0, f32::INFINITY);
        }
        let location = [r.range_f64(-half, half) as f32, r.range_f64(0.0, 3.0) as f32, r.range_f64(-half, half) as f32];
        node.center = location;
        s.models.push(ModelRecord {
            node,
            is_terrain: 0,
            transition: u8::from(!k.is_multiple_of(5)),
            location,
            angles: [0.0, r.range_f64(0.0, 360.0) as f32, 0.0],
            scale: [1.0; 3],
            model_file: mesh,
            texture_file: tex,
            light_states: if lit { vec![1.0, 0.5] } else { Vec::new() },
            light_colors: if lit { vec![0xFF00_FFFF] } else { Vec::new() },
        });
    }
    s.pack = cfg.format.map(|format| PackOptionsEq(PackOptions { format, resolve_texture: None }));
    s.strings = int.table;
    s
}

/// Generates the scenery bytes (canonical writer).
pub fn scenery(cfg: &GenConfig) -> Result<Vec<u8>> {
    let mut m = scene(cfg).to_module()?;
    for c in m.chunks.iter_mut().filter(|c| cfg.bare_tables && crate::chunk::bare_table(c.id).is_some()) {
        c.bare = true;
    }
    m.write()
}

/// Height of the included grove, above the generated terrain (0–5 m).
const GROVE_HEIGHT: f32 = 5.2;

/// The module the generated scenery includes ([`INCLUDE_FILE`]): a grove of 25 `MODL`
/// models in a 5 × 5 grid 8 m apart on a planked `MESH` square, a 200 m siding track and a
/// memory cell (with bounds) whose text names the first include parameter; placed by the
/// include's first three parameters (`PLAC` 1, 2, 3).
pub fn include_module(cfg: &GenConfig) -> Result<Vec<u8>> {
    let mut int = Interner::default();
    let mut s = Scene { placement: [1, 2, 3, 0], ..Scene::default() };
    let kinds = cfg.model_kinds.max(1);
    for i in 0..25usize {
        let location = [(i % 5) as f32 * 8.0, GROVE_HEIGHT, (i / 5) as f32 * 8.0];
        s.models.push(ModelRecord {
            location,
            angles: [0.0, (i * 37 % 360) as f32, 0.0],
            scale: [1.0; 3],
            model_file: int.intern(model_path(i % kinds).as_bytes()),
            ..ModelRecord::default()
        });
    }
    let corner =
        |x: f32, z: f32| PackedVertex::from_floats([x, GROVE_HEIGHT, z], [0.0, 1.0, 0.0], [x / 11.0, z / 11.0]);
    let quad = [(-6.0, -6.0), (-6.0, 38.0), (38.0, -6.0), (38.0, -6.0), (-6.0, 38.0), (38.0, 38.0)];
    s.shapes.push(Shape {
        node: node_with_name(int.intern(b"grove floor")),
        material: int.intern(model_texture(3).as_bytes()),
        lighting: TaggedLighting::canonical(Lighting::default()),
        vertices: quad.iter().map(|&(x, z)| corner(x, z)).collect(),
        ..Shape::default()
    });
    let (a, b) = ([-10.0, 0.0, -10.0], [190.0, 0.0, -10.0]);
    let lerp = |t: f32| std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
    s.tracks.push(Track {
        node: node_with_name(int.intern(b"grove siding")),
        track_type: 1,
        category: 1,
        length: 200.0,
        track_width: 1.435,
        paths: vec![SegmentPath {
            p_start: a,
            cp_out: lerp(1.0 / 3.0),
            cp_in: lerp(2.0 / 3.0),
            p_end: b,
            ..SegmentPath::default()
        }],
        ..Track::default()
    });
    let mut node = node_with_name(int.intern(b"grove"));
    node.flags |= flags::BOUNDS;
    node.center = [16.0, GROVE_HEIGHT, 16.0];
    node.radius = 1.0;
    s.memcells.push(MemCell { node, text: int.intern(b"grove at (p1)"), ..MemCell::default() });
    s.strings = int.table;
    s.write()
}

/// Texture named by generated model kind `k` (one of 4, see [`textures`]).
pub fn model_texture(k: usize) -> String {
    format!("gen/tex{}", k % 4)
}

/// The terrain texture of generated sceneries (`MESH`/`TERR` material).
pub const TERRAIN_TEXTURE: &str = "terrain/grass";

/// Uncompressed 32-bit TGA (top row first) of `w × h` pixels from `f(x, y)` → RGBA.
pub fn tga(w: u16, h: u16, f: impl Fn(u16, u16) -> [u8; 4]) -> Vec<u8> {
    let mut b = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    b.extend(w.to_le_bytes());
    b.extend(h.to_le_bytes());
    b.extend([32, 0x28]);
    for y in 0..h {
        for x in 0..w {
            let [r, g, bl, a] = f(x, y);
            b.extend([bl, g, r, a]);
        }
    }
    b
}

/// The textures generated sceneries name, as `textures/…` TGA files: the terrain's grass
/// and four model textures (brick, stripes, checker, planks).
pub fn textures() -> Vec<(String, Vec<u8>)> {
    let grass = tga(64, 64, |x, y| {
        let n = ((u32::from(x) * 7919 + u32::from(y) * 104_729) % 23) as u8;
        [60 + n, 120 + 2 * n, 40 + n / 2, 255]
    });
    let model = |k: u16| {
        tga(32, 32, move |x, y| match k {
            0 if y % 8 == 0 || (x + if y / 8 % 2 == 0 { 0 } else { 8 }) % 16 == 0 => [200, 200, 190, 255],
            0 => [150, 60, 40, 255],
            1 if (x / 4) % 2 == 0 => [230, 200, 40, 255],
            1 => [40, 40, 40, 255],
            2 if (x / 8 + y / 8) % 2 == 0 => [30, 110, 200, 255],
            2 => [230, 230, 230, 255],
            _ if y % 8 == 0 => [70, 45, 20, 255],
            _ => [140, 95, 50, 255],
        })
    };
    let mut out = vec![(format!("textures/{TERRAIN_TEXTURE}.tga"), grass)];
    out.extend((0..4).map(|k| (format!("textures/{}.tga", model_texture(usize::from(k))), model(k))));
    out
}

/// Small E3D models for kinds `0..kinds`: (path, bytes), a textured pyramid of varying
/// height.
pub fn models(kinds: usize) -> Vec<(String, Vec<u8>)> {
    (0..kinds)
        .map(|k| {
            let h = 2.0 + (k % 10) as f32;
            let p = [[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [0.0, h, 0.0]];
            let uv = |p: [f32; 3]| [(p[0] + p[2] + 2.0) / 2.0, (h - p[1]) / 2.0];
            let vertices: Vec<Vertex> =
                p.iter().map(|&position| Vertex { position, normal: [0.0, 1.0, 0.0], uv: uv(position) }).collect();
            let indices = [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0];
            (model_path(k), write_simple(&vertices, &indices, model_texture(k).as_bytes(), format!("m{k}").as_bytes()))
        })
        .collect()
}

/// Zipf(s) over ranks `0..n` by inverse CDF lookup.
#[derive(Debug, Clone)]
struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    /// Distribution over `n` ranks with exponent `s`.
    fn new(n: usize, s: f64) -> Self {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (1..=n.max(1))
            .map(|k| {
                acc += 1.0 / (k as f64).powf(s);
                acc
            })
            .collect();
        for c in &mut cdf {
            *c /= acc;
        }
        Self { cdf }
    }
    /// Samples a rank.
    fn sample(&self, rng: &mut SplitMix64) -> usize {
        let u = rng.unit_f64();
        self.cdf.partition_point(|&c| c <= u).min(self.cdf.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_is_skewed() {
        let mut r = SplitMix64::new(7);
        let z = Zipf::new(100, 1.0);
        let mut hits = [0u32; 100];
        for _ in 0..10_000 {
            hits[z.sample(&mut r)] += 1;
        }
        // Rank 0 carries about 1/H(100) ≈ 19 % of the mass, rank 99 about 0.2 %.
        assert!(hits[0] > 1500 && hits[0] < 2400, "{}", hits[0]);
        assert!(hits[0] > 20 * hits[99]);
    }
}
