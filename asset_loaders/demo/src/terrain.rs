//! Procedural terrains: a seeded value-noise height field (only `+ - *`, so identical
//! on every platform) with plains, hills and a water basin, written as `Land.msh`,
//! and an areal map that partitions the walkable ground.

use crate::rng::Rng;
use iron3d_formats::Result;
use iron3d_formats::world::{ArealMap, ArealMapBuilder, LandMsh, TerrainBuilder};

/// Face flag of water surfaces (spec `world.md` §2.2: reflective surface).
pub const WATER_FLAG: u32 = 0x20000;
/// Face flag "has microtexture" carried by ordinary ground.
pub const GROUND_FLAG: u32 = 0x400;
/// Areal class of walkable ground.
pub const GROUND_CLASS: u32 = 1;

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
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

impl HeightField {
    /// Heights for `spec` from the `terrain/<name>` stream of `seed`.
    pub fn new(seed: u64, name: &str, spec: MapSpec) -> Self {
        let n = 9;
        let mut rng = Rng::stream(seed, &format!("terrain/{name}"));
        let lattice = (0..n * n).map(|_| rng.unit()).collect();
        Self { lattice, n, spec }
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

    /// The water surface height.
    pub fn water_level(&self) -> f32 {
        self.spec.relief * 0.08
    }
}

/// Builds `Land.msh`: ground faces with a material by height (plains, slopes,
/// ridges) and water faces flagged reflective.
pub fn land_msh(field: &HeightField) -> Result<LandMsh> {
    let spec = field.spec;
    let mut b = TerrainBuilder::new();
    let w = spec.cells + 1;
    for j in 0..w {
        for i in 0..w {
            let (x, y) = (f32::from(i) * spec.cell, f32::from(j) * spec.cell);
            b.vertex([x, y, field.height(x, y)], [f32::from(i) / 4.0, f32::from(j) / 4.0])?;
        }
    }
    for j in 0..spec.cells {
        for i in 0..spec.cells {
            let v = |di: u16, dj: u16| (j + dj) * w + i + di;
            let (cx, cy) = ((f32::from(i) + 0.5) * spec.cell, (f32::from(j) + 0.5) * spec.cell);
            let (flags, material) = if field.is_water(cx, cy) {
                (WATER_FLAG, [4, 0xFF])
            } else {
                let h = field.height(cx, cy) / spec.relief;
                let layer = if h < 0.2 { 1 } else if h < 0.45 { 2 } else { 3 };
                (GROUND_FLAG, [layer, 0xFF])
            };
            b.face([v(0, 0), v(1, 0), v(1, 1)], flags, material)?;
            b.face([v(0, 0), v(1, 1), v(0, 1)], flags, material)?;
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
            if field.is_water(x0 + step / 2.0, y0 + step / 2.0) {
                continue;
            }
            let corner = |x: f32, y: f32| [x, y, field.height(x, y)];
            let square = vec![corner(x0, y0), corner(x1, y0), corner(x1, y1), corner(x0, y1)];
            b.add_polygon(square, GROUND_CLASS, 0)?;
        }
    }
    b.build(128, 128)
}
