//! Surface queries on a prepared terrain (`docs/reference/world.md` §2.7, a design choice of
//! this implementation): height and normal at an XY point and ray casts, accelerated
//! by a uniform XY grid of face lists so a query touches only nearby faces.
//!
//! Height at XY = the highest Z among faces covering the point; ties (equal Z, equal
//! ray distance) go to the lower face index.

use super::land_msh::LandMsh;

/// A surface sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceHit {
    /// Face index.
    pub face: usize,
    /// Surface height.
    pub z: f32,
    /// Unit face normal, oriented up (+Z).
    pub normal: [f32; 3],
}

/// A ray hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// Face index.
    pub face: usize,
    /// Ray parameter (`point = origin + t · dir`).
    pub t: f32,
    /// Hit point.
    pub point: [f32; 3],
}

/// The query structure: triangles and a grid of candidate face lists (CSR layout).
#[derive(Debug, Clone)]
pub struct TerrainQuery {
    tris: Vec<[[f32; 3]; 3]>,
    min: [f32; 2],
    cell: [f32; 2],
    dims: [usize; 2],
    starts: Vec<u32>,
    items: Vec<u32>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

impl TerrainQuery {
    /// Prepares the queries (a face referencing a missing vertex — impossible after
    /// parsing — becomes a degenerate face that never matches).
    pub fn new(terrain: &LandMsh) -> Self {
        let tris: Vec<[[f32; 3]; 3]> =
            (0..terrain.faces.len()).map(|i| terrain.triangle(i).unwrap_or([[0.0; 3]; 3])).collect();
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for p in tris.iter().flatten() {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if tris.is_empty() {
            (lo, hi) = ([0.0; 2], [1.0; 2]);
        }
        // About two faces per cell, at most 1024 cells per axis.
        let side = ((tris.len() as f64 / 2.0).sqrt().ceil() as usize).clamp(1, 1024);
        let dims = [side, side];
        let cell = [0, 1].map(|k| ((hi[k] - lo[k]) / side as f32).max(f32::EPSILON * hi[k].abs().max(1.0)));
        let mut q = Self { tris, min: lo, cell, dims, starts: Vec::new(), items: Vec::new() };
        let ranges: Vec<[usize; 4]> = q.tris.iter().map(|t| q.cell_range(t)).collect();
        let mut counts = vec![0u32; side * side + 1];
        for r in &ranges {
            for y in r[1]..=r[3] {
                for x in r[0]..=r[2] {
                    counts[y * side + x + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        q.items = vec![0; counts[side * side] as usize];
        for (face, r) in ranges.iter().enumerate() {
            for y in r[1]..=r[3] {
                for x in r[0]..=r[2] {
                    let slot = &mut fill[y * side + x];
                    q.items[*slot as usize] = face as u32;
                    *slot += 1;
                }
            }
        }
        q.starts = counts;
        q
    }

    fn cell_of(&self, x: f32, k: usize) -> usize {
        // Truncation is the floor here (negative and NaN go to cell 0; no `floorf` call).
        let c = (x - self.min[k]) / self.cell[k];
        if c >= 0.0 { (c as usize).min(self.dims[k] - 1) } else { 0 }
    }

    fn cell_range(&self, t: &[[f32; 3]; 3]) -> [usize; 4] {
        let pad = [self.cell[0] * 1e-3, self.cell[1] * 1e-3];
        let lo = |k: usize| t.iter().map(|p| p[k]).fold(f32::MAX, f32::min) - pad[k];
        let hi = |k: usize| t.iter().map(|p| p[k]).fold(f32::MIN, f32::max) + pad[k];
        [self.cell_of(lo(0), 0), self.cell_of(lo(1), 1), self.cell_of(hi(0), 0), self.cell_of(hi(1), 1)]
    }

    fn faces_in(&self, x: usize, y: usize) -> &[u32] {
        let i = y * self.dims[0] + x;
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    fn inside_xy(&self, x: f32, y: f32) -> bool {
        let hi = |k: usize| self.min[k] + self.cell[k] * self.dims[k] as f32;
        x >= self.min[0] && y >= self.min[1] && x <= hi(0) && y <= hi(1)
    }

    /// Largest number of faces in one grid cell.
    pub fn max_faces_per_cell(&self) -> usize {
        self.starts.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// Grid dimensions `[cells_x, cells_y]`.
    pub fn grid_dims(&self) -> [usize; 2] {
        self.dims
    }

    /// The surface at `(x, y)`: highest covering face, or `None` off the terrain.
    pub fn surface_at(&self, x: f32, y: f32) -> Option<SurfaceHit> {
        if !self.inside_xy(x, y) {
            return None;
        }
        let mut best: Option<SurfaceHit> = None;
        for &f in self.faces_in(self.cell_of(x, 0), self.cell_of(y, 1)) {
            let Some(hit) = self.tris.get(f as usize).and_then(|t| sample(t, x, y, f as usize)) else { continue };
            let better = match best {
                None => true,
                Some(b) => hit.z > b.z || (hit.z == b.z && hit.face < b.face),
            };
            if better {
                best = Some(hit);
            }
        }
        best
    }

    /// Height at `(x, y)`.
    pub fn height_at(&self, x: f32, y: f32) -> Option<f32> {
        self.surface_at(x, y).map(|h| h.z)
    }

    /// Up-facing face normal at `(x, y)`.
    pub fn normal_at(&self, x: f32, y: f32) -> Option<[f32; 3]> {
        self.surface_at(x, y).map(|h| h.normal)
    }

    /// The nearest face hit by `origin + t · dir` with `0 <= t <= max_t` (both sides of
    /// faces count), walking the grid cells the ray crosses in XY.
    pub fn ray_cast(&self, origin: [f32; 3], dir: [f32; 3], max_t: f32) -> Option<RayHit> {
        if origin.iter().chain(&dir).any(|v| !v.is_finite()) || max_t.is_nan() {
            return None;
        }
        let (mut t0, mut t1) = (0.0f32, max_t);
        let hi = [0, 1].map(|k| self.min[k] + self.cell[k] * self.dims[k] as f32);
        for k in 0..2 {
            if dir[k] == 0.0 {
                if origin[k] < self.min[k] || origin[k] > hi[k] {
                    return None;
                }
            } else {
                let (a, b) = ((self.min[k] - origin[k]) / dir[k], (hi[k] - origin[k]) / dir[k]);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
        }
        // NaN-safe: also stops on a NaN parameter.
        if t0.partial_cmp(&t1).is_none_or(|o| o == std::cmp::Ordering::Greater) {
            return None;
        }
        let start = [origin[0] + dir[0] * t0, origin[1] + dir[1] * t0];
        let mut cell = [self.cell_of(start[0], 0), self.cell_of(start[1], 1)];
        let mut step = [0isize; 2];
        let mut next = [f32::INFINITY; 2];
        let mut delta = [f32::INFINITY; 2];
        for k in 0..2 {
            if dir[k] > 0.0 {
                step[k] = 1;
                next[k] = (self.min[k] + (cell[k] + 1) as f32 * self.cell[k] - origin[k]) / dir[k];
                delta[k] = self.cell[k] / dir[k];
            } else if dir[k] < 0.0 {
                step[k] = -1;
                next[k] = (self.min[k] + cell[k] as f32 * self.cell[k] - origin[k]) / dir[k];
                delta[k] = -self.cell[k] / dir[k];
            }
        }
        let mut best: Option<RayHit> = None;
        loop {
            for &f in self.faces_in(cell[0], cell[1]) {
                let Some(t) = self.tris.get(f as usize).and_then(|tri| intersect(tri, origin, dir)) else { continue };
                if t < 0.0 || t > max_t {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some(b) => t < b.t || (t == b.t && (f as usize) < b.face),
                };
                if better {
                    let point = [0, 1, 2].map(|k| origin[k] + dir[k] * t);
                    best = Some(RayHit { face: f as usize, t, point });
                }
            }
            let exit = next[0].min(next[1]);
            if best.is_some_and(|b| b.t < exit) || exit > t1 {
                return best;
            }
            let k = if next[0] < next[1] { 0 } else { 1 };
            if step[k] == 0 {
                return best;
            }
            let moved = cell[k] as isize + step[k];
            if moved < 0 || moved as usize >= self.dims[k] {
                return best;
            }
            cell[k] = moved as usize;
            next[k] += delta[k];
        }
    }
}

/// Surface sample of one triangle at XY (edges inclusive, degenerate faces skipped).
fn sample(t: &[[f32; 3]; 3], x: f32, y: f32, face: usize) -> Option<SurfaceHit> {
    let [a, b, c] = *t;
    let d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    if d.abs() <= f32::EPSILON * 1e-3 {
        return None;
    }
    let l0 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / d;
    let l1 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / d;
    let l2 = 1.0 - l0 - l1;
    let eps = -1e-5;
    if l0 < eps || l1 < eps || l2 < eps {
        return None;
    }
    let mut n = cross(sub(b, a), sub(c, a));
    if n[2] < 0.0 {
        n = n.map(|v| -v);
    }
    let len = dot(n, n).sqrt();
    Some(SurfaceHit { face, z: l0 * a[2] + l1 * b[2] + l2 * c[2], normal: n.map(|v| v / len) })
}

/// Möller–Trumbore ray/triangle intersection (two-sided); returns `t`.
fn intersect(t: &[[f32; 3]; 3], origin: [f32; 3], dir: [f32; 3]) -> Option<f32> {
    let [a, b, c] = *t;
    let (e1, e2) = (sub(b, a), sub(c, a));
    let p = cross(dir, e2);
    let det = dot(e1, p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub(origin, a);
    let u = dot(s, p) * inv;
    if !(-1e-6..=1.0 + 1e-6).contains(&u) {
        return None;
    }
    let q = cross(s, e1);
    let v = dot(dir, q) * inv;
    if v < -1e-6 || u + v > 1.0 + 1e-6 {
        return None;
    }
    Some(dot(e2, q) * inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::land_msh::TerrainBuilder;

    fn plane() -> TerrainQuery {
        // z = 0.5 x + 2 over a 20 x 10 grid of 1-unit cells.
        TerrainQuery::new(&TerrainBuilder::height_field(20, 10, 1.0, |x, _| 0.5 * x + 2.0).unwrap())
    }

    #[test]
    fn height_and_normal_follow_the_plane() {
        let q = plane();
        for (x, y) in [(0.0, 0.0), (3.25, 4.75), (19.99, 9.99), (20.0, 10.0), (7.5, 0.0)] {
            let z = q.height_at(x, y).unwrap();
            assert!((z - (0.5 * x + 2.0)).abs() < 1e-4, "({x},{y}) -> {z}");
        }
        let n = q.normal_at(5.3, 5.1).unwrap();
        let expected = [-0.5f32, 0.0, 1.0].map(|v| v / 1.25f32.sqrt());
        assert!(n.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-5), "{n:?}");
        assert_eq!(q.height_at(-0.1, 5.0), None, "explicit miss off the terrain");
        assert_eq!(q.height_at(5.0, 10.5), None);
        assert!(q.max_faces_per_cell() < 20, "the grid keeps candidate lists small");
    }

    #[test]
    fn overlapping_faces_pick_the_highest() {
        let mut b = TerrainBuilder::new();
        for z in [1.0, 5.0] {
            let v: Vec<u16> = [[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]
                .iter()
                .map(|p| b.vertex([p[0], p[1], z], [0.0; 2]).unwrap())
                .collect();
            b.face([v[0], v[1], v[2]], 0, [0, 0]).unwrap();
        }
        let q = TerrainQuery::new(&b.build().unwrap());
        let hit = q.surface_at(1.0, 1.0).unwrap();
        assert_eq!((hit.face, hit.z), (1, 5.0));
    }

    #[test]
    fn ray_casts_hit_the_nearest_face() {
        let q = plane();
        let down = q.ray_cast([4.5, 3.5, 100.0], [0.0, 0.0, -1.0], 1000.0).unwrap();
        assert!((down.point[2] - 4.25).abs() < 1e-4, "{down:?}");
        assert!((down.t - 95.75).abs() < 1e-3);
        // A slanted ray from outside the grid, crossing many cells before it lands.
        let dir = [1.0, 0.5, -0.2];
        let hit = q.ray_cast([-5.0, 1.0, 12.0], dir, 1000.0).unwrap();
        let p = hit.point;
        assert!((p[2] - (0.5 * p[0] + 2.0)).abs() < 1e-3, "{hit:?}");
        // Brute force over every face agrees.
        let brute = q
            .tris
            .iter()
            .enumerate()
            .filter_map(|(i, t)| intersect(t, [-5.0, 1.0, 12.0], dir).filter(|&t| t >= 0.0).map(|t| (t, i)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .unwrap();
        assert_eq!(brute.1, hit.face);
        assert!(q.ray_cast([4.5, 3.5, 100.0], [0.0, 0.0, 1.0], 1000.0).is_none(), "pointing away");
        assert!(q.ray_cast([4.5, 3.5, 100.0], [0.0, 0.0, -1.0], 10.0).is_none(), "too short");
        assert!(q.ray_cast([-5.0, -5.0, 1.0], [-1.0, 0.0, 0.0], 100.0).is_none(), "outside");
        assert!(
            q.ray_cast([4.5, 3.5, 100.0], [0.0, 0.0, 1.0], f32::INFINITY).is_none(),
            "unbounded, no hit, terminates"
        );
        assert!(q.ray_cast([4.5, 3.5, 100.0], [0.0, 0.0, -1.0], f32::INFINITY).is_some());
        assert!(q.ray_cast([4.5, 3.5, 100.0], [f32::NAN, 0.0, -1.0], 10.0).is_none(), "non-finite input");
    }
}
