//! Procedural terrains: a seeded value-noise height field (only `+ - *`, so identical
//! on every platform) with plains, hills and a water basin, written as `Land.msh`
//! with overlays (sandy shore, dirt tracks along the mission paths, scorched ground at
//! the bases), and an areal map that partitions the walkable ground.

use iron3d_formats::Result;
use iron3d_formats::rng::SplitMix64;
use iron3d_formats::world::land_msh::NO_OVERLAY;
use iron3d_formats::world::{ArealMap, ArealMapBuilder, LandMsh, TerrainBuilder, Tma};

/// Face flag of water surfaces (`docs/reference/world.md` §2.2: reflective surface).
pub const WATER_FLAG: u32 = 0x20000;
/// Face flag "has microtexture" carried by ordinary ground.
pub const GROUND_FLAG: u32 = 0x400;
/// Areal class of walkable ground.
pub const GROUND_CLASS: u32 = 1;
/// `land1.wea` row (high selector, `docs/reference/world.md` §2.4 reading A) of the sandy shore
/// around the lake.
pub const SHORE: u8 = 1;
/// `land1.wea` row of the dirt tracks along the mission paths.
pub const TRACK: u8 = 2;
/// `land1.wea` row of the scorched ground around the bases.
pub const SCORCH: u8 = 3;

/// The shape of one map.
#[derive(Debug, Clone, Copy)]
pub struct MapSpec {
    /// Cells per side (two faces per cell).
    pub cells: u16,
    /// Cell size in world units.
    pub cell: f32,
    /// Highest hill.
    pub relief: f32,
    /// Water basin centre (fractions of the side) and radius (fraction of the side).
    pub lake: [f32; 3],
    /// Areal squares per side.
    pub areals: u16,
}

impl MapSpec {
    /// Side length in world units.
    pub fn side(&self) -> f32 {
        f32::from(self.cells) * self.cell
    }
}

/// A seeded height field.
pub struct HeightField {
    lattice: Vec<f32>,
    n: usize,
    spec: MapSpec,
    /// Stream roughening the overlay borders.
    edges: SplitMix64,
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

impl HeightField {
    /// Heights for `spec` from the `terrain/<name>` stream of `seed`.
    pub fn new(seed: u64, name: &str, spec: MapSpec) -> Self {
        let n = 9;
        let mut rng = SplitMix64::stream(seed, &format!("terrain/{name}"));
        let lattice = (0..n * n).map(|_| rng.unit()).collect();
        Self { lattice, n, spec, edges: SplitMix64::stream(seed, &format!("terrain/{name}/overlay-edges")) }
    }

    fn noise(&self, u: f32, v: f32) -> f32 {
        let scaled = |t: f32| t.clamp(0.0, 0.999_99) * (self.n - 1) as f32;
        let (fx, fy) = (scaled(u), scaled(v));
        let (ix, iy) = (fx as usize, fy as usize);
        let (tx, ty) = (smooth(fx - ix as f32), smooth(fy - iy as f32));
        let at = |x: usize, y: usize| self.lattice[y.min(self.n - 1) * self.n + x.min(self.n - 1)];
        let top = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * tx;
        let bottom = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * tx;
        top + (bottom - top) * ty
    }

    /// True inside the water basin.
    pub fn is_water(&self, x: f32, y: f32) -> bool {
        let side = self.spec.side();
        let [cx, cy, r] = self.spec.lake;
        let (dx, dy) = (x / side - cx, y / side - cy);
        dx * dx + dy * dy < r * r
    }

    /// Height at world `(x, y)`: rolling hills, flattened plains near the centre of
    /// each base, and a basin below the water line.
    pub fn height(&self, x: f32, y: f32) -> f32 {
        let side = self.spec.side();
        let (u, v) = (x / side, y / side);
        let hills = self.noise(u, v) * 0.75 + self.noise(v * 0.5 + 0.25, u * 0.5 + 0.5) * 0.25;
        let h = hills * hills * self.spec.relief;
        if self.is_water(x, y) { self.water_level() - 4.0 } else { h.max(self.water_level() + 1.0) }
    }

    /// Side of one areal square of [`land_map`].
    fn areal_step(&self) -> f32 {
        self.spec.side() / f32::from(self.spec.areals)
    }

    /// Whether [`land_map`] makes areal square `(i, j)` (its centre is dry).
    fn square_is_dry(&self, i: u16, j: u16) -> bool {
        let step = self.areal_step();
        !self.is_water(f32::from(i) * step + step / 2.0, f32::from(j) * step + step / 2.0)
    }

    /// True where [`land_map`] has an areal: on the map, in a square whose centre is
    /// dry (dry ground near the lake can lie in a square that is left out).
    pub fn is_walkable(&self, x: f32, y: f32) -> bool {
        let step = self.areal_step();
        let cell = |v: f32| (v >= 0.0 && v < self.spec.side()).then(|| ((v / step) as u16).min(self.spec.areals - 1));
        matches!((cell(x), cell(y)), (Some(i), Some(j)) if self.square_is_dry(i, j))
    }

    /// True on dry ground within `width` world units of the lake.
    pub fn is_shore(&self, x: f32, y: f32, width: f32) -> bool {
        let side = self.spec.side();
        let [cx, cy, r] = self.spec.lake;
        let (dx, dy, reach) = (x / side - cx, y / side - cy, r + width / side);
        !self.is_water(x, y) && dx * dx + dy * dy < reach * reach
    }

    /// The water surface height.
    pub fn water_level(&self) -> f32 {
        self.spec.relief * 0.08
    }
}

/// Where a mission wants overlays: its active clans' base anchors and its paths (XY).
#[derive(Debug, Clone)]
pub struct OverlaySites {
    /// Base anchors.
    pub bases: Vec<[f32; 2]>,
    /// Path polylines.
    pub tracks: Vec<Vec<[f32; 2]>>,
}

/// Radius of the scorched ground around a base anchor (the buildings stand 90..170
/// units out), before the ragged edge.
const SCORCH_RADIUS: f32 = 150.0;

fn distance2(a: [f32; 2], b: [f32; 2]) -> f32 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    dx * dx + dy * dy
}

/// Squared distance from `p` to the segment `a..b`.
fn segment_distance2(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let (ab, ap) = ([b[0] - a[0], b[1] - a[1]], [p[0] - a[0], p[1] - a[1]]);
    let len2 = ab[0] * ab[0] + ab[1] * ab[1];
    let t = if len2 > 0.0 { ((ap[0] * ab[0] + ap[1] * ab[1]) / len2).clamp(0.0, 1.0) } else { 0.0 };
    distance2(p, [a[0] + ab[0] * t, a[1] + ab[1] * t])
}

impl OverlaySites {
    /// The sites of a mission: anchors of clans with a base (mode ≠ 0) and every path.
    pub fn of_mission(tma: &Tma) -> Self {
        Self {
            bases: tma.clans.iter().filter(|c| c.mode != 0).map(|c| [c.anchor_x, c.anchor_y]).collect(),
            tracks: tma.paths.iter().map(|p| p.points.iter().map(|q| [q[0], q[1]]).collect()).collect(),
        }
    }

    /// The overlay row of a dry face centred at `p`; `edge` in `[0, 1)` roughens the
    /// scorch border. Scorch wins over track, track over shore.
    fn overlay(&self, field: &HeightField, p: [f32; 2], edge: f32) -> u8 {
        let cell = field.spec.cell;
        let scorch = SCORCH_RADIUS * (0.8 + 0.4 * edge);
        let half_width = cell * 1.25;
        if self.bases.iter().any(|&b| distance2(p, b) < scorch * scorch) {
            SCORCH
        } else if self
            .tracks
            .iter()
            .any(|t| t.windows(2).any(|s| segment_distance2(p, s[0], s[1]) < half_width * half_width))
        {
            TRACK
        } else if field.is_shore(p[0], p[1], cell * 2.5) {
            SHORE
        } else {
            NO_OVERLAY
        }
    }
}

/// Builds `Land.msh`: ground faces with a base material by height (plains, slopes,
/// ridges) and an overlay from `sites`, and water faces flagged reflective.
pub fn land_msh(field: &HeightField, sites: &OverlaySites) -> Result<LandMsh> {
    let spec = field.spec;
    let mut b = TerrainBuilder::new();
    let w = spec.cells + 1;
    for j in 0..w {
        for i in 0..w {
            let (x, y) = (f32::from(i) * spec.cell, f32::from(j) * spec.cell);
            b.vertex([x, y, field.height(x, y)], [f32::from(i) / 4.0, f32::from(j) / 4.0])?;
        }
    }
    let mut edges = field.edges.clone();
    for j in 0..spec.cells {
        for i in 0..spec.cells {
            let v = |di: u16, dj: u16| (j + dj) * w + i + di;
            let at = |di: f32, dj: f32| [(f32::from(i) + di) * spec.cell, (f32::from(j) + dj) * spec.cell];
            let [cx, cy] = at(0.5, 0.5);
            let edge = edges.unit();
            // Each triangle's overlay is taken at its centroid.
            let halves = [
                ([v(0, 0), v(1, 0), v(1, 1)], at(2.0 / 3.0, 1.0 / 3.0)),
                ([v(0, 0), v(1, 1), v(0, 1)], at(1.0 / 3.0, 2.0 / 3.0)),
            ];
            for (vertices, centroid) in halves {
                let (flags, material) = if field.is_water(cx, cy) {
                    (WATER_FLAG, [4, NO_OVERLAY])
                } else {
                    let h = field.height(cx, cy) / spec.relief;
                    let layer = if h < 0.2 {
                        1
                    } else if h < 0.45 {
                        2
                    } else {
                        3
                    };
                    (GROUND_FLAG, [layer, sites.overlay(field, centroid, edge)])
                };
                b.face(vertices, flags, material)?;
            }
        }
    }
    b.build()
}

/// Builds `Land.map`: square areals over the ground (water squares are left out, so
/// the lake is impassable), linked along shared edges, with a 128 x 128 grid.
pub fn land_map(field: &HeightField) -> Result<ArealMap> {
    let spec = field.spec;
    let step = spec.side() / f32::from(spec.areals);
    let mut b = ArealMapBuilder::new();
    for j in 0..spec.areals {
        for i in 0..spec.areals {
            let (x0, y0) = (f32::from(i) * step, f32::from(j) * step);
            let (x1, y1) = (x0 + step, y0 + step);
            if !field.square_is_dry(i, j) {
                continue;
            }
            let corner = |x: f32, y: f32| [x, y, field.height(x, y)];
            let square = vec![corner(x0, y0), corner(x1, y0), corner(x1, y1), corner(x0, y1)];
            b.add_polygon(square, GROUND_CLASS, 0)?;
        }
    }
    b.build(128, 128)
}
